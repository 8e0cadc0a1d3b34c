"""A restart in the middle of a tournament round, through the fake Discord (issue 18, part 5): a
4-player, 3-round Swiss tournament of Wizards Cup in round 2, one match of the round finished and
one still being played, when the bot process is replaced: a new client with new services on the
same database file, in a fake Discord that has the same server, channel and members
(``RecordingIds``) and, as a real Discord would, still has the tournament message. The live match
goes on and finishes, the round is recorded, round 3 is paired and played, the tournament ends with
its champion, and the one tournament message is edited in place (never posted again)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.client import build_bot
from bot.matches import MatchStatus
from bot.settings import Settings
from db import Database
from tests.cogs.tournament_flows import create, move_once, play_to_end
from tests.discord_flows import SEED, RecordingIds, forget_posted_messages, setup_players
from tests.discord_harness.tournament import presenter_on_harness_clock


def rows(path: Path, query: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(query, params).fetchall()
    finally:
        conn.close()


def tournament_messages(h: Any, ch: Any) -> list[Any]:
    return [m for m in h.messages_in(ch) if m.embeds and "Tournament #" in m.text() and "Players" in m.text()]


@pytest.mark.slow
async def test_a_restart_in_the_middle_of_a_round_continues_in_discord(make, discord_harness, tmp_path):
    path = tmp_path / "t.sqlite3"
    h, bot, db = await make(path)
    presenter_on_harness_clock(bot, h)
    ids = h.server.ids = RecordingIds(h.server.ids)
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
    world = list(ids.given)

    r = await create(h, ch, ann, rounds=3)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    for user in players:
        await h.click(user, msg, label="Join")
    await h.slash(ann, ch, "tournament start", {})
    await h.settle()

    # round 1 is played to its end: round 2 starts
    rng = random.Random(11)
    view = await bot.tournaments.view(tid)
    for link in view.current_links().values():
        while await move_once(bot, link.match_id, rng):
            h.advance(3)
    await bot.service.settle()
    await bot.tick_tournaments()
    await h.settle()
    view = await bot.tournaments.view(tid)
    assert view.tournament is not None and view.tournament.current_round is not None
    assert view.tournament.current_round.number == 2
    assert "Round 2 of 3" in msg.text()
    # round 2: the first match is finished, the second has begun (a few moves) and is live
    first, second = [link.match_id for link in view.current_links().values()]
    while await move_once(bot, first, rng):
        h.advance(3)
    for _ in range(3):
        assert await move_once(bot, second, rng)
        h.advance(3)
    await bot.service.settle()
    await bot.tick_tournaments()
    await h.settle()
    assert (await bot.service.get(first)).status is MatchStatus.FINISHED
    assert (await bot.service.get(second)).status is MatchStatus.ACTIVE
    steps_before = rows(path, "SELECT COUNT(*) FROM actions WHERE match_id = ?", second)[0][0]
    state_before = rows(path, "SELECT version, state, message_id FROM tournaments WHERE id = ?", tid)[0]
    assert state_before[2] == msg.id
    edits_before = len(msg.history)
    announced = [m for m in h.messages_in(ch) if "round 2 of 3 starts" in m.text()]
    assert len(announced) == 1
    await h.close()
    await db.close()

    # a new process: a new client and services on the same database file, in a fake Discord with
    # the same ids (and the same application, so the bot may edit its own message), which still
    # has the tournament message, as Discord keeps it; the matches' own posts are forgotten
    db2 = await Database.open(path)
    try:
        settings = Settings(discord_token="test-token", database_path=str(path), render_images=True)
        bot2 = build_bot(settings, db2, run_timers=False)
        bot2.service._seed_factory = lambda: SEED
        h2 = await discord_harness(bot2, app_id=h.app_id)
        presenter_on_harness_clock(bot2, h2)
        h2.server.ids = RecordingIds(h2.server.ids, replay=world)
        guild, ch, ann, bob = setup_players(h2)
        for name in ("cy", "di"):
            h2.add_member(guild, name)
        h2.server.messages[msg.id] = msg
        await forget_posted_messages(db2)
        assert rows(path, "SELECT version, state, message_id FROM tournaments WHERE id = ?", tid)[0] == state_before

        # the recovered service knows the round: the finished match recorded, the live one still on
        view = await bot2.tournaments.view(tid)
        assert view.status.value == "running"
        assert view.tournament is not None and view.tournament.current_round is not None
        assert view.tournament.current_round.number == 2
        links = view.current_links()
        assert {link.match_id for link in links.values()} == {first, second}
        assert [link.recorded for link in links.values() if link.match_id == first] == [True]
        assert [link.recorded for link in links.values() if link.match_id == second] == [False]
        record = await bot2.service.get(second)
        assert record.status is MatchStatus.ACTIVE
        assert rows(path, "SELECT COUNT(*) FROM actions WHERE match_id = ?", second)[0][0] == steps_before

        view = await play_to_end(h2, bot2, tid, seed=5)
        assert view.status.value == "finished"
        assert (await bot2.service.get(second)).status is MatchStatus.FINISHED
        t = view.tournament
        assert t is not None and t.champion is not None and len(t.rounds) == 3
        assert all(m.result is not None for rnd in t.rounds for m in rnd.matches)
        assert rows(path, "SELECT recorded FROM tournament_matches WHERE match_id = ?", second) == [(1,)]
        assert rows(path, "SELECT COUNT(*) FROM tournament_events WHERE tournament_id = ? AND delivered = 0", tid) == [
            (0,)
        ]

        # the one tournament message, edited in place after the restart, shows the champion
        name = view.record.name_of(t.champion)
        assert [m.id for m in tournament_messages(h2, ch)] == [msg.id]
        assert len(msg.history) > edits_before
        assert "Finished" in msg.text() and f"🥇 {name}" in msg.text()
        edits = [r for r in h2.requests_for("PATCH", "/channels/{channel_id}/messages/{message_id}")]
        assert any(str(msg.id) == str(r.params.get("message_id")) for r in edits)
        cards = [m for m in h2.messages_in(ch) if m.embeds and f"{name} wins tournament #{tid}" in m.text()]
        assert len(cards) == 1
        assert not [m for m in h2.messages_in(ch) if "round 2 of 3 starts" in m.text()]  # not announced again
        assert len([m for m in h2.messages_in(ch) if "round 3 of 3 starts" in m.text()]) == 1  # the round advanced
        assert not h2.violations
    finally:
        if not db2.closed:
            await db2.close()
