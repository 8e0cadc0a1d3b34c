"""What a Magic Duel game is made of: the hands, the two decks, the tricks gathered, the points,
the trick being cast and the draw queue, with the queries the rules ask of them.

``MagicDuelTable`` holds this data; ``state.py`` builds the State on it (decisions, legal actions,
checks, the deal, forfeits), ``tricks.py`` (casting and resolving tricks, the draws between them,
scoring a hand) and ``draws.py`` (drawing from the decks) change it. ``TrickRecord`` is JSON-ready:
the view shows it as it is.
"""

from __future__ import annotations

from functools import cache
from typing import NotRequired, TypedDict

from ..core import Event, Outcome, State, seat_ref
from .cards import HAND_SIZE
from .game import MagicDuel, Phase
from .scoring import ScoringRecord
from .verdict import RevealedPlay, Trick, TrickRule

#: ``seat_ref(seat)`` of every seat, built once.
SEAT_REF = tuple(seat_ref(s) for s in range(MagicDuel.max_seats))
#: ``visible_to`` of a seat's private event.
ONLY_SEAT = tuple(frozenset({s}) for s in range(MagicDuel.max_seats))


@cache
def _rotations(num_seats: int) -> tuple[tuple[int, ...], ...]:
    """Every seat in seat order from each seat."""
    return tuple(tuple((start + k) % num_seats for k in range(num_seats)) for start in range(num_seats))


class TrickRecord(TypedDict):
    """The last trick resolved in this hand (the view's ``last_trick``)."""

    hand: int
    trick: int
    replay: int
    last: bool
    plays: list[RevealedPlay]
    passed: list[int]
    rule: TrickRule
    reason: str
    winner: int | None
    tied: bool
    combination: NotRequired[str]
    runner_up: NotRequired[int | None]


class MagicDuelTable(State):
    game: MagicDuel

    def __init__(self, game: MagicDuel):
        super().__init__(game)
        n = self.num_seats
        self.points_to_win = game.options.points_to_win
        self.phase = Phase.DEAL
        self.hand_no = 0
        self.hand_leader = 0  # who leads the first trick of the current hand
        self.leader = 0
        self.removed: list[int] = []  # in order of removal
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.risk: list[str] = []  # top first
        self.advantage: list[str] = []  # top first
        self.gathered: list[list[list[str]]] = [[] for _ in range(n)]
        self.points = [0] * n
        self.set_aside: list[str] = []  # cards of removed players (out of this hand)
        self.cursed_by: int | None = None  # who drew the Cursed Spell: the decks are closed
        self.trick: Trick | None = None
        self.draw_queue: list[int] = []
        self.next_trick = 1  # the trick cast after the draws
        self.trick_winner: int | None = None
        self.last_trick: TrickRecord | None = None
        self.last_scoring: ScoringRecord | None = None
        self.final: Outcome | None = None

    def copy_table_into(self, new: MagicDuelTable) -> None:
        """Give ``new`` (a copy of this table's ``__dict__``) its own copies of the lists that
        change; cards, combinations, records (replaced, never changed) and the outcome are shared."""
        new.removed = list(self.removed)
        new.hands = [list(h) for h in self.hands]
        new.risk = list(self.risk)
        new.advantage = list(self.advantage)
        new.gathered = [list(g) for g in self.gathered]
        new.points = list(self.points)
        new.set_aside = list(self.set_aside)
        new.trick = self.trick.copy() if self.trick is not None else None
        new.draw_queue = list(self.draw_queue)

    # ------------------------------------------------------------------ queries
    @property
    def active(self) -> list[int]:
        return [s for s in range(self.num_seats) if s not in self.removed]

    def next_active_after(self, seat: int) -> int:
        for k in range(1, self.num_seats + 1):
            s = (seat + k) % self.num_seats
            if s not in self.removed:
                return s
        return seat

    def rotation_from(self, seat: int) -> list[int]:
        """Active seats in seat order starting from ``seat`` (or the next active one)."""
        if not self.removed:
            return list(_rotations(self.num_seats)[seat])
        start = seat if seat not in self.removed else self.next_active_after(seat)
        return [s for s in ((start + k) % self.num_seats for k in range(self.num_seats)) if s not in self.removed]

    @property
    def closed(self) -> bool:
        """The Cursed Spell was drawn: both decks are closed."""
        return self.cursed_by is not None

    def tricks_count(self) -> list[int]:
        return [len(g) for g in self.gathered]

    def draw_need(self, seat: int) -> int:
        return max(0, HAND_SIZE - len(self.hands[seat]))

    # ------------------------------------------------------------------ the end
    def finish(self, outcome: Outcome) -> list[Event]:
        """The game is over with ``outcome``."""
        self.final = outcome
        self.phase = Phase.OVER
        self.trick = None
        self.draw_queue = []
        return [Event("game_end", outcome.summary, {"outcome": outcome.to_json(), "points": list(self.points)})]
