"""Wizards Cup end to end through discord.py's real objects and the fake transport: challenge,
accept, DM prompts, the closed-DM fallback, resolution embeds, stale and foreign clicks, time-outs
and a restart in the middle of a match. Every request body is validated against Discord's schema
by the harness."""

from __future__ import annotations

import pytest

from tests.cogs.wizards_cup_flows import answer, challenge_and_accept, play_to_the_end
from tests.discord_flows import RecordingIds, forget_posted_messages, in_match, latest_prompt, setup_players
from tests.running_timer import timer_pass


@pytest.mark.slow
async def test_full_match_with_dm_and_closed_dm_fallback(make, tmp_path):
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    h.close_dms(bob)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)

    # Ann got her deck prompt by DM; Bob's DM failed, so the channel offers the private button
    dm = latest_prompt(h.dms_to(ann))
    assert dm is not None and "choose your Deck" in dm.text()
    assert h.dms_to(bob) == []
    fallback = [m for m in in_match(h, ch) if any(c.startswith("open:") for c in m.custom_ids)]
    assert fallback and f"<@{bob.id}>" in fallback[-1].content

    # someone else cannot open Bob's private prompt
    r = await h.click(ann, fallback[-1], fallback[-1].custom_ids[0])
    assert r.ephemeral and "Only the player" in r.content

    # a private choice posts nothing in the thread (its board moves at the next resolution, not at
    # every "ann is ready"), and the thread never says what anyone chose
    before = len(in_match(h, ch))
    await answer(h, ann, dm)
    assert in_match(h, ch)[before:] == []
    posted = " ".join(m.text() for m in in_match(h, ch))
    view = await bot.service.view(match_id, 0)
    public = {p["random_pick"] for p in view["players"]}
    from rules.wizards_cup import load_card_set

    secret = [c for c in view["you"]["deck"][1:] if c not in public]
    assert secret and not any(load_card_set()[c].name in posted for c in secret)

    await play_to_the_end(h, bot, match_id, [ann, bob], ch)
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.summary
    channel_text = "\n".join(m.text() for m in in_match(h, ch))
    assert "Duel 1:" in channel_text and ("Element" in channel_text or "Value" in channel_text)
    assert "The Wizards Cup is decided" in channel_text
    # each story post draws its duels, one row each, shown by the embed of its first duel
    drawn = [m for m in in_match(h, ch) if any(a["filename"].startswith("wc-duels-") for a in m.attachments)]
    assert drawn
    for m in drawn:
        (picture,) = [a["filename"] for a in m.attachments if a["filename"].startswith("wc-duels-")]
        assert any(e.get("image", {}).get("url") == f"attachment://{picture}" for e in m.embeds)
    # the action log was committed: one row per accepted action, chance included
    rows = await db.actions.for_match(match_id)
    assert len(rows) >= 6 and rows[0].seat is None
    assert h.violations == []


async def test_stale_prompt_and_double_submission_are_refused(make, tmp_path):
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    dm = latest_prompt(h.dms_to(ann))
    # Ann also opens the same prompt privately from /status
    st = await h.slash(ann, ch, "status")
    opener = st.message
    await h.click(ann, opener, next(c for c in opener.custom_ids if c.startswith("open:")))
    await h.settle()
    eph = latest_prompt(h.ephemeral_responses_to(ann))
    sel = eph.selects[0]
    await h.select(ann, eph, sel["custom_id"], [o["value"] for o in sel["options"]][:5])
    await h.settle()
    steps = await bot.service.seat_step(match_id, 0)
    # the DM copy is now out of date: refused, nothing changes
    sel = dm.selects[0]
    r = await h.select(ann, dm, sel["custom_id"], [o["value"] for o in sel["options"]][-5:])
    await h.settle()
    assert r.ephemeral and "out of date" in (r.content + " ".join(m.content for m in r.followups))
    assert await bot.service.seat_step(match_id, 0) == steps


