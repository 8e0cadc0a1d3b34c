"""A tiny pure game for testing the match service: "toy-guess".

Each round, chance picks a secret number 1..high; then every seat submits a secret guess at once.
With ``follow_up`` on, seat 1 (index 0) then decides whether to double the round's points (a
small "may" choice whose default, on timeout, is not to double). The closest guess(es) score
(unless every seat is equally close); after ``rounds`` rounds the highest score wins, equal
scores draw. 2 to 4 seats.

It is a complete game as the registry asks (``TOY``: its Game, AI kit, Discord UI in
``tests/toy_ui.py``), registered only where a test asks (the ``toy_game`` fixture of
``tests/conftest.py``, or ``with registered(TOY)``), so the real games' lists stay as they are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypedDict

from pydantic import Field, TypeAdapter

from rules.ai.kit import AIKit
from rules.core import (
    ActionModel,
    Ask,
    Awaiting,
    Bound,
    Event,
    Game,
    GameOptions,
    Outcome,
    Result,
    SeatResult,
    State,
)
from rules.errors import IllegalAction
from rules.registry import GameEntry

SLUG = "toy-guess"


class ToyOptions(GameOptions):
    high: int = Field(3, ge=2, le=10, description="the secret is 1..high")
    rounds: int = Field(1, ge=1, le=5)
    follow_up: bool = False


class Secret(ActionModel):
    """Chance: the round's secret number."""

    type: Literal["secret"] = "secret"
    number: int


class Guess(ActionModel):
    type: Literal["guess"] = "guess"
    number: int


class Double(ActionModel):
    type: Literal["double"] = "double"
    double: bool


ToyAction = Annotated[Secret | Guess | Double, Field(discriminator="type")]


class ToyView(TypedDict):
    round: int
    rounds: int
    high: int
    scores: list[int]
    guessed: list[int]
    my_guess: int | None
    follow_up_pending: bool
    history: list[dict[str, Any]]


class ToyGuess(Game[ToyOptions, ToyView, ToyView]):
    slug = SLUG
    name = "Toy Guess"
    summary = "Guess the secret number; the closest guess wins."
    min_seats = 2
    max_seats = 4
    options_model = ToyOptions
    action_adapter = TypeAdapter(ToyAction)

    def new_state(self) -> ToyState:
        return ToyState(self)


