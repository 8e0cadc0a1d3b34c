"""A Wizards Cup player's cards and Victory tokens, and the preparation step they are at."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Step(StrEnum):
    """A player's preparation step before a round (the ``kind`` of the decision they are asked)."""

    CHOOSE_DECK = "choose_deck"
    PLAN = "plan"
    SWAP = "swap"
    DONE = "done"


@dataclass(slots=True)
class PlayerState:
    random_pick: str | None = None
    team: list[str] = field(default_factory=list)  # the 6 cards of the Deck (across rounds)
    pile: list[str] = field(default_factory=list)  # the Deck during a round, top first
    waiting: str | None = None
    waiting_known: bool = False  # its identity is public (The Detective went back face down)
    duel: str | None = None
    discard: list[str] = field(default_factory=list)  # bottom ... top
    tokens: int = 0
    step: Step = Step.CHOOSE_DECK

    def cards_in_play(self) -> list[str]:
        out = list(self.pile) + list(self.discard)
        out += [c for c in (self.waiting, self.duel) if c is not None]
        return out

    def copy(self) -> PlayerState:
        """An independent copy (the lists are copied; card ids are immutable)."""
        return PlayerState(
            self.random_pick,
            list(self.team),
            list(self.pile),
            self.waiting,
            self.waiting_known,
            self.duel,
            list(self.discard),
            self.tokens,
            self.step,
        )
