"""The interface every game engine implements, and the match log that replays a game.

A game is a :class:`Game` (options, seats, metadata) that creates a :class:`State`.
The state tells whose input is awaited (:class:`Awaiting`): one seat, several seats at once
(simultaneous secret picks: each seat submits on its own, and the state resolves when the
last one is in), chance, or nobody (terminal). ``apply(actor, action)`` validates and applies
one action and returns the :class:`Event` list it caused. Chance outcomes are actions too,
applied with the actor :data:`CHANCE`, so a log of actions replays a match exactly
(as OpenSpiel does).

What a seat is asked is one typed value for every game, :class:`Decision` (``State.asked(seat)``):
the kind of step, the legal choices (or numeric bounds), whether it is secret and simultaneous,
and what the referee plays on time-out. The bot, every UI and AI players read it and nothing else.

``apply`` validates completely before it changes anything (no snapshot copy), so an illegal
action raises a typed :class:`~rules.errors.RulesError` and leaves the state as it was;
``apply_trusted`` skips the checks for actions already known legal (replay, search), and
``clone`` is a cheap independent copy (search).

Each game package binds its State class and its view renderer to its Game in its
``__init__`` (:meth:`Game.bind`), so ``game.py`` (the Game, options, constants), ``state.py``
and ``view.py`` import one another in one direction only: game <- state <- view.

Nothing here imports discord, a database or asyncio: the rules are pure.
"""

from __future__ import annotations

import copy
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, Literal, TypeVar, cast

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from .actions import ActionModel, Forfeit
from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, RulesError
from .events import Event, Outcome, Result, SeatResult, fill_names, public_events, seat_ref

CHANCE: Literal["chance"] = "chance"
Actor = int | Literal["chance"]


class AwaitKind(StrEnum):
    SEATS = "seats"
    CHANCE = "chance"
    TERMINAL = "terminal"


@dataclass(frozen=True)
class Awaiting:
    """Whose input the state waits for.

    ``kind == SEATS``: every seat in ``seats`` owes an action; with several seats they are
    simultaneous secret picks and may arrive in any order.
    """

    kind: AwaitKind
    seats: frozenset[int] = frozenset()
    #: ``kind is CHANCE`` and ``kind is TERMINAL``, set once (asked at every step of a playout).
    is_chance: bool = field(init=False, repr=False, compare=False)
    is_terminal: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_chance", self.kind is AwaitKind.CHANCE)
        object.__setattr__(self, "is_terminal", self.kind is AwaitKind.TERMINAL)

    @classmethod
    def of(cls, *seats: int) -> Awaiting:
        return cls(AwaitKind.SEATS, frozenset(seats))

    @classmethod
    def chance(cls) -> Awaiting:
        return cls(AwaitKind.CHANCE)

    @classmethod
    def terminal(cls) -> Awaiting:
        return cls(AwaitKind.TERMINAL)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seats": sorted(self.seats)}


@dataclass(frozen=True, slots=True)
class Bound:
    """Inclusive numeric limits of one field of a decision's choices (a bet of 1 to 7 mana)."""

    field: str
    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "low": self.low, "high": self.high}


@dataclass(frozen=True, slots=True)
class Ask:
    """What a game says of a seat's pending step (``State._ask``); the core adds the choices."""

    kind: str
    secret: bool = False
    simultaneous: bool = False
    bounds: tuple[Bound, ...] = ()


@dataclass(frozen=True, slots=True)
class Decision:
    """What one seat is asked now: the same typed value for every game.

    ``kind`` is the game's name for the step ("plan", "turn", "recycle", "cast", "move"...);
    ``choices`` are every legal action (possibly a lazy sequence); ``secret`` says the other
    seats do not see the choice until the game reveals it; ``simultaneous`` that other seats
    decide the same step at the same time; ``bounds`` give numeric limits of fields of the
    choices (the UI's steppers read them instead of restating a rule); ``default`` is what the
    referee plays when the seat's time runs out (None: the seat forfeits).
    """

    seat: int
    kind: str
    choices: Sequence[ActionModel]
    secret: bool = False
    simultaneous: bool = False
    bounds: tuple[Bound, ...] = ()
    default: ActionModel | None = None

    def bound(self, field: str) -> Bound | None:
        """The limits of ``field``, if the game gives them."""
        return next((b for b in self.bounds if b.field == field), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "secret": self.secret,
            "simultaneous": self.simultaneous,
            "bounds": [b.to_json() for b in self.bounds],
            "choices": len(self.choices),
            "default": self.default.to_json() if self.default is not None else None,
        }


