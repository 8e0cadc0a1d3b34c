"""Firewall end to end through discord.py's real objects and the fake transport: /challenge with
options, the stock-order and turn prompts by DM and through the closed-DM fallback (ephemeral),
Larceny and Recycle follow-ups, the channel posts (bridge picture, or the emoji strip when images
are off), foreign and stale clicks, time-outs and a restart in the middle of a match. Every request
body is validated against Discord's schema by the harness."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from cogs.games.firewall.art import HEIGHT as BRIDGE_HEIGHT
from cogs.games.firewall.art import WIDTH as BRIDGE_WIDTH
from tests.cogs.firewall_flows import Plan, answer, by_head, challenge_and_accept
from tests.discord_flows import (
    RecordingIds,
    board_message,
    forget_posted_messages,
    gallery_urls,
    in_match,
    is_card,
    latest_prompt,
)
from tests.discord_flows import setup_players as shared_setup_players
from tests.running_timer import timer_pass

BRIDGE_SIZE = (BRIDGE_WIDTH, BRIDGE_HEIGHT)  # the bridge picture's size (legible on a phone)


def setup_players(h):
    return shared_setup_players(h, "bridge")


async def find_prompt(h, bot, match_id, seat, user, ch):
    """The seat's current prompt wherever it is (DM, or the channel's private button)."""
    record = await bot.service.get(match_id)
    if record.seats[seat].dm_ok:
        msg = latest_prompt(h.dms_to(user))
        if msg is None:  # e.g. after a restart: /status reopens the prompt
            st = await h.slash(user, ch, "status")
            await h.click(user, st.message, f"open:{match_id}:{seat}")
            msg = latest_prompt(h.ephemeral_responses_to(user))
        return msg
    opener = [m for m in in_match(h, ch) if f"open:{match_id}:{seat}" in m.custom_ids][-1]
    await h.click(user, opener, f"open:{match_id}:{seat}")
    return latest_prompt(h.ephemeral_responses_to(user))


async def play_seat(h, bot, match_id, seat, user, ch, plan: Plan) -> str | None:
    sp = await bot.service.prompt(match_id, seat)
    if not sp.awaited:
        return None
    msg = await find_prompt(h, bot, match_id, seat, user, ch)
    assert msg is not None, "no prompt found"
    return await answer(h, user, msg, plan)


async def play_to_the_end(h, bot, match_id, users, ch, plans) -> list[str]:
    answered: list[str] = []
    for _ in range(200):
        if (await bot.service.get(match_id)).status != "active":
            return answered
        moved = False
        for seat, user in enumerate(users):
            if (await bot.service.get(match_id)).status != "active":
                return answered
            kind = await play_seat(h, bot, match_id, seat, user, ch, plans[seat])
            if kind:
                answered.append(kind)
                moved = True
        assert moved, "nobody could move"
    raise AssertionError("the match did not end")


def last_post(h, ch):
    """The newest story post in the thread (embeds, not the live board; the "Make your move"
    notices have no embeds)."""
    board = board_message(h, ch)
    return next(m for m in reversed(in_match(h, ch)) if m.embeds and m is not board)


def pngs(h, ch) -> list[bytes]:
    return [f.data for m in in_match(h, ch) for f in m.files if f.filename.endswith(".png")]


# ------------------------------------------------------------------ whole matches


@pytest.mark.slow
async def test_chosen_order_match_by_dm_and_closed_dm_with_pictures(make, tmp_path):
    h, bot, db = await make(tmp_path / "fw.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    h.close_dms(bob)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob, "variant=chosen_order")
    assert (await bot.service.get(match_id)).options == {"variant": "chosen_order"}

    # Ann orders her stock by DM; Bob's DM failed, so the channel offers the private button
    dm = latest_prompt(h.dms_to(ann))
    assert dm is not None and "order your stock" in dm.text() and h.dms_to(bob) == []
    fallback = [m for m in in_match(h, ch) if f"open:{match_id}:1" in m.custom_ids]
    assert fallback and f"<@{bob.id}>" in fallback[-1].content
    # someone else cannot open Bob's private prompt
    r = await h.click(ann, fallback[-1], f"open:{match_id}:1")
    assert r.ephemeral and "Only the player" in r.content

    before = len(in_match(h, ch))
    assert await answer(h, ann, dm, Plan()) == "order"
    assert "Locked in" in dm.content and "Your stock, top first" in dm.content and not dm.components
    assert in_match(h, ch)[before:] == []  # nothing new in the thread: its board is edited in place
    assert "ann has put their stock in order" in board_message(h, ch).text()
    assert await play_seat(h, bot, match_id, 1, bob, ch, Plan()) == "order"  # ephemeral
    # both ordered: round 1 begins, and the board shows it with the bridge picture
    begin = board_message(h, ch)
    assert "Round 1 begins" in begin.text() and begin.files
    assert is_card(begin) and f"attachment://{begin.attachments[-1]['filename']}" in gallery_urls(begin)

    # Ann's turn prompt: her hand (the top 5 of her order) with each spell's text, bets 1..50
    dm = latest_prompt(h.dms_to(ann))
    assert "Suction" in dm.text() and "Gain as much mana as your opponent bet" in dm.text()
    assert [int(o["value"]) for o in by_head(dm, "tb")["options"]][-1] == 50
    # only 1..mana is offered; a bet out of range (a forged select value) is refused with the reason
    forged = {"custom_id": by_head(dm, "tb")["custom_id"], "component_type": 3, "values": ["51"]}
    r = await h._component(h.user(ann), h.message(dm), forged, wait=True, expect_response=True)
    assert r.ephemeral and "You cannot bet 51: bet at least 1 and at most your 50 mana" in r.content
    await h.click(ann, dm, by_head(dm, "ta")["custom_id"])  # all in: 50
    assert "Bet: **50**" in dm.text()

    # the first submission posts nothing (the turn is told when it is resolved), and says nothing
    before = len(in_match(h, ch))
    board = board_message(h, ch).text()
    await answer(h, ann, dm, Plan(bet=17, spells=(13, 14)))
    assert in_match(h, ch)[before:] == [] and board_message(h, ch).text() == board

    # Bob (ephemeral) completes the turn: the reveal, each spell, the push and the payment, in order
    await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=3))
    turn_post = last_post(h, ch).text()
    for a, b in (("bets **17**", "Reserve Boost"), ("Reserve Boost", "Suction"), ("Attacks", "wall moves")):
        assert turn_post.index(a) < turn_post.index(b)
    assert "Paid: ann 17, bob 3" in turn_post

    plans = [Plan(bet="all", spells=(0, 7, 13)), Plan(bet=1)]
    await play_to_the_end(h, bot, match_id, [ann, bob], ch, plans)
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.outcome["seats"][1]["result"] == "win"
    text = "\n".join(m.text() for m in in_match(h, ch))
    assert "Firewall is decided" in text and "falls into the lava" in text and "collapse" in text
    pictures = pngs(h, ch)
    assert len(pictures) >= 4
    for data in pictures:
        img = Image.open(io.BytesIO(data))
        assert img.format == "PNG" and img.size == BRIDGE_SIZE
    rows = await db.actions.for_match(match_id)
    assert [r.action["type"] for r in rows[:2]] == ["order", "order"]
    assert h.violations == []


@pytest.mark.slow
async def test_full_hand_larceny_and_recycle_follow_ups_without_pictures(make, tmp_path):
    h, bot, db = await make(tmp_path / "fw.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob, "variant=full_hand")
    start = board_message(h, ch)  # no shuffle in this variant: the bridge as it stands
    assert "Firewall — Round 1" in start.text() and "🔵🟫🟫🔥🟫🟫🟠" in start.text() and not start.files

    # Ann casts Larceny, Bob casts Recycle and Attack Boost: Ann steals both and decides
    assert await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=10, spells=(3,))) == "turn"
    assert await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=12, spells=(6, 7))) == "turn"
    waiting = board_message(h, ch).text()
    assert "ann chooses which stolen spells" in waiting and "Waiting for ann" in waiting
    dm = latest_prompt(h.dms_to(ann))
    assert "Your Larceny stole Recycle (6), Attack Boost (7)" in dm.text()
    assert [o["label"] for o in by_head(dm, "ls")["options"] if o.get("default")] == ["Attack Boost (7)"]
    await h.select(ann, dm, by_head(dm, "ls")["custom_id"], ["0", "1"])  # apply both
    assert await answer(h, ann, dm, Plan()) == "larceny"
    # the stolen Recycle lets Ann change her own bet: a new DM
    dm = latest_prompt(h.dms_to(ann))
    assert "Recycle" in dm.text() and "your bet of **10**" in dm.text()
    assert await answer(h, ann, dm, Plan(recycle=15)) == "recycle"
    post = last_post(h, ch).text()
    # the whole turn is one story post, told when it is resolved (the Larceny and Recycle included)
    assert "Round 1, turn 1" in post and "changes their bet from 10 to 15" in post
    assert "Attacks: 22 against 12" in post  # 15 + Attack Boost 7
    strip = next(line for line in post.split("\n") if "🔥" in line and "🔵" in line)
    assert strip.count("🟫") + strip.count("🟥") >= 15
    assert "🟦" in post and "🟧" in post  # the mana bars

    plans = [Plan(bet="all", spells=(0,)), Plan(bet=2)]
    await play_to_the_end(h, bot, match_id, [ann, bob], ch, plans)
    assert (await bot.service.get(match_id)).status == "finished"
    assert pngs(h, ch) == [] and "Firewall is decided" in "\n".join(m.text() for m in in_match(h, ch))
    assert h.violations == []


# ------------------------------------------------------------------ the platform's rules, for Firewall


async def test_foreign_and_stale_clicks_are_refused(make, tmp_path):
    h, bot, db = await make(tmp_path / "fw.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    h.close_dms(bob)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    dm = latest_prompt(h.dms_to(ann))
    await h.select(ann, dm, by_head(dm, "tb")["custom_id"], ["4"])  # a screen of the same prompt

    # Bob opens his prompt privately; a click on it from Ann (replayed, since Discord would not even
    # show it to her) is refused by the platform, and nothing changes
    eph = await find_prompt(h, bot, match_id, 1, bob, ch)
    forged = {"custom_id": by_head(eph, "ta")["custom_id"], "component_type": 2}
    r = await h._component(h.user(ann), h.message(eph), forged, wait=True, expect_response=True)
    assert r.ephemeral and "belongs to another player" in r.content
    assert await bot.service.seat_step(match_id, 1) == 0

    # Ann also opens her prompt from /status and casts there; the DM copy is then out of date
    st = await h.slash(ann, ch, "status")
    await h.click(ann, st.message, f"open:{match_id}:0")
    await h.settle()
    eph_ann = latest_prompt(h.ephemeral_responses_to(ann))
    await answer(h, ann, eph_ann, Plan(bet=5))
    assert "Locked in" in eph_ann.content and "You bet 5" in eph_ann.content
    steps = await bot.service.seat_step(match_id, 0)
    r = await h.click(ann, dm, by_head(dm, "tr")["custom_id"])
    assert r.ephemeral and "out of date" in (r.content + " ".join(m.content for m in r.followups))
    assert await bot.service.seat_step(match_id, 0) == steps
    assert h.violations == []


@pytest.mark.slow
async def test_timeouts_forfeit_a_turn_and_default_a_follow_up(make, tmp_path):
    h, bot, db = await make(tmp_path / "fw.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await challenge_and_accept(h, bot, ch, ann, bob, "variant=full_hand")
    # the deadline shows in the prompt
    assert "Time limit" in latest_prompt(h.dms_to(ann)).text()
    await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=6, spells=(6,)))  # Recycle
    await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=9))
    assert (await bot.service.prompt(match_id, 0)).decision.kind == "recycle"
    record = await bot.service.get(match_id)
    clock["now"] = record.seats[0].deadline_at + 1  # Ann lets Recycle time out: her bet stays
    await timer_pass(bot.service)
    await h.settle()
    channel = "\n".join(m.text() for m in in_match(h, ch))
    assert "made the default choice" in channel and "Recycle: ann keeps their bet of 6" in channel
    assert (await bot.service.get(match_id)).status == "active"

    # next turn: Ann casts, Bob never does and forfeits (a turn has no default)
    await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=3))
    record = await bot.service.get(match_id)
    clock["now"] = record.seats[1].deadline_at + 1
    await timer_pass(bot.service)
    await h.settle()
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.outcome["seats"][0]["result"] == "win"
    assert "bob ran out of time" in "\n".join(m.text() for m in in_match(h, ch))
    assert h.violations == []


async def test_forfeit_command_ends_a_firewall_match(make, tmp_path):
    h, bot, db = await make(tmp_path / "fw.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    r = await h.slash(bob, ch, "forfeit")
    assert r.ephemeral and f"forfeited match #{match_id}" in r.content
    await h.settle()
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.outcome["seats"][0]["result"] == "win"
    last = board_message(h, ch).text()  # the end-of-match card carries the last story post
    assert "bob resigned" in last and "Firewall is decided" in last
    # the challenge message, edited in place all along, now gives the result (and the card's buttons)
    (lobby,) = [m for m in in_match(h, ch) if f"Match #{match_id} of Firewall is over" in m.content]
    assert record.summary and record.summary in lobby.content and f"end:rematch:{match_id}" in lobby.custom_ids
    assert h.violations == []


@pytest.mark.slow
async def test_restart_in_the_middle_of_a_match(make, tmp_path):
    path = tmp_path / "fw.sqlite3"
    h, bot, db = await make(path)
    ids = h.server.ids = RecordingIds(h.server.ids)
    guild, ch, ann, bob = setup_players(h)
    world = list(ids.given)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=8, spells=(0,)))  # Ann's turn is committed
    dm = latest_prompt(h.dms_to(bob))
    await h.select(bob, dm, by_head(dm, "tb")["custom_id"], ["4"])  # Bob is halfway through his screens
    deadline = (await bot.service.get(match_id)).seats[1].deadline_at
    assert f"<t:{deadline}:R>" in dm.text()  # every screen shows the time limit, not just the first
    await h.close()
    await db.close()

    # a new process: a new client on the same database, in a fake Discord with the same ids
    h2, bot2, db2 = await make(path)
    h2.server.ids = RecordingIds(h2.server.ids, replay=world)
    await forget_posted_messages(db2)
    guild, ch, ann, bob = setup_players(h2)
    record = await bot2.service.get(match_id)
    assert record.status == "active" and await bot2.service.seat_step(match_id, 0) == 1
    assert not (await bot2.service.prompt(match_id, 0)).awaited  # Ann's secret move survived
    # Bob's old DM is gone from this fake Discord: he reopens his prompt from /status and casts
    st = await h2.slash(bob, ch, "status")
    await h2.click(bob, st.message, f"open:{match_id}:1")
    eph = latest_prompt(h2.ephemeral_responses_to(bob))
    assert "your turn" in eph.text() and "Bet: *not chosen yet*" in eph.text()
    await answer(h2, bob, eph, Plan(bet=4))
    await h2.settle()
    assert (
        "Round 1, turn 1" in last_post(h2, ch).text()
        and "**ann** bets **8** · False Card (0)" in last_post(h2, ch).text()
    )
    await play_to_the_end(h2, bot2, match_id, [ann, bob], ch, [Plan(bet="all"), Plan(bet=1)])
    assert (await bot2.service.get(match_id)).status == "finished"
    assert "Firewall is decided" in "\n".join(m.text() for m in in_match(h2, ch))
    assert h2.violations == []


async def test_challenge_rules_and_card_commands(make, tmp_path):
    h, bot, db = await make(tmp_path / "fw.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    ac = await h.autocomplete(ann, ch, "challenge", "options", "variant=", {"game": "firewall"})
    values = [c["value"] for c in ac.choices]
    assert {"variant=standard", "variant=full_hand", "variant=chosen_order"} <= set(values)
    r = await h.slash(ann, ch, "rules", {"game": "firewall"})
    text = r.message.text()
    assert r.ephemeral and "The bridge" in text and "chosen_order" in text and "Suction" in text
    ac = await h.autocomplete(ann, ch, "card", "name", "boost", {"game": "firewall"})
    assert [c["name"] for c in ac.choices] == ["7 · Attack Boost", "13 · Reserve Boost"]
    for n, name in ((6, "Recycle"), (0, "False Card"), (14, "Suction")):
        r = await h.slash(ann, ch, "card", {"game": "firewall", "name": str(n)})
        assert r.ephemeral and f"{name} ({n})" in r.message.text()
    r = await h.slash(ann, ch, "card", {"game": "firewall", "name": "larceny"})
    assert "Take the spells your opponent casts" in r.message.text()
    r = await h.slash(ann, ch, "card", {"game": "firewall", "name": "dragon"})
    assert r.ephemeral and "nothing called 'dragon'" in r.content
    assert h.violations == []


@pytest.mark.slow
async def test_closed_dms_are_explained_once_and_mentioned_once_per_turn(make, tmp_path):
    h, bot, db = await make(tmp_path / "closed.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    h.close_dms(bob)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    turns = 0
    for _ in range(4):  # four turns: Bob's prompt is new each time
        if (await bot.service.get(match_id)).status != "active":
            break
        await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=1))
        await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=1))
        turns += 1
    await h.settle()
    everything = [m for m in in_match(h, ch) if True] + [
        m for m in h.messages_in(ch, include_deleted=True) if m.deleted
    ]
    to_bob = [m for m in everything if f"open:{match_id}:1" in m.custom_ids or "Privacy Settings" in m.text()]
    # one "Your move" message for the match, edited each time he is awaited again (he clicks along:
    # no new message, no new ping), and it told him once how to open his DMs
    assert len(to_bob) == 1 and "Privacy Settings" in to_bob[0].text() and turns > 1
    assert f"<@{bob.id}>" in to_bob[0].content
    mentions = [r for r in h.requests_for("POST", "/channels/{channel_id}/messages") if f"<@{bob.id}>" in str(r.json)]
    pinging = [r for r in mentions if "users" in (r.json.get("allowed_mentions") or {}).get("parse", [])]
    assert len(pinging) <= 2  # the match card at the start and, had he idled, one more
    assert h.violations == []


@pytest.mark.slow
async def test_an_idle_closed_dm_player_gets_their_your_move_message_replaced_with_one_ping(make, tmp_path):
    """Pings only when someone is waited on (/settings ping_after, 2 minutes by default): the
    closed-DM player's one "Your move" message is edited while they click along, and replaced
    (the old one removed) by one that mentions them once they have been idle for longer."""
    h, bot, db = await make(tmp_path / "idle.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    h.close_dms(bob)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    table = bot.service.notifier.table

    def your_move(include_deleted: bool = False):
        return [
            m
            for m in h.messages_in(h.threads(ch)[0], include_deleted=include_deleted)
            if f"open:{match_id}:1" in m.custom_ids
        ]

    def pings_to_bob() -> int:
        return sum(
            1
            for r in h.requests_for("POST", "/channels/{channel_id}/messages")
            if f"<@{bob.id}>" in str(r.json) and "users" in (r.json.get("allowed_mentions") or {}).get("parse", [])
        )

    (first,) = your_move()
    pings = pings_to_bob()
    await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=1))  # Bob moves first: Ann's move ends the turn
    # Bob then idles for an hour (no click, no mention) and his last click's token has expired
    table.touch(match_id, 1, at=time.time() - 3600)
    table.pinged(match_id, 1, at=time.time() - 3600)
    table._handles.pop((match_id, 1), None)
    await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=1))
    await h.settle()
    if (await bot.service.get(match_id)).status != "active":
        return
    (second,) = your_move()
    assert second is not first and h.message(first).deleted  # replaced, the old one removed
    assert f"<@{bob.id}>" in second.content and pings_to_bob() == pings + 1  # one ping
    assert table.quiet_for(match_id, 1) < 60
    # he clicks along now: when he is awaited again the same message is kept (edited, no ping)
    await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=1))
    table._handles.pop((match_id, 1), None)  # the prompt comes through the message, not a follow-up
    await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=1))
    await h.settle()
    if (await bot.service.get(match_id)).status == "active":
        assert your_move() == [second] and pings_to_bob() == pings + 1
    assert h.violations == []


@pytest.mark.slow
async def test_ping_after_zero_mentions_a_closed_dm_player_each_time_the_move_comes_back(make, tmp_path):
    """/settings ping_after 0 ("always"): the "Your move" message is replaced, with a ping, each
    time the move comes back to the player, however busy they are."""
    h, bot, db = await make(tmp_path / "always.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    await bot.servers.update(guild.id, ann.id, ping_after_seconds=0)
    h.close_dms(bob)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    table = bot.service.notifier.table

    def pings_to_bob() -> int:
        return sum(
            1
            for r in h.requests_for("POST", "/channels/{channel_id}/messages")
            if f"open:{match_id}:1" in str(r.json)
            and "users" in (r.json.get("allowed_mentions") or {}).get("parse", [])
        )

    before = pings_to_bob()
    await play_seat(h, bot, match_id, 1, bob, ch, Plan(bet=1))
    table._handles.pop((match_id, 1), None)  # his prompt comes back through the "Your move" message
    await play_seat(h, bot, match_id, 0, ann, ch, Plan(bet=1))
    await h.settle()
    if (await bot.service.get(match_id)).status == "active":
        assert pings_to_bob() == before + 1
        live = [m for m in h.messages_in(h.threads(ch)[0]) if f"open:{match_id}:1" in m.custom_ids]
        assert len(live) == 1  # the old one removed
    assert h.violations == []
