"""Firewall's determinizer (what a seat cannot see, resampled from what it knows) and opponent
model (how the other seat bets, from the bets it has shown).

Hidden from ``seat``: the opponent's hand (its size is public; the false card is always in it)
and stock (its count is public), the order of its own stock (shuffled by chance; in variant
``chosen_order`` it chose it, so it is kept), and the opponent's committed-but-unrevealed turn
or stock order of the current simultaneous step (resampled uniformly among its legal ones, or
taken back with ``reopen``: see :func:`rules.ai.determinize.determinize`). Everything else (the bridge, mana, discards,
the turn being resolved, the seat's own hand) is public or the seat's own and kept.

The opponent's unknown spells (its hand but the false card, and its stock) are pooled, sorted
(canonical: the true split does not show through) and shuffled with the seeded rng, then dealt
back into a hand and a stock of the true sizes. The seat's own stock is resorted and shuffled too.

The opponent model (:func:`model`) has the other seat bet, in the search's tree, the share of its
mana it has been seen to bet at the same distance from the lava (docs/ai.md).
"""

from __future__ import annotations

import random

from ..core import ActionModel, State
from ..firewall.choices import turn_layout
from ..firewall.spells import FALSE_CARD
from ..firewall.state import FirewallState
from ..firewall.table import Phase
from .policy import Tuning


def determinize(state: State, seat: int, rng: random.Random, reopen: bool = False) -> State:
    assert isinstance(state, FirewallState)
    sim = state.clone(narrate=False)
    me, opp = sim.players[seat], sim.players[1 - seat]
    # The opponent's secret choice of this simultaneous step, not revealed yet: taken back.
    turn_committed = sim.phase is Phase.TURN and me.pending is None and opp.pending is not None
    order_committed = sim.phase is Phase.ORDER and not me.ordered and opp.ordered
    if turn_committed:
        opp.pending = None
    if order_committed:
        opp.ordered, opp.stock = False, []
    if sim.variant != "chosen_order" or not me.ordered:
        own = sorted(me.stock)
        rng.shuffle(own)
        me.stock = own
    if opp.ordered or opp.stock:
        falses = [c for c in opp.hand if c == FALSE_CARD]
        unknown = sorted([c for c in opp.hand if c != FALSE_CARD] + opp.stock)
        rng.shuffle(unknown)
        k = len(opp.hand) - len(falses)
        opp.hand = sorted(falses + unknown[:k])
        opp.stock = unknown[k:]
    if order_committed and not reopen:
        opp.stock = sorted(state.players[1 - seat].stock)
        rng.shuffle(opp.stock)
        opp.ordered = True
    if turn_committed and not reopen:  # a uniformly random secret turn from its sampled hand
        opp.pending = sim.sample_action(1 - seat, rng)  # type: ignore[assignment]
    return sim


#: The share of the opponent model's draws that are a uniformly random turn instead: an opponent
#: may change its ways, and a few bets seen are a small sample.
SURPRISE = 0.2


def model(sim: State, seat: int, rng: random.Random) -> ActionModel | None:
    """The opponent model: ``seat``'s secret turn as it has been seen to bet (None: not a turn of
    ``seat`` to choose, or no bet of it seen yet, so the tree decides for it as for any seat).

    A bet of ``seat`` already revealed (:meth:`FirewallTable.bets_of <rules.firewall.table.FirewallTable.bets_of>`:
    public, the channel shows every bet) is drawn, preferring those made at the wall's present
    distance from its wizard, and the same share of its present mana is bet (at least 1). Which
    spells it lays is not modelled: a uniformly random subset of its (determinized) hand. With
    probability :data:`SURPRISE` the whole turn is a uniformly random legal one."""
    assert isinstance(sim, FirewallState)
    if sim.phase is not Phase.TURN:
        return None
    if sim.bets_seen is None:  # (an awaited seat has mana: a round ends when a seat runs out)
        return None
    p = sim.players[seat]
    if rng.random() < SURPRISE:
        return sim.sample_action(seat, rng)
    distance = abs(sim.wall - p.wizard)
    seen = sim.bets_of(seat)
    pool = [b for b in seen if b[1] == distance] or seen
    mana, _, bet = pool[rng.randrange(len(pool))]
    layout = turn_layout(p.hand, sim.players[1 - seat].last_played)
    return layout.turn(max(1, min(p.mana, round(bet * p.mana / mana))), rng.randrange(layout.per_bet))


#: The search's knowledge of Firewall: uniformly random playouts to the end (they are short and
#: cheap), so it searches 1.6 times a level's iterations (docs/ai.md; 2.5 was tried for normal and
#: won no more games at 1.8 times the time); the opponent bets as it has been seen to (``model``).
TUNING = Tuning(scale=1.6, model=model)
