"""Playing the games of ``python -m bench ai``: one seeded game to the end (:func:`play`), the
players by kind (:func:`resolve`: "random", "heuristic", "ai:<level>", "pool:<name>"), one task
(:func:`run_task`) as a worker process plays it, and the statistics of the results (Wilson
intervals, the 95th percentile, a seat's score).

A game's result depends on this module, the players and the rules only, so the code digest of
``--log`` (:func:`bench.ai_log.code_fingerprint`) covers this file, not the runner's reporting.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.actions import ActionModel
from rules.core import CHANCE, State
from rules.events import Outcome, Result

from .heuristics import heuristic_player, random_player

Player = Callable[[State, int, random.Random], ActionModel]

#: A game not over after this many actions (every game here ends far sooner) is stopped and
#: counted as *unfinished*: a draw in the win rate (1/2; at a table, the random baseline), and
#: reported (``unfinished``), e.g. two players who tie a Magic Duel trick again and again.
MAX_STEPS = 20_000


class AIMissing(Exception):
    """``rules.ai`` cannot be imported."""


def load_ai() -> Any:
    """The ``rules.ai`` module (raises AIMissing if it does not exist yet)."""
    try:
        return importlib.import_module("rules.ai")
    except ModuleNotFoundError as exc:
        if exc.name in ("rules.ai", "rules"):
            raise AIMissing("rules.ai is not there yet: the AI benchmark needs the AI package") from None
        raise


# ------------------------------------------------------------------ statistics
def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion ``successes / n``;
    (0, 1) when ``n`` is 0. Fractional successes (draws counted half) are allowed."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} out of 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends (no rounding)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def p95(values: Sequence[float]) -> float | None:
    """The 95th percentile (nearest rank) of ``values``; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(0.95 * len(ordered)))
    return ordered[rank - 1]


def seat_score(outcome: Outcome, seat: int) -> float:
    """1 for a win (alone in first place), 1/2 for a draw or a shared first place, else 0."""
    if len(outcome.seats) == 2:
        result = outcome.seats[seat].result
        return 1.0 if result is Result.WIN else 0.5 if result is Result.DRAW else 0.0
    if outcome.ranks[seat] != 1:
        return 0.0
    return 1.0 if outcome.ranks.count(1) == 1 else 0.5


# ------------------------------------------------------------------ playing
@dataclass
class Played:
    """One finished game: every seat's score and each seat's decision times (s)."""

    scores: list[float]
    times: list[list[float]] = field(default_factory=list)
    steps: int = 0
    #: each seat's decision times in CPU seconds of this process (see :func:`play`)
    cpu_times: list[list[float]] = field(default_factory=list)
    #: stopped after ``max_steps`` actions (see :data:`MAX_STEPS`)
    unfinished: bool = False


def play(
    slug: str,
    players: Sequence[Player],
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_steps: int = MAX_STEPS,
) -> Played:
    """Play one game of ``slug`` to the end, seat ``i`` played by ``players[i]``.

    Chance is drawn from ``random.Random(seed)``; each seat has its own rng (from ``seed``).
    When several seats pick at once (secret simultaneous choices), every one of them decides on
    the same state before any pick is applied."""
    from rules import Match

    n = len(players)
    state = Match.new(slug, seed=seed, seats=[f"P{i + 1}" for i in range(n)], options=dict(options or {})).state
    chance = random.Random(seed)
    rngs = [random.Random(seed * 1009 + 17 * (i + 1)) for i in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    cpu_times: list[list[float]] = [[] for _ in range(n)]
    steps = 0
    while True:
        aw = state.awaiting
        if aw.is_terminal:
            break
        if steps >= max_steps:
            return Played([1 / n] * n, times, steps, cpu_times, unfinished=True)
        if aw.is_chance:
            state.apply(CHANCE, state.sample_action(CHANCE, chance))
            steps += 1
            continue
        picks: list[tuple[int, ActionModel]] = []
        for seat in sorted(aw.seats):
            t0, c0 = time.perf_counter(), time.process_time()
            action = players[seat](state, seat, rngs[seat])
            times[seat].append(time.perf_counter() - t0)
            cpu_times[seat].append(time.process_time() - c0)
            picks.append((seat, action))
        for seat, action in picks:
            state.apply(seat, action)  # checked: an illegal choice raises
            steps += 1
    outcome = state.outcome
    assert outcome is not None
    return Played([seat_score(outcome, s) for s in range(n)], times, steps, cpu_times)


def resolve(kind: str, slug: str, stand_in: str | None) -> Player:
    """The player named ``kind``: "random", "heuristic", "ai:<level>" (the stand-in, if any, plays
    in its place) or "pool:<name>" (the pool player ``name`` of ``slug``, :mod:`bench.pool`)."""
    if kind == "random":
        return random_player
    if kind == "heuristic":
        return heuristic_player(slug)
    if kind.startswith("pool:"):
        from .pool import pool_player

        return pool_player(slug, kind[5:]).play
    if kind.startswith("ai:"):
        if stand_in == "heuristic":
            return heuristic_player(slug)
        if stand_in == "random":
            return random_player
        player: Player = load_ai().ai_player(kind[3:])
        return player
    raise ValueError(f"unknown player {kind!r}")


@dataclass(frozen=True)
class Task:
    """One game to play: the players by kind, the seat measured, the seed."""

    slug: str
    matchup: str
    kinds: tuple[str, ...]
    seat: int  # the seat whose score is measured: the AI normal / hard seat; in the ladder, the pair's first player
    seed: int
    stand_in: str | None = None
    options: tuple[tuple[str, Any], ...] = ()  # the game's options (``--quick``: a smaller Arena)


#: one game's result: the task, the measured seat's score, AI decision times by level (wall, CPU
#: seconds), stopped unfinished
GameResult = tuple[Task, float, dict[str, list[float]], dict[str, list[float]], bool]


def run_task(task: Task) -> GameResult:
    """Play ``task``: the measured seat's score and the AI decision times by level, in wall-clock
    seconds and in CPU seconds of the process that played it, and whether it was stopped
    unfinished (:data:`MAX_STEPS`)."""
    players = [resolve(k, task.slug, task.stand_in) for k in task.kinds]
    played = play(task.slug, players, task.seed, dict(task.options))
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for seat, kind in enumerate(task.kinds):
        if kind.startswith("ai:"):
            wall.setdefault(kind[3:], []).extend(played.times[seat])
            cpu.setdefault(kind[3:], []).extend(played.cpu_times[seat])
    return task, played.scores[task.seat], wall, cpu, played.unfinished
