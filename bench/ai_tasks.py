"""The games ``python -m bench ai`` plays (:func:`tasks_for`): every matchup's tasks for one game,
each with its seed and seats, and the opponent pool (:func:`pool_players`).

Matchups (``docs/ai.md``; the first three are issue 16's, the last three issue 32's and the default):

- ``vs_random``: AI normal against random players (Magic Duel: a 4-player table, its seat rotating);
- ``hard_vs_easy``: AI hard against AI easy, seats alternated (Magic Duel: 2 players);
- ``vs_heuristic``: AI normal against the heuristic (``bench.heuristics``), seats alternated;
- ``vs_pool``: AI normal against every pool player (``bench.pool``), and AI hard against every
  one, two players, seats alternated; a pairing's games come in twos on the same seed with the
  seats swapped (the same first deal for each side);
- ``table`` (Magic Duel): AI normal and three pool players at a 4-player table; the three rotate
  through every set of three of the pool, the AI's seat through the four seats;
- ``ladder``: a round robin of random, the AI's levels and every pool player, two players, seats
  alternated, ``games["ladder"]`` games per pair. A pair already played by another matchup of the
  run (normal vs a pool player in ``vs_pool``, hard vs easy, normal vs random) counts those games
  and is only topped up to that number, so no pairing is played twice for the ladder.

A seed is fixed by the matchup, the pair and the game's index (``seed0`` aside), not by the order
of the tasks: a pool player added later leaves the other pairings' games (and their ``--log``
lines) as they were.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.registry import find, game_slugs

from .ai_play import Task

if TYPE_CHECKING:
    from .pool import PoolPlayer

SLUGS = game_slugs()  # the registered games (rules/registry.py) when the benchmark starts
#: Seats of the vs-random table and of the ``table`` matchup (the other matchups are played by two).
TABLE_SEATS = {"magic-duel": 4}
OLD_MATCHUPS = ("vs_random", "hard_vs_easy", "vs_heuristic")
POOL_MATCHUPS = ("vs_pool", "table", "ladder")
MATCHUPS = OLD_MATCHUPS + POOL_MATCHUPS
#: The AI's levels measured against each pool player.
POOL_LEVELS = ("normal", "hard")
#: The ladder's members besides the pool players, "random" first: the anchor (rating 0).
LADDER_BASE = ("random", "ai:easy", "ai:normal", "ai:hard")


def pool_players(slug: str) -> tuple[tuple[PoolPlayer, ...], str | None]:
    """``slug``'s pool players (``bench.pool``), and a note when the game has no pool module yet:
    the pool is then empty, and the benchmark plays the rest and says so."""
    from . import pool as pool_package

    try:
        return pool_package.pool(slug), None
    except ModuleNotFoundError as exc:
        entry = find(slug)
        module = entry.pool if entry is not None else None
        if module is not None and exc.name == module:
            return (), f"{module.replace('.', '/')}.py is not there yet: no pool games"
        raise


def pool_names(slug: str) -> list[str]:
    """The names of ``slug``'s pool players (none while its pool module is missing)."""
    return [p.name for p in pool_players(slug)[0]]


class Common(NamedTuple):
    """What every task of a run shares: the stand-in and the game's options."""

    stand_in: str | None
    options: tuple[tuple[str, Any], ...]


def _seed(seed0: int, key: str, index: int) -> int:
    """The seed of game ``index`` of the pairing ``key`` (stable whatever else the run plays);
    apart from the issue-16 matchups' seeds (``seed0 + 1_000_000 * m + g``)."""
    return seed0 + 100_000_000 + (zlib.crc32(key.encode()) % 90_000) * 10_000 + index


