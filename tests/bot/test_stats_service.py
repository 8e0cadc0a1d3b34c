"""bot.stats.StatsService on a real SQLite database (in memory), filled through the public
MatchService API: ladder pages and places, a player's profile (standings on the server and
global ladders, streaks, recent changes, the chart's series), a guild's history, and that none
of it writes to the database (replays: tests/bot/test_replays.py)."""

from __future__ import annotations

import ast
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.matches import MatchService
from bot.servers import ServersService
from bot.settings import Settings
from bot.stats import (
    CHART_POINTS,
    GLOBAL_SCOPE,
    RECENT_CHANGES,
    MatchStatus,
    StatsService,
    Streak,
    page_count,
    streak,
)
from db import Database
from tests.bot.stats_env import ANN, BOB, CY, DEE, GUILD_A, GUILD_B, T0, Env, changes_so_far
from tests.conftest import DbTarget
from tests.fakes import Clock

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    clock = Clock(T0)
    db = await Database.open(target.memory_url, clock=clock)
    seeds = iter(range(4242, 100_000))
    service = MatchService(db, clock=clock, seed_factory=lambda: next(seeds))
    yield Env(db, service, StatsService(db), clock)
    await db.close()


# -- helpers -------------------------------------------------------------------------------------


def servers_of(env: Env) -> ServersService:
    """The server settings of the env's database (``/settings``, as the bot changes them)."""
    return ServersService(env.db, Settings(discord_token="t"))


def test_streak_counts_the_newest_run_of_equal_results() -> None:
    assert streak([]) is None
    assert streak(["win"]) == Streak("win", 1)
    assert streak(["loss", "loss", "win", "loss"]) == Streak("loss", 2)
    assert streak(["draw", "draw", "draw"]) == Streak("draw", 3)


def test_page_count_is_at_least_one_and_rounds_up() -> None:
    assert [page_count(n, 10) for n in (0, 1, 10, 11, 20, 21)] == [1, 1, 1, 2, 2, 3]


# -- leaderboard ---------------------------------------------------------------------------------


async def test_leaderboard_pages_places_and_clamping(env: Env) -> None:
    players = [(100 + i, f"P{i}") for i in range(7)]
    for i in range(len(players) - 1):  # a chain: each beats the next
        await env.toy([players[i], players[i + 1]], winners=[0])
    await env.toy([players[0], players[6]], winners=[0], guild=GUILD_B)
    best_first = await env.repo.leaderboard(GUILD_A, "toy-guess", limit=100)
    assert len(best_first) == 7

    first = await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=3)
    assert (first.page, first.pages, first.total, first.size) == (0, 3, 7, 3)
    assert first.standings == tuple(best_first[:3])
    assert list(first.placed()) == [(1, best_first[0]), (2, best_first[1]), (3, best_first[2])]
    last = await env.stats.leaderboard("toy-guess", GUILD_A, 2, size=3)
    assert last.first_position == 7 and [p for p, _ in last.placed()] == [7]
    assert last.standings == (best_first[6],)
    # an old button may ask for a page that no longer exists: the nearest page is given
    assert (await env.stats.leaderboard("toy-guess", GUILD_A, 99, size=3)).page == 2
    assert (await env.stats.leaderboard("toy-guess", GUILD_A, -4, size=3)).page == 0
    # the places agree with each player's own place on the ladder
    for place, s in (await env.stats.leaderboard("toy-guess", GUILD_A, 1, size=3)).placed():
        assert await env.repo.position(s) == place

    world = await env.stats.leaderboard("toy-guess", GLOBAL_SCOPE, 0, size=10)
    assert world.total == 7 and world.pages == 1
    b = await env.stats.leaderboard("toy-guess", GUILD_B, 0, size=10)
    assert {s.user_id for s in b.standings} == {players[0][0], players[6][0]}

    empty = await env.stats.leaderboard("wizards-cup", GUILD_A, 3, size=10)
    assert (empty.page, empty.pages, empty.total, empty.standings) == (0, 1, 0, ())


