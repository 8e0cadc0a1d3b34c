"""Magic Duel end to end through discord.py's real objects and the fake transport: a 3-player
/challenge with options, every spell and draw chosen in the private prompts (DM, and the ephemeral
fallback for a player with closed DMs), an invalid spell refused with its reason, the channel's
compact posts, a forfeit and a time-out where the others play on, stale and foreign clicks, and a
restart in the middle of a hand. Every request body is validated against Discord's schema by the
harness."""

from __future__ import annotations

import pytest

from cogs.games.pictures import CONTENT_NAMED
from rules.magic_duel import label
from tests.discord_flows import (
    RecordingIds,
    board_message,
    forget_posted_messages,
    in_match,
    latest_prompt,
    setup_players,
)
from tests.running_timer import timer_pass


def payload_of(custom_id: str) -> str:
    return custom_id.split(":", 4)[4]


def component(msg, prefix: str) -> dict | None:
    return next((c for c in msg.selects + msg.buttons if payload_of(c["custom_id"]).startswith(prefix)), None)


async def cast(h, user, msg, *, risk: bool = False, weakest: bool = False):
    """Cast the strongest combination of the quick pick (the weakest, e.g. to end a tie); with
    ``risk`` put a card on the Deck of Risk first (a face-up spell). Returns the Cast click's result."""
    quick = component(msg, "q.")
    await h.select(user, msg, quick["custom_id"], [quick["options"][-1 if weakest else 0]["value"]])
    if risk and (sel := component(msg, "r.")) is not None:
        await h.select(user, msg, sel["custom_id"], [sel["options"][-1]["value"]])
    return await h.click(user, msg, component(msg, "p.")["custom_id"])


async def answer(h, user, msg, *, risk: bool = False, from_risk: bool = False, weakest: bool = False):
    """Answer one Magic Duel prompt: a spell, or a draw (all from Advantage, or as many as
    possible from the Deck of Risk)."""
    if component(msg, "d.") is not None:
        draws = [b for b in msg.buttons if payload_of(b["custom_id"]).startswith("d.")]
        r = await h.click(user, msg, (draws[-1] if from_risk else draws[0])["custom_id"])
    else:
        r = await cast(h, user, msg, risk=risk, weakest=weakest)
    await h.settle()
    return r


async def current_prompt(h, bot, match_id, seat, user, ch):
    """The seat's live prompt: its newest DM, or the ephemeral one behind the channel's button."""
    record = await bot.service.get(match_id)
    if record.seats[seat].dm_ok:
        msg = latest_prompt(h.dms_to(user))
        if msg is not None:
            return msg
        st = await h.slash(user, ch, "status")  # e.g. after a restart: /status reopens the prompt
        await h.click(user, st.message, f"open:{match_id}:{seat}")
    else:
        opener = [m for m in in_match(h, ch) if f"open:{match_id}:{seat}" in m.custom_ids][-1]
        await h.click(user, opener, f"open:{match_id}:{seat}")
    await h.settle()
    return latest_prompt(h.ephemeral_responses_to(user))


async def play_to_the_end(h, bot, match_id, users, ch, *, moves: int | None = None) -> int:
    """Whoever is asked answers (the first spell of each player risks a card; every second draw
    takes from the Deck of Risk). Stops at the end, or after ``moves`` moves."""
    risked: set[int] = set()
    for done in range(150):
        record = await bot.service.get(match_id)
        if record.status != "active" or (moves is not None and done >= moves):
            return done
        view = await bot.service.view(match_id, None)
        seat = view["to_act"]
        msg = await current_prompt(h, bot, match_id, seat, users[seat], ch)
        assert msg is not None, f"no prompt for seat {seat}"
        replay = bool(view["trick"] and view["trick"]["replay"])
        await answer(h, users[seat], msg, risk=seat not in risked, from_risk=done % 2 == 1, weakest=replay)
        if view["phase"] == "trick":
            risked.add(seat)
    raise AssertionError("the match did not end")


def hand_uploads(requests, *, refused: bool = False) -> list[str]:
    """The hand pictures these requests uploaded (files named ``md-hand-<content>.png``) and
    Discord accepted; with ``refused``, those of the requests it refused (a DM to closed DMs)."""
    return [
        f.filename
        for r in requests
        if (r.status >= 400) == refused
        for f in r.files
        if f.filename.startswith("md-hand-")
    ]


def channel_text(h, ch) -> str:
    return "\n".join(m.text() for m in in_match(h, ch))


