"""The tournament service (bot/tournaments/service.py) driven end to end through the match
service: full tournaments with random legal moves in every format and game, a restart in the middle
of a round, drop-outs, time-outs, round deadlines, pause, planned starts, and bad input refused
with nothing changed. Tests that take ``target`` run on SQLite and on PostgreSQL."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.matches import MatchStatus
from bot.tournaments import (
    BadPlayers,
    BadRounds,
    Format,
    TooFewPlayers,
    Tournament,
    TournamentError,
    UnknownFormat,
    UnknownGame,
    WrongState,
)
from bot.tournaments.errors import BadSettings, NotOrganizer, SignupClosed, TournamentNotFound
from bot.tournaments.service import TournamentView
from db import Batch
from db.tournaments import TournamentsRepository, TournamentStatus
from tests.bot.tournament_env import (
    CHANNEL,
    GUILD,
    ORG,
    T0,
    TURN,
    Env,
    live_links,
    move_once,
    open_env,
    pass_once,
)
from tests.conftest import DbTarget
from tests.running_timer import timer_pass, tournament_timer_pass


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    found = await open_env(target)
    yield found
    await found.close()


@pytest.fixture
async def lite(tmp_path: Any) -> AsyncIterator[Env]:
    """SQLite only (the long matrix of games and formats)."""
    found = await open_env(DbTarget("sqlite", str(tmp_path / "bot.sqlite3")))
    yield found
    await found.close()


# -- driving ------------------------------------------------------------------------------------


async def play_round(env: Env, tid: int, rng: random.Random, *, silent: frozenset[int] = frozenset()) -> int:
    """Random moves in the current round until no match can move (all over, or only silent
    players awaited); returns the moves made."""
    moves = 0
    await env.service.settle()  # the round's matches start in the background
    start_round = (await env.service.view(tid)).tournament
    number = start_round.current_round.number if start_round and start_round.current_round else 0
    while True:
        await env.service.settle()  # results recorded, the next round started (background)
        view = await env.service.view(tid)
        t = view.tournament
        if view.status is not TournamentStatus.RUNNING or t is None or t.current_round is None:
            return moves
        if t.current_round.number != number:
            return moves
        progressed = False
        for match_id in await live_links(env, tid):
            if await move_once(env, match_id, rng, silent=silent):
                moves += 1
                progressed = True
        if not progressed:
            return moves
        assert moves < 50_000


async def play_to_end(env: Env, tid: int, seed: int = 1, *, silent: frozenset[int] = frozenset()) -> TournamentView:
    rng = random.Random(seed)
    for _ in range(200):
        view = await env.service.view(tid)
        if view.status is not TournamentStatus.RUNNING:
            break
        await play_round(env, tid, rng, silent=silent)
        if silent:  # let the silent players time out
            env.clock.advance(TURN + 1)
            await timer_pass(env.matches)
            await tournament_timer_pass(env.service)
    await env.matches.settle()
    await env.service.settle()
    return await env.service.view(tid)


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


# -- invariants ---------------------------------------------------------------------------------


async def check_finished(env: Env, view: TournamentView, n: int) -> Tournament:
    rec, t = view.record, view.tournament
    assert rec.status is TournamentStatus.FINISHED, rec.status
    assert t is not None and t.finished
    events = await env.service.events(rec.id)
    names = kinds(events)
    for kind in ("created", "signup_changed", "started", "round_started", "standings_changed", "finished"):
        assert kind in names, (kind, names)
    assert names[-1] == "finished"
    assert events[-1].payload["champion"] == t.champion
    assert sorted(pid for _, pid in events[-1].payload["ranking"]) == list(range(1, n + 1))
    # every round was announced with its match ids, and each played pairing has a match
    announced = [e.payload for e in events if e.kind == "round_started"]
    assert [a["round"] for a in announced] == [r.number for r in t.rounds]
    links = {(link.round, link.pairing): link for link in view.links}
    for rnd, payload in zip(t.rounds, announced, strict=True):
        for m, shown in zip(rnd.matches, payload["matches"], strict=True):
            assert shown["pairing"] == m.id
            assert m.result is not None
            if not m.bye:
                assert shown["match_id"] is not None
                link = links[(rnd.number, m.id)]
                record = await env.matches.get(link.match_id)
                # seat order is the core's (seat 0: the first player), a rated (not practice) match
                assert [s.user_id for s in record.seats] == list(m.seats)
                assert record.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)
                assert not record.practice
                assert record.guild_id == GUILD and record.channel_id == CHANNEL
    assert all(link.recorded for link in view.links)
    # the results feed the ratings like any match
    finished = [link.match_id for link in view.links]
    rated = env.sql("SELECT COUNT(*) FROM rated_matches")[0][0]
    played = [mid for mid in finished if (await env.matches.get(mid)).status is MatchStatus.FINISHED]
    assert rated >= len(played) > 0 or n < 2
    return t


def check_format(t: Tournament) -> None:
    met = Counter()
    byes: Counter[int] = Counter()
    for rnd in t.rounds:
        seen: list[int] = []
        for m in rnd.matches:
            seen.extend(m.seats)
            if len(m.seats) == 1 and m.result is not None and m.result.kind.value == "bye":
                byes[m.seats[0]] += 1
            for a, b in itertools.combinations(sorted(m.seats), 2):
                met[(a, b)] += 1
        assert len(seen) == len(set(seen)), "a player twice in one round"
    if t.format is Format.SWISS and not t.uses_tables:
        n = len(t.players)
        if len(t.rounds) <= (n - 1 if n % 2 == 0 else n) and not any(p.dropped for p in t.players):
            assert all(c == 1 for c in met.values()), "a repeat pairing"
            assert all(c <= 1 for c in byes.values()), "a second bye"
    if t.format is Format.ROUND_ROBIN and not any(p.dropped for p in t.players):
        ids = sorted(p.id for p in t.players)
        assert set(met) == set(itertools.combinations(ids, 2))
        assert all(c == 1 for c in met.values())
    if t.format is Format.SINGLE_ELIMINATION and not t.uses_tables:
        for earlier, later in itertools.pairwise(t.rounds):
            winners = {m.winner() for m in earlier.matches if m.label != "third place"}
            playing = {p for m in later.matches if m.label != "third place" for p in m.seats}
            assert playing <= winners


# -- full tournaments ---------------------------------------------------------------------------

MATRIX = [
    ("wizards-cup", "swiss", 7),
    ("wizards-cup", "round_robin", 5),
    ("wizards-cup", "single_elimination", 16),
    ("firewall", "swiss", 16),
    ("firewall", "round_robin", 6),
    ("firewall", "single_elimination", 5),
    ("magic-duel", "swiss", 9),
    ("magic-duel", "round_robin", 3),
    ("magic-duel", "single_elimination", 11),
    ("arena", "swiss", 3),
    ("arena", "round_robin", 2),
    ("arena", "single_elimination", 4),
    ("firewall", "swiss", 2),
    ("magic-duel", "swiss", 2),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "fmt", "n"), MATRIX)
async def test_full_tournaments_in_every_format_and_game(lite: Env, game: str, fmt: str, n: int) -> None:
    tid = await lite.make(game, fmt, n)
    await lite.service.start(tid, ORG)
    view = await play_to_end(lite, tid, seed=n)
    t = await check_finished(lite, view, n)
    check_format(t)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "fmt", "n"), [("firewall", "swiss", 5), ("magic-duel", "single_elimination", 7)])
async def test_full_tournaments_on_both_backends(env: Env, game: str, fmt: str, n: int) -> None:
    tid = await env.make(game, fmt, n)
    await env.service.start(tid, ORG)
    t = await check_finished(env, await play_to_end(env, tid, seed=3), n)
    check_format(t)


@pytest.mark.slow
async def test_64_player_swiss(lite: Env) -> None:
    tid = await lite.make("wizards-cup", "swiss", 64)
    await lite.service.start(tid, ORG)
    t = await check_finished(lite, await play_to_end(lite, tid, seed=64), 64)
    assert len(t.rounds) == 6
    check_format(t)


@pytest.mark.slow
async def test_a_restart_in_the_middle_of_a_round(env: Env) -> None:
    tid = await env.make("firewall", "swiss", 6, rounds=3)
    await env.service.start(tid, ORG)
    rng = random.Random(5)
    # round 1 ends, round 2 is half played
    await play_round(env, tid, rng)
    view = await env.service.view(tid)
    assert view.tournament is not None and view.tournament.current_round is not None
    assert view.tournament.current_round.number == 2
    first = (await live_links(env, tid))[0]
    while (await env.matches.get(first)).status is MatchStatus.ACTIVE:
        assert await move_once(env, first, rng)
    for mid in await live_links(env, tid):
        for _ in range(3):
            await move_once(env, mid, rng)
    # the finished match is recorded in the background (its end observer): wait for that, so the
    # restart is what is compared, not the recording
    await env.matches.settle()
    await env.service.settle()
    before = await env.service.view(tid)
    await env.reopen()
    after = await env.service.view(tid)
    assert after.record.version == before.record.version
    assert after.tournament is not None and after.tournament.to_json() == before.tournament.to_json()  # type: ignore[union-attr]
    t = await check_finished(env, await play_to_end(env, tid, seed=9), 6)
    assert len(t.rounds) == 3


async def test_a_crash_after_pairing_makes_the_missing_matches_at_recovery(lite: Env, caplog: Any) -> None:
    tid = await lite.make("wizards-cup", "swiss", 6)
    real = lite.matches.arrange
    calls = 0

    async def crashing(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("the process died")
        return await real(*args, **kwargs)

    lite.matches.arrange = crashing  # type: ignore[method-assign]
    # the start returns once round 1 is paired; the crash is in the background, logged
    await lite.service.start(tid, ORG)
    await lite.service.settle()
    assert any(r.exc_info and "the process died" in str(r.exc_info[1]) for r in caplog.records)
    view = await lite.service.view(tid)
    assert view.status is TournamentStatus.RUNNING and len(view.links) == 1
    # recovery schedules the missing matches in the background: the start-up does not wait
    await lite.reopen(settle=False)
    assert len((await lite.service.view(tid)).current_links()) == 1
    await lite.service.settle()
    view = await lite.service.view(tid)
    assert len(view.current_links()) == 3
    assert "round_started" in kinds(await lite.service.events(tid))
    await check_finished(lite, await play_to_end(lite, tid), 6)


async def test_a_result_left_unrecorded_is_recorded_at_recovery(lite: Env) -> None:
    tid = await lite.make("firewall", "swiss", 4, rounds=1)
    await lite.service.start(tid, ORG)
    await lite.service.settle()
    lite.service.close()  # the tournament does not hear of the matches ending
    rng = random.Random(2)
    for mid in await live_links(lite, tid):
        while await move_once(lite, mid, rng):
            pass
    assert (await lite.service.view(tid)).status is TournamentStatus.RUNNING
    await lite.reopen()
    view = await lite.service.view(tid)
    await check_finished(lite, view, 4)


# -- drops and time-outs ------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_silent_player_times_out_and_is_dropped_after_two_misses(env: Env) -> None:
    tid = await env.make("firewall", "swiss", 5, rounds=4)
    await env.service.start(tid, ORG)
    view = await play_to_end(env, tid, seed=4, silent=frozenset({5}))
    t = view.tournament
    assert t is not None and view.status is TournamentStatus.FINISHED
    five = t.player(5)
    assert five.dropped
    played = [m for m in t.matches_of(5) if len(m.seats) > 1]
    assert len(played) == 2 and all(m.result is not None and 5 in m.result.timed_out for m in played)
    assert all(5 not in m.seats for rnd in t.rounds[five.dropped_after or 0 :] for m in rnd.matches)
    dropped = [e.payload for e in await env.service.events(tid) if e.kind == "player_dropped"]
    assert dropped == [{"player": 5, "reason": "missed 2 matches in a row"}]
    row = t.standings().row(5)
    assert row.match_points == 3 * row.byes  # a time-out is a loss


async def test_nobody_moves_then_both_lose(lite: Env) -> None:
    tid = await lite.make("wizards-cup", "swiss", 2, rounds=1)
    await lite.service.start(tid, ORG)
    await lite.service.settle()
    lite.clock.advance(TURN + 1)
    await timer_pass(lite.matches)
    await lite.service.settle()
    view = await lite.service.view(tid)
    assert view.status is TournamentStatus.FINISHED
    assert view.tournament is not None
    m = view.tournament.rounds[0].matches[0]
    assert m.result is not None and set(m.result.timed_out) == {1, 2}
    assert all(r.match_points == 0 for r in view.tournament.standings().rows)
    assert (await lite.matches.get(view.links[0].match_id)).status is MatchStatus.ABANDONED


@pytest.mark.slow
async def test_a_dropped_player_forfeits_the_match_being_played(env: Env) -> None:
    tid = await env.make("firewall", "swiss", 4, rounds=2)
    await env.service.start(tid, ORG)
    view = await env.service.view(tid)
    assert view.tournament is not None
    pairing = next(m for m in view.tournament.rounds[0].matches if 1 in m.seats)
    other = next(p for p in pairing.seats if p != 1)
    with pytest.raises(NotOrganizer):
        await env.service.drop(tid, other, 1)
    view = await env.service.drop(tid, ORG, 1)
    t = view.tournament
    assert t is not None and t.player(1).dropped
    m = t.match(pairing.id)
    assert m.result is not None and m.winner() == other
    link = view.current_links()[pairing.id]
    assert link.recorded and (await env.matches.get(link.match_id)).status is MatchStatus.FINISHED
    with pytest.raises(WrongState):
        await env.service.drop(tid, 1, 1)  # dropping twice
    view = await play_to_end(env, tid, seed=2)
    assert view.tournament is not None
    assert all(1 not in m.seats for m in view.tournament.rounds[1].matches)
    await check_finished(env, view, 4)


async def test_a_player_drops_themself_from_a_table(lite: Env) -> None:
    tid = await lite.make("magic-duel", "swiss", 4, rounds=2)
    await lite.service.start(tid, ORG)
    view = await lite.service.drop(tid, 3, 3)
    assert view.tournament is not None and view.tournament.player(3).dropped
    view = await play_to_end(lite, tid, seed=8)
    assert view.tournament is not None
    assert 3 not in view.tournament.rounds[1].matches[0].seats
    await check_finished(lite, view, 4)


async def test_round_deadline_adjudicates_unfinished_matches(env: Env) -> None:
    tid = await env.make("wizards-cup", "swiss", 4, rounds=2, round_seconds=600)
    await env.service.start(tid, ORG)
    await env.service.settle()
    view = await env.service.view(tid)
    assert view.record.round_deadline_at == T0 + 600
    links = list(view.current_links().values())
    # match A: one player moves (the game now waits on the other); match B: nobody moves
    a, b = links[0], links[1]
    rec_a = await env.matches.get(a.match_id)
    for _ in range(20):  # seat 0 acts until the game waits on seat 1 alone
        p = await env.matches.prompt(a.match_id, 0)
        if not p.awaited:
            break
        assert p.decision is not None
        await env.matches.submit(a.match_id, rec_a.seats[0].user_id, p.decision.choices[0], seat_step=p.seat_step)
    waiting = [s.seat for s in rec_a.seats if (await env.matches.prompt(a.match_id, s.seat)).awaited]
    assert waiting == [1]
    env.clock.advance(601)
    await tournament_timer_pass(env.service)
    await env.service.settle()
    view = await env.service.view(tid)
    t = view.tournament
    assert t is not None and t.current_round is not None and t.current_round.number == 2
    ma, mb = t.match(a.pairing), t.match(b.pairing)
    assert ma.result is not None and ma.winner() == rec_a.seats[0].user_id
    assert ma.result.timed_out == (rec_a.seats[1].user_id,)
    assert mb.result is not None and set(mb.result.timed_out) == set(mb.seats)
    assert (await env.matches.get(a.match_id)).status is MatchStatus.FINISHED
    assert (await env.matches.get(b.match_id)).status is MatchStatus.ABANDONED
    assert view.record.round_deadline_at == T0 + 601 + 600  # the next round's
    assert "round_deadline" in kinds(await env.service.events(tid))
    await check_finished(env, await play_to_end(env, tid), 4)


async def test_pause_holds_the_next_round_until_resume(lite: Env) -> None:
    tid = await lite.make("wizards-cup", "swiss", 4, rounds=2)
    await lite.service.start(tid, ORG)
    with pytest.raises(NotOrganizer):
        await lite.service.pause(tid, 1)
    await lite.service.settle()
    await lite.service.pause(tid, 1, is_manager=True)
    rng = random.Random(3)
    for mid in await live_links(lite, tid):
        while await move_once(lite, mid, rng):
            pass
    await lite.service.settle()
    view = await lite.service.view(tid)
    assert view.status is TournamentStatus.PAUSED
    assert view.tournament is not None and view.tournament.round_complete and len(view.tournament.rounds) == 1
    with pytest.raises(WrongState):
        await lite.service.pause(tid, ORG)
    view = await lite.service.resume(tid, ORG)
    assert view.status is TournamentStatus.RUNNING and view.tournament is not None
    assert len(view.tournament.rounds) == 2
    await check_finished(lite, await play_to_end(lite, tid), 4)


async def test_planned_start_and_cancel(lite: Env) -> None:
    tid = await lite.make("firewall", "round_robin", 3, start_at=T0 + 100)
    lonely = await lite.make("firewall", "swiss", 1, start_at=T0 + 100)
    await tournament_timer_pass(lite.service)
    assert (await lite.service.record(tid)).status is TournamentStatus.SIGNUP
    lite.clock.advance(100)
    await tournament_timer_pass(lite.service)
    assert (await lite.service.record(tid)).status is TournamentStatus.RUNNING
    gone = await lite.service.record(lonely)
    assert gone.status is TournamentStatus.CANCELLED
    with pytest.raises(NotOrganizer):
        await lite.service.cancel(tid, 2)
    rec = await lite.service.cancel(tid, ORG)
    assert rec.status is TournamentStatus.CANCELLED
    with pytest.raises(WrongState):
        await lite.service.cancel(tid, ORG)
    # its matches play on as ordinary matches; their results no longer count
    before = (await lite.service.record(tid)).version
    await play_round(lite, tid, random.Random(1))
    for link in (await lite.service.view(tid)).links:
        rng = random.Random(link.match_id)
        while await move_once(lite, link.match_id, rng):
            pass
    assert (await lite.service.record(tid)).version == before


# -- bad input ------------------------------------------------------------------------------------


async def snapshot(env: Env, tid: int) -> tuple[Any, ...]:
    rec = await env.service.record(tid)
    return rec.version, rec.status, rec.entrants, len(await env.service.events(tid))


async def test_bad_input_is_refused_clearly_and_changes_nothing(env: Env) -> None:
    count = env.sql("SELECT COUNT(*) FROM tournaments")[0][0]
    refusals: list[tuple[type[Exception], dict[str, Any], str]] = [
        (UnknownFormat, {"game": "firewall", "format": "ladder"}, "Unknown tournament format 'ladder'"),
        (UnknownGame, {"game": "chess", "format": "swiss"}, "Unknown game 'chess'"),
        (BadRounds, {"game": "firewall", "format": "swiss", "rounds": 0}, "1 round or more"),
        (BadRounds, {"game": "firewall", "format": "round_robin", "rounds": 3}, "leave rounds out"),
        (BadRounds, {"game": "firewall", "format": "swiss", "rounds": 9, "max_players": 4}, "1 to 3 rounds"),
        (BadSettings, {"game": "firewall", "format": "swiss", "max_players": 1}, "Max players must be 2"),
        (BadSettings, {"game": "firewall", "format": "swiss", "turn_time": 1}, "turn time"),
        (BadSettings, {"game": "arena", "format": "swiss", "options": {"grid_size": 3}}, "options are not valid"),
        (TournamentError, {"game": "firewall", "format": "swiss", "third_place": True}, "single elimination"),
    ]
    for error, kwargs, words in refusals:
        with pytest.raises(error) as caught:
            await env.service.create(GUILD, CHANNEL, ORG, **kwargs)
        assert words in str(caught.value), (kwargs, str(caught.value))
    assert env.sql("SELECT COUNT(*) FROM tournaments")[0][0] == count

    tid = await env.make("firewall", "swiss", 1, max_players=3)
    before = await snapshot(env, tid)
    with pytest.raises(TooFewPlayers, match="at least 2 players"):
        await env.service.start(tid, ORG)
    with pytest.raises(BadPlayers, match="already joined"):
        await env.service.join(tid, (1, "P1"))
    with pytest.raises(BadPlayers, match="not joined"):
        await env.service.leave(tid, 2)
    assert await snapshot(env, tid) == before

    await env.service.join(tid, (2, "P2"))
    await env.service.join(tid, (3, "P3"))
    before = await snapshot(env, tid)
    with pytest.raises(SignupClosed, match="full"):
        await env.service.join(tid, (4, "P4"))
    with pytest.raises(NotOrganizer, match="Only the organizer"):
        await env.service.start(tid, 2)
    assert await snapshot(env, tid) == before

    await env.service.start(tid, 2, is_manager=True)  # a manager may
    await env.service.settle()
    before = await snapshot(env, tid)
    with pytest.raises(WrongState, match="already started"):
        await env.service.start(tid, ORG)
    with pytest.raises(SignupClosed, match="sign-up is closed"):
        await env.service.join(tid, (5, "P5"))
    with pytest.raises(SignupClosed):
        await env.service.leave(tid, 1)
    with pytest.raises(BadPlayers):
        await env.service.drop(tid, ORG, 77)
    with pytest.raises(TournamentNotFound):
        await env.service.start(123456, ORG)
    assert await snapshot(env, tid) == before


async def test_leave_during_signup_and_events(lite: Env) -> None:
    tid = await lite.make("wizards-cup", "single_elimination", 3)
    await lite.service.leave(tid, 2)
    rec = await lite.service.record(tid)
    assert [e.user_id for e in rec.entrants] == [1, 3]
    events = await lite.service.events(tid, pending_only=True)
    signup = [e.payload for e in events if e.kind == "signup_changed"]
    assert signup[-1]["count"] == 2 and [p["id"] for p in signup[-1]["entrants"]] == [1, 3]
    await lite.service.mark_delivered([e.id for e in events])
    assert await lite.service.events(tid, pending_only=True) == []
    await lite.service.start(tid, ORG)
    await lite.service.settle()
    started = await lite.service.events(tid, pending_only=True)
    rounds = [e.payload for e in started if e.kind == "round_started"]
    assert rounds and all(m["match_id"] for m in rounds[0]["matches"] if not m["bye"])
    view = await play_to_end(lite, tid)
    assert view.status is TournamentStatus.FINISHED and view.tournament is not None
    assert {pid for _, pid in view.tournament.ranking()} == {1, 3}


async def test_the_match_service_tells_observers_after_the_commit(env: Env) -> None:
    """The hook the tournament service uses: called once per ended match, after its commit, with
    the outcome (None: abandoned); an observer that fails stops nothing."""
    seen: list[tuple[int, str, bool]] = []

    async def failing(record: Any, outcome: Any) -> None:
        raise RuntimeError("an observer failed")

    async def observer(record: Any, outcome: Any) -> None:
        stored = env.sql("SELECT status FROM matches WHERE id = ?", record.id)[0][0]
        seen.append((record.id, stored, outcome is None))

    env.matches.add_end_observer(failing)
    env.matches.add_end_observer(observer)
    one = await env.matches.arrange("firewall", None, GUILD, CHANNEL, [(1, "Ann"), (2, "Bob")])
    two = await env.matches.arrange("firewall", None, GUILD, CHANNEL, [(3, "Cy"), (4, "Dee")])
    started = await env.matches.start_arranged(one.id)
    assert started.started and [s.user_id for s in started.record.seats] == [1, 2]
    assert (await env.matches.start_arranged(two.id)).started
    await env.matches.forfeit(one.id, 1)
    env.clock.advance(TURN + 1)
    await timer_pass(env.matches)  # nobody moved in match two: abandoned
    assert seen == [(one.id, "finished", False), (two.id, "abandoned", True)]
    env.matches.remove_end_observer(observer)


# -- the read side: pending events, history pages, a player's results ---------------------------


async def test_with_pending_events_is_one_grouped_query_ordered_by_oldest_pending_event(env: Env) -> None:
    """The presenter's poll: one query, one row per tournament (not every pending event), the
    tournament whose oldest undelivered event is oldest first."""
    a, b, c = [await env.make("firewall", "swiss", 0) for _ in range(3)]
    for tid in (a, b, c):
        await env.service.mark_delivered([e.id for e in await env.service.events(tid)])
    assert await env.service.with_pending_events() == []
    await env.service.join(b, (1, "P1"))  # b's first pending event, then a's, b's, c's, c's
    await env.service.join(a, (1, "P1"))
    await env.service.join(b, (2, "P2"))
    await env.service.join(c, (1, "P1"))
    await env.service.join(c, (2, "P2"))
    assert await env.service.with_pending_events() == [b, a, c]
    # b's oldest pending event delivered: its oldest pending one is now younger than a's
    first_b = (await env.service.events(b, pending_only=True))[0]
    await env.service.mark_delivered([first_b.id])

    calls: list[tuple[str, int]] = []
    real = env.db.fetchall

    async def spy(sql: str, params: Any = ()) -> Any:
        rows = await real(sql, params)
        calls.append((sql, len(rows)))
        return rows

    env.db.fetchall = spy  # type: ignore[method-assign]
    try:
        assert await env.service.with_pending_events() == [a, b, c]
    finally:
        env.db.fetchall = real  # type: ignore[method-assign]
    assert len(calls) == 1 and calls[0][1] == 3, calls  # 3 rows for 4 pending events
    await env.service.mark_delivered([e.id for t in (a, b, c) for e in await env.service.events(t, pending_only=True)])
    assert await env.service.with_pending_events() == []


async def test_history_pages_and_count(env: Env) -> None:
    """Past tournaments (finished or cancelled) of one server, newest first, a page at a time."""
    assert await env.service.history(GUILD) == [] and await env.service.history_count(GUILD) == 0
    past = []
    for _ in range(5):
        tid = await env.make("firewall", "swiss", 0)
        env.clock.advance(60)
        await env.service.cancel(tid, ORG)
        past.append(tid)
    past.reverse()  # newest first
    await env.make("firewall", "swiss", 0)  # still in sign-up: not history
    other = await env.service.create(GUILD + 1, CHANNEL, ORG, "firewall", "swiss")
    await env.service.cancel(other.id, ORG)  # another server's
    assert await env.service.history_count(GUILD) == 5
    assert await env.service.history_count(GUILD + 1) == 1
    pages = [[v.record.id for v in await env.service.history(GUILD, 2, offset)] for offset in (0, 2, 4, 6)]
    assert pages == [past[0:2], past[2:4], past[4:5], []]
    assert [v.record.id for v in await env.service.history(GUILD)] == past  # the default: the last 10
    assert all(v.status is TournamentStatus.CANCELLED for v in await env.service.history(GUILD, 10, 0))
    with pytest.raises(BadSettings):
        await env.service.history(GUILD, 2, -1)
    with pytest.raises(BadSettings):
        await env.service.history(GUILD, -2)


@pytest.mark.slow
async def test_player_results_for_the_profile(env: Env) -> None:
    """A player's finished tournaments, newest first (by when they finished), with place, record,
    points, drop and champion as the tournament's final standings give them."""
    early = await env.service.create(GUILD + 1, CHANNEL, ORG, "wizards-cup", "swiss", rounds=1)  # another server
    for i in (1, 2):
        await env.service.join(early.id, (i, f"P{i}"))
    main = await env.make("firewall", "swiss", 4, rounds=2)
    await env.service.join(main, (5, "P5"))
    await env.service.leave(main, 5)  # left in the sign-up: never entered
    await env.service.start(main, ORG)
    await env.service.drop(main, 4, 4)  # dropped in round 1: still one of the tournament's results
    main_view = await play_to_end(env, main, seed=2)
    assert main_view.status is TournamentStatus.FINISHED
    env.clock.advance(600)
    await env.service.start(early.id, ORG)
    early_view = await play_to_end(env, early.id, seed=3)
    assert early_view.status is TournamentStatus.FINISHED
    cancelled = await env.make("firewall", "swiss", 2)  # player 1 in it, but cancelled: not a result
    await env.service.cancel(cancelled, ORG)
    await env.make("firewall", "swiss", 2)  # in sign-up: not a result

    # player 1: both, newest finish first (the other server's, though it has the lower id)
    everywhere = await env.service.player_results(1)
    assert [r.tournament_id for r in everywhere] == [early.id, main]
    assert await env.service.player_result_count(1) == 2
    assert [r.tournament_id for r in await env.service.player_results(1, GUILD)] == [main]
    assert await env.service.player_result_count(1, GUILD) == 1
    assert [r.tournament_id for r in await env.service.player_results(1, None, limit=1)] == [early.id]
    assert await env.service.player_results(5) == [] and await env.service.player_result_count(5) == 0
    assert await env.service.player_results(1, GUILD + 7) == []

    for view in (main_view, early_view):
        t = view.tournament
        assert t is not None
        final = (await env.service.events(view.record.id))[-1].payload
        assert final["champion"] == t.champion
        places = {pid: place for place, pid in final["ranking"]}
        rows = {row["player"]: row for row in final["rows"]}
        champions = 0
        for pid in places:
            found = [r for r in await env.service.player_results(pid) if r.tournament_id == view.record.id]
            assert len(found) == 1
            r = found[0]
            assert (r.guild_id, r.game, r.format) == (view.record.guild_id, view.record.game, view.record.format)
            assert r.finished_at == view.record.finished_at is not None
            assert r.entrants == len(places)
            assert r.place == places[pid]
            assert r.champion is (pid == final["champion"])
            champions += r.champion
            assert r.match_points == round(rows[pid]["match_points"])
            assert f"{r.wins}-{r.losses}-{r.draws}" == rows[pid]["record"]
            played = [m for m in t.matches_of(pid) if len(m.seats) > 1 and m.result is not None]
            assert r.wins + r.losses + r.draws == len(played)
            assert r.dropped is (pid == 4)
        assert champions == 1
    dropped = next(r for r in await env.service.player_results(4) if r.tournament_id == main)
    # dropped before playing: their pairing became the opponent's walkover (ruling 25), no points
    assert dropped.dropped and not dropped.champion and dropped.match_points == 0 and dropped.wins == 0
    assert dropped.place is not None and dropped.place > 1
    with pytest.raises(BadSettings):
        await env.service.player_results(1, limit=-1)


