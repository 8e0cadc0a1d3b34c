"""The match service stores and announces seeded matches exactly as the recording made before its
rebuild (tests/golden/service.py): the same action rows (seat, JSON, auto flag, time), the same
match and seat rows, and the same notifications in the same order."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.golden.service import load, play

GOLDEN = load()


@pytest.mark.parametrize("recorded", GOLDEN, ids=[f"{g['game']}-{g['seed']}" for g in GOLDEN])
async def test_service_plays_the_recorded_matches_identically(recorded: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        now = await play(recorded["game"], recorded["seed"], Path(tmp))
    assert now["actions"] == recorded["actions"]
    assert now["match"] == recorded["match"]
    assert now["seats"] == recorded["seats"]
    assert now["notices"] == recorded["notices"]
