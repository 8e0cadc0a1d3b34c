"""A 64-player round robin (issue 18: "full tournaments of 2 to 64 players in every format and all
four games"), through the TournamentService and the MatchService on SQLite: 63 rounds, 2,016
matches, played to the end in Arena (its two-turn limit draws some of the random whole games),
about half a minute on this machine: the service keeps the tournament parsed between steps
(``TournamentService.parsed``) instead of reading its JSON state at every step. The three other
games (Magic Duel two-player, as ruling 1 plays its round robin in pairs) play the first
:data:`FIRST_ROUNDS` rounds of their 64-player round robin (256 matches each, the same time-outs and
whole games, checked after every round): the tournament machinery at 64 is the same in every game,
and the first rounds cost about a tenth of the CPU of a whole round robin (issue 34 item 4: the
suite's time). The matrix (tests/bot/test_tournament_matrix.py) plays every game's round robin to its
end at 2 to 13 players, checked after every round.

Whole games for 2,016 matches are too slow, so every match is a real match of the match service,
started by the tournament, then decided cheaply from a seeded random generator: one random legal
move by each awaited seat, then a resign (``MatchService.forfeit``) by a random seat; about 5% of
the matches are whole games of random legal moves instead (Arena's two-turn limit can draw them),
and two matches a tournament end by a time-out (the clock advanced past the move time while the
opponent waits on a silent player, as the matrix's time-out test does; two different players, so
nobody misses two in a row and is dropped).

The invariants are checked from the database's rows with the matrix's helpers
(tests/bot/tournament_checks.py): everyone meets everyone exactly once (2,016 distinct pairs over
63 rounds, everyone seated once a round), match points recomputed from the stored ranks and
time-outs equal the standings and sum to 3 per decisive and 2 per drawn match, the champion is first
in the final standings, and every match is a rated, finished, non-practice match of the
tournament's server, seated as its pairing. The first rounds' games check them after every round;
the whole round robin after its first two rounds, every eighth, each time-out's and at the end (a
check reads every row so far: after all 63 rounds, with the rows read after each round, they were
a third of its time; the matrix checks every round at the smaller sizes). Between the checks the
driver reads the tournament row and the current round's matches only."""

from __future__ import annotations

import asyncio
import random
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.matches import MatchStatus
from bot.tournaments import Format, Tournament
from bot.tournaments.model import ResultKind
from db.sqlite import SqliteDatabase
from db.tournaments import TournamentStatus
from tests.bot.tournament_checks import AR, FW, MD, WC, Stored, check_end, check_round
from tests.bot.tournament_env import CHANNEL, GUILD, ORG, QUICK, TURN, Env, move_once, open_env
from tests.conftest import DbTarget
from tests.running_timer import timer_pass

N = 64
WHOLE_GAMES = 0.05  # the share of matches played to their end with random moves
TIME_OUTS = 2  # matches a tournament that end by a time-out
FIRST_ROUNDS = 8  # the rounds played at 64 by the games whose round robin is not played to its end
CHECK_EVERY = 8  # the whole round robin's invariants: after rounds 1, 2, every eighth, the time-outs', the end


@pytest.fixture
async def lite(tmp_path: Path) -> AsyncIterator[Env]:
    found = await open_env(DbTarget("sqlite", str(tmp_path / "bot.sqlite3")))
    # 8,000 matches' commits: WAL's usual durability (a sync at checkpoints, not at every commit);
    # with the default FULL, the waits for the disk were over half of the time on a loaded machine
    assert isinstance(found.db, SqliteDatabase)
    await found.db.run(lambda conn: conn.execute("PRAGMA synchronous = NORMAL"))
    yield found
    await found.close()


async def one_move_each(env: Env, mid: int, rng: random.Random) -> None:
    """One random legal move by each seat the match awaits (in a random order), once."""
    m = await env.matches.get(mid)
    seats = list(range(len(m.seats)))
    rng.shuffle(seats)
    for s in seats:
        if (await env.matches.get(mid)).status is not MatchStatus.ACTIVE:
            return
        p = await env.matches.prompt(mid, s)
        if p.awaited and p.decision is not None and p.decision.choices:
            action = p.decision.choices[rng.randrange(len(p.decision.choices))]
            await env.matches.submit(mid, m.seats[s].user_id, action, seat_step=p.seat_step)