async def challenge_three(h, bot, ch, ann, bob, cy, options="points_to_win=1") -> int:
    r = await h.slash(
        ann, ch, "challenge", {"game": "magic-duel", "opponent": bob, "opponent2": cy, "options": options}
    )
    lobby = r.message
    assert "ann challenges bob, cy to Magic Duel" in lobby.text() and "points_to_win" in lobby.text()
    await h.click(bob, lobby, label="Accept")
    await h.click(cy, lobby, label="Accept")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    assert record.status == "active" and record.names == ["ann", "bob", "cy"]
    return record.id


@pytest.mark.slow
async def test_three_player_game_through_the_prompts(make, tmp_path):
    h, bot, db = await make(tmp_path / "md.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    h.close_dms(cy)
    match_id = await challenge_three(h, bot, ch, ann, bob, cy)
    record = await bot.service.get(match_id)
    assert record.options["points_to_win"] == 1

    # the deal is public as counts; each hand is private
    start = channel_text(h, ch)
    assert "Hand 1 is dealt" in start and "ann** leads" in start
    for seat in (0, 1, 2):
        hand = (await bot.service.view(match_id, seat))["you"]["hand"]
        assert not any(f"`{label(c)}`" in start for c in hand)
    # Ann (seat 0) leads: her prompt came by DM, with the hand as cards and as a picture
    dm = latest_prompt(h.dms_to(ann))
    assert dm is not None and "cast your spell" in dm.text() and "Your hand (7)" in dm.text()
    (picture,) = [a["filename"] for a in dm.attachments]
    assert CONTENT_NAMED.fullmatch(picture) and picture.startswith("md-hand-")
    assert dm.embeds[0]["image"]["url"] == f"attachment://{picture}"
    assert h.dms_to(cy) == []  # closed DMs: the fallback button comes when it is cy's turn

    # two cards of different values: Cast is disabled and the screen says why (the rule text:
    # "Codu, aka "the Double": 2 cards of the same value"); the picture is kept, not uploaded again
    hand = (await bot.service.view(match_id, 0))["you"]["hand"]
    values = [label(c)[:-1] for c in hand]
    i, j = next((i, j) for i in range(len(hand)) for j in range(len(hand)) if i < j and values[i] != values[j])
    sel = component(dm, "c.")
    before = len(h.requests)
    await h.select(ann, dm, sel["custom_id"], [sel["options"][i]["value"], sel["options"][j]["value"]])
    why = f"a Codu (the Double) needs two cards of the same value, not a mix of {values[i]} and {values[j]}"
    assert f"is not a combination: {why}." in dm.text() and "**Cast** stays disabled" in dm.text()
    assert component(dm, "p.")["disabled"]
    assert [a["filename"] for a in dm.attachments] == [picture] and hand_uploads(h.requests[before:]) == []
    # an outdated client that still sends the Cast click is answered with the reason, nothing changes
    forged = {"custom_id": component(dm, "p.")["custom_id"], "component_type": 2}
    refused = await h._component(h.user(ann), h.message(dm), forged, wait=True, expect_response=True)
    assert refused.ephemeral and f"is not a combination: {why}." in refused.content
    assert await bot.service.seat_step(match_id, 0) == 0

    # Ann casts face-up (a Risk card first): the channel shows her spell at once
    before = len(in_match(h, ch))
    await answer(h, ann, dm, risk=True)
    assert "Locked in" in dm.content and "on the Deck of Risk" in dm.content and not dm.components
    view = await bot.service.view(match_id, None)
    (play,) = view["trick"]["plays"]
    assert play["face_up"]
    # nothing new is posted: the thread's live board is edited in place
    assert in_match(h, ch)[before:] == []
    board = board_message(h, ch).text()
    assert "casts face-up" in board and "Next: bob casts (trick 1)" in board

    # Bob casts face-down by DM: the channel only sees the count
    before = len(in_match(h, ch))
    await answer(h, bob, latest_prompt(h.dms_to(bob)))
    (bob_play,) = [p for p in (await bot.service.view(match_id, 1))["trick"]["plays"] if p["seat"] == 1]
    secret = (await bot.service.view(match_id, 1))["you"]["played"]
    posted = "\n".join(m.text() for m in in_match(h, ch)[before:])
    board = board_message(h, ch).text()
    assert f"bob casts a spell face-down ({bob_play['count']} card" in board
    assert not any(f"`{label(c)}`" in posted + board for c in secret)

    # Cy's turn: the channel offers the private button; nobody else may open it
    opener = [m for m in in_match(h, ch) if f"open:{match_id}:2" in m.custom_ids][-1]
    assert f"<@{cy.id}>" in opener.content
    r = await h.click(bob, opener, f"open:{match_id}:2")
    assert r.ephemeral and "Only the player" in r.content
    before = len(in_match(h, ch))
    msg = await current_prompt(h, bot, match_id, 2, cy, ch)
    assert msg.ephemeral and "cast your spell" in msg.text() and "This trick so far" in msg.text()
    await answer(h, cy, msg)
    resolution = "\n".join(m.text() for m in in_match(h, ch)[before:])
    assert "Trick 1 · hand 1 —" in resolution and "Why:" in resolution and "Standing" in resolution
    assert any(a["filename"].startswith("trick-1-1") for m in in_match(h, ch)[before:] for a in m.attachments)

    await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch)
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.summary
    text = channel_text(h, ch)
    assert "draws **the Cursed Spell**!" in text and "Hand 1 is scored" in text and "The tournament is over" in text
    assert " from Risk + " in text  # draws are public as counts
    # draws are chosen privately: a draw prompt went to someone's DM
    assert any("Refill your hand to 7" in str(v) for u in (ann, bob) for m in h.dms_to(u) for v in m.history)
    rows = await db.actions.for_match(match_id)
    assert rows[0].seat is None and len(rows) > 10
    assert h.violations == []


