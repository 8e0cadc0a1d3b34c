"""Magic Duel cards and combinations.

Card ids are compact strings: rank + suit (``"AS"``, ``"10H"``, ``"QC"``), Jokers ``"JK1"`` and
``"JK2"``; with several decks the cards of deck k >= 2 carry the suffix ``"#k"`` (``"AS#2"``,
``"JK1#2"``). The single Cursed Spell card is ``"CURSE"``. Ranks: A 2 3 4 5 6 7 8 9 10 J Q K;
suits: D (diamonds) < H (hearts) < S (spades) < C (clubs), the seed's tie order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import combinations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("D", "H", "S", "C")  # weakest first: diamonds < hearts < spades < clubs
SUIT_SYMBOL = {"D": "♦", "H": "♥", "S": "♠", "C": "♣"}
SUIT_NAME = {"D": "diamonds", "H": "hearts", "S": "spades", "C": "clubs"}
JOKERS: tuple[str, ...] = ("JK1", "JK2")
CURSE = "CURSE"
HAND_SIZE = 7


@dataclass(frozen=True)
class Card:
    id: str
    rank: str | None  # None for a Joker
    suit: str | None  # None for a Joker
    deck: int  # 1, 2, ...

    @property
    def joker(self) -> bool:
        return self.rank is None

    @property
    def value(self) -> int:
        """A = 1 ... K = 13 (0 for a Joker)."""
        return 0 if self.rank is None else RANKS.index(self.rank) + 1

    @property
    def suit_rank(self) -> int:
        return -1 if self.suit is None else SUITS.index(self.suit)

    @property
    def label(self) -> str:
        """A readable label: ``A♠``, ``10♥``, ``Joker``; ``(deck 2)`` for a second deck's card."""
        base = "Joker" if self.rank is None else f"{self.rank}{SUIT_SYMBOL[self.suit or 'D']}"
        return base if self.deck == 1 else f"{base} (deck {self.deck})"


def deck_ids(decks: int) -> list[str]:
    """Every card id of ``decks`` standard 54-card decks (52 + 2 Jokers), in a fixed order."""
    out: list[str] = []
    for d in range(1, decks + 1):
        suffix = "" if d == 1 else f"#{d}"
        out += [f"{r}{s}{suffix}" for s in SUITS for r in RANKS]
        out += [f"{j}{suffix}" for j in JOKERS]
    return out


@lru_cache(maxsize=512)
def parse_card(card_id: str) -> Card | None:
    """The card an id names, or None if it is not a card id (the Curse is not a playing card)."""
    if not isinstance(card_id, str):
        return None
    base, _, deck_part = card_id.partition("#")
    deck = 1
    if deck_part:
        if not deck_part.isdigit() or int(deck_part) < 2:
            return None
        deck = int(deck_part)
    if base in JOKERS:
        return Card(card_id, None, None, deck)
    rank, suit = base[:-1], base[-1:]
    if rank in RANKS and suit in SUITS:
        return Card(card_id, rank, suit, deck)
    return None


def label(card_id: str) -> str:
    if card_id == CURSE:
        return "the Cursed Spell"
    c = parse_card(card_id)
    return c.label if c else repr(card_id)


def labels(ids: Iterable[str]) -> str:
    return " ".join(label(c) for c in ids)


def sort_key(card_id: str) -> tuple[int, int, int]:
    c = parse_card(card_id)
    if c is None:
        return (99, 0, 0)
    return (14 if c.joker else c.value, c.suit_rank, c.deck)


def sorted_cards(ids: Iterable[str]) -> list[str]:
    return sorted(ids, key=sort_key)


class Kind(IntEnum):
    """Combination kinds. The numbers order the non-Joker kinds; Badef and Jokulme are special."""

    CANTRIP = 1
    CODU = 2
    THRACK = 3
    RAQUAV = 4
    BADEF = 10
    JOKULME = 20

    @property
    def title(self) -> str:
        return self.name.capitalize()


KIND_BY_SIZE = {1: Kind.CANTRIP, 2: Kind.CODU, 3: Kind.THRACK, 4: Kind.RAQUAV}


@dataclass(frozen=True)
class Combo:
    cards: tuple[str, ...]
    kind: Kind
    value: int  # A=1 .. K=13; 0 for Badef/Jokulme
    suits: tuple[int, ...]  # suit ranks, highest first

    @property
    def rank_name(self) -> str:
        return "" if self.value == 0 else RANKS[self.value - 1]

    def describe(self) -> str:
        """``Codu (7♣ 7♦)``."""
        return f"{self.kind.title} ({labels(self.cards)})"


def classify(cards: Sequence[str]) -> Combo | None:
    """The combination ``cards`` form, or None if they form none."""
    parsed = [parse_card(c) for c in cards]
    if not parsed or any(p is None for p in parsed) or len(set(cards)) != len(cards):
        return None
    ps = [p for p in parsed if p is not None]
    ordered = tuple(sorted(cards, key=sort_key, reverse=True))
    if all(p.joker for p in ps):
        if len(ps) == 1:
            return Combo(ordered, Kind.BADEF, 0, ())
        if len(ps) == 2:
            return Combo(ordered, Kind.JOKULME, 0, ())
        return None
    if any(p.joker for p in ps) or len(ps) > 4 or len({p.value for p in ps}) != 1:
        return None
    return Combo(ordered, KIND_BY_SIZE[len(ps)], ps[0].value, tuple(sorted((p.suit_rank for p in ps), reverse=True)))


def combinations_in(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """Every combination that can be played from ``hand`` (each as a tuple of ids, hand order)."""
    by_value: dict[int, list[str]] = {}
    jokers: list[str] = []
    for cid in hand:
        c = parse_card(cid)
        if c is None:
            continue
        if c.joker:
            jokers.append(cid)
        else:
            by_value.setdefault(c.value, []).append(cid)
    out: list[tuple[str, ...]] = [(j,) for j in jokers]
    out += list(combinations(jokers, 2))
    for _value, group in sorted(by_value.items()):
        for size in range(1, min(4, len(group)) + 1):
            out += list(combinations(group, size))
    return out
