"""The figures of ``python -m bench ai``: each game's row of results from its finished games
(:func:`summarise`: win rates with Wilson intervals, the pool table, the ladder's Bradley-Terry
ratings, decision-time p95s, targets) and the printed tables (:func:`render`). JSON layout: the
module docstring of :mod:`bench.ai`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .ai_play import GameResult, p95, wilson
from .ai_tasks import LADDER_BASE, OLD_MATCHUPS, TABLE_SEATS
from .ladder import fit
from .report import table

#: Issue 16's targets (the old matchups) and issue 32's (the pool).
TARGETS = {
    "vs_random": 0.9,
    "vs_random_table": 0.6,
    "hard_vs_easy": 0.6,
    "vs_heuristic": 0.6,
    "vs_pool_normal": 0.65,
    "vs_pool_hard": 0.8,
    "table_normal": 0.35,
}
P95_LIMIT = {"normal": 1.0, "hard": 3.0}
#: The AI levels whose decisions are timed (every game they play in).
TIMED_LEVELS = ("normal", "hard")
OLD_KEYS = {"vs_random": "win_rate_vs_random", "vs_heuristic": "win_rate_vs_heuristic", "hard_vs_easy": "hard_vs_easy"}


def ladder_name(kind: str, kinds: Iterable[str] = ()) -> str:
    """The ladder's (and ``vs_pool``'s) name of a player kind: "ai:hard" -> "hard", "pool:rush" ->
    "rush"; a pool player named like a level or "random" keeps its "pool:" prefix."""
    if kind.startswith("ai:"):
        return kind[3:]
    if kind.startswith("pool:") and kind[5:] not in {ladder_name(k) for k in LADDER_BASE}:
        return kind[5:]
    return kind


def _rate(scores: Sequence[float]) -> tuple[float | None, list[float] | None]:
    n = len(scores)
    return (sum(scores) / n, list(wilson(sum(scores), n))) if n else (None, None)


def summarise(
    slugs: Sequence[str],
    results: Iterable[GameResult],
    games: Mapping[str, int],
    pools: Mapping[str, Sequence[Any]],
    notes: Mapping[str, str | None],
) -> dict[str, dict[str, Any]]:
    """Each game's row from its finished games. ``games``: the games per pairing asked for by
    matchup (a matchup asked for with 0 games has no figure); ``pools``: each game's pool players
    (:class:`bench.pool.PoolPlayer`, for their split and style); ``notes``: why a game has no pool."""
    by: dict[tuple[str, str], list[GameResult]] = {}
    for result in results:
        by.setdefault((result[0].slug, result[0].matchup), []).append(result)
    out: dict[str, dict[str, Any]] = {}
    for slug in slugs:
        mine = [r for (s, _), rs in by.items() if s == slug for r in rs]
        row: dict[str, Any] = {}
        for matchup, key in OLD_KEYS.items():
            if games.get(matchup, 0) or by.get((slug, matchup)):
                s = [r[1] for r in by.get((slug, matchup), [])]
                row[key], row[f"{key}_ci"] = _rate(s)
                row[f"games_{matchup}"] = len(s)
        if games.get("vs_pool", 0):
            row["vs_pool"] = _vs_pool(by.get((slug, "vs_pool"), []), pools.get(slug, ()))
            row["vs_pool_by_split"] = _by_split(by.get((slug, "vs_pool"), []), pools.get(slug, ()))
        if slug in TABLE_SEATS and games.get("table", 0) and len(pools.get(slug, ())) >= TABLE_SEATS[slug] - 1:
            s = [r[1] for r in by.get((slug, "table"), [])]
            rate, ci = _rate(s)
            row["table_normal"] = {"rate": rate, "ci": ci, "games": len(s), "baseline": 1 / TABLE_SEATS[slug]}
        if games.get("ladder", 0):
            row["ladder"] = _ladder(mine)
            row["ladder_anchor"] = "random" if row["ladder"].get("random", {}).get("games") else "mean"
            row["pool_vs_random"] = _pool_vs_random(mine)
        cpu: dict[str, list[float]] = {}
        wall: dict[str, list[float]] = {}
        for _, _, by_level, cpu_by_level, _ in mine:
            for level in TIMED_LEVELS:
                wall.setdefault(level, []).extend(by_level.get(level, []))
                cpu.setdefault(level, []).extend(cpu_by_level.get(level, []))
        for level in TIMED_LEVELS:
            row[f"decision_s_p95_{level}"] = p95(cpu.get(level, []))
            row[f"decision_wall_s_p95_{level}"] = p95(wall.get(level, []))
            row[f"decisions_{level}"] = len(cpu.get(level, []))
        row["games"] = len(mine)
        row["unfinished"] = sum(1 for r in mine if r[4])
        row["random_baseline"] = 1 / TABLE_SEATS.get(slug, 2)
        if notes.get(slug):
            row["pool_note"] = notes[slug]
        row["targets_met"] = targets(slug, row)
        out[slug] = row
    return out


def _vs_pool(results: Sequence[GameResult], players: Sequence[Any]) -> dict[str, dict[str, Any]]:
    """``vs_pool``: per pool player, normal's and hard's score rate with its interval."""
    scores: dict[tuple[str, str], list[float]] = {}
    for task, score, *_ in results:
        level, other = task.kinds[task.seat], task.kinds[1 - task.seat]
        scores.setdefault((other, level[3:]), []).append(score)
    info = {f"pool:{p.name}": p for p in players}
    out: dict[str, dict[str, Any]] = {}
    for kind in list(info) + sorted({k for k, _ in scores} - set(info)):
        entry: dict[str, Any] = {}
        counts = []
        for level in ("normal", "hard"):
            s = scores.get((kind, level), [])
            entry[level], entry[f"{level}_ci"] = _rate(s)
            entry[f"games_{level}"] = len(s)
            if s:
                counts.append(len(s))
            target = TARGETS[f"vs_pool_{level}"]
            entry.setdefault("targets_met", {})[level] = None if not s else entry[level] >= target
        entry["games"] = min(counts) if counts else 0
        player = info.get(kind)
        if player is not None:
            entry["split"], entry["style"] = player.split, player.style
        out[ladder_name(kind)] = entry
    return out


def _by_split(results: Sequence[GameResult], players: Sequence[Any]) -> dict[str, dict[str, Any]]:
    """``vs_pool`` pooled by the pool's halves: the games against the ``tune`` players (the AI may
    have been tuned on them) and against the ``holdout`` players, reported apart (issue 32)."""
    split = {f"pool:{p.name}": p.split for p in players}
    scores: dict[tuple[str, str], list[float]] = {}
    for task, score, *_ in results:
        half = split.get(task.kinds[1 - task.seat])
        if half is not None:
            scores.setdefault((half, task.kinds[task.seat][3:]), []).append(score)
    out: dict[str, dict[str, Any]] = {}
    for half in ("tune", "holdout"):
        entry: dict[str, Any] = {}
        for level in ("normal", "hard"):
            s = scores.get((half, level), [])
            entry[level], entry[f"{level}_ci"] = _rate(s)
            entry[f"games_{level}"] = len(s)
        out[half] = entry
    return out


def _ladder(results: Iterable[GameResult]) -> dict[str, dict[str, Any]]:
    """Bradley-Terry ratings (Elo scale, random = 0, 95 % intervals from the Hessian; see
    :mod:`bench.ladder`) of every two-player game between ladder members in the run: random, the
    AI's levels and the pool players (not the heuristic)."""
    pairs = []
    for task, score, *_ in results:
        if len(task.kinds) != 2 or not all(k in LADDER_BASE or k.startswith("pool:") for k in task.kinds):
            continue
        me, other = task.kinds[task.seat], task.kinds[1 - task.seat]
        pairs.append((ladder_name(me), ladder_name(other), score))
    ratings = fit(pairs, anchor="random")
    ordered = sorted(ratings.items(), key=lambda item: -item[1].rating)
    return {
        name: {"rating": r.rating, "ci": list(r.ci), "games": r.games, "score": r.score / r.games if r.games else None}
        for name, r in ordered
    }


