"""Nothing a player must be told is lost in a crash: a real bot process (tests/crash_bot.py, the
client as ``build_bot`` makes it, its timer loop on) is killed with SIGKILL after the start of a
match was committed and before any of its notices reached Discord; a new process on the same
database and the same (persisted) fake Discord delivers them from its own timer loop, nobody
calling tick: every awaited player gets their prompt within two timer periods, once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.crash_bot", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_a_bot_killed_between_commit_and_delivery_delivers_after_restart(tmp_path: Path) -> None:
    db, world = str(tmp_path / "bot.sqlite3"), str(tmp_path / "world.journal")
    first = run("start", db, world)
    assert first.returncode == -signal.SIGKILL, first.stderr[-3000:]
    second = run("resume", db, world)
    assert second.returncode == 0, second.stderr[-3000:]
    out = json.loads(second.stdout.strip().splitlines()[-1])
    assert out["awaited"] == ["ann", "bob"]  # the accepted start survived the kill
    assert out["ticks"] is not None and out["ticks"] <= 2, out  # within two timer periods (three ran: nothing twice)
    for player in out["awaited"]:
        (prompt,) = out["prompts"][player]  # delivered once, after the restart
        assert f"Match #{out['match']}" in prompt or "Wizards Cup" in prompt
    assert sum("begins" in text for text in out["channel"]) == 1  # the start post, once
    assert out["outbox"] == 0  # everything delivered is deleted from the outbox


def test_a_computer_player_left_waiting_by_a_kill_moves_after_restart(tmp_path: Path) -> None:
    """A practice match whose start was committed and whose computer player was asked to move when
    the process was killed: the restarted client's timer loop starts it thinking (nobody calls
    tick), and it moves."""
    db, world = str(tmp_path / "bot.sqlite3"), str(tmp_path / "world.journal")
    first = run("practice", db, world)
    assert first.returncode == -signal.SIGKILL, first.stderr[-3000:]
    second = run("resume-practice", db, world)
    assert second.returncode == 0, second.stderr[-3000:]
    out = json.loads(second.stdout.strip().splitlines()[-1])
    assert out["waited"] is not None, out  # the computer moved
