"""Small helpers shared by the engines: lazy action lists for large action spaces, and drawing an
index from them as ``random.Random`` would."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb, perm
from typing import TypeVar, overload

T = TypeVar("T")


class LazySeq(Sequence[T]):
    """A read-only sequence of ``length`` items made on demand by ``make(index)``.

    Lets a state offer every legal action (thousands of deck choices, say) without building
    them all; sampling one uniformly costs one call.
    """

    def __init__(self, length: int, make: Callable[[int], T]):
        self._length = length
        self._make = make

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self._make(i) for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        return self._make(index)


def nth_combination(pool: Sequence[T], r: int, index: int) -> tuple[T, ...]:
    """The ``index``-th r-combination of ``pool`` in lexicographic order."""
    n = len(pool)
    total = comb(n, r)
    if not 0 <= index < total:
        raise IndexError(index)
    out: list[T] = []
    start = 0
    while r:
        for i in range(start, n):
            c = comb(n - i - 1, r - 1)
            if index < c:
                out.append(pool[i])
                start = i + 1
                r -= 1
                break
            index -= c
    return tuple(out)


def nth_permutation(pool: Sequence[T], r: int, index: int) -> tuple[T, ...]:
    """The ``index``-th r-permutation of ``pool`` in lexicographic order."""
    items = list(pool)
    n = len(items)
    if not 0 <= index < perm(n, r):
        raise IndexError(index)
    out: list[T] = []
    for k in range(r):
        block = perm(n - k - 1, r - k - 1)
        i, index = divmod(index, block)
        out.append(items.pop(i))
    return tuple(out)


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: the same draws, made inline for a plain ``random.Random``
    (a hot path of random playouts)."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
