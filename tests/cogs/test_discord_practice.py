"""Practice against the computer through discord.py's real objects and the fake Discord (every
payload checked against Discord's schema, rate limits enforced): /practice for each game played
to the end by a player clicking the bot's prompts while the computer moves by itself (a thread, a
live board, prompts, the end card saying "Practice: unrated", no rating, a replayable log); the
Hint button (an ephemeral answer with a move and a chance; refused for another player, an old
prompt or a match without computers); /hint; computer seats at a Magic Duel table through
/challenge; bad input answered clearly with nothing created."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from db import RatingsRepository
from rules.match import Match, MatchLog
from tests.cogs.practice_flows import Learner, practice_args, said
from tests.discord_flows import in_match, latest_prompt, setup_players
from tests.discord_harness import HarnessError


@pytest.mark.slow
@pytest.mark.parametrize("slug", ["wizards-cup", "firewall", "magic-duel", "arena"])
async def test_practice_plays_a_whole_match_against_the_computer(practice_bot, slug):
    h, bot, db = await practice_bot()
    guild, ch, ann, bob = setup_players(h)
    computers = 2 if slug == "magic-duel" else 1
    r = await h.slash(ann, ch, "practice", practice_args(slug, computers=computers))
    assert "is on" in r.message.text() and "practice match against the computer: not rated" in r.message.text()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    assert record.practice and record.seats[0].user_id == ann.id and record.ai_seats == list(range(1, computers + 1))
    assert all(s.user_id < 0 and "(AI, easy)" in s.display_name for s in record.seats[1:])
    (thread,) = h.threads(ch)  # the match is told in its thread, as any match
    # the person's prompts carry a Hint button
    await bot.service.computers_settle()
    await h.settle()
    hinted = [m for m in h.server.messages.values() if any(c.startswith(f"hint:{record.id}:0:") for c in m.custom_ids)]
    assert hinted and (await bot.service.prompt(record.id, 0)).awaited
    tally = await Learner(h, bot, record.id, {0: ann}).play()
    await bot.service.computers_settle()
    await h.settle()
    done = await bot.service.get(record.id)
    assert str(done.status) == "finished" and done.outcome is not None
    assert tally.moves > 0 and bot.service.computer.decisions > 0
    # never a DM to a computer: every DM channel opened is a person's
    recipients = {int(q.json["recipient_id"]) for q in h.requests if q.path == "/users/@me/channels"}
    assert recipients <= {ann.id}
    # the card: unrated, the computer named as such; nothing rated
    card = [m for m in h.messages_in(thread) if any(c.startswith("end:rematch:") for c in m.custom_ids)]
    assert card and "Practice: unrated" in card[-1].text() and "Computer player" in card[-1].text()
    assert await RatingsRepository(db).changes_for_match(record.id) == []
    assert await db.fetchall("SELECT * FROM rating_queue") == []
    # recorded and replayable: the stored log replays to the stored outcome
    data = await bot.service.match_log(record.id)
    assert Match.replay(MatchLog.model_validate(data)).state.outcome is not None
    assert h.violations == [] and h.rate_limit_hits == []


@pytest.mark.slow
async def test_hint_button_answers_privately_and_refuses_others_and_old_prompts(practice_bot):
    h, bot, db = await practice_bot("hint")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", {"game": "firewall", "level": "normal"})
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    assert sp.awaited
    cid = f"hint:{record.id}:0:{sp.seat_step}"
    prompt = latest_prompt(h.dms_to(ann))
    assert cid in prompt.custom_ids
    before = await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (record.id,))
    # the player's click: an ephemeral hint with a move and a chance
    mine = await h.click(ann, prompt, cid)
    await h.settle()
    assert mine.ephemeral and "💡 **Hint**" in said(mine) and "You bet" in said(mine) and "%**" in said(mine)
    assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (record.id,)) == before
    # /hint does the same
    slash = await h.slash(ann, ch, "hint")
    await h.settle()
    assert "💡 **Hint**" in said(slash)
    # once the player has moved, the old button is stale
    action = sp.legal_actions[0]
    await bot.service.submit(record.id, ann.id, action, seat_step=sp.seat_step)
    await h.settle()
    stale = await h.click(ann, prompt, cid)
    await h.settle()
    assert "earlier move" in said(stale) or "not your move" in said(stale), said(stale)
    assert h.violations == []


@pytest.mark.slow
async def test_an_arena_hint_is_on_the_players_private_panel(practice_bot):
    h, bot, db = await practice_bot("arena-hint")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", practice_args("arena"))
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    cid = f"hint:{record.id}:0:{sp.seat_step}"
    (thread,) = h.threads(ch)
    assert not [m for m in h.messages_in(thread) if cid in m.custom_ids]  # nothing of Arena's controls there
    panel = [m for m in h.dms_to(ann) if cid in m.custom_ids]  # Ann's own control panel
    assert panel
    with pytest.raises(HarnessError, match="cannot see"):
        await h.click(bob, panel[-1], cid)  # nobody else can even see it
    assert bot.service.computer._hinting == set()
    mine = await h.click(ann, panel[-1], cid)
    await h.settle()
    assert "💡 **Hint**" in said(mine)


async def test_hints_are_refused_outside_practice_matches(practice_bot):
    h, bot, db = await practice_bot("nohint")
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "challenge", {"game": "firewall", "opponent": bob})
    await h.click(bob, r.message, label="Accept")
    await h.settle()
    prompt = latest_prompt(h.dms_to(ann))
    assert not any(c.startswith("hint:") for c in prompt.custom_ids)  # no button on a rated match
    refused = await h.slash(ann, ch, "hint")
    assert "no practice match" in said(refused)


@pytest.mark.slow
async def test_computer_seats_at_a_magic_duel_table(practice_bot):
    h, bot, db = await practice_bot("table")
    guild, ch, ann, bob = setup_players(h)
    args = {"game": "magic-duel", "opponent": bob, "computers": 2, "level": "easy", "options": "points_to_win=1"}
    r = await h.slash(ann, ch, "challenge", args)
    text = r.message.text()
    assert "Merlin (AI, easy)" in text and "Morgana (AI, easy)" in text and "not rated" in text
    (record,) = await bot.service.live_matches_for(bob.id)
    assert [s.accepted for s in record.seats] == [True, False, True, True]  # the computers have accepted
    await h.click(bob, r.message, label="Accept")
    await h.settle()
    assert str((await bot.service.get(record.id)).status) == "active"
    await Learner(h, bot, record.id, {0: ann, 1: bob}).play()
    done = await bot.service.get(record.id)
    assert str(done.status) == "finished"
    assert await RatingsRepository(db).changes_for_match(record.id) == []  # the people are not rated either
    assert h.violations == []


@pytest.mark.slow
async def test_bad_practice_requests_are_answered_and_create_nothing(practice_bot):
    h, bot, db = await practice_bot("bad")
    guild, ch, ann, bob = setup_players(h)
    too_many = await h.slash(ann, ch, "practice", {"game": "firewall", "computers": 3})
    assert "Firewall seats at most 2 players" in said(too_many)
    bad_options = await h.slash(ann, ch, "practice", {"game": "arena", "options": "grid_size=99"})
    assert "grid_size" in said(bad_options)
    assert await db.fetchval("SELECT COUNT(*) FROM matches") == 0
    for _ in range(3):
        await h.slash(ann, ch, "practice", {"game": "wizards-cup", "level": "easy"})
        await h.settle()
    fourth = await h.slash(ann, ch, "practice", {"game": "wizards-cup"})
    assert "already have 3 practice matches" in said(fourth)
    assert await db.fetchval("SELECT COUNT(*) FROM matches") == 3
    await bot.service.computers_settle()
    await h.settle()
    assert len(h.threads(ch)) == 3 and all(m.channel_id for m in in_match(h, ch))


async def forged_click(h: Any, user: Any, channel_id: int, shown: dict[str, Any], custom_id: str) -> Any:
    """A click on ``custom_id`` of the message as ``shown`` (a client still showing it, or a forged one)."""
    data = {"custom_id": custom_id, "component_type": 2}
    payload = h.base_interaction(3, h.world.user(user), h.server.channels[int(channel_id)], data)
    payload["message"] = shown
    return await h.dispatch_interaction(payload, message_id=int(shown["id"]), wait=True, expect_response=True)


@pytest.mark.slow
async def test_play_this_submits_the_hinted_move_and_the_prompt_becomes_its_record(practice_bot):
    h, bot, db = await practice_bot("play-this")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", {"game": "firewall", "level": "normal"})
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    prompt = latest_prompt(h.dms_to(ann))
    hinted = await h.click(ann, prompt, f"hint:{record.id}:0:{sp.seat_step}")
    await h.settle()
    text = said(hinted)
    # the prompt's words ("cast", not the engine's "lay down") and a one-line reason
    assert "You bet" in text and " and cast " in text and "lay down" not in text, text
    why = [line for line in text.splitlines() if line.startswith("Why: ")]
    assert len(why) == 1 and "%" in why[0], text
    hint_msg = hinted.followups[-1] if hinted.followups else hinted.message
    play = f"hintplay:{record.id}:0:{sp.seat_step}"
    assert play in hint_msg.custom_ids
    hint = bot.service.computer._hints[(record.id, 0, sp.seat_step)]
    before = await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 0", (record.id,))

    # another player (a forged click on Ann's hint: her client alone shows it) is refused, nothing played
    shown = copy.deepcopy(hint_msg.payload)
    foreign = await forged_click(h, bob, ch.id, shown, play)
    assert foreign.ephemeral and "another player" in foreign.content
    assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 0", (record.id,)) == before

    # Play this: the hinted move, through the same path as a click; the prompt becomes its record
    played = await h.click(ann, hint_msg, play)
    await h.settle()
    assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 0", (record.id,)) == before + 1
    row = await db.fetchone(
        "SELECT seat, action FROM actions WHERE match_id = ? AND seat = 0 ORDER BY idx DESC LIMIT 1", (record.id,)
    )
    assert row["seat"] == 0 and json.loads(row["action"]) == hint.action
    assert played.message.id == hint_msg.id and "▶️ Played as hinted" in hint_msg.content and not hint_msg.components
    assert not prompt.components and "You bet" in prompt.content, prompt.content  # the record of the move
    assert (await bot.service.prompt(record.id, 0)).seat_step != sp.seat_step or not (
        await bot.service.prompt(record.id, 0)
    ).awaited
    assert 0 not in (await bot.messages.places(record.id)).prompts or (
        (await bot.messages.places(record.id)).prompts[0].message_id != prompt.id
    )

    # a second click (the client still shows the button) or any stale Play this: refused, no change
    await bot.service.computers_settle()
    await h.settle()
    after = await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 0", (record.id,))
    again = await forged_click(h, ann, hint_msg.channel_id, shown, play)
    assert again.ephemeral and "earlier move" in again.content and "nothing was played" in again.content
    assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 0", (record.id,)) == after
    assert h.violations == [] and h.bot_errors == []


@pytest.mark.slow
async def test_play_this_after_a_restart_works_the_hint_out_again(practice_bot):
    """The Play this button keeps nothing but match, seat and step: a hint no longer kept (a
    restart) is searched again with the same seed, and that move is played."""
    h, bot, db = await practice_bot("play-restart")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", {"game": "firewall", "level": "normal"})
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    prompt = latest_prompt(h.dms_to(ann))
    hinted = await h.click(ann, prompt, f"hint:{record.id}:0:{sp.seat_step}")
    await h.settle()
    hint_msg = hinted.followups[-1] if hinted.followups else hinted.message
    shown = bot.service.computer._hints.pop((record.id, 0, sp.seat_step))
    await h.click(ann, hint_msg, f"hintplay:{record.id}:0:{sp.seat_step}")
    await h.settle()
    row = await db.fetchone(
        "SELECT seat, action FROM actions WHERE match_id = ? AND seat = 0 ORDER BY idx DESC LIMIT 1", (record.id,)
    )
    assert row["seat"] == 0 and json.loads(row["action"]) == shown.action
    assert not prompt.components
    assert h.violations == [] and h.bot_errors == []


@pytest.mark.slow
async def test_play_this_on_an_arena_panel_leaves_the_panel_the_record_of_the_move(practice_bot):
    """A control-panel game: Play this makes the move, the panel becomes its record, and the next
    step comes as a prompt of its own (the hint is never turned into the panel)."""
    h, bot, db = await practice_bot("arena-play")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", practice_args("arena"))
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    cid = f"hint:{record.id}:0:{sp.seat_step}"
    panel = [m for m in h.dms_to(ann) if cid in m.custom_ids][-1]
    mine = await h.click(ann, panel, cid)
    await h.settle()
    hint_msg = mine.followups[-1] if mine.followups else mine.message
    count = "SELECT COUNT(*) FROM actions WHERE match_id = ? AND seat = 0"
    before = await db.fetchval(count, (record.id,))
    await h.click(ann, hint_msg, f"hintplay:{record.id}:0:{sp.seat_step}")
    await h.settle()
    assert await db.fetchval(count, (record.id,)) == before + 1
    assert "▶️ Played as hinted" in hint_msg.content and not hint_msg.components
    assert not panel.components
    assert h.violations == [] and h.bot_errors == []
