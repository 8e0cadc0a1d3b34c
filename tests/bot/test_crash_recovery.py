"""Nothing a player must be told is lost in a crash: a real bot process (tests/crash_bot.py, the
client as ``build_bot`` makes it, its timer loop on) is killed with SIGKILL after the start of a
match was committed and before any of its notices reached Discord; a new process on the same
database and the same (persisted) fake Discord delivers them from its own timer loop, nobody
calling tick: every awaited player gets their prompt within two timer periods, once."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DbTarget

ROOT = Path(__file__).resolve().parents[2]


#: PostgreSQL: the seconds a process's claims keep the other away (the bot's default is 60).
LEASE = 4


def run(*args: str, env: dict[str, Any] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.crash_bot", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
    )


@pytest.mark.slow
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


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.postgres
def test_a_survivor_delivers_a_dead_processs_notices_after_their_lease(pg_target: DbTarget, tmp_path: Path) -> None:
    """Two bot processes on one PostgreSQL database, each the real client with its timer loop on,
    each in its own fake Discord (copies of one world). One commits the start of a match and is
    killed before telling anyone: its notices are claimed by it for their lease. The survivor's own
    timer loop (nobody calls tick) leaves them alone until the lease ends, then delivers them
    within two of its runs: Ann and Bob each get their prompt, once."""
    world_a, world_b = tmp_path / "a.journal", tmp_path / "b.journal"
    env = {**os.environ, "CRASH_LEASE": str(LEASE)}
    made = run("setup", pg_target.url, str(world_a), env=env)
    assert made.returncode == 0, made.stderr[-3000:]
    shutil.copy(world_a, world_b)
    survivor = subprocess.Popen(
        [sys.executable, "-m", "tests.survivor_bot", pg_target.url, str(world_b)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert survivor.stdout is not None and survivor.stdin is not None
        assert json.loads(survivor.stdout.readline()) == {"ready": True}, survivor.stderr
        dead = run("start", pg_target.url, str(world_a), env=env)
        assert dead.returncode == -signal.SIGKILL, dead.stderr[-3000:]
        survivor.stdin.write("died\n")
        survivor.stdin.flush()
        out, err = survivor.communicate(timeout=120)
    finally:
        if survivor.poll() is None:
            survivor.kill()
    assert survivor.returncode == 0, err[-3000:]
    report = json.loads(out.strip().splitlines()[-1])
    assert report["early"] is False, report  # the lease held: nothing delivered before it ended
    assert report["by"] is not None and report["by"] <= 2, report  # within two runs after the lease
    for player in ("ann", "bob"):
        (prompt,) = report["prompts"][player]  # once
        assert "Wizards Cup" in prompt
