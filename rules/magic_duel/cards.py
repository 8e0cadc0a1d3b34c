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
from functools import cached_property, lru_cache
from itertools import combinations

from ..memo import bounded

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


@lru_cache(maxsize=1024)
def label(card_id: str) -> str:
    if card_id == CURSE:
        return "the Cursed Spell"
    c = parse_card(card_id)
    return c.label if c else repr(card_id)


def labels(ids: Iterable[str]) -> str:
    if not isinstance(ids, list | tuple):
        ids = list(ids)  # read twice below if an id is unknown
    try:
        return " ".join([LABEL[c] for c in ids])
    except KeyError:
        return " ".join(label(c) for c in ids)


@lru_cache(maxsize=1024)
def card_value(card_id: str) -> int | None:
    """A = 1 ... K = 13, 0 for a Joker, None if ``card_id`` is no card."""
    c = parse_card(card_id)
    return None if c is None else c.value


@lru_cache(maxsize=1024)
def sort_key(card_id: str) -> tuple[int, int, int]:
    c = parse_card(card_id)
    if c is None:
        return (99, 0, 0)
    return (14 if c.joker else c.value, c.suit_rank, c.deck)


def sorted_cards(ids: Iterable[str]) -> list[str]:
    if not isinstance(ids, list | tuple):
        ids = list(ids)  # read twice below if an id is unknown
    try:
        return sorted(ids, key=SORT_POS.__getitem__)
    except KeyError:  # an id no deck holds (only in a check's error message)
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
        return _KIND_TITLES[self]


_KIND_TITLES = {k: k.name.capitalize() for k in Kind}
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
        return self.description

    @cached_property
    def description(self) -> str:
        """``Codu (7♣ 7♦)`` (computed once per combination)."""
        return f"{self.kind.title} ({labels(self.cards)})"

    @cached_property
    def title(self) -> str:
        """The kind's name: ``Codu``."""
        return self.kind.title

    @cached_property
    def rank_key(self) -> tuple[int, tuple[int, ...]]:
        """Best first among combinations of one kind: higher value, then higher suits."""
        return (-self.value, tuple(-s for s in self.suits))


def classify(cards: Sequence[str]) -> Combo | None:
    """The combination ``cards`` form, or None if they form none."""
    return _classify(cards if type(cards) is tuple else tuple(cards))


@bounded(4096)
def _classify(cards: tuple[str, ...]) -> Combo | None:
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


def combination_groups(hand: Sequence[str]) -> list[tuple[tuple[str, ...], int]]:
    """The combinations in ``hand`` as (group, size) blocks, in the order of ``combinations_in``:
    every ``size``-card subset of ``group`` (hand order) is a combination."""
    values = [v for c in hand if (v := card_value(c)) is not None]
    if len(values) == len(hand) and all(sort_key(a) <= sort_key(b) for a, b in zip(hand, hand[1:], strict=False)):
        return _sorted_groups(tuple(hand), values)
    by_value: dict[int, list[str]] = {}
    jokers: list[str] = []
    for cid in hand:
        value = card_value(cid)
        if value is None:
            continue
        if value == 0:
            jokers.append(cid)
        else:
            by_value.setdefault(value, []).append(cid)
    blocks: list[tuple[tuple[str, ...], int]] = []
    if jokers:
        blocks.append((tuple(jokers), 1))
        if len(jokers) >= 2:
            blocks.append((tuple(jokers), 2))
    for _value, group in sorted(by_value.items()):
        for size in range(1, min(4, len(group)) + 1):
            blocks.append((tuple(group), size))
    return blocks


def _sorted_groups(hand: tuple[str, ...], values: list[int]) -> list[tuple[tuple[str, ...], int]]:
    """``combination_groups`` of a sorted hand: each value's cards are one run, the Jokers last."""
    blocks: list[tuple[tuple[str, ...], int]] = []
    n = len(hand)
    i = 0
    while i < n and values[i] != 0:
        j = i + 1
        while j < n and values[j] == values[i]:
            j += 1
        group = hand[i:j]
        blocks += [(group, size) for size in range(1, min(4, j - i) + 1)]
        i = j
    if i < n:
        jokers = hand[i:]
        blocks[:0] = [(jokers, 1)] + ([(jokers, 2)] if len(jokers) >= 2 else [])
    return blocks


def combinations_in(hand: Sequence[str]) -> list[tuple[str, ...]]:
    """Every combination that can be played from ``hand`` (each as a tuple of ids, hand order):
    single Jokers, pairs of Jokers, then by value (lowest first) 1 to 4 cards of that value."""
    return [combo for group, size in combination_groups(hand) for combo in combinations(group, size)]


# -- static data of every card a game can use (up to 3 decks), looked up in the hot paths -------
#: The most decks a game uses (MagicDuelOptions.decks).
MAX_DECKS = 3
_KNOWN: tuple[str, ...] = tuple(deck_ids(MAX_DECKS))
_KEYS = sorted({sort_key(c) for c in _KNOWN})
#: A card's place in ``sort_key`` order (equal keys, such as JK1 and JK2 of one deck, share it).
SORT_POS: dict[str, int] = {c: _KEYS.index(sort_key(c)) for c in _KNOWN}
#: A card's value: A = 1 ... K = 13, 0 for a Joker.
VALUE: dict[str, int] = {c: v for c in _KNOWN if (v := card_value(c)) is not None}
#: A card's label (and the Cursed Spell's).
LABEL: dict[str, str] = {c: label(c) for c in (*_KNOWN, CURSE)}


#: The seed's other names of the combinations of several cards of one value.
AKA = {Kind.CODU: "the Double", Kind.THRACK: "breaking attack", Kind.RAQUAV: "finishing move"}
NUMBER = {1: "one", 2: "two", 3: "three", 4: "four"}


def not_a_combination(cards: Sequence[str]) -> str | None:
    """Why ``cards`` are no spell, in words a player reads ("a Codu (the Double) needs two cards of
    the same value, not a mix of 3 and 5"), or None if they form a combination (``classify``)."""
    if classify(cards) is not None:
        return None
    if not cards:
        return "choose the cards of your spell first"
    parsed = [parse_card(c) for c in cards]
    if any(p is None for p in parsed) or len(set(cards)) != len(cards):
        return "name each card of your hand once"
    jokers = sum(1 for p in parsed if p is not None and p.joker)
    if jokers and jokers < len(cards):
        return (
            f"a Joker is cast alone ({Kind.BADEF.title}) or with the other Joker ({Kind.JOKULME.title}), "
            "never with other cards"
        )
    if jokers:
        return f"a {Kind.JOKULME.title} is two Jokers, not {NUMBER.get(len(cards), len(cards))}"
    biggest = max(KIND_BY_SIZE)
    if len(cards) > biggest:
        most = KIND_BY_SIZE[biggest]
        return f"a spell has at most {NUMBER[biggest]} cards (a {most.title}: {NUMBER[biggest]} of the same value)"
    kind = KIND_BY_SIZE[len(cards)]
    return f"a {kind.title} ({AKA[kind]}) needs {NUMBER[len(cards)]} cards of the same value, not {_mix(cards)}"


def _mix(cards: Sequence[str]) -> str:
    """``a mix of 3 and 5``: the values of ``cards``, each once, in the order chosen."""
    ranks = list(dict.fromkeys(p.rank for c in cards if (p := parse_card(c)) is not None and p.rank))
    return "a mix of " + ", ".join(ranks[:-1]) + " and " + ranks[-1]