@pytest.mark.slow
async def test_open_table_forfeit_and_the_others_play_on(make, tmp_path):
    h, bot, db = await make(tmp_path / "md.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    r = await h.slash(ann, ch, "challenge", {"game": "magic-duel", "open": True, "options": "points_to_win=1"})
    lobby = r.message
    await h.click(bob, lobby, label="Join")
    await h.click(cy, lobby, label="Join")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    assert record.status == "pending" and record.names == ["ann", "bob", "cy"]  # 8 may play: not full
    await h.click(ann, lobby, label="Start now")
    await h.settle()
    record = await bot.service.get(record.id)
    assert record.status == "active"
    match_id = record.id

    await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch, moves=1)  # Ann casts face-up
    r = await h.slash(bob, ch, "forfeit")
    assert r.ephemeral
    record = await bot.service.get(match_id)
    assert record.status == "active"  # two wizards remain: they play on
    text = channel_text(h, ch)
    assert "bob resigned and is out of the game" in text and "The others play on." in text
    view = await bot.service.view(match_id, None)
    assert view["removed"] == [1] and view["to_act"] == 2
    # a removed player has nothing to do any more
    assert not (await bot.service.prompt(match_id, 1)).awaited

    await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch)
    record = await bot.service.get(match_id)
    assert record.status == "finished"
    assert record.outcome["ranks"][1] == 3 and record.outcome["seats"][1]["result"] == "loss"
    assert "~~bob~~ left" in channel_text(h, ch)
    assert h.violations == []


@pytest.mark.slow
async def test_time_limits_default_draw_then_removal(make, tmp_path):
    h, bot, db = await make(tmp_path / "md.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await challenge_three(h, bot, ch, ann, bob, cy)
    dm = latest_prompt(h.dms_to(ann))
    assert any(f["name"] == "Time limit" for f in dm.embeds[0]["fields"])
    # play until someone must choose a draw, then let that seat time out: the default draw is taken
    for _ in range(10):
        view = await bot.service.view(match_id, None)
        if view["phase"] == "draw":
            break
        await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch, moves=1)
    assert view["phase"] == "draw"
    drawer = view["to_act"]
    deadline = (await bot.service.get(match_id)).seats[drawer].deadline_at
    clock["now"] = deadline + 1
    await timer_pass(bot.service)
    await h.settle()
    text = channel_text(h, ch)
    assert "ran out of time; the referee made the default choice" in text
    assert (await bot.service.view(match_id, None))["removed"] == []

    # now let whoever must cast after someone else has cast time out: they are removed, the other
    # two play on
    for _ in range(10):
        view = await bot.service.view(match_id, None)
        if view["phase"] == "trick" and view["trick"]["plays"]:
            break
        await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch, moves=1)
    caster = view["to_act"]
    record = await bot.service.get(match_id)
    clock["now"] = record.seats[caster].deadline_at + 1
    await timer_pass(bot.service)
    await h.settle()
    record = await bot.service.get(match_id)
    assert record.status == "active"
    assert (await bot.service.view(match_id, None))["removed"] == [caster]
    text = channel_text(h, ch)
    name = record.names[caster]
    assert f"{name} ran out of time and forfeits" in text and f"{name} ran out of time and is out of the game" in text
    await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch)
    assert (await bot.service.get(match_id)).status == "finished"
    assert h.violations == []