async def resign(env: Env, mid: int, rng: random.Random) -> None:
    """A real start, one move by each awaited seat, then a random seat resigns."""
    await one_move_each(env, mid, rng)
    m = await env.matches.get(mid)
    if m.status is MatchStatus.ACTIVE:
        await env.matches.forfeit(mid, m.seats[rng.randrange(len(m.seats))].user_id)


async def whole_game(env: Env, mid: int, rng: random.Random) -> None:
    for _ in range(5_000):
        if not await move_once(env, mid, rng):
            break


async def time_out(env: Env, mid: int, victim: int, rng: random.Random) -> None:
    """Everyone but ``victim`` plays; when only the victim is awaited while an opponent waits on
    them, their move time runs out (a default move the game plays for them goes on the same way)
    until the match is over. The victim plays until an opponent has moved: silent from the first
    step, nobody would be around and the match service abandons the match (not rated)."""
    quiet = frozenset({victim})
    m = await env.matches.get(mid)
    others = frozenset(seat.user_id for seat in m.seats) - quiet
    waited_on = False
    for _ in range(200):
        if (await env.matches.get(mid)).status is not MatchStatus.ACTIVE:
            return
        if await move_once(env, mid, rng, silent=quiet):
            waited_on = True
        elif not waited_on:
            assert await move_once(env, mid, rng, silent=others), f"match {mid}: nobody to move"
        else:
            env.clock.advance(TURN + 1)
            await timer_pass(env.matches)
    raise AssertionError(f"match {mid} did not end")


async def decide(env: Env, mid: int, rng: random.Random, victim: int | None) -> str:
    """One match, its own generator: a time-out of ``victim`` (after the round's other matches,
    as the clock moves on), a whole game, or one move each and a resign."""
    if victim is not None:
        await env.matches.settle()
        await time_out(env, mid, victim, rng)
        return "timed out"
    if rng.random() < WHOLE_GAMES:
        await whole_game(env, mid, rng)
        return "whole"
    await resign(env, mid, rng)
    return "resigned"


def current_round(env: Env, tid: int) -> tuple[TournamentStatus, Tournament, dict[str, list[int]]]:
    """The tournament's row and its current round's matches (pairing -> match ids, oldest first),
    read with SQL: what the driver needs between the rounds it checks (``Stored`` reads every row)."""
    (row,) = env.sql("SELECT status, state FROM tournaments WHERE id = ?", tid)
    status, t = TournamentStatus(row[0]), Tournament.from_json(row[1])
    links: dict[str, list[int]] = defaultdict(list)
    if t.current_round is not None:
        for match_id, pairing in env.sql(
            "SELECT match_id, pairing FROM tournament_matches WHERE tournament_id = ? AND round = ? ORDER BY match_id",
            tid,
            t.current_round.number,
        ):
            links[str(pairing)].append(int(match_id))
    return status, t, links


async def round_robin_64(env: Env, game: str, seed: int, rounds: int = N - 1) -> tuple[Stored, Counter[str]]:
    """The first ``rounds`` rounds of a 64-player round robin of ``game`` (all 63: to its end)."""
    whole = rounds == N - 1
    rng = random.Random(seed)
    rec = await env.service.create(GUILD, CHANNEL, ORG, game, "round_robin", options=QUICK[game])
    for i in range(1, N + 1):
        await env.service.join(rec.id, (i, f"P{i}"))
    await env.service.start(rec.id, ORG)
    tid = rec.id
    # two rounds, two different players: a time-out each, nobody dropped
    timeout_rounds = dict(
        zip(rng.sample(range(1, rounds + 1), TIME_OUTS), rng.sample(range(1, N + 1), TIME_OUTS), strict=True)
    )
    checked = {1, 2, *range(CHECK_EVERY, N, CHECK_EVERY), *timeout_rounds} if whole else set(range(1, rounds + 1))
    how: Counter[str] = Counter()
    played = 0
    for _ in range(N + 5):
        await env.matches.settle()  # the ratings of the finished matches
        await env.service.settle()  # results recorded, the next round paired, its matches started
        if played in checked or played == rounds:
            s = Stored(env, tid)  # every row so far, read with SQL
            if played in checked:
                check_round(s)  # the invariants after the round (the end: check_end)
        if played == rounds:
            break
        status, t, links = current_round(env, tid)
        if status is not TournamentStatus.RUNNING or t.current_round is None:
            break
        number = t.current_round.number
        assert number == played + 1, f"round {played} did not end"
        live = sorted(ids[-1] for ids in links.values())
        assert len(live) == N // 2, f"round {number}: {len(live)} matches"
        late: list[tuple[int, random.Random, int | None]] = []
        now: list[tuple[int, random.Random, int | None]] = []
        victim = timeout_rounds.get(number)
        for mid in live:
            m = await env.matches.get(mid)
            assert m.status is MatchStatus.ACTIVE, (mid, m.status)
            own = random.Random(rng.getrandbits(64))  # the same moves whatever order the matches run in
            if victim is not None and victim in [seat.user_id for seat in m.seats]:
                late.append((mid, own, victim))
            else:
                now.append((mid, own, None))
        # the round's matches are played side by side, as players do
        how.update(await asyncio.gather(*(decide(env, *job) for job in now)))
        how.update([await decide(env, *job) for job in late])
        for mid in live:
            assert (await env.matches.get(mid)).status is MatchStatus.FINISHED, f"match {mid} did not finish"
        played = number
    assert played == rounds
    if whole:
        check_end(s, N)
    else:  # still running: the next round paired, as after any round
        assert s.status is TournamentStatus.RUNNING and s.t.current_round is not None
        assert s.t.current_round.number == rounds + 1
    return s, how


