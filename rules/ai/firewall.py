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
from ..firewall.actions import known_turn
from ..firewall.spells import CLONE, FALSE_CARD
from ..firewall.state import FirewallState
from ..firewall.table import Phase
from . import firewall_prune, firewall_value
from .firewall_portfolio import search as portfolio_search
from .kit import AIKit
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
    if reopen:  # the search's root: its bet is the equilibrium's (rules.ai.firewall_prune)
        firewall_prune.mark_root(sim, seat)
    return sim


#: The share of the opponent model's draws that are a uniformly random turn instead: an opponent
#: may change its ways, and a few bets seen are a small sample.
SURPRISE = 0.2


def model(sim: State, seat: int, rng: random.Random) -> ActionModel | None:
    """The opponent model: ``seat``'s secret turn as it has been seen to bet (None: not a turn of
    ``seat`` to choose, or no bet of it seen yet, so the tree decides for it as for any seat).

    A bet of ``seat`` already revealed (:meth:`FirewallTable.bets_of <rules.firewall.table.FirewallTable.bets_of>`:
    public, the channel shows every bet) is drawn, preferring those made at the wall's present
    distance from its wizard, and the same share of its present mana is bet (at least 1). Its
    spells: each real spell of its (determinized) hand is laid with the chance that makes the
    seat's expected spells per turn what it has shown (its discard pile over the turns revealed,
    with one spell in two turns as a prior), the false card half the time, Clone with one of its
    targets. With probability :data:`SURPRISE` the whole turn is a uniformly random legal one."""
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
    bet = max(1, min(p.mana, round(bet * p.mana / mana)))
    real = [c for c in p.hand if c != FALSE_CARD]
    if not real or sim.muted:
        return known_turn(bet, (FALSE_CARD,) if rng.random() < 0.5 else (), None)
    rate = (len(p.discard) + 1) / (sim.turns_total + 2)
    share = min(1.0, rate / len(real))
    spells = [c for c in real if rng.random() < share]
    clone = None
    if CLONE in spells:
        options = sim.clone_options(seat)
        clone = options[rng.randrange(len(options))] if options else None
        if clone is None:
            spells.remove(CLONE)
    if rng.random() < 0.5:
        spells.append(FALSE_CARD)
    return known_turn(bet, tuple(sorted(spells)), clone)


def policy(sim: State, seat: int, rng: random.Random) -> ActionModel:
    """The playout policy (it only finishes the turn under way, see :func:`stop`): a turn as the
    seat has been seen to bet (:func:`model`, its own bets too), Recycle and Larceny's time-out
    answers (keep the bet; apply the spells that only help), else a uniformly random action."""
    assert isinstance(sim, FirewallState)
    action = model(sim, seat, rng) if sim.phase is Phase.TURN else sim.default_action(seat)
    return action if action is not None else sim.sample_action(seat, rng)


def stop(sim: State) -> bool:
    """A playout ends where a new turn begins (both seats to choose): :func:`evaluate` reads it."""
    assert isinstance(sim, FirewallState)
    if sim.phase is not Phase.TURN:
        return False
    p0, p1 = sim.players
    return p0.pending is None and p1.pending is None


#: What each real spell in hand (beyond the opponent's count) adds to a seat's value: a spell cast
#: for nothing is a small loss, so the search casts only what moves the wall or the mana.
SPELL_WORTH = 0.006


def evaluate(sim: State) -> list[float]:
    """Each seat's chance of winning from the bidding game's value of the mana, the wall and the
    bridge (:mod:`rules.ai.firewall_value`: both bet the equilibrium from here, spells aside),
    plus :data:`SPELL_WORTH` per spell held more than the opponent."""
    assert isinstance(sim, FirewallState)
    v = firewall_value.state_value(sim, 0)
    p0, p1 = sim.players
    spells = sum(1 for c in p0.hand if c != FALSE_CARD) - sum(1 for c in p1.hand if c != FALSE_CARD)
    v = min(1.0, max(0.0, v + SPELL_WORTH * spells))
    return [v, 1.0 - v]


#: The search's knowledge of Firewall (docs/ai.md): the root bets the bidding game's equilibrium
#: (drawn from its mix) with the spells the search picks on top; harmful spells and a last mana
#: spent into a loss are pruned (:mod:`rules.ai.firewall_prune`); a playout finishes the turn and
#: the position is valued by the bidding game (:func:`evaluate`); the opponent bets as it has
#: been seen to (``model``). That tree is easy's; normal and hard play candidate turns out with
#: scripts (:mod:`rules.ai.firewall_portfolio`).
TUNING = Tuning(
    scale=1.6,
    model=model,
    policy=policy,
    stop=stop,
    evaluate=evaluate,
    prune=firewall_prune.prune,
    search=portfolio_search,
    search_levels=frozenset({"normal", "hard"}),
)


#: what the computer players know of the game (named by its registry entry)
KIT = AIKit(tuning=TUNING, determinize=determinize)
