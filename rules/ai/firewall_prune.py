"""Firewall's pruning: the turns the search considers for a seat, and the root's equilibrium bet.

Two kinds of turn are left out (docs/ai.md, Firewall), each derived from the rule text and the
rulings (docs/rulings/firewall.md), and from what the seat knows only (its hand, both mana, the
wall, the bridge), so that a node finds the same turns in every determinization:

- **spells that cannot help their caster** (:func:`harmless`): any spell in a round silenced by
  Muteness (rule 10: it is lost); Muteness with other spells of one's own (they are silenced);
  Clone with nothing to copy (rule 11: discarded without effect); End of Round when ending the
  round where the wall stands is worth less than playing on (by the bidding game's value,
  :mod:`rules.ai.firewall_value`), or with spells numbered above 4 (rule 13: they are lost);
  Middle when the wall is not nearer one's own wizard than where the round began (rule 14);
  Reserve Boost and Suction at full mana (rule 20: nothing gained); Winner Loses with one's own
  Attack Boost or Double Dose (a stronger attack turns the wall onto oneself), and with a bet above
  1 (the lowest attack is likeliest to lose, and cheapest); Inferno one flagstone from the
  opponent's wizard (one step is already enough, rule 17), or with an attack that may lose the
  turn (below the opponent's mana + 1) unless Resistance or Winner Loses goes with it;
- **the last mana spent into a loss** (:func:`safe_bets`): a bet of all one's mana, when the
  opponent, betting 1, would keep enough to push the wall onto one's wizard (rule 21), unless
  winning that turn wins the round.

Only the root seat's turns are pruned (the opponent's, where the tree decides them, are searched
whole: its hand differs in every determinization). At the search's root (registered by
:func:`mark_root`, which the determinizer calls for the search's every iteration), the bet is
the one drawn from the equilibrium mix of the bidding game (:func:`root_bet`), with the spells the
search still chooses on top of it: the bet cannot be read from the AI's play beyond its mix.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import overload

from ..actions import ActionModel
from ..core import State
from ..firewall.actions import Turn, known_turn
from ..firewall.choices import turn_layout
from ..firewall.game import BOOST, MAX_MANA
from ..firewall.spells import (
    ATTACK_BOOST,
    CLONE,
    DOUBLE_DOSE,
    END_OF_ROUND,
    FALSE_CARD,
    INFERNO,
    MIDDLE,
    MUTENESS,
    RESERVE_BOOST,
    RESISTANCE,
    SUCTION,
    WINNER_LOSES,
)
from ..firewall.state import FirewallState
from ..firewall.table import Phase
from ..memo import Memo
from . import firewall_value as fv

#: A spell set's traits for the bet-dependent checks: (Winner Loses, Inferno, Inferno covered by
#: Resistance or Winner Loses, Attack Boosts, Double Doses).
Traits = tuple[bool, bool, bool, int, int]
Choice = tuple[tuple[int, ...], int | None, Traits]

#: End of Round is kept only when ending now is worth at least this much more than playing on.
END_MARGIN = 0.01
_BASES: Memo[object, tuple[Choice, ...]] = Memo("firewall.prune_bases", 2048)
_root: object = None


def effective(spells: Sequence[int], clone: int | None) -> list[int]:
    """The spells that apply for the caster: the real spells laid, Clone replaced by its copy."""
    out = [c for c in spells if c not in (FALSE_CARD, CLONE)]
    if CLONE in spells and clone is not None:
        out.append(clone)
    return out


def harmless(
    spells: Sequence[int], clone: int | None, *, muted: bool, end_useful: bool, middle_useful: bool, k: int, mana: int
) -> bool:
    """Whether casting ``spells`` (Clone copying ``clone``) may help the caster at all (the bet
    aside: see :class:`PrunedTurns`), for a caster with ``mana`` whose wizard is ``k`` flagstones
    from the wall (the module docstring lists the rules)."""
    real = [c for c in spells if c != FALSE_CARD]
    if not real:
        return True
    if muted:
        return False
    if CLONE in real and clone is None:
        return False
    eff = effective(spells, clone)
    if MUTENESS in eff and len(real) > 1:
        return False
    if END_OF_ROUND in eff and (not end_useful or any(c > END_OF_ROUND for c in eff)):
        return False
    if MIDDLE in eff and not middle_useful:
        return False
    if mana >= MAX_MANA and (RESERVE_BOOST in eff or SUCTION in eff):
        return False
    if WINNER_LOSES in eff and (ATTACK_BOOST in eff or DOUBLE_DOSE in eff):
        return False
    return not (INFERNO in eff and 6 - k <= 1)


def traits(spells: Sequence[int], clone: int | None) -> Traits:
    eff = effective(spells, clone)
    wl, inferno = WINNER_LOSES in eff, INFERNO in eff
    covered = RESISTANCE in eff or wl
    return wl, inferno, covered, eff.count(ATTACK_BOOST), eff.count(DOUBLE_DOSE)


def _base(sim: FirewallState, seat: int) -> tuple[Choice, ...]:
    """The seat's spell sets (with Clone's target) that may help it (:func:`harmless`), cached."""
    p, opp = sim.players[seat], sim.players[1 - seat]
    layout = turn_layout(p.hand, opp.last_played)
    x, d, m, n, k = fv.context(sim, seat)
    end_useful = False
    if END_OF_ROUND in p.hand or (CLONE in p.hand and END_OF_ROUND in layout.options):
        end_useful = fv.round_ends(x, d)[k] > fv.value(x, d, m, n, k) + END_MARGIN
    flags = (sim.muted, end_useful, k < 3, k, m >= MAX_MANA)
    key = (tuple(p.hand), layout.options, flags)
    base = _BASES.get(key)
    if base is None:
        kept: list[Choice] = []
        for r in range(layout.per_bet):
            turn = layout.turn(1, r)
            spells, clone = turn.spells, turn.clone
            if harmless(spells, clone, muted=sim.muted, end_useful=end_useful, middle_useful=k < 3, k=k, mana=m):
                kept.append((spells, clone, traits(spells, clone)))
        base = _BASES.put(key, tuple(kept))
    return base


def safe_bets(m: int, n: int, k: int, exposed: bool = False) -> list[int]:
    """Bets 1 .. :func:`rules.ai.firewall_value.top_bet` (no last mana spent into a loss, rule 21)."""
    return list(range(1, fv.top_bet(m, n, k, exposed) + 1))


#: The opponent's spells that can keep a turn it loses from moving the wall toward it: Larceny,
#: End of Round, Middle, Attack Boost, Double Dose, Winner Loses, Resistance (Clone copies one).
DEFENCES = frozenset({CLONE, 3, END_OF_ROUND, MIDDLE, ATTACK_BOOST, DOUBLE_DOSE, WINNER_LOSES, RESISTANCE})


def exposed(sim: FirewallState, seat: int) -> bool:
    """Whether the opponent may hold a spell that turns a turn (from ``seat``'s knowledge: a round
    not silenced, and such a spell not yet in the opponent's discard pile, with a card in hand)."""
    opp = sim.players[1 - seat]
    if sim.muted or all(c == FALSE_CARD for c in opp.hand):
        return False
    return bool(DEFENCES - set(opp.discard))


class PrunedTurns(Sequence[Turn]):
    """The turns kept: every bet of ``bets`` with every spell set of ``base``, where a spell set's
    bet-dependent rule is applied by changing the turn (Winner Loses: bet 1; Inferno that may lose
    the turn, uncovered: no spells), so indexing stays O(1) (a changed turn may repeat another)."""

    __slots__ = ("_bets", "_base", "_opp_mana", "_length")

    def __init__(self, bets: Sequence[int], base: Sequence[Choice], opp_mana: int):
        self._bets, self._base, self._opp_mana = bets, base, opp_mana
        self._length = len(bets) * len(base)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Turn: ...
    @overload
    def __getitem__(self, index: slice) -> list[Turn]: ...
    def __getitem__(self, index: int | slice) -> Turn | list[Turn]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        i, j = divmod(index, len(self._base))
        bet = self._bets[i]
        spells, clone, (wl, inferno, covered, boosts, doses) = self._base[j]
        if wl and bet > 1:
            bet = 1
        if inferno and not covered and (bet + BOOST * boosts) * 2**doses <= self._opp_mana:
            return known_turn(bet, (), None)
        return known_turn(bet, spells, clone)


def _root_key(sim: FirewallState, seat: int) -> tuple[object, ...]:
    """What identifies the root's information set here: the seat, the turn, its hand, the mana,
    the wall and the bridge, and the spells both have discarded."""
    p, opp = sim.players[seat], sim.players[1 - seat]
    return (
        seat,
        sim.round,
        sim.turns_total,
        tuple(p.hand),
        p.mana,
        opp.mana,
        sim.wall,
        sim.round_start_wall,
        sim.broken_depth,
        tuple(p.discard),
        tuple(opp.discard),
    )


def root_bet(sim: FirewallState, seat: int) -> int:
    """The bet drawn from the bidding game's equilibrium mix at the seat's position, with a draw
    seeded by the seat's information (its hand included, which the opponent does not see): the
    same in every determinization, so the root keeps one bet."""
    mix = fv.equilibrium(*fv.context(sim, seat), exposed(sim, seat))
    m = sim.players[seat].mana
    if not mix:
        return 1
    digest = hashlib.blake2b(repr(_root_key(sim, seat)).encode(), digest_size=8).digest()
    u = random.Random(int.from_bytes(digest, "big")).random()
    for bet, share in mix:
        u -= share
        if u < 0:
            return min(bet, m)
    return min(mix[-1][0], m)


def mark_root(sim: FirewallState, seat: int) -> None:
    """Register the search's root (the determinizer calls this when the search samples it)."""
    global _root
    _root = _root_key(sim, seat)


def prune(sim: State, seat: int, legal: Sequence[ActionModel]) -> Sequence[ActionModel]:
    """A turn's kept choices (module docstring); other steps (Larceny, Recycle, the stock order)
    are left to the search."""
    assert isinstance(sim, FirewallState)
    if sim.phase is not Phase.TURN or not isinstance(_root, tuple) or _root[0] != seat:
        return legal
    base = _base(sim, seat)
    _, _, m, n, k = fv.context(sim, seat)
    at_root = _root is not None and _root_key(sim, seat) == _root
    bets = [root_bet(sim, seat)] if at_root else safe_bets(m, n, k, exposed(sim, seat))
    return PrunedTurns(bets, base, n) if base else legal


def kept_turns(sim: FirewallState, seat: int) -> Sequence[Turn]:
    """Every turn the tree would consider for ``seat`` away from the root (the bets of
    :func:`safe_bets` with the spell sets that may help, :func:`harmless`); the whole legal list
    when no spell set is kept."""
    base = _base(sim, seat)
    _, _, m, n, k = fv.context(sim, seat)
    if not base:
        return sim.legal_actions(seat)  # type: ignore[return-value]
    return PrunedTurns(safe_bets(m, n, k, exposed(sim, seat)), base, n)


def allowed(sim: FirewallState, seat: int, action: ActionModel) -> bool:
    """Whether the tree would consider ``action`` for ``seat`` away from the root
    (:func:`kept_turns`): a follow-up always; a turn whose bet is a safe one and whose spells may
    help (with the bet-dependent rules of :class:`PrunedTurns`)."""
    if sim.phase is not Phase.TURN or not isinstance(action, Turn):
        return True
    base = _base(sim, seat)
    if not base:
        return True
    _, _, m, n, k = fv.context(sim, seat)
    if action.bet > fv.top_bet(m, n, k, exposed(sim, seat)):
        return False
    spells = tuple(sorted(action.spells))
    for kept, clone, (wl, inferno, covered, boosts, doses) in base:
        if tuple(sorted(kept)) == spells and clone == action.clone:
            if wl and action.bet > 1:
                return False
            return not (inferno and not covered and (action.bet + BOOST * boosts) * 2**doses <= n)
    return False