@pytest.mark.slow
async def test_timeout_forfeits_the_player_who_did_not_act(make, tmp_path):
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    await answer(h, ann, latest_prompt(h.dms_to(ann)))  # deck
    await answer(h, ann, latest_prompt(h.dms_to(ann)))  # order
    record = await bot.service.get(match_id)
    deadline = record.seats[1].deadline_at
    clock["now"] = deadline - 60  # within the reminder window
    await timer_pass(bot.service)
    await h.settle()
    assert any("⏰" in m.content for m in h.dms_to(bob))
    clock["now"] = deadline + 1
    await timer_pass(bot.service)
    await h.settle()
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.outcome["seats"][0]["result"] == "win"
    assert any("ran out of time" in m.text() for m in in_match(h, ch))


@pytest.mark.slow
async def test_nobody_acting_abandons_the_match(make, tmp_path):
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    clock["now"] += 10 * 3600
    await timer_pass(bot.service)
    await h.settle()
    assert (await bot.service.get(match_id)).status == "abandoned"
    assert any("abandoned" in m.text() for m in in_match(h, ch))


@pytest.mark.slow
async def test_restart_in_the_middle_of_a_match(make, tmp_path):
    path = tmp_path / "wc.sqlite3"
    h, bot, db = await make(path)
    ids = h.server.ids = RecordingIds(h.server.ids)
    guild, ch, ann, bob = setup_players(h)
    world = list(ids.given)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    await answer(h, ann, latest_prompt(h.dms_to(ann)))  # Ann's Deck is committed
    await h.close()
    await db.close()

    # a new process: a new client on the same database, in a fake Discord with the same ids
    h2, bot2, db2 = await make(path)
    h2.server.ids = RecordingIds(h2.server.ids, replay=world)
    await forget_posted_messages(db2)
    guild, ch, ann, bob = setup_players(h2)
    record = await bot2.service.get(match_id)
    assert record.status == "active" and record.seats[0].user_id == ann.id
    assert await bot2.service.seat_step(match_id, 0) == 1  # nothing acknowledged was lost
    await play_to_the_end(h2, bot2, match_id, [ann, bob], ch)
    assert (await bot2.service.get(match_id)).status == "finished"
    assert "The Wizards Cup is decided" in "\n".join(m.text() for m in in_match(h2, ch))


async def test_card_rules_and_status_commands(make, tmp_path):
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    ac = await h.autocomplete(ann, ch, "card", "name", "men", {"game": "wizards-cup"})
    assert [c["value"] for c in ac.choices] == ["mentor"]
    r = await h.slash(ann, ch, "card", {"game": "wizards-cup", "name": "mentor"})
    assert r.ephemeral and "The Mentor" in r.message.text()
    r = await h.slash(ann, ch, "card", {"game": "wizards-cup", "name": "nobody"})
    assert r.ephemeral and "nothing called 'nobody'" in r.content
    r = await h.slash(ann, ch, "rules", {"game": "wizards-cup"})
    assert "Element" in r.message.text()
    r = await h.slash(ann, ch, "status")
    assert "no live matches" in r.content
    r = await h.slash(ann, ch, "forfeit")
    assert r.ephemeral and "no live match" in r.content


@pytest.mark.parametrize("decliner", ["bob", "ann"])
async def test_decline_or_cancel(make, tmp_path, decliner):
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "challenge", {"opponent": bob, "game": "wizards-cup"})
    await h.click({"ann": ann, "bob": bob}[decliner], r.message, label="Decline")
    await h.settle()
    assert ("declined" if decliner == "bob" else "cancelled") in r.message.content


