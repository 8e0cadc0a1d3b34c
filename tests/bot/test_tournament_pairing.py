"""Tournament core: full tournaments of 2 to 64 players in every format with random results, and
the invariants of each format (bot/tournaments, docs/tournaments.md).

Swiss: every active player is paired exactly once a round; a repeat pairing (or a second bye)
only when no pairing without one exists (checked by brute force over every pairing for small
fields, by an independent networkx matching for large ones); the bye to the lowest-ranked player
who can take it; match points add up. Round robin: everyone meets everyone exactly once, first
seats balanced. Single elimination: byes only in round 1 and only to the top seeds, every winner
advances, one champion. Magic Duel tables: sizes 3 to 8 (2 only with 2 players), no repeats
where a fresh seating is easy, knock-outs advance the top half.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments import Format, Player, Tournament
from bot.tournaments.elimination import bracket_order, bracket_size
from bot.tournaments.model import Match, ResultKind
from bot.tournaments.standings import match_points
from bot.tournaments.tables import table_sizes

TWO_PLAYER_GAMES = ["wizards-cup", "firewall", "arena"]
ALL_GAMES = [*TWO_PLAYER_GAMES, "magic-duel"]
SIZES = [2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17, 31, 32, 33, 64]


def players(n: int, rng: random.Random) -> list[Player]:
    return [Player(1000 + i, rating=round(rng.uniform(900, 2100))) for i in range(n)]


def report_random(t: Tournament, m: Match, rng: random.Random, *, draws: bool = True, timeouts: float = 0.05) -> None:
    if m.finished:
        return
    if len(m.seats) == 2:
        roll = rng.random()
        if roll < timeouts:
            t.report_timeout(m.id, [rng.choice(m.seats)])
        elif draws and roll < timeouts + 0.08:
            t.report_draw(m.id, games={m.seats[0]: 1, m.seats[1]: 1})
        else:
            winner = rng.choice(m.seats)
            loser_games = rng.choice([0, 1])
            t.report_win(m.id, winner, games={winner: 2, next(p for p in m.seats if p != winner): loser_games})
    else:
        order = list(m.seats)
        rng.shuffle(order)
        places = {p: i + 1 for i, p in enumerate(order)}
        if rng.random() < 0.1:  # a tie for last place
            places[order[-1]] = places[order[-2]]
        t.report_placements(m.id, places)


# ---------------------------------------------------------------------------------------------
# Swiss, two-player
# ---------------------------------------------------------------------------------------------


def all_pairings(nodes: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def history(t: Tournament) -> tuple[set[frozenset[int]], Counter[int]]:
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for rnd in t.rounds:
        for m in rnd.matches:
            if len(m.seats) == 2:
                met.add(frozenset(m.seats))
            elif m.result is not None and m.result.kind is ResultKind.BYE:
                byes[m.seats[0]] += 1
    return met, byes


BYE = -1


def cost(pairing: list[tuple[int, int]], met: set[frozenset[int]], byes: Counter[int]) -> tuple[int, int]:
    """(second byes, repeated pairs) of a pairing; a bye is a pair with BYE."""
    second_byes = repeats = 0
    for a, b in pairing:
        if BYE in (a, b):
            second_byes += 1 if byes[a if b == BYE else b] else 0
        else:
            repeats += 1 if frozenset((a, b)) in met else 0
    return second_byes, repeats


def brute_force_best(ranked: list[int], met: set[frozenset[int]], byes: Counter[int]) -> tuple[int, int, int | None]:
    """Over every pairing: the fewest second byes, then the fewest repeats, then the lowest rank
    the bye can go to (None without a bye)."""
    nodes = ranked + ([BYE] if len(ranked) % 2 else [])
    rank = {p: i for i, p in enumerate(ranked)}
    best: tuple[int, int, int] | None = None
    for pairing in all_pairings(nodes):
        second, reps = cost(pairing, met, byes)
        bye_rank = next((rank[a if b == BYE else b] for a, b in pairing if BYE in (a, b)), -1)
        key = (second, reps, -bye_rank)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[0], best[1], (None if best[2] == 1 else -best[2])


def networkx_min_repeats(pool: list[int], met: set[frozenset[int]]) -> int:
    """An independent check for big fields: the fewest repeated pairs a perfect pairing of
    ``pool`` (even) can have -- weight 1 for every fresh pair, maximum cardinality."""
    g = nx.Graph()
    g.add_nodes_from(pool)
    for a, b in itertools.combinations(pool, 2):
        g.add_edge(a, b, weight=0 if frozenset((a, b)) in met else 1)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    assert 2 * len(matching) == len(pool)
    return len(matching) - sum(g[a][b]["weight"] for a, b in matching)


def check_swiss_round(t: Tournament, ranked: list[int], met: set[frozenset[int]], byes: Counter[int]) -> None:
    rnd = t.rounds[-1]
    seated = [p for m in rnd.matches for p in m.seats]
    assert sorted(seated) == sorted(ranked), "every active player exactly once"
    pairing = [(m.seats[0], m.seats[1]) if len(m.seats) == 2 else (m.seats[0], BYE) for m in rnd.matches]
    second, repeats = cost(pairing, met, byes)
    bye_players = [m.seats[0] for m in rnd.matches if m.bye]
    assert len(bye_players) == len(ranked) % 2
    eligible = [p for p in ranked if not byes[p]]
    if bye_players:
        assert second == (0 if eligible else 1), "a second bye only when everyone had one"
    if len(ranked) <= 10:
        fewest_second, fewest, lowest_bye_rank = brute_force_best(ranked, met, byes)
        assert (second, repeats) == (fewest_second, fewest)
        if bye_players:
            assert ranked.index(bye_players[0]) == lowest_bye_rank
    else:
        rest = [p for p in ranked if p not in bye_players]
        assert repeats == networkx_min_repeats(rest, met), "fewest repeats given the bye"
        if bye_players and eligible and bye_players[0] != eligible[-1]:
            due = eligible[-1]
            assert networkx_min_repeats([p for p in ranked if p != due], met) > repeats, (
                "the bye skips the lowest-ranked player without one only to avoid a repeat"
            )


@pytest.mark.parametrize("game", TWO_PLAYER_GAMES)
@pytest.mark.parametrize("n", SIZES)
def test_swiss_full_tournament_invariants(game: str, n: int) -> None:
    rng = random.Random(n * 31 + len(game))
    t = Tournament.create(game, "swiss", players(n, rng), seed=n)
    assert t.rounds_planned == max(1, (n - 1).bit_length())  # ceil(log2 n)
    swiss_loop(t, rng)
    assert t.finished and len(t.rounds) == t.rounds_planned
    check_points(t)


def check_points(t: Tournament) -> None:
    """Match points: win 3, draw 1, loss or time-out 0, bye 3 -- from an independent tally."""
    tally: Counter[int] = Counter()
    for rnd in t.rounds:
        for m in rnd.matches:
            assert m.result is not None
            if len(m.seats) == 1:
                tally[m.seats[0]] += 3
                continue
            a, b = m.seats
            pa, pb = m.result.placements
            for p, mine, theirs in ((a, pa, pb), (b, pb, pa)):
                if p in m.result.timed_out:
                    continue
                tally[p] += 3 if mine < theirs else 1 if mine == theirs else 0
            pts = match_points(m)
            assert sum(pts.values()) in (0, 2, 3)
    for row in t.standings().rows:
        assert row.match_points == tally[row.player]


def swiss_loop(t: Tournament, rng: random.Random, drop_rate: float = 0.0) -> None:
    """Play a Swiss to the end, checking every round's pairing."""
    while not t.finished:
        active = {p.id for p in t.active()}
        ranked = [pid for pid in t.standings().order() if pid in active]
        met, byes = history(t)
        rnd = t.next_round()
        check_swiss_round(t, ranked, met, byes)
        for m in rnd.matches:
            report_random(t, m, rng)
        if drop_rate and not t.finished:
            for p in t.active():
                if rng.random() < drop_rate and len(t.active()) > 2:
                    t.drop(p.id)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 64), seed=st.integers(0, 10**6), rounds=st.integers(1, 9))