class ToyState(State):
    game: ToyGuess

    def __init__(self, game: ToyGuess):
        super().__init__(game)
        self.round = 1
        self.secret: int | None = None
        self.guesses: dict[int, int] = {}
        self.follow_up_pending = False
        self.doubled = False
        self.scores = [0] * self.num_seats
        self.history: list[dict[str, Any]] = []

    @property
    def options(self) -> ToyOptions:
        return self.game.options

    # -- hooks -----------------------------------------------------------------------------
    def _awaiting(self) -> Awaiting:
        if self.round > self.options.rounds:
            return Awaiting.terminal()
        if self.secret is None:
            return Awaiting.chance()
        if self.follow_up_pending:
            return Awaiting.of(0)
        return Awaiting.of(*(s for s in range(self.num_seats) if s not in self.guesses))

    def _ask(self, seat: int) -> Ask:
        if self.follow_up_pending:
            return Ask("double")
        return Ask("guess", secret=True, simultaneous=True, bounds=(Bound("number", 1, self.options.high),))

    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        if self.follow_up_pending:
            return [Double(double=False), Double(double=True)]
        return [Guess(number=n) for n in range(1, self.options.high + 1)]

    def _check(self, seat: int, action: ActionModel) -> None:
        if self.follow_up_pending:
            if not isinstance(action, Double):
                raise IllegalAction("Choose whether to double this round's points (double: true or false).")
            return
        if not isinstance(action, Guess):
            raise IllegalAction(f"Submit a guess from 1 to {self.options.high}.")
        if not 1 <= action.number <= self.options.high:
            raise IllegalAction(f"Your guess must be from 1 to {self.options.high}, not {action.number}.")

    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        if isinstance(action, Double):
            self.doubled = action.double
            self.follow_up_pending = False
            return [
                Event("double", f"Seat 1 {'doubles' if action.double else 'does not double'} this round.")
            ] + self._resolve()
        assert isinstance(action, Guess)
        self.guesses[seat] = action.number
        events = [
            Event("guess", f"You guessed {action.number}.", {"number": action.number}, frozenset({seat})),
            Event("locked_in", f"Seat {seat + 1} has locked in a guess.", {"seat": seat}),
        ]
        if len(self.guesses) == self.num_seats:
            if self.options.follow_up:
                self.follow_up_pending = True
                events.append(Event("follow_up", "All guesses are in; seat 1 may double the round."))
            else:
                events += self._resolve()
        return events

    def _resolve(self) -> list[Event]:
        assert self.secret is not None
        distance = {s: abs(g - self.secret) for s, g in self.guesses.items()}
        best = min(distance.values())
        closest = sorted(s for s, d in distance.items() if d == best)
        points = 2 if self.doubled else 1
        scorers = [] if len(closest) == self.num_seats else closest
        for s in scorers:
            self.scores[s] += points
        self.history.append(
            {"secret": self.secret, "guesses": [self.guesses[s] for s in range(self.num_seats)], "scorers": scorers}
        )
        text = f"Round {self.round}: the secret was {self.secret}. " + (
            "Nobody scores." if not scorers else ", ".join(f"seat {s + 1}" for s in scorers) + f" +{points}."
        )
        self.round += 1
        self.secret = None
        self.guesses = {}
        self.doubled = False
        events = [Event("round", text, {"history": self.history[-1], "scores": list(self.scores)})]
        if self.round > self.options.rounds:
            outcome = self._outcome()
            events.append(Event("game_end", outcome.summary, {"outcome": outcome.to_json()}))
        return events

    def _chance_outcomes(self) -> Sequence[ActionModel]:
        return [Secret(number=n) for n in range(1, self.options.high + 1)]

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        assert isinstance(action, Secret)
        self.secret = action.number
        return [Event("secret", f"Round {self.round}: a secret number has been chosen.")]

    def _outcome(self) -> Outcome:
        top = max(self.scores)
        winners = [s for s, v in enumerate(self.scores) if v == top]
        if len(winners) == self.num_seats:
            return Outcome.draw(self.num_seats, f"Everyone scored {top}: a draw.")
        result = Result.WIN if len(winners) == 1 else Result.DRAW
        why = f"Best score {top}: " + ", ".join(f"seat {w + 1}" for w in winners) + "."
        return Outcome(
            tuple(SeatResult(result if s in winners else Result.LOSS, why) for s in range(self.num_seats)),
            why,
        )

    def default_action(self, seat: int) -> ActionModel | None:
        if self.follow_up_pending and seat == 0:
            return Double(double=False)
        return None

    def view(self, seat: int | None) -> ToyView:  # type: ignore[override]
        return {
            "round": self.round,
            "rounds": self.options.rounds,
            "high": self.options.high,
            "scores": list(self.scores),
            "guessed": sorted(self.guesses),
            "my_guess": None if seat is None else self.guesses.get(seat),
            "follow_up_pending": self.follow_up_pending,
            "history": list(self.history),
        }


def determinize(state: State, seat: int, rng: random.Random, reopen: bool = False) -> State:
    """What ``seat`` cannot see, sampled: the round's secret, and the other seats' guesses (taken
    back with ``reopen``: they are asked again)."""
    assert isinstance(state, ToyState)
    sample = state.clone(narrate=False)
    high = state.options.high
    if sample.secret is not None:
        sample.secret = rng.randint(1, high)
    for other in sorted(sample.guesses):
        if other != seat and not sample.follow_up_pending:
            if reopen:
                del sample.guesses[other]
            else:
                sample.guesses[other] = rng.randint(1, high)
    return sample


#: the toy's AI kit: the default search, with its own determinizer (the secret is hidden)
KIT = AIKit(determinize=determinize)

#: the toy's registry entry (no pool of rule-based opponents)
TOY = GameEntry(SLUG, game="tests.toy_game:ToyGuess", ai="tests.toy_game:KIT", ui="tests.toy_ui:UI")
