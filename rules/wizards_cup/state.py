"""Wizards Cup: the state of a game (whose input is awaited, legal actions, checks, applying,
rounds and the outcome). A duel's resolution is in ``duel.py``.

Rule texts: ../shared/seeds/000 (summary) and 001 (rulebook + FAQ); gaps and rulings in
../shared/design/wizards-cup.md and docs/rulings/wizards-cup.md. Seats: 0 is the challenger.

Decisions (``State.asked``): ``choose_deck``, ``plan`` and ``swap`` are secret picks both seats
make at once; ``botanist`` is one seat's "may" choice, announced publicly as it resolves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from functools import cache
from math import comb, perm
from typing import ClassVar, cast

from ..core import (
    ActionModel,
    Ask,
    Awaiting,
    Event,
    Outcome,
    Result,
    SeatResult,
    State,
)
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_combination, nth_permutation
from .actions import BotanistChoice, ChooseDeck, FiveCards, Plan, RandomPick, Swap
from .cards import Card, CardSet
from .duel import REF, Duel
from .game import DECK_SIZE, PLAYED, TOKENS_TO_WIN, WizardsCup
from .player import PlayerState, Step


class Phase(StrEnum):
    SETUP = "setup"  # chance: the random first card of each seat
    PREPARE = "prepare"  # secret inputs: deck, plan, swap
    DUELS = "duels"  # resolving (waits only for a Botanist decision)
    OVER = "over"


#: What a seat preparing a round is asked: both seats pick at once, in secret.
PREPARE_ASKS: dict[Step, Ask] = {
    step: Ask(step.value, secret=True, simultaneous=True) for step in (Step.CHOOSE_DECK, Step.PLAN, Step.SWAP)
}
#: The Botanist's "may" (rulebook: "You may discard your Waiting card"): its owner alone decides,
#: and the decision is announced at once (public "power" event), so it is not secret.
BOTANIST_ASK = Ask("botanist")
#: The action each asked kind takes.
EXPECTED: dict[str, type[ActionModel]] = {
    "choose_deck": ChooseDeck,
    "plan": Plan,
    "swap": Swap,
    "botanist": BotanistChoice,
}

# Awaiting values are immutable: one of each is enough.
AWAIT_CHANCE = Awaiting.chance()
AWAIT_TERMINAL = Awaiting.terminal()
ONE_SEAT = (Awaiting.of(0), Awaiting.of(1))
#: While preparing, by (seat 0 still preparing, seat 1 still preparing).
PREPARING = {
    (a, b): Awaiting.of(*(s for s, waits in enumerate((a, b)) if waits)) for a in (False, True) for b in (False, True)
}

DISCARD = BotanistChoice(discard=True)
KEEP_WAITING = BotanistChoice(discard=False)
BOTANIST_CHOICES: tuple[BotanistChoice, ...] = (DISCARD, KEEP_WAITING)
KEEP_DECK = Swap()


@cache
def _random_pick(seat: int, card: str) -> RandomPick:
    return RandomPick(seat=seat, card=card)


@cache
def _swap(remove: str, add: str) -> Swap:
    return Swap(remove=remove, add=add)


class WizardsCupState(State):
    game: WizardsCup
    atomic: ClassVar[bool] = True

    def __init__(self, game: WizardsCup):
        super().__init__(game)
        self.cards: CardSet = game.cards  # shared, immutable: never copied
        self.players = [PlayerState(), PlayerState()]
        self.phase = Phase.SETUP
        self.round = 1
        self.duel_count = 0  # duels resolved in this round
        self.duel: Duel | None = None  # the duel being resolved
        self.final: Outcome | None = None

    def clone(self) -> WizardsCupState:
        other = object.__new__(WizardsCupState)
        other.__dict__.update(self.__dict__)
        other.players = [p.copy() for p in self.players]
        other.duel = self.duel.copy(other.players) if self.duel is not None else None
        return other

    # ------------------------------------------------------------------ whose input
    def _awaiting(self) -> Awaiting:
        phase = self.phase
        if phase is Phase.PREPARE:
            p0, p1 = self.players
            return PREPARING[p0.step is not Step.DONE, p1.step is not Step.DONE]
        if phase is Phase.DUELS:
            assert self.duel is not None and self.duel.choice_seat is not None
            return ONE_SEAT[self.duel.choice_seat]
        return AWAIT_CHANCE if phase is Phase.SETUP else AWAIT_TERMINAL

    def _ask(self, seat: int) -> Ask:
        """What the awaited ``seat`` is asked: its preparation step, or the Botanist's choice."""
        if self.phase is Phase.DUELS:
            return BOTANIST_ASK
        return PREPARE_ASKS[self.players[seat].step]

    def _outcome(self) -> Outcome:
        assert self.final is not None
        return self.final

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def unused(self, seat: int) -> list[str]:
        team = set(self.players[seat].team)
        return [c for c in self.cards.ids if c not in team]

    # ------------------------------------------------------------------ chance
    def _pick_seat(self) -> int:
        return 0 if self.players[0].random_pick is None else 1

    def _chance_outcomes(self) -> Sequence[ActionModel]:
        seat = self._pick_seat()
        return [_random_pick(seat, c) for c in self.cards.ids]

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        return _random_pick(self._pick_seat(), rng.choice(self.cards.ids))

    def _check_chance(self, action: ActionModel) -> None:
        if not isinstance(action, RandomPick):
            raise IllegalAction("The game is waiting for the random first cards (random_pick).")
        if action.seat != self._pick_seat():
            raise IllegalAction(f"The next random pick is for seat {self._pick_seat()}, not seat {action.seat}.")
        if action.card not in self.cards:
            raise IllegalAction(
                f"{action.card!r} is not a card of the set; the cards are: {', '.join(self.cards.ids)}."
            )

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        assert isinstance(action, RandomPick)
        p = self.players[action.seat]
        p.random_pick = action.card
        p.team = [action.card]
        events = [
            Event(
                "random_pick",
                f"{REF[1 - action.seat]} picks at random from {REF[action.seat]}'s set: "
                f"{self.card(action.card).name} joins {REF[action.seat]}'s Deck.",
                {"seat": action.seat, "card": action.card},
            )
        ]
        if all(pl.random_pick for pl in self.players):
            self.phase = Phase.PREPARE
        return events

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        p = self.players[seat]
        if self.phase is Phase.DUELS:
            return BOTANIST_CHOICES
        if p.step is Step.CHOOSE_DECK:
            pool = [c for c in self.cards.ids if c != p.random_pick]

            def make_deck(i: int) -> ChooseDeck:
                return ChooseDeck(cards=cast(FiveCards, nth_combination(pool, PLAYED, i)))

            return LazySeq(comb(len(pool), PLAYED), make_deck)
        if p.step is Step.PLAN:
            team = list(p.team)

            def make_plan(i: int) -> Plan:
                order = nth_permutation(team, PLAYED, i)
                waiting = next(c for c in team if c not in order)
                return Plan(order=cast(FiveCards, order), waiting=waiting)

            return LazySeq(perm(DECK_SIZE, PLAYED), make_plan)
        if p.step is Step.SWAP:
            # keeping the Deck first, then each Deck card for each unused card
            deck, unused = list(p.team), self.unused(seat)

            def make_swap(i: int) -> Swap:
                if i == 0:
                    return KEEP_DECK
                out, into = divmod(i - 1, len(unused))
                return _swap(deck[out], unused[into])

            return LazySeq(1 + len(deck) * len(unused), make_swap)
        return []

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: an optional choice takes its 'do nothing' default (the Botanist keeps the
        Waiting card; the swap keeps the Deck). Choosing or planning a Deck has no default."""
        if self.phase is Phase.DUELS and self.duel and self.duel.choice_seat == seat:
            return KEEP_WAITING
        if self.phase is Phase.PREPARE and self.players[seat].step is Step.SWAP:
            return KEEP_DECK
        return None

    # ------------------------------------------------------------------ checks
    def _names(self, ids: Sequence[str]) -> str:
        by_id = self.cards.by_id
        return ", ".join(by_id[c].name if c in by_id else repr(c) for c in ids)

    def _check(self, seat: int, action: ActionModel) -> None:
        """Complete: a checked action never fails in ``_apply`` (the state is atomic)."""
        p = self.players[seat]
        step = self._ask(seat).kind
        if not isinstance(action, EXPECTED[step]):
            given = str(getattr(action, "type", "?"))  # every action of the game has a ``type``
            raise IllegalAction(f"You are asked for {step.replace('_', ' ')} now, not {given.replace('_', ' ')}.")
        if isinstance(action, ChooseDeck):
            unknown = [c for c in action.cards if c not in self.cards]
            if unknown:
                raise IllegalAction(f"Not cards of your set: {', '.join(map(repr, unknown))}.")
            if len(set(action.cards)) != PLAYED:
                raise IllegalAction("Choose 5 different cards.")
            if p.random_pick is not None and p.random_pick in action.cards:
                raise IllegalAction(
                    f"{self.card(p.random_pick).name} is already in your Deck (your random card); "
                    "choose 5 of the other 17 cards."
                )
        elif isinstance(action, Plan):
            chosen = [*action.order, action.waiting]
            if sorted(chosen) != sorted(p.team) or len(set(chosen)) != DECK_SIZE:
                raise IllegalAction(
                    "Put 5 cards of your Deck in order and the sixth as the Waiting card; "
                    f"your Deck is: {self._names(p.team)}."
                )
        elif isinstance(action, Swap) and action.remove is not None:
            if action.remove not in p.team:
                raise IllegalAction(
                    f"{self._names([action.remove])} is not in your Deck; your Deck is: {self._names(p.team)}."
                )
            if action.add is None or action.add not in self.cards or action.add in p.team:
                raise IllegalAction(
                    f"{self._names([action.add or '?'])} is not one of your 12 unused cards; "
                    f"they are: {self._names(self.unused(seat))}."
                )

    # ------------------------------------------------------------------ applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        p = self.players[seat]
        who = REF[seat]
        events: list[Event] = []
        if isinstance(action, ChooseDeck):
            assert p.random_pick is not None
            p.team = [p.random_pick, *action.cards]
            p.step = Step.PLAN
            events.append(Event("deck_chosen", f"{who} has chosen their Deck.", {"seat": seat}))
            events.append(
                Event(
                    "deck_chosen_private",
                    f"Your Deck: {self._names(p.team)}.",
                    {"seat": seat, "team": list(p.team)},
                    frozenset({seat}),
                )
            )
        elif isinstance(action, Swap):
            if action.remove is not None and action.add is not None:
                p.team[p.team.index(action.remove)] = action.add
                private = f"You swapped {self.card(action.remove).name} for {self.card(action.add).name}."
            else:
                private = "You kept your Deck."
            p.step = Step.PLAN
            events.append(Event("prepared", f"{who} has finished preparing the new round.", {"seat": seat}))
            events.append(Event("swap_private", private, {"seat": seat, **action.to_json()}, frozenset({seat})))
        elif isinstance(action, Plan):
            p.pile = list(action.order)
            p.waiting = action.waiting
            p.waiting_known = False
            p.duel = None
            p.discard = []
            p.step = Step.DONE
            events.append(Event("planned", f"{who} has set their order and is ready.", {"seat": seat}))
            events.append(
                Event(
                    "plan_private",
                    f"Your order: {self._names(action.order)}; Waiting card: {self.card(action.waiting).name}.",
                    {"seat": seat, "order": list(action.order), "waiting": action.waiting},
                    frozenset({seat}),
                )
            )
            if all(pl.step is Step.DONE for pl in self.players):
                events += self._start_round()
        elif isinstance(action, BotanistChoice):
            assert self.duel is not None
            self.duel.choice_seat = None
            events += self.duel.botanist_discard(seat, action.discard)
            events += self._run()
        return events

    # ------------------------------------------------------------------ the round
    def _start_round(self) -> list[Event]:
        self.phase = Phase.DUELS
        self.duel_count = 0
        self.duel = None
        events = [Event("round_start", f"Round {self.round} begins.", {"round": self.round})]
        return events + self._run()

    def _run(self) -> list[Event]:
        """Resolve duels until the round ends or a player's decision is needed."""
        events: list[Event] = []
        while self.phase is Phase.DUELS:
            if self.duel is None:
                # Step 3.2: a player who cannot reveal a Wizard loses the round (both cannot: both win it).
                can_play = [p.duel is not None or bool(p.pile) for p in self.players]
                if not all(can_play):
                    events += self._end_round([s for s in (0, 1) if can_play[s]] if any(can_play) else [0, 1])
                    break
                self.duel, started = Duel.start(self.duel_count + 1, self.round, self.players, self.cards)
                events += started
            duel = self.duel
            events += duel.resolve_powers()
            if duel.choice_seat is not None:
                break
            events += duel.decide_and_end()
            self.duel_count += 1
            self.duel = None
        return events

    # ------------------------------------------------------------------ end of round and game
    def _end_round(self, winners: list[int]) -> list[Event]:
        for s in winners:
            self.players[s].tokens += 1
        if len(winners) == 2:
            text = f"Round {self.round}: neither player can play another Wizard; both win the round."
        else:
            text = (
                f"Round {self.round}: {REF[1 - winners[0]]} cannot play another Wizard; "
                f"{REF[winners[0]]} wins the round."
            )
        tokens = [p.tokens for p in self.players]
        events = [
            Event(
                "round_end",
                f"{text} Victory tokens: {tokens[0]} - {tokens[1]}.",
                {
                    "round": self.round,
                    "winners": winners,
                    "tokens": tokens,
                    "discards": [list(p.discard) for p in self.players],
                    "duel": [p.duel for p in self.players],
                },
            )
        ]
        self.duel = None
        if max(tokens) >= TOKENS_TO_WIN:
            return events + self._end_game()
        self.round += 1
        for p in self.players:
            p.pile, p.waiting, p.duel, p.discard = [], None, None, []
            p.waiting_known = False
            p.step = Step.SWAP
        self.phase = Phase.PREPARE
        return events

    def _end_game(self) -> list[Event]:
        self.phase = Phase.OVER
        reached = [s for s in (0, 1) if self.players[s].tokens >= TOKENS_TO_WIN]
        events: list[Event] = []
        if len(reached) == 1:
            w = reached[0]
            why = f"{REF[w]} wins the Wizards Cup with {TOKENS_TO_WIN} Victory tokens."
            self.final = Outcome.single_winner(2, w, why)
        else:
            totals = [sum(self.card(c).value for c in p.team) for p in self.players]
            events.append(
                Event(
                    "tiebreak",
                    f"Both players reach {TOKENS_TO_WIN} Victory tokens at once. Deck totals: "
                    f"{REF[0]} {totals[0]} ({self._names(self.players[0].team)}), "
                    f"{REF[1]} {totals[1]} ({self._names(self.players[1].team)}).",
                    {"totals": totals, "teams": [list(p.team) for p in self.players]},
                )
            )
            if totals[0] == totals[1]:
                why = f"Both reach {TOKENS_TO_WIN} tokens with equal Deck totals ({totals[0]}): a shared victory."
                self.final = Outcome((SeatResult(Result.DRAW, why), SeatResult(Result.DRAW, why)), why)
            else:
                w = 0 if totals[0] < totals[1] else 1
                why = (
                    f"Both reach {TOKENS_TO_WIN} tokens; {REF[w]} wins with the lower Deck total "
                    f"({totals[w]} against {totals[1 - w]})."
                )
                self.final = Outcome.single_winner(2, w, why)
        events.append(Event("game_end", self.final.summary, {"outcome": self.final.to_json()}))
        return events