def test_swiss_random_fields(n: int, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    rounds = min(rounds, n - 1 if n % 2 == 0 else n)
    t = Tournament.create("firewall", "swiss", players(n, rng), rounds=rounds, seed=seed)
    swiss_loop(t, rng, drop_rate=0.03)
    check_points(t)
    for p in t.players:
        if p.dropped:
            later = [m for m in t.matches_of(p.id) if m.round > (p.dropped_after or 0)]
            assert later == [], "a dropped player is never paired again"


def test_swiss_small_fields_every_round_until_repeats_are_forced() -> None:
    """Up to n - 1 rounds (n odd: n) so the late rounds need repeats: fewest possible each time."""
    for n in range(2, 11):
        rng = random.Random(n)
        most = n - 1 if n % 2 == 0 else n
        t = Tournament.create("arena", "swiss", players(n, rng), rounds=most, seed=n)
        swiss_loop(t, rng)
        _, byes = history(t)
        assert all(count <= 1 for count in byes.values()), "at most one bye each while avoidable"


@pytest.mark.parametrize(("n", "rounds", "most"), [(32, 9, 1), (64, 6, 2), (17, 7, 2)])
def test_swiss_seat_balance(n: int, rounds: int, most: int) -> None:
    """First seats minus second seats stay within 1 (odd number of games) or 2 for everyone."""
    rng = random.Random(5)
    t = Tournament.create("firewall", "swiss", players(n, rng), rounds=rounds, seed=5)
    swiss_loop(t, rng)
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    for m in (m for r in t.rounds for m in r.matches if len(m.seats) == 2):
        firsts[m.seats[0]] += 1
        seconds[m.seats[1]] += 1
    assert max(abs(firsts[p.id] - seconds[p.id]) for p in t.players) <= most


def test_swiss_pairs_by_score_in_round_two() -> None:
    """After round 1, winners meet winners and losers meet losers (16 players, no draws)."""
    rng = random.Random(9)
    t = Tournament.create("wizards-cup", "swiss", players(16, rng), seed=9)
    for m in t.next_round().matches:
        t.report_win(m.id, m.seats[0])
    scores = {row.player: row.match_points for row in t.standings().rows}
    for m in t.next_round().matches:
        a, b = m.seats
        assert scores[a] == scores[b]


# ---------------------------------------------------------------------------------------------
# round robin
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ALL_GAMES)
@pytest.mark.parametrize("n", SIZES)
def test_round_robin_everyone_meets_everyone_once(game: str, n: int) -> None:
    rng = random.Random(n)
    t = Tournament.create(game, "round_robin", players(n, rng), seed=n)
    assert t.rounds_planned == (n - 1 if n % 2 == 0 else n)
    while not t.finished:
        rnd = t.next_round()
        seats = [p for m in rnd.matches for p in m.seats]
        assert len(seats) == len(set(seats)) == n, "everyone once a round (a bye included)"
        for m in rnd.matches:
            report_random(t, m, rng)
    meetings = Counter(frozenset(m.seats) for r in t.rounds for m in r.matches if len(m.seats) == 2)
    ids = [p.id for p in t.players]
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(ids, 2)}
    assert set(meetings.values()) == {1} if n > 1 else True
    byes = Counter(m.seats[0] for r in t.rounds for m in r.matches if m.bye)
    assert (set(byes.values()) == {1} and len(byes) == n) if n % 2 else not byes
    firsts = Counter(m.seats[0] for r in t.rounds for m in r.matches if len(m.seats) == 2)
    counts = [firsts[p] for p in ids]
    assert max(counts) - min(counts) <= 1, "first seats balanced"
    check_points(t)


