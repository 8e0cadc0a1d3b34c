"""Bounded memos for the engines' hot paths (issue 33, part 5).

The engines keep what they compute per hand, card set or pair of squares (a Firewall hand's turn
layout, a Magic Duel play, the squares a line crosses) so that playouts, searches and prompts do
not compute it again. A bot that runs for months meets ever more hands: a memo without a bound
grows for as long as the process lives (``python -m bench soak`` saw 1 MB a minute). Every memo of
the engines is bounded here, by a number of entries chosen so that all of them together stay
within a few megabytes while a search's working set still fits (``python -m bench engines`` and
the AI benchmark hold the speed):

- :class:`Memo`: a dict that empties itself when full, for the memos the engines fill by hand
  (``memo.get(key)``, then ``memo.put(key, value)`` on a miss): a hit is one dict lookup, and the
  occasional refill costs less than a least-recently-used list kept up on every hit;
- :func:`bounded`: ``functools.lru_cache`` with a ``maxsize`` (C code) for memoised functions.

:func:`sizes` reports how full each one is (the soak benchmark prints it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

_MEMOS: dict[str, Memo[Any, Any]] = {}
_FUNCTIONS: dict[str, Any] = {}


class Memo(dict[K, V], Generic[K, V]):
    """A dict of at most ``limit`` entries: :meth:`put` empties it first when it is full."""

    __slots__ = ("name", "limit")

    def __init__(self, name: str, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a memo holds at least one entry")
        self.name = name
        self.limit = limit
        _MEMOS[name] = self

    def put(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (emptying the memo first if it is full); returns ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


def bounded(limit: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize=limit)``, registered for :func:`sizes`."""

    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=limit)(fn)
        _FUNCTIONS[f"{fn.__module__}.{fn.__qualname__}"] = cached
        return cached  # type: ignore[return-value]

    return wrap


def sizes() -> dict[str, tuple[int, int]]:
    """Each bounded memo of the engines loaded so far: ``name -> (entries, limit)``."""
    out = {name: (len(memo), memo.limit) for name, memo in _MEMOS.items()}
    for name, fn in _FUNCTIONS.items():
        info = fn.cache_info()
        out[name] = (info.currsize, info.maxsize)
    return out
