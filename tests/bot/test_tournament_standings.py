"""Standings: the Magic: The Gathering tie-break order with hand-computed numbers, table points,
and the logged random draw.

Definitions (Magic Tournament Rules 3.1 and Appendix C, "Tiebreaker Explanation"):
- match points: 3 a win, 1 a draw, 0 a loss; "players receiving byes are considered to have won";
- match-win percentage: match points / (3 x rounds played), at least 0.33;
- opponents' match-win percentage: the mean of the opponents' match-win percentages (byes ignored);
- game points: 3 a game won, 1 a game drawn; game-win percentage: game points / (3 x games played),
  at least 0.33 (a bye counts as a 2-0 win);
- opponents' game-win percentage: the mean of the opponents' game-win percentages.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.tournaments import Player, Result, Tournament
from bot.tournaments.model import BYE_RESULT, Format, Match, Round
from bot.tournaments.standings import compute_standings, lots, match_points

A, B, C, D, E, F = 1, 2, 3, 4, 5, 6


def win(mid: str, rnd: int, winner: int, loser: int, games: tuple[int, int], draws: int = 0) -> Match:
    return Match(mid, rnd, (winner, loser), result=Result((1, 2), games, draws))


def draw(mid: str, rnd: int, a: int, b: int, games: tuple[int, int], draws: int = 0) -> Match:
    return Match(mid, rnd, (a, b), result=Result((1, 1), games, draws))


def bye(mid: str, rnd: int, p: int) -> Match:
    return Match(mid, rnd, (p,), bye=True, result=BYE_RESULT)


def tournament(ids: list[int], rounds: list[list[Match]], seed: int = 0) -> Tournament:
    return Tournament(
        "firewall",
        Format.SWISS,
        [Player(i) for i in ids],
        rounds_planned=len(rounds),
        seed=seed,
        rounds=[Round(i + 1, ms) for i, ms in enumerate(rounds)],
    )


def test_omw_decides_with_byes_and_the_floor() -> None:
    """Five players, three rounds, a bye each round.

    R1: A beats B 2-0, C beats D 2-1, E bye.   R2: C beats A 2-1, B draws E 1-1, D bye.
    R3: A beats E 2-1, D beats B 2-0, C bye.

    MWP: A 6/9, B 1/9 -> 0.33, C 9/9, D 6/9, E 4/9.
    OMW (byes ignored): A (B, C, E) = (0.33 + 1 + 4/9) / 3 = 0.5915; D (C, B) = (1 + 0.33) / 2
    = 0.665; so D (6 points) ranks above A (6 points).
    GWP: A 15/24 = 0.625; C (6 + 6 + bye 6) / (3 + 3 + 2) games = 18/24 = 0.75; D 15/21;
    E 12/21; B 3/18 -> 0.33.
    """
    t = tournament(
        [A, B, C, D, E],
        [
            [win("R1-M1", 1, A, B, (2, 0)), win("R1-M2", 1, C, D, (2, 1)), bye("R1-M3", 1, E)],
            [win("R2-M1", 2, C, A, (2, 1)), draw("R2-M2", 2, B, E, (1, 1)), bye("R2-M3", 2, D)],
            [win("R3-M1", 3, A, E, (2, 1)), win("R3-M2", 3, D, B, (2, 0)), bye("R3-M3", 3, C)],
        ],
    )
    s = t.standings()
    assert s.order() == [C, D, A, E, B]
    floor = Fraction(33, 100)
    assert s.row(A).match_points == 6 and s.row(D).match_points == 6
    assert s.row(A).omw == (floor + 1 + Fraction(4, 9)) / 3
    assert round(float(s.row(A).omw), 4) == 0.5915
    assert s.row(D).omw == (1 + floor) / 2
    assert s.row(C).omw == (Fraction(6, 9) + Fraction(6, 9)) / 2
    assert s.row(A).gwp == Fraction(15, 24)
    assert s.row(C).gwp == Fraction(18, 24)
    assert s.row(D).gwp == Fraction(15, 21)
    assert s.row(E).gwp == Fraction(12, 21)
    assert s.row(B).gwp == floor
    assert (s.row(C).wins, s.row(C).losses, s.row(C).draws, s.row(C).byes) == (2, 0, 0, 1)
    assert s.row(E).to_dict()["record"] == "0-1-1"
    assert s.draws == ()


def test_gwp_decides_when_points_and_omw_are_equal() -> None:
    """A beats B 2-0, C beats D 2-1: A and C have 3 points and OMW 0.33 (both opponents floored);
    GWP: A 6/6 = 1, C 6/9. Among the losers (OMW 1 each) D's GWP 3/9 = 0.333 beats B's 0 -> 0.33."""
    t = tournament([A, B, C, D], [[win("R1-M1", 1, A, B, (2, 0)), win("R1-M2", 1, C, D, (2, 1))]])
    s = t.standings()
    assert s.order() == [A, C, D, B]
    assert s.row(A).omw == s.row(C).omw == Fraction(33, 100)
    assert s.row(A).gwp == 1 and s.row(C).gwp == Fraction(2, 3)
    assert s.row(D).gwp == Fraction(1, 3) > s.row(B).gwp == Fraction(33, 100)


def test_ogw_decides_when_points_omw_and_gwp_are_equal() -> None:
    """R1: A beats B 2-1 and C beats D 2-1 (A and C: 3 points, GWP 6/9 each).
    R2: E beats B 2-0 and F beats D 2-1, so B and D both have MWP 0.33 (A's and C's OMW equal),
    but B's GWP is 3/15 -> 0.33 and D's is 6/18 = 0.3333: C's OGW is higher, C ranks above A."""
    t = tournament(
        [A, B, C, D, E, F],
        [
            [win("R1-M1", 1, A, B, (2, 1)), win("R1-M2", 1, C, D, (2, 1))],
            [win("R2-M1", 2, E, B, (2, 0)), win("R2-M2", 2, F, D, (2, 1))],
        ],
    )
    s = t.standings()
    assert s.row(A).match_points == s.row(C).match_points == 3
    assert s.row(A).omw == s.row(C).omw
    assert s.row(A).gwp == s.row(C).gwp == Fraction(2, 3)
    assert s.row(A).ogw == Fraction(33, 100) and s.row(C).ogw == Fraction(1, 3)
    order = s.order()
    assert order.index(C) < order.index(A)