@pytest.mark.slow
async def test_64_player_round_robin(lite: Env) -> None:
    s, how = await round_robin_64(lite, AR, seed=64)
    t = s.t
    assert s.format is Format.ROUND_ROBIN and not t.uses_tables
    assert len(t.rounds) == N - 1 and all(len(r.matches) == N // 2 for r in t.rounds)
    pairs = {frozenset(m.seats) for r in t.rounds for m in r.matches}
    assert len(pairs) == N * (N - 1) // 2 == 2016
    assert sum(len(ids) for ids in s.links.values()) == 2016  # one match each, none made again
    assert all(not p.dropped for p in t.players)
    assert how["timed out"] == TIME_OUTS and how["whole"] > 0
    timed = [m for r in t.rounds for m in r.matches if m.result is not None and m.result.timed_out]
    assert len(timed) == TIME_OUTS and sum(len(v) for v in s.timed_out.values()) == TIME_OUTS
    assert all(m.result is not None and m.result.kind is not ResultKind.WALKOVER for r in t.rounds for m in r.matches)
    rows = t.standings().rows
    assert rows[0].player == t.champion
    assert sum(r.wins + r.losses + r.draws for r in rows) == 2 * 2016


#: the games whose 64-player round robin plays its first rounds (Arena's is played to its end above)
FIRST = [WC, FW, MD]


@pytest.mark.slow
@pytest.mark.parametrize("game", FIRST)
async def test_the_first_rounds_of_a_64_player_round_robin(lite: Env, game: str) -> None:
    s, how = await round_robin_64(lite, game, seed=64, rounds=FIRST_ROUNDS)
    t = s.t
    assert s.format is Format.ROUND_ROBIN and not t.uses_tables
    played = [r for r in t.rounds if r.number <= FIRST_ROUNDS]
    assert len(played) == FIRST_ROUNDS and all(len(r.matches) == N // 2 for r in played)
    assert all(m.result is not None for r in played for m in r.matches)
    pairs = {frozenset(m.seats) for r in played for m in r.matches}
    assert len(pairs) == FIRST_ROUNDS * N // 2  # nobody met twice
    done = [ids for (rnd, _), ids in s.links.items() if rnd <= FIRST_ROUNDS]
    assert len(done) == FIRST_ROUNDS * N // 2 and all(len(ids) == 1 for ids in done)  # one match each
    assert all(not p.dropped for p in t.players)
    assert how["timed out"] == TIME_OUTS and how["whole"] > 0
    timed = [m for r in played for m in r.matches if m.result is not None and m.result.timed_out]
    assert len(timed) == TIME_OUTS and sum(len(v) for v in s.timed_out.values()) == TIME_OUTS
    assert all(m.result is not None and m.result.kind is not ResultKind.WALKOVER for r in played for m in r.matches)
    rows = t.standings().rows
    assert sum(r.wins + r.losses + r.draws for r in rows) == 2 * FIRST_ROUNDS * N // 2
