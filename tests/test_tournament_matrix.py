"""Full tournaments through the TournamentService and the MatchService on SQLite (issue 18, part 5):
every format (Swiss, round robin, single elimination with and without a third-place match) and all
four games, 2 to 64 players, every match a real match played with seeded random legal moves. After
every round and at the end the format's invariants are checked from the database's own rows (the
tournament row's stored state, ``tournament_matches``, ``seats``, ``rating_changes``,
``rated_matches``, ``actions``, ``tournament_events``), read through a separate SQLite connection:

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
(a 64-player Swiss is in tests/test_tournament_service.py). Arena plays a small board with a
two-turn limit and Magic Duel to 1 point (``tests/test_tournament_service.QUICK``), so whole events
finish in seconds.
Also here: a player who times out twice in a row is dropped and their later round-robin pairings
become walkovers; a time-out in a knock-out is a loss that eliminates."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import random
import types
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from bot.matches import MatchStatus
from bot.tournaments import Format, Tournament, TournamentError
from bot.tournaments.model import Match, Player, Result, ResultKind, Round
from db.tournaments import TournamentStatus
from tests.conftest import DbTarget
from tests.test_tournament_service import CHANNEL, GUILD, ORG, QUICK, TURN, Env, move_once, open_env

BYE = "bye"


@pytest.fixture
async def lite(tmp_path: Path) -> AsyncIterator[Env]:
    found = await open_env(DbTarget("sqlite", str(tmp_path / "bot.sqlite3")))
    yield found
    await found.close()


# -- the database's view of a tournament -------------------------------------------------------------


class Stored:
    """A tournament as its rows say, read with SQL (not through the service)."""

    def __init__(self, env: Env, tid: int) -> None:
        (row,) = env.sql("SELECT game, format, status, state, settings FROM tournaments WHERE id = ?", tid)
        self.game, self.format, self.status = row[0], Format(row[1]), TournamentStatus(row[2])
        self.settings = json.loads(row[4])
        self.t = Tournament.from_json(row[3])
        self.links: dict[tuple[int, str], list[int]] = defaultdict(list)  # (round, pairing) -> match ids, oldest first
        for match_id, rnd, pairing in env.sql(
            "SELECT match_id, round, pairing FROM tournament_matches WHERE tournament_id = ? ORDER BY match_id", tid
        ):
            self.links[(int(rnd), str(pairing))].append(int(match_id))
        ids = [m for ms in self.links.values() for m in ms]
        marks = ",".join("?" for _ in ids) or "NULL"
        self.matches = {
            int(r[0]): {"status": r[1], "practice": r[2], "guild": r[3], "channel": r[4], "game": r[5]}
            for r in env.sql(
                f"SELECT id, status, practice, guild_id, channel_id, game FROM matches WHERE id IN ({marks})", *ids
            )
        }
        self.seats: dict[int, list[int]] = defaultdict(list)
        for match_id, _seat, user in env.sql(
            f"SELECT match_id, seat, user_id FROM seats WHERE match_id IN ({marks}) ORDER BY match_id, seat", *ids
        ):
            self.seats[int(match_id)].append(int(user))
        self.ranks: dict[int, dict[int, int]] = defaultdict(dict)  # match -> user -> rank (the server's ladder)
        for match_id, user, rank in env.sql(
            f"SELECT match_id, user_id, rank FROM rating_changes WHERE scope = ? AND match_id IN ({marks})",
            GUILD,
            *ids,
        ):
            self.ranks[int(match_id)][int(user)] = int(rank)
        self.rated = {
            int(r[0]): int(r[1])
            for r in env.sql(f"SELECT match_id, counted FROM rated_matches WHERE match_id IN ({marks})", *ids)
        }
        self.timed_out: dict[int, set[int]] = defaultdict(set)  # match -> users who forfeited by time
        for match_id, seat, action in env.sql(
            f"SELECT match_id, seat, action FROM actions WHERE seat IS NOT NULL AND match_id IN ({marks})"
            " AND json_extract(action, '$.type') = 'forfeit'",
            *ids,
        ):
            a = json.loads(action)
            if a.get("type") == "forfeit" and a.get("reason") == "timeout":
                self.timed_out[int(match_id)].add(self.seats[int(match_id)][int(seat)])
        self.events = [
            (str(kind), json.loads(payload))
            for kind, payload in env.sql(
                "SELECT kind, payload FROM tournament_events WHERE tournament_id = ? ORDER BY id", tid
            )
        ]

    def latest(self, m: Match) -> int:
        return self.links[(m.round, m.id)][-1]

    def placed(self, m: Match) -> dict[int, int]:
        """Each seat's rank in the match that decided the pairing, from the ratings' rows."""
        return self.ranks[self.latest(m)]


def table_points(ranks: dict[int, int], timed: set[int]) -> dict[int, Fraction]:
    """The rulings' scale (13, 24): 3 x (opponents beaten + tied / 3) / (seats - 1); time-out: 0."""
    k = len(ranks)
    out = {}
    for p, mine in ranks.items():
        ahead = sum(1 for q, r in ranks.items() if q != p and r > mine)
        tied = sum(1 for q, r in ranks.items() if q != p and r == mine)
        out[p] = Fraction(0) if p in timed else Fraction(3) * (ahead + Fraction(tied, 3)) / (k - 1)
    return out


