"""``python -m bench ai --log FILE``: the finished games of a long run, one JSON line each, so a
run that stops goes on where it stopped; a line counts only when the code that played it is this
code (:func:`code_fingerprint`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .ai import GameResult, Task


def code_fingerprint(slugs: Sequence[str], root: Path | None = None) -> str:
    """A digest of the code a game's result depends on: the AI package (its shared search and
    these games' tunings with their modules and tables, not the other games' ``rules/ai/<game>.py``
    nor ``rules/ai/<game>_*``: tuning one game leaves the others' games valid), the heuristics,
    the opponent pool (``bench/pool``: its shared modules and these games' players, not the other
    games' ``bench/pool/<game>*.py``), the code that plays a game (``bench/ai_play.py``), this log,
    the games' rules packages with their data (``*.json``) and every shared module of ``rules/``.
    The runner's task lists, summing up and tables (``bench/ai.py``, ``ai_tasks``, ``ai_summary``,
    ``ladder``) are left out: they do not change a logged game's result (a task's players, seats,
    seed and options are in its key)."""
    root = root if root is not None else Path(__file__).resolve().parent.parent
    games = {s.replace("-", "_") for s in slugs}
    ai = root / "rules" / "ai"
    tunings = {p.stem for p in ai.glob("*.py") if (root / "rules" / p.stem).is_dir()}
    others = tunings - games
    folders = [root / "rules" / g for g in sorted(games)]
    files = sorted(
        [p for f in folders for p in (*f.rglob("*.py"), *f.rglob("*.json"))]  # the rules and their data
        + [p for p in (*ai.rglob("*.py"), *ai.rglob("*.json")) if not _owned_by(p.stem, others)]
        + list((root / "rules").glob("*.py"))  # the shared rules core: core, actions, events, lazy...
        + [p for p in (root / "bench" / "pool").rglob("*.py") if not _other_game(p.stem, games)]
        + [root / "bench" / name for name in ("heuristics.py", "ai_play.py", "ai_log.py")]
    )
    digest = hashlib.blake2b(digest_size=12)
    for path in files:
        if path.is_file():
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _owned_by(stem: str, games: set[str]) -> bool:
    """Whether ``rules/ai/<stem>.*`` is one of ``games``' own: its tuning (``arena.py``) or a module
    or table of that game's (``arena_portfolio.py``, ``firewall_values.json``)."""
    return any(stem == g or stem.startswith(g + "_") for g in games)


def _other_game(stem: str, games: set[str]) -> bool:
    """Whether ``bench/pool/<stem>.py`` belongs to another game's pool (``firewall.py``,
    ``wizards_cup.py``: Firewall's, Wizards Cup's) than ``games``."""
    from rules.registry import entries

    modules = {e.pool.rsplit(".", 1)[-1] for e in entries() if e.pool is not None and e.pool.startswith("bench.pool.")}
    return any(stem == m or stem.startswith(m + "_") for m in modules - games)


class GameLog:
    """``--log FILE``: the finished games of a long run, one JSON line each, so a run that stops
    (a session ends, the machine is needed) goes on where it stopped. A line counts only if the
    code that played it is this code (:func:`code_fingerprint`); other lines are kept, unused."""

    def __init__(self, path: str, slugs: Sequence[str]) -> None:
        self.path = path
        self.code = code_fingerprint(slugs)
        self.entries: dict[str, dict[str, Any]] = {}
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue  # a line cut short when a run was stopped
                    if isinstance(entry, dict) and entry.get("code") == self.code:
                        self.entries[str(entry.get("key"))] = entry
        except FileNotFoundError:
            pass

    @staticmethod
    def key(task: Task) -> str:
        return json.dumps(
            [task.slug, task.matchup, list(task.kinds), task.seat, task.seed, task.stand_in, list(task.options)],
            default=str,
        )

    def known(self, tasks: Sequence[Task]) -> tuple[list[GameResult], list[Task]]:
        """The games of ``tasks`` read back from the file, and the tasks still to play."""
        out: list[GameResult] = []
        left: list[Task] = []
        for task in tasks:
            entry = self.entries.get(self.key(task))
            if entry is None:
                left.append(task)
                continue
            score, wall, cpu = float(entry["score"]), dict(entry["wall"]), dict(entry["cpu"])
            out.append((task, score, wall, cpu, bool(entry.get("unfinished", False))))
        return out, left

    def recorded(self, before: list[GameResult], results: Iterable[GameResult]) -> Iterable[GameResult]:
        """The games read back, then each new one as it finishes, appended to the file first."""
        yield from before
        with open(self.path, "a", encoding="utf-8") as f:
            for task, score, wall, cpu, stopped in results:
                entry = {
                    "code": self.code,
                    "key": self.key(task),
                    "score": score,
                    "wall": wall,
                    "cpu": cpu,
                    "unfinished": stopped,
                }
                f.write(json.dumps(entry) + "\n")
                f.flush()
                yield task, score, wall, cpu, stopped
