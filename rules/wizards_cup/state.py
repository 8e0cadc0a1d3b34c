"""Wizards Cup: the game, its state and the duel resolution.

Rule texts: ../shared/seeds/000 (summary) and 001 (rulebook + FAQ); gaps and rulings in
../shared/design/wizards-cup.md and docs/rulings/wizards-cup.md. Seats: 0 is the challenger.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from math import comb, perm
from typing import Any, ClassVar, Literal

from ..core import (
    ActionModel,
    Ask,
    Awaiting,
    Event,
    Game,
    GameOptions,
    Outcome,
    Result,
    SeatResult,
    State,
    seat_ref,
)
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_combination, nth_permutation
from .actions import BotanistChoice, ChooseDeck, Plan, RandomPick, Swap, action_adapter
from .cards import ELEMENT_BEATS, Card, CardSet, Element, PowerKind, load_card_set

DECK_SIZE = 6
PLAYED = 5
TOKENS_TO_WIN = 2

Inst = tuple[int, str]  # a card in play: (seat, card id); a seat's 18 cards are all different


class WizardsCupOptions(GameOptions):
    card_set: Literal["default"] = "default"


class Step(StrEnum):
    CHOOSE_DECK = "choose_deck"
    PLAN = "plan"
    SWAP = "swap"
    DONE = "done"


class Phase(StrEnum):
    SETUP = "setup"  # chance: the random first card of each seat
    PREPARE = "prepare"  # secret inputs: deck, plan, swap
    DUELS = "duels"  # resolving (waits only for a Botanist decision)
    OVER = "over"


@dataclass
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


@dataclass
class DuelContext:
    number: int
    entered: set[Inst] = field(default_factory=set)  # cards that entered the Duel zone this duel
    queue: list[Inst] = field(default_factory=list)  # powers still to resolve, in precedence order
    permanents: list[Inst] = field(default_factory=list)  # Permanent powers in effect, in order
    powerless: set[Inst] = field(default_factory=set)  # identical names
    void: set[Inst] = field(default_factory=set)  # counts as Void (The Alchemist)
    verdict_losers: frozenset[Inst] | None = None
    verdict_reason: str = ""
    choice_seat: int | None = None  # a Botanist decision is awaited


class WizardsCup(Game[WizardsCupOptions]):
    slug: ClassVar[str] = "wizards-cup"
    name: ClassVar[str] = "Wizards Cup"
    summary: ClassVar[str] = (
        "Pick a team of 6 wizards (one drawn at random by your opponent), order 5 of them in secret "
        "and watch them duel: Magic power, then Element, then Value decide. Two round wins take the Cup."
    )
    min_seats = 2
    max_seats = 2
    options_model = WizardsCupOptions
    action_adapter = action_adapter

    @property
    def cards(self) -> CardSet:
        return load_card_set(self.options.card_set)

    def new_state(self) -> WizardsCupState:
        return WizardsCupState(self)


class WizardsCupState(State):
    game: WizardsCup

    def __init__(self, game: WizardsCup):
        super().__init__(game)
        self.cards: CardSet = game.cards
        self.players = [PlayerState(), PlayerState()]
        self.phase = Phase.SETUP
        self.round = 1
        self.duel_count = 0  # duels resolved in this round
        self.ctx: DuelContext | None = None
        self.final: Outcome | None = None

    # ------------------------------------------------------------------ whose input
    def _awaiting(self) -> Awaiting:
        if self.phase is Phase.OVER:
            return Awaiting.terminal()
        if self.phase is Phase.SETUP:
            return Awaiting.chance()
        if self.phase is Phase.DUELS:
            assert self.ctx is not None and self.ctx.choice_seat is not None
            return Awaiting.of(self.ctx.choice_seat)
        return Awaiting.of(*(s for s, p in enumerate(self.players) if p.step is not Step.DONE))

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
        return [RandomPick(seat=seat, card=c) for c in self.cards.ids]

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        return RandomPick(seat=self._pick_seat(), card=rng.choice(self.cards.ids))

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
                f"{seat_ref(1 - action.seat)} picks at random from {seat_ref(action.seat)}'s set: "
                f"{self.card(action.card).name} joins {seat_ref(action.seat)}'s Deck.",
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
            return [BotanistChoice(discard=True), BotanistChoice(discard=False)]
        if p.step is Step.CHOOSE_DECK:
            pool = [c for c in self.cards.ids if c != p.random_pick]
            return LazySeq(comb(len(pool), 5), lambda i: ChooseDeck(cards=nth_combination(pool, 5, i)))  # type: ignore[arg-type]
        if p.step is Step.PLAN:
            team = list(p.team)

            def make_plan(i: int) -> Plan:
                order = nth_permutation(team, PLAYED, i)
                waiting = next(c for c in team if c not in order)
                return Plan(order=order, waiting=waiting)  # type: ignore[arg-type]

            return LazySeq(perm(DECK_SIZE, PLAYED), make_plan)
        if p.step is Step.SWAP:
            unused = self.unused(seat)
            swaps: list[ActionModel] = [Swap()]
            swaps += [Swap(remove=r, add=a) for r in p.team for a in unused]
            return swaps
        return []

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: an optional choice takes its 'do nothing' default (the Botanist keeps the
        Waiting card; the swap keeps the Deck). Choosing or planning a Deck has no default."""
        if self.phase is Phase.DUELS and self.ctx and self.ctx.choice_seat == seat:
            return BotanistChoice(discard=False)
        if self.phase is Phase.PREPARE and self.players[seat].step is Step.SWAP:
            return Swap()
        return None

    def _ask(self, seat: int) -> Ask:
        step = self.step_of(seat)
        return Ask(step, secret=step != "botanist", simultaneous=step != "botanist")

    def step_of(self, seat: int) -> str:
        """What ``seat`` is asked for now: choose_deck, plan, swap, botanist or done."""
        if self.phase is Phase.DUELS and self.ctx and self.ctx.choice_seat == seat:
            return "botanist"
        if self.phase is Phase.PREPARE:
            return self.players[seat].step.value
        return "done"

    # ------------------------------------------------------------------ checks
    def _names(self, ids: Sequence[str]) -> str:
        return ", ".join(self.card(c).name if c in self.cards else repr(c) for c in ids)

    def _check(self, seat: int, action: ActionModel) -> None:
        p = self.players[seat]
        step = self.step_of(seat)
        expected = {
            "choose_deck": ChooseDeck,
            "plan": Plan,
            "swap": Swap,
            "botanist": BotanistChoice,
        }[step]
        if not isinstance(action, expected):
            raise IllegalAction(f"You are asked for {step.replace('_', ' ')} now, not {action.type.replace('_', ' ')}.")
        if isinstance(action, ChooseDeck):
            unknown = [c for c in action.cards if c not in self.cards]
            if unknown:
                raise IllegalAction(f"Not cards of your set: {', '.join(map(repr, unknown))}.")
            if len(set(action.cards)) != 5:
                raise IllegalAction("Choose 5 different cards.")
            if p.random_pick in action.cards:
                raise IllegalAction(
                    f"{self.card(p.random_pick).name} is already in your Deck (your random card); "  # type: ignore[arg-type]
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
            if action.add not in self.cards or action.add in p.team:
                raise IllegalAction(
                    f"{self._names([action.add or '?'])} is not one of your 12 unused cards; "
                    f"they are: {self._names(self.unused(seat))}."
                )

    # ------------------------------------------------------------------ applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        p = self.players[seat]
        who = seat_ref(seat)
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
            assert self.ctx is not None
            self.ctx.choice_seat = None
            events += self._botanist_discard(seat, action.discard)
            events += self._run()
        return events

    # ------------------------------------------------------------------ the round
    def _start_round(self) -> list[Event]:
        self.phase = Phase.DUELS
        self.duel_count = 0
        self.ctx = None
        events = [Event("round_start", f"Round {self.round} begins.", {"round": self.round})]
        return events + self._run()

    def _run(self) -> list[Event]:
        """Resolve duels until the round ends or a player's decision is needed."""
        events: list[Event] = []
        while self.phase is Phase.DUELS:
            if self.ctx is None:
                events += self._next_duel()
                if self.ctx is None:  # the round ended
                    break
            ctx = self.ctx
            while ctx.queue and ctx.choice_seat is None:
                events += self._activate(*ctx.queue.pop(0))
            if ctx.choice_seat is not None:
                break
            events += self._decide_and_end()
        return events

    def _next_duel(self) -> list[Event]:
        """Step 3.2: each player without a Wizard in the Duel zone reveals the top card of their Deck;
        a player who cannot loses the round (both cannot: both win it)."""
        can_play = [p.duel is not None or bool(p.pile) for p in self.players]
        if not all(can_play):
            return self._end_round([s for s in (0, 1) if can_play[s]] if any(can_play) else [0, 1])
        ctx = DuelContext(number=self.duel_count + 1)
        stayed: list[Inst] = []
        revealed: list[dict[str, Any]] = []
        for seat, p in enumerate(self.players):
            if p.duel is None:
                p.duel = p.pile.pop(0)
                ctx.entered.add((seat, p.duel))
                revealed.append({"seat": seat, "card": p.duel})
            else:
                stayed.append((seat, p.duel))
        self.ctx = ctx
        a, b = self.players[0].duel, self.players[1].duel
        assert a is not None and b is not None
        text = " ".join(f"{seat_ref(r['seat'])} reveals {self.card(r['card']).name}." for r in revealed) + "".join(
            f" {self.card(c).name} of {seat_ref(s)} stays in the Duel zone." for s, c in stayed
        )
        events = [
            Event(
                "duel_start",
                f"Duel {ctx.number}: {text.strip()}",
                {"duel": ctx.number, "round": self.round, "cards": [a, b], "entered": revealed},
            )
        ]
        if a == b:
            # "Wizards with identical names in the Duel zone lose their Magic powers."
            ctx.powerless |= {(0, a), (1, b)}
            events.append(self._note(f"Both Wizards are {self.card(a).name}: identical names lose their Magic powers."))
        # Precedence: powers already in play first (a Permanent power that stayed), then the new
        # cards, lower printed Value first; equal printed Values: the challenger's card first.
        ctx.queue = [i for i in stayed if self.card(i[1]).power is PowerKind.PERMANENT]
        ctx.queue += sorted(ctx.entered, key=lambda i: (self.card(i[1]).value, i[0]))
        return events

    def _note(self, text: str, **data: Any) -> Event:
        return Event("power", text, data)

    def _inst(self, seat: int) -> Inst | None:
        card = self.players[seat].duel
        return (seat, card) if card is not None else None

    def _cancelled(self, inst: Inst) -> bool:
        """Whether ``inst``'s power has no effect now: identical names, or an opposing Archmage
        whose Permanent power is in effect."""
        ctx = self.ctx
        assert ctx is not None
        if inst in ctx.powerless:
            return True
        opp = self._inst(1 - inst[0])
        return (
            opp is not None
            and opp in ctx.permanents
            and opp not in ctx.powerless
            and self.card(opp[1]).effect == "cancel_opponent_power"
        )

    def _in_duel(self, inst: Inst) -> bool:
        return self.players[inst[0]].duel == inst[1]

    # ------------------------------------------------------------------ criterion A: powers
    def _activate(self, seat: int, card_id: str) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        inst = (seat, card_id)
        card = self.card(card_id)
        if not self._in_duel(inst) or card.power in (None, PowerKind.DORMANT):
            return []
        if self._cancelled(inst):
            return []  # identical names or the Archmage, already announced
        if card.power is PowerKind.PERMANENT:
            ctx.permanents.append(inst)
            if card.effect == "cancel_opponent_power":
                opp = self._inst(1 - seat)
                if opp and self.card(opp[1]).power in (PowerKind.IMMEDIATE, PowerKind.PERMANENT):
                    return [
                        self._note(
                            f"The Archmage: {self.card(opp[1]).name}'s power has no effect.",
                            seat=seat,
                            card=card_id,
                        )
                    ]
            return []
        if inst not in ctx.entered:  # an Immediate power triggers only once, on entry
            return []
        effect = IMMEDIATE_EFFECTS[card.effect or ""]
        return effect(self, seat, card)

    def _fx_both_lose(self, seat: int, card: Card) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        if ctx.verdict_losers is not None:
            return [self._note(f"{card.name}: the duel is already decided; nothing more happens.")]
        losers = frozenset(i for i in (self._inst(0), self._inst(1)) if i is not None)
        ctx.verdict_losers = losers
        ctx.verdict_reason = f"{card.name}: both Wizards lose"
        return [self._note(f"{card.name}: both Wizards lose the duel.", seat=seat, card=card.id)]

    def _fx_swap_with_waiting(self, seat: int, card: Card) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        p = self.players[seat]
        if p.waiting is None:
            return [self._note(f"{card.name}: {seat_ref(seat)} has no Waiting card; nothing happens.")]
        newcomer = p.waiting
        p.waiting, p.duel, p.waiting_known = card.id, newcomer, True
        ctx.entered.add((seat, newcomer))
        events = [
            self._note(
                f"{card.name} trades places with {seat_ref(seat)}'s Waiting card: "
                f"{self.card(newcomer).name} enters the Duel.",
                seat=seat,
                card=card.id,
                entered=newcomer,
            )
        ]
        opp = self._inst(1 - seat)
        if opp is not None and opp[1] == newcomer:
            # FAQ: "if this newly-placed card is identical to the one it encounters in the duel,
            # neither card's Magic power is activated"
            ctx.powerless |= {(seat, newcomer), opp}
            events.append(
                self._note(f"Both Wizards are {self.card(newcomer).name}: identical names lose their Magic powers.")
            )
            return events
        # FAQ: "Do I activate the Magic power of the Waiting card placed by The Detective? Yes,
        # activate it when the card is placed."
        return events + self._activate(seat, newcomer)

    def _fx_opponent_counts_as(self, seat: int, card: Card) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        opp = self._inst(1 - seat)
        if opp is None:
            return []
        ctx.void.add(opp)
        element = card.params.get("element", "Void")
        return [self._note(f"{card.name}: {self.card(opp[1]).name} counts as {element} in this duel.", seat=seat)]

    def _fx_recycle_discard_top(self, seat: int, card: Card) -> list[Event]:
        p = self.players[seat]
        if not p.discard:
            return [self._note(f"{card.name}: {seat_ref(seat)}'s discard pile is empty; nothing happens.")]
        moved = p.discard.pop()
        p.pile.append(moved)
        return [
            self._note(
                f"{card.name}: {self.card(moved).name} goes from {seat_ref(seat)}'s discard pile "
                "to the bottom of their Deck.",
                seat=seat,
                moved=moved,
            )
        ]

    def _fx_may_discard_waiting(self, seat: int, card: Card) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        if self.players[seat].waiting is None:
            return [self._note(f"{card.name}: {seat_ref(seat)} has no Waiting card to discard.")]
        ctx.choice_seat = seat  # "You may": the owner decides (a follow-up prompt)
        return [
            Event(
                "choice",
                f"{card.name}: {seat_ref(seat)} decides whether to discard their Waiting card.",
                {"seat": seat, "card": card.id},
            )
        ]

    def _botanist_discard(self, seat: int, discard: bool) -> list[Event]:
        p = self.players[seat]
        if not discard or p.waiting is None:
            return [self._note(f"The Botanist: {seat_ref(seat)} keeps their Waiting card.", seat=seat)]
        card = p.waiting
        p.discard.append(card)
        p.waiting, p.waiting_known = None, False
        return [
            self._note(
                f"The Botanist: {seat_ref(seat)} discards their Waiting card, {self.card(card).name}.",
                seat=seat,
                discarded=card,
            )
        ]

    # ------------------------------------------------------------------ criteria B and C
    def _element(self, inst: Inst) -> Element:
        assert self.ctx is not None
        return Element.VOID if inst in self.ctx.void else self.card(inst[1]).element

    def _value(self, seat: int) -> tuple[int, list[str]]:
        """The Wizard's Value after the Dormant powers on top of both discard piles."""
        p, opp = self.players[seat], self.players[1 - seat]
        assert p.duel is not None
        value = self.card(p.duel).value
        mods: list[str] = []
        if p.discard:
            top = self.card(p.discard[-1])
            if top.effect == "own_value_bonus":
                value += top.params["amount"]
                mods.append(f"{top.name} {top.params['amount']:+d}")
            elif top.effect == "own_value_per_discard":
                bonus = top.params["per_card"] * len(p.discard)
                value += bonus
                mods.append(f"{top.name} {bonus:+d}")
        if opp.discard:
            top = self.card(opp.discard[-1])
            if top.effect == "opponent_value_bonus":
                value += top.params["amount"]
                mods.append(f"{top.name} {top.params['amount']:+d}")
        return value, mods

    def _decide(self) -> tuple[str, frozenset[Inst], str, list[Event]]:
        """(criterion, losers, reason, notes) for the current duel."""
        ctx = self.ctx
        assert ctx is not None
        a, b = self._inst(0), self._inst(1)
        assert a is not None and b is not None
        if ctx.verdict_losers is not None:
            losers = frozenset(i for i in ctx.verdict_losers if self._in_duel(i))
            if losers:
                return "power", losers, ctx.verdict_reason, []
        notes: list[Event] = []
        # B. Element
        ea, eb = self._element(a), self._element(b)
        for loser, ew, el in ((b, ea, eb), (a, eb, ea)):
            if (ew, el) in ELEMENT_BEATS:
                lcard = self.card(loser[1])
                if lcard.effect == "no_elemental_weakness" and not self._cancelled(loser):
                    notes.append(self._note(f"{lcard.name} has no elemental weakness: {ew.value} does not beat it."))
                    break
                return "element", frozenset({loser}), f"{ew.value} beats {el.value}", notes
        # C. Value (after Dormant powers); Permanent powers acting on Values, in precedence order
        (va, ma), (vb, mb) = self._value(0), self._value(1)
        mods = ma + mb
        if len(mods) > 1:  # say which Wizard each modifier applies to
            mods = [f"{m} on {self.card(a[1]).name}" for m in ma] + [f"{m} on {self.card(b[1]).name}" for m in mb]
        for inst in ctx.permanents:
            if not self._in_duel(inst) or self._cancelled(inst):
                continue
            card = self.card(inst[1])
            seat = inst[0]
            mine, theirs = (va, vb) if seat == 0 else (vb, va)
            if card.effect == "lower_value_wins":
                if va == vb:
                    notes.append(self._note(f"{card.name}: equal Values, so no lower Value wins."))
                    continue
                loser = a if va > vb else b
                low, high = min(va, vb), max(va, vb)
                return (
                    "value",
                    frozenset({loser}),
                    _with_mods(f"{card.name}: the lower Value wins", mods, f"{low} against {high}"),
                    notes,
                )
            if card.effect == "wins_on_value":
                loser = b if seat == 0 else a
                return (
                    "value",
                    frozenset({loser}),
                    _with_mods(f"{card.name} wins when Values decide", mods, f"{mine} against {theirs}"),
                    notes,
                )
        if va == vb:
            return (
                "value",
                frozenset({a, b}),
                _with_mods("Equal Values, both Wizards lose", mods, f"{va} against {vb}"),
                notes,
            )
        loser = b if va > vb else a
        high, low = max(va, vb), min(va, vb)
        return "value", frozenset({loser}), _with_mods("", mods, f"{high} against {low}"), notes

    def _decide_and_end(self) -> list[Event]:
        """Decide the duel, then step 3 (End of the duel)."""
        ctx = self.ctx
        assert ctx is not None
        criterion, losers, reason, events = self._decide()
        cards = [self.players[0].duel, self.players[1].duel]
        loser_seats = sorted(s for s, _ in losers)
        winner = 1 - loser_seats[0] if len(loser_seats) == 1 else None
        if winner is None:
            text = f"Both {self.card(cards[0]).name} and {self.card(cards[1]).name} lose: {reason}."  # type: ignore[arg-type]
        else:
            text = (
                f"{self.card(cards[winner]).name} of {seat_ref(winner)} beats "  # type: ignore[arg-type]
                f"{self.card(cards[1 - winner]).name} of {seat_ref(1 - winner)}: {reason}."  # type: ignore[arg-type]
            )
        events.append(
            Event(
                "duel",
                f"Duel {ctx.number}: {text}",
                {
                    "duel": ctx.number,
                    "round": self.round,
                    "cards": cards,
                    "criterion": criterion,
                    "reason": reason,
                    "winner": winner,
                    "losers": loser_seats,
                },
            )
        )
        # 3.1 "when it wins" effects first (FAQ: before the losing Wizard is discarded)
        if winner is not None:
            w = self._inst(winner)
            assert w is not None
            if self.card(w[1]).effect == "on_win_opponent_discards_top" and not self._cancelled(w):
                events += self._revolution(winner)
        for seat in loser_seats:
            p = self.players[seat]
            assert p.duel is not None
            p.discard.append(p.duel)
            p.duel = None
        self.duel_count += 1
        self.ctx = None
        return events

    def _revolution(self, seat: int) -> list[Event]:
        opp = self.players[1 - seat]
        name = self.card(self.players[seat].duel or "").name
        if opp.discard and self.card(opp.discard[-1]).effect == "protect_from_discard":
            return [self._note(f"{name}: {self.card(opp.discard[-1]).name} protects {seat_ref(1 - seat)}'s Deck.")]
        if not opp.pile:
            return [self._note(f"{name}: {seat_ref(1 - seat)}'s Deck is empty; nothing to discard.")]
        card = opp.pile.pop(0)
        opp.discard.append(card)
        return [
            self._note(
                f"{name}: {seat_ref(1 - seat)} discards the top card of their Deck, {self.card(card).name}.",
                seat=1 - seat,
                discarded=card,
            )
        ]

    # ------------------------------------------------------------------ end of round and game
    def _end_round(self, winners: list[int]) -> list[Event]:
        for s in winners:
            self.players[s].tokens += 1
        if len(winners) == 2:
            text = f"Round {self.round}: neither player can play another Wizard; both win the round."
        else:
            text = (
                f"Round {self.round}: {seat_ref(1 - winners[0])} cannot play another Wizard; "
                f"{seat_ref(winners[0])} wins the round."
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
        self.ctx = None
        if max(tokens) >= TOKENS_TO_WIN:
            return events + self._end_game(winners)
        self.round += 1
        for p in self.players:
            p.pile, p.waiting, p.duel, p.discard = [], None, None, []
            p.waiting_known = False
            p.step = Step.SWAP
        self.phase = Phase.PREPARE
        return events

    def _end_game(self, round_winners: list[int]) -> list[Event]:
        self.phase = Phase.OVER
        reached = [s for s in (0, 1) if self.players[s].tokens >= TOKENS_TO_WIN]
        events: list[Event] = []
        if len(reached) == 1:
            w = reached[0]
            why = f"{seat_ref(w)} wins the Wizards Cup with {TOKENS_TO_WIN} Victory tokens."
            self.final = Outcome.single_winner(2, w, why)
        else:
            totals = [sum(self.card(c).value for c in p.team) for p in self.players]
            events.append(
                Event(
                    "tiebreak",
                    f"Both players reach {TOKENS_TO_WIN} Victory tokens at once. Deck totals: "
                    f"{seat_ref(0)} {totals[0]} ({self._names(self.players[0].team)}), "
                    f"{seat_ref(1)} {totals[1]} ({self._names(self.players[1].team)}).",
                    {"totals": totals, "teams": [list(p.team) for p in self.players]},
                )
            )
            if totals[0] == totals[1]:
                why = f"Both reach {TOKENS_TO_WIN} tokens with equal Deck totals ({totals[0]}): a shared victory."
                self.final = Outcome((SeatResult(Result.DRAW, why), SeatResult(Result.DRAW, why)), why)
            else:
                w = 0 if totals[0] < totals[1] else 1
                why = (
                    f"Both reach {TOKENS_TO_WIN} tokens; {seat_ref(w)} wins with the lower Deck total "
                    f"({totals[w]} against {totals[1 - w]})."
                )
                self.final = Outcome.single_winner(2, w, why)
        events.append(Event("game_end", self.final.summary, {"outcome": self.final.to_json()}))
        return events

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        from .view import render_view

        return render_view(self, seat)


def _with_mods(head: str, mods: list[str], values: str) -> str:
    """E.g. "The Mentor +2: 7 against 6" or "The Matron: the lower Value wins (The Jester -2: 3 against 4)"."""
    tail = f"{', '.join(mods)}: {values}" if mods else values
    if not head:
        return tail
    return f"{head} ({tail})" if mods else f"{head}, {values}"


IMMEDIATE_EFFECTS = {
    "both_lose": WizardsCupState._fx_both_lose,
    "swap_with_waiting": WizardsCupState._fx_swap_with_waiting,
    "opponent_counts_as": WizardsCupState._fx_opponent_counts_as,
    "recycle_discard_top": WizardsCupState._fx_recycle_discard_top,
    "may_discard_waiting": WizardsCupState._fx_may_discard_waiting,
}