def _pool_vs_random(results: Iterable[GameResult]) -> dict[str, dict[str, Any]]:
    """Each pool player's score against random (from the ladder's games): issue 32 asks that every
    pool player beat a random player clearly."""
    scores: dict[str, list[float]] = {}
    for task, score, *_ in results:
        if len(task.kinds) == 2 and "random" in task.kinds:
            me, other = task.kinds[task.seat], task.kinds[1 - task.seat]
            if me.startswith("pool:") and other == "random":
                scores.setdefault(ladder_name(me), []).append(score)
            elif other.startswith("pool:") and me == "random":
                scores.setdefault(ladder_name(other), []).append(1 - score)
    out: dict[str, dict[str, Any]] = {}
    for name, s in scores.items():
        rate, ci = _rate(s)
        out[name] = {"rate": rate, "ci": ci, "games": len(s)}
    return out


def targets(slug: str, row: Mapping[str, Any]) -> dict[str, bool | None]:
    """Which targets the row meets (None: not measured). Pool: every pool player's rate."""

    def at_least(value: float | None, target: float) -> bool | None:
        return None if value is None else value >= target

    def at_most(value: float | None, limit: float) -> bool | None:
        return None if value is None else value <= limit

    out: dict[str, bool | None] = {}
    vs_random = TARGETS["vs_random_table" if slug in TABLE_SEATS else "vs_random"]
    for matchup, key in OLD_KEYS.items():
        if key in row:
            target = vs_random if matchup == "vs_random" else TARGETS[matchup]
            out[key] = at_least(row[key], target)
    for level in ("normal", "hard"):
        met = [e["targets_met"][level] for e in row.get("vs_pool", {}).values()]
        if met and None not in met:
            out[f"vs_pool_{level}"] = all(met)
        elif "vs_pool" in row:
            out[f"vs_pool_{level}"] = None
    if "table_normal" in row:
        out["table_normal"] = at_least(row["table_normal"]["rate"], TARGETS["table_normal"])
    for level in TIMED_LEVELS:
        out[f"decision_s_p95_{level}"] = at_most(row.get(f"decision_s_p95_{level}"), P95_LIMIT[level])
    return out