async def test_games_played_are_the_rated_games_most_played_first(env: Env) -> None:
    assert await env.stats.games_played(GUILD_A) == []
    await env.toy([ANN, BOB, CY])
    played = await env.stats.games_played(GUILD_A)
    assert [(p.game, p.players) for p in played] == [("toy-guess", 3)]
    assert [(p.game, p.players) for p in await env.stats.games_played(GLOBAL_SCOPE)] == [("toy-guess", 3)]
    assert await env.stats.games_played(GUILD_B) == []


# -- profile -------------------------------------------------------------------------------------


async def test_profile_standings_places_streaks_recent_changes_and_chart(env: Env) -> None:
    ids = [await env.toy([ANN, BOB], winners=[1])]  # Ann loses in A
    ids.append(await env.toy([ANN, BOB], winners=[], guild=GUILD_B))  # a draw in B
    for _ in range(3):
        ids.append(await env.toy([ANN, CY], winners=[0]))  # three wins in A
    ids.append(await env.toy([DEE, CY], winners=[0], guild=None))  # not Ann's

    nobody = await env.stats.profile(99, GUILD_A)
    assert not nobody.rated and nobody.games == () and nobody.recent == () and nobody.chart is None
    assert nobody.streak is None and nobody.scopes == (GUILD_A, GLOBAL_SCOPE)

    p = await env.stats.profile(ANN[0], GUILD_A)
    assert p.rated and p.scopes == (GUILD_A, GLOBAL_SCOPE)
    (toy,) = p.games
    here, world = toy.ladders
    assert here.scope == GUILD_A and world.scope == GLOBAL_SCOPE
    assert (here.standing.wins, here.standing.losses, here.standing.draws, here.standing.games) == (3, 1, 0, 4)
    assert (world.standing.wins, world.standing.losses, world.standing.draws, world.standing.games) == (3, 1, 1, 5)
    assert here.standing == await env.repo.get(GUILD_A, "toy-guess", ANN[0])
    assert (here.position, here.players) == (await env.repo.position(here.standing), 3)
    assert (world.position, world.players) == (await env.repo.position(world.standing), 4)
    assert toy.games == 5
    assert p.streak == Streak("win", 3) and toy.streak == Streak("win", 3)
    assert [c.match_id for c in p.recent] == list(reversed(ids[:5]))  # newest first, global only
    assert all(c.scope == GLOBAL_SCOPE and c.user_id == ANN[0] for c in p.recent)
    assert [c.result for c in p.recent] == ["win", "win", "win", "draw", "loss"]

    chart = p.chart
    assert chart is not None and chart.game == "toy-guess"
    oldest_first = list(reversed(p.recent))
    assert chart.points == (oldest_first[0].display_before, *(c.display_after for c in oldest_first))
    assert chart.results == ("loss", "draw", "win", "win", "win")

    # asked outside a server: the global ladder only
    dm = await env.stats.profile(ANN[0], None)
    assert dm.scopes == (GLOBAL_SCOPE,) and [pl.scope for pl in dm.games[0].ladders] == [GLOBAL_SCOPE]
    # in another server: only the ladders Ann is on there
    b = await env.stats.profile(BOB[0], GUILD_B)
    assert [(pl.scope, pl.standing.games) for pl in b.games[0].ladders] == [(GUILD_B, 1), (GLOBAL_SCOPE, 2)]
    assert b.streak == Streak("draw", 1)


async def test_profile_orders_games_and_draws_the_chart_of_the_game_asked_for(env: Env) -> None:
    for _ in range(3):
        await env.toy([ANN, BOB], winners=[0])
    cup = await env.start_game("wizards-cup", [ANN, BOB])
    await env.play_randomly(cup, random.Random(5))
    p = await env.stats.profile(ANN[0], GUILD_A)
    assert [g.game for g in p.games] == ["toy-guess", "wizards-cup"]  # most games first
    assert p.chart is not None and p.chart.game == "toy-guess"  # default: the most played
    assert len(p.chart.results) == 3 and len(p.chart.points) == 4
    assert [g.game for g in (await env.stats.profile(ANN[0], GUILD_A, max_games=1)).games] == ["toy-guess"]
    chosen = await env.stats.profile(ANN[0], GUILD_A, chart_game="wizards-cup")
    (change,) = await env.repo.changes_for_user(ANN[0], scope=GLOBAL_SCOPE, game="wizards-cup")
    assert chosen.chart is not None and chosen.chart.game == "wizards-cup"
    assert chosen.chart.points == (change.display_before, change.display_after)
    assert chosen.chart.results == (change.result,)
    # a game the player never played: the most played one instead
    fallback = await env.stats.profile(ANN[0], GUILD_A, chart_game="firewall")
    assert fallback.chart is not None and fallback.chart.game == "toy-guess"


