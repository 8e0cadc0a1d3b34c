"""Discord's rate limits over whole matches: one full match of each game, played by the real bot
inside the fake Discord with the rate limits enforced (5 messages per 5 s per channel, 50 requests
per second, per-route and per-token buckets), must draw no 429 from Discord.

The players click their prompts (tests/discord_harness/traffic.py, which ``python -m bench
traffic`` runs too: a seeded player that clicks random enabled components until the move is made),
a move every 2 s on the harness's clock (a player's think time); the bot posts to the match's
thread and DMs as it always does. Every other end-to-end test runs with the limits enforced too
(``RATE_LIMITS_DEFAULT``): any 429 fails it.
"""

from __future__ import annotations

import pytest

from tests.discord_harness.traffic import play

THINK = 2.0
SEED = 20261121
MATCHES = [
    pytest.param("wizards-cup", 2, None, id="wizards-cup"),
    pytest.param("firewall", 2, None, id="firewall"),
    pytest.param("magic-duel", 3, "points_to_win=2", id="magic-duel"),
    # ten game turns, as ``python -m bench traffic --quick`` (108 moves, 25 player turns; no limit: 335)
    pytest.param("arena", 2, "grid_size=8 terrain_count=4 game_turn_limit=10", id="arena"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "seats", "options"), MATCHES)
async def test_a_full_match_draws_no_429(tmp_path, slug, seats, options):
    figures = await play(slug, think=THINK, seed=SEED, images=True, workdir=tmp_path, seats=seats, options=options)
    assert figures["detail"]["status"] == "finished" and figures["moves"] > 0
    assert figures["http_429"] == 0, f"{slug}: Discord answered 429 {figures['http_429']} times:\n" + "\n".join(
        figures["detail"]["rate_limited"]
    )