@pytest.mark.slow
async def test_stale_prompt_and_restart_mid_hand(make, tmp_path):
    path = tmp_path / "md.sqlite3"
    h, bot, db = await make(path)
    ids = h.server.ids = RecordingIds(h.server.ids)
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    world = list(ids.given)
    match_id = await challenge_three(h, bot, ch, ann, bob, cy)
    dm = latest_prompt(h.dms_to(ann))
    # Ann also opens her prompt from /status and casts there: the DM copy is then out of date
    st = await h.slash(ann, ch, "status")
    await h.click(ann, st.message, f"open:{match_id}:0")
    await h.settle()
    await answer(h, ann, latest_prompt(h.ephemeral_responses_to(ann)))
    quick = component(dm, "q.")
    r = await h.select(ann, dm, quick["custom_id"], [quick["options"][0]["value"]])
    assert r.ephemeral and "out of date" in r.content
    assert await bot.service.seat_step(match_id, 0) == 1
    await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch, moves=4)
    steps = [await bot.service.seat_step(match_id, s) for s in range(3)]
    await h.close()
    await db.close()

    # a new process on the same database, in a fake Discord with the same ids
    h2, bot2, db2 = await make(path)
    h2.server.ids = RecordingIds(h2.server.ids, replay=world)
    await forget_posted_messages(db2)
    guild, ch, ann, bob = setup_players(h2)
    cy = h2.add_member(guild, "cy")
    assert [await bot2.service.seat_step(match_id, s) for s in range(3)] == steps  # nothing acknowledged lost
    await play_to_the_end(h2, bot2, match_id, [ann, bob, cy], ch)
    assert (await bot2.service.get(match_id)).status == "finished"
    assert "The tournament is over" in channel_text(h2, ch)
    assert h2.violations == []


