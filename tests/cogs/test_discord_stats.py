"""/leaderboard, /profile, /history and /replay through discord.py's real objects and the fake
transport (every request body validated against Discord's schema): ordering and paging with
restart-proof buttons, the rating chart, only finished matches, and replays that show public
events only. Abandoned matches come from ``tick()`` on a fake clock here; the /history section's
running-loop test shows the client's own timer loop abandoning one and /history leaving it out."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.stats import HISTORY_PAGE, LEADERBOARD_PAGE, available_games
from db import GLOBAL_SCOPE, Database, MatchStatus, RatingsRepository
from tests.cogs.stats_world import World
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.running_timer import running_firewall_match, timer_pass, until_not_active

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

PNG = b"\x89PNG\r\n\x1a\n"


def board_lines(message: Any) -> list[str]:
    return (message.embed.get("description") or "").splitlines()


def names_on(message: Any) -> list[str]:
    return [re.search(r"\*\*(.+?)\*\* · \*\*≈?(\d+)\*\*", line).group(1) for line in board_lines(message)]


def ratings_on(message: Any) -> list[int]:
    return [int(re.search(r"\*\*(.+?)\*\* · \*\*≈?(\d+)\*\*", line).group(2)) for line in board_lines(message)]


# -- /leaderboard --------------------------------------------------------------------------------


async def test_leaderboard_orders_and_pages_with_buttons(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    players = [h.add_member(guild, f"wiz{i:02d}") for i in range(23)]
    rng = random.Random(3)
    for _ in range(45):
        a, b = rng.sample(players, 2)
        await world.toy(guild, [a, b], winners=[0] if a.id < b.id else [1])
    for p in players:  # everyone on the ladder
        if await world.repo.get(guild.id, "toy-guess", p.id) is None:
            await world.toy(guild, [p, players[0] if p is not players[0] else players[1]], winners=[1])
    expected = await world.repo.leaderboard(guild.id, "toy-guess", limit=100)
    assert len(expected) == 23

    r = await h.slash(players[0], ch, "leaderboard", {"game": "toy-guess"})
    msg = r.message
    assert not r.ephemeral and r.response_name == "CHANNEL_MESSAGE_WITH_SOURCE"
    assert msg.embed["title"] == "🏆 Toy Guess leaderboard · this server"
    assert "Page 1/3" in msg.embed["footer"]["text"] and "23 players" in msg.embed["footer"]["text"]
    assert "μ" not in msg.embed["footer"]["text"] and "Everyone starts at 1200" in msg.embed["footer"]["text"]
    assert len(board_lines(msg)) == LEADERBOARD_PAGE
    assert names_on(msg) == [s.display_name for s in expected[:10]]
    assert ratings_on(msg) == [s.display for s in expected[:10]]
    first = board_lines(msg)[0]
    s0 = expected[0]
    assert first.startswith("🥇") and f"{s0.wins}-{s0.losses}-{s0.draws}" in first and f"{s0.games} game" in first
    gid = guild.id
    assert msg.custom_ids == [f"lb:toy-guess:{gid}:0:p", f"lb:toy-guess:{gid}:0:i", f"lb:toy-guess:{gid}:1:n"]
    assert msg.component(f"lb:toy-guess:{gid}:0:p")["disabled"] is True

    seen = list(ratings_on(msg))
    await h.click(players[7], msg, f"lb:toy-guess:{gid}:1:n")
    assert "Page 2/3" in msg.embed["footer"]["text"] and board_lines(msg)[0].startswith("` 11.`")
    assert names_on(msg) == [s.display_name for s in expected[10:20]]
    seen += ratings_on(msg)
    # a restart: no view kept in memory, the DynamicItem still answers
    world.bot._connection._view_store._views.clear()
    await h.click(players[3], msg, f"lb:toy-guess:{gid}:2:n")
    assert "Page 3/3" in msg.embed["footer"]["text"] and len(board_lines(msg)) == 3
    assert msg.component(f"lb:toy-guess:{gid}:2:n")["disabled"] is True
    seen += ratings_on(msg)
    assert seen == sorted(seen, reverse=True) and len(seen) == 23
    await h.click(players[3], msg, f"lb:toy-guess:{gid}:1:p")
    assert "Page 2/3" in msg.embed["footer"]["text"]

    # the global ladder, chosen by its name; the game by its display name
    g = await h.slash(players[1], ch, "leaderboard", {"game": "Toy Guess", "scope": "Global"})
    assert g.message.embed["title"] == "🏆 Toy Guess leaderboard · global"
    top = await world.repo.leaderboard(GLOBAL_SCOPE, "toy-guess", limit=10)
    assert names_on(g.message) == [s.display_name for s in top]
    # no game given: the most played one here
    d = await h.slash(players[1], ch, "leaderboard", {})
    assert d.message.embed["title"].startswith("🏆 Toy Guess")
    assert h.violations == []


async def test_leaderboard_game_choices_and_refusals(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann = h.add_member(guild, "ann")
    ac = await h.autocomplete(ann, ch, "leaderboard", "game", "")
    values = [c["value"] for c in ac.choices]
    assert "wizards-cup" in values and "toy-guess" in values
    assert values == [slug for slug, _ in available_games()]  # only games whose module imports
    ac = await h.autocomplete(ann, ch, "leaderboard", "game", "wiz")
    assert [c["value"] for c in ac.choices] == ["wizards-cup"]

    empty = await h.slash(ann, ch, "leaderboard", {"game": "wizards-cup"})
    assert "No rated matches yet" in empty.message.embed["description"] and empty.message.components == []
    bad = await h.slash(ann, ch, "leaderboard", {"game": "chess"})
    assert bad.ephemeral and "There is no game called 'chess'" in bad.content
    assert h.violations == []


# -- /profile ------------------------------------------------------------------------------------


async def test_profile_shows_ratings_streak_recent_matches_and_a_chart(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy = (h.add_member(guild, n) for n in ("ann", "bob", "cy"))
    other = h.add_guild("Elsewhere")
    h.add_member(other, ann)
    h.add_member(other, bob)
    ids = [await world.toy(guild, [ann, bob], winners=[1])]
    ids.append(await world.toy(other, [ann, bob], winners=[]))
    for _ in range(3):
        ids.append(await world.toy(guild, [ann, cy], winners=[0]))

    r = await h.slash(bob, ch, "profile", {"player": ann})
    msg = r.message
    assert not r.ephemeral and r.deferred
    embed = msg.embed
    assert embed["title"] == "📜 ann"
    assert "🔥 3 wins in a row" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    here = await world.repo.get(guild.id, "toy-guess", ann.id)
    world_ann = await world.repo.get(GLOBAL_SCOPE, "toy-guess", ann.id)
    assert f"This server: **{here.display}** (#1 of 3) · 3-1-0 · 4 games" in fields["Toy Guess"]
    assert f"Global: **{world_ann.display}** (#1 of 3) · 3-1-1 · 5 games" in fields["Toy Guess"]
    recent = fields["Recent matches"].splitlines()
    assert len(recent) == 5 and recent[0].startswith(f"#{ids[-1]} · Toy Guess · Win")
    assert recent[-1].startswith(f"#{ids[0]} · Toy Guess · Loss")
    # the chart: a PNG attached to the message and shown in the embed
    (png,) = msg.files
    assert png.filename == "rating.png" and png.data.startswith(PNG) and len(png.data) > 1000
    assert embed["image"]["url"].endswith("rating.png")

    mine = await h.slash(cy, ch, "profile", {})
    assert mine.message.embed["title"] == "📜 cy" and "🧊 3 losses in a row" in mine.message.embed["description"]
    nobody = h.add_member(guild, "newbie")
    fresh = await h.slash(nobody, ch, "profile", {})
    assert "No rated matches yet" in fresh.message.embed["description"] and fresh.message.files == []
    assert h.violations == []


# -- /history ------------------------------------------------------------------------------


async def test_history_shows_finished_matches_only(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy = (h.add_member(guild, n) for n in ("ann", "bob", "cy"))
    rng = random.Random(8)
    done = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(done, rng)
    toy = await world.toy(guild, [bob, cy], winners=[0])
    abandoned = await world.start("toy-guess", guild, [ann, bob])
    world.clock.now += 10 * 3600
    await timer_pass(world.service)
    assert (await world.service.get(abandoned)).status is MatchStatus.ABANDONED
    live = await world.start("wizards-cup", guild, [ann, cy])
    await world.play(live, rng, until_finished=False, moves=1)  # ann's secret Deck is in
    assert (await world.service.get(live)).status is MatchStatus.ACTIVE

    r = await h.slash(cy, ch, "history", {})
    embed = r.message.embed
    assert embed["title"] == "📚 Recent matches in this server"
    names = [f["name"] for f in embed["fields"]]
    assert names == [f"#{toy} · Toy Guess", f"#{done} · Wizards Cup"]  # newest first, finished only
    record = await world.service.get(done)
    assert record.summary in embed["fields"][1]["value"] and "ann vs bob" in embed["fields"][1]["value"]
    only = await h.slash(cy, ch, "history", {"game": "wizards-cup"})
    assert [f["name"] for f in only.message.embed["fields"]] == [f"#{done} · Wizards Cup"]

    assert await world.repo.changes_for_match(live) == []  # not rated while live
    assert h.violations == []


@pytest.mark.slow
async def test_the_client_s_timer_loop_abandons_a_match_that_history_then_leaves_out(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    """What the test above gets from ``tick()`` on a fake clock (an abandoned match is not in
    /history, nor rated), done by the bot as ``python -m bot`` builds it (timers on) on the real
    clock, nobody calling tick."""
    async with running_firewall_match(discord_harness, tmp_path) as (h, bot, ch, ann, bob, record, ticks):
        await until_not_active(h, bot, record.id)
        assert (await bot.service.get(record.id)).status is MatchStatus.ABANDONED
        r = await h.slash(bob, ch, "history", {})
        shown = " ".join(f["name"] for f in r.message.embed.get("fields", []))
        assert f"#{record.id}" not in shown
        assert await RatingsRepository(bot.db).changes_for_match(record.id) == []
        assert ticks() >= 1


async def test_history_pages(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    ids = [await world.toy(guild, [ann, bob], winners=[i % 2]) for i in range(HISTORY_PAGE + 2)]
    r = await h.slash(ann, ch, "history", {})
    msg = r.message
    assert [f["name"] for f in msg.embed["fields"]] == [f"#{i} · Toy Guess" for i in reversed(ids[2:])]
    assert "Page 1/2" in msg.embed["footer"]["text"]
    await h.click(bob, msg, f"hist:{guild.id}:_:1:n")
    assert [f["name"] for f in msg.embed["fields"]] == [f"#{i} · Toy Guess" for i in reversed(ids[:2])]
    assert msg.component(f"hist:{guild.id}:_:1:n")["disabled"] is True
    empty = h.add_guild("Quiet")
    qch = h.add_text_channel(empty, "general")
    h.add_member(empty, ann)
    quiet = await h.slash(ann, qch, "history", {})
    assert "No finished matches here yet" in quiet.message.embed["description"]
    assert h.violations == []


# -- where the data comes from -------------------------------------------------------------------


async def test_the_commands_read_through_the_clients_stats_service(world: World) -> None:
    from types import SimpleNamespace

    from bot.stats import StatsService
    from cogs.stats import stats_of

    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    done = await world.toy(guild, [ann, bob])
    assert isinstance(world.bot.stats, StatsService) and world.bot.stats.db is world.db
    listed = await h.slash(ann, ch, "history", {})
    assert [f["name"] for f in listed.message.embed["fields"]] == [f"#{done} · Toy Guess"]

    # the same commands and buttons, with the client's StatsService on another (empty) database
    empty = await Database.open(":memory:")
    try:
        world.bot.stats = StatsService(empty)
        quiet = await h.slash(ann, ch, "history", {})
        assert "No finished matches here yet" in quiet.message.embed["description"]
        board = await h.slash(ann, ch, "leaderboard", {"game": "toy-guess"})
        assert "No rated matches yet" in board.message.embed["description"]
        mine = await h.slash(ann, ch, "profile", {})
        assert "No rated matches yet" in mine.message.embed["description"]
    finally:
        await empty.close()

    with pytest.raises(TypeError, match="no StatsService"):
        stats_of(SimpleNamespace(client=SimpleNamespace(db=world.db)))  # type: ignore[arg-type]
    assert h.violations == []


# -- issue 15: which game, the minimum number of games, placements, win rates, charts -------------


def footer(message: Any) -> str:
    return message.embed["footer"]["text"]


async def test_leaderboard_without_a_game_says_which_game_it_shows(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    fresh = await h.slash(ann, ch, "leaderboard", {})
    first = available_games()[0][1]
    assert fresh.message.content == (
        f"No game has been rated on this server yet: showing **{first}**. Pick another with `/leaderboard game:`."
    )
    await world.toy(guild, [ann, bob])
    r = await h.slash(ann, ch, "leaderboard", {})
    assert r.message.content == (
        "Showing **Toy Guess**, the most played game on this server. Pick another with `/leaderboard game:`."
    )
    assert r.message.embed["title"] == "🏆 Toy Guess leaderboard · this server"
    g = await h.slash(ann, ch, "leaderboard", {"scope": "Global"})
    assert g.message.content.startswith("Showing **Toy Guess**, the most played game globally.")
    named = await h.slash(ann, ch, "leaderboard", {"game": "toy-guess"})
    assert named.message.content in (None, "")  # the game was named: nothing to explain
    assert h.violations == []


async def test_leaderboard_follows_the_servers_minimum_number_of_games(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    role = h.add_role(guild, "admins", permissions=discord.Permissions(manage_guild=True))
    boss = h.add_member(guild, "boss", roles=[role])
    regulars = [h.add_member(guild, f"reg{i:02d}") for i in range(12)]
    for a, b in zip(regulars[::2], regulars[1::2], strict=True):
        for winner in (0, 1):
            await world.toy(guild, [a, b], winners=[winner])  # 2 games each
    once = [h.add_member(guild, f"once{i}") for i in range(2)]
    await world.toy(guild, [once[0], regulars[0]], winners=[0])  # 1 game: a high rating
    await world.toy(guild, [once[1], regulars[1]], winners=[0])
    before = await h.slash(boss, ch, "leaderboard", {"game": "toy-guess"})
    assert "14 players" in footer(before.message) and "with at least" not in footer(before.message)

    await h.slash(boss, ch, "settings", {"leaderboard_min_games": 2})
    r = await h.slash(boss, ch, "leaderboard", {"game": "toy-guess"})
    msg = r.message
    assert "Page 1/2 · 12 players with at least 2 games (2 more with fewer)" in footer(msg)
    shown = names_on(msg)
    assert len(shown) == LEADERBOARD_PAGE and not {"once0", "once1"} & set(shown)
    gid = guild.id
    await h.click(regulars[3], msg, f"lb:toy-guess:{gid}:1:n")  # the paging button applies it too
    assert "Page 2/2 · 12 players with at least 2 games" in footer(msg) and len(board_lines(msg)) == 2
    assert not {"once0", "once1"} & set(names_on(msg))
    # the global ladder is not the server's: everyone is on it
    g = await h.slash(boss, ch, "leaderboard", {"game": "toy-guess", "scope": "Global"})
    assert "14 players ·" in footer(g.message)

    await h.slash(boss, ch, "settings", {"leaderboard_min_games": 9})
    empty = await h.slash(boss, ch, "leaderboard", {"game": "toy-guess"})
    assert empty.message.embed["description"].startswith("No player has 9 rated games yet (14 players with fewer)")
    assert h.violations == []


async def test_stats_commands_clip_what_was_typed(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann = h.add_member(guild, "ann")
    for command in ("leaderboard", "profile", "history"):
        for typed in ("w" * 4000, "🧙‍♀️\u202e" * 1000, "<@&1> @everyone " * 250):
            r = await h.slash(ann, ch, command, {"game": typed})
            assert r.ephemeral and len(r.content) < 300, (command, len(r.content))
            assert r.content.startswith("⚠️ There is no game called") and "The games are:" in r.content
    assert h.violations == []


async def test_profile_shows_places_win_rates_opponents_and_a_chart_per_game(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy, dee = (h.add_member(guild, n) for n in ("ann", "bob", "cy", "dee"))
    four = await world.toy(guild, [dee, ann, bob, cy], winners=[1])  # ann 1st, the others share 2nd
    await world.toy(guild, [dee, bob], winners=[0])
    await world.toy(guild, [dee, cy], winners=[1])
    r = await h.slash(ann, ch, "profile", {"player": dee})
    embed = r.message.embed
    recent = {
        line.split(" · ")[0]: line
        for line in {f["name"]: f["value"] for f in embed["fields"]}["Recent matches"].splitlines()
    }
    assert recent[f"#{four}"].startswith(f"#{four} · Toy Guess · =2nd of 4 · ")  # as the end card says it
    assert "Loss" not in recent[f"#{four}"]
    # the rating in words, not "rating = 1200 + 20×(μ − 3σ)"
    assert "μ" not in embed["footer"]["text"] and "Everyone starts at 1200" in embed["footer"]["text"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    # two-player results as wins-losses-draws, the table of four as a place; the rate: 1st places
    assert "1-1-0 · at tables =2nd ×1 · 3 games" in fields["Toy Guess"]
    assert "1st places: **33%** (1 of 3 games)" in fields["Toy Guess"]
    opponents = fields["Most frequent opponents"].splitlines()
    assert opponents == [  # the most matches together first; in the 4-player match dee shared 2nd with bob and cy
        "bob: ahead **50%** · 1 of 2 matches, 1 level",
        "cy: ahead **0%** · 0 of 2 matches, 1 level",
        "ann: ahead **0%** · 0 of 1 match",
    ]
    (png,) = r.message.files  # 3 rated matches: a chart
    assert png.data.startswith(PNG) and embed["image"]["url"] == f"attachment://{png.filename}"

    # the winner of the 4-player match reads "1st of 4"
    mine = await h.slash(ann, ch, "profile", {})
    line = {f["name"]: f["value"] for f in mine.message.embed["fields"]}["Recent matches"]
    assert line.startswith(f"#{four} · Toy Guess · 1st of 4 · ")
    # one match only: no chart, and a plain statement why
    assert mine.message.files == []
    assert (
        "Too little history for a chart: 1 rated match so far; the chart appears after 3."
        in {f["name"]: f["value"] for f in mine.message.embed["fields"]}["Toy Guess"]
    )
    other = await h.slash(ann, ch, "profile", {"game": "wizards-cup"})
    assert (
        "No rated match of Wizards Cup yet." in {f["name"]: f["value"] for f in other.message.embed["fields"]}["Chart"]
    )
    assert h.violations == []


# -- the chart -----------------------------------------------------------------------------------


def test_chart_ticks_are_round_numbers_that_cover_the_ratings() -> None:
    from cogs.charts import MIN_SPAN, nice_ticks, x_ticks, y_range

    assert nice_ticks(1194, 1275) == [1180, 1200, 1220, 1240, 1260, 1280]  # not 1194, 1214, 1234, ...
    assert nice_ticks(0, 7, 6) == [0, 2, 4, 6, 8]
    assert nice_ticks(3, 3.2) == [3, 4]  # whole numbers, at least one step
    for points in ([1200, 1201], [1150, 1290, 1204], [900, 1700], [1234] * 5, [5, -30, 12]):
        ticks = y_range(points)
        assert ticks[0] <= min(points) and ticks[-1] >= max(points) and ticks[-1] - ticks[0] >= MIN_SPAN
        steps = {b - a for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1 and 3 <= len(ticks) <= 7, ticks
        (step,) = steps
        assert step == int(step) and int(str(int(step)).rstrip("0") or "0") in (1, 2, 25, 5), (
            step
        )  # 1, 2, 2.5 or 5 × 10ⁿ
    assert x_ticks(3) == [0, 1, 2, 3]
    assert x_ticks(10) == [0, 2, 4, 6, 8, 10]
    assert x_ticks(200) == [0, 50, 100, 150, 200]
    assert all(t == int(t) for t in x_ticks(37)) and x_ticks(37)[-1] <= 37


def test_chart_draws_a_panel_per_game_and_refuses_too_little_history() -> None:
    from cogs.charts import PANEL_HEIGHT, WIDTH, Panel, chart_image, history_statement, rating_chart_file

    three = Panel("Toy Guess · global rating", (1200, 1210, 1190, 1230), ("win", "loss", "win"))
    long = Panel("Arena " + "x" * 300, tuple(range(1000, 1300)), ("win",) * 299)
    assert chart_image([three, long]).size == (WIDTH, 2 * PANEL_HEIGHT)
    with pytest.raises(ValueError, match="too little history"):
        chart_image([Panel("Firewall", (1200, 1210, 1220), ("win", "win"))])
    with pytest.raises(ValueError):
        chart_image([])
    assert history_statement(0) == "Too little history for a chart: no rated match so far; the chart appears after 3."
    assert history_statement(2) == "Too little history for a chart: 2 rated matches so far; the chart appears after 3."
    first, again = rating_chart_file([three]), rating_chart_file([three])
    assert first.filename == "rating.png" and first.fp.read() == again.fp.read()  # cached by content


# -- issue 31: a table's places in the record, never a loss or a draw ----------------------------


async def rated_table(world: World, guild: Any, players: Sequence[Any], ranks: Sequence[int]) -> int:
    """A rated 4-player Magic Duel written straight to the tables, finished with these places."""
    from bot.ratings import RatingService

    world.clock.now += 60
    seats = [(p.id, p.display_name) for p in players]
    record = await world.db.matches.create(
        game="magic-duel", options={}, guild_id=guild.id, channel_id=1, seats=seats, expires_at=None
    )
    assert await world.db.matches.start(record.id, seed=1)
    world.clock.now += 60
    outcome = {"seats": [{"result": "win" if r == 1 else "loss"} for r in ranks], "ranks": list(ranks)}
    assert await world.db.matches.finish(record.id, MatchStatus.FINISHED, outcome=outcome, summary="Over.")
    assert await RatingService(world.db).record_match(record.id)
    return record.id


async def test_profile_and_leaderboard_count_a_magic_duel_tables_places(world: World) -> None:
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy, dee = (h.add_member(guild, n) for n in ("ann", "bob", "cy", "dee"))
    four = [ann, bob, cy, dee]
    await rated_table(world, guild, four, [1, 2, 3, 4])  # ann 1st
    shared = await rated_table(world, guild, four, [1, 1, 3, 4])  # ann and bob share 1st
    third = await rated_table(world, guild, four, [3, 1, 2, 4])  # ann 3rd

    r = await h.slash(ann, ch, "profile", {})
    fields = {f["name"]: f["value"] for f in r.message.embed["fields"]}
    mine = fields["Magic Duel"]
    assert "1st ×1 · =1st ×1 · 3rd ×1 · 3 games" in mine, mine
    assert "1st places: **33%** (1 of 3 games)" in mine and "Win rate" not in mine
    assert not re.search(r"\d+-\d+-\d+", mine)  # no wins-losses-draws for a table
    recent = {line.split(" · ")[0]: line for line in fields["Recent matches"].splitlines()}
    assert " · =1st of 4 · " in recent[f"#{shared}"] and " · 3rd of 4 · " in recent[f"#{third}"]
    assert not any(w in fields["Recent matches"] for w in ("Loss", "Draw"))
    streak = r.message.embed["description"]
    assert "loss" not in streak and "without a 1st place" in streak, streak

    board = await h.slash(ann, ch, "leaderboard", {"game": "magic-duel"})
    lines = {names_on(board.message)[i]: line for i, line in enumerate(board_lines(board.message))}
    assert "1st ×1 · =1st ×1 · 3rd ×1 · 3 games" in lines["ann"]
    assert "1st ×1 · =1st ×1 · 2nd ×1 · 3 games" in lines["bob"] and "4th ×3" in lines["dee"]
    assert "places at tables of 3 or more" in footer(board.message)
    assert h.violations == []
