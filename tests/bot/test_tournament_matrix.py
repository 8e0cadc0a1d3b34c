"""Full tournaments through the TournamentService and the MatchService on SQLite (issue 18, part 5):
every format (Swiss, round robin, single elimination with and without a third-place match) and all
four games, 2 to 64 players, every match a real match played with seeded random legal moves. After
every round and at the end the format's invariants are checked from the database's own rows (the
tournament row's stored state, ``tournament_matches``, ``seats``, ``rating_changes``,
``rated_matches``, ``actions``, ``tournament_events``), read through a separate SQLite connection
(tests/bot/tournament_checks.py):

- Swiss (pairs): no repeat pairing while a pairing without one exists (an independent networkx
  matching over the players who had not met decides what was avoidable), at most one bye each,
  every active player seated once per round;
- match points: each player's points recomputed from the stored ranks and time-outs by the rulings'
  scale (win 3, draw 1, bye or walkover 3, a table seat 3 x (beaten + tied / 3) / (seats - 1)) equal
  the core's standings, and the total is 3 x decisive + 2 x drawn (per opponent pair at a table);
- single elimination: every match's winner, and only they, plays the next round (tables: the top
  half of each table), the semi-final losers meet for third place;
- round robin: every pair meets exactly once;
- the champion is first in the final standings (the ``finished`` event) and won the final;
- every tournament match is a rated, finished, non-practice match of the tournament's server.

Sizes: every format and game at several of 2, 3, 5, 8, 13 and 64 players. A 64-player round robin
(2,016 matches) is out of reach here; 64 players play a knock-out of Wizards Cup, the cheapest game
(a 64-player Swiss is in tests/bot/test_tournament_service.py). Arena plays a small board with a
two-turn limit and Magic Duel to 1 point (``tests/bot/tournament_env.QUICK``), so whole events
finish in seconds.
Also here: a player who times out twice in a row is dropped and their later round-robin pairings
become walkovers; a time-out in a knock-out is a loss that eliminates."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
import types
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.matches import MatchStatus
from bot.tournaments import Format, Tournament, TournamentError
from bot.tournaments.model import Match, Player, Result, ResultKind, Round
from db.tournaments import TournamentStatus
from tests.bot.tournament_checks import (
    AR,
    FW,
    MD,
    WC,
    Stored,
    check_end,
    check_knockout,
    check_points,
    check_round,
    check_rows,
    check_swiss_pairs,
    winner_of,
)
from tests.bot.tournament_env import CHANNEL, GUILD, ORG, QUICK, TURN, Env, move_once, open_env
from tests.conftest import DbTarget


@pytest.fixture
async def lite(tmp_path: Path) -> AsyncIterator[Env]:
    found = await open_env(DbTarget("sqlite", str(tmp_path / "bot.sqlite3")))
    yield found
    await found.close()


# -- the database's view of a tournament -------------------------------------------------------------


# -- driving ------------------------------------------------------------------------------------------


async def play_out(env: Env, tid: int, seed: int, *, n: int, check_each_round: bool = True) -> Stored:
    """Plays every live match of the current round to its end with random legal moves, round after
    round; after each round the invariants are checked from the rows."""
    rng = random.Random(seed)
    rounds_seen = 0
    for _ in range(500):
        await env.service.settle()
        view = await env.service.view(tid)
        t = view.tournament
        if view.status is not TournamentStatus.RUNNING or t is None or t.current_round is None:
            break
        number = t.current_round.number
        live = [link.match_id for link in view.current_links().values() if not link.recorded]
        assert live, f"round {number} has nothing to play and did not advance"
        for mid in live:
            for _ in range(5_000):
                if not await move_once(env, mid, rng):
                    break
            assert (await env.matches.get(mid)).status is not MatchStatus.ACTIVE, f"match {mid} is stuck"
        await env.matches.settle()  # the ratings of the finished matches
        await env.service.settle()  # the tournament goes on in the background
        after = await env.service.view(tid)
        done = after.tournament
        assert done is not None
        running = after.status is TournamentStatus.RUNNING and done.current_round is not None
        if running and done.current_round is not None and done.current_round.number == number:
            continue  # a knock-out draw is played again
        rounds_seen += 1
        if check_each_round:
            check_round(Stored(env, tid))
    await env.matches.settle()
    await env.service.settle()  # the tournament goes on in the background
    s = Stored(env, tid)
    check_end(s, n)
    assert rounds_seen >= 1
    return s


async def run(env: Env, game: str, fmt: str, n: int, *, seed: int = 1, **kwargs: Any) -> Stored:
    kwargs.setdefault("options", QUICK[game])
    rec = await env.service.create(GUILD, CHANNEL, ORG, game, fmt, **kwargs)
    for i in range(1, n + 1):
        await env.service.join(rec.id, (i, f"P{i}"))
    await env.service.start(rec.id, ORG)
    return await play_out(env, rec.id, seed, n=n)


# -- the matrix ---------------------------------------------------------------------------------------

SE3 = "single_elimination+3rd"

#: (game, format, players): every format with all four games, every format at 2, 3, 5, 8 and 13
#: players (round robin: 2, 3, 5, 8, 13), 64 in a knock-out with the cheapest game. A 64-player
#: Swiss of Wizards Cup (six rounds) is ``tests/bot/test_tournament_service.py::test_64_player_swiss``.
MATRIX = [
    # Swiss (Magic Duel: tables)
    (WC, "swiss", 2),
    (WC, "swiss", 8),
    (WC, "swiss", 13),
    (FW, "swiss", 3),
    (AR, "swiss", 5),
    (MD, "swiss", 3),
    (MD, "swiss", 8),
    (MD, "swiss", 13),
    # round robin (Magic Duel: pairs)
    (WC, "round_robin", 13),
    (WC, "round_robin", 8),
    (FW, "round_robin", 5),
    (AR, "round_robin", 3),
    (MD, "round_robin", 3),
    (MD, "round_robin", 2),
    # single elimination (Magic Duel: a table knock-out)
    (WC, "single_elimination", 5),
    (FW, "single_elimination", 8),
    (FW, "single_elimination", 13),
    (AR, "single_elimination", 3),
    (MD, "single_elimination", 2),
    (MD, "single_elimination", 5),
    (MD, "single_elimination", 13),
    (WC, "single_elimination", 64),
    # with a third-place match (not for Magic Duel: refused, below)
    (WC, SE3, 2),
    (FW, SE3, 3),
    (AR, SE3, 5),
    (WC, SE3, 8),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "fmt", "n"), MATRIX, ids=[f"{g}-{f}-{n}" for g, f, n in MATRIX])
async def test_full_tournament(lite: Env, game: str, fmt: str, n: int) -> None:
    third = fmt == SE3
    s = await run(lite, game, "single_elimination" if third else fmt, n, seed=n, third_place=third)
    t = s.t
    if s.format is Format.SWISS:
        assert len(t.rounds) == t.rounds_planned
    if s.format is Format.SINGLE_ELIMINATION and not t.uses_tables:
        size = 1 << (n - 1).bit_length()
        assert len(t.rounds) == size.bit_length() - 1
        assert any(m.label == "third place" for m in t.rounds[-1].matches) == (third and n >= 4)
        if third and n >= 4:
            ranking = dict((p, place) for place, p in s.events[-1][1]["ranking"])
            (match3,) = [m for m in t.rounds[-1].matches if m.label == "third place"]
            if len(match3.seats) == 2:
                assert ranking[winner_of(s, match3)] == 3


async def test_magic_duel_has_no_third_place_match(lite: Env) -> None:
    count = lite.sql("SELECT COUNT(*) FROM tournaments")[0][0]
    with pytest.raises(TournamentError, match="third"):
        await lite.service.create(GUILD, CHANNEL, ORG, MD, "single_elimination", third_place=True)
    assert lite.sql("SELECT COUNT(*) FROM tournaments")[0][0] == count


# -- time-outs and drops ------------------------------------------------------------------------------


async def play_with_silent(env: Env, tid: int, silent: int, seed: int) -> None:
    """Everyone but ``silent`` plays; when only they are awaited, their move time runs out."""
    rng = random.Random(seed)
    quiet = frozenset({silent})
    for _ in range(300):
        await env.service.settle()
        view = await env.service.view(tid)
        if view.status is not TournamentStatus.RUNNING:
            return
        moved = False
        for link in view.current_links().values():
            if link.recorded:
                continue
            while await move_once(env, link.match_id, rng, silent=quiet):
                moved = True
        if not moved:
            env.clock.advance(TURN + 1)
            await env.matches.tick()
            await env.service.tick()
        await env.matches.settle()
        await env.service.settle()  # the tournament goes on in the background
    raise AssertionError("the tournament did not end")


async def test_two_time_outs_in_a_row_drop_a_round_robin_player_and_walk_over_their_pairings(lite: Env) -> None:
    rec = await lite.service.create(GUILD, CHANNEL, ORG, FW, "round_robin", options=QUICK[FW])
    for i in range(1, 5):
        await lite.service.join(rec.id, (i, f"P{i}"))
    await lite.service.start(rec.id, ORG)
    await play_with_silent(lite, rec.id, 4, seed=6)
    s = Stored(lite, rec.id)
    t = s.t
    assert s.status is TournamentStatus.FINISHED
    four = t.player(4)
    assert four.dropped and four.dropped_after == 2  # rounds 1 and 2 timed out, then dropped
    for rnd in t.rounds:
        mine = [m for m in rnd.matches if 4 in m.seats]
        if rnd.number <= 2:
            (m,) = mine
            assert m.result is not None and m.result.timed_out == (4,)
            assert m.winner() == next(p for p in m.seats if p != 4)
            assert s.timed_out[s.latest(m)] == {4}  # from the rows: lost on time
        else:
            assert mine == []  # never seated again
    # their later pairings: the opponents' walkovers, with no match made for them
    walkovers = [m for rnd in t.rounds[2:] for m in rnd.matches if m.result and m.result.kind is ResultKind.WALKOVER]
    assert len(walkovers) == 1 and all((m.round, m.id) not in s.links for m in walkovers)
    played = {p for rnd in t.rounds[:2] for m in rnd.matches if 4 in m.seats for p in m.seats if p != 4}
    assert played | {m.seats[0] for m in walkovers} == {1, 2, 3}
    dropped = [p for k, p in s.events if k == "player_dropped"]
    assert dropped == [{"player": 4, "reason": "missed 2 matches in a row"}]
    check_rows(s)
    check_points(s)
    assert t.standings().row(4).match_points == 0
    # everyone else met everyone else once, and met player 4 or walked over them
    met = Counter(frozenset(m.seats) for rnd in t.rounds for m in rnd.matches if len(m.seats) == 2)
    assert all(met[frozenset(pair)] == 1 for pair in itertools.combinations(range(1, 4), 2))


async def test_a_time_out_in_a_knockout_eliminates(lite: Env) -> None:
    rec = await lite.service.create(GUILD, CHANNEL, ORG, WC, "single_elimination", options=QUICK[WC])
    for i in range(1, 5):
        await lite.service.join(rec.id, (i, f"P{i}"))
    await lite.service.start(rec.id, ORG)
    await play_with_silent(lite, rec.id, 4, seed=4)
    s = Stored(lite, rec.id)
    assert s.status is TournamentStatus.FINISHED
    (first,) = [m for m in s.t.rounds[0].matches if 4 in m.seats]
    assert first.result is not None and first.result.timed_out == (4,) and first.winner() != 4
    assert all(4 not in m.seats for rnd in s.t.rounds[1:] for m in rnd.matches)
    assert s.t.champion != 4
    check_rows(s)
    check_knockout(s)


async def test_the_checks_catch_a_broken_tournament(lite: Env) -> None:
    """The invariant checks can fail: each catches its kind of damage to a tournament that passed."""
    swiss = await run(lite, FW, "swiss", 4, seed=2, rounds=3)
    knockout = await run(lite, WC, "single_elimination", 4, seed=3)

    def broken(s: Stored, harm: Any) -> Stored:
        fresh = copy.deepcopy(s)
        harm(fresh)
        return fresh

    def repeat_round_one(s: Stored) -> None:  # round 2 pairs as round 1 did (avoidable: 4 players)
        one, two = s.t.rounds[0].matches, s.t.rounds[1].matches
        for a, b in zip(one, two, strict=True):
            b.seats = a.seats

    def flip_a_result(s: Stored) -> None:  # the core says the loser won
        m = s.t.rounds[0].matches[0]
        assert m.result is not None
        m.result = dataclasses.replace(m.result, placements=tuple(reversed(m.result.placements)))

    def swap_seats(s: Stored) -> None:
        m = s.t.rounds[0].matches[0]
        m.seats = tuple(reversed(m.seats))

    def unrated(s: Stored) -> None:
        s.rated.clear()

    def loser_in_final(s: Stored) -> None:
        semi = s.t.rounds[0].matches[0]
        loser = next(p for p in semi.seats if p != winner_of(s, semi))
        final = s.t.rounds[1].matches[0]
        final.seats = tuple(loser if p == winner_of(s, semi) else p for p in final.seats)

    for harm, check in (
        (repeat_round_one, check_swiss_pairs),
        (flip_a_result, check_points),
        (swap_seats, check_rows),
        (unrated, check_rows),
    ):
        check(swiss)
        with pytest.raises(AssertionError):
            check(broken(swiss, harm))
    check_knockout(knockout)
    with pytest.raises(AssertionError):
        check_knockout(broken(knockout, loser_in_final))


def test_the_swiss_check_allows_only_the_repeats_no_pairing_avoids() -> None:
    """Six players who met across two groups of three in rounds 1 to 3 ({1, 2, 3} x {4, 5, 6}):
    round 4 needs one repeat (a triangle cannot pair itself), so one passes and three fail."""
    cross = [[(1, 4), (2, 5), (3, 6)], [(1, 5), (2, 6), (3, 4)], [(1, 6), (2, 4), (3, 5)]]

    def stored(fourth: list[tuple[int, int]]) -> Any:
        t = Tournament.create(FW, "swiss", [Player(i) for i in range(1, 7)], rounds=5, seed=1)
        for number, pairs in enumerate([*cross, fourth], start=1):
            matches = [Match(f"R{number}-M{k}", number, pair, result=Result((1, 2))) for k, pair in enumerate(pairs, 1)]
            t.rounds.append(Round(number, matches))
        return types.SimpleNamespace(t=t)

    check_swiss_pairs(stored([(1, 2), (4, 5), (3, 6)]))  # the one repeat no pairing avoids
    with pytest.raises(AssertionError, match="3 repeat pairings, 1 were unavoidable"):
        check_swiss_pairs(stored([(1, 4), (2, 5), (3, 6)]))
