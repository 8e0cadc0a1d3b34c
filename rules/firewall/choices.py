"""Firewall's legal-action sequences, built for speed: random playouts and search sample them at
every step, so a turn's choices are a lazy sequence (``TurnChoices``: O(1) ``len`` and indexing)
over a layout computed once per hand (``TurnLayout``, cached), and the small follow-up lists
(Recycle's bets, Larceny's subsets) are built once and shared (their actions are immutable).

The order of every sequence is part of the contract (a seeded random game picks by index).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import product
from typing import overload

from ..memo import Memo
from .actions import LarcenyChoice, RecycleChoice, Turn, known_turn, larceny_of
from .spells import CLONE

#: entries per memo (rules/memo.py): a layout holds up to a few hundred tuples once a search has
#: walked it, so this bounds the memo to a few megabytes
LAYOUT_LIMIT = 1024


class TurnLayout:
    """The turns a hand allows for one bet, in order: the subsets of the hand without Clone (by
    bit mask over the sorted hand), then, with Clone in the hand, the subsets with Clone and each
    target in ``options`` (or no target when there is nothing to copy)."""

    __slots__ = ("others", "block", "per_bet", "options", "has_clone", "_plain", "_cloned")

    def __init__(self, hand: tuple[int, ...], options: tuple[int, ...]):
        hand = tuple(sorted(hand))
        self.has_clone = CLONE in hand
        self.options = options
        if self.has_clone:
            self.others = tuple(c for c in hand if c != CLONE)
            self.block = 1 << len(self.others)
            self.per_bet = self.block * (1 + max(len(options), 1))
        else:
            self.others = hand
            self.block = self.per_bet = 1 << len(hand)
        self._plain: dict[int, tuple[int, ...]] = {}
        self._cloned: dict[int, tuple[int, ...]] = {}

    def spells(self, mask: int) -> tuple[int, ...]:
        """The cards of the hand (Clone apart) that ``mask`` selects, ascending."""
        spells = self._plain.get(mask)
        if spells is None:
            spells = self._plain[mask] = tuple(c for b, c in enumerate(self.others) if mask >> b & 1)
        return spells

    def with_clone(self, mask: int) -> tuple[int, ...]:
        spells = self._cloned.get(mask)
        if spells is None:
            spells = self._cloned[mask] = tuple(sorted((*self.spells(mask), CLONE)))
        return spells

    def turn(self, bet: int, r: int) -> Turn:
        """The ``r``-th turn with ``bet``."""
        if not self.has_clone:
            return known_turn(bet, self.spells(r), None)
        extra, mask = divmod(r, self.block)
        if extra == 0:
            return known_turn(bet, self.spells(mask), None)
        options = self.options
        return known_turn(bet, self.with_clone(mask), options[extra - 1] if options else None)


_LAYOUTS: Memo[object, TurnLayout] = Memo("firewall.turn_layout", LAYOUT_LIMIT)


def turn_layout(hand: list[int], opponent_last: list[int]) -> TurnLayout:
    """The (cached) layout of ``hand``; Clone's targets are ``opponent_last`` (Clone excluded)."""
    key: object = (tuple(hand), tuple(opponent_last)) if CLONE in hand else tuple(hand)
    layout = _LAYOUTS.get(key)
    if layout is None:
        options = tuple(sorted({c for c in opponent_last if c != CLONE})) if CLONE in hand else ()
        layout = _LAYOUTS.put(key, TurnLayout(tuple(hand), options))
    return layout


def plain_layout(hand: list[int]) -> TurnLayout | None:
    """The cached layout of a ``hand`` without Clone, if it was made already (else None)."""
    return _LAYOUTS.get(tuple(hand))


class TurnChoices(Sequence[Turn]):
    """Every turn of a seat: by bet (1 .. mana), then in the layout's order."""

    __slots__ = ("_layout", "_per_bet", "_length")

    def __init__(self, layout: TurnLayout, mana: int):
        self._layout = layout
        self._per_bet = layout.per_bet
        self._length = mana * layout.per_bet

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Turn: ...
    @overload
    def __getitem__(self, index: slice) -> list[Turn]: ...
    def __getitem__(self, index: int | slice) -> Turn | list[Turn]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        bet, r = divmod(index, self._per_bet)
        return self._layout.turn(bet + 1, r)


_RECYCLE_CHOICES: dict[int, RecycleChoice] = {}
_RECYCLE_RANGES: dict[tuple[int, int], tuple[RecycleChoice, ...]] = {}


def recycle_choice(bet: int) -> RecycleChoice:
    """The (immutable, shared) Recycle follow-up with ``bet``."""
    choice = _RECYCLE_CHOICES.get(bet)
    if choice is None:
        choice = _RECYCLE_CHOICES[bet] = RecycleChoice(bet=bet)
    return choice


def recycle_choices(lo: int, hi: int) -> tuple[RecycleChoice, ...]:
    """Every new bet from ``lo`` to ``hi``, ascending (shared)."""
    choices = _RECYCLE_RANGES.get((lo, hi))
    if choices is None:
        choices = _RECYCLE_RANGES[(lo, hi)] = tuple(recycle_choice(b) for b in range(lo, hi + 1))
    return choices


_LARCENY_CHOICES: Memo[tuple[int, ...], tuple[LarcenyChoice, ...]] = Memo("firewall.larceny_choices", 512)


def larceny_choices(stolen: Sequence[int]) -> tuple[LarcenyChoice, ...]:
    """Every sub-multiset of the stolen cards to apply, by count of each card (the lowest card's
    count varying slowest) - shared."""
    key = tuple(stolen)
    choices = _LARCENY_CHOICES.get(key)
    if choices is None:
        counts = sorted(Counter(key).items())
        choices = tuple(
            larceny_of([c for (c, _), k in zip(counts, picks, strict=True) for _ in range(k)])
            for picks in product(*(range(n + 1) for _, n in counts))
        )
        _LARCENY_CHOICES.put(key, choices)
    return choices