@pytest.mark.slow
async def test_profile_reads_the_latest_changes_only(env: Env) -> None:
    for i in range(RECENT_CHANGES + 2):
        await env.toy([ANN, BOB], winners=[0] if i < 2 else [1], guild=None)
    p = await env.stats.profile(ANN[0], None)
    assert len(p.recent) == RECENT_CHANGES and p.streak == Streak("loss", RECENT_CHANGES)
    assert p.chart is not None and len(p.chart.results) == RECENT_CHANGES + 2 <= CHART_POINTS


# -- history -------------------------------------------------------------------------------------


async def test_history_pages_finished_matches_of_the_guild_newest_first(env: Env) -> None:
    ids = [await env.toy([ANN, BOB], winners=[i % 2]) for i in range(5)]
    elsewhere = await env.toy([ANN, BOB], guild=GUILD_B)
    abandoned = await env.start([BOB, CY])
    env.clock.now += 10 * 3600
    await env.service.tick()
    assert (await env.service.get(abandoned)).status is MatchStatus.ABANDONED
    live = await env.start([ANN, CY])
    assert (await env.service.get(live)).status is MatchStatus.ACTIVE

    first = await env.stats.history(GUILD_A, None, 0, size=2)
    assert (first.page, first.pages, first.total, first.guild_id, first.game) == (0, 3, 5, GUILD_A, None)
    assert [r.id for r in first.records] == [ids[4], ids[3]]
    assert all(r.status is MatchStatus.FINISHED for r in first.records)
    last = await env.stats.history(GUILD_A, None, 2, size=2)
    assert [r.id for r in last.records] == [ids[0]]
    gone = await env.stats.history(GUILD_A, None, 7, size=2)  # a page that no longer exists
    assert gone.page == 2 and [r.id for r in gone.records] == [ids[0]]
    assert [r.id for r in (await env.stats.history(GUILD_B, None, 0, size=10)).records] == [elsewhere]
    only = await env.stats.history(GUILD_A, "toy-guess", 0, size=10)
    assert only.game == "toy-guess" and [r.id for r in only.records] == list(reversed(ids))
    none = await env.stats.history(GUILD_A, "wizards-cup", 0, size=10)
    assert (none.page, none.pages, none.total, none.records) == (0, 1, 0, ())


# -- reads only -----------------------------------------------------------------------------------


async def test_the_stats_service_only_reads(env: Env) -> None:
    done = await env.toy([ANN, BOB, CY], winners=[2], rounds=3)
    before = await changes_so_far(env.db)
    await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    await env.stats.profile(ANN[0], GUILD_A)
    await env.stats.history(GUILD_A, None, 0, size=10)
    await env.stats.games_played(GUILD_A)
    await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=5)
    await env.stats.newcomers("toy-guess", [ANN[0], 99], match_id=done)
    await env.stats.opponents(ANN[0])
    assert await changes_so_far(env.db) == before


# -- layering ------------------------------------------------------------------------------------


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_service_is_discord_free_and_the_cog_reads_no_database() -> None:
    service = imported_modules(ROOT / "bot" / "stats.py")
    assert not {m for m in service if m.split(".")[0] in ("discord", "cogs")}, service
    cog = imported_modules(ROOT / "cogs" / "stats.py")
    assert "bot.stats" in cog
    assert not {m for m in cog if m.split(".")[0] in ("db", "aiosqlite", "sqlite3")}, cog


# -- newcomers (the first-match tip) -----------------------------------------------------------


