"""Servers are isolated from each other (issue 30, part 1), and every custom_id grammar bounds its
numbers (part 5b): through the fake Discord, the real bot with all its cogs.

Server "Academy" has a live match, a finished one, a challenge, an open table, a practice match
and a tournament in sign-up. From server "Elsewhere", its owner (eve: every permission there, not
a member of Academy) and ann (a player of Academy's matches, also a member of Elsewhere) run EVERY
command that names a match, a tournament, a replay, a log or a rating, and press EVERY kind of
button, select and modal, naming Academy's resources. Each one must be refused in one ephemeral
line, with exactly the words a never-used id gets (naming another server's resource reveals
nothing), and leave every row of every table as it was.

Commands that name no resource of a server (they act on the caller's own server, or show what is
global by design) are listed in :data:`NAMES_NOTHING` with the reason; a test checks that every
command of the tree is in one list or the other, and that the listing ones show nothing of Academy.

In a DM (rulings, docs/players.md "Servers are kept apart"): a button acts only for the clicking
user's own seat (eve's DM clicks on Academy's buttons are refused as above; ann's own prompt
buttons work in DMs, as every game flow test shows); a command run in a DM that names a match
resolves it among the user's own matches (the prompts come by DM, so a player's DM reaches their
own matches, of any server); /tournament is guild-only.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from typing import Any

import discord
import pytest

from bot.matches import MatchStatus
from cogs.games.base import TEXT_FIELD_ID
from tests.cogs.hostile_commands import chat_commands, root_and_sub
from tests.discord_flows import make  # noqa: F401  (pytest fixture)

MISSING = 987_654  # an id nothing has
STRANGER_GUILD = 123_456_789_012  # a server id the bot does not know

#: Every command that names a match, tournament, replay, log or rating: the matrix below runs it.
NAMES_A_RESOURCE = {
    "forfeit",
    "hint",
    "replay",
    "tournament start",
    "tournament cancel",
    "tournament pause",
    "tournament resume",
    "tournament drop",
    "tournament deadline",
    "tournament view",
}
#: Commands that name nothing of a server, and why (each is still run from Elsewhere below, and
#: must show nothing of Academy's).
NAMES_NOTHING = {
    "challenge": "creates a match in the caller's own server",
    "practice": "creates a match in the caller's own server",
    "status": "the caller's own live matches; in a server only that server's",
    "rules": "a game's rules: no server data",
    "card": "a game piece: no server data",
    "help": "no server data",
    "howto": "no server data",
    "leaderboard": "the caller's server's ladder, or the global one (global by design)",
    "profile": "a player's ladders in the caller's server and the global one (global by design)",
    "history": "the caller's own server's finished matches",
    "settings": "the caller's own server's settings",
    "tournament create": "creates a tournament in the caller's own server",
    "tournament history": "the caller's own server's past tournaments",
    "season start": "starts a season of the caller's own server",
    "season end": "ends the caller's own server's season",
    "season list": "the caller's own server's seasons",
    "season leagues": "the caller's own server's leagues",
    "season roles": "the caller's own server's league roles",
}


async def snapshot(db: Any) -> dict[str, list[str]]:
    """Every row of every table (sorted), to compare before and after."""
    names = [r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    assert "matches" in names and "tournaments" in names
    return {n: sorted(repr(tuple(r)) for r in await db.fetchall(f'SELECT * FROM "{n}"')) for n in names}


def said(result: Any) -> str:
    return "\n".join(m.content or "" for m in result.messages if m.content) or (result.content or "")


def shown(result: Any) -> str:
    """Everything the answer shows: text and embeds."""
    return "\n".join(m.text() for m in result.messages)


class World:
    """Academy's resources and Elsewhere's people."""

    h: Any
    bot: Any
    db: Any


@pytest.fixture
async def world(make, tmp_path):  # noqa: F811
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    h, bot, db = await make(tmp_path / "isolation.sqlite3")
    computer = bot.service.computer
    computer._executor, computer._owns_executor = pool, False

    async def paced(seconds: float) -> None:
        h.advance(seconds)
        await asyncio.sleep(0)

    computer.sleep = paced
    w = World()
    w.h, w.bot, w.db = h, bot, db
    w.academy = h.add_guild("Academy")
    w.ach = h.add_text_channel(w.academy, "duels")
    w.ann, w.bob, w.cy = (h.add_member(w.academy, n) for n in ("ann", "bob", "cy"))
    w.eve = h.add_user("eve")
    w.elsewhere = h.add_guild("Elsewhere", owner=w.eve)
    w.bch = h.add_text_channel(w.elsewhere, "general")
    h.add_member(w.elsewhere, w.eve)
    h.add_member(w.elsewhere, w.ann)
    s, g, c = bot.service, w.academy.id, w.ach.id
    ann, bob = (w.ann.id, "ann"), (w.bob.id, "bob")
    w.live = (await s.create_challenge("firewall", None, g, c, ann, [bob])).id
    await s.accept(w.live, w.bob.id)
    w.done = (await s.create_challenge("firewall", None, g, c, ann, [bob])).id
    await s.accept(w.done, w.bob.id)
    await s.forfeit(w.done, w.bob.id)
    w.invite = (await s.create_challenge("firewall", None, g, c, bob, [ann])).id
    w.table = (await s.create_challenge("magic-duel", None, g, c, ann, [], open_table=True)).id
    w.practice = (await s.practice("firewall", None, g, c, ann)).id
    await s.start_if_ready(w.practice)
    await h.settle()
    await s.computers_settle()
    await s.settle()
    await h.settle()
    assert (await s.get(w.live)).status is MatchStatus.ACTIVE
    assert (await s.get(w.done)).status is MatchStatus.FINISHED
    w.sp_live = await s.prompt(w.live, 0)
    w.sp_practice = await s.prompt(w.practice, 0)
    assert w.sp_live.awaited and w.sp_practice.awaited
    t = bot.tournaments
    w.tour = (await t.create(g, c, w.bob.id, "firewall", "swiss")).id
    await t.join(w.tour, ann)
    await t.join(w.tour, (w.cy.id, "cy"))
    w.season = (await bot.seasons.start(g, w.bob.id, name="Spring")).id
    await h.settle()
    # ann's real prompt of the live match (a DM): its first button, copied to Elsewhere below
    prompts = [m for m in h.dms_to(w.ann) if any(i.startswith(f"m:{w.live}:0:") for i in m.custom_ids)]
    w.prompt_id = next(i for i in prompts[-1].custom_ids if i.startswith(f"m:{w.live}:0:"))
    yield w
    pool.shutdown(wait=True, cancel_futures=True)


async def post(w: World, channel: Any, custom_id: str, *, select: bool = False) -> Any:
    """A message of the bot in ``channel`` (a channel of Elsewhere, or a DM) carrying one button
    (or select) with ``custom_id``: what a copied or forged message gives a user to press."""
    view = discord.ui.View(timeout=None)
    if select:
        view.add_item(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="x", value="x")]))
    else:
        view.add_item(discord.ui.Button(label="press", custom_id=custom_id))
    if channel == "dm":
        dm = await w.bot.create_dm(discord.Object(id=w.eve.id))
        await dm.send("a forged message", view=view)
        return w.h.dms_to(w.eve)[-1]
    await w.bot.get_channel(channel.id).send("a copied message", view=view)
    return w.h.last_message(channel)


def buttons(w: World) -> list[tuple[str, str, Any]]:
    """Every button / select / modal kind: (kind, who presses it, custom_id template with {id}
    for the resource named: Academy's, or MISSING)."""
    step_live, step_pr = w.sp_live.seat_step, w.sp_practice.seat_step
    payload = w.prompt_id.split(":", 4)[4]
    return [
        ("ch accept", "ann", "ch:{invite}:accept"),
        ("ch decline", "ann", "ch:{invite}:decline"),
        ("ch join", "eve", "ch:{table}:join"),
        ("ch leave", "ann", "ch:{table}:leave"),
        ("ch start", "ann", "ch:{table}:start"),
        ("open (Submit privately)", "ann", "open:{live}:0"),
        ("prompt button", "ann", "m:{live}:0:%d:%s" % (step_live, payload)),
        ("prompt select", "ann", "m:{live}:0:%d:%s" % (step_live, payload)),
        ("prompt modal", "ann", "m:{live}:0:%d:%s" % (step_live, payload)),
        ("hint", "ann", "hint:{practice}:0:%d" % step_pr),
        ("hint play this", "ann", "hintplay:{practice}:0:%d" % step_pr),
        ("end rematch", "ann", "end:rematch:{done}"),
        ("end log", "eve", "end:log:{done}"),
        ("end log (a player)", "ann", "end:log:{done}"),
        ("review (practice end card)", "ann", "review:{practice}"),
        ("replay stepper", "eve", "rpl:{done}:1:n"),
        ("replay stepper (a player)", "ann", "rpl:{done}:0:f"),
        ("replay open", "ann", "rpl:{done}:open"),
        ("replay jump select", "eve", "rpl:{done}:jump"),
        ("old replay pages", "eve", "replay:{done}:0:n"),
        ("old replay pages, counter", "ann", "replay:{done}:0:i"),
        ("tournament join", "eve", "tournament:join:{tour}"),
        ("tournament leave", "ann", "tournament:leave:{tour}"),
        ("tournament history", "eve", "tournament:history:{guild}:0:n"),
        ("leaderboard pages", "eve", "lb:firewall:{guild}:0:n"),
        ("match history pages", "eve", "hist:{guild}:_:0:n"),
        ("play in the browser", "ann", "web:seat:{live}"),
        ("season leaderboard pages", "eve", "season:lb:{season}:toy-guess:0:n"),
    ]


def fill(w: World, template: str, foreign: bool) -> str:
    if foreign:
        ids = dict(
            invite=w.invite, table=w.table, live=w.live, practice=w.practice, done=w.done, tour=w.tour, season=w.season
        )
        return template.format(guild=w.academy.id, **ids)
    names = ("invite", "table", "live", "practice", "done", "tour", "season")
    return template.format(guild=STRANGER_GUILD, **dict.fromkeys(names, MISSING))


async def press(w: World, kind: str, user: Any, channel: Any, custom_id: str) -> Any:
    h = w.h
    if kind.startswith("prompt modal"):
        target = h.dm_channel(user) if channel == "dm" else channel
        return await h.submit_modal(user, {TEXT_FIELD_ID: "3"}, custom_id=custom_id, channel=target)
    if kind.startswith(("prompt select", "replay jump")):
        msg = await post(w, channel, custom_id, select=True)
        return await h.select(user, msg, custom_id, ["x"])
    msg = await post(w, channel, custom_id)
    return await h.click(user, msg, custom_id)


def anonymous(text: str, *ids: int) -> str:
    for i in ids:
        text = text.replace(str(i), "N")
    return text


async def refused_like_missing(w: World, run: Any, what: str, foreign_ids: tuple[int, ...]) -> None:
    """``run(foreign)`` on Academy's resource: refused in one ephemeral line, nothing changed, the
    same words as ``run(False)`` on an id nothing has."""
    before = await snapshot(w.db)
    got = await run(True)
    await w.h.settle()
    await w.bot.service.settle()
    await w.bot.tournaments.settle()
    after = await snapshot(w.db)
    changed = [t for t in before if before[t] != after[t]]
    assert not changed, f"{what}: changed {changed}"
    text = said(got)
    assert got.ephemeral, f"{what}: not refused ephemerally: {text!r}"
    assert text.startswith("⚠️") and "\n" not in text and "Something went wrong" not in text, f"{what}: {text!r}"
    missing = await run(False)
    await w.h.settle()
    assert await snapshot(w.db) == before, what
    assert anonymous(text, *foreign_ids) == anonymous(said(missing), MISSING, STRANGER_GUILD), (
        f"{what}: {text!r} differs from a missing id's {said(missing)!r}"
    )


def user_of(w: World, who: str) -> Any:
    return {"ann": w.ann, "eve": w.eve}[who]


def foreign_ids(w: World) -> tuple[int, ...]:
    return (w.academy.id, w.invite, w.table, w.live, w.practice, w.done, w.tour, w.season)


@pytest.mark.slow
async def test_every_button_kind_naming_another_servers_resource_is_refused(world) -> None:
    w = world
    for kind, who, template in buttons(w):

        async def run(foreign: bool, kind=kind, who=who, template=template) -> Any:
            return await press(w, kind, user_of(w, who), w.bch, fill(w, template, foreign))

        await refused_like_missing(w, run, f"{kind} by {who} in Elsewhere", foreign_ids(w))
    assert w.h.violations == []


async def test_every_button_kind_pressed_in_a_dm_by_a_stranger_is_refused(world) -> None:
    """eve has no seat in Academy: in her DM, a forged button naming its resource does nothing."""
    w = world
    for kind, _, template in buttons(w):

        async def run(foreign: bool, kind=kind, template=template) -> Any:
            return await press(w, kind, w.eve, "dm", fill(w, template, foreign))

        await refused_like_missing(w, run, f"{kind} by eve in a DM", foreign_ids(w))


def commands_of(w: World) -> list[tuple[str, str, dict[str, Any]]]:
    """Every command that names a resource: (command, who, options with {id} for the resource)."""
    return [
        ("forfeit", "ann", {"match": "{live}"}),
        ("hint", "ann", {"match": "{practice}"}),
        ("replay", "eve", {"match": "{done}"}),
        ("replay", "ann", {"match": "{done}"}),
        ("tournament start", "eve", {"tournament": "{tour}"}),
        ("tournament cancel", "eve", {"tournament": "{tour}"}),
        ("tournament pause", "eve", {"tournament": "{tour}"}),
        ("tournament resume", "eve", {"tournament": "{tour}"}),
        ("tournament drop", "eve", {"tournament": "{tour}", "player": "ann"}),
        ("tournament deadline", "eve", {"tournament": "{tour}", "duration": "1h"}),
        ("tournament view", "eve", {"tournament": "{tour}"}),
        ("tournament view", "ann", {"tournament": "{tour}"}),
    ]


async def test_every_command_naming_another_servers_resource_is_refused(world) -> None:
    w = world
    for command, who, options in commands_of(w):

        async def run(foreign: bool, command=command, who=who, options=options) -> Any:
            values: dict[str, Any] = {}
            for k, v in options.items():
                if v == "ann":
                    values[k] = w.ann
                elif v.startswith("{"):
                    values[k] = int(fill(w, v, foreign))
                else:
                    values[k] = v
            return await w.h.slash(user_of(w, who), w.bch, command, values)

        await refused_like_missing(w, run, f"/{command} by {who} in Elsewhere", foreign_ids(w))
    assert w.h.violations == []


async def test_the_matrix_covers_every_command(world) -> None:
    names = set()
    for cmd in chat_commands(world.bot.tree):
        root, sub = root_and_sub(cmd)
        names.add(f"{root} {sub}" if sub else root)
    assert names == NAMES_A_RESOURCE | set(NAMES_NOTHING), names ^ (NAMES_A_RESOURCE | set(NAMES_NOTHING))
    assert {c for c, _, _ in commands_of(world)} == NAMES_A_RESOURCE


#: Buttons that name no server's resource: the same public answer wherever they are pressed.
BUTTONS_NAMING_NOTHING = [("card rules", "card:rules:firewall")]


async def test_buttons_naming_nothing_answer_the_same_anywhere(world) -> None:
    """The match card's Rules button names a game, not a match: pressed in another server or in a
    DM it shows the same public rules, and nothing of any server."""
    w, h = world, world.h
    for _kind, custom_id in BUTTONS_NAMING_NOTHING:
        answers = []
        for user, channel in ((w.eve, w.bch), (w.eve, "dm"), (w.ann, w.bch)):
            msg = await post(w, channel, custom_id)
            r = await h.click(user, msg, custom_id)
            assert r.ephemeral
            answers.append(shown(r))
        assert answers[0] == answers[1] == answers[2] and "Firewall" in answers[0]
        assert not any(f"#{i}" in answers[0] for i in (w.live, w.done, w.invite, w.table, w.practice))
    assert h.violations == []


async def test_the_matrix_covers_every_button_kind(world) -> None:
    """Every DynamicItem the bot registers (and the prompt modals) has a row in the matrix."""
    w = world
    ids = [fill(w, t, True) for _, _, t in buttons(w)] + [cid for _, cid in BUTTONS_NAMING_NOTHING]
    store = w.bot._connection._view_store
    for pattern, item in store._dynamic_items.items():
        assert any(pattern.fullmatch(i) for i in ids), f"{item.__name__} has no row in the matrix"
    kinds = {k for k, _, _ in buttons(w)}
    assert {"prompt button", "prompt select", "prompt modal", "open (Submit privately)"} <= kinds


async def test_commands_that_name_nothing_show_nothing_of_another_server(world) -> None:
    """From Elsewhere, nothing lists, counts or acts on Academy's matches or tournaments."""
    w, h = world, world.h
    academy_ids = {w.live, w.done, w.invite, w.table, w.practice}
    before = await snapshot(w.db)
    status = await h.slash(w.ann, w.bch, "status")
    assert not any(f"#{i}" in shown(status) for i in academy_ids), shown(status)
    assert all(not m.custom_ids for m in status.messages)
    hist = await h.slash(w.eve, w.bch, "history")
    assert not any(f"#{i}" in shown(hist) for i in academy_ids), shown(hist)
    board = await h.slash(w.eve, w.bch, "leaderboard", {"game": "firewall"})
    assert "ann" not in shown(board) and "bob" not in shown(board)
    past = await h.slash(w.eve, w.bch, "tournament history")
    assert f"#{w.tour}" not in shown(past)
    # no tournament named: this channel's only open one (Academy's is not in it)
    for sub in ("start", "cancel", "pause", "resume", "view"):
        r = await h.slash(w.eve, w.bch, f"tournament {sub}")
        assert r.ephemeral and "no open tournament in this channel" in r.content
    # no match named: only this server's live matches count (ann has three in Academy)
    r = await h.slash(w.ann, w.bch, "forfeit")
    assert r.ephemeral and "no live match in this server" in r.content, r.content
    r = await h.slash(w.ann, w.bch, "hint")
    assert r.ephemeral and "no practice match in play in this server" in r.content, r.content
    await h.settle()
    assert await snapshot(w.db) == before
    assert h.violations == []


async def test_in_a_dm_a_player_reaches_their_own_matches(world) -> None:
    """The DM ruling: a player's DM reaches their own matches, of any server."""
    w, h = world, world.h
    dm = h.dm_channel(w.ann)
    status = await h.slash(w.ann, dm, "status")
    assert f"#{w.live}" in shown(status) and f"#{w.practice}" in shown(status)
    replay = await h.slash(w.ann, dm, "replay", {"match": w.done})
    assert not replay.ephemeral or "⚠️" not in said(replay)
    assert f"Replay of match #{w.done}" in replay.messages[-1].text()
    r = await h.slash(w.eve, h.dm_channel(w.eve), "replay", {"match": w.done})
    assert r.ephemeral and r.content == f"⚠️ You have no match #{w.done}."


# ------------------------------------------------------------------------------ custom_id bounds

BAD_NUMBERS = [str(2**53), str(2**63), str(2**64), "-1", "x", "1e3", ""]
#: Fields that hold a Discord snowflake (a server's id), not one of the bot's own numbers: Discord's
#: snowflakes are above 2^53 (they fit 63 bits), so there the bound is 2^63 - 1.
SNOWFLAKE_KINDS = {"tournament history": 0, "leaderboard pages": 1, "match history pages": 0}


def bounds_cases(w: World) -> list[tuple[str, str, str, bool]]:
    """(kind, who, custom_id with {n} in each numeric field, one at a time, whether that field
    is a snowflake)."""
    out = []
    for kind, who, template in buttons(w):
        foreign = fill(w, template, True)
        head, _, rest = foreign.partition(":")
        parts = rest.split(":")
        for i, part in enumerate(parts):
            if part.isdigit():
                snowflake = kind in SNOWFLAKE_KINDS and i == SNOWFLAKE_KINDS[kind] + (1 if head == "tournament" else 0)
                out.append((kind, who, ":".join([head, *parts[:i], "{n}", *parts[i + 1 :]]), snowflake))
    return out


@pytest.mark.slow
async def test_custom_id_numbers_are_bounded_and_malformed_ids_answered(world) -> None:
    """Every numeric field of every button kind: 2^53 - 1 is an id (refused as unknown here);
    2^53, 2^63, 2^64, negative, non-numeric and empty are answered in one ephemeral line, nothing
    changed, never "Something went wrong"."""
    w = world
    cases = bounds_cases(w)
    assert len({k for k, _, _, _ in cases}) == len(buttons(w))
    for kind, who, template, snowflake in cases:
        valid = [str(2**53 - 1), *([str(2**53), str(2**63 - 1)] if snowflake else [])]
        for n in valid + [b for b in BAD_NUMBERS if b not in valid]:
            custom_id = template.replace("{n}", n)
            before = await snapshot(w.db)
            got = await press(w, kind, user_of(w, who), w.bch, custom_id)
            await w.h.settle()
            text = said(got)
            assert got.ephemeral, f"{custom_id}: {text!r}"
            assert text.startswith("⚠️") and "\n" not in text and "Something went wrong" not in text, (
                f"{kind} {custom_id}: {text!r}"
            )
            if n not in valid:
                assert re.search(r"damaged|out of date", text), f"{custom_id}: {text!r}"
            assert await snapshot(w.db) == before, custom_id
    assert w.h.violations == []


# ------------------------------------------------------------------------------ the services


async def test_the_services_refuse_another_servers_resources_for_every_caller(world) -> None:
    """The check lives in bot/: any caller that passes the interaction's server gets it."""
    from bot.matches import MatchNotFound
    from bot.matches.isolation import match_here
    from bot.replays import ReplayRefused
    from bot.tournaments.errors import TournamentNotFound

    w = world
    t, other = w.bot.tournaments, w.elsewhere.id
    before = await snapshot(w.db)
    calls = [
        t.view(w.tour, guild_id=other),
        t.join(w.tour, (w.eve.id, "eve"), guild_id=other),
        t.leave(w.tour, w.ann.id, guild_id=other),
        t.start(w.tour, w.eve.id, is_manager=True, guild_id=other),
        t.cancel(w.tour, w.eve.id, is_manager=True, guild_id=other),
        t.pause(w.tour, w.eve.id, is_manager=True, guild_id=other),
        t.resume(w.tour, w.eve.id, is_manager=True, guild_id=other),
        t.set_round_deadline(w.tour, w.eve.id, 3600, is_manager=True, guild_id=other),
        t.drop(w.tour, w.eve.id, w.ann.id, is_manager=True, guild_id=other),
        t.start(w.tour, w.bob.id, guild_id=None),  # a DM: tournaments are run in servers
    ]
    for call in calls:
        with pytest.raises(TournamentNotFound) as caught:
            await call
        assert isinstance(caught.value, ValueError)
        assert str(caught.value).startswith(f"There is no tournament #{w.tour} ")
    for bad in (0, -1, 2**53, 2**63, 2**64):  # beyond what anything may name: not found, no overflow
        with pytest.raises(TournamentNotFound):
            await t.record(bad, w.academy.id)
        with pytest.raises(MatchNotFound):
            await match_here(w.bot.service, bad, w.academy.id, w.ann.id)
    for match_id in (w.live, w.done, w.invite, w.table, w.practice):
        with pytest.raises(MatchNotFound, match=f"There is no match #{match_id} in this server."):
            await match_here(w.bot.service, match_id, other, w.ann.id)
        with pytest.raises(MatchNotFound, match=f"You have no match #{match_id}."):
            await match_here(w.bot.service, match_id, None, w.eve.id)  # a DM: not eve's
        assert (await match_here(w.bot.service, match_id, None, w.ann.id)).id == match_id  # ann's own
        assert (await match_here(w.bot.service, match_id, w.academy.id, w.eve.id)).id == match_id
    with pytest.raises(ReplayRefused, match=f"There is no match #{w.done} in this server."):
        await w.bot.replays.replayable(w.done, guild_id=other, user_id=w.ann.id)
    assert (await t.view(w.tour, guild_id=w.academy.id)).record.id == w.tour
    assert await snapshot(w.db) == before
