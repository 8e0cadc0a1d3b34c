"""One thread and one live board per match (cogs/placement.py), the same machinery for every game:
the thread named after the game and players, started from the challenge message; the challenge
message as the match's one message in the channel (challenge -> on, with a link -> result); one
board edited in place, replaced when it is old; story posts only at story moments; the in-channel
fallback where threads are off or not allowed (and why); the server's match channel; the next
prompt as a follow-up of the player's own click (no rate-limited DM). Rate limits are enforced."""

from __future__ import annotations

import dataclasses
import time

import pytest

from tests.cogs.firewall_flows import by_head
from tests.cogs.firewall_flows import challenge_and_accept as firewall_match
from tests.cogs.settings_perms import THREAD_PERMS, USUAL
from tests.cogs.wizards_cup_flows import answer, challenge_and_accept, play_seat, play_to_the_end
from tests.discord_flows import is_card, setup_players

NO_THREADS = USUAL & ~THREAD_PERMS  # what the README asks for, without the two thread permissions


def boards(h, where):
    """The match cards (components v2) and end-of-match cards (embeds) in ``where``."""
    return [
        m for m in h.messages_in(where) if is_card(m) or (m.embeds and " · match #" in (m.embeds[0].get("title") or ""))
    ]


@pytest.mark.slow
async def test_a_match_is_told_in_its_own_thread_with_one_live_board(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    (thread,) = h.threads(ch)
    assert thread.payload["name"] == "Wizards Cup: ann vs bob"
    challenge = h.messages_in(ch)[0]
    assert h.thread_of(challenge) is thread  # started from the challenge message
    assert f"is on: ann vs bob. Follow the match in <#{thread.id}>" in challenge.content
    # the channel keeps just the challenge message (and the thread's system notice, if any)
    assert [m for m in h.messages_in(ch) if m.author_id == bot.user.id] == [challenge]
    (board,) = boards(h, thread)
    assert is_card(board) and not board.content and not board.embeds  # one components-v2 match card
    assert {int(u["id"]) for u in board.payload["mentions"]} == {ann.id, bob.id}  # the players are pinged in it
    assert "Waiting for **ann**, **bob** · due <t:" in board.text()

    await play_to_the_end(h, bot, match_id, [ann, bob], ch)
    record = await bot.service.get(match_id)
    assert record.status == "finished"
    # the last story post carries the end-of-match card (first) and is the board now; the old
    # board was edited once into a link to it (nothing stale left, no extra message)
    (card,) = boards(h, thread)
    assert card is h.messages_in(thread)[-1] and "🏁" in card.text() and "Duel" in card.text()
    retired = [m for m in h.messages_in(thread) if m.edited and "is over: the result is at" in m.text()]
    assert len(retired) == 1 and f"/{card.channel_id}/{card.id}" in retired[0].text() and not retired[0].attachments
    assert f"<@{ann.id}>" in card.content and f"<@{bob.id}>" in card.content  # the end pings the players
    stories = [m for m in h.messages_in(thread) if m.embeds]
    duels = sum(
        1 for m in h.messages_in(thread) for e in m.embeds for f in e.get("fields") or [] if "Duel" in f["name"]
    )
    assert stories and duels and len(stories) <= duels  # never more than one post per resolution
    assert not any(m.deleted for m in h.messages_in(thread, include_deleted=True))  # nothing deleted
    assert "is over" in challenge.content and f"The whole match: <#{thread.id}>" in challenge.content
    assert challenge.embeds[0]["title"] == card.embeds[0]["title"]  # the same card in the channel
    assert h.rate_limit_hits == [] and h.violations == []


@pytest.mark.slow
async def test_no_thread_permission_plays_in_the_channel_and_says_why(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild = h.add_guild("Strict", everyone_permissions=NO_THREADS, bot_permissions=NO_THREADS)
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    assert h.threads(ch) == [] and h.requests_for("POST", "/channels/{channel_id}/messages/{message_id}/threads") == []
    (board,) = boards(h, ch)
    assert "not in a thread: I lack Create Public Threads and Send Messages in Threads" in board.text()
    assert (await bot.service.get(match_id)).status == "active"
    # after a restart (nothing kept in memory) the next edit of the board still says why
    bot.service.notifier.table._why_no_thread.clear()
    seen = board.text()
    while seen == board.text():  # the Decks, then the first round's plans: the round resolves
        for seat, user in enumerate((ann, bob)):
            await play_seat(h, bot, match_id, seat, user, ch)
        await h.settle()
    assert (await bot.service.get(match_id)).status == "active"
    assert board.edited and board.text().count("not in a thread: I lack Create Public Threads") == 1


async def test_threads_off_in_settings_plays_in_the_channel(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    await bot.servers.update(guild.id, ann.id, threads=False)
    await challenge_and_accept(h, bot, ch, ann, bob)
    assert h.threads(ch) == []
    (board,) = boards(h, ch)
    assert "not in a thread" not in board.text()  # the server chose it: nothing to explain


@pytest.mark.slow
async def test_an_old_board_is_replaced_by_a_fresh_one_linked_from_the_old(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    (thread,) = h.threads(ch)
    (old,) = boards(h, thread)
    places = await bot.messages.places(match_id)
    places.board = dataclasses.replace(places.board, posted_at=int(time.time()) - 3600)  # an hour old
    for _ in range(6):  # until a resolution moves the board
        await play_seat(h, bot, match_id, 0, ann, ch)
        await play_seat(h, bot, match_id, 1, bob, ch)
        if old.text().startswith("📌") or (await bot.service.get(match_id)).status != "active":
            break
    assert (await bot.service.get(match_id)).status == "active"  # the board moved during the match
    fresh = boards(h, thread)[-1]
    assert fresh is not old and old.text().startswith(f"📌 Match #{match_id}: the board moved to ")
    assert old.embeds == [] and old.attachments == [] and str(fresh.id) in old.text()
    assert (await bot.messages.places(match_id)).board.message_id == fresh.id


@pytest.mark.slow
async def test_the_servers_match_channel_takes_the_challenge(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    arena = h.add_text_channel(guild, "arena")
    await bot.servers.update(guild.id, ann.id, channel_id=arena.id)
    r = await h.slash(ann, ch, "challenge", {"opponent": bob, "game": "wizards-cup"})
    assert r.ephemeral and f"played in <#{arena.id}>" in r.content
    (msg,) = h.messages_in(arena)
    assert "challenges" in msg.text() and h.messages_in(ch) == []
    await h.click(bob, msg, label="Accept")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    assert record.channel_id == arena.id and len(h.threads(arena)) == 1


@pytest.mark.slow
async def test_the_next_prompt_follows_up_the_players_own_click_not_a_new_dm(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    dm_posts = lambda: [  # noqa: E731
        r
        for r in h.requests_for("POST", "/channels/{channel_id}/messages")
        if h.server.channels[int(r.params["channel_id"])].is_dm
    ]
    first = len(dm_posts())
    assert first == 2  # the opening prompts: one DM each
    await play_seat(h, bot, match_id, 0, ann, ch)
    await play_seat(h, bot, match_id, 1, bob, ch)
    # the next prompts arrived in the DMs as follow-ups of each player's own click
    assert len(dm_posts()) == first
    followups = h.requests_for("POST", "/webhooks/{webhook_id}/{webhook_token}")
    assert len(followups) >= 2
    for user in (ann, bob):
        dms = [m for m in h.dms_to(user) if m.components]
        assert dms and dms[-1].kind == "followup"
    # the answered prompts became records of what was played
    assert all("Locked in" in m.content for u in (ann, bob) for m in h.dms_to(u) if m.edited and not m.components)
    await answer(h, ann, [m for m in h.dms_to(ann) if m.components][-1])
    assert h.rate_limit_hits == []


@pytest.mark.slow
async def test_a_prompt_shows_the_situation_and_a_click_does_not_upload_it_again(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    await firewall_match(h, bot, ch, ann, bob)
    dm = [m for m in h.dms_to(ann) if m.components][-1]
    # the bridge at full size (never a thumbnail), named by what it shows
    (picture,) = dm.attachments
    assert picture["filename"].startswith("firewall-bridge-")
    assert dm.embeds[0]["image"]["url"] == f"attachment://{picture['filename']}"
    callbacks = len(h.requests_for("POST", "/interactions/{interaction_id}/{interaction_token}/callback"))
    await h.click(ann, dm, by_head(dm, "ta")["custom_id"])  # all in: the next screen of the same prompt
    (edit,) = h.requests_for("POST", "/interactions/{interaction_id}/{interaction_token}/callback")[callbacks:]
    assert edit.files == []  # the same bridge: kept, not uploaded again
    assert [str(a["id"]) for a in edit.json["data"]["attachments"]] == [str(picture["id"])]
    assert "Bet: **50**" in dm.text() and dm.attachments == [picture]