async def test_the_tournament_turn_time_is_each_match_turn_time(env: Env) -> None:
    """A tournament created with turn_time=300 makes matches whose deadlines are 300 s after the
    start (not the server's TURN), and they time out then."""
    timed = await env.make("firewall", "swiss", 4, rounds=1, turn_time=300)
    plain = await env.make("firewall", "swiss", 2, rounds=1)
    env.clock.advance(50)
    started_at = env.clock.now
    await env.service.start(timed, ORG)
    await env.service.start(plain, ORG)
    await env.service.settle()
    timed_matches = await live_links(env, timed)
    assert len(timed_matches) == 2
    for mid in timed_matches:
        deadlines = [s.deadline_at for s in (await env.matches.get(mid)).seats]
        assert set(deadlines) - {None} == {started_at + 300}, deadlines
    (other,) = await live_links(env, plain)
    assert set(s.deadline_at for s in (await env.matches.get(other)).seats) - {None} == {started_at + TURN}
    env.clock.advance(301)
    await timer_pass(env.matches)
    for mid in timed_matches:  # nobody moved in 300 s: over
        assert (await env.matches.get(mid)).status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)
    assert (await env.matches.get(other)).status is MatchStatus.ACTIVE
    await env.service.settle()
    assert (await env.service.view(timed)).status is TournamentStatus.FINISHED