def _pair_tasks(
    slug: str, matchup: str, a: str, b: str, n: int, seed_key: str, seed0: int, common: Common
) -> list[Task]:
    """``n`` games of ``a`` against ``b`` (``a``'s seat is measured): ``a`` at seat 0 in even
    games, seat 1 in odd ones; games ``2k`` and ``2k + 1`` share a seed (from ``seed_key``)."""
    out = []
    for g in range(n):
        seat = g % 2
        kinds = (a, b) if seat == 0 else (b, a)
        out.append(Task(slug, matchup, kinds, seat, _seed(seed0, seed_key, g // 2), common.stand_in, common.options))
    return out


def table_kinds(names: Sequence[str], g: int, seats: int = 4) -> tuple[tuple[str, ...], int]:
    """Game ``g`` of the ``table`` matchup: the kinds by seat and the AI's seat. The AI's seat
    goes round the table (game ``g``: seat ``g % seats``); the opponents are the sets of
    ``seats - 1`` pool players in turn (every set, so every member, within the first
    ``max(seats, sets)`` games). After each cycle of ``lcm(sets, seats)`` games the sets move on
    by one against the seats, and the opponents' order at the table rotates."""
    sets = list(combinations(names, seats - 1))
    cycle = math.lcm(len(sets), seats)
    turn = g // cycle
    group = sets[(g + turn) % len(sets)]
    ai_seat = g % seats
    shift = turn % len(group)
    others = [f"pool:{k}" for k in group[shift:] + group[:shift]]
    kinds = tuple("ai:normal" if s == ai_seat else others.pop(0) for s in range(seats))
    return kinds, ai_seat


def tasks_for(
    slug: str,
    games: Mapping[str, int],
    seed0: int = 0,
    stand_in: str | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    names: Sequence[str] | None = None,
    quick: bool = False,
) -> list[Task]:
    """Every game of every matchup of ``slug`` (``games``: games per pairing by matchup, absent
    is 0), each with its own seed, seats alternated. ``names``: the pool (default: ``bench.pool``'s).

    ``quick`` (``--quick``'s smoke check): ``vs_pool`` plays normal against the first pool player
    and hard against the last only (the pool lists its tune half first: one of each half), and
    the ladder's round robin adds no game of the AI (normal and hard are on the ladder through
    those two pairings; easy is left out), so the check stays short."""
    common = Common(stand_in, tuple(sorted((options or {}).items())))
    out: list[Task] = []
    for m_index, matchup in enumerate(OLD_MATCHUPS):
        for g in range(games.get(matchup, 0)):
            seed = seed0 + 1_000_000 * m_index + g
            if matchup == "vs_random":
                seats = TABLE_SEATS.get(slug, 2)
                seat = g % seats
                kinds = tuple("ai:normal" if s == seat else "random" for s in range(seats))
            elif matchup == "hard_vs_easy":
                seat = g % 2
                kinds = ("ai:hard", "ai:easy") if seat == 0 else ("ai:easy", "ai:hard")
            else:
                seat = g % 2
                kinds = ("ai:normal", "heuristic") if seat == 0 else ("heuristic", "ai:normal")
            out.append(Task(slug, matchup, kinds, seat, seed, common.stand_in, common.options))
    if names is None:
        names = pool_names(slug)
    pool_kinds = [f"pool:{name}" for name in names]
    n = games.get("vs_pool", 0)
    for i, p in enumerate(pool_kinds):
        for level in POOL_LEVELS:
            if quick and not (i == 0 if level == "normal" else i == len(pool_kinds) - 1):
                continue
            # the seed is the pool player's, not the level's: normal and hard get the same deals
            out.extend(_pair_tasks(slug, "vs_pool", f"ai:{level}", p, n, f"vs_pool|{p}", seed0, common))
    table_seats = TABLE_SEATS.get(slug)
    if table_seats and len(names) >= table_seats - 1:
        for g in range(games.get("table", 0)):
            kinds, ai_seat = table_kinds(names, g, table_seats)
            out.append(Task(slug, "table", kinds, ai_seat, _seed(seed0, "table", g), common.stand_in, common.options))
    m = games.get("ladder", 0)
    if m:
        members = [k for k in LADDER_BASE if not (quick and k.startswith("ai:"))] + pool_kinds
        played: dict[frozenset[str], int] = {}
        for task in out:
            if len(task.kinds) == 2:
                key = frozenset(task.kinds)
                played[key] = played.get(key, 0) + 1
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                have = played.get(frozenset((a, b)), 0)
                out.extend(_pair_tasks(slug, "ladder", a, b, max(0, m - have), f"ladder|{a}|{b}", seed0, common))
    return out
