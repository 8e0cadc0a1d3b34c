"""The Wizards Cup opponent pool (issue 32): four rule-based styles written from the rule texts
(``../shared/seeds``: the three criteria Power, Element, Value; the swap between rounds) and the
card list (``rules/wizards_cup/default_set.json``: each Wizard's Value, Element and power).

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

import functools
import json
import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from pathlib import Path
from typing import Any

from rules.actions import ActionModel
from rules.core import State
from rules.wizards_cup.actions import BotanistChoice, ChooseDeck, Plan, Swap

from . import PoolPlayer


@functools.cache
def _cards() -> dict[str, dict[str, Any]]:
    """The card list by id (Value, Element, power), read from the game's data file."""
    import rules.wizards_cup as pkg

    data = json.loads((Path(pkg.__file__).parent / "default_set.json").read_text(encoding="utf-8"))
    return {c["id"]: c for c in data["cards"]}


def _value(card: str) -> int:
    return int(_cards()[card]["value"])


def _element(card: str) -> str:
    return str(_cards()[card]["element"])


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
    "powers": {"archmage": 20, "assassin": 19, "mentor": 17, "jester": 16, "blacksmith": 15, "cleric": 12},
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


def _want(style: str, card: str) -> float:
    return _WANT.get(style, {}).get(card, float(_value(card)))


def _ranked(cards: list[str], key: Any, rng: random.Random) -> list[str]:
    """``cards`` best first by ``key``; equal keys in an order drawn from ``rng``."""
    shuffled = list(cards)
    rng.shuffle(shuffled)
    return sorted(shuffled, key=key, reverse=True)


def _choose_deck(view: Mapping[str, Any], seat: int, style: str, rng: random.Random) -> ChooseDeck:
    pick = view["players"][seat]["random_pick"]
    rest = [c for c in _cards() if c != pick]
    best = _ranked(rest, lambda c: _want(style, c), rng)[:5]
    return ChooseDeck(cards=(best[0], best[1], best[2], best[3], best[4]))


def _swap(view: Mapping[str, Any], style: str, rng: random.Random) -> Swap:
    """Swap the Deck's least wanted card for the most wanted unused one, when that is better."""
    you = view["you"]
    deck, unused = list(you["deck"]), list(you["unused"])
    if not deck or not unused:
        return Swap()
    worst = _ranked(deck, lambda c: -_want(style, c), rng)[0]
    best = _ranked(unused, lambda c: _want(style, c), rng)[0]
    if _want(style, best) > _want(style, worst):
        return Swap(remove=worst, add=best)
    return Swap()


def _plan(order: list[str], deck: list[str]) -> Plan:
    waiting = next(c for c in deck if c not in order[:5])
    return Plan(order=(order[0], order[1], order[2], order[3], order[4]), waiting=waiting)


def _opponent_seen(view: Mapping[str, Any], seat: int) -> list[str]:
    """The opponent's Wizards this seat has seen: its random pick, its discards, its duellist."""
    opp = view["players"][1 - seat]
    seen = [opp["random_pick"], *opp["discard"], opp["duel"]]
    return [c for c in seen if c is not None]


def _decide(state: State, seat: int, rng: random.Random, style: str, order_fn: Any) -> ActionModel:
    view = state.view(seat)
    asked = view["you"]["asked"]
    if asked == "choose_deck":
        return _choose_deck(view, seat, style, rng)
    if asked == "swap":
        return _swap(view, style, rng)
    if asked == "plan":
        deck = list(view["you"]["deck"])
        return _plan(order_fn(view, seat, deck, rng), deck)
    if asked == "botanist":
        waiting = view["you"]["waiting"]
        return BotanistChoice(discard=_botanist_discards(style, waiting))
    return state.sample_action(seat, rng)  # nothing else is ever asked of a seat


def _botanist_discards(style: str, waiting: str | None) -> bool:
    """The Botanist puts the Waiting card face up on the discard pile: worth it when that card's
    Dormant power then helps (Mentor +2, Jester -2 to the opponent, Necromancer), or when the
    style keeps only a weak card waiting anyway (the card is out of the round either way)."""
    if waiting is None:
        return False
    if _cards()[waiting]["power"] == "dormant" and waiting in ("mentor", "jester", "necromancer"):
        return True
    return style == "sacrifice" and _value(waiting) < 5


# ------------------------------------------------------------------ the styles' orders
def _order_value(view: Mapping[str, Any], seat: int, deck: list[str], rng: random.Random) -> list[str]:
    return _ranked(deck, _value, rng)


