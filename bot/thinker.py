"""What a computer player's worker process runs: the AI's decision or hint for one seat.

The match service (``bot.matches.computer``) pickles the match's state under the match lock and
sends it here through a process pool, so the search never runs on the event loop. This module
imports only the rules (a worker process starts fast and holds no database or Discord state).

The AI reads the state only through ``rules.ai`` (its determinizer samples what the seat cannot
see), so handing it the true state leaks nothing.
"""

from __future__ import annotations

import hashlib
import pickle
import random
from dataclasses import dataclass
from typing import Any

from rules.ai import choose, evaluate
from rules.ai.determinize import determinize
from rules.core import State


def decision_seed(match_seed: int, log_length: int, seat: int, salt: str = "move") -> int:
    """The AI's seed for one decision: fixed by the match's seed and the point of the match, so a
    decision is the same whichever process (or retry) makes it."""
    text = f"{salt}:{match_seed}:{log_length}:{seat}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def think(blob: bytes, seat: int, level: str, seed: int, time_limit: float | None = None) -> dict[str, Any]:
    """The computer's action for ``seat`` in the pickled state ``blob``, as JSON. ``time_limit``
    (seconds) stops the search inside the worker (it then plays the best action found so far), so a
    worker is free again when the caller stops waiting; without it the decision depends on the
    seed alone."""
    state: State = pickle.loads(blob)
    return choose(state, seat, level=level, seed=seed, time_limit=time_limit).to_json()  # type: ignore[arg-type]


@dataclass(frozen=True)
class HintResult:
    """What the AI would play for the seat (its action as JSON, and the seat's private account of
    it, ``{p1}``-style placeholders unfilled) and its estimated chance (0..1) that the seat wins."""

    action: dict[str, Any]
    texts: tuple[str, ...]
    chance: float


def hint(blob: bytes, seat: int, level: str, seed: int, time_limit: float | None = None) -> HintResult:
    """The hint for ``seat``: :func:`rules.ai.evaluate`, and what playing its action says to the
    seat, told on a sample of the hidden information drawn from what the seat knows (never the
    true hidden cards: applying the action to the true state could resolve a step and reveal an
    opponent's secret choice)."""
    state: State = pickle.loads(blob)
    action, chance = evaluate(state, seat, level=level, seed=seed, time_limit=time_limit)  # type: ignore[arg-type]
    told = {_told(state, seat, action, random.Random(seed + k)) for k in range(HINT_SAMPLES)}
    # the account must not depend on the sample: a draw's cards, a resolution against sampled
    # cards would be the sample's, not the match's; then the caller describes the action itself
    texts = told.pop() if len(told) == 1 else ()
    return HintResult(action.to_json(), texts, chance)


#: Samples of the hidden information a hint's account of its action is told on (they must agree).
HINT_SAMPLES = 3


def _told(state: State, seat: int, action: Any, rng: random.Random) -> tuple[str, ...]:
    """What ``seat`` is told when it plays ``action`` in a sample of what it cannot see: the
    first event it alone is told, else the first public one."""
    sample = determinize(state, seat, rng)
    sample.narrate = True
    events = sample.apply(seat, action)
    mine = [e.text for e in events if e.visible_to is not None and seat in e.visible_to][:1]
    public = [e.text for e in events if e.visible_to is None][:1]
    return tuple(mine or public)


__all__ = ["HintResult", "decision_seed", "hint", "think"]