async def test_dm_prompts_reuse_one_dm_channel_per_player_and_never_look_users_up(make, tmp_path):
    h, bot, db = await make(tmp_path / "dm.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    for user in (ann, bob):
        await answer(h, user, latest_prompt(h.dms_to(user)))
    await h.settle()
    assert (await bot.service.get(match_id)).status == "active"
    assert all(len(h.dms_to(u)) >= 1 for u in (ann, bob))
    assert h.requests_for("GET", "/users/{user_id}") == []  # no user lookup before a DM
    opened = [str(r.json["recipient_id"]) for r in h.requests_for("POST", "/users/@me/channels")]
    assert sorted(opened) == sorted([str(ann.id), str(bob.id)])  # each DM channel opened once


async def test_an_answered_prompt_becomes_the_record_of_what_was_played(make, tmp_path):
    h, bot, db = await make(tmp_path / "record.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    deadline = (await bot.service.get(match_id)).seats[0].deadline_at
    dm = latest_prompt(h.dms_to(ann))
    assert f"<t:{deadline}:R>" in dm.text()  # the prompt shows its time limit
    select = next(c for c in dm.walk_components() if c.get("type") == 3)
    values = [o["value"] for o in select["options"][: select.get("min_values", 1)]]
    await h.select(ann, dm, select["custom_id"], values)  # five cards: the Deck is chosen
    assert dm.content.startswith("🔒 Locked in <t:") and "Your Deck:" in dm.content  # what was played, and when
    assert not dm.components and dm.embeds and not dm.deleted  # the record stays, with the situation it answered


async def test_prompts_show_the_set_and_the_order_and_a_click_uploads_only_what_changed(make, tmp_path):
    from cogs.games.pictures import CONTENT_NAMED

    h, bot, db = await make(tmp_path / "pictures.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    await challenge_and_accept(h, bot, ch, ann, bob)
    dm = latest_prompt(h.dms_to(ann))
    # the Deck choice: the set as a picture (the random card framed), at full size (never a
    # thumbnail), and the power types explained where a Deck is chosen
    shown = {a["filename"].rsplit("-", 1)[0]: a["filename"] for a in dm.attachments}
    assert set(shown) == {"wc-set"} and all(CONTENT_NAMED.fullmatch(f) for f in shown.values())
    assert not any((e.get("thumbnail") or {}).get("url") for e in dm.embeds)
    assert dm.embeds[0]["image"]["url"] == f"attachment://{shown['wc-set']}"
    assert "Immediate" in dm.text() and "Dormant" in dm.text() and "Permanent" in dm.text()
    select = dm.selects[0]
    await h.select(ann, dm, select["custom_id"], [o["value"] for o in select["options"][:5]])
    await h.settle()
    plan = latest_prompt(h.dms_to(ann))
    assert "order your Wizards" in plan.text() and "The Waiting card" in plan.text()
    before = {a["filename"] for a in plan.attachments}
    assert any(f.startswith("wc-order-") for f in before)
    callbacks = len(h.requests_for("POST", "/interactions/{interaction_id}/{interaction_token}/callback"))
    first = next(b for b in plan.buttons if b.get("label") != "Start over")
    await h.click(ann, plan, first["custom_id"])  # the first Wizard of the order: the next screen
    (edit,) = h.requests_for("POST", "/interactions/{interaction_id}/{interaction_token}/callback")[callbacks:]
    # only the new order is uploaded; the pictures that did not change are kept
    assert [f.filename.rsplit("-", 1)[0] for f in edit.files] == ["wc-order"]
    after = {a["filename"] for a in plan.attachments}
    assert {f for f in after if not f.startswith("wc-order-")} == {f for f in before if not f.startswith("wc-order-")}
    assert "Order so far" in plan.text() and h.violations == []


async def test_a_reminder_for_closed_dms_replaces_the_your_move_message_with_one_ping(make, tmp_path):
    """A reminder is one of the few pings: a player whose DMs are closed gets their one "Your move"
    message replaced by one that mentions them and says when the move is due (the old one removed)."""
    h, bot, db = await make(tmp_path / "wc.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    h.close_dms(bob)
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    (thread,) = h.threads(ch)

    def your_move():
        return [m for m in h.messages_in(thread) if f"open:{match_id}:1" in m.custom_ids]

    (first,) = your_move()
    deadline = (await bot.service.get(match_id)).seats[1].deadline_at
    clock["now"] = deadline - 60  # within the reminder window
    await timer_pass(bot.service)
    await h.settle()
    (reminded,) = your_move()
    assert reminded is not first and h.message(first).deleted
    assert reminded.content.startswith(f"⏰ <@{bob.id}>, your move in match #{match_id} is due <t:{deadline}:R>")
    (post,) = [
        r
        for r in h.requests_for("POST", "/channels/{channel_id}/messages")
        if r.json.get("content") == reminded.content
    ]
    assert post.json["allowed_mentions"]["parse"] == ["users"]  # it pings
    assert h.violations == []
