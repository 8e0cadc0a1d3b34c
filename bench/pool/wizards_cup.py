"""The Wizards Cup opponent pool (issue 32): four rule-based styles written from the rule texts
(``docs/rulings/wizards-cup.md``: the three criteria Power, Element, Value; the swap between
rounds) and the card list (``rules/wizards_cup/default_set.json``: each Wizard's Value, Element and power).

Every player builds the action it wants directly (a Deck, an order, a swap) from its own view
(``state.view(seat)``: its Deck, its unused cards, both players' random picks and discard piles),
so the thousands of possible plans are never enumerated. Choices the rules leave open are made
deliberately by every style: the Waiting card, the swap, The Botanist's discard. Ties between
equally good cards are broken by the player's ``rng``, so a player is deterministic for its rng.

- ``value`` (tune): the strongest Deck by Value, strongest Wizards first.
- ``powers`` (tune): built around the Dormant value powers (Mentor, Jester) and The Archmage.
- ``counter`` (holdout): orders its Deck against the orders the opponent is likely to play (a rough
  forecast of the round) and keeps its strongest card for the late duels.
- ``sacrifice`` (holdout): cheap trades first (The Shaman takes the opponent's opener down with
  it), the majority won with the strong cards that follow.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from rules.actions import ActionModel
from rules.ai.wizards_cup_script import card_value, cards, decide, element, opponent_seen, powers, ranked, value
from rules.core import State

from .. import heuristics
from . import Player, PoolPlayer

#: (winner, loser) Elements, from the rule text's Element compatibility diagram.
_BEATS = {
    ("Water", "Fire"),
    ("Nature", "Water"),
    ("Fire", "Nature"),
    ("Light", "Shadow"),
    ("Water", "Light"),
    ("Fire", "Light"),
    ("Nature", "Light"),
}

#: How much each style wants a card in its Deck (a card missing counts as its Value).
_WANT: dict[str, dict[str, float]] = {
    "counter": {
        "assassin": 20,
        "archmage": 19,
        "water-wizard": 15,
        "fire-wizard": 15,
        "nature-wizard": 14,
        "cleric": 13,
        "alchemist": 12,
    },
    "sacrifice": {"shaman": 20, "assassin": 19, "archmage": 18, "cleric": 16, "jester": 14, "alchemist": 12},
}


# ------------------------------------------------------------------ the holdout half's orders
def _duel(a: str, b: str) -> int:
    """A rough duel of two plain Wizards (0: ``a`` wins, 1: ``b`` wins, 2: both lose): The Shaman
    takes both down, Elements, then Values (lower wins against The Matron; The Blacksmith wins on
    Values). Other powers are left out: this is a quick forecast, not the referee."""
    if "shaman" in (a, b):
        return 2
    ea, eb = element(a), element(b)
    if a != "geomancer" and (eb, ea) in _BEATS:
        return 1
    if b != "geomancer" and (ea, eb) in _BEATS:
        return 0
    if "blacksmith" in (a, b) and a != b:
        return 0 if a == "blacksmith" else 1
    va, vb = card_value(a), card_value(b)
    if "matron" in (a, b):
        va, vb = -va, -vb
    return 0 if va > vb else 1 if vb > va else 2


def _forecast(mine: Sequence[str], theirs: Sequence[str]) -> int:
    """The rough round (``_duel``, winners stay): +1 if ``mine`` outlasts ``theirs``, -1 if not."""
    i = j = 0
    while i < len(mine) and j < len(theirs):
        r = _duel(mine[i], theirs[j])
        i += r != 0
        j += r != 1
    return (i < len(mine)) - (j < len(theirs))


def _order_counter(view: Mapping[str, Any], seat: int, deck: list[str], rng: random.Random) -> list[str]:
    """The order that wins the most rough forecasts (``_forecast``) against the orders the
    opponent is likely to play: its shown card with the strongest Values of the set, strongest
    first, weakest first, and its shown card leading; ties toward keeping the strongest card for
    the late duels. The weakest Deck card waits."""
    seen = opponent_seen(view, seat)
    shown = [c for c in dict.fromkeys(seen)]
    strong = shown + [c for c in sorted(cards(), key=card_value, reverse=True) if c not in shown]
    likely = strong[:5]
    guesses = [sorted(likely, key=card_value, reverse=True), sorted(likely, key=card_value), likely]
    playing = ranked(deck, card_value, rng)[:5]
    best: list[str] = playing
    top = float("-inf")
    for order in permutations(playing):
        s = sum(_forecast(order, g) for g in guesses) + 0.01 * order.index(playing[0])
        if s > top:
            top, best = s, list(order)
    return best


def _order_sacrifice(view: Mapping[str, Any], seat: int, deck: list[str], rng: random.Random) -> list[str]:
    """The Shaman (both lose) or the cheapest card first to trade with the opponent's opener, the
    Jester next (a loss that weakens every later opponent), then the strong cards by Value."""
    cheap = {"shaman": 40, "jester": 30}
    first = ranked(deck, lambda c: cheap.get(c, 0) - card_value(c) * 0.1, rng)[0]
    rest = ranked([c for c in deck if c != first], lambda c: cheap.get(c, 0) + card_value(c), rng)
    return [first, *rest[:4]]


# ------------------------------------------------------------------ the players
def counter(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Counter-ordering: a Deck of the two strongest (Assassin, Archmage) and the three plain
    Elementals (Water, Fire, Nature Wizards); each round it forecasts, roughly (Elements, Values,
    The Shaman, The Matron), the rounds its orders would play against the orders the opponent is
    likely to use (its shown Wizards with the set's strongest, strongest first or last), and plays
    the order that wins most, its strongest card as late as that allows. Swaps and The Botanist
    as by want."""
    return decide(state, seat, rng, _WANT["counter"], _order_counter)


def sacrifice(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Tempo and sacrifice: The Shaman (both Wizards lose) or the cheapest card opens to take the
    opponent's strongest opener down, The Jester follows (it loses but then weakens every
    opposing Wizard by 2), and the strong cards (Assassin, Archmage, Cleric) win the majority.
    The Botanist discards a weak Waiting card too."""
    return decide(state, seat, rng, _WANT["sacrifice"], _order_sacrifice, botanist_weak=True)


PLAYERS: tuple[PoolPlayer, ...] = (
    PoolPlayer("value", "wizards-cup", "strongest Deck by Value, strongest first", "tune", value),
    PoolPlayer("powers", "wizards-cup", "Mentor/Jester boosters first, Archmage and Blacksmith", "tune", powers),
    PoolPlayer("counter", "wizards-cup", "order forecast against likely orders, strongest late", "holdout", counter),
    PoolPlayer("sacrifice", "wizards-cup", "Shaman/cheap trades first, majority with the rest", "holdout", sacrifice),
)

#: the steady heuristic player of the game (``python -m bench ai``'s first opponent)
HEURISTIC: Player = heuristics.wizards_cup
