"""Wizards Cup's opponent model: what the AI expects of the other seat, generic and learned.

Two sources, neither shaped to any one player:

- **Card strength** (:data:`STRENGTH`): how often a Deck holding the card wins, measured once by
  self-play of the rules engine (20000 games, Decks drawn with a first pass's strengths as weights,
  random plans and swaps; a first pass of 3000 fully random games gave the weights). The Archmage
  and the Assassin lead, The Matron and The Cleric follow; Value alone (the old model) overrated
  the plain Wizards and underrated the powers. A card of another set, unknown to the table, counts
  by its Value. :func:`weight` turns a strength into a drawing weight.
- **What this match has shown** (``WizardsCupState.shown``, public): a Deck stays from round to
  round but for one secret swap, so the Wizards an opponent showed in earlier rounds are most
  likely in its Deck still (:func:`seen_cards`), and the order it played them in is the best guess
  of its next order (:func:`model`: it replays it, :data:`REPEAT` of the time).

Everything here reads only the public history, the set and the determinized sample it is given.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations
from typing import cast

from ..actions import ActionModel
from ..core import State
from ..wizards_cup.actions import ChooseDeck, FiveCards, Plan
from ..wizards_cup.player import Step
from ..wizards_cup.state import Phase, WizardsCupState

#: Win rate of a Deck holding the card, self-play of the default set (see the module docstring).
STRENGTH: dict[str, float] = {
    "assassin": 0.577,
    "archmage": 0.574,
    "matron": 0.53,
    "cleric": 0.526,
    "detective": 0.509,
    "necromancer": 0.5,
    "blacksmith": 0.5,
    "jester": 0.499,
    "mentor": 0.486,
    "shaman": 0.485,
    "geomancer": 0.471,
    "fire-wizard": 0.463,
    "revolutionary": 0.456,
    "water-wizard": 0.453,
    "alchemist": 0.444,
    "botanist": 0.444,
    "soldier": 0.442,
    "nature-wizard": 0.427,
}
#: How sharply the drawing weight follows strength: ``exp(SHARPNESS * (strength - 0.5))``
#: (the Assassin about 7 times as likely as the Nature Wizard).
SHARPNESS = 13.0
#: The share of the modelled plans that replay the order the opponent showed last round.
REPEAT = 0.75
#: The chance the opponent swapped a card between rounds (what it showed may have left its Deck).
SWAP_CHANCE = 0.4
#: The Deck choices the AI searches: 5 of its strongest ``TOP_CARDS`` cards (besides its random card).
TOP_CARDS = 9


def strength(sim: WizardsCupState, card: str) -> float:
    """The card's strength (:data:`STRENGTH`; a card the table lacks: from its Value, 0.4..0.6)."""
    found = STRENGTH.get(card)
    return found if found is not None else 0.4 + sim.cards.by_id[card].value / 50


def weight(sim: WizardsCupState, card: str) -> float:
    return math.exp(SHARPNESS * (strength(sim, card) - 0.5))


def draw(sim: WizardsCupState, pool: list[str], count: int, rng: random.Random) -> list[str]:
    """``count`` cards drawn from ``pool`` (sorted first: canonical; ``pool`` is consumed), each with
    its :func:`weight`."""
    pool.sort()
    out: list[str] = []
    for _ in range(count):
        weights = [weight(sim, c) for c in pool]
        out.append(pool.pop(rng.choices(range(len(pool)), weights=weights)[0]))
    return out


def seen_cards(sim: WizardsCupState, seat: int) -> list[str]:
    """The Wizards ``seat`` showed in finished rounds, the latest round's first (in the order
    shown), then its random card: at most a Deck's size."""
    out: list[str] = []
    for shown in reversed(sim.shown[seat]):
        out += [c for c in shown if c not in out]
    pick = sim.players[seat].random_pick
    if pick is not None and pick not in out:
        out.append(pick)
    return out[: len(sim.players[seat].team) or 6]


def model(sim: State, seat: int, rng: random.Random) -> ActionModel | None:
    """The opponent ``seat``'s step as the model has it: a Deck drawn by strength; a plan that
    replays the order it showed last round (:data:`REPEAT` of the time; its other cards after,
    shuffled, the last one Waiting); anything else is left to the tree (None)."""
    assert isinstance(sim, WizardsCupState)
    if sim.phase is not Phase.PREPARE:
        return None
    p = sim.players[seat]
    if p.step is Step.CHOOSE_DECK:
        pool = [c for c in sim.cards.id_tuple if c != p.random_pick]
        return ChooseDeck(cards=cast(FiveCards, tuple(draw(sim, pool, 5, rng))))
    if p.step is Step.PLAN and sim.shown[seat] and rng.random() < REPEAT:
        order: list[str] = []
        for shown in reversed(sim.shown[seat]):
            order += [c for c in shown if c in p.team and c not in order]
        rest = [c for c in p.team if c not in order]
        rng.shuffle(rest)
        order += rest
        return Plan(order=cast(FiveCards, tuple(order[:5])), waiting=order[5])
    return None


def prune(sim: State, seat: int, legal: Sequence[ActionModel]) -> Sequence[ActionModel]:
    """The Deck choices made of the seat's :data:`TOP_CARDS` strongest cards (126 of 6188); every
    other step keeps all its actions."""
    assert isinstance(sim, WizardsCupState)
    p = sim.players[seat]
    if sim.phase is not Phase.PREPARE or p.step is not Step.CHOOSE_DECK:
        return legal
    key = (sim.cards.name, p.random_pick)
    found = _DECKS.get(key)
    if found is None:
        pool = sorted((c for c in sim.cards.id_tuple if c != p.random_pick), key=lambda c: (-strength(sim, c), c))
        top = sorted(pool[:TOP_CARDS], key=sim.cards.id_tuple.index)  # in set order, as the legal Decks
        found = _DECKS[key] = tuple(ChooseDeck(cards=cards) for cards in combinations(top, 5))
    return found


#: The pruned Deck choices by (card set, random card): built once.
_DECKS: dict[tuple[str, str | None], tuple[ChooseDeck, ...]] = {}
