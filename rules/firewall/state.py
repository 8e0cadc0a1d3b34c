"""Firewall's State: what each seat is asked, the legal actions and their checks, the secret
submissions, the reveal and the resolution of a turn's spells in number order.

The data it works on is in ``table.py``; what each spell does in ``effects.py``; the end of a turn,
a round and the match in ``rounds.py``. Rulings: docs/rulings/firewall.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from math import factorial
from typing import Literal, cast

from ..core import ActionModel, Actor, Ask, Awaiting, Bound, Event, Outcome
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_permutation, randbelow
from ..memo import Memo
from .actions import LarcenyChoice, Order, RecycleChoice, Shuffle, Turn, known_shuffle, larceny_of
from .choices import TurnChoices, larceny_choices, plain_layout, recycle_choice, recycle_choices, turn_layout
from .effects import apply_spell, choose_stolen, rebet
from .game import RECYCLE_RANGE, Firewall
from .rounds import end_turn_by_spell, finish_turn, first_deal
from .spells import CLONE, DECK, FALSE_CARD, SPELLS, WINNER_LOSES, names, spell_name
from .table import (
    ONLY_SEAT,
    QUEUE_ORDER,
    WHO,
    FirewallTable,
    Phase,
    QueuedSpell,
    TurnResolution,
)

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

    def __init__(self, game: Firewall):
        super().__init__(game)

    def _copy(self) -> FirewallState:
        other = object.__new__(FirewallState)
        other.__dict__.update(self.__dict__)
        self.copy_table_into(other)
        return other

    # ------------------------------------------------------------------ the entry points
    def apply_trusted(self, seat: Actor, action: ActionModel) -> list[Event]:
        """``State.apply_trusted``, with a seat's turn (the hot path of playouts) submitted directly
        (``_submit`` returns no events when not narrating)."""
        if type(action) is Turn:
            return self._submit(cast(int, seat), action)
        return super().apply_trusted(seat, action)

    @property
    def awaiting(self) -> Awaiting:
        """``State.awaiting``, with the common case (both seats choosing a turn) first."""
        if self.phase is Phase.TURN and self._forfeit_outcome is None:
            p0, p1 = self.players
            if p0.pending is None:
                return _BOTH if p1.pending is None else _ONLY[0]
            return _ONLY[1] if p1.pending is None else _NOBODY
        return super().awaiting

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
        return known_shuffle(self._shuffle_seat(), _shuffled_deck(rng))

    def _check_chance(self, action: ActionModel) -> None:
        if not isinstance(action, Shuffle):
            raise IllegalAction("The game is waiting for a stock shuffle (shuffle).")
        if action.seat != self._shuffle_seat():
            raise IllegalAction(f"The next shuffle is seat {self._shuffle_seat()}'s, not seat {action.seat}'s.")
        order = action.order
        if len(order) != len(DECK) or set(order) != _DECK_SET:
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
    def sample_action(self, seat: Actor, rng: random.Random) -> ActionModel:
        """``State.sample_action``: ``legal_actions(seat)[rng.randrange(len(...))]``, with the same
        draw from ``rng``; a seat's turn (the hot path of random playouts) is picked directly."""
        if self.phase is Phase.TURN and (seat == 0 or seat == 1) and self._forfeit_outcome is None:
            p = self.players[seat]
            mana = p.mana
            if p.pending is None and mana > 0:
                hand = p.hand
                layout = None if CLONE in hand else plain_layout(hand)
                if layout is None:
                    layout = turn_layout(hand, self.players[1 - seat].last_played)
                per_bet = layout.per_bet
                n = mana * per_bet
                if type(rng) is random.Random:  # lazy.randbelow, inlined
                    k = n.bit_length()
                    getrandbits = rng.getrandbits
                    i = getrandbits(k)
                    while i >= n:
                        i = getrandbits(k)
                else:
                    i = rng.randrange(n)
                bet, r = divmod(i, per_bet)
                return layout.turn(bet + 1, r)
        elif self.phase is Phase.FOLLOWUP and self._forfeit_outcome is None:
            pending = self.current().pending
            if pending is not None and seat == pending["seat"]:
                actions = self._legal_actions(seat)
                return actions[randbelow(rng, len(actions))]
        return super().sample_action(seat, rng)

    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        """A turn: every turn by bet (1 .. mana), then by subset of the hand; with Clone in the hand,
        the subsets without Clone first, then with Clone and each target (or none, with nothing to
        copy) - see ``choices.TurnLayout``. The follow-ups: Recycle's bets ascending, Larceny's subsets."""
        phase = self.phase
        if phase is Phase.TURN:
            p = self.players[seat]
            return TurnChoices(turn_layout(p.hand, self.players[1 - seat].last_played), p.mana)
        if phase is Phase.ORDER:
            return LazySeq(factorial(len(DECK)), lambda i: Order(stock=nth_permutation(DECK, len(DECK), i)))
        pending = self.current().pending
        assert pending is not None
        if pending["kind"] == "recycle":
            lo, hi = self.recycle_range(seat)
            return recycle_choices(lo, hi)
        return larceny_choices(pending.get("stolen", ()))

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
            return recycle_choice(self.current().bets[seat])
        return larceny_of([c for c in pending.get("stolen", ()) if SPELLS[c].selfish])

    # ------------------------------------------------------------------ checks
    def _check(self, seat: int, action: ActionModel) -> None:
        if type(action) is Turn and self.phase is Phase.TURN:  # the common case, first
            self._check_turn(seat, action)
            return
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
        bet, spells = action.bet, action.spells
        if not 1 <= bet <= p.mana:
            raise IllegalAction(f"You bet {bet}; bet at least 1 and at most your {p.mana} mana.")
        if not spells:
            if action.clone is not None:
                raise IllegalAction("You named a spell to clone but did not play Clone (2).")
            return
        if len(set(spells)) != len(spells):
            dupes = sorted(c for c, n in Counter(spells).items() if n > 1)
            raise IllegalAction(f"You listed {names(dupes)} more than once; each card can be played once.")
        hand = p.hand
        missing = [c for c in spells if c not in hand]
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
        if type(action) is Turn:
            return self._submit(seat, action)
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
        events += self._resolve()
        return events

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
                ONLY_SEAT[seat],
            ),
        ]
        if all(pl.ordered for pl in self.players):
            events += first_deal(self)
        return events

    def _submit(self, seat: int, action: Turn) -> list[Event]:
        players = self.players
        players[seat].pending = action
        if not self.narrate:  # no events at all (the end of a match adds some unasked: dropped)
            if players[1 - seat].pending is not None:
                self._reveal([])
            return []
        bet, spells, clone = action.bet, action.spells, action.clone
        events: list[Event] = [
            Event("submitted", _READY[seat], {"seat": seat}),
            Event(
                "submitted_private",
                f"You bet {bet} and lay down {spells_of(spells).names}"
                + (f", cloning {names([clone])}." if clone is not None else "."),
                {"seat": seat, "type": "turn", "bet": bet, "spells": list(spells), "clone": clone},
                ONLY_SEAT[seat],
            ),
        ]
        if players[1 - seat].pending is not None:
            self._reveal(events)
        return events

    # ------------------------------------------------------------------ the reveal
    def _reveal(self, events: list[Event]) -> None:
        p0, p1 = self.players
        a, b = p0.pending, p1.pending
        assert a is not None and b is not None
        self.turn += 1
        self.turns_total += 1
        round_, turn = self.round, self.turn
        info0, info1 = spells_of(a.spells), spells_of(b.spells)
        played0, played1 = info0.played, info1.played
        common = info0.played_set & info1.played_set if played0 and played1 else None
        cancelled = sorted(common) if common else []
        if common:
            queue = [QueuedSpell(c, 0, 0) for c in played0 if c not in common]
            queue += [QueuedSpell(c, 1, 1) for c in played1 if c not in common]
        else:
            queue = []
            for c in played0:
                queue.append(QueuedSpell(c, 0, 0))
            for c in played1:
                queue.append(QueuedSpell(c, 1, 1))
        if len(queue) > 1:
            queue.sort(key=QUEUE_ORDER)
        bet0, bet1 = a.bet, b.bet
        clone0, clone1 = a.clone, b.clone
        wall = self.wall
        self.bets_seen = (
            self.bets_seen,
            (p0.mana, abs(wall - p0.wizard), bet0),
            (p1.mana, abs(wall - p1.wizard), bet1),
        )
        self.resolution = resolution = TurnResolution(
            round_,
            turn,
            [bet0, bet1],
            [bet0, bet1],
            (info0.ordered, info1.ordered),
            (clone0, clone1),
            cancelled,
            self.muted,
            (p0.mana, p1.mana),
            self.wall,
            [],
            queue,
            False,
            None,
            1,
            [False, False],
            False,
            None,
            [clone0 if CLONE in played0 else None, clone1 if CLONE in played1 else None],
        )
        for p, played in ((p0, played0), (p1, played1)):
            if played:
                hand = p.hand
                for c in played:
                    hand.remove(c)
                p.in_play += played
            p.last_played = list(played)
            p.pending = None
        if self.narrate:
            _say_reveal(events, resolution, a, b, info0.names, info1.names)
        self._resolve_into(events)

    # ------------------------------------------------------------------ resolution
    def _resolve(self) -> list[Event]:
        """Apply the queued spells in number order until a follow-up is needed or the turn ends."""
        events: list[Event] = []
        self._resolve_into(events)
        return events

    def _resolve_into(self, events: list[Event]) -> None:
        resolution = self.resolution
        assert resolution is not None
        queue = resolution.queue
        while queue:
            if resolution.ended:
                item = queue.pop(0)
                self.spell_event(events, item, "lost", "is lost: the round already ended")
                continue
            if queue[0].card >= WINNER_LOSES and not resolution.settled:
                self._settle(resolution, events)
            apply_spell(self, queue.pop(0), events)
            if resolution.pending is not None:
                self.phase = Phase.FOLLOWUP
                return
            queue = resolution.queue  # Larceny's choice may have replaced it
        if resolution.ended:
            end_turn_by_spell(self, resolution, events)
            return
        if not resolution.settled:
            self._settle(resolution, events)
        finish_turn(self, resolution, events)

    def _settle(self, resolution: TurnResolution, events: list[Event]) -> None:
        """The attacks are final (no spell after 8 changes a power): which way the wall is due to go."""
        resolution.settled = True
        p0, p1 = resolution.powers
        resolution.settled_powers = (p0, p1)
        stronger = 0 if p0 > p1 else 1 if p1 > p0 else None
        resolution.toward = toward = None if stronger is None else 1 - stronger
        if not self.narrate:
            return
        if stronger is None:
            text = f"Attacks: {p0} against {p1}, equal: the wall is not due to move."
        else:
            text = (
                f"Attacks: {p0} against {p1}: {WHO[stronger]} is stronger; the wall is due to move toward "
                f"{WHO[1 - stronger]}."
            )
        bets = resolution.bets
        data = {"bets": [bets[0], bets[1]], "powers": [p0, p1], "stronger": stronger, "toward": toward}
        events.append(Event("attack", text, data))