async def test_a_drawn_knockout_game_is_played_again_then_the_better_seed_goes_through(lite: Env) -> None:
    """Ruling 32: "A knock-out game drawn is played again: a new match for the pairing, up to 3
    games; if the third is drawn too, the better seed goes through (result kind adjudicated)."
    Two Arena players who only end their turns draw at the turn limit, three times over."""
    tid = await lite.make("arena", "single_elimination", 2)
    await lite.service.start(tid, ORG)
    games: list[int] = []
    for _ in range(4):
        await lite.service.settle()
        view = await lite.service.view(tid)
        if view.status is not TournamentStatus.RUNNING:
            break
        (match_id,) = await live_links(lite, tid)
        games.append(match_id)
        for _ in range(2000):
            if not await pass_once(lite, match_id):
                break
        record = await lite.matches.get(match_id)
        assert record.status is MatchStatus.FINISHED and record.outcome is not None
        assert record.outcome["ranks"] == [1, 1], record.outcome  # a real draw, not a decided game
    await lite.service.settle()
    view = await lite.service.view(tid)
    t = view.tournament
    assert view.status is TournamentStatus.FINISHED and t is not None
    # three matches for the one pairing, each its own (rated) match, no fourth
    assert len(games) == len(set(games)) == 3
    assert [(link.round, link.match_id) for link in view.links] == [(1, g) for g in games]
    assert len({link.pairing for link in view.links}) == 1
    (m,) = t.rounds[0].matches
    assert m.result is not None and m.result.kind.value == "adjudicated"
    better = min(m.seats, key=lambda p: t.player(p).seed or 10**9)
    assert m.winner() == better == t.champion
    # each drawn game was told as one to be played again, the third as adjudicated
    results = [e.payload for e in await lite.service.events(tid) if e.kind == "match_result"]
    assert [r["match_id"] for r in results] == games
    assert ["replay" in r for r in results] == [True, True, False]
    assert results[-1]["kind"] == "adjudicated"


