"""The deal of a Magic Duel hand (a chance action): the referee's shuffle, and the check of a deal
given by a log or a test (docs/rulings/magic-duel.md, set-up 4 and 5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from ..errors import IllegalAction
from .actions import Deal, deal_action
from .cards import CURSE, HAND_SIZE


def sample_deal(card_ids: Sequence[str], num_seats: int, dealing_order: Sequence[int], rng: random.Random) -> Deal:
    """A shuffled deal: 7 cards to each seat of ``dealing_order`` (the leader first), then one card
    per player to the Deck of Risk, the rest to the Deck of Advantage with the Cursed Spell
    inserted at a random place. Seats not in ``dealing_order`` (removed) get no cards."""
    cards = list(card_ids)
    shuffle(cards, rng)
    hands: list[tuple[str, ...]] = [()] * num_seats
    k = 0
    for s in dealing_order:
        hands[s] = tuple(cards[k : k + HAND_SIZE])
        k += HAND_SIZE
    n = len(dealing_order)
    risk = tuple(cards[k : k + n])
    advantage = cards[k + n :]
    advantage.insert(rng.randrange(len(advantage) + 1), CURSE)
    # built from the deck itself: valid by construction, no need to validate again
    return deal_action(tuple(hands), risk, tuple(advantage))


def shuffle(cards: list[str], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same order from the same draws, inlined for a plain
    ``random.Random`` (whose ``shuffle`` draws ``getrandbits(k)`` below each ``n`` by rejection)."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_plan(len(cards)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


@lru_cache(maxsize=16)
def _shuffle_plan(length: int) -> tuple[tuple[int, int, int], ...]:
    """The swaps of a shuffle of ``length`` items: position ``i`` with a position below
    ``n = i + 1``, drawn as ``k = n.bit_length()`` random bits."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


@lru_cache(maxsize=8)
def _all_cards(card_ids: tuple[str, ...]) -> frozenset[str]:
    return frozenset([*card_ids, CURSE])


def check_deal(deal: Deal, card_ids: Sequence[str], num_seats: int, removed: Sequence[int]) -> None:
    """Raise IllegalAction unless ``deal`` deals every card exactly once, 7 to each seat still
    playing, one per player to the Deck of Risk, with the Cursed Spell in the Deck of Advantage."""
    if len(deal.hands) != num_seats:
        raise IllegalAction(f"A deal lists one hand per seat: {num_seats} hands, not {len(deal.hands)}.")
    for s, h in enumerate(deal.hands):
        want = 0 if s in removed else HAND_SIZE
        if len(h) != want:
            raise IllegalAction(f"Seat {s} must be dealt {want} cards, not {len(h)}.")
    active = num_seats - len(removed)
    if len(deal.risk) != active:
        raise IllegalAction(f"The Deck of Risk gets one card per player: {active} cards, not {len(deal.risk)}.")
    if CURSE not in deal.advantage:
        raise IllegalAction("The Cursed Spell (CURSE) must be shuffled into the Deck of Advantage.")
    cards = [c for h in deal.hands for c in h] + list(deal.risk) + list(deal.advantage)
    # every id is unique (a second deck's cards carry "#2"): the same number and the same set of
    # ids means every card exactly once
    if len(cards) == len(card_ids) + 1 and set(cards) == _all_cards(tuple(card_ids)):
        return
    dealt = Counter(cards)
    want_all = Counter([*card_ids, CURSE])
    if dealt != want_all:
        extra = sorted((dealt - want_all).elements())
        missing = sorted((want_all - dealt).elements())
        raise IllegalAction(
            "A deal must use every card exactly once"
            + (f"; unknown or repeated: {', '.join(extra[:8])}" if extra else "")
            + (f"; missing: {', '.join(missing[:8])}" if missing else "")
            + "."
        )


__all__ = ["check_deal", "sample_deal", "shuffle"]
