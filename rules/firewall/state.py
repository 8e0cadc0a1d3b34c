"""Firewall: the game, its state and the resolution of a turn.

Rule text: ../shared/seeds/003_43a007c8745e86b6.txt; gaps and rulings: ../shared/design/firewall.md
and docs/rulings/firewall.md. Seat 0 (the challenger, ``{p1}``) stands on the left (flagstone 6 at
the start) and pushes the wall toward higher numbers; seat 1 (``{p2}``) stands on the right.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import product
from math import factorial
from typing import Any, ClassVar, Literal

from ..core import ActionModel, Ask, Awaiting, Bound, Event, Game, GameOptions, Outcome, State, seat_ref
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_permutation
from .actions import LarcenyChoice, Order, RecycleChoice, Shuffle, Turn, action_adapter
from .spells import (
    ATTACK_BOOST,
    BAD_LOSER,
    CLONE,
    DECK,
    DOUBLE_DOSE,
    END_OF_ROUND,
    FALSE_CARD,
    INFERNO,
    LARCENY,
    MIDDLE,
    MUTENESS,
    RECYCLE,
    RESERVE_BOOST,
    RESISTANCE,
    SPELLS,
    SUCTION,
    WINNER_LOSES,
    names,
    spell_name,
)

BRIDGE = 19  # flagstones 0..18
START_WALL = 9
GAP = 3  # wizards stand three flagstones from the wall
MAX_MANA = 50
START_HAND = 5
DRAW_PER_ROUND = 3
BOOST = 7
RESERVE_GAIN = 13
RECYCLE_RANGE = 5


class FirewallOptions(GameOptions):
    #: "full_hand": each player holds all 14 spells from the start (variant 1); "chosen_order": each
    #: player orders their own stock in secret instead of shuffling (variant 2).
    variant: Literal["standard", "full_hand", "chosen_order"] = "standard"


class Phase(StrEnum):
    SHUFFLE = "shuffle"  # chance: each seat's stock order
    ORDER = "order"  # variant chosen_order: each seat orders its stock (secret)
    TURN = "turn"  # both seats choose a bet and spells (secret)
    FOLLOWUP = "followup"  # a Larceny or Recycle caster decides
    OVER = "over"


@dataclass
class PlayerState:
    wizard: int
    mana: int = MAX_MANA
    stock: list[int] = field(default_factory=list)  # top first
    hand: list[int] = field(default_factory=lambda: [FALSE_CARD])  # sorted; the false card always in it
    discard: list[int] = field(default_factory=list)  # in discard order (bottom .. top)
    in_play: list[int] = field(default_factory=list)  # revealed this turn, not yet discarded
    pending: Turn | None = None  # this turn's secret choice, until the reveal
    last_played: list[int] = field(default_factory=list)  # spells revealed on the previous turn (no 0)
    ordered: bool = False  # the stock order is set (shuffled, or chosen in variant chosen_order)

    def cards(self) -> list[int]:
        """Every real spell (1..14) of this player wherever it is (for the accounting invariant)."""
        return [c for c in self.stock + self.hand + self.discard + self.in_play if c != FALSE_CARD]


@dataclass
class Item:
    """A spell waiting to apply this turn."""

    card: int
    owner: int  # whose card it is (it goes back to this player's discard pile)
    caster: int  # for whom it applies
    source: Literal["hand", "clone"] = "hand"
    stolen: bool = False

    def key(self) -> tuple[int, int]:
        return (self.card, self.caster)


@dataclass
class TurnCtx:
    round: int
    turn: int  # number of the turn in the round
    bets: list[int]
    powers: list[int]
    wall_before: int
    queue: list[Item] = field(default_factory=list)
    settled: bool = False
    toward: int | None = None  # the seat the wall is due to move toward
    steps: int = 1
    bad_loser: list[bool] = field(default_factory=lambda: [False, False])
    ended: bool = False  # End of Round applied
    pending: dict[str, Any] | None = None  # {"kind": "larceny"|"recycle", "seat": s, ...}
    clone_targets: list[int | None] = field(default_factory=lambda: [None, None])
    record: dict[str, Any] = field(default_factory=dict)  # what the UI shows of this turn


class Firewall(Game[FirewallOptions]):
    slug: ClassVar[str] = "firewall"
    name: ClassVar[str] = "Firewall"
    summary: ClassVar[str] = (
        "Two wizards on a collapsing bridge over lava push a Fire Wall with secret mana bets and 14 "
        "spells. Whoever is pushed off the bridge loses."
    )
    min_seats = 2
    max_seats = 2
    options_model = FirewallOptions
    action_adapter = action_adapter

    def new_state(self) -> FirewallState:
        return FirewallState(self)


class FirewallState(State):
    game: Firewall

    def __init__(self, game: Firewall):
        super().__init__(game)
        self.variant = game.options.variant
        self.players = [PlayerState(wizard=START_WALL - GAP), PlayerState(wizard=START_WALL + GAP)]
        self.wall = START_WALL
        self.round_start_wall = START_WALL
        self.broken_depth = 0  # flagstones broken at each end
        self.round = 1
        self.turn = 0  # turns revealed in this round
        self.turns_total = 0
        self.muted = False  # Muteness in effect for the rest of the round
        self.ctx: TurnCtx | None = None
        self.last_turn: dict[str, Any] | None = None
        self.final: Outcome | None = None
        if self.variant == "full_hand":
            for p in self.players:
                p.hand = [FALSE_CARD, *DECK]
            self.phase = Phase.TURN
        elif self.variant == "chosen_order":
            self.phase = Phase.ORDER
        else:
            self.phase = Phase.SHUFFLE
        if self.variant != "full_hand":
            for p in self.players:
                p.stock = list(DECK)  # in number order until shuffled or ordered

    # ------------------------------------------------------------------ queries
    def broken(self) -> list[int]:
        return [pos for pos in range(BRIDGE) if self.is_broken(pos)]

    def is_broken(self, pos: int) -> bool:
        return pos < self.broken_depth or pos >= BRIDGE - self.broken_depth

    def clone_options(self, seat: int) -> list[int]:
        """The opponent's spells from the previous turn that Clone may copy (Clone itself excluded)."""
        return sorted({c for c in self.players[1 - seat].last_played if c != CLONE})

    def recycle_range(self, seat: int) -> tuple[int, int]:
        assert self.ctx is not None
        bet, mana = self.ctx.bets[seat], self.players[seat].mana
        return max(1, bet - RECYCLE_RANGE), min(mana, bet + RECYCLE_RANGE)

    def _ask(self, seat: int) -> Ask:
        kind = self.step_of(seat)
        assert kind is not None
        if kind == "turn":
            return Ask(kind, secret=True, simultaneous=True, bounds=(Bound("bet", 1, self.players[seat].mana),))
        if kind == "recycle":
            lo, hi = self.recycle_range(seat)
            return Ask(kind, secret=True, bounds=(Bound("bet", lo, hi),))
        return Ask(kind, secret=True, simultaneous=kind == "order")

    def step_of(self, seat: int) -> str | None:
        """What ``seat`` is asked for now: order, turn, larceny, recycle, or None."""
        if self.phase is Phase.ORDER:
            return None if self.players[seat].ordered else "order"
        if self.phase is Phase.TURN:
            return None if self.players[seat].pending is not None else "turn"
        if self.phase is Phase.FOLLOWUP and self.ctx and self.ctx.pending and self.ctx.pending["seat"] == seat:
            return str(self.ctx.pending["kind"])
        return None

    def _awaiting(self) -> Awaiting:
        if self.phase is Phase.OVER:
            return Awaiting.terminal()
        if self.phase is Phase.SHUFFLE:
            return Awaiting.chance()
        return Awaiting.of(*(s for s in (0, 1) if self.step_of(s)))

    def _outcome(self) -> Outcome:
        assert self.final is not None
        return self.final

    # ------------------------------------------------------------------ chance
    def _shuffle_seat(self) -> int:
        return 0 if not self.players[0].ordered else 1

    def _chance_outcomes(self) -> Sequence[ActionModel]:
        seat = self._shuffle_seat()
        return LazySeq(factorial(len(DECK)), lambda i: Shuffle(seat=seat, order=nth_permutation(DECK, len(DECK), i)))

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        return Shuffle(seat=self._shuffle_seat(), order=tuple(rng.sample(DECK, len(DECK))))

    def _check_chance(self, action: ActionModel) -> None:
        if not isinstance(action, Shuffle):
            raise IllegalAction("The game is waiting for a stock shuffle (shuffle).")
        if action.seat != self._shuffle_seat():
            raise IllegalAction(f"The next shuffle is seat {self._shuffle_seat()}'s, not seat {action.seat}'s.")
        if sorted(action.order) != list(DECK):
            raise IllegalAction("A shuffled stock must hold each spell 1 to 14 exactly once.")

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        assert isinstance(action, Shuffle)
        self.players[action.seat].stock = list(action.order)
        self.players[action.seat].ordered = True
        events = [
            Event(
                "shuffle",
                f"{seat_ref(action.seat)} shuffles their 14 spells into their stock.",
                {"seat": action.seat, "stock_count": len(DECK)},
            )
        ]
        if action.seat == 1:
            events += self._first_deal()
        return events

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        kind = self.step_of(seat)
        if kind == "order":
            return LazySeq(factorial(len(DECK)), lambda i: Order(stock=nth_permutation(DECK, len(DECK), i)))
        if kind == "recycle":
            lo, hi = self.recycle_range(seat)
            return [RecycleChoice(bet=b) for b in range(lo, hi + 1)]
        if kind == "larceny":
            assert self.ctx is not None and self.ctx.pending is not None
            counts = sorted(Counter(self.ctx.pending["stolen"]).items())
            out = []
            for picks in product(*(range(n + 1) for _, n in counts)):
                out.append(larceny_of([c for (c, _), k in zip(counts, picks, strict=True) for _ in range(k)]))
            return out
        if kind == "turn":
            return self._turn_actions(seat)
        return []

    def _turn_actions(self, seat: int) -> Sequence[ActionModel]:
        p = self.players[seat]
        hand = sorted(p.hand)
        options = self.clone_options(seat)
        if CLONE in hand:
            others = [c for c in hand if c != CLONE]
            block = 2 ** len(others)
            per_bet = block * (1 + max(len(options), 1))
        else:
            others, block, per_bet = hand, 2 ** len(hand), 2 ** len(hand)

        def make(i: int) -> Turn:
            bet, r = divmod(i, per_bet)
            mask, extra = r % block, r // block
            spells = [c for b, c in enumerate(others) if mask >> b & 1]
            if extra == 0:
                return Turn(bet=bet + 1, spells=tuple(spells))
            target = options[extra - 1] if options else None
            return Turn(bet=bet + 1, spells=tuple(sorted([*spells, CLONE])), clone=target)

        return LazySeq(p.mana * per_bet, make)

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: Recycle keeps the bet; Larceny applies the stolen spells that only help their
        caster (Attack Boost, Double Dose, Resistance, Bad Loser, Reserve Boost, Suction) and discards
        the rest. The turn itself and the chosen stock order have no default (the seat forfeits)."""
        kind = self.step_of(seat)
        if kind == "recycle":
            assert self.ctx is not None
            return RecycleChoice(bet=self.ctx.bets[seat])
        if kind == "larceny":
            assert self.ctx is not None and self.ctx.pending is not None
            return larceny_of([c for c in self.ctx.pending["stolen"] if SPELLS[c].selfish])
        return None

    # ------------------------------------------------------------------ checks
    def _check(self, seat: int, action: ActionModel) -> None:
        kind = self.step_of(seat)
        expected = {"order": Order, "turn": Turn, "larceny": LarcenyChoice, "recycle": RecycleChoice}[kind or ""]
        if not isinstance(action, expected):
            raise IllegalAction(f"You are asked for your {kind} choice now, not {action.to_json().get('type')}.")
        if isinstance(action, Order):
            if sorted(action.stock) != list(DECK):
                raise IllegalAction("Put each of your 14 spells (1 to 14) exactly once in the order you want.")
        elif isinstance(action, Turn):
            self._check_turn(seat, action)
        elif isinstance(action, RecycleChoice):
            lo, hi = self.recycle_range(seat)
            if not lo <= action.bet <= hi:
                assert self.ctx is not None
                raise IllegalAction(
                    f"Recycle changes your bet of {self.ctx.bets[seat]} by at most {RECYCLE_RANGE}, within your "
                    f"{self.players[seat].mana} mana: choose a new bet from {lo} to {hi}."
                )
        elif isinstance(action, LarcenyChoice):
            assert self.ctx is not None and self.ctx.pending is not None
            stolen = Counter(self.ctx.pending["stolen"])
            if Counter(action.apply) - stolen:
                raise IllegalAction(
                    f"You can only apply spells you stole this turn: {names(sorted(stolen.elements()))}."
                )

    def _check_turn(self, seat: int, action: Turn) -> None:
        p = self.players[seat]
        if not 1 <= action.bet <= p.mana:
            raise IllegalAction(f"You bet {action.bet}; bet at least 1 and at most your {p.mana} mana.")
        dupes = sorted(c for c, n in Counter(action.spells).items() if n > 1)
        if dupes:
            raise IllegalAction(f"You listed {names(dupes)} more than once; each card can be played once.")
        missing = [c for c in action.spells if c not in p.hand]
        if missing:
            raise IllegalAction(
                f"{names(sorted(missing))} {'is' if len(missing) == 1 else 'are'} not in your hand; "
                f"your hand: {names(p.hand)}."
            )
        options = self.clone_options(seat)
        if CLONE in action.spells:
            if options and action.clone is None:
                raise IllegalAction(
                    f"Say which spell Clone copies (clone): your opponent's spells of the previous turn are "
                    f"{names(options)}."
                )
            if action.clone is not None and action.clone not in options:
                allowed = f"one of {names(options)}" if options else "nothing (leave clone empty)"
                raise IllegalAction(f"Clone cannot copy {names([action.clone])}; it can copy {allowed}.")
        elif action.clone is not None:
            raise IllegalAction("You named a spell to clone but did not play Clone (2).")

    # ------------------------------------------------------------------ applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        p = self.players[seat]
        who = seat_ref(seat)
        if isinstance(action, Order):
            p.stock = list(action.stock)
            p.ordered = True
            events = [
                Event("stock_ordered", f"{who} has put their stock in order.", {"seat": seat}),
                Event(
                    "stock_ordered_private",
                    f"Your stock, top first: {names(action.stock)}.",
                    {"seat": seat, "stock": list(action.stock)},
                    frozenset({seat}),
                ),
            ]
            if all(pl.ordered for pl in self.players):
                events += self._first_deal()
            return events
        if isinstance(action, Turn):
            p.pending = action
            events = [
                Event("submitted", f"{who} is ready.", {"seat": seat}),
                Event(
                    "submitted_private",
                    f"You bet {action.bet} and lay down {names(sorted(action.spells))}"
                    + (f", cloning {names([action.clone])}" if action.clone is not None else "")
                    + ".",
                    {"seat": seat, **action.to_json()},
                    frozenset({seat}),
                ),
            ]
            if all(pl.pending is not None for pl in self.players):
                events += self._reveal()
            return events
        assert self.ctx is not None and self.ctx.pending is not None
        if isinstance(action, RecycleChoice):
            events = self._recycle(seat, action.bet)
        else:
            assert isinstance(action, LarcenyChoice)
            events = self._larceny_choice(seat, list(action.apply))
        self.ctx.pending = None
        self.phase = Phase.TURN
        return events + self._resolve()

    # ------------------------------------------------------------------ deal and rounds
    def _first_deal(self) -> list[Event]:
        self.phase = Phase.TURN
        return [self._round_start_event(), *(self._draw(seat, START_HAND) for seat in (0, 1))]

    def _draw(self, seat: int, n: int) -> Event:
        p = self.players[seat]
        drawn, p.stock = p.stock[:n], p.stock[n:]
        p.hand = sorted(p.hand + drawn)
        return Event(
            "draw",
            f"You draw {names(drawn)}." if drawn else "Your stock is empty: you draw nothing.",
            {"seat": seat, "drawn": drawn, "hand": list(p.hand), "stock_count": len(p.stock)},
            frozenset({seat}),
        )

    def _round_start_event(self) -> Event:
        return Event(
            "round_start",
            f"Round {self.round} begins: the wall stands on flagstone {self.wall}, the wizards on "
            f"{self.players[0].wizard} and {self.players[1].wizard}; both have {MAX_MANA} mana.",
            {
                "round": self.round,
                "wall": self.wall,
                "wizards": [p.wizard for p in self.players],
                "broken": self.broken(),
                "mana": [p.mana for p in self.players],
                "hand_sizes": [len(p.hand) for p in self.players],
                "stock_counts": [len(p.stock) for p in self.players],
            },
        )

    # ------------------------------------------------------------------ the reveal
    def _reveal(self) -> list[Event]:
        a, b = self.players[0].pending, self.players[1].pending
        assert a is not None and b is not None
        self.turn += 1
        self.turns_total += 1
        turns = (a, b)
        ctx = TurnCtx(
            round=self.round,
            turn=self.turn,
            bets=[a.bet, b.bet],
            powers=[a.bet, b.bet],
            wall_before=self.wall,
        )
        self.ctx = ctx
        played = [sorted(c for c in t.spells if c != FALSE_CARD) for t in turns]
        for seat, p in enumerate(self.players):
            for c in played[seat]:
                p.hand.remove(c)
                p.in_play.append(c)
            p.last_played = list(played[seat])
            p.pending = None
        cancelled = sorted(set(played[0]) & set(played[1]))
        ctx.record = {
            "round": self.round,
            "turn": self.turn,
            "bets": list(ctx.bets),
            "spells": [sorted(t.spells) for t in turns],
            "clone": [t.clone for t in turns],
            "cancelled": cancelled,
            "muted_before": self.muted,
            "mana_before": [p.mana for p in self.players],
            "wall_from": self.wall,
            "effects": [],
        }
        text = " ".join(
            f"{seat_ref(s)} bets {t.bet} and reveals {names(sorted(t.spells))}"
            + (f" (cloning {spell_name(t.clone)})" if t.clone is not None else "")
            + "."
            for s, t in enumerate(turns)
        )
        events = [
            Event(
                "reveal",
                f"Round {self.round}, turn {self.turn}: {text}",
                {k: ctx.record[k] for k in ("round", "turn", "bets", "spells", "clone", "cancelled", "mana_before")},
            )
        ]
        if cancelled:
            events.append(
                Event(
                    "cancel",
                    f"Both played {names(cancelled)}: identical spells cancel each other and are discarded.",
                    {"cards": cancelled},
                )
            )
        for seat in (0, 1):
            for c in played[seat]:
                if c not in cancelled:
                    ctx.queue.append(Item(card=c, owner=seat, caster=seat, source="hand"))
        ctx.queue.sort(key=Item.key)
        ctx.clone_targets = [turns[s].clone if CLONE in played[s] else None for s in (0, 1)]
        return events + self._resolve()

    # ------------------------------------------------------------------ resolution
    def _resolve(self) -> list[Event]:
        """Apply the queued spells in number order until a follow-up is needed or the turn ends."""
        ctx = self.ctx
        assert ctx is not None
        events: list[Event] = []
        while ctx.queue:
            if ctx.ended:
                item = ctx.queue.pop(0)
                events.append(self._spell_event(item, "lost", "is lost: the round already ended"))
                continue
            if ctx.queue[0].card >= WINNER_LOSES and not ctx.settled:
                events.append(self._settle())
            item = ctx.queue.pop(0)
            events += self._apply_spell(item)
            if ctx.pending is not None:
                self.phase = Phase.FOLLOWUP
                return events
        if ctx.ended:
            return events + self._end_turn_by_spell()
        if not ctx.settled:
            events.append(self._settle())
        return events + self._finish_turn()

    def _spell_event(self, item: Item, result: str, what: str, **data: Any) -> Event:
        ctx = self.ctx
        assert ctx is not None
        caster = seat_ref(item.caster)
        label = spell_name(item.card)
        if item.stolen:
            label += f" (stolen from {seat_ref(1 - item.caster)})"
        elif item.source == "clone":
            label += f" (cloned from {seat_ref(item.owner)})"
        entry = {
            "card": item.card,
            "name": spell_name(item.card),
            "caster": item.caster,
            "owner": item.owner,
            "source": item.source,
            "stolen": item.stolen,
            "result": result,
            **data,
        }
        ctx.record["effects"].append(entry)
        return Event("spell", f"{caster}'s {label} {what}.", entry)

    def _settle(self) -> Event:
        """The attacks are final (no spell after 8 changes a power): which way the wall is due to go."""
        ctx = self.ctx
        assert ctx is not None
        ctx.settled = True
        p0, p1 = ctx.powers
        ctx.toward = 1 if p0 > p1 else 0 if p1 > p0 else None
        stronger = None if ctx.toward is None else 1 - ctx.toward
        ctx.record["powers"] = list(ctx.powers)
        if stronger is None:
            text = f"Attacks: {p0} against {p1}, equal: the wall is not due to move."
        else:
            text = (
                f"Attacks: {p0} against {p1}: {seat_ref(stronger)} is stronger; the wall is due to move "
                f"toward {seat_ref(1 - stronger)}."
            )
        return Event(
            "attack",
            text,
            {"bets": list(ctx.bets), "powers": list(ctx.powers), "stronger": stronger, "toward": ctx.toward},
        )

    def _apply_spell(self, item: Item) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        s = item.caster
        opp = 1 - s
        card = item.card
        if self.muted:
            return [self._spell_event(item, "muted", "has no effect: Muteness silences every spell this round")]
        if card == MUTENESS:
            self.muted = True
            return [self._spell_event(item, "applied", "silences every other spell for the rest of the round")]
        if card == CLONE:
            target = ctx.clone_targets[s] if not item.stolen else None
            if target is None:
                return [self._spell_event(item, "no_effect", "finds no spell to copy and fizzles")]
            clone = Item(card=target, owner=opp, caster=s, source="clone")
            events = [
                self._spell_event(
                    item, "applied", f"copies {seat_ref(opp)}'s {spell_name(target)} ({target})", target=target
                )
            ]
            if target < CLONE:  # Muteness: its number has passed, so it applies at once
                return events + self._apply_spell(clone)
            ctx.queue.append(clone)
            ctx.queue.sort(key=Item.key)  # stable: after spells of the same number already queued
            return events
        if card == LARCENY:
            stolen = [it for it in ctx.queue if it.caster == opp]
            if not stolen:
                return [self._spell_event(item, "no_effect", f"finds no spell of {seat_ref(opp)} left to steal")]
            for it in stolen:
                it.caster, it.stolen = s, True
            ctx.queue.sort(key=Item.key)
            cards = sorted(it.card for it in stolen)
            ctx.pending = {"kind": "larceny", "seat": s, "stolen": cards}
            return [
                self._spell_event(item, "applied", f"steals {names(cards)}", steals=cards),
                Event(
                    "choice",
                    f"{seat_ref(s)} chooses which stolen spells to apply for themselves (the others are discarded).",
                    {"seat": s, "kind": "larceny", "stolen": cards},
                ),
            ]
        if card == END_OF_ROUND:
            ctx.ended = True
            return [self._spell_event(item, "applied", "ends the round at once: no bets are paid")]
        if card == MIDDLE:
            before = self.wall
            self.wall = self.round_start_wall
            return [
                self._spell_event(
                    item,
                    "applied",
                    f"sends the wall back from flagstone {before} to {self.wall}, where the round began",
                    wall_from=before,
                    wall_to=self.wall,
                )
            ]
        if card == RECYCLE:
            lo, hi = self.recycle_range(s)
            if lo == hi:
                return [self._spell_event(item, "no_effect", "cannot change the bet (no room within the mana)")]
            ctx.pending = {"kind": "recycle", "seat": s, "bet": ctx.bets[s], "min": lo, "max": hi}
            return [
                self._spell_event(item, "applied", "lets its caster change their bet", bet=ctx.bets[s], min=lo, max=hi),
                Event(
                    "choice",
                    f"{seat_ref(s)} chooses a new bet from {lo} to {hi} (Recycle).",
                    {"seat": s, "kind": "recycle", "bet": ctx.bets[s], "min": lo, "max": hi},
                ),
            ]
        if card in (ATTACK_BOOST, DOUBLE_DOSE):
            before = ctx.powers[s]
            ctx.powers[s] = before + BOOST if card == ATTACK_BOOST else before * 2
            return [
                self._spell_event(
                    item,
                    "applied",
                    f"raises {seat_ref(s)}'s attack from {before} to {ctx.powers[s]}",
                    power_from=before,
                    power_to=ctx.powers[s],
                )
            ]
        if card == WINNER_LOSES:
            if ctx.toward is None:
                return [self._spell_event(item, "no_effect", "has no effect: the wall is not due to move")]
            before = ctx.toward
            ctx.toward = 1 - before
            return [
                self._spell_event(
                    item,
                    "applied",
                    f"reverses the wall: it is now due to move toward {seat_ref(ctx.toward)}",
                    toward_from=before,
                    toward_to=ctx.toward,
                )
            ]
        if card == INFERNO:
            if ctx.toward is None:
                return [self._spell_event(item, "no_effect", "has no effect: the wall is not due to move")]
            ctx.steps = 2
            return [self._spell_event(item, "applied", "makes the wall move two flagstones", steps=2)]
        if card == RESISTANCE:
            if ctx.toward == s:
                ctx.toward = None
                return [
                    self._spell_event(item, "applied", f"stops the wall from moving toward {seat_ref(s)}", blocked=True)
                ]
            return [
                self._spell_event(
                    item,
                    "no_effect",
                    f"has nothing to stop: the wall is not due to move toward {seat_ref(s)}",
                    blocked=False,
                )
            ]
        if card == BAD_LOSER:
            ctx.bad_loser[s] = True
            return [self._spell_event(item, "applied", f"will spare {seat_ref(s)}'s bet if the wall moves toward them")]
        if card in (RESERVE_BOOST, SUCTION):
            gain = RESERVE_GAIN if card == RESERVE_BOOST else ctx.bets[opp]
            before = self.players[s].mana
            after = min(MAX_MANA, before + gain)
            self.players[s].mana = after
            capped = before + gain > MAX_MANA
            return [
                self._spell_event(
                    item,
                    "applied",
                    f"gives {seat_ref(s)} {after - before} mana ({before} to {after}"
                    + (f", capped at {MAX_MANA}" if capped else "")
                    + ")",
                    gain=gain,
                    mana_from=before,
                    mana_to=after,
                    capped=capped,
                )
            ]
        raise AssertionError(f"unknown spell {card}")  # pragma: no cover

    # ------------------------------------------------------------------ follow-ups
    def _recycle(self, seat: int, bet: int) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        before = ctx.bets[seat]
        ctx.bets[seat] = bet
        ctx.powers[seat] += bet - before
        ctx.record["bets"] = list(ctx.bets)
        entry = {"card": RECYCLE, "name": spell_name(RECYCLE), "caster": seat, "result": "rebet"}
        entry |= {"bet_from": before, "bet_to": bet}
        ctx.record["effects"].append(entry)
        text = (
            f"Recycle: {seat_ref(seat)} keeps their bet of {bet}."
            if bet == before
            else f"Recycle: {seat_ref(seat)} changes their bet from {before} to {bet}."
        )
        return [Event("recycle", text, {"seat": seat, "bet_from": before, "bet_to": bet})]

    def _larceny_choice(self, seat: int, apply: list[int]) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        keep = Counter(apply)
        dropped: list[int] = []
        queue: list[Item] = []
        for it in ctx.queue:
            if it.stolen and it.caster == seat:
                if keep[it.card] > 0:
                    keep[it.card] -= 1
                    queue.append(it)
                else:
                    dropped.append(it.card)
                continue
            queue.append(it)
        ctx.queue = queue
        applied = sorted(apply)
        ctx.record["effects"].append(
            {
                "card": LARCENY,
                "name": spell_name(LARCENY),
                "caster": seat,
                "result": "chosen",
                "apply": applied,
                "discard": sorted(dropped),
            }
        )
        return [
            Event(
                "larceny",
                f"Larceny: {seat_ref(seat)} applies {names(applied)} for themselves "
                f"and discards {names(sorted(dropped))}.",
                {"seat": seat, "apply": applied, "discard": sorted(dropped)},
            )
        ]

    # ------------------------------------------------------------------ end of a turn
    def _discard_in_play(self) -> None:
        for p in self.players:
            p.discard.extend(p.in_play)
            p.in_play = []

    def _end_turn_by_spell(self) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        self._discard_in_play()
        ctx.record.update(paid=[0, 0], mana_after=[p.mana for p in self.players], wall_to=self.wall)
        events = [self._turn_end_event([0, 0], "The round ends before the bets are paid.")]
        return events + self._end_round("end_of_round", None)

    def _finish_turn(self) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        start, target = self.wall, ctx.toward
        hit = self._push(target, ctx.steps) if target is not None else None
        if target is None:
            text = f"The wall stays on flagstone {self.wall}."
        else:
            why = "Inferno: two flagstones" if ctx.steps == 2 else "one flagstone"
            short = hit is not None and ctx.steps == 2 and abs(self.wall - start) == 1
            stop = " and stops on the wizard" if short else ""
            text = f"The wall moves toward {seat_ref(target)} ({why}{stop}): flagstone {start} to {self.wall}." + (
                f" It reaches {seat_ref(target)}'s wizard!" if hit is not None else ""
            )
        data = {
            "from": start,
            "to": self.wall,
            "toward": target,
            "steps": abs(self.wall - start),
            "reason": "attack",
            "reached": hit,
        }
        events = [Event("wall", text, data)]
        paid = []
        for seat, p in enumerate(self.players):
            spared = ctx.bad_loser[seat] and target == seat
            cost = 0 if spared else ctx.bets[seat]
            p.mana -= cost
            paid.append(cost)
        self._discard_in_play()
        ctx.record.update(paid=paid, mana_after=[p.mana for p in self.players], wall_to=self.wall)
        spared_text = "".join(
            f" Bad Loser: {seat_ref(s)} does not pay." for s in (0, 1) if paid[s] == 0 and ctx.bets[s] > 0
        )
        events.append(self._turn_end_event(paid, spared_text.strip()))
        if hit is not None:
            return events + self._end_round("wall_reached", hit)
        out = [s for s in (0, 1) if self.players[s].mana == 0]
        if len(out) == 2:
            events.append(
                Event(
                    "out_of_mana",
                    "Both wizards are out of mana: the round ends where the wall stands.",
                    {"out": [0, 1], "mover": None, "from": self.wall, "to": self.wall, "reached": None},
                )
            )
            return events + self._end_round("out_of_mana", None)
        if len(out) == 1:
            return events + self._out_of_mana(out[0])
        self.phase = Phase.TURN
        self.ctx = None
        return events

    def _turn_end_event(self, paid: list[int], note: str) -> Event:
        ctx = self.ctx
        assert ctx is not None
        mana = [p.mana for p in self.players]
        self.last_turn = dict(ctx.record)
        return Event(
            "turn_end",
            f"Paid: {seat_ref(0)} {paid[0]}, {seat_ref(1)} {paid[1]}. Mana left: {seat_ref(0)} {mana[0]}, "
            f"{seat_ref(1)} {mana[1]}." + (f" {note}" if note else ""),
            {
                "round": ctx.round,
                "turn": ctx.turn,
                "bets": list(ctx.bets),
                "paid": paid,
                "mana": mana,
                "wall": self.wall,
                "wizards": [p.wizard for p in self.players],
                "discards": [list(p.discard) for p in self.players],
                "hand_sizes": [len(p.hand) for p in self.players],
            },
        )

    def _push(self, toward: int, steps: int) -> int | None:
        """Move the wall up to ``steps`` flagstones toward ``toward``'s wizard, stopping on it:
        ``toward`` if it was reached, else None."""
        step = 1 if toward == 1 else -1
        for _ in range(steps):
            self.wall += step
            if self.wall == self.players[toward].wizard:
                return toward
        return None

    def _out_of_mana(self, loser: int) -> list[Event]:
        mover = 1 - loser
        points = self.players[mover].mana
        start = self.wall
        hit = self._push(loser, points)
        text = (
            f"{seat_ref(loser)} is out of mana and can no longer bet: {seat_ref(mover)} spends their {points} "
            f"mana to move the wall from flagstone {start} to {self.wall}"
            + (f", onto {seat_ref(loser)}'s wizard." if hit is not None else ".")
        )
        events = [
            Event(
                "out_of_mana",
                text,
                {"out": [loser], "mover": mover, "points": points, "from": start, "to": self.wall, "reached": hit},
            )
        ]
        if hit is not None:
            return events + self._end_round("wall_reached", hit)
        return events + self._end_round("out_of_mana", None)

    # ------------------------------------------------------------------ end of a round and of the match
    def _end_round(self, reason: str, hit: int | None) -> list[Event]:
        self.ctx = None
        ended = self.round
        for seat, p in enumerate(self.players):
            p.wizard = self.wall - GAP if seat == 0 else self.wall + GAP
        self.broken_depth += 1
        fallen = [s for s, p in enumerate(self.players) if self.is_broken(p.wizard)]
        why = {
            "wall_reached": f"the wall reached {seat_ref(hit or 0)}'s wizard",
            "end_of_round": "End of Round was cast",
            "out_of_mana": "the mana ran out",
        }[reason]
        d = self.broken_depth
        text = (
            f"Round {ended} is over: {why}. The wall stays on flagstone {self.wall}; the wizards step to "
            f"{self.players[0].wizard} and {self.players[1].wizard}. Flagstones {d - 1} and {BRIDGE - d} collapse."
        )
        events = [
            Event(
                "round_end",
                text,
                {
                    "round": ended,
                    "reason": reason,
                    "hit": hit,
                    "wall": self.wall,
                    "wizards": [p.wizard for p in self.players],
                    "broken": self.broken(),
                    "fallen": fallen,
                },
            )
        ]
        if fallen:
            return events + self._end_match(fallen)
        self.round += 1
        self.turn = 0
        self.muted = False
        self.round_start_wall = self.wall
        for p in self.players:
            p.mana = MAX_MANA
        events.append(self._round_start_event())
        if self.variant != "full_hand":
            for seat in (0, 1):
                events.append(self._draw(seat, DRAW_PER_ROUND))
        self.phase = Phase.TURN
        return events

    def _end_match(self, fallen: list[int]) -> list[Event]:
        self.phase = Phase.OVER
        where = {s: self.players[s].wizard for s in fallen}

        def spot(s: int) -> str:
            pos = where[s]
            return f"flagstone {pos}" if 0 <= pos < BRIDGE else "beyond the end of the bridge"

        if len(fallen) == 2:
            why = f"Both wizards fall into the lava ({spot(0)} and {spot(1)} are gone): a draw."
            self.final = Outcome.draw(2, why)
        else:
            loser = fallen[0]
            why = f"{seat_ref(loser)}'s wizard falls into the lava ({spot(loser)}): {seat_ref(1 - loser)} wins."
            self.final = Outcome.single_winner(2, 1 - loser, why)
        return [
            Event("fall", why, {"fallen": fallen, "positions": [self.players[s].wizard for s in (0, 1)]}),
            Event("game_end", self.final.summary, {"outcome": self.final.to_json()}),
        ]

    # ------------------------------------------------------------------ views
    def view(self, seat: int | None) -> dict[str, Any]:
        from .view import render_view

        return render_view(self, seat)


def larceny_of(cards: list[int]) -> LarcenyChoice:
    """The Larceny follow-up applying ``cards`` (any order)."""
    return LarcenyChoice(apply=tuple(sorted(cards)))
