"""Firewall's State: what each seat is asked, the legal actions and their checks, the secret
submissions, the reveal and the resolution of a turn's spells in number order.

The data it works on is in ``table.py``; what each spell does in ``effects.py``; the end of a turn,
a round and the match in ``rounds.py``. Rulings: docs/rulings/firewall.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import product
from math import factorial
from typing import Literal

from ..core import ActionModel, Ask, Awaiting, Bound, Event, Outcome
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_permutation
from .actions import LarcenyChoice, Order, RecycleChoice, Shuffle, Turn, known_turn, larceny_of
from .effects import apply_spell, choose_stolen, rebet
from .game import RECYCLE_RANGE, Firewall
from .rounds import end_turn_by_spell, finish_turn, first_deal
from .spells import CLONE, DECK, FALSE_CARD, SPELLS, WINNER_LOSES, names, spell_name
from .table import WHO, FirewallTable, Phase, QueuedSpell, TurnResolution

Step = Literal["order", "turn", "larceny", "recycle"]

_CHANCE = Awaiting.chance()
_TERMINAL = Awaiting.terminal()
_BOTH = Awaiting.of(0, 1)
_ONLY = (Awaiting.of(0), Awaiting.of(1))
_NOBODY = Awaiting.of()
_ACTION_OF_STEP: dict[Step, type[ActionModel]] = {
    "order": Order,
    "turn": Turn,
    "larceny": LarcenyChoice,
    "recycle": RecycleChoice,
}


class FirewallState(FirewallTable):
    #: ``_check`` validates completely: moves apply in place, without a snapshot.
    atomic = True

    def __init__(self, game: Firewall):
        super().__init__(game)

    def clone(self) -> FirewallState:
        other = object.__new__(FirewallState)
        other.__dict__.update(self.__dict__)
        self.copy_table_into(other)
        return other

    # ------------------------------------------------------------------ what is asked
    def _step(self) -> Step:
        """The kind of step every awaited seat is asked now (only called while seats are awaited)."""
        if self.phase is Phase.TURN:
            return "turn"
        if self.phase is Phase.ORDER:
            return "order"
        pending = self.current().pending
        assert pending is not None
        return pending["kind"]

    def _ask(self, seat: int) -> Ask:
        """A turn: secret and simultaneous, a bet of 1 to the seat's mana (ruling 5). The stock order
        (variant chosen_order): secret and simultaneous. The Larceny and Recycle follow-ups: one seat,
        in the open (ruling 12: the stolen cards are already revealed; the choice is announced at
        once); Recycle's new bet within 5 of the old one and 1 to the mana (ruling 15)."""
        step = self._step()
        if step == "turn":
            return Ask(step, secret=True, simultaneous=True, bounds=(Bound("bet", 1, self.players[seat].mana),))
        if step == "recycle":
            lo, hi = self.recycle_range(seat)
            return Ask(step, bounds=(Bound("bet", lo, hi),))
        if step == "order":
            return Ask(step, secret=True, simultaneous=True)
        return Ask(step)

    def _awaiting(self) -> Awaiting:
        phase = self.phase
        p0, p1 = self.players
        if phase is Phase.TURN:
            waiting0, waiting1 = p0.pending is None, p1.pending is None
        elif phase is Phase.ORDER:
            waiting0, waiting1 = not p0.ordered, not p1.ordered
        elif phase is Phase.FOLLOWUP:
            pending = self.current().pending
            assert pending is not None
            return _ONLY[pending["seat"]]
        else:
            return _CHANCE if phase is Phase.SHUFFLE else _TERMINAL
        if waiting0:
            return _BOTH if waiting1 else _ONLY[0]
        return _ONLY[1] if waiting1 else _NOBODY

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
                f"{WHO[action.seat]} shuffles their 14 spells into their stock.",
                {"seat": action.seat, "stock_count": len(DECK)},
            )
        ]
        if action.seat == 1:
            events += first_deal(self)
        return events

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        step = self._step()
        if step == "turn":
            return self._turn_actions(seat)
        if step == "order":
            return LazySeq(factorial(len(DECK)), lambda i: Order(stock=nth_permutation(DECK, len(DECK), i)))
        if step == "recycle":
            lo, hi = self.recycle_range(seat)
            return [_recycle_choice(b) for b in range(lo, hi + 1)]
        pending = self.current().pending
        assert pending is not None
        counts = sorted(Counter(pending.get("stolen", ())).items())
        return [
            larceny_of([c for (c, _), k in zip(counts, picks, strict=True) for _ in range(k)])
            for picks in product(*(range(n + 1) for _, n in counts))
        ]

    def _turn_actions(self, seat: int) -> Sequence[ActionModel]:
        """Every turn: by bet (1 .. mana), then by subset of the hand; with Clone in the hand, the
        subsets without Clone first, then with Clone and each target (or none, with nothing to copy)."""
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
                return known_turn(bet + 1, tuple(spells), None)
            target = options[extra - 1] if options else None
            return known_turn(bet + 1, tuple(sorted([*spells, CLONE])), target)

        return LazySeq(p.mana * per_bet, make)

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: Recycle keeps the bet; Larceny applies the stolen spells that only help their
        caster (Attack Boost, Double Dose, Resistance, Bad Loser, Reserve Boost, Suction) and discards
        the rest. The turn itself and the chosen stock order have no default (the seat forfeits)."""
        if self.phase is not Phase.FOLLOWUP:
            return None
        pending = self.current().pending
        if pending is None or pending["seat"] != seat:
            return None
        if pending["kind"] == "recycle":
            return _recycle_choice(self.current().bets[seat])
        return larceny_of([c for c in pending.get("stolen", ()) if SPELLS[c].selfish])

    # ------------------------------------------------------------------ checks
    def _check(self, seat: int, action: ActionModel) -> None:
        step = self._step()
        if not isinstance(action, _ACTION_OF_STEP[step]):
            raise IllegalAction(f"You are asked for your {step} choice now, not {action.to_json().get('type')}.")
        if isinstance(action, Turn):
            self._check_turn(seat, action)
        elif isinstance(action, Order):
            if sorted(action.stock) != list(DECK):
                raise IllegalAction("Put each of your 14 spells (1 to 14) exactly once in the order you want.")
        elif isinstance(action, RecycleChoice):
            lo, hi = self.recycle_range(seat)
            if not lo <= action.bet <= hi:
                raise IllegalAction(
                    f"Recycle changes your bet of {self.current().bets[seat]} by at most {RECYCLE_RANGE}, within "
                    f"your {self.players[seat].mana} mana: choose a new bet from {lo} to {hi}."
                )
        elif isinstance(action, LarcenyChoice):
            pending = self.current().pending
            assert pending is not None
            stolen = Counter(pending.get("stolen", ()))
            if Counter(action.apply) - stolen:
                raise IllegalAction(
                    f"You can only apply spells you stole this turn: {names(sorted(stolen.elements()))}."
                )

    def _check_turn(self, seat: int, action: Turn) -> None:
        p = self.players[seat]
        if not 1 <= action.bet <= p.mana:
            raise IllegalAction(f"You bet {action.bet}; bet at least 1 and at most your {p.mana} mana.")
        spells = action.spells
        if len(set(spells)) != len(spells):
            dupes = sorted(c for c, n in Counter(spells).items() if n > 1)
            raise IllegalAction(f"You listed {names(dupes)} more than once; each card can be played once.")
        missing = [c for c in spells if c not in p.hand]
        if missing:
            raise IllegalAction(
                f"{names(sorted(missing))} {'is' if len(missing) == 1 else 'are'} not in your hand; "
                f"your hand: {names(p.hand)}."
            )
        if CLONE in spells:
            options = self.clone_options(seat)
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
        if isinstance(action, Turn):
            return self._submit(seat, action)
        if isinstance(action, Order):
            return self._order(seat, action)
        if isinstance(action, RecycleChoice):
            events = rebet(self, seat, action.bet)
        else:
            assert isinstance(action, LarcenyChoice)
            events = choose_stolen(self, seat, action.apply)
        self.current().pending = None
        self.phase = Phase.TURN
        return events + self._resolve()

    def _order(self, seat: int, action: Order) -> list[Event]:
        p = self.players[seat]
        p.stock = list(action.stock)
        p.ordered = True
        events = [
            Event("stock_ordered", f"{WHO[seat]} has put their stock in order.", {"seat": seat}),
            Event(
                "stock_ordered_private",
                f"Your stock, top first: {names(action.stock)}.",
                {"seat": seat, "stock": list(action.stock)},
                frozenset({seat}),
            ),
        ]
        if all(pl.ordered for pl in self.players):
            events += first_deal(self)
        return events

    def _submit(self, seat: int, action: Turn) -> list[Event]:
        self.players[seat].pending = action
        events = [
            Event("submitted", f"{WHO[seat]} is ready.", {"seat": seat}),
            Event(
                "submitted_private",
                f"You bet {action.bet} and lay down {names(sorted(action.spells))}"
                + (f", cloning {names([action.clone])}" if action.clone is not None else "")
                + ".",
                {"seat": seat, "type": "turn", "bet": action.bet, "spells": list(action.spells), "clone": action.clone},
                frozenset({seat}),
            ),
        ]
        p0, p1 = self.players
        if p0.pending is not None and p1.pending is not None:
            events += self._reveal()
        return events

    # ------------------------------------------------------------------ the reveal
    def _reveal(self) -> list[Event]:
        a, b = self.players[0].pending, self.players[1].pending
        assert a is not None and b is not None
        self.turn += 1
        self.turns_total += 1
        turns = (a, b)
        played = [sorted(c for c in t.spells if c != FALSE_CARD) for t in turns]
        cancelled = sorted(set(played[0]) & set(played[1]))
        resolution = TurnResolution(
            round=self.round,
            turn=self.turn,
            bets=[a.bet, b.bet],
            powers=[a.bet, b.bet],
            record={
                "round": self.round,
                "turn": self.turn,
                "bets": [a.bet, b.bet],
                "spells": [sorted(t.spells) for t in turns],
                "clone": [t.clone for t in turns],
                "cancelled": cancelled,
                "muted_before": self.muted,
                "mana_before": [p.mana for p in self.players],
                "wall_from": self.wall,
                "effects": [],
            },
        )
        self.resolution = resolution
        for seat, p in enumerate(self.players):
            for c in played[seat]:
                p.hand.remove(c)
                p.in_play.append(c)
            p.last_played = list(played[seat])
            p.pending = None
        text = " ".join(
            f"{WHO[s]} bets {t.bet} and reveals {names(sorted(t.spells))}"
            + (f" (cloning {spell_name(t.clone)})" if t.clone is not None else "")
            + "."
            for s, t in enumerate(turns)
        )
        record = resolution.record
        events = [
            Event(
                "reveal",
                f"Round {self.round}, turn {self.turn}: {text}",
                {
                    "round": record["round"],
                    "turn": record["turn"],
                    "bets": record["bets"],
                    "spells": record["spells"],
                    "clone": record["clone"],
                    "cancelled": record["cancelled"],
                    "mana_before": record["mana_before"],
                },
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
                    resolution.queue.append(QueuedSpell(card=c, owner=seat, caster=seat, source="hand"))
        resolution.queue.sort(key=QueuedSpell.key)
        resolution.clone_targets = [turns[s].clone if CLONE in played[s] else None for s in (0, 1)]
        return events + self._resolve()

    # ------------------------------------------------------------------ resolution
    def _resolve(self) -> list[Event]:
        """Apply the queued spells in number order until a follow-up is needed or the turn ends."""
        resolution = self.current()
        events: list[Event] = []
        while resolution.queue:
            if resolution.ended:
                item = resolution.queue.pop(0)
                events.append(self.spell_event(item, "lost", "is lost: the round already ended"))
                continue
            if resolution.queue[0].card >= WINNER_LOSES and not resolution.settled:
                events.append(self._settle())
            item = resolution.queue.pop(0)
            events += apply_spell(self, item)
            if resolution.pending is not None:
                self.phase = Phase.FOLLOWUP
                return events
        if resolution.ended:
            return events + end_turn_by_spell(self)
        if not resolution.settled:
            events.append(self._settle())
        return events + finish_turn(self)

    def _settle(self) -> Event:
        """The attacks are final (no spell after 8 changes a power): which way the wall is due to go."""
        resolution = self.current()
        resolution.settled = True
        p0, p1 = resolution.powers
        resolution.toward = 1 if p0 > p1 else 0 if p1 > p0 else None
        stronger = None if resolution.toward is None else 1 - resolution.toward
        resolution.record["powers"] = list(resolution.powers)
        if stronger is None:
            text = f"Attacks: {p0} against {p1}, equal: the wall is not due to move."
        else:
            text = (
                f"Attacks: {p0} against {p1}: {WHO[stronger]} is stronger; the wall is due to move "
                f"toward {WHO[1 - stronger]}."
            )
        return Event(
            "attack",
            text,
            {
                "bets": list(resolution.bets),
                "powers": list(resolution.powers),
                "stronger": stronger,
                "toward": resolution.toward,
            },
        )


_RECYCLE_CHOICES: dict[int, RecycleChoice] = {}


def _recycle_choice(bet: int) -> RecycleChoice:
    """The (immutable, shared) Recycle follow-up with ``bet``."""
    choice = _RECYCLE_CHOICES.get(bet)
    if choice is None:
        choice = _RECYCLE_CHOICES[bet] = RecycleChoice(bet=bet)
    return choice