def test_round_robin_drop_gives_byes_to_remaining_opponents() -> None:
    rng = random.Random(3)
    t = Tournament.create("firewall", "round_robin", players(6, rng), seed=3)
    rnd = t.next_round()
    quitter = rnd.matches[0].seats[1]
    opponent = rnd.matches[0].seats[0]
    changed = t.drop(quitter)
    assert [m.id for m in changed] == [rnd.matches[0].id]
    assert changed[0].seats == (opponent,) and changed[0].result is not None
    assert changed[0].result.kind is ResultKind.WALKOVER
    for m in rnd.matches[1:]:
        report_random(t, m, rng)
    walkovers = 1
    while not t.finished:
        rnd = t.next_round()
        assert all(quitter not in m.seats for m in rnd.matches)
        walkovers += sum(1 for m in rnd.matches if m.result is not None and m.result.kind is ResultKind.WALKOVER)
        for m in rnd.matches:
            report_random(t, m, rng)
    assert walkovers == 5, "each of the 5 opponents gets the match as a walkover (a win)"
    assert t.standings().row(quitter).dropped


# ---------------------------------------------------------------------------------------------
# single elimination
# ---------------------------------------------------------------------------------------------


def test_bracket_order_is_standard() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]


@pytest.mark.parametrize("third_place", [False, True])
@pytest.mark.parametrize("game", TWO_PLAYER_GAMES)
@pytest.mark.parametrize("n", SIZES)
def test_single_elimination_invariants(game: str, n: int, third_place: bool) -> None:
    rng = random.Random(n * 7 + third_place)
    if third_place and n < 4:
        third_place = False
    t = Tournament.create(game, "single_elimination", players(n, rng), seed=n, third_place=third_place)
    size = bracket_size(n)
    assert t.rounds_planned == size.bit_length() - 1
    seeds = {p.id: p.seed for p in t.players}
    by_rating = sorted(t.players, key=lambda p: -p.rating)
    assert [p.seed for p in sorted(t.players, key=lambda p: p.seed or 0)] == list(range(1, n + 1))
    assert [p.rating for p in sorted(t.players, key=lambda p: p.seed or 0)] == [p.rating for p in by_rating]
    alive = {p.id for p in t.players}
    while not t.finished:
        rnd = t.next_round()
        main = [m for m in rnd.matches if m.label != "third place"]
        assert {p for m in main for p in m.seats} == alive, "exactly the winners of the last round play"
        byes = [m for m in main if m.bye]
        if rnd.number == 1:
            assert len(byes) == size - n
            assert sorted(seeds[m.seats[0]] or 0 for m in byes) == list(range(1, size - n + 1)), "byes to top seeds"
        else:
            assert byes == [], "byes only in round 1"
        for m in rnd.matches:
            if not m.finished and rng.random() < 0.1:
                with pytest.raises(ValueError):
                    t.report_draw(m.id)
            report_random(t, m, rng, draws=False)
        alive = {m.winner() for m in main if m.winner() is not None}  # type: ignore[misc]
        assert len(alive) == len(main)
    final = t.rounds[-1].matches[0]
    assert final.label == "final"
    assert t.champion == final.winner() and t.champion is not None
    bracket = t.bracket()
    assert bracket.champion == t.champion
    for r in bracket.rounds[:-1]:
        nxt = bracket.rounds[r.number]
        for bm in r.matches:
            assert bm.winner in nxt.matches[bm.slot // 2].players, "every winner advances"
    ranking = t.ranking()
    assert ranking[0] == (1, t.champion)
    assert ranking[1][0] == 2 if n >= 2 else True
    if third_place and n >= 4:
        third = [m for m in t.rounds[-1].matches if m.label == "third place"]
        assert len(third) == 1 and third[0].winner() is not None
        assert (3, third[0].winner()) in ranking


def test_bracket_view_before_and_during_play() -> None:
    t = Tournament.create("firewall", "single_elimination", [Player(i, rating=100 - i) for i in range(1, 7)], seed=1)
    view = t.bracket()
    assert view.size == 8 and [r.name for r in view.rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    rnd = t.next_round()
    view = t.bracket()
    first = view.rounds[0].matches
    assert [bm.seeds for bm in first] == [(1, None), (4, 5), (2, None), (3, 6)]
    assert first[0].bye and first[0].winner == 1
    t.report_win(rnd.matches[1].id, 5)
    view = t.bracket()
    assert view.rounds[1].matches[0].players == (1, 5), "the winner shows in the next round at once"
    assert view.to_dict()["rounds"][0]["matches"][1]["winner"] == 5


def test_knockout_double_timeout_goes_to_better_seed_and_draw_is_refused() -> None:
    t = Tournament.create("arena", "single_elimination", [Player(1, 2000), Player(2, 1000)], seed=0)
    m = t.next_round().matches[0]
    with pytest.raises(ValueError, match="needs a winner"):
        t.report_draw(m.id)
    assert m.result is None
    t.report_timeout(m.id, [1, 2])
    assert m.winner() == 1 and m.result is not None and m.result.kind is ResultKind.ADJUDICATED
    assert t.finished and t.champion == 1


# ---------------------------------------------------------------------------------------------
# Magic Duel tables
# ---------------------------------------------------------------------------------------------


def test_table_sizes() -> None:
    assert table_sizes(2) == [2]
    assert table_sizes(3) == [3]
    assert table_sizes(5) == [5]
    assert table_sizes(6) == [3, 3]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(9) == [5, 4]
    assert table_sizes(10) == [4, 3, 3]
    for n in range(3, 200):
        sizes = table_sizes(n)
        assert sum(sizes) == n and all(3 <= s <= 8 for s in sizes)


@pytest.mark.parametrize("n", SIZES)
def test_magic_duel_swiss_tables(n: int) -> None:
    rng = random.Random(n)
    t = Tournament.create("magic-duel", "swiss", players(n, rng), seed=n)
    while not t.finished:
        rnd = t.next_round()
        sizes = sorted((len(m.seats) for m in rnd.matches), reverse=True)
        assert sizes == sorted(table_sizes(len(t.active())), reverse=True)
        assert all(s >= 3 for s in sizes) or n == 2
        seated = [p for m in rnd.matches for p in m.seats]
        assert sorted(seated) == sorted(p.id for p in t.active())
        for m in rnd.matches:
            report_random(t, m, rng)
    rows = t.standings().rows
    assert len(rows) == n and rows[0].match_points >= rows[-1].match_points


def test_magic_duel_swiss_avoids_repeat_tables() -> None:
    """16 players, tables of 4: round 2 can always be seated without anyone meeting again."""
    for seed in range(5):
        rng = random.Random(seed)
        t = Tournament.create("magic-duel", "swiss", players(16, rng), rounds=2, seed=seed)
        first = t.next_round()
        for m in first.matches:
            report_random(t, m, rng)
        met = {frozenset(pair) for m in first.matches for pair in itertools.combinations(m.seats, 2)}
        second = t.next_round()
        again = [pair for m in second.matches for pair in itertools.combinations(m.seats, 2) if frozenset(pair) in met]
        assert again == []


@pytest.mark.parametrize("n", SIZES)
def test_magic_duel_knockout_tables(n: int) -> None:
    rng = random.Random(n)
    t = Tournament.create("magic-duel", "single_elimination", players(n, rng), seed=n)
    remaining = n
    while not t.finished:
        rnd = t.next_round()
        assert sum(len(m.seats) for m in rnd.matches) == remaining
        if remaining <= 5:
            assert len(rnd.matches) == 1 and rnd.matches[0].label == "final"
        for m in rnd.matches:
            report_random(t, m, rng)
        remaining = sum(max(1, len(m.seats) // 2) for m in rnd.matches)
    final = t.rounds[-1].matches[0]
    assert final.label == "final"
    assert t.champion is not None and t.champion in final.seats
    assert final.placement_of(t.champion) == 1
    assert len(t.ranking()) == n


def test_magic_duel_round_robin_is_two_player() -> None:
    t = Tournament.create("magic-duel", "round_robin", [1, 2, 3, 4], seed=0)
    assert all(len(m.seats) == 2 for m in t.next_round().matches)
    assert Format.ROUND_ROBIN is t.format
