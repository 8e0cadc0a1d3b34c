"""A tournament as its database rows say (:class:`Stored`, read with SQL, not through the service) and the
format invariants checked from those rows after every round and at the end (:func:`check_round`,
:func:`check_end`): no avoidable repeat pairing in a Swiss, match points recomputed from the stored
ranks, every pair once in a round robin, a knock-out's winners going through, the champion first.
Used by tests/bot/test_tournament_matrix.py and the 64-player round robin."""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict
from fractions import Fraction

import networkx as nx

from bot.matches import MatchStatus
from bot.tournaments import Format, Tournament
from bot.tournaments.model import Match, ResultKind
from db.tournaments import TournamentStatus
from tests.bot.tournament_env import CHANNEL, GUILD, Env

BYE = "bye"


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


WC, FW, MD, AR = "wizards-cup", "firewall", "magic-duel", "arena"
