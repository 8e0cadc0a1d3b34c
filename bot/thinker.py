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

from rules.ai import LEVELS, choose
from rules.ai.determinize import determinize
from rules.ai.ismcts import search
from rules.core import State, public_events


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
    it, ``{p1}``-style placeholders unfilled) and its estimated chance (0..1) that the seat wins;
    and what that estimate rests on, for the hint's one-line reason: ``games`` played out from
    here by the search (0: the seat had a single legal move), ``tries`` of them that began with
    this action, and the runner-up (the other action the search tried most, None if it tried
    no other), told the same way, with its own score and tries."""

    action: dict[str, Any]
    texts: tuple[str, ...]
    chance: float
    games: int = 0
    tries: int = 0
    runner_up: dict[str, Any] | None = None
    runner_up_texts: tuple[str, ...] = ()
    runner_up_chance: float = 0.0
    runner_up_tries: int = 0
    #: the seat's legal moves (``games`` 0 with more than one: a search that agreed without
    #: playing out, Arena's scripts: rules.ai.arena_portfolio)
    choices: int = 1


def hint(blob: bytes, seat: int, level: str, seed: int, time_limit: float | None = None) -> HintResult:
    """The hint for ``seat``: the search of :func:`rules.ai.evaluate` (the same action and chance,
    deterministic for ``seed`` unless ``time_limit`` cuts it short), and what playing its action
    says to the seat, told on a sample of the hidden information drawn from what the seat knows
    (never the true hidden cards: applying the action to the true state could resolve a step and
    reveal an opponent's secret choice)."""
    state: State = pickle.loads(blob)
    result = search(state, seat, LEVELS[level], seed=seed, time_limit=time_limit)
    action = result.action
    tries = result.stats.get(action, (0, 0.0))[0]
    others = sorted(
        ((visits, mean, a) for a, (visits, mean) in result.stats.items() if a != action),
        key=lambda t: (-t[0], -t[1]),
    )
    texts = _account(state, seat, action, seed)
    if not others:
        choices = len(state.legal_actions(seat))
        return HintResult(action.to_json(), texts, result.value, result.iterations, tries, choices=choices)
    visits, mean, second = others[0]
    return HintResult(
        action.to_json(),
        texts,
        result.value,
        result.iterations,
        tries,
        second.to_json(),
        _account(state, seat, second, seed),
        min(1.0, max(0.0, mean)),
        visits,
    )


def _account(state: State, seat: int, action: Any, seed: int) -> tuple[str, ...]:
    """What playing ``action`` says to ``seat``, if every sample of the hidden information says
    the same (a draw's cards, a resolution against sampled cards would be the sample's, not the
    match's; then it is empty and the caller describes the action itself)."""
    told = {_told(state, seat, action, random.Random(seed + k)) for k in range(HINT_SAMPLES)}
    return told.pop() if len(told) == 1 else ()


#: Samples of the hidden information a hint's account of its action is told on (they must agree).
HINT_SAMPLES = 3


def _told(state: State, seat: int, action: Any, rng: random.Random) -> tuple[str, ...]:
    """What ``seat`` is told when it plays ``action`` in a sample of what it cannot see: the
    first event it alone is told, else the first public one."""
    sample = determinize(state, seat, rng)
    sample.narrate = True
    events = sample.apply(seat, action)
    mine = [e.text for e in events if e.visible_to is not None and seat in e.visible_to][:1]
    public = [e.text for e in public_events(events)][:1]
    return tuple(mine or public)


__all__ = ["HintResult", "decision_seed", "hint", "think"]
