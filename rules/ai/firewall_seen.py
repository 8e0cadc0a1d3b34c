"""What a Firewall scripted player knows and the answers every style shares (issue 32): the
machinery of the opponent pool's players, moved here from ``bench/pool`` because the AI's normal and
hard levels play the pool's tune half as scripts (:mod:`rules.ai.firewall_script`,
:mod:`rules.ai.firewall_portfolio`); the holdout styles stay in :mod:`bench.pool.firewall`.

Written from the game's rules as ``docs/rulings/firewall.md`` states and rules them, and
``docs/actions/firewall.md``, only. Every player reads ``state.view(seat)`` (the bridge, both mana,
the opponent's revealed spells and last bets, its own hand) and builds its action directly from it
(a turn's legal list runs to thousands of bet x spell-subset pairs; the rules of a legal turn are
simple: a bet 1 .. mana, spells from the hand, a Clone target among ``clone_options``).

What every player knows of the game (the rule text and its rulings):

- A turn is an all-pay auction: both pay their bets, the stronger attack pushes the wall ONE step.
- Running out of mana loses the round to an opponent who kept mana (one step per point), so a bet
  that empties the reserve is only ever made to finish the round.
- At the end of a round the wizards go three steps from the wall and one more flagstone breaks at
  each end: a wizard whose place is broken falls and loses the match.

The shared reading of the view is :class:`Seen`; the follow-ups (Larceny's choice, Recycle's new bet,
the stock order of the chosen-order variant) are answered by the same rules for every style
(:func:`larceny_choice`, :func:`recycle_choice`), each style laying its own turns.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import ActionModel
from ..core import State
from ..firewall.actions import LarcenyChoice, Order, RecycleChoice, Turn

MAX_MANA = 50
BRIDGE = 19
GAP = 3
DECK = tuple(range(1, 15))
#: spells by number (the rule text's card numbers)
MUTE, CLONE, LARCENY, END, MIDDLE, RECYCLE, BOOST, DOSE = 1, 2, 3, 4, 5, 6, 7, 8
WINNER_LOSES, INFERNO, RESISTANCE, BAD_LOSER, RESERVE, SUCTION = 9, 10, 11, 12, 13, 14


@dataclass(frozen=True)
class Seen:
    """What ``seat`` knows at its decision, read from its view (distances in flagstones)."""

    seat: int
    variant: str
    asked: str | None
    mana: int
    opp_mana: int
    wall: int
    near: int  # steps the wall still has to go to reach my wizard
    far: int  # steps it still has to go to reach the opponent's wizard
    toward: int  # +1 if I push toward higher flagstones (seat 0), else -1
    start_wall: int  # where the wall stood when the round began (Middle sends it back there)
    depth: int  # flagstones broken at each end now
    hand: frozenset[int]  # my spells (the false card apart)
    muted: bool
    round: int
    turn: int  # turns revealed in this round
    opp_last_bet: int | None  # the opponent's bet on the previous turn of this round
    opp_last_share: float | None  # that bet as a share of the mana it had then
    opp_last_far: int | None  # the wall's distance to the opponent's wizard then
    clone_options: tuple[int, ...]
    opp_hand: int  # the opponent's hand size, the false card apart
    opp_unseen: frozenset[int]  # the opponent's spells not yet in its discard pile
    view: Mapping[str, Any]

    def opp_may_hold(self, card: int) -> float:
        """The chance the opponent holds ``card``: its hand drawn from the spells it has not used."""
        if card not in self.opp_unseen or not self.opp_unseen:
            return 0.0
        return min(1.0, self.opp_hand / len(self.opp_unseen))

    def falls(self, wall: int, seat_is_me: bool) -> bool:
        """Whether my wizard (or the opponent's) falls if the round ends with the wall on ``wall``."""
        side = -self.toward if seat_is_me else self.toward
        pos = wall + side * GAP
        depth = self.depth + 1  # one more flagstone breaks at each end
        return pos < depth or pos >= BRIDGE - depth

    def ending_now(self) -> int:
        """+1 if ending the round now makes the opponent fall alone, -1 if it drops me, else 0."""
        me, opp = self.falls(self.wall, True), self.falls(self.wall, False)
        return 1 if opp and not me else -1 if me and not opp else 0

    def round_gain(self) -> int:
        """How far the wall stands toward the opponent from where this round began (Middle undoes it)."""
        return (self.wall - self.start_wall) * self.toward

    def opp_guess(self) -> float:
        """A guess at the opponent's next bet: the share of its mana it bet on the previous turn of
        the round, scaled up by how much nearer its wizard the wall stands now (a quarter of its mana on
        a round's first turn); at least half its mana when the wall is next to its wizard."""
        if self.opp_last_share is not None and self.opp_last_far is not None:
            scale = min(2.0, max(1.0, self.opp_last_far / max(1, self.far)))
            guess = self.opp_mana * self.opp_last_share * scale
        else:
            guess = self.opp_mana / 4
        if self.far == 1:
            guess = max(guess, self.opp_mana / 2)
        return max(1.0, min(float(self.opp_mana), guess))


def seen(state: State, seat: int) -> Seen:
    """Read ``seat``'s view into a :class:`Seen`."""
    view = state.view(seat)
    you = view["you"]
    players = view["players"]
    me, opp = players[seat], players[1 - seat]
    bridge = view["bridge"]
    wall = int(bridge["wall"])
    toward = 1 if seat == 0 else -1
    rnd, turn = int(view["round"]), int(view["turn"])
    last = view.get("last_turn")
    opp_last: int | None = None
    opp_share: float | None = None
    opp_far: int | None = None
    if last is not None and int(last["round"]) == rnd and turn > 0:
        opp_last = int(last["bets"][1 - seat])
        opp_share = opp_last / max(1, int(last["mana_before"][1 - seat]))
        opp_far = abs(int(opp["wizard"]) - int(last["wall_from"]))
    hand = frozenset(int(c) for c in you["hand"] if c != 0)
    unseen = frozenset(c for c in DECK if c not in set(opp["discard"]))
    return Seen(
        seat=seat,
        variant=str(view["variant"]),
        asked=you["asked"],
        mana=int(me["mana"]),
        opp_mana=int(opp["mana"]),
        wall=wall,
        near=abs(wall - int(me["wizard"])),
        far=abs(int(opp["wizard"]) - wall),
        toward=toward,
        start_wall=int(bridge["round_start_wall"]),
        depth=len(bridge["broken"]) // 2,
        hand=hand,
        muted=bool(view["muted"]),
        round=rnd,
        turn=turn,
        opp_last_bet=opp_last,
        opp_last_share=opp_share,
        opp_last_far=opp_far,
        clone_options=tuple(int(c) for c in you["clone_options"]),
        opp_hand=max(0, int(opp["hand_size"]) - 1),
        opp_unseen=unseen,
        view=view,
    )


# ------------------------------------------------------------------ building actions
def make_turn(s: Seen, bet: float, spells: Iterable[int] = (), clone_pref: Sequence[int] = ()) -> Turn:
    """A legal turn: the bet rounded into 1 .. mana, the spells kept to those in hand, and Clone
    only with a target it may copy (the first of ``clone_pref`` among the options, else dropped)."""
    b = max(1, min(s.mana, int(round(bet))))
    cards = {c for c in spells if c in s.hand}
    clone: int | None = None
    if CLONE in cards:
        options = [c for c in clone_pref if c in s.clone_options]
        if options:
            clone = options[0]
        else:
            cards.discard(CLONE)
    if MUTE in cards and len(cards) > 1:
        cards.discard(MUTE)  # Muteness would silence the caster's own spells of the turn
    return Turn(bet=b, spells=tuple(sorted(cards)), clone=clone)


def clone_worth(s: Seen) -> list[int]:
    """The opponent's previous spells worth copying now, best first (Clone applies them for me)."""
    out: list[int] = []
    if s.round_gain() < 0 and MIDDLE in s.clone_options:
        out.append(MIDDLE)
    if s.near == 1:
        out.append(RESISTANCE)
    if s.ending_now() > 0 or (s.ending_now() == 0 and s.round_gain() > 0 and s.mana < s.opp_mana):
        out.append(END)
    out += [DOSE, BOOST]
    if s.mana <= MAX_MANA - 13:
        out.append(RESERVE)
    if s.mana <= MAX_MANA - 10:
        out.append(SUCTION)
    out.append(BAD_LOSER)
    return out


def sure_bet(s: Seen) -> int | None:
    """The bet that wins the turn whatever the opponent bets (spells aside): one above its whole
    mana, when I have that much; None otherwise."""
    return s.opp_mana + 1 if s.mana > s.opp_mana else None


def decisive(s: Seen) -> int | None:
    """A sure bet worth its price: the wall one step from the opponent (winning the turn wins the
    round, and mana comes back at the next), or next to me when I keep at least half the opponent's
    mana after paying (the wall goes back a step and the opponent cannot simply push it twice with
    its reserve). None otherwise."""
    sure = sure_bet(s)
    if sure is None:
        return None
    if s.far == 1 or (s.near == 1 and s.mana - sure >= max(1, s.opp_mana / 2)):
        return sure
    return None


def danger(s: Seen) -> Turn | None:
    """The defence when the wall is next to my wizard and the opponent can outbid my whole mana (it
    wins the round by betting one more): Resistance on a token bet (the wall cannot come to me), else
    Winner Loses on a token bet (its big bet pushes the wall onto its own wizard), else Middle (the
    wall jumps back to the round's start; a token bet, its big bet is wasted), else End of Round
    (two steps lost instead of three, no bet paid) unless that drops me; Suction on top when it adds
    mana (the opponent bets big). None without such a spell, or while muted."""
    if s.muted or s.near != 1 or s.opp_mana <= s.mana:
        return None
    for card in (RESISTANCE, WINNER_LOSES, MIDDLE):
        if card in s.hand and (card != MIDDLE or s.round_gain() < 0):
            extra = [SUCTION] if SUCTION in s.hand and s.mana <= MAX_MANA - 10 else []
            return make_turn(s, 1, [card, *extra])
    if END in s.hand and s.ending_now() >= 0:
        return make_turn(s, 1, [END])
    return None


def capped(s: Seen, bet: float, *, finishing: bool = False) -> float:
    """``bet`` kept from emptying the reserve: an empty reserve hands the opponent one step per mana
    point it kept, so only a bet that finishes the round may take the last point."""
    if finishing:
        return min(bet, s.mana)
    return max(1.0, min(bet, s.mana - 1))


def jitter(rng: random.Random, bet: float, spread: float = 0.2) -> float:
    """``bet`` moved by up to ``spread`` either way (a fixed bet is read and beaten by one)."""
    return bet * (1 + rng.uniform(-spread, spread))


# ------------------------------------------------------------------ follow-ups (shared)
def _pending(view: Mapping[str, Any]) -> tuple[list[int], list[list[int]], list[int], list[dict[str, Any]]]:
    rec = view.get("resolving") or {}
    return (
        [int(b) for b in rec.get("bets", [0, 0])],
        [[int(c) for c in side] for side in rec.get("spells", [[], []])],
        [int(c) for c in rec.get("cancelled", [])],
        list(rec.get("effects", [])),
    )


def _active(spells: list[int], cancelled: list[int], card: int) -> bool:
    return card in spells and card not in cancelled


def larceny_choice(s: Seen) -> LarcenyChoice:
    """Which stolen spells to apply for me: those that only help their caster (Attack Boost, Double
    Dose, Resistance, Bad Loser, Reserve Boost, Suction), Recycle (it lets me re-adjust my own bet,
    keeping it if I like), End of Round when ending now is good for me, Middle when the wall stands
    on my side of its start, Inferno when I outbid, Winner Loses when I am outbid."""
    stolen = [int(c) for c in (s.view.get("pending_choice") or {}).get("stolen", [])]
    bets, spells, cancelled, _ = _pending(s.view)
    me = s.seat
    mine = spells[me]
    power = (bets[me] + (7 if _active(mine, cancelled, BOOST) or BOOST in stolen else 0)) * (
        2 if _active(mine, cancelled, DOSE) or DOSE in stolen else 1
    )
    opp_power = bets[1 - me]
    winning, losing = power > opp_power, power < opp_power
    verdict = s.ending_now()
    wanted = {BOOST, DOSE, RESISTANCE, BAD_LOSER, RESERVE, SUCTION, RECYCLE}
    if verdict > 0 or (verdict == 0 and s.round_gain() > 0):
        wanted.add(END)
    if s.round_gain() < 0:
        wanted.add(MIDDLE)
    if winning:
        wanted.add(INFERNO)
    if losing:
        wanted.add(WINNER_LOSES)
    keep = [c for c in stolen if c in wanted]
    out: list[int] = []
    for c in keep:  # each stolen card once, as many copies as were stolen
        if out.count(c) < stolen.count(c):
            out.append(c)
    return LarcenyChoice(apply=tuple(sorted(out)))


def recycle_choice(s: Seen) -> RecycleChoice:
    """Recycle's new bet, knowing the revealed bets and spells: the cheapest bet that outbids the
    opponent when a step is worth its price (any price when it wins the round), a tie when the wall
    is next to me and no win is in reach, else the lowest bet (a lost turn should cost little). When
    the move would be reversed (Winner Loses) or stopped (the opponent's Resistance), the lowest."""
    you = s.view["you"]
    rec = you.get("recycle") or {}
    lo, hi = int(rec.get("min", 1)), int(rec.get("max", s.mana))
    old = int(rec.get("bet", lo))
    bets, spells, cancelled, _ = _pending(s.view)
    me, opp = s.seat, 1 - s.seat
    mine, theirs = spells[me], spells[opp]
    my_larceny = _active(mine, cancelled, LARCENY)
    opp_larceny = _active(theirs, cancelled, LARCENY)
    boost = _active(mine, cancelled, BOOST) and not opp_larceny
    dose = _active(mine, cancelled, DOSE) and not opp_larceny
    o_boost = _active(theirs, cancelled, BOOST) and not my_larceny
    o_dose = _active(theirs, cancelled, DOSE) and not my_larceny
    opp_power = (bets[opp] + (7 if o_boost else 0)) * (2 if o_dose else 1)
    reversed_ = sum(_active(side, cancelled, WINNER_LOSES) for side in (mine, theirs)) % 2 == 1
    blocked = _active(theirs, cancelled, RESISTANCE) and not my_larceny

    def power(b: int) -> int:
        return (b + (7 if boost else 0)) * (2 if dose else 1)

    if reversed_ or blocked:
        return RecycleChoice(bet=lo)
    wins = [b for b in range(lo, hi + 1) if power(b) > opp_power]
    if wins:
        b = wins[0]
        finishing = s.far == 1 or (s.far == 2 and _active(mine, cancelled, INFERNO))
        if finishing or (b < s.mana and b - lo <= max(8, s.mana // 4)):
            return RecycleChoice(bet=b)
    if s.near == 1:
        ties = [b for b in range(lo, hi + 1) if power(b) == opp_power and b < s.mana]
        if ties:
            return RecycleChoice(bet=ties[0])
    return RecycleChoice(bet=lo if lo <= old else old)


def stock_order(first: Sequence[int]) -> Order:
    """The chosen-order variant's stock: ``first`` on top, the other spells after, in number order."""
    top = [c for c in first if c in DECK]
    return Order(stock=tuple(top + [c for c in DECK if c not in top]))


def answer(state: State, seat: int, rng: random.Random, order: Sequence[int], lay: Any) -> ActionModel:
    """A player's answer to any Firewall decision: the style's turn (``lay(seen, rng)``) or stock
    order, the shared rules for Larceny and Recycle."""
    s = seen(state, seat)
    if s.asked == "order":
        return stock_order(order)
    if s.asked == "larceny":
        return larceny_choice(s)
    if s.asked == "recycle":
        return recycle_choice(s)
    turn: Turn = lay(s, rng)
    return turn
