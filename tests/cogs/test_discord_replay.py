"""/replay through discord.py's real objects and the fake Discord: a stepper (first / back / next /
last) over the resolutions of a match, each with the board and its story, rebuilt from the stored
log; restart-proof buttons; a spectator view while the match is live, every secret told with its
owner once it is over; the old text pages' buttons and the end-of-match card's Replay button.
Where ``tick()`` ends a match here, the last test here shows the running client's own loop
doing it (and the replay showing)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.client import build_bot
from bot.replays import MatchReplay, build_steps
from cogs.games import get_ui
from cogs.replay import MAX_MATCH_ID, first_page_of_step, jump_options, paginate, replay_button
from db import Database, MatchStatus
from rules.core import CHANCE
from rules.match import LogEntry, Match, MatchLog
from rules.story import story_lines
from tests.cogs.stats_world import World
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.discord_harness.records import HarnessError
from tests.running_timer import running_firewall_match, running_settings, timer_pass, until_not_active

STEP = re.compile(r"Step (\d+)/(\d+)")
LINE = re.compile(r"^`\s*(\d+)` (.*)$", flags=re.M)


async def rebuilt(w: World, match_id: int) -> tuple[Match, list[str]]:
    record = await w.service.get(match_id)
    rows = await w.db.actions.for_match(match_id)
    log = MatchLog(
        game=record.game,
        options=record.options,
        seed=record.seed,
        seats=record.names,
        actions=[LogEntry(seat=CHANCE if a.seat is None else a.seat, action=a.action) for a in rows],
    )
    return Match.replay(log), record.names


def step_of(msg: Any) -> tuple[int, int]:
    found = STEP.search(msg.embed["footer"]["text"])
    assert found, msg.embed["footer"]
    return int(found.group(1)), int(found.group(2))


def told(msg: Any) -> list[tuple[int, str]]:
    return [(int(n), text) for n, text in LINE.findall(msg.embed["description"])]


async def walk(h: Any, user: Any, msg: Any, match_id: int) -> list[tuple[int, str]]:
    """Every line of every step, clicking Next from the first step to the last."""
    lines = told(msg)
    n, total = step_of(msg)
    while n < total:
        await h.click(user, msg, f"rpl:{match_id}:{n}:n")
        assert step_of(msg) == (n + 1, total)
        lines += told(msg)
        n += 1
    assert msg.component(f"rpl:{match_id}:{total - 1}:n")["disabled"] is True
    return lines


async def test_a_finished_match_steps_through_its_rounds_with_every_secret_named(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy = (h.add_member(guild, n) for n in ("ann", "bob", "cy"))
    done = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(done, random.Random(8))
    match, names = await rebuilt(world, done)
    record = await world.service.get(done)

    rp = await h.slash(cy, ch, "replay", {"match": done})
    msg = rp.message
    assert rp.ephemeral  # private to whoever opened it
    assert msg.embed["title"].startswith(f"🎞️ Replay of match #{done} · Wizards Cup · step 1/")
    first, total = step_of(msg)
    # one step per resolution: a Wizards Cup round is resolved at once (its duels, its end)
    steps, _ = build_steps(MatchLog(**match.to_log().model_dump()), get_ui("wizards-cup").story_kinds, over=True)
    rounds = sum(1 for e in match.events if e.kind == "round_end")
    assert first == 1 and len(steps) <= total <= len(steps) + 2 and rounds <= len(steps) <= rounds + 2
    assert [b["label"] for b in msg.buttons] == ["⏮ First", "◀ Back", f"Step 1/{total}", "Next ▶", "Last ⏭"]
    world.bot._connection._view_store._views.clear()  # restart-proof: nothing kept in memory
    lines = await walk(h, cy, msg, done)

    # every event told once, in order: public ones but the "is ready" notices, and every secret
    expected = story_lines(match.events, names, game="wizards-cup", revealed=True)
    assert [n for n, _ in lines] == [line.index + 1 for line in expected]
    text = "\n".join(t for _, t in lines)
    assert "is ready" not in text and "has chosen their Deck" not in text
    assert any(t.startswith("🔒 (secret, ann) ann's Deck: ") for _, t in lines)
    assert any(t.startswith("🔒 (secret, bob) bob's order: ") and "Waiting card" in t for _, t in lines)
    assert sum(t.startswith("🔒 (secret, ") for _, t in lines) == sum(e.visible_to is not None for e in match.events)
    assert any(f["name"] == "Result" and record.summary in f["value"] for f in msg.embed["fields"])
    assert "every secret is shown" in msg.embed["footer"]["text"]

    # first / back / last
    await h.click(cy, msg, f"rpl:{done}:0:f")
    assert step_of(msg) == (1, total) and msg.component(f"rpl:{done}:0:b")["disabled"] is True
    await h.click(cy, msg, f"rpl:{done}:{total - 1}:l")
    assert step_of(msg) == (total, total)
    await h.click(cy, msg, f"rpl:{done}:{total - 2}:b")
    assert step_of(msg) == (total - 1, total)
    assert h.violations == []


async def test_firewall_steps_are_turns_with_the_board_picture(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    done = await world.start("firewall", guild, [ann, bob])
    await world.play(done, random.Random(3))
    match, _ = await rebuilt(world, done)
    msg = (await h.slash(ann, ch, "replay", {"match": done})).message
    _, total = step_of(msg)
    turns = sum(1 for e in match.events if e.kind == "turn_end")
    assert turns <= total <= turns + 2
    await h.click(ann, msg, f"rpl:{done}:1:n")
    assert len(msg.embeds) >= 2 and msg.attachments, msg.embeds  # the board after the step, with its picture
    shown = {e.get("image", {}).get("url") for e in msg.embeds} | {
        e.get("thumbnail", {}).get("url") for e in msg.embeds
    }
    assert {f"attachment://{a['filename']}" for a in msg.attachments} <= shown
    lines = [t for _, t in told(msg)]
    assert any("Paid: ann" in t for t in lines) and not any(t.endswith("is ready.") for t in lines)
    assert any(t.startswith("🔒 (secret, ann) ann bets ") for t in lines)
    assert h.violations == []


async def test_a_live_match_is_shown_as_a_spectator_sees_it_then_revealed(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy = (h.add_member(guild, n) for n in ("ann", "bob", "cy"))
    rng = random.Random(8)
    live = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(live, rng, until_finished=False, moves=6)
    assert (await world.service.get(live)).status is MatchStatus.ACTIVE
    match, names = await rebuilt(world, live)
    secrets = {e.render(names) for e in match.events if e.visible_to is not None}
    assert secrets

    rp = await h.slash(cy, ch, "replay", {"match": live})  # a spectator view
    msg = rp.message
    assert rp.ephemeral and "spectator view" in msg.embed["footer"]["text"]
    lines = await walk(h, cy, msg, live)
    assert "⏳" in msg.text()  # the live match's present: who is being waited on (only on its last step)
    public = story_lines(match.events, names, game="wizards-cup", revealed=False)
    assert [n for n, _ in lines] == [line.index + 1 for line in public]
    everything = "\n".join(m.text() for m in h.messages_in(ch, include_ephemeral=True))
    for secret in secrets:
        assert secret not in everything
    assert "🔒" not in everything and "(secret, " not in everything
    assert not any(f["name"] == "Result" for f in msg.embed["fields"])

    # the match ends: the same message's buttons now tell every secret
    await world.play(live, rng)
    _, total = step_of(msg)
    await h.click(cy, msg, f"rpl:{live}:0:f")
    lines = await walk(h, cy, msg, live)
    assert any(t.startswith("🔒 (secret, ann) ") for _, t in lines)
    assert "every secret is shown" in msg.embed["footer"]["text"]
    assert h.violations == []


async def test_abandoned_matches_replay_and_what_has_no_log_or_is_elsewhere_is_refused(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    abandoned = await world.start("wizards-cup", guild, [ann, bob])
    world.clock.now += 10 * 3600
    await timer_pass(world.service)
    assert (await world.service.get(abandoned)).status is MatchStatus.ABANDONED
    rp = await h.slash(bob, ch, "replay", {"match": abandoned})
    assert rp.ephemeral and rp.message.embed["title"].startswith(f"🎞️ Replay of match #{abandoned}")
    assert any(f["name"] == "Result" for f in rp.message.embed["fields"])

    world.clock.now += 60
    pending = await world.service.create_challenge(
        "wizards-cup", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
    )
    refused = await h.slash(ann, ch, "replay", {"match": pending.id})
    assert refused.ephemeral and f"Match #{pending.id} has not started: there is nothing to replay." in refused.content
    refused = await h.slash(ann, ch, "replay", {"match": 9999})
    assert refused.ephemeral and "There is no match #9999 in this server." in refused.content
    other = h.add_guild("Elsewhere")
    och = h.add_text_channel(other, "general")
    eve = h.add_member(other, "eve")
    refused = await h.slash(eve, och, "replay", {"match": abandoned})
    assert refused.ephemeral and f"There is no match #{abandoned} in this server." in refused.content
    # servers are kept apart: a player of the match, from another server, is refused the same way
    h.add_member(other, ann)
    refused = await h.slash(ann, och, "replay", {"match": abandoned})
    assert refused.ephemeral and refused.content == f"⚠️ There is no match #{abandoned} in this server."
    # the match id is bounded to Discord's integer range (SQLite's would overflow above 2^63 - 1)
    refused = await h.slash(ann, ch, "replay", {"match": MAX_MATCH_ID})
    assert refused.ephemeral and f"no match #{MAX_MATCH_ID} in this server" in refused.content
    for bad in (2**63, MAX_MATCH_ID + 1, 0, -1):
        with pytest.raises(HarnessError, match="outside"):
            await h.slash(ann, ch, "replay", {"match": bad})
    assert h.violations == []


async def test_old_page_buttons_and_the_cards_replay_button_open_the_stepper(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    done = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(done, random.Random(8))
    channel = world.bot.get_channel(ch.id)
    assert isinstance(channel, discord.TextChannel)
    match, _ = await rebuilt(world, done)
    steps, _ = build_steps(match.to_log(), get_ui("wizards-cup").story_kinds, over=True)
    public = [i for i, e in enumerate(match.events) if e.visible_to is None]
    page = (len(public) - 1) // 15  # the old last page: 15 public events a page
    expected = max(s.number for s in steps if s.first_event <= public[page * 15])
    assert expected > 0

    # a replay message posted by the old /replay (text pages): its Next button still works
    old = discord.ui.View(timeout=None)
    for cid, label in (
        (f"replay:{done}:0:p", "◀ Previous"),
        (f"replay:{done}:0:i", "Page 1/9"),
        (f"replay:{done}:{page}:n", "Next ▶"),
    ):
        old.add_item(discord.ui.Button(label=label, custom_id=cid, disabled=cid.endswith("p")))
    await channel.send(embed=discord.Embed(title=f"🎞️ Replay of match #{done} · Wizards Cup"), view=old)
    msg = h.last_message(ch)
    res = await h.click(ann, msg, f"replay:{done}:0:i")  # the counter (or the first Replay button)
    assert res.message is not None and res.message.flags & 64 and step_of(res.message)[0] == 1
    assert not msg.edited
    # an old public message nobody owns: it stays as it is; the clicker gets their own copy there
    res = await h.click(bob, msg, f"replay:{done}:{page}:n")
    assert not msg.edited and res.ephemeral and "shown to everyone" in res.content
    n, total = step_of(res.message)
    pages = paginate(await world.bot.replays.replay(await world.service.get(done), get_ui("wizards-cup").story_kinds))
    assert n == first_page_of_step(pages, expected) + 1 and total == len(pages)  # where the old page began
    assert res.message.custom_ids[0] == f"rpl:{done}:0:f"

    # the end-of-match card's Replay button: a new ephemeral stepper, the card unchanged
    card_view = discord.ui.View(timeout=None)
    card_view.add_item(replay_button(done))
    await channel.send(content="🏁 The match is over.", view=card_view)
    card = h.last_message(ch)
    assert card.custom_ids == [f"rpl:{done}:open"]
    world.bot._connection._view_store._views.clear()
    res = await h.click(bob, card, f"rpl:{done}:open")
    opened = res.message
    assert opened is not None and opened.flags & 64  # ephemeral
    assert step_of(opened) == (1, total) and not card.edited and card.content == "🏁 The match is over."
    await h.click(bob, opened, f"rpl:{done}:1:n")
    assert step_of(opened) == (2, total) and not card.edited

    # a button of a stepper far past the end (an old or crafted id): the last step, nothing else
    crafted = discord.ui.View(timeout=None)
    crafted.add_item(discord.ui.Button(label="Next ▶", custom_id=f"rpl:{done}:999999:n"))
    await channel.send(content="crafted", view=crafted)
    far = h.last_message(ch)
    res = await h.click(ann, far, f"rpl:{done}:999999:n")
    assert step_of(res.message) == (total, total) and not far.edited
    # another server's match, from a button in a channel of that other server: refused, unchanged
    other = h.add_guild("Elsewhere")
    och = h.add_text_channel(other, "general")
    eve = h.add_member(other, "eve")
    foreign = world.bot.get_channel(och.id)
    assert isinstance(foreign, discord.TextChannel)
    stolen = discord.ui.View(timeout=None)
    stolen.add_item(discord.ui.Button(label="Next ▶", custom_id=f"rpl:{done}:1:n"))
    await foreign.send(content="a copied stepper", view=stolen)
    copied = h.last_message(och)
    refused = await h.click(eve, copied, f"rpl:{done}:1:n")
    assert refused.ephemeral and f"There is no match #{done} in this server." in refused.content
    assert not copied.edited and copied.content == "a copied stepper"
    assert h.violations == []


# ------------------------------------------------------------------------------ issue 31 part 5

#: What a step of the past must never say (a prompt of the live board: who is asked what now).
PRESENT = re.compile(r"⏳|\bis (choosing|deciding)\b|\bchoosing a\b|^Next:|Waiting for|choose a bet", flags=re.M)


def pictured(msg: Any) -> bool:
    """The message shows a picture, and every picture it names is attached."""
    shown = {e.get("image", {}).get("url") for e in msg.embeds} - {None}
    attached = {f"attachment://{a['filename']}" for a in msg.attachments}
    return bool(shown) and shown <= attached and bool(msg.files or msg.attachments)


async def walk_pictures(h: Any, user: Any, msg: Any, match_id: int) -> list[str]:
    """Every screen's text, from the first to the last, checking each has its picture."""
    await h.click(user, msg, f"rpl:{match_id}:0:f") if step_of(msg)[0] != 1 else None
    texts = []
    n, total = step_of(msg)
    while True:
        assert pictured(msg), (n, msg.embeds, msg.attachments)
        texts.append(msg.text())
        if n == total:
            return texts
        await h.click(user, msg, f"rpl:{match_id}:{n}:n")
        n += 1
        assert step_of(msg) == (n, total)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players", "seed"),
    [("wizards-cup", 2, 8), ("firewall", 2, 3), ("magic-duel", 3, 5), ("arena", 2, 4)],
)
async def test_every_step_of_every_game_has_its_picture_and_speaks_of_the_past(
    world: World,  # noqa: F811
    game: str,
    players: int,
    seed: int,
) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    wizards = [h.add_member(guild, n) for n in ("ann", "bob", "cy", "dee")[:players]]
    done = await world.start(game, guild, wizards)
    await world.play(done, random.Random(seed))
    record = await world.service.get(done)
    msg = (await h.slash(wizards[0], ch, "replay", {"match": done})).message
    texts = await walk_pictures(h, wizards[0], msg, done)
    for n, text in enumerate(texts, start=1):
        assert not PRESENT.search(text), (n, PRESENT.search(text), text)
    assert "Result" in texts[-1] and record.summary in texts[-1]  # the last step: how it ended
    if len(texts) > 1:
        assert "▶ Then" in texts[0]  # what was played next
    if game == "magic-duel":  # the trick pictures, as the thread had them
        names = {a["filename"] for m in [msg.payload, *msg.history] for a in (m.get("attachments") or [])}
        assert any(n.startswith("trick-") for n in names), names
    assert h.violations == []