def test_random_draw_breaks_full_ties_and_is_logged() -> None:
    """A beats B, C beats D (single games): A and C tie on everything, so do B and D: the seeded
    lots order them, and each tie is in the draw log with its lots."""
    rounds = [[win("R1-M1", 1, A, B, (1, 0)), win("R1-M2", 1, C, D, (1, 0))]]
    for seed in range(6):
        s = tournament([A, B, C, D], rounds, seed=seed).standings()
        lot = lots([A, B, C, D], seed)
        top, bottom = s.order()[:2], s.order()[2:]
        assert sorted(top) == [A, C] and sorted(bottom) == [B, D]
        assert top == sorted(top, key=lot.__getitem__) and bottom == sorted(bottom, key=lot.__getitem__)
        assert [d.players for d in s.draws] == [tuple(top), tuple(bottom)]
        assert [d.lots for d in s.draws] == [tuple(lot[p] for p in top), tuple(lot[p] for p in bottom)]
        assert all(row.by_lot for row in s.rows)
        assert "random draw" in s.draws[0].explain()
        assert s == tournament([A, B, C, D], rounds, seed=seed).standings(), "deterministic for a seed"
    orders = {tuple(tournament([A, B, C, D], rounds, seed=seed).standings().order()) for seed in range(20)}
    assert len(orders) > 1, "the seed decides the draw"