async def test_rules_and_card_commands(make, tmp_path):
    h, bot, db = await make(tmp_path / "md.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "rules", {"game": "magic-duel"})
    text = r.message.text()
    assert r.ephemeral and "Combinations (strongest first)" in text and "♦ < ♥ < ♠ < ♣" in text
    assert "points_to_win" in text and "decks" in text and "2-8" in text
    ac = await h.autocomplete(ann, ch, "card", "name", "co", {"game": "magic-duel"})
    assert [c["value"] for c in ac.choices] == ["codu"]
    r = await h.slash(ann, ch, "card", {"game": "magic-duel", "name": "jokulme"})
    assert r.ephemeral and "Both Jokers" in r.message.text()
    ac = await h.autocomplete(ann, ch, "challenge", "options", "poi", {"game": "magic-duel"})
    assert any(c["value"].startswith("points_to_win=") for c in ac.choices)


@pytest.mark.slow
async def test_channel_posts_without_pictures(make, tmp_path):
    h, bot, db = await make(tmp_path / "md.sqlite3")
    bot.settings.render_images = False
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    match_id = await challenge_three(h, bot, ch, ann, bob, cy)
    await play_to_the_end(h, bot, match_id, [ann, bob, cy], ch, moves=3)
    msgs = in_match(h, ch)
    assert "Why:" in channel_text(h, ch)
    assert all(not m.attachments for m in msgs)


async def seat_prompt(h, match_id, seat, step, user, ch):
    """The prompt in front of the seat for this step: its newest DM or ephemeral message with
    components of this step; else the channel's button that opens it (closed DMs) is pressed."""
    prefix = f"m:{match_id}:{seat}:{step}:"
    for msg in reversed(h.dms_to(user) + h.ephemeral_responses_to(user)):
        if not msg.deleted and any(c.startswith(prefix) for c in msg.custom_ids):
            return msg
    opener = [m for m in in_match(h, ch) if f"open:{match_id}:{seat}" in m.custom_ids][-1]
    await h.click(user, opener, f"open:{match_id}:{seat}")
    await h.settle()
    return latest_prompt(h.ephemeral_responses_to(user))


@pytest.mark.slow
async def test_the_hand_picture_is_uploaded_once_per_decision(make, tmp_path):
    """A whole match (DMs, and the ephemeral prompts of a player with closed DMs): each decision's
    hand picture is uploaded once, with the prompt; the clicks that build a spell (a quick pick, a
    Risk card, a clear) edit the screen and keep it."""
    h, bot, db = await make(tmp_path / "md.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    h.close_dms(cy)
    users = [ann, bob, cy]
    match_id = await challenge_three(h, bot, ch, ann, bob, cy)
    marks = [0]  # where each decision's requests start: at the click that answered the one before
    clicks = 0
    for _ in range(150):
        if (await bot.service.get(match_id)).status != "active":
            break
        view = await bot.service.view(match_id, None)
        seat = view["to_act"]
        step = await bot.service.seat_step(match_id, seat)
        msg = await seat_prompt(h, match_id, seat, step, users[seat], ch)
        if component(msg, "d.") is not None:
            final = [b for b in msg.buttons if payload_of(b["custom_id"]).startswith("d.")][0]["custom_id"]
        else:  # build the spell in three clicks, each an edit of the screen
            quick = component(msg, "q.")
            await h.select(users[seat], msg, quick["custom_id"], [quick["options"][-1]["value"]])
            await h.click(users[seat], msg, component(msg, "s.")["custom_id"])  # Clear
            await h.select(users[seat], msg, component(msg, "q.")["custom_id"], [quick["options"][-1]["value"]])
            if (risk := component(msg, "r.")) is not None:
                await h.select(users[seat], msg, risk["custom_id"], [risk["options"][-1]["value"]])
                clicks += 1
            clicks += 3
            final = component(msg, "p.")["custom_id"]
        marks.append(len(h.requests))
        await h.click(users[seat], msg, final)
        await h.settle()
    assert (await bot.service.get(match_id)).status == "finished"
    decisions = len(marks) - 1
    per_decision = [hand_uploads(h.requests[a:b]) for a, b in zip(marks, marks[1:], strict=False)]
    assert decisions > 10 and clicks > decisions
    assert [len(u) for u in per_decision] == [1] * decisions, per_decision
    assert hand_uploads(h.requests[marks[-1] :]) == []  # the match is over: no prompt
    # the bot learns that cy's DMs are closed once, from its first prompt (refused with its picture)
    assert len(hand_uploads(h.requests, refused=True)) == 1
    # no edit of a screen (an interaction's UPDATE_MESSAGE) carried a file
    edits = [r for r in h.requests if r.via == "webhook" and (r.json or {}).get("type") == 7]
    assert edits and all(r.files == [] for r in edits)
    assert h.violations == []


@pytest.mark.slow
async def test_a_tied_trick_is_cast_again_with_the_reason(make, tmp_path):
    """ann casts a Badef (a Joker), bob a Codu: the trick is tied. Each recast prompt says so,
    which spells tied, the referee's reason and the rule text on Badef
    (docs/rulings/magic-duel.md#recast-prompt, docs/rulings/magic-duel.md#tied-trick)."""
    h, bot, db = await make(tmp_path / "md.sqlite3")
    bot.service._seed_factory = lambda: 20261133  # ann is dealt a Joker, bob two pairs
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "challenge", {"game": "magic-duel", "opponent": bob, "options": "points_to_win=1"})
    await h.click(bob, r.message, label="Accept")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    match_id = record.id
    assert "JK2" in (await bot.service.view(match_id, 0))["you"]["hand"]

    async def cast_as(user, pick: str):
        msg = latest_prompt(h.dms_to(user))
        quick = component(msg, "q.")
        value = next(o["value"] for o in quick["options"] if o["label"].startswith(pick))
        await h.select(user, msg, quick["custom_id"], [value])
        await h.click(user, msg, component(msg, "p.")["custom_id"])
        await h.settle()

    await cast_as(ann, "Badef")
    await cast_as(bob, "Codu")
    assert "🔁 Tied: everyone takes their spell back" in channel_text(h, ch)
    for user in (ann, bob):
        msg = latest_prompt(h.dms_to(user))
        text = msg.text()
        assert "cast your spell again" in text and "🔁 Trick 1 is cast again" in text
        assert "It was tied:" in text and "**Badef** `Joker`" in text and "**Codu**" in text
        assert "**Why:** ann's Badef (Joker) against bob's Codu" in text and "ties the trick" in text
        assert "the round is considered as tied and the players must replay immidiately" in text
        assert "Your spell is back in your hand" in text
        if user is ann:
            await cast_as(ann, "Codu")  # ann casts again first; then bob is asked
    await cast_as(bob, "Codu")
    view = await bot.service.view(match_id, None)
    assert view["last_trick"]["tied"] is False and view["phase"] == "draw"
    assert h.violations == []
