"""A match: a game state with its append-only action log, and the JSON form that replays it.

Chance is drawn from :func:`chance_rng` (seeded by the match seed and the log position) and logged
as actions, so a log replays a match exactly, whether it ran in one go or was rebuilt after a
restart. ``python -m rules replay`` reads these logs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .actions import model_maker
from .core import CHANCE, ActionModel, Actor, Awaiting, Event, Game, Outcome, State, public_events
from .errors import IllegalAction, RulesError
from .registry import get_game


class LogEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int | Literal["chance"]
    action: dict[str, Any]


#: ``LogEntry(seat=seat, action=action)`` for an entry the match makes itself (a seat or chance
#: already checked, an action's fresh JSON), without validation.
_log_entry = model_maker(LogEntry, "seat", "action")


class MatchLog(BaseModel):
    """The JSON form of a match: replaying ``actions`` from a new state gives the same game."""

    model_config = ConfigDict(extra="forbid")

    game: str
    options: dict[str, Any] = {}
    seed: int = 0
    seats: list[str]
    actions: list[LogEntry] = []
    #: The outcome as recorded when the log was written (informational; replay recomputes it).
    outcome: dict[str, Any] | None = None


class ReplayError(RulesError):
    def __init__(self, index: int, entry: Any, error: Exception):
        self.index = index
        self.entry = entry
        self.error = error
        super().__init__(f"Action {index} ({entry}) was refused: {error}")

    def to_json(self) -> dict[str, Any]:
        return {
            "error": type(self.error).__name__,
            "index": self.index,
            "action": self.entry,
            "reason": str(self.error),
        }


def chance_rng(seed: int, index: int) -> random.Random:
    """The RNG for the chance draw at log position ``index``.

    Seeding each draw by (seed, position) makes the draws the same whether a match ran in one
    go or was rebuilt from its log after a restart.
    """
    return random.Random(f"{seed}:{index}")


class Match:
    """A game state with its append-only action log. Chance is drawn and logged automatically."""

    def __init__(self, game: Game[Any, Any, Any], seed: int, seats: Sequence[str]):
        if len(seats) != game.num_seats:
            raise IllegalAction(f"{game.name} was set up for {game.num_seats} seats, got {len(seats)} names.")
        self.game = game
        self.seed = seed
        self.seats = list(seats)
        self.state = game.new_state()
        self.log: list[LogEntry] = []
        self.events: list[Event] = []

    @classmethod
    def new(
        cls,
        game: str,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        seats: Sequence[str] = ("Player 1", "Player 2"),
    ) -> Match:
        game_cls = get_game(game)
        match = cls(game_cls(options, num_seats=len(seats)), seed, seats)
        match.resolve_chance()
        return match

    def to_log(self) -> MatchLog:
        return MatchLog(
            game=self.game.slug,
            options=self.game.options.model_dump(mode="json"),
            seed=self.seed,
            seats=self.seats,
            actions=list(self.log),
        )

    def _record(self, seat: Actor, action: ActionModel, events: list[Event]) -> list[Event]:
        self.log.append(_log_entry(seat, action.to_json()))
        self.events.extend(events)
        return events

    def apply(self, seat: Actor, action: ActionModel | Mapping[str, Any]) -> list[Event]:
        """Apply one action (a seat's or a given chance outcome) and log it. No chance drawing.

        On any error nothing changes: a refused action leaves the state as it was, and if an
        accepted action failed inside the engine (a bug) the state is rebuilt from the log."""
        parsed = self.game.parse_action(action)
        try:
            events = self.state.apply(seat, parsed)
        except BaseException:
            if self.state._broken is not None:
                self.state = self._rebuild()
            raise
        return self._record(seat, parsed, events)

    def _rebuild(self) -> State:
        state = self.game.new_state()
        for entry in self.log:
            state.apply_trusted(entry.seat, self.game.parse_action(entry.action))
        return state

    def resolve_chance(self, max_steps: int = 10_000) -> list[Event]:
        """Draw and log chance outcomes from the seeded RNG while the state awaits chance.
        Returns the new events (they are also added to ``self.events``)."""
        out: list[Event] = []
        steps = 0
        while self.state.awaiting.is_chance:
            steps += 1
            if steps > max_steps:
                raise RuntimeError("chance loop did not end")
            action = self.state.sample_action(CHANCE, chance_rng(self.seed, len(self.log)))
            # The state drew the outcome from its own chance outcomes: legal by construction, so
            # it is applied without the checks (an engine failure still rebuilds from the log).
            try:
                events = self.state.apply_trusted(CHANCE, action)
            except BaseException:
                self.state = self._rebuild()
                raise
            out.extend(self._record(CHANCE, action, events))
        return out

    def act(self, seat: int, action: ActionModel | Mapping[str, Any]) -> list[Event]:
        """A player's move: apply it, then any chance it leads to. Returns every new event.

        On error nothing changes: ``State.apply`` is atomic, and chance is drawn from the
        state's own outcomes only after the move was accepted.
        """
        return self.apply(seat, action) + self.resolve_chance()

    @classmethod
    def replay(cls, log: MatchLog | Mapping[str, Any], *, finish_chance: bool = True) -> Match:
        """Rebuild a match from its log. A chance outcome the log gives is used; one it leaves
        out is drawn from the seed (and added to this match's log). Raises ReplayError."""
        parsed = log if isinstance(log, MatchLog) else MatchLog.model_validate(log)
        game_cls = get_game(parsed.game)
        options = game_cls.options_model.upgrade_stored(parsed.options)
        match = cls(game_cls(options, num_seats=len(parsed.seats)), parsed.seed, parsed.seats)
        for index, entry in enumerate(parsed.actions):
            try:
                if entry.seat != CHANCE:
                    match.resolve_chance()
                match.apply(entry.seat, entry.action)
            except RulesError as exc:
                raise ReplayError(index, entry.model_dump(mode="json"), exc) from exc
        if finish_chance:
            match.resolve_chance()
        return match

    # convenience passthroughs
    @property
    def awaiting(self) -> Awaiting:
        return self.state.awaiting

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    def public_events(self) -> list[Event]:
        return public_events(self.events)


__all__ = ["LogEntry", "Match", "MatchLog", "ReplayError", "chance_rng"]