# ------------------------------------------------------------------ tables
def _pct(value: float | None, ci: Sequence[float] | None) -> str:
    if value is None or ci is None:
        return "-"
    return f"{100 * value:.0f}% [{100 * ci[0]:.0f}-{100 * ci[1]:.0f}]"


def _secs(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _verdict(met: Mapping[str, bool | None]) -> str:
    values = list(met.values())
    if False in values:
        return "no"
    return "yes" if values and None not in values else "-"


def render(results: Mapping[str, Mapping[str, Any]]) -> str:
    """The tables of a run: the summary per game, then the pool, the Magic Duel table and the
    ladder when they were played."""
    parts = [_render_summary(results)]
    pool_rows = []
    for slug, r in results.items():
        for name, e in r.get("vs_pool", {}).items():
            met = e.get("targets_met", {})
            verdict = "/".join(
                f"{level} {'ok' if met.get(level) else 'FAIL' if met.get(level) is False else '-'}"
                for level in ("normal", "hard")
            )
            vs_random = r.get("pool_vs_random", {}).get(name)
            pool_rows.append(
                [
                    slug,
                    name,
                    e.get("split", "-"),
                    _pct(e["normal"], e.get("normal_ci")),
                    _pct(e["hard"], e.get("hard_ci")),
                    e["games"],
                    verdict,
                    _pct(vs_random["rate"], vs_random["ci"]) if vs_random else "-",
                ]
            )
        for half, e in r.get("vs_pool_by_split", {}).items():
            if e["games_normal"] or e["games_hard"]:
                pool_rows.append(
                    [
                        slug,
                        f"all {half} players",
                        half,
                        _pct(e["normal"], e["normal_ci"]),
                        _pct(e["hard"], e["hard_ci"]),
                        max(e["games_normal"], e["games_hard"]),
                        "",
                        "",
                    ]
                )
        t = r.get("table_normal")
        if t:
            met = r["targets_met"].get("table_normal")
            pool_rows.append(
                [
                    slug,
                    "4-player table: normal + 3 pool",
                    "all",
                    _pct(t["rate"], t["ci"]),
                    "",
                    t["games"],
                    f"table {'ok' if met else 'FAIL' if met is False else '-'}",
                    "",
                ]
            )
    notes = [f"{slug}: {r['pool_note']}" for slug, r in results.items() if r.get("pool_note")]
    if pool_rows or notes:
        parts.append(
            "Against the opponent pool (targets: normal >= 65%, hard >= 80%; 4-player table >= 35%, fair share 25%)\n"
            + table(["game", "pool player", "split", "normal", "hard", "games", "targets", "it vs random"], pool_rows)
            + "".join(f"\n{note}" for note in notes)
        )
    ladder_rows = [
        [slug, name, f"{e['rating']:+.0f}", f"[{e['ci'][0]:+.0f}, {e['ci'][1]:+.0f}]", e["games"], _score(e)]
        for slug, r in results.items()
        for name, e in sorted(r.get("ladder", {}).items(), key=lambda item: -item[1]["rating"])
    ]
    if ladder_rows:
        parts.append(
            "Ladder: Bradley-Terry ratings (Elo scale, random = 0, 95% intervals from the Hessian)\n"
            + table(["game", "player", "rating", "95% interval", "games", "score"], ladder_rows)
        )
    return "\n\n".join(parts)


def _score(entry: Mapping[str, Any]) -> str:
    score = entry.get("score")
    return "-" if score is None else f"{100 * score:.0f}%"


def _render_summary(results: Mapping[str, Mapping[str, Any]]) -> str:
    old = [(m, key) for m, key in OLD_KEYS.items() if any(key in r for r in results.values())]
    names = {"vs_random": "vs random", "hard_vs_easy": "hard vs easy", "vs_heuristic": "vs heuristic"}
    old.sort(key=lambda item: OLD_MATCHUPS.index(item[0]))
    rows = []
    for slug, r in results.items():
        cells: list[Any] = [slug]
        for matchup, key in old:
            cells.append(_pct(r.get(key), r.get(f"{key}_ci")))
            if matchup == "vs_random":
                cells.append(f"{100 * r['random_baseline']:.0f}%")
        cells += [
            f"{_secs(r['decision_s_p95_normal'])} / {_secs(r.get('decision_wall_s_p95_normal'))}",
            f"{_secs(r['decision_s_p95_hard'])} / {_secs(r.get('decision_wall_s_p95_hard'))}",
            f"{r['games']} ({r['unfinished']} unfinished)" if r.get("unfinished") else r["games"],
            _verdict(r["targets_met"]),
        ]
        rows.append(cells)
    headers = ["game"]
    for matchup, _ in old:
        headers.append(names[matchup])
        if matchup == "vs_random":
            headers.append("baseline")
    headers += ["p95 normal s cpu / wall", "p95 hard s cpu / wall", "games", "targets"]
    return table(headers, rows)