async def test_a_shared_replay_is_stepped_by_its_opener_only_and_a_long_one_jumps(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy = (h.add_member(guild, n) for n in ("ann", "bob", "cy"))
    done = await world.start("magic-duel", guild, [ann, bob, cy])
    await world.play(done, random.Random(5))

    rp = await h.slash(cy, ch, "replay", {"match": done, "share": True})
    msg = rp.message
    assert not rp.ephemeral and step_of(msg)[0] == 1
    _, total = step_of(msg)
    assert total > 10

    # bob clicks cy's public stepper: refused in words, with his own copy; cy's message unchanged
    before, versions = msg.embeds, len(msg.history)
    res = await h.click(bob, msg, f"rpl:{done}:1:n")
    assert res.ephemeral and "Only cy can step this replay" in res.content and "nothing changed" in res.content
    assert len(msg.history) == versions and msg.embeds == before
    own = res.message
    assert own.flags & 64 and step_of(own) == (2, total)
    await h.click(bob, own, f"rpl:{done}:2:n")  # his copy is his to step
    assert step_of(own) == (3, total) and len(msg.history) == versions
    jump = f"rpl:{done}:jump"
    res = await h.select(bob, msg, jump, [msg.component(jump)["options"][-1]["value"]])
    assert res.ephemeral and "Only cy" in res.content and len(msg.history) == versions

    # cy steps it
    await h.click(cy, msg, f"rpl:{done}:1:n")
    assert step_of(msg) == (2, total)

    # the jump select: at most 25 options, named as players count the game, in order, every step reachable
    options = msg.component(jump)["options"]
    assert 10 < len(options) <= 25 and len(msg.selects) == 1
    assert options[0]["label"].startswith("Hand 1 is dealt")
    assert any(o["label"].startswith("Hand 1 · trick 1") for o in options[:2])
    values = [int(o["value"]) for o in options]
    assert values == sorted(values) and values[0] == 0
    world.bot._connection._view_store._views.clear()  # restart-proof
    target = options[len(options) // 2]
    await h.select(cy, msg, jump, [target["value"]])
    assert step_of(msg) == (int(target["value"]) + 1, total)
    assert target["label"].split(" … ")[0] in msg.embed["description"]
    assert pictured(msg)
    await h.select(cy, msg, jump, [options[-1]["value"]])
    assert step_of(msg)[0] == int(options[-1]["value"]) + 1

    # a short match has no jump select
    short = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(short, random.Random(8))
    small = (await h.slash(ann, ch, "replay", {"match": short})).message
    assert step_of(small)[1] <= 10 and small.selects == []
    assert h.violations == []


async def test_an_old_or_damaged_jump_is_answered(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    done = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(done, random.Random(8))
    channel = world.bot.get_channel(ch.id)
    assert isinstance(channel, discord.TextChannel)
    old = discord.ui.View(timeout=None)
    old.add_item(
        discord.ui.Select(
            custom_id=f"rpl:{done}:jump",
            options=[discord.SelectOption(label="far", value="999999"), discord.SelectOption(label="bad", value="x")],
        )
    )
    old.add_item(discord.ui.Button(label="Next ▶", custom_id="rpl:12a:1:n"))
    await channel.send(content="an old stepper", view=old)
    msg = h.last_message(ch)
    res = await h.select(ann, msg, f"rpl:{done}:jump", ["999999"])  # past the end: the last step, privately
    n, total = step_of(res.message)
    assert res.ephemeral and n == total and not msg.edited
    res = await h.select(ann, msg, f"rpl:{done}:jump", ["x"])
    assert res.ephemeral and "damaged or out of date" in res.content and not msg.edited
    res = await h.click(ann, msg, "rpl:12a:1:n")
    assert res.ephemeral and "damaged or out of date" in res.content and not msg.edited
    assert h.violations == []


def test_more_steps_than_a_select_holds_are_grouped_evenly() -> None:
    match = Match.new("magic-duel", None, 1, ["ann", "bob", "cy"])
    rng = random.Random(1)
    while not match.awaiting.is_terminal:
        seat = min(match.awaiting.seats)
        legal = match.state.legal_actions(seat)
        match.act(seat, legal[rng.randrange(len(legal))])
    steps, outcome = build_steps(match.to_log(), get_ui("magic-duel").story_kinds, over=True)
    record: Any = SimpleNamespace(id=1, game="magic-duel", names=["ann", "bob", "cy"], status=MatchStatus.FINISHED)
    replay = MatchReplay(record, tuple(steps), True, None, outcome)
    pages = paginate(replay)
    assert len(pages) > 25
    options = jump_options(replay, pages)
    assert len(options) <= 25 and [o.value for o in options] == sorted((o.value for o in options), key=int)
    covered = [
        (int(a.value), int(b.value) if b is not None else len(pages))
        for a, b in zip(options, [*options[1:], None], strict=True)
    ]
    sizes = {hi - lo for lo, hi in covered[:-1]}
    assert len(sizes) == 1 or max(sizes) - min(sizes) <= 2  # even groups (a long step takes more screens)
    assert options[0].label.startswith("Hand 1 is dealt … Hand 1 · trick ") and options[0].description == "Steps 1–2"
    assert all(len(o.label) <= 100 for o in options)


@pytest.mark.slow
async def test_the_client_s_timer_loop_abandons_a_match_nobody_plays_and_its_replay_shows(
    discord_harness,  # noqa: F811
    tmp_path,
) -> None:
    """What the tests above get from ``tick()`` on a fake clock (a match nobody moves in is
    abandoned and can still be replayed), done by the running client's own loop on the real clock."""
    db = await Database.open(tmp_path / "bot.sqlite3")
    built = build_bot(running_settings(tmp_path / "bot.sqlite3"), db), db  # timers on: python -m bot's bot
    async with running_firewall_match(discord_harness, tmp_path, built) as (h, bot, ch, ann, bob, record, ticks):
        await until_not_active(h, bot, record.id)  # nobody moves, nobody calls tick
        assert (await bot.service.get(record.id)).status is MatchStatus.ABANDONED
        rp = await h.slash(bob, ch, "replay", {"match": record.id})
        assert rp.ephemeral and rp.message.embed["title"].startswith(f"🎞️ Replay of match #{record.id}")
        assert any(f["name"] == "Result" for f in rp.message.embed["fields"])
        other = h.add_guild("Elsewhere")  # the match belongs to its server, as in the test above
        eve = h.add_member(other, "eve")
        refused = await h.slash(eve, h.add_text_channel(other, "general"), "replay", {"match": record.id})
        assert refused.ephemeral and f"There is no match #{record.id} in this server." in refused.content
        assert ticks() >= 1
