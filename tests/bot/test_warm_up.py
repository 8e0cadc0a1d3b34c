"""Start-up warms every game (issue 33, part 4; rules/warm.py): ``MatchService.recover`` loads and
plays each registered game a few steps in memory, so the first move of each game after a restart
does not pay the game's import and first-use caches (``python -m bench service`` measures it)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rules import warm
from rules.registry import game_slugs

ROOT = Path(__file__).resolve().parents[2]


def test_warm_up_plays_every_game_once_per_process() -> None:
    warm._warmed.clear()
    took = warm.warm_up()
    assert sorted(took) == sorted(game_slugs())
    assert all(seconds > 0 for seconds in took.values())
    assert warm.warm_up() == dict.fromkeys(game_slugs(), 0.0)  # already warm: nothing played again


@pytest.mark.slow
def test_recover_at_start_up_loads_every_game_before_any_move() -> None:
    """A fresh interpreter (the bot after a restart): no game engine is loaded until ``recover``
    runs, and every one is loaded after it, with no match touched."""
    script = textwrap.dedent(
        """
        import asyncio, json, sys
        from bot.matches import MatchService
        from db import Database
        from rules.registry import game_slugs, _GAMES

        def loaded():
            return sorted(s for s in game_slugs() if _GAMES[s].game.split(":")[0] in sys.modules)

        async def main():
            db = await Database.open(":memory:")
            service = MatchService(db)
            before = loaded()
            await service.recover()
            print(json.dumps({"before": before, "after": loaded(), "games": sorted(game_slugs())}))
            await service.close()
            await db.close()

        asyncio.run(main())
        """
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["before"] == []
    assert seen["after"] == seen["games"] == sorted(["arena", "firewall", "magic-duel", "wizards-cup"])