async def test_the_parsed_tournament_is_shared_only_by_copies_and_follows_the_stored_row(env: Env) -> None:
    """The service keeps each tournament parsed (its stored state is read once, not at every
    step): what a caller changes on a view is its own; the service's own writes need no reading
    back; a change written by another process (another service on the same database) is seen."""
    tid = await env.make("firewall", "swiss", 6, rounds=3)
    await env.service.start(tid, ORG)
    await env.service.settle()
    stored = (await env.service.record(tid)).state
    first = await env.service.view(tid)
    assert first.tournament is not None
    first.tournament.drop(1)  # a caller's change, not written
    second = await env.service.view(tid)
    assert second.tournament is not None and not second.tournament.player(1).dropped
    assert second.tournament is not first.tournament and second.tournament.to_json() == stored
    # the service's own writes are kept parsed: no JSON read back
    parses: list[int] = []
    real = Tournament.from_json

    def counting(text: str | bytes) -> Tournament:
        parses.append(len(text))
        return real(text)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Tournament, "from_json", staticmethod(counting))
        await env.service.drop(tid, ORG, 2)
        await env.service.settle()
        view = await env.service.view(tid)
        assert parses == []
        assert view.tournament is not None and view.tournament.player(2).dropped
        # another process changes the row (its core drops player 3): this service reads it again
        rec = await env.service.record(tid)
        changed = real(rec.state or "")
        changed.drop(3)
        await env.service.repo.write(TournamentsRepository.update(Batch(), rec, T0, state=changed.to_json()))
        view = await env.service.view(tid)
        assert len(parses) == 1
        assert view.tournament is not None and view.tournament.player(3).dropped
        assert view.tournament.to_json() == (await env.service.record(tid)).state


