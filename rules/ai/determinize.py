"""Determinization: a full State sampled from what one seat knows.

``determinize(state, seat, rng)`` returns a copy of ``state`` (not narrating) in which every
piece of information ``seat`` cannot see (opponents' hands, decks, secret orders and bets, the
order of face-down piles, opponents' committed-but-unrevealed choices of a simultaneous step) is
resampled uniformly among the values consistent with what ``seat`` has seen. Everything ``seat``
sees is unchanged: ``view(seat)`` of the sample equals ``view(seat)`` of the true state.

To leak nothing, each game's determinizer builds the sample only from the seat's knowledge: the
unknown pool is put in a canonical (sorted) order before it is shuffled with the seeded rng, so
two true states that look identical from ``seat`` give the identical sample.

Each game with hidden information puts its determinizer in its AI kit (``KIT`` in ``rules/ai/<game>.py``);
a game without one (Arena: an open board, its dice are chance) is its own determinization.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import State

#: ``(state, seat, rng, reopen) -> sample`` (see :func:`determinize`).
Determinizer = Callable[[State, int, random.Random, bool], State]


def _identity(state: State, seat: int, rng: random.Random, reopen: bool) -> State:
    return state.clone(narrate=False)


def determinizer(slug: str) -> Determinizer:
    """The determinizer of the game ``slug`` (its AI kit's; the state itself when nothing is hidden)."""
    from .kit import kit  # the kit module imports this one

    return kit(slug).determinize or _identity


def determinize(state: State, seat: int, rng: random.Random, *, reopen: bool = False) -> State:
    """A non-narrating State sampled consistently with what ``seat`` knows of ``state``.

    An opponent that has already made its secret choice of the simultaneous step ``seat`` is
    asked in (public: "submitted") keeps a choice, resampled uniformly among its legal ones in
    the sample, so ``view(seat)`` is unchanged. With ``reopen`` (what the search uses) that
    choice is taken back instead and the opponent is awaited again, so the search lets it
    choose without knowing ``seat``'s choice; only the "submitted" marks of the step differ.
    """
    return determinizer(state.game.slug)(state, seat, rng, reopen)
