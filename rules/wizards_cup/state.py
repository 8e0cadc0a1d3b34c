"""Wizards Cup: the state of a game (whose input is awaited, legal actions, checks, applying,
rounds and the outcome). A duel's resolution is in ``duel.py``.

The game's rules and the project's rulings on them: docs/rulings/wizards-cup.md (each ruling's
*Rule:* line says which part of the game's rule texts it implements). Seats: 0 is the challenger.

Decisions (``State.asked``): ``choose_deck``, ``plan`` and ``swap`` are secret picks both seats
make at once; ``botanist`` is one seat's "may" choice, announced publicly as it resolves.

Speed: random playouts and searches run through here, so the hot paths compare with module
constants (an Enum member looked up on its class costs a descriptor call), take the legal
choose-deck and plan actions from index tables built once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum
from functools import cache
from itertools import combinations, permutations
from operator import itemgetter
from typing import cast

from ..core import (
    CHANCE,
    ActionModel,
    Actor,
    Ask,
    Awaiting,
    Event,
    Outcome,
    Result,
    SeatResult,
    State,
)
from ..errors import IllegalAction
from ..lazy import LazySeq
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


# The members as module constants, for the hot paths.
_SETUP, _PREPARE, _DUELS, _OVER = Phase.SETUP, Phase.PREPARE, Phase.DUELS, Phase.OVER
_CHOOSE_DECK, _PLAN, _SWAP, _DONE = Step.CHOOSE_DECK, Step.PLAN, Step.SWAP, Step.DONE

#: What a seat preparing a round is asked: both seats pick at once, in secret.
CHOOSE_DECK_ASK, PLAN_ASK, SWAP_ASK = (
    Ask(step.value, secret=True, simultaneous=True) for step in (Step.CHOOSE_DECK, Step.PLAN, Step.SWAP)
)
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

#: The outcome when one seat alone reaches the Victory tokens (immutable: one per seat).
CUP_WON = tuple(
    Outcome.single_winner(2, w, f"{REF[w]} wins the Wizards Cup with {TOKENS_TO_WIN} Victory tokens.") for w in (0, 1)
)


@cache
def _random_pick(seat: int, card: str) -> RandomPick:
    return RandomPick(seat=seat, card=card)


@cache
def _swap(remove: str, add: str) -> Swap:
    return Swap(remove=remove, add=add)


def _swap_choice(deck: Sequence[str], unused: Sequence[str], index: int) -> Swap:
    """The ``index``-th legal swap: keeping the Deck first, then each Deck card for each unused card."""
    if index == 0:
        return KEEP_DECK
    out, into = divmod(index - 1, len(unused))
    return _swap(deck[out], unused[into])


def _shown_round(p: PlayerState) -> tuple[str, ...]:
    """The Wizards ``p`` showed in the round that ends (``WizardsCupState.shown``)."""
    out = list(p.discard)
    if p.duel is not None:
        out.append(p.duel)
    if p.waiting is not None and p.waiting_known:
        out.append(p.waiting)
    return tuple(out)


Pick = Callable[[Sequence[str]], tuple[str, ...]]


@cache
def _deck_picks(pool_size: int) -> tuple[Pick, ...]:
    """Every choice of ``PLAYED`` of ``pool_size`` cards, in lexicographic order of positions (the
    order of ``lazy.nth_combination``), as getters of those positions."""
    return tuple(itemgetter(*positions) for positions in combinations(range(pool_size), PLAYED))


#: Every playing order of ``PLAYED`` of the ``DECK_SIZE`` Deck cards, in lexicographic order of
#: positions (the order of ``lazy.nth_permutation``): (getter of the order, Waiting card's position).
PLAN_PICKS: tuple[tuple[Pick, int], ...] = tuple(
    (itemgetter(*positions), (set(range(DECK_SIZE)) - set(positions)).pop())
    for positions in permutations(range(DECK_SIZE), PLAYED)
)


def _plan(team: Sequence[str], index: int) -> Plan:
    """The ``index``-th legal plan of a Deck (``team``, in its order)."""
    order, waiting = PLAN_PICKS[index]
    return Plan(order=cast(FiveCards, order(team)), waiting=team[waiting])


class WizardsCupState(State):
    game: WizardsCup

    def __init__(self, game: WizardsCup):
        super().__init__(game)
        self.cards: CardSet = game.cards  # shared, immutable: never copied
        self.players = [PlayerState(), PlayerState()]
        self.phase = _SETUP
        self.round = 1
        self.duel_count = 0  # duels resolved in this round
        self.duel: Duel | None = None  # the duel being resolved
        self.final: Outcome | None = None
        #: Public history, per seat: the Wizards it showed in each finished round, in the order
        #: they left (its discard pile bottom to top, then its Wizard in the Duel zone and a Waiting
        #: card known face up). Everything in it was seen by both players (the "round_end" event
        #: holds the same); a computer player reads it (immutable tuples: shared by copies).
        self.shown: tuple[tuple[tuple[str, ...], ...], ...] = ((), ())

    def _copy(self) -> WizardsCupState:
        other = object.__new__(WizardsCupState)
        other.__dict__.update(self.__dict__)
        other.players = [p.copy() for p in self.players]
        other.duel = self.duel.copy(other.players) if self.duel is not None else None
        return other

    # ------------------------------------------------------------------ whose input
    def _awaiting(self) -> Awaiting:
        phase = self.phase
        if phase is _PREPARE:
            p0, p1 = self.players
            return PREPARING[p0.step is not _DONE, p1.step is not _DONE]
        if phase is _DUELS:
            assert self.duel is not None and self.duel.choice_seat is not None
            return ONE_SEAT[self.duel.choice_seat]
        return AWAIT_CHANCE if phase is _SETUP else AWAIT_TERMINAL

    def _ask(self, seat: int) -> Ask:
        """What the awaited ``seat`` is asked: its preparation step, or the Botanist's choice."""
        if self.phase is _DUELS:
            return BOTANIST_ASK
        step = self.players[seat].step  # compared by identity: hashing an Enum member is slow
        if step is _PLAN:
            return PLAN_ASK
        if step is _CHOOSE_DECK:
            return CHOOSE_DECK_ASK
        if step is _SWAP:
            return SWAP_ASK
        raise KeyError(step)  # a seat that is done is not asked

    def _outcome(self) -> Outcome:
        assert self.final is not None
        return self.final

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def unused(self, seat: int) -> list[str]:
        team = set(self.players[seat].team)
        return [c for c in self.cards.id_tuple if c not in team]

    # ------------------------------------------------------------------ chance
    def _pick_seat(self) -> int:
        return 0 if self.players[0].random_pick is None else 1

    def _chance_outcomes(self) -> Sequence[ActionModel]:
        seat = self._pick_seat()
        return [_random_pick(seat, c) for c in self.cards.id_tuple]

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        return _random_pick(self._pick_seat(), rng.choice(self.cards.id_tuple))

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
        seat, card = action.seat, action.card
        p = self.players[seat]
        p.random_pick = card
        p.team = [card]
        events = [
            Event(
                "random_pick",
                f"{REF[1 - seat]} picks at random from {REF[seat]}'s set: "
                f"{self.cards.by_id[card].name} joins {REF[seat]}'s Deck.",
                {"seat": seat, "card": card},
            )
        ]
        p0, p1 = self.players
        if p0.random_pick and p1.random_pick:
            self.phase = _PREPARE
        return events

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        if self.phase is _DUELS:
            return BOTANIST_CHOICES
        p = self.players[seat]
        step = p.step
        if step is _PLAN:
            team = tuple(p.team)
            return LazySeq(len(PLAN_PICKS), lambda i: _plan(team, i))
        if step is _CHOOSE_DECK:
            pool = self._deck_pool(p)
            deck_picks = _deck_picks(len(pool))

            def make_deck(i: int) -> ChooseDeck:
                return ChooseDeck(cards=cast(FiveCards, deck_picks[i](pool)))

            return LazySeq(len(deck_picks), make_deck)
        if step is _SWAP:
            # keeping the Deck first, then each Deck card for each unused card
            deck, unused = list(p.team), self.unused(seat)
            return LazySeq(1 + len(deck) * len(unused), lambda i: _swap_choice(deck, unused, i))
        return []

    def _deck_pool(self, p: PlayerState) -> tuple[str, ...]:
        """The cards a player may choose their Deck from: all but their random card."""
        return tuple([c for c in self.cards.id_tuple if c != p.random_pick])

    def sample_action(self, seat: Actor, rng: random.Random) -> ActionModel:
        """``State.sample_action`` (the same action for the same ``rng``), without building the
        lazy list of the Deck choices, plans or swaps first."""
        if seat == CHANCE or self._forfeit_outcome is not None or self.phase is not _PREPARE or seat not in (0, 1):
            return super().sample_action(seat, rng)
        p = self.players[seat]
        step = p.step
        if step is _PLAN:
            return _plan(p.team, rng.randrange(len(PLAN_PICKS)))
        if step is _CHOOSE_DECK:
            pool = self._deck_pool(p)
            deck_picks = _deck_picks(len(pool))
            return ChooseDeck(cards=cast(FiveCards, deck_picks[rng.randrange(len(deck_picks))](pool)))
        if step is _SWAP:
            deck, unused = p.team, self.unused(seat)
            return _swap_choice(deck, unused, rng.randrange(1 + len(deck) * len(unused)))
        return super().sample_action(seat, rng)

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: an optional choice takes its 'do nothing' default (the Botanist keeps the
        Waiting card; the swap keeps the Deck). Choosing or planning a Deck has no default."""
        if self.phase is _DUELS and self.duel and self.duel.choice_seat == seat:
            return KEEP_WAITING
        if self.phase is _PREPARE and self.players[seat].step is _SWAP:
            return KEEP_DECK
        return None

    # ------------------------------------------------------------------ checks
    def _names(self, ids: Sequence[str]) -> str:
        by_id = self.cards.by_id
        return ", ".join([by_id[c].name if c in by_id else repr(c) for c in ids])

    def _valid_names(self, ids: Sequence[str]) -> str:
        """``_names`` of card ids known to be in the set."""
        by_id = self.cards.by_id
        return ", ".join([by_id[c].name for c in ids])

    def _check(self, seat: int, action: ActionModel) -> None:
        """Complete: a checked action never fails in ``_apply`` (the state is atomic)."""
        p = self.players[seat]
        step = self._ask(seat).kind
        if not isinstance(action, EXPECTED[step]):
            given = str(getattr(action, "type", "?"))  # every action of the game has a ``type``
            raise IllegalAction(f"You are asked for {step.replace('_', ' ')} now, not {given.replace('_', ' ')}.")
        # The action is of the class the step expects: dispatch on the step (an isinstance that
        # fails on a pydantic model is slow).
        if step == "plan":
            plan = cast(Plan, action)
            chosen = {*plan.order, plan.waiting}
            if len(chosen) != DECK_SIZE or chosen != set(p.team):
                raise IllegalAction(
                    "Put 5 cards of your Deck in order and the sixth as the Waiting card; "
                    f"your Deck is: {self._names(p.team)}."
                )
        elif step == "choose_deck":
            cards = cast(ChooseDeck, action).cards
            by_id = self.cards.by_id
            unknown = [c for c in cards if c not in by_id]
            if unknown:
                raise IllegalAction(f"Not cards of your set: {', '.join(map(repr, unknown))}.")
            if len(set(cards)) != PLAYED:
                raise IllegalAction("Choose 5 different cards.")
            if p.random_pick is not None and p.random_pick in cards:
                raise IllegalAction(
                    f"{self.card(p.random_pick).name} is already in your Deck (your random card); "
                    "choose 5 of the other 17 cards."
                )
        elif step == "swap" and (swap := cast(Swap, action)).remove is not None:
            if swap.remove not in p.team:
                raise IllegalAction(
                    f"{self._names([swap.remove])} is not in your Deck; your Deck is: {self._names(p.team)}."
                )
            if swap.add is None or swap.add not in self.cards or swap.add in p.team:
                raise IllegalAction(
                    f"{self._names([swap.add or '?'])} is not one of your 12 unused cards; "
                    f"they are: {self._names(self.unused(seat))}."
                )

    # ------------------------------------------------------------------ applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        # Dispatch on the exact class (an isinstance that fails on a pydantic model is slow).
        kind = type(action)
        if kind is Plan:  # the most frequent first
            return self._apply_plan(seat, cast(Plan, action))
        if kind is BotanistChoice:
            return self._apply_botanist(seat, cast(BotanistChoice, action))
        p = self.players[seat]
        who = REF[seat]
        if isinstance(action, ChooseDeck):
            assert p.random_pick is not None
            p.team = [p.random_pick, *action.cards]
            p.step = _PLAN
            return [
                Event("deck_chosen", f"{who} has chosen their Deck.", {"seat": seat}),
                Event(
                    "deck_chosen_private",
                    f"Your Deck: {self._valid_names(p.team)}.",
                    {"seat": seat, "team": list(p.team)},
                    frozenset({seat}),
                ),
            ]
        if isinstance(action, Swap):
            remove, add = action.remove, action.add
            if remove is not None and add is not None:
                p.team[p.team.index(remove)] = add
                by_id = self.cards.by_id
                private = f"You swapped {by_id[remove].name} for {by_id[add].name}."
            else:
                private = "You kept your Deck."
            p.step = _PLAN
            return [
                Event("prepared", f"{who} has finished preparing the new round.", {"seat": seat}),
                # the data: the seat and the action's JSON form
                Event(
                    "swap_private",
                    private,
                    {"seat": seat, "type": action.type, "remove": remove, "add": add},
                    frozenset({seat}),
                ),
            ]
        if isinstance(action, Plan):  # a subclass (none today)
            return self._apply_plan(seat, action)
        if isinstance(action, BotanistChoice):
            return self._apply_botanist(seat, action)
        return []

    def _apply_botanist(self, seat: int, action: BotanistChoice) -> list[Event]:
        duel = self.duel
        assert duel is not None
        duel.choice_seat = None
        events: list[Event] = []
        duel.botanist_discard(seat, action.discard, events)
        self._resolve(events)
        return events

    def _apply_plan(self, seat: int, action: Plan) -> list[Event]:
        p = self.players[seat]
        order, waiting = action.order, action.waiting
        p.pile = list(order)
        p.waiting = waiting
        p.waiting_known = False
        p.duel = None
        p.discard = []
        p.step = _DONE
        events = [
            Event("planned", f"{REF[seat]} has set their order and is ready.", {"seat": seat}),
            Event(
                "plan_private",
                f"Your order: {self._valid_names(order)}; Waiting card: {self.cards.by_id[waiting].name}.",
                {"seat": seat, "order": list(order), "waiting": waiting},
                frozenset({seat}),
            ),
        ]
        p0, p1 = self.players
        if p0.step is _DONE and p1.step is _DONE:
            self._start_round(events)
        return events

    # ------------------------------------------------------------------ the round
    def _start_round(self, events: list[Event] | None = None) -> list[Event]:
        """Both players are ready: the round's duels run. Appends the events to ``events`` (a new
        list if None) and returns it."""
        if events is None:
            events = []
        self.phase = _DUELS
        self.duel_count = 0
        self.duel = None
        events.append(Event("round_start", f"Round {self.round} begins.", {"round": self.round}))
        self._resolve(events)
        return events

    def _resolve(self, events: list[Event]) -> None:
        """Resolve duels until the round ends or a player's decision is needed; append their
        events to ``events``."""
        p0, p1 = players = self.players
        cards = self.cards
        while self.phase is _DUELS:
            duel = self.duel
            if duel is None:
                # Step 3.2: a player who cannot reveal a Wizard loses the round (both cannot: both win it).
                can0 = p0.duel is not None or bool(p0.pile)
                can1 = p1.duel is not None or bool(p1.pile)
                if not (can0 and can1):
                    self._end_round([0] if can0 else [1] if can1 else [0, 1], events)
                    break
                duel = self.duel = Duel.start(self.duel_count + 1, self.round, players, cards, events)
            if duel.queue:
                duel.resolve_powers(events)
                if duel.choice_seat is not None:
                    break
            duel.decide_and_end(events)
            self.duel_count += 1
            self.duel = None

    # ------------------------------------------------------------------ end of round and game
    def _end_round(self, winners: list[int], events: list[Event]) -> None:
        p0, p1 = self.players
        for s in winners:
            self.players[s].tokens += 1
        if len(winners) == 2:
            text = f"Round {self.round}: neither player can play another Wizard; both win the round."
        else:
            text = (
                f"Round {self.round}: {REF[1 - winners[0]]} cannot play another Wizard; "
                f"{REF[winners[0]]} wins the round."
            )
        t0, t1 = p0.tokens, p1.tokens
        events.append(
            Event(
                "round_end",
                f"{text} Victory tokens: {t0} - {t1}.",
                {
                    "round": self.round,
                    "winners": winners,
                    "tokens": [t0, t1],
                    "discards": [list(p0.discard), list(p1.discard)],
                    "duel": [p0.duel, p1.duel],
                },
            )
        )
        self.duel = None
        self.shown = tuple(self.shown[s] + (_shown_round(p),) for s, p in enumerate(self.players))
        if t0 >= TOKENS_TO_WIN or t1 >= TOKENS_TO_WIN:
            self._end_game(events)
            return
        self.round += 1
        for p in (p0, p1):
            p.pile, p.waiting, p.duel, p.discard = [], None, None, []
            p.waiting_known = False
            p.step = _SWAP
        self.phase = _PREPARE

    def _end_game(self, events: list[Event]) -> None:
        self.phase = _OVER
        reached = [s for s in (0, 1) if self.players[s].tokens >= TOKENS_TO_WIN]
        if len(reached) == 1:
            self.final = CUP_WON[reached[0]]
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