async def test_newcomers_are_the_players_without_an_earlier_started_match_of_the_game(env: Env) -> None:
    first = await env.start([ANN, BOB])  # live: the first match of the game for both
    ids = [ANN[0], BOB[0], CY[0]]
    assert await env.stats.newcomers("toy-guess", ids, match_id=first) == {ANN[0], BOB[0], CY[0]}
    assert await env.stats.newcomers("toy-guess", ids) == {CY[0]}  # without an exclusion: first counts
    # a later match of the same players: not new any more (the first is live, not finished: it counts)
    second = await env.start([ANN, CY])
    assert await env.stats.newcomers("toy-guess", [ANN[0], CY[0]], match_id=second) == {CY[0]}
    # another game is another first time
    cup = await env.start_game("wizards-cup", [ANN, BOB])
    assert await env.stats.newcomers("wizards-cup", [ANN[0], BOB[0]], match_id=cup) == {ANN[0], BOB[0]}
    # challenges that never started do not count: declined, or still pending
    declined = await env.service.create_challenge("firewall", None, GUILD_A, 5, DEE, [CY])
    await env.service.decline(declined.id, CY[0])
    await env.service.create_challenge("firewall", None, GUILD_A, 5, DEE, [BOB])
    assert await env.stats.newcomers("firewall", [DEE[0], CY[0], BOB[0]]) == {DEE[0], CY[0], BOB[0]}
    # an abandoned match (everyone timed out) and a finished one count
    env.clock.now += 10 * 3600
    await env.service.tick()
    assert (await env.service.get(first)).status is MatchStatus.ABANDONED
    assert await env.stats.newcomers("toy-guess", [BOB[0]], match_id=second) == set()
    done = await env.toy([DEE, BOB])
    assert await env.stats.newcomers("toy-guess", [DEE[0]], match_id=done) == {DEE[0]}
    assert await env.stats.newcomers("toy-guess", [DEE[0]]) == set()
    assert await env.stats.newcomers("toy-guess", []) == set()


# -- the leaderboard's minimum number of games ---------------------------------------------------


async def test_the_leaderboard_lists_only_players_with_enough_games(env: Env) -> None:
    for _ in range(3):
        await env.toy([ANN, BOB], winners=[1])
    await env.toy([CY, ANN], winners=[0])  # Cy: 1 game, the best rating of one game
    everyone = await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    assert {s.user_id for s in everyone.standings} == {ANN[0], BOB[0], CY[0]} and everyone.hidden == 0
    await servers_of(env).update(GUILD_A, 1, leaderboard_min_games=3)
    three = await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    assert [s.user_id for s in three.standings] == [s.user_id for s in everyone.standings if s.games >= 3]
    assert (three.total, three.hidden, three.min_games) == (2, 1, 3)
    assert three.first_position == 1
    paged = await env.stats.leaderboard("toy-guess", GUILD_A, 5, size=1)  # clamped
    assert (paged.page, paged.pages, paged.total) == (1, 2, 2)
    assert paged.standings == three.standings[1:]
    await servers_of(env).update(GUILD_A, 1, leaderboard_min_games=50)
    nobody = await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=10)
    assert (nobody.standings, nobody.total, nobody.hidden, nobody.pages) == ((), 0, 3, 1)
    await servers_of(env).update(GUILD_A, 1, leaderboard_min_games=None)
    assert (await env.stats.leaderboard("toy-guess", GUILD_A, 0, size=10)).standings == everyone.standings


# -- placements, opponents and one series per game ---------------------------------------------------


async def test_profile_knows_each_matchs_players_and_shared_places(env: Env) -> None:
    four = await env.toy([ANN, BOB, CY, DEE], winners=[1])  # Bob first, the three others share 2nd
    duel = await env.toy([ANN, BOB], winners=[0])
    p = await env.stats.profile(ANN[0], GUILD_A)
    by_match = {c.match_id: c for c in p.recent}
    assert p.players_in(by_match[four]) == 4 and p.shared_place(by_match[four])
    assert by_match[four].rank == 2 and by_match[four].result == "loss"
    assert p.players_in(by_match[duel]) == 2 and not p.shared_place(by_match[duel])
    b = await env.stats.profile(BOB[0], GUILD_A)
    won = next(c for c in b.recent if c.match_id == four)
    assert (won.rank, b.players_in(won), b.shared_place(won)) == (1, 4, False)