async def test_seeds_follow_the_server_ladder_read_in_one_query(env: Env) -> None:
    """Seeding (ruling 18: "by rating, highest = seed 1"): each entrant's rating on the server's
    ladder of the game; a newcomer there starts at the ladder's starting number (another ladder,
    here the global one, is not used). The field's ratings are read in one query, not one per
    entrant."""
    from bot.ratings import DISPLAY_BASE
    from db import GLOBAL_SCOPE, RatingsRepository
    from db.ratings import Standing

    # matches of the four (their players known, an id for the standings to point at)
    some_match = await env.matches.arrange("firewall", {}, GUILD, CHANNEL, [(1, "P1"), (2, "P2")])
    await env.matches.arrange("firewall", {}, GUILD, CHANNEL, [(3, "P3"), (4, "P4")])

    def standing(scope: int, user: int, display: int) -> Standing:
        return Standing(scope, "firewall", user, 25.0, 8.0, 0.0, display, 1, 0, 0, 1, some_match.id, T0)

    await RatingsRepository(env.db).save(
        [], {}, [], [standing(GUILD, 3, 1800), standing(GUILD, 1, 900), standing(GLOBAL_SCOPE, 2, 2500)]
    )
    tid = await env.make("firewall", "single_elimination", 4)
    reads: list[str] = []
    real, real_many = env.db.fetchall, env.db.fetch_many

    async def counting(query: str, *args: Any, **kwargs: Any) -> Any:
        if "FROM ratings" in query:
            reads.append(query)
        return await real(query, *args, **kwargs)

    async def counting_many(queries: Any) -> Any:
        reads.extend(q for q, _ in queries if "FROM ratings" in q)
        return await real_many(queries)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(env.db, "fetchall", counting)
        mp.setattr(env.db, "fetch_many", counting_many)
        view = await env.service.start(tid, ORG)
    assert len(reads) == 1
    t = view.tournament
    assert t is not None
    assert [t.player(p).rating for p in (1, 2, 3, 4)] == [900.0, float(DISPLAY_BASE), 1800.0, float(DISPLAY_BASE)]
    assert t.player(3).seed == 1 and t.player(1).seed == 4