def _say_reveal(events: list[Event], resolution: TurnResolution, a: Turn, b: Turn, names0: str, names1: str) -> None:
    """The reveal event (and the cancel event when identical spells cancel)."""
    round_, turn, cancelled = resolution.round, resolution.turn, resolution.cancelled
    clone0 = f" (cloning {spell_name(a.clone)})." if a.clone is not None else "."
    clone1 = f" (cloning {spell_name(b.clone)})." if b.clone is not None else "."
    spells0, spells1 = resolution.spells
    events.append(
        Event(
            "reveal",
            f"Round {round_}, turn {turn}: {WHO[0]} bets {a.bet} and reveals {names0}{clone0} "
            f"{WHO[1]} bets {b.bet} and reveals {names1}{clone1}",
            {
                "round": round_,
                "turn": turn,
                "bets": [a.bet, b.bet],
                "spells": [list(spells0), list(spells1)],
                "clone": [a.clone, b.clone],
                "cancelled": list(cancelled),
                "mana_before": list(resolution.mana_before),
            },
        )
    )
    if cancelled:
        events.append(
            Event(
                "cancel",
                f"Both played {names(cancelled)}: identical spells cancel each other and are discarded.",
                {"cards": cancelled},
            )
        )


_READY = tuple(f"{who} is ready." for who in WHO)