async def test_profile_lists_the_most_frequent_opponents_with_head_to_head_results(env: Env) -> None:
    for winners in ([0], [0], [1], []):  # Ann against Bob: ahead, ahead, behind, level
        await env.toy([ANN, BOB], winners=winners)
    await env.toy([CY, ANN], winners=[1])  # ahead of Cy
    await env.toy([ANN, BOB, CY], winners=[2])  # Cy first, Ann and Bob share 2nd
    p = await env.stats.profile(ANN[0], GUILD_A)
    bob, cy = p.opponents
    assert (bob.user_id, bob.display_name, bob.matches, bob.ahead, bob.level, bob.behind) == (BOB[0], "Bob", 5, 2, 2, 1)
    assert (cy.user_id, cy.matches, cy.ahead, cy.level, cy.behind) == (CY[0], 2, 1, 0, 1)
    assert await env.stats.opponents(ANN[0], limit=1) == (bob,)
    assert (await env.stats.profile(DEE[0], GUILD_A)).opponents == ()


async def test_profile_reads_one_rating_series_per_game_the_asked_one_first(env: Env) -> None:
    for _ in range(3):
        await env.toy([ANN, BOB], winners=[0])
    cup = await env.start_game("wizards-cup", [ANN, BOB])
    await env.play_randomly(cup, random.Random(5))
    p = await env.stats.profile(ANN[0], GUILD_A)
    assert [c.game for c in p.charts] == ["toy-guess", "wizards-cup"] and p.charts[0] == p.chart
    assert [c.matches for c in p.charts] == [3, 1]
    chosen = await env.stats.profile(ANN[0], GUILD_A, chart_game="wizards-cup")
    assert [c.game for c in chosen.charts] == ["wizards-cup", "toy-guess"] and chosen.chart == chosen.charts[0]
    only = await env.stats.profile(ANN[0], GUILD_A, chart_games=1)
    assert [c.game for c in only.charts] == ["toy-guess"]


# -- issue 31: a table's places are placements in the record, never a loss or a draw -------------


async def rated_table(
    env: Env, seats: Sequence[tuple[int, str]], ranks: Sequence[int], game: str = "magic-duel"
) -> int:
    """A rated match of ``game`` written straight to the tables, finished with these places."""
    from bot.ratings import RatingService
    from db import MatchStatus

    env.clock.now += 60
    record = await env.db.matches.create(
        game=game, options={}, guild_id=GUILD_A, channel_id=5, seats=list(seats), expires_at=None
    )
    assert await env.db.matches.start(record.id, seed=1)
    env.clock.now += 60
    outcome = {"seats": [{"result": "win" if r == 1 else "loss"} for r in ranks], "ranks": list(ranks)}
    assert await env.db.matches.finish(record.id, MatchStatus.FINISHED, outcome=outcome, summary="Over.")
    assert await RatingService(env.db).record_match(record.id)
    return record.id


async def test_a_four_player_magic_duel_counts_places_not_losses(env: Env) -> None:
    four = [ANN, BOB, CY, DEE]
    await rated_table(env, four, [1, 2, 3, 4])  # Ann 1st
    await rated_table(env, four, [1, 1, 3, 4])  # Ann and Bob share 1st
    await rated_table(env, four, [3, 1, 2, 4])  # Ann 3rd
    await env.toy([ANN, BOB], winners=[0])  # another game: a two-player win stays a win

    profile = await env.stats.profile(ANN[0], GUILD_A)
    duel = next(g for g in profile.games if g.game == "magic-duel")
    record = duel.widest_record
    assert record.placed() == [(1, False, 1), (1, True, 1), (3, False, 1)]
    assert (record.wins, record.losses, record.draws) == (0, 0, 0)  # never a loss or a draw for a place
    assert record.played == 3 and record.firsts == 1
    for placed in duel.ladders:  # the server's ladder and the global one alike
        assert duel.record(placed.standing) == record
    toy = next(g for g in profile.games if g.game == "toy-guess")
    assert (toy.widest_record.wins, toy.widest_record.tables) == (1, 0)
    # the streak of the table's last match: a place, not a loss (the toy win came last: a win)
    assert duel.streak is not None and duel.streak.result == "placed"
    # the leaderboard's rows carry the same records
    board = await env.stats.leaderboard("magic-duel", GUILD_A, 0, size=10)
    assert board.record(next(s for s in board.standings if s.user_id == BOB[0])).placed() == [
        (1, False, 1),
        (1, True, 1),
        (2, False, 1),
    ]
