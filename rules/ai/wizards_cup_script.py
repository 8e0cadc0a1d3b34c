"""Wizards Cup's scripts (issue 32): the opponent pool's tune half, "value" and "powers", which the
AI's normal and hard levels play out as their playout players (:mod:`rules.ai.wizards_cup_portfolio`),
and the Deck, swap, order and Botanist machinery every pool style shares (:mod:`bench.pool.wizards_cup`
adds the holdout half, "counter" and "sacrifice", on top of it).

Written from the rules (``docs/rulings/wizards-cup.md``: the three criteria Power, Element, Value;
the swap between rounds) and the card list (``rules/wizards_cup/default_set.json``). Every script
builds the action it wants directly (a Deck, an order, a swap) from its own view
(``state.view(seat)``: its Deck, its unused cards, both players' random picks and discard piles),
so the thousands of possible plans are never enumerated. Ties between equally good cards are
broken by the player's ``rng``: deterministic for its rng.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..actions import ActionModel
from ..core import State
from ..wizards_cup.actions import BotanistChoice, ChooseDeck, Plan, Swap


@functools.cache
def cards() -> dict[str, dict[str, Any]]:
    """The card list by id (Value, Element, power), read from the game's data file."""
    from .. import wizards_cup as pkg

    data = json.loads((Path(pkg.__file__).parent / "default_set.json").read_text(encoding="utf-8"))
    return {c["id"]: c for c in data["cards"]}


def card_value(card: str) -> int:
    return int(cards()[card]["value"])


def element(card: str) -> str:
    return str(cards()[card]["element"])


#: How much "powers" wants each card (a card missing counts as its Value).
POWERS_WANT: dict[str, float] = {
    "archmage": 20,
    "assassin": 19,
    "mentor": 17,
    "jester": 16,
    "blacksmith": 15,
    "cleric": 12,
}


def want(table: Mapping[str, float], card: str) -> float:
    """How much a style with the want ``table`` wants ``card`` (a card not in it: its Value)."""
    return table.get(card, float(card_value(card)))


def ranked(cards: list[str], key: Any, rng: random.Random) -> list[str]:
    """``cards`` best first by ``key``; equal keys in an order drawn from ``rng``."""
    shuffled = list(cards)
    rng.shuffle(shuffled)
    return sorted(shuffled, key=key, reverse=True)


def _choose_deck(view: Mapping[str, Any], seat: int, table: Mapping[str, float], rng: random.Random) -> ChooseDeck:
    pick = view["players"][seat]["random_pick"]
    rest = [c for c in cards() if c != pick]
    best = ranked(rest, lambda c: want(table, c), rng)[:5]
    return ChooseDeck(cards=(best[0], best[1], best[2], best[3], best[4]))


def _swap(view: Mapping[str, Any], table: Mapping[str, float], rng: random.Random) -> Swap:
    """Swap the Deck's least wanted card for the most wanted unused one, when that is better."""
    you = view["you"]
    deck, unused = list(you["deck"]), list(you["unused"])
    if not deck or not unused:
        return Swap()
    worst = ranked(deck, lambda c: -want(table, c), rng)[0]
    best = ranked(unused, lambda c: want(table, c), rng)[0]
    if want(table, best) > want(table, worst):
        return Swap(remove=worst, add=best)
    return Swap()


def plan(order: list[str], deck: list[str]) -> Plan:
    waiting = next(c for c in deck if c not in order[:5])
    return Plan(order=(order[0], order[1], order[2], order[3], order[4]), waiting=waiting)


def opponent_seen(view: Mapping[str, Any], seat: int) -> list[str]:
    """The opponent's Wizards this seat has seen: its random pick, its discards, its duellist."""
    opp = view["players"][1 - seat]
    seen = [opp["random_pick"], *opp["discard"], opp["duel"]]
    return [c for c in seen if c is not None]


def decide(
    state: State,
    seat: int,
    rng: random.Random,
    table: Mapping[str, float],
    order_fn: Any,
    botanist_weak: bool = False,
) -> ActionModel:
    """A style's answer to what ``seat`` is asked: its Deck and swaps by its want ``table``, its
    order by ``order_fn(view, seat, deck, rng)``, The Botanist by :func:`_botanist_discards`."""
    view = state.view(seat)
    asked = view["you"]["asked"]
    if asked == "choose_deck":
        return _choose_deck(view, seat, table, rng)
    if asked == "swap":
        return _swap(view, table, rng)
    if asked == "plan":
        deck = list(view["you"]["deck"])
        return plan(order_fn(view, seat, deck, rng), deck)
    if asked == "botanist":
        waiting = view["you"]["waiting"]
        return BotanistChoice(discard=_botanist_discards(waiting, botanist_weak))
    return state.sample_action(seat, rng)  # nothing else is ever asked of a seat


def _botanist_discards(waiting: str | None, weak: bool) -> bool:
    """The Botanist puts the Waiting card face up on the discard pile: worth it when that card's
    Dormant power then helps (Mentor +2, Jester -2 to the opponent, Necromancer), or when the
    style keeps only a weak card waiting anyway (``weak``: the card is out of the round either way)."""
    if waiting is None:
        return False
    if cards()[waiting]["power"] == "dormant" and waiting in ("mentor", "jester", "necromancer"):
        return True
    return weak and card_value(waiting) < 5


# ------------------------------------------------------------------ the tune half's orders
def order_value(view: Mapping[str, Any], seat: int, deck: list[str], rng: random.Random) -> list[str]:
    return ranked(deck, card_value, rng)


def order_powers(view: Mapping[str, Any], seat: int, deck: list[str], rng: random.Random) -> list[str]:
    """A Dormant booster first (it usually loses and then lifts the next Wizards from the top of
    the discard pile), The Detective with the strongest card Waiting, the rest by Value."""
    lead = {"mentor": 30, "jester": 29, "necromancer": 5}
    cards = ranked(deck, lambda c: lead.get(c, 0) * 1.0 + card_value(c), rng)
    if "detective" in deck:
        strongest = max((c for c in deck if c != "detective"), key=card_value)
        rest = [c for c in cards if c not in ("detective", strongest)]
        return ["detective", *rest[:4], strongest]
    boosters = [c for c in cards if c in lead]
    others = ranked([c for c in deck if c not in lead], card_value, rng)
    return boosters[:1] + others[:1] + boosters[1:] + others[1:]


# ------------------------------------------------------------------ the tune half
def value(state: State, seat: int, rng: random.Random) -> ActionModel:
    """By Value: the five highest-Value cards join the random card; the Wizards duel strongest
    first, the weakest waits; between rounds the weakest Deck card is swapped for the best unused
    one when that raises the Deck's Value; The Botanist discards a Waiting Mentor, Jester or
    Necromancer (their Dormant power then works from the discard pile) and keeps any other."""
    return decide(state, seat, rng, {}, order_value)


def powers(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Card-power combos: a Deck of The Archmage (cancels the opposing power), The Assassin (10),
    The Mentor (+2 to its own Wizards from the discard pile), The Jester (-2 to the opposing
    Wizard from the discard pile) and The Blacksmith (wins whenever Values decide). A booster
    duels first, so that once it is discarded the strong cards fight lifted; with The Detective
    it opens and the strongest card waits to be traded in. The Botanist discards a Waiting
    booster. Swaps go toward those cards."""
    return decide(state, seat, rng, POWERS_WANT, order_powers)


#: The scripts, by name: what the AI plays out (rules.ai.wizards_cup_portfolio).
SCRIPTS = {"value": value, "powers": powers}