class GameOptions(BaseModel):
    """Base of every game's options: defaults for everything, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    @classmethod
    def upgrade_stored(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Options stored with a match log (which writes every field), brought up to date.

        A field the log predates takes its ``legacy`` value (``Field(..., json_schema_extra=
        {"legacy": value})``) instead of its default, so an old log replays as it was played.
        """
        out = dict(data)
        for name, info in cls.model_fields.items():
            extra = info.json_schema_extra
            if name not in out and isinstance(extra, dict) and "legacy" in extra:
                out[name] = extra["legacy"]
        return out


OptionsT = TypeVar("OptionsT", bound=GameOptions)
StateT = TypeVar("StateT", bound="State")
#: what a seat sees (``State.view(seat)``) and what a spectator sees (``State.view(None)``): the
#: game's ``TypedDict``s; its Discord UI is typed by the same two (``cogs.games.base.GameUI``).
SeatViewT = TypeVar("SeatViewT", bound=Mapping[str, Any])
PublicViewT = TypeVar("PublicViewT", bound=Mapping[str, Any])


@dataclass(frozen=True)
class TournamentProfile:
    """What a tournament needs to know of a game. ``tables``: its matches are tables of 3 to 8
    players ranked by placement (Magic Duel), not two-player matches. ``first_seat``: the game has a
    first player (seat 0), so a tournament balances who plays first. ``score_event``: a match's own
    score, for the game-win tie-break (MTG's games inside a match): the event kind whose ``winner``
    names the seat that won one (Wizards Cup's duels), called ``score_word`` in the standings; None:
    a match counts as one game."""

    tables: bool = False
    first_seat: bool = True
    score_event: str | None = None
    score_word: str | None = None