def check_rows(s: Stored) -> None:
    """Every match the tournament made is a rated, finished, non-practice match of its server, seated
    as the core's pairing (seat 0 first); a pairing played again (a knock-out draw) was drawn."""
    for (rnd, pairing), ids in s.links.items():
        m = s.t.match(pairing)
        assert m.round == rnd
        for i, mid in enumerate(ids):
            row = s.matches[mid]
            done = i < len(ids) - 1 or m.result is not None
            if not done:
                continue
            assert row["status"] == MatchStatus.FINISHED.value, (pairing, row)
            assert row["practice"] == 0 and row["guild"] == GUILD and row["channel"] == CHANNEL
            assert row["game"] == s.game
            assert s.rated.get(mid) == 1, f"match {mid} of {pairing} is not rated"
            assert s.seats[mid] == list(m.seats), (pairing, s.seats[mid], m.seats)
            assert set(s.ranks[mid]) == set(m.seats)
            if i < len(ids) - 1:  # replayed: only a drawn knock-out game is played again
                assert s.format is Format.SINGLE_ELIMINATION and len(set(s.ranks[mid].values())) == 1


def check_points(s: Stored) -> None:
    """Match points recomputed from the stored ranks equal the core's standings, and their total is
    3 per decisive and 2 per drawn (opponent pair, scaled at a table), 3 per bye or walkover."""
    mine: dict[int, Fraction] = defaultdict(Fraction)
    total = Fraction(0)
    for rnd in s.t.rounds:
        for m in rnd.matches:
            if m.result is None:
                continue
            if len(m.seats) == 1:
                assert m.result.kind in (ResultKind.BYE, ResultKind.WALKOVER)
                mine[m.seats[0]] += 3
                total += 3
                continue
            ranks, timed = s.placed(m), s.timed_out[s.latest(m)]
            if m.result.kind is ResultKind.ADJUDICATED:  # the third drawn game: the better seed goes through
                assert len(s.links[(m.round, m.id)]) == 3 and len(set(ranks.values())) == 1
                ranks = dict(zip(m.seats, m.result.placements, strict=True))
            for p, pts in table_points(ranks, timed).items():
                mine[p] += pts
            if not timed:
                k = len(m.seats)
                pairs = list(itertools.combinations(m.seats, 2))
                decisive = sum(1 for a, b in pairs if ranks[a] != ranks[b])
                total += Fraction(3 * decisive + 2 * (len(pairs) - decisive), k - 1)
            else:
                total += sum(table_points(ranks, timed).values())
    standings = s.t.standings()
    for row in standings.rows:
        assert row.match_points == mine[row.player], (row.player, row.match_points, mine[row.player])
    assert sum(row.match_points for row in standings.rows) == total


def check_swiss_pairs(s: Stored) -> None:
    """No repeat while avoidable (a networkx matching over who had not met, the bye only to whom may
    have it), at most one bye each, everyone active in every round."""
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for rnd in s.t.rounds:
        seated = [p for m in rnd.matches for p in m.seats]
        assert len(seated) == len(set(seated)), f"a player twice in round {rnd.number}"
        active = {p.id for p in s.t.players if not p.dropped or (p.dropped_after or 0) >= rnd.number}
        assert set(seated) == active, (rnd.number, sorted(seated), sorted(active))
        pairs = [m for m in rnd.matches if len(m.seats) == 2]
        got = [m.seats[0] for m in rnd.matches if len(m.seats) == 1 and m.bye]
        assert len(got) == len(seated) % 2
        may = [p for p in seated if byes[p] == 0] or seated
        if got:
            assert got[0] in may, f"round {rnd.number}: a second bye for {got[0]}"
        repeats = sum(1 for m in pairs if frozenset(m.seats) in met)
        if repeats:  # were they unavoidable? the fewest repeats any pairing of the round could have
            g = nx.Graph()
            for a, b in itertools.combinations(seated, 2):
                g.add_edge(a, b, weight=1 if frozenset((a, b)) in met else 2)
            if len(seated) % 2:
                for p in may:
                    g.add_edge(BYE, p, weight=2)
            best = nx.max_weight_matching(g, maxcardinality=True)
            assert len(best) == (len(seated) + 1) // 2
            fewest = sum(1 for a, b in best if g[a][b]["weight"] == 1)
            assert repeats <= fewest, f"round {rnd.number}: {repeats} repeat pairings, {fewest} were unavoidable"
        for m in pairs:
            met.add(frozenset(m.seats))
        byes.update(got)
    assert all(c <= 1 for c in byes.values()), byes


def check_tables(s: Stored) -> None:
    """Magic Duel Swiss: tables of 3 to 8 as ruling 11 sizes them, everyone active seated once."""
    for rnd in s.t.rounds:
        seated = [p for m in rnd.matches for p in m.seats]
        assert len(seated) == len(set(seated))
        n = len(seated)
        sizes = sorted(len(m.seats) for m in rnd.matches)
        q, r = divmod(n, 4)
        if n <= 5:
            expected = [n]
        else:  # as many tables of 4 as possible: n = 4q + r
            expected = sorted({0: [4] * q, 1: [4] * (q - 1) + [5], 2: [4] * (q - 1) + [3, 3], 3: [4] * q + [3]}[r])
        assert sizes == expected, (n, sizes, expected)


