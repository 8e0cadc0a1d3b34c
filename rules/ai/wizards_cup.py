"""Wizards Cup's determinizer: what a seat cannot see, resampled from what it knows.

Hidden from ``seat``: the opponent's Deck (its 6 cards), its order for the round (the pile: its
count is public) and its face-down Waiting card, and the opponent's secret choices of the
preparation step ``seat`` is at (its Deck choice, swap or plan, once made). The seat's own
cards, the tokens, the discards, the Wizards in duel and a Waiting card The Detective turned
face up are seen and kept.

What the seat knows of the opponent's Deck: this round's revealed cards (discard, duel, a known
Waiting card) while duels are played; its random first card; and the Wizards it showed in earlier
rounds of this match (``WizardsCupState.shown``, public: the Deck stays from round to round but for
one secret swap, so once the opponent may have swapped, one of them is dropped with
:data:`~rules.ai.wizards_cup_model.SWAP_CHANCE`). The rest of the Deck is drawn from the other
cards of the set (sorted, then drawn with the seeded rng: canonical) with an **opponent model**:
each card weighted by its strength (:mod:`rules.ai.wizards_cup_model`, measured by self-play of the
rules; it replaced a weight equal to Value, which never expected a Deck built around powers). The
hidden cards are then dealt into the hidden pile and Waiting card. An opponent that has
already made this step's secret choice keeps a resampled one (a random plan of its sampled
Deck); with ``reopen`` it is taken back to the seat's step instead (the search lets it choose,
or its model: a Deck drawn by strength, a replay of the order it showed).
"""

from __future__ import annotations

import random

from ..core import State
from ..wizards_cup.player import Step
from ..wizards_cup.state import Phase, WizardsCupState
from .kit import AIKit
from .policy import Tuning
from .wizards_cup_model import SWAP_CHANCE, draw, model, prune, seen_cards
from .wizards_cup_portfolio import search as portfolio_search

#: The order of the preparation steps.
_RANK = {Step.CHOOSE_DECK: 0, Step.SWAP: 0, Step.PLAN: 1, Step.DONE: 2}


def determinize(state: State, seat: int, rng: random.Random, reopen: bool = False) -> State:
    assert isinstance(state, WizardsCupState)
    sim = state.clone(narrate=False)
    if sim.phase is Phase.SETUP or sim.phase is Phase.OVER:
        return sim
    me, opp = sim.players[seat], sim.players[1 - seat]
    if not opp.team or (sim.phase is Phase.PREPARE and opp.step is Step.CHOOSE_DECK):
        return sim  # nothing chosen yet: only the random card, which is public
    # Past rounds' Wizards stay in the Deck but for a swap: one of them may have left since.
    past = seen_cards(sim, 1 - seat)
    swapped = sim.round > 1 and (sim.phase is Phase.DUELS or me.step is not Step.SWAP)
    if past and swapped and rng.random() < SWAP_CHANCE:
        past.pop(rng.randrange(len(past)))
    if sim.phase is Phase.DUELS:
        known = list(opp.discard) + [c for c in (opp.duel,) if c is not None]
        if opp.waiting is not None and opp.waiting_known:
            known.append(opp.waiting)
        now = list(known)
        known += [c for c in past if c not in now][: len(opp.team) - len(now)]
    else:
        known = past
    pool = [c for c in sim.cards.id_tuple if c not in known]
    hidden = draw(sim, pool, len(opp.team) - len(known), rng)  # the opponent model: by strength
    opp.team = known + hidden
    if sim.phase is Phase.DUELS:
        slots = [c for c in opp.team if c not in now]
        rng.shuffle(slots)
        pile_n = len(opp.pile)
        opp.pile = slots[:pile_n]
        if opp.waiting is not None and not opp.waiting_known:
            opp.waiting = slots[pile_n]
        return sim
    # Preparing: the opponent's choices of this step the seat has not made yet are secret.
    committed = _RANK[opp.step] > _RANK[me.step] and me.step is not Step.DONE
    if committed and reopen:
        opp.step = me.step
        opp.pile, opp.waiting, opp.duel, opp.discard = [], None, None, []
        if me.step is Step.CHOOSE_DECK:
            assert opp.random_pick is not None
            opp.team = [opp.random_pick]
    elif opp.step is Step.DONE:  # its plan: a uniformly random one of its sampled Deck
        order = list(opp.team)
        rng.shuffle(order)
        opp.pile, opp.waiting = order[:-1], order[-1]
    return sim


#: The search's knowledge of Wizards Cup: the opponent model and the Deck choices pruned to the
#: strongest cards (:mod:`rules.ai.wizards_cup_model`); uniformly random playouts to the end (short and cheap),
#: so it searches 1.6 times a level's iterations; its normal level 2.5 times (a plan among 6188
#: needs it to beat the heuristic, and its p95 stays under 1 s), while hard keeps 1.6 (more would
#: pass 3 s). See docs/ai.md.
TUNING = Tuning(
    scale=1.6,
    level_scale={"normal": 2.5},
    model=model,
    prune=prune,
    search=portfolio_search,
    search_levels=frozenset({"normal", "hard"}),
)


#: what the computer players know of the game (named by its registry entry)
KIT = AIKit(tuning=TUNING, determinize=determinize)