class Game(ABC, Generic[OptionsT, SeatViewT, PublicViewT]):
    """A game: its metadata, its options and the factory of its initial state, typed by its options
    and by what a seat and a spectator see. Besides the rules it says how its matches are told
    (:meth:`chapter`, :meth:`retell`, :attr:`notice_kinds`, :meth:`position`) and what a tournament
    needs to know of it (:attr:`tournament`)."""

    slug: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    options_model: ClassVar[type[GameOptions]]
    action_adapter: ClassVar[TypeAdapter[Any]]
    tournament: ClassVar[TournamentProfile] = TournamentProfile()
    #: public event kinds that only say a seat submitted (the secret they announce, or the reveal
    #: that follows, tells the same): a replay's story leaves them out
    notice_kinds: ClassVar[frozenset[str]] = frozenset()
    #: public event kinds that close one resolution of the game (a resolved duel, trick or turn):
    #: a replay's step, a story post in the match's thread, a chapter of the web page
    story_kinds: ClassVar[frozenset[str]] = frozenset({"game_end", "forfeit"})

    def __init__(self, options: Mapping[str, Any] | GameOptions | None = None, num_seats: int = 2):
        if not self.min_seats <= num_seats <= self.max_seats:
            raise IllegalAction(
                f"{self.name} is played by {self.min_seats}"
                + (f" to {self.max_seats}" if self.max_seats != self.min_seats else "")
                + f" players, not {num_seats}."
            )
        self.num_seats = num_seats
        self.options: OptionsT = cast(OptionsT, self.parse_options(options))

    @classmethod
    def parse_options(cls, options: Mapping[str, Any] | GameOptions | None) -> GameOptions:
        if isinstance(options, cls.options_model):
            return options
        if not options:  # every field's default: nothing to validate, and one object serves
            return _default_options(cls.options_model)
        try:
            return cls.options_model.model_validate(dict(options or {}))
        except ValidationError as exc:
            raise MalformedAction(f"Invalid options for {cls.name}: {_pretty_validation(exc)}") from None

    @classmethod
    def parse_action(cls, data: Any) -> ActionModel:
        """Parse JSON (a dict) into this game's action object, or raise MalformedAction."""
        if isinstance(data, ActionModel):
            return data
        if isinstance(data, Mapping) and data.get("type") == "forfeit":
            try:
                return Forfeit.model_validate(data)
            except ValidationError as exc:
                raise MalformedAction(f"Malformed forfeit: {_pretty_validation(exc)}") from None
        try:
            parsed: ActionModel = cls.action_adapter.validate_python(data)
            return parsed
        except ValidationError as exc:
            raise MalformedAction(f"Malformed action for {cls.name}: {_pretty_validation(exc)}") from None

    def value_label(self, field: str, value: Any) -> str | None:
        """How a player names one value of an action's field (one item of a list field): a card's
        name for its id, for instance. None: the value as it is. The offline table's choices show
        these names, and a player finds a choice by typing them."""
        return None

    # -- how a match is told (replays, the story, the review) ------------------------------
    @classmethod
    def chapter(cls, events: Sequence[Event], names: Sequence[str]) -> str | None:
        """A part of a match (a replay's step: one resolution) named as the players count the game,
        from its public events: "Round 2", "Hand 2 · trick 5"; None: the game says nothing."""
        return None

    @classmethod
    def retell(cls, event: Event) -> str | None:
        """``event``'s sentence in the players' words (placeholders unfilled), where the engine's
        words differ from what the prompts say; None: the engine's sentence as it is."""
        return None

    @classmethod
    def position(cls, view: Mapping[str, Any]) -> str:
        """The point of the match as the game counts it, from a seat's view: "Round 2", "Turn 5";
        empty for a game that counts nothing."""
        return ""

    # -- the state and view the game package binds (see bind) ------------------------------
    _state_class: ClassVar[type[State] | None] = None
    _render: ClassVar[Callable[[Any, int | None], Mapping[str, Any]] | None] = None

    @classmethod
    def bind(cls, state_class: type[StateT], render_view: Callable[[StateT, int | None], Mapping[str, Any]]) -> None:
        """Bind this game's State class and view renderer. Called once, by the game package's
        ``__init__``, so that ``game.py`` need not import ``state.py`` or ``view.py``."""
        cls._state_class = state_class
        cls._render = render_view

    def new_state(self) -> State:
        """The initial state (which may await chance first)."""
        state_class = type(self)._state_class
        if state_class is None:
            raise TypeError(f"{type(self).__name__} has no State bound (Game.bind in its package __init__)")
        return state_class(self)

    def render_view(self, state: State, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` (None: a spectator) may see of ``state``, JSON-ready."""
        render = type(self)._render
        if render is None:
            raise TypeError(f"{type(self).__name__} has no view bound (Game.bind in its package __init__)")
        return render(state, seat)


def view_int(view: Mapping[str, Any], key: str) -> int | None:
    """``view[key]`` if it is an int (not a bool), else None: for counting words (:meth:`Game.position`)."""
    value = view.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@functools.cache
def _default_options(model: type[GameOptions]) -> GameOptions:
    """The options of a game set up without any (immutable, so shared)."""
    return model()


def _pretty_validation(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "action"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts[:4])


class State(ABC):
    """A game in progress. Subclasses implement the underscored hooks; the public methods
    add the checks every game shares (turn, game over, atomicity).

    ``_check`` (with ``_check_chance`` and ``_check_forfeit``) validates completely, so that
    ``_apply`` never raises on a checked action: moves are applied in place, with no copy.

    ``narrate``: True (the default) makes every apply return its events. A search, which reads
    only the state, sets it False on its copy (``clone(narrate=False)``): then applying returns no
    events, and a game may skip building them (their texts and data are most of the cost of a
    move); the state changes exactly as it would with narration.
    """

    narrate: bool = True

    def __init__(self, game: Game[Any, Any, Any]):
        self.game = game
        self.num_seats = game.num_seats
        self._forfeit_outcome: Outcome | None = None
        self._broken: BaseException | None = None

    # -- queries -------------------------------------------------------------------------
    @property
    def awaiting(self) -> Awaiting:
        if self._forfeit_outcome is not None:
            return Awaiting.terminal()
        return self._awaiting()

    @property
    def is_terminal(self) -> bool:
        return self.awaiting.is_terminal

    @property
    def outcome(self) -> Outcome | None:
        if self._forfeit_outcome is not None:
            return self._forfeit_outcome
        return self._outcome() if self._awaiting().is_terminal else None

    def asked(self, seat: int) -> Decision | None:
        """What ``seat`` is asked now (None when the game does not wait for it)."""
        aw = self.awaiting
        if aw.kind is not AwaitKind.SEATS or seat not in aw.seats:
            return None
        ask = self._ask(seat)
        return Decision(
            seat,
            ask.kind,
            self._legal_actions(seat),
            secret=ask.secret,
            simultaneous=ask.simultaneous,
            bounds=ask.bounds,
            default=self.default_action(seat),
        )

    def game_step(self, seat: int) -> Ask | None:
        """What the game's own flow asks of ``seat``, ignoring a forfeit that ended the match:
        views keep showing the step a forfeited game stopped at (``asked`` is None by then)."""
        aw = self._awaiting()
        if aw.kind is not AwaitKind.SEATS or seat not in aw.seats:
            return None
        return self._ask(seat)

    def decisions(self) -> tuple[Decision, ...]:
        """Every awaited seat's decision, by seat."""
        aw = self.awaiting
        if aw.kind is not AwaitKind.SEATS:
            return ()
        return tuple(d for s in sorted(aw.seats) if (d := self.asked(s)) is not None)

    def legal_actions(self, seat: Actor) -> Sequence[ActionModel]:
        """Every legal action of ``seat`` now (empty when it is not awaited).

        Some games have large action spaces; they may return a lazy sequence.
        """
        aw = self.awaiting
        if aw.is_terminal:
            return []
        if seat == CHANCE:
            return self._chance_outcomes() if aw.is_chance else []
        if aw.is_chance or seat not in aw.seats:
            return []
        return self._legal_actions(seat)

    def is_legal(self, seat: Actor, action: ActionModel | Mapping[str, Any]) -> bool:
        """Whether ``seat`` may play ``action`` now (the checks of ``apply``, nothing applied)."""
        try:
            self._validate(seat, action)
        except RulesError:
            return False
        return True

    def sample_action(self, seat: Actor, rng: random.Random) -> ActionModel:
        """A uniformly random legal action (used for chance and for random play)."""
        if seat == CHANCE:
            return self._sample_chance(rng)
        actions = self.legal_actions(seat)
        if not actions:
            raise NotYourTurn(self._not_awaited_message(seat))
        return actions[rng.randrange(len(actions))]

    def view(self, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (None: a spectator), JSON-ready. Secrets only once revealed."""
        return self.game.render_view(self, seat)

    # -- copying ---------------------------------------------------------------------------
    def clone(self: StateT, *, narrate: bool | None = None) -> StateT:
        """An independent copy (for search): applying to it leaves this state unchanged.
        ``narrate``: the copy's (default: this state's); a search passes False."""
        other = self._copy()
        if narrate is not None:
            other.narrate = narrate
        return other

    def _copy(self: StateT) -> StateT:
        """The copy behind :meth:`clone`. The default deep-copies everything but the game; games
        override it with a cheaper copy of their mutable parts."""
        return copy.deepcopy(self, {id(self.game): self.game})

    # -- the mutating entry points -----------------------------------------------------------
    def apply(self, seat: Actor, action: ActionModel | Mapping[str, Any]) -> list[Event]:
        """Validate and apply one action; return the events. On any error the state is unchanged."""
        if self._broken is not None:
            raise RuntimeError("this state was left inconsistent by an engine error; rebuild it") from self._broken
        parsed = self._validate(seat, action)
        try:
            return self.apply_trusted(seat, parsed)
        except BaseException as exc:
            # A checked action must not fail: an engine bug. Refuse further use of this state
            # (Match rebuilds it from its log) rather than carry on from a half-applied move.
            self._broken = exc
            raise

    def apply_trusted(self, seat: Actor, action: ActionModel) -> list[Event]:
        """Apply an action already known to be legal now (a replayed log, a search's choice),
        without checking it. An illegal action here leaves the state undefined."""
        if isinstance(action, Forfeit):
            events = self._forfeit(cast(int, seat), action)
        elif seat == CHANCE:
            events = self._apply_chance(action)
        else:
            events = self._apply(seat, action)
        return events if self.narrate else []

    def _validate(self, seat: Actor, action: ActionModel | Mapping[str, Any]) -> ActionModel:
        """Parse and check ``action`` for ``seat`` without changing anything; raise RulesError."""
        parsed = self.game.parse_action(action)
        aw = self.awaiting
        if aw.is_terminal:
            raise GameOver("The game is over; no more moves are accepted.")
        if isinstance(parsed, Forfeit):
            if seat == CHANCE or not isinstance(seat, int) or not (0 <= seat < self.num_seats):
                raise IllegalAction("Only a player can forfeit.")
            self._check_forfeit(seat)
            return parsed
        if seat == CHANCE:
            if not aw.is_chance:
                raise NotYourTurn("The game is not waiting for a chance outcome.")
            self._check_chance(parsed)
            return parsed
        if not isinstance(seat, int) or not (0 <= seat < self.num_seats):
            raise IllegalAction(f"There is no seat {seat!r} in this game.")
        if aw.is_chance or seat not in aw.seats:
            raise NotYourTurn(self._not_awaited_message(seat))
        self._check(seat, parsed)
        return parsed

    def _not_awaited_message(self, seat: Actor) -> str:
        aw = self.awaiting
        if aw.is_chance:
            return "The referee is drawing a random outcome; wait a moment."
        waiting = " and ".join(seat_ref(s) for s in sorted(aw.seats))
        return f"It is not your turn: the game is waiting for {waiting}."

    # -- forfeits --------------------------------------------------------------------------
    def _check_forfeit(self, seat: int) -> None:
        """Raise IllegalAction if ``seat`` may not forfeit now (default: any seat, any time)."""
        return None

    def _forfeit(self, seat: int, action: Forfeit) -> list[Event]:
        """Default: the seat loses, every other seat wins. Multi-seat games may override."""
        why = action.why
        who = seat_ref(seat)
        others = [s for s in range(self.num_seats) if s != seat]
        self._forfeit_outcome = Outcome(
            tuple(SeatResult(Result.LOSS if i == seat else Result.WIN, f"{who} {why}.") for i in range(self.num_seats)),
            f"{who} {why}; " + " and ".join(seat_ref(o) for o in others) + (" wins." if len(others) == 1 else " win."),
        )
        return [
            Event("forfeit", f"{who} {why}.", {"seat": seat, "reason": action.reason}),
            Event("game_end", self._forfeit_outcome.summary, {"outcome": self._forfeit_outcome.to_json()}),
        ]

    def default_action(self, seat: int) -> ActionModel | None:
        """What the referee plays for ``seat`` when its time runs out, or None to forfeit it.

        Games override this for small follow-up choices with a sensible default (an optional
        "may" power, say), where forfeiting the match would be out of proportion.
        """
        return None

    # -- hooks for games -------------------------------------------------------------------
    @abstractmethod
    def _awaiting(self) -> Awaiting: ...

    @abstractmethod
    def _ask(self, seat: int) -> Ask:
        """What the awaited ``seat`` is asked: the kind of step, secrecy, simultaneity, bounds."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]: ...

    @abstractmethod
    def _check(self, seat: int, action: ActionModel) -> None:
        """Raise IllegalAction (readable: what was wrong, what is allowed) if not legal now."""

    @abstractmethod
    def _apply(self, seat: int, action: ActionModel) -> list[Event]: ...

    def _chance_outcomes(self) -> Sequence[ActionModel]:
        return []

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        outcomes = self._chance_outcomes()
        if not outcomes:
            raise NotYourTurn("The game is not waiting for a chance outcome.")
        return outcomes[rng.randrange(len(outcomes))]

    def _check_chance(self, action: ActionModel) -> None:
        if action not in self._chance_outcomes():
            raise IllegalAction(f"{action.to_json()} is not a possible chance outcome now.")

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        raise NotYourTurn("This game has no chance outcomes.")

    @abstractmethod
    def _outcome(self) -> Outcome: ...


__all__ = [
    "CHANCE",
    "ActionModel",
    "Actor",
    "Ask",
    "AwaitKind",
    "Awaiting",
    "Bound",
    "Decision",
    "Event",
    "Forfeit",
    "Game",
    "GameOptions",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "Outcome",
    "Result",
    "RulesError",
    "SeatResult",
    "State",
    "fill_names",
    "public_events",
    "seat_ref",
]