def _order_powers(view: Mapping[str, Any], seat: int, deck: list[str], rng: random.Random) -> list[str]:
    """A Dormant booster first (it usually loses and then lifts the next Wizards from the top of
    the discard pile), The Detective with the strongest card Waiting, the rest by Value."""
    lead = {"mentor": 30, "jester": 29, "necromancer": 5}
    cards = _ranked(deck, lambda c: lead.get(c, 0) * 1.0 + _value(c), rng)
    if "detective" in deck:
        strongest = max((c for c in deck if c != "detective"), key=_value)
        rest = [c for c in cards if c not in ("detective", strongest)]
        return ["detective", *rest[:4], strongest]
    boosters = [c for c in cards if c in lead]
    others = _ranked([c for c in deck if c not in lead], _value, rng)
    return boosters[:1] + others[:1] + boosters[1:] + others[1:]


def _duel(a: str, b: str) -> int:
    """A rough duel of two plain Wizards (0: ``a`` wins, 1: ``b`` wins, 2: both lose): The Shaman
    takes both down, Elements, then Values (lower wins against The Matron; The Blacksmith wins on
    Values). Other powers are left out: this is a quick forecast, not the referee."""
    if "shaman" in (a, b):
        return 2
    ea, eb = _element(a), _element(b)
    if a != "geomancer" and (eb, ea) in _BEATS:
        return 1
    if b != "geomancer" and (ea, eb) in _BEATS:
        return 0
    if "blacksmith" in (a, b) and a != b:
        return 0 if a == "blacksmith" else 1
    va, vb = _value(a), _value(b)
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
    seen = _opponent_seen(view, seat)
    shown = [c for c in dict.fromkeys(seen)]
    strong = shown + [c for c in sorted(_cards(), key=_value, reverse=True) if c not in shown]
    likely = strong[:5]
    guesses = [sorted(likely, key=_value, reverse=True), sorted(likely, key=_value), likely]
    playing = _ranked(deck, _value, rng)[:5]
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
    first = _ranked(deck, lambda c: cheap.get(c, 0) - _value(c) * 0.1, rng)[0]
    rest = _ranked([c for c in deck if c != first], lambda c: cheap.get(c, 0) + _value(c), rng)
    return [first, *rest[:4]]


# ------------------------------------------------------------------ the players
def value(state: State, seat: int, rng: random.Random) -> ActionModel:
    """By Value: the five highest-Value cards join the random card; the Wizards duel strongest
    first, the weakest waits; between rounds the weakest Deck card is swapped for the best unused
    one when that raises the Deck's Value; The Botanist discards a Waiting Mentor, Jester or
    Necromancer (their Dormant power then works from the discard pile) and keeps any other."""
    return _decide(state, seat, rng, "value", _order_value)


def powers(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Card-power combos: a Deck of The Archmage (cancels the opposing power), The Assassin (10),
    The Mentor (+2 to its own Wizards from the discard pile), The Jester (-2 to the opposing
    Wizard from the discard pile) and The Blacksmith (wins whenever Values decide). A booster
    duels first, so that once it is discarded the strong cards fight lifted; with The Detective
    it opens and the strongest card waits to be traded in. The Botanist discards a Waiting
    booster. Swaps go toward those cards."""
    return _decide(state, seat, rng, "powers", _order_powers)


def counter(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Counter-ordering: a Deck of the two strongest (Assassin, Archmage) and the three plain
    Elementals (Water, Fire, Nature Wizards); each round it forecasts, roughly (Elements, Values,
    The Shaman, The Matron), the rounds its orders would play against the orders the opponent is
    likely to use (its shown Wizards with the set's strongest, strongest first or last), and plays
    the order that wins most, its strongest card as late as that allows. Swaps and The Botanist
    as by want."""
    return _decide(state, seat, rng, "counter", _order_counter)


def sacrifice(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Tempo and sacrifice: The Shaman (both Wizards lose) or the cheapest card opens to take the
    opponent's strongest opener down, The Jester follows (it loses but then weakens every
    opposing Wizard by 2), and the strong cards (Assassin, Archmage, Cleric) win the majority.
    The Botanist discards a weak Waiting card too."""
    return _decide(state, seat, rng, "sacrifice", _order_sacrifice)


PLAYERS: tuple[PoolPlayer, ...] = (
    PoolPlayer("value", "wizards-cup", "strongest Deck by Value, strongest first", "tune", value),
    PoolPlayer("powers", "wizards-cup", "Mentor/Jester boosters first, Archmage and Blacksmith", "tune", powers),
    PoolPlayer("counter", "wizards-cup", "order forecast against likely orders, strongest late", "holdout", counter),
    PoolPlayer("sacrifice", "wizards-cup", "Shaman/cheap trades first, majority with the rest", "holdout", sacrifice),
)