def test_time_out_is_a_loss_and_a_double_time_out_scores_nothing() -> None:
    m = Match("R1-M1", 1, (A, B), result=Result((2, 1), timed_out=(A,)))
    assert match_points(m) == {A: 0, B: 3}
    both = Match("R1-M2", 1, (C, D), result=Result((1, 1), timed_out=(C, D)))
    assert match_points(both) == {C: 0, D: 0}


@pytest.mark.parametrize(
    ("placements", "points"),
    [
        ((1, 2, 3, 4), (3, 2, 1, 0)),
        ((1, 2, 3), (3, Fraction(3, 2), 0)),
        ((1, 2, 3, 4, 5), (3, Fraction(9, 4), Fraction(3, 2), Fraction(3, 4), 0)),
        ((1, 1, 3, 4), (Fraction(7, 3), Fraction(7, 3), 1, 0)),
        ((1, 2), (3, 0)),
        ((1, 1), (1, 1)),
    ],
)
def test_table_placement_points(placements: tuple[int, ...], points: tuple[Fraction, ...]) -> None:
    seats = tuple(range(10, 10 + len(placements)))
    m = Match("R1-M1", 1, seats, result=Result(placements))
    assert tuple(match_points(m)[p] for p in seats) == points


def test_table_standings_count_every_other_seat_as_an_opponent() -> None:
    t = Tournament(
        "magic-duel",
        Format.SWISS,
        [Player(i) for i in range(1, 5)],
        rounds_planned=1,
        rounds=[Round(1, [Match("R1-M1", 1, (1, 2, 3, 4), result=Result((1, 2, 3, 4)))])],
    )
    s = compute_standings(t.players, t.rounds, 0)
    assert s.order() == [1, 2, 3, 4]
    # MWP: 1.0, 2/3, 1/3, 0 -> 0.33; player 1's opponents: (2/3 + 1/3 + 0.33) / 3
    assert s.row(1).omw == (Fraction(2, 3) + Fraction(1, 3) + Fraction(33, 100)) / 3
    assert [float(r.match_points) for r in s.rows] == [3.0, 2.0, 1.0, 0.0]


def test_places_are_shared_by_players_tied_on_everything_and_empty_before_any_result() -> None:
    """What players are shown: no places while nobody has a result; players equal on points and
    every tie-break share the first of their places ("=1"), whatever order the random draw gave."""
    ids = [A, B, C, D]
    none = compute_standings([Player(i) for i in ids], [Round(1, [Match("m1", 1, (A, B)), Match("m2", 1, (C, D))])], 0)
    assert not none.played and set(none.places().values()) == {""}
    one = tournament(ids, [[win("m1", 1, A, B, (1, 0)), win("m2", 1, C, D, (1, 0))]]).standings()
    assert one.played and len(one.draws) == 2  # A and C tied on everything, B and D too
    assert one.places() == {A: "=1", C: "=1", B: "=3", D: "=3"}
    # a tie-break that separates them: no shared place
    two = tournament(ids, [[win("m1", 1, A, B, (2, 0)), win("m2", 1, C, D, (2, 1))]]).standings()
    assert two.places() == {A: "1", C: "2", B: "3", D: "4"} or two.places() == {A: "1", C: "2", D: "3", B: "4"}


def test_tiebreaks_are_named_in_plain_words() -> None:
    from bot.tournaments.standings import tiebreak_legend, tiebreak_names

    for tables in (False, True):
        text = tiebreak_legend(tables) + " ".join(n.short for n in tiebreak_names(tables))
        assert "OMW" not in text and "GW" not in text and "%" in text  # no MTG jargon
        assert "opponents" in text and "random draw" in text
    assert "win rate" in tiebreak_legend(False) and "share of the points" in tiebreak_legend(True)
    assert "duels you won" in tiebreak_legend(game="wizards-cup")  # the game's own score, named
    assert [n.short for n in tiebreak_names(game="wizards-cup")] == ["Opp.", "Duels", "Opp. duels"]
    assert "duel" not in tiebreak_legend(game="firewall")