class SpellsInfo:
    """What the reveal needs of a turn's spells, computed once per tuple of cards: the cards in
    order, the real spells played (the false card apart), and their names."""

    __slots__ = ("ordered", "played", "played_set", "names")

    def __init__(self, spells: tuple[int, ...]):
        self.ordered = tuple(sorted(spells))
        self.played = tuple(c for c in self.ordered if c != FALSE_CARD)
        self.played_set = frozenset(self.played)
        self.names = names(self.ordered)


_SPELLS_INFO: Memo[tuple[int, ...], SpellsInfo] = Memo("firewall.spells_of", 2048)


def spells_of(spells: tuple[int, ...]) -> SpellsInfo:
    info = _SPELLS_INFO.get(spells)
    if info is None:
        info = _SPELLS_INFO.put(spells, SpellsInfo(spells))
    return info


_DECK_SET = frozenset(DECK)
#: (n, bits of n) for n = 14 .. 1: the draws of ``random.Random.sample`` over the 14 spells.
_SAMPLE_DRAWS = tuple((n, n.bit_length()) for n in range(len(DECK), 0, -1))


def _shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """``tuple(rng.sample(DECK, 14))``, the same draws from ``rng`` made inline (a game's first
    moves draw two of these). Another kind of generator gets the real ``sample``."""
    if type(rng) is not random.Random:
        return tuple(rng.sample(DECK, len(DECK)))
    getrandbits = rng.getrandbits
    pool = list(DECK)
    out = []
    for n, bits in _SAMPLE_DRAWS:  # random.Random.sample's small-population path, randbelow inlined
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        out.append(pool[j])
        pool[j] = pool[n - 1]
    return tuple(out)