async def test_wizards_cup_results_count_the_duels_each_player_won(lite: Env) -> None:
    """The game-level tie-break of a Wizards Cup tournament is its duels: each recorded result
    carries the duels each player won (a duel both Wizards lose counts for nobody), so the
    standings' "games" are duels, not the match record again; another game's result has none."""
    tid = await lite.make("wizards-cup", "swiss", 4, rounds=1)
    await lite.service.start(tid, ORG)
    view = await play_to_end(lite, tid, seed=5)
    t = view.tournament
    assert t is not None and t.finished
    checked = 0
    for link in view.links:
        m = t.match(link.pairing)
        record = await lite.matches.get(link.match_id)
        if m.result is None or record.status is not MatchStatus.FINISHED:
            continue
        events = (await lite.matches.ending(link.match_id)).events
        won = {record.seats[s].user_id: 0 for s in range(2)}
        for e in events:
            if e.kind == "duel" and e.data.get("winner") is not None:
                won[record.seats[e.data["winner"]].user_id] += 1
        assert sum(won.values()) > 0
        assert m.result.games == tuple(won[p] for p in m.seats)
        checked += 1
    assert checked == 2
    other = await lite.make("firewall", "swiss", 2, rounds=1)
    await lite.service.start(other, ORG)
    done = await play_to_end(lite, other, seed=5)
    assert done.tournament is not None
    assert all(m.result is None or m.result.games is None for m in done.tournament.rounds[0].matches)
