"""``python -m bench web`` (issue 35, part 6; bench/web.py): the command runs the web table with
its clients in another process and writes every key the issue names, with real figures: every
move reached every watcher of its match, no error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import web as bench_web

KEYS = ["page_p50_ms_200_viewers", "page_p99_ms_200_viewers", "push_p99_ms_1000_watchers", "kb_per_watcher", "errors"]


@pytest.mark.slow
def test_the_command_writes_every_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "web.json"
    argv = ["--viewers", "5", "--watchers", "40", "--seconds", "0.5", "--moves", "6", "--interval", "0.05"]
    code = bench_web.main(argv, quick=True, json_path=str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(KEYS) <= set(data) and data["errors"] == 0
    assert data["viewers"] == 5 and data["watchers"] == 40 and data["pages_loaded"] > 0
    # 40 watchers over the 20 matches, 2 each; 6 moves in 6 matches: each seen by its 2 watchers
    assert data["pushes"] == 6 * 40 // bench_web.MATCHES
    assert 0 < data["page_p50_ms_200_viewers"] <= data["page_p99_ms_200_viewers"]
    assert set(data["page_p50_ms_by_game"]) == set(bench_web.GAMES)  # every game's pages measured
    assert data["push_p99_ms_1000_watchers"] > 0 and data["kb_per_watcher"] >= 0
    assert code == (0 if data["push_p99_ms_1000_watchers"] <= bench_web.PUSH_GOAL_MS else 1)
    assert "push p99 ms" in capsys.readouterr().out