def check_round_robin(s: Stored, final: bool) -> None:
    n = len(s.t.players)
    met: Counter[frozenset[int]] = Counter()
    rested: Counter[int] = Counter()
    for rnd in s.t.rounds:
        seated = [p for m in rnd.matches for p in m.seats]
        assert sorted(seated) == sorted(p.id for p in s.t.players)
        for m in rnd.matches:
            if len(m.seats) == 2:
                met[frozenset(m.seats)] += 1
            else:
                rested[m.seats[0]] += 1
    assert all(c == 1 for c in met.values()), "a pair met twice"
    assert all(c == 1 for c in rested.values()), "a second bye"
    if final:
        assert len(s.t.rounds) == (n - 1 if n % 2 == 0 else n)
        assert set(met) == {frozenset(p) for p in itertools.combinations([p.id for p in s.t.players], 2)}
        assert len(met) == n * (n - 1) // 2


def winner_of(s: Stored, m: Match) -> int:
    """The pairing's winner from the stored ranks (a bye: its player; three draws: the core's)."""
    if len(m.seats) == 1 or m.result is not None and m.result.kind is ResultKind.ADJUDICATED:
        found = m.winner()
        assert found is not None
        return found
    ranks = s.placed(m)
    (first,) = [p for p, r in ranks.items() if r == 1]
    return first


def check_knockout(s: Stored) -> None:
    rounds = [r for r in s.t.rounds if r.complete]
    main = [[m for m in r.matches if m.label != "third place"] for r in s.t.rounds]
    for i, rnd in enumerate(rounds[:-1]):
        nxt = {p for m in main[i + 1] for p in m.seats}
        if s.t.uses_tables:
            through: set[int] = set()
            for m in main[i]:
                ranks = s.placed(m)
                going = [p for p in m.seats if p in nxt]
                assert len(going) == len(m.seats) // 2, (m.id, going)
                staying = [p for p in m.seats if p not in nxt]
                assert max(ranks[p] for p in going) <= min(ranks[p] for p in staying), (m.id, ranks, going)
                through.update(going)
            assert nxt == through
        else:
            winners = {winner_of(s, m) for m in main[i]}
            assert nxt == winners, (rnd.number, sorted(nxt), sorted(winners))
        thirds = [m for m in s.t.rounds[i + 1].matches if m.label == "third place"]
        if thirds:
            semis = [m for m in main[i] if len(m.seats) == 2]
            losers = {p for m in semis for p in m.seats if p != winner_of(s, m)}
            assert set(thirds[0].seats) == losers


def check_round(s: Stored) -> None:
    """The invariants that hold after every round (and at the end)."""
    check_rows(s)
    check_points(s)
    if s.format is Format.SWISS:
        if s.t.uses_tables:
            check_tables(s)
        else:
            check_swiss_pairs(s)
    elif s.format is Format.ROUND_ROBIN:
        check_round_robin(s, final=False)
    else:
        check_knockout(s)


def check_end(s: Stored, n: int) -> None:
    assert s.status is TournamentStatus.FINISHED and s.t.finished
    check_round(s)
    kinds = [k for k, _ in s.events]
    assert kinds[-1] == "finished" and kinds.count("finished") == 1
    final = s.events[-1][1]
    champion = s.t.champion
    assert champion is not None and final["champion"] == champion
    assert final["ranking"][0] == [1, champion]
    assert sorted(p for _, p in final["ranking"]) == sorted(p.id for p in s.t.players)
    assert len(final["ranking"]) == n
    if s.format is not Format.SINGLE_ELIMINATION:
        assert final["rows"][0]["player"] == champion
        assert final["rows"][0]["rank"] == 1
    if s.format is Format.ROUND_ROBIN:
        check_round_robin(s, final=True)
    if s.format is Format.SINGLE_ELIMINATION:
        last = [m for m in s.t.rounds[-1].matches if m.label != "third place"]
        assert len(last) == 1
        if s.t.uses_tables:
            assert s.placed(last[0])[champion] == 1
        else:
            assert winner_of(s, last[0]) == champion
    announced = [p["round"] for k, p in s.events if k == "round_started"]
    assert announced == list(range(1, len(s.t.rounds) + 1))
    assert sum(1 for k, _ in s.events if k == "standings_changed") == len(s.t.rounds)


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

WC, FW, MD, AR = "wizards-cup", "firewall", "magic-duel", "arena"
SE3 = "single_elimination+3rd"

#: (game, format, players): every format with all four games, every format at 2, 3, 5, 8 and 13
#: players (round robin: 2, 3, 5, 8, 13), 64 in a knock-out with the cheapest game. A 64-player
#: Swiss of Wizards Cup (six rounds) is ``tests/test_tournament_service.py::test_64_player_swiss``.
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
