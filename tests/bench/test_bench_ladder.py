"""The ladder's Bradley-Terry fit (``bench.ladder``): known strengths recovered, intervals that
contain the truth and shrink with more games, draws as half wins, an unbeaten player finite."""

from __future__ import annotations

import math
import random

import pytest

from bench.ladder import expected, fit


def _games(a: str, b: str, wins: int, losses: int, draws: int = 0) -> list[tuple[str, str, float]]:
    return [(a, b, 1.0)] * wins + [(a, b, 0.0)] * losses + [(a, b, 0.5)] * draws


def test_a_75_percent_score_is_191_elo() -> None:
    """A beats B in 300 of 400 games: 400 log10(3) = 190.8 Elo above B (the anchor, at 0)."""
    ratings = fit(_games("A", "B", 300, 100), anchor="B")
    assert ratings["B"].rating == 0 and ratings["B"].ci == (0, 0)
    assert ratings["A"].rating == pytest.approx(400 * math.log10(3), abs=1.5)  # the prior moves it < 1.5
    lo, hi = ratings["A"].ci
    assert lo < 191 < hi and hi - lo < 150
    assert ratings["A"].games == ratings["B"].games == 400
    assert ratings["A"].score == 300 and ratings["B"].score == 100
    assert expected(400 * math.log10(3), 0) == pytest.approx(0.75)


def _simulate(truth: dict[str, float], per_pair: int, seed: int) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    names = list(truth)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = expected(truth[a], truth[b])
            for g in range(per_pair):
                first, second, q = (a, b, p) if g % 2 == 0 else (b, a, 1 - p)
                out.append((first, second, 1.0 if rng.random() < q else 0.0))
    return out


def test_known_strengths_are_recovered_with_intervals_that_shrink() -> None:
    """Four players of known strength, a seeded round robin: each fitted rating's interval holds
    the truth, and four times the games halve the intervals' widths (about)."""
    truth = {"random": 0.0, "steady": 150.0, "normal": 350.0, "weak": -120.0}
    widths = {}
    for per_pair in (60, 240):
        ratings = fit(_simulate(truth, per_pair, seed=7), anchor="random")
        assert set(ratings) == set(truth)
        for name, r in ratings.items():
            assert r.ci[0] <= truth[name] <= r.ci[1], (per_pair, name, r)
            assert r.games == 3 * per_pair
        widths[per_pair] = {name: r.ci[1] - r.ci[0] for name, r in ratings.items() if name != "random"}
    for name, wide in widths[60].items():
        assert 0.4 < widths[240][name] / wide < 0.6, name
    order = sorted(fit(_simulate(truth, 240, seed=7), anchor="random").items(), key=lambda kv: -kv[1].rating)
    assert [name for name, _ in order] == ["normal", "steady", "random", "weak"]


def test_draws_count_as_half_a_win_each() -> None:
    """Two draws fit exactly as a win and a loss; all draws: equal ratings."""
    with_draws = fit(_games("A", "B", 30, 10, draws=20) + _games("B", "C", 5, 5), anchor="C")
    as_halves = fit(_games("A", "B", 40, 20) + _games("B", "C", 5, 5), anchor="C")
    for name in "ABC":
        assert with_draws[name].rating == pytest.approx(as_halves[name].rating, abs=1e-6)
        assert with_draws[name].ci == pytest.approx(as_halves[name].ci, abs=1e-6)
    level = fit(_games("A", "B", 0, 0, draws=50), anchor="B")
    assert level["A"].rating == pytest.approx(0, abs=1e-6) and level["A"].score == 25


def test_an_unbeaten_player_has_a_finite_rating() -> None:
    """20 wins in 20 games: no maximum-likelihood rating exists; the prior keeps it finite, above
    what 15 of 20 gives, with a finite interval; likewise a player who lost everything."""
    unbeaten = fit(_games("A", "B", 20, 0), anchor="B")["A"]
    three_quarters = fit(_games("A", "B", 15, 5), anchor="B")["A"]
    assert math.isfinite(unbeaten.rating) and unbeaten.rating > three_quarters.rating > 0
    assert all(math.isfinite(x) for x in unbeaten.ci) and unbeaten.ci[0] < unbeaten.rating < unbeaten.ci[1]
    beaten = fit(_games("A", "B", 0, 20) + _games("B", "C", 10, 10), anchor="C")["A"]
    assert math.isfinite(beaten.rating) and beaten.rating < -300


def test_anchor_and_mean() -> None:
    """Anchored: that player is 0 with a zero-width interval; no anchor (or one without games):
    the ratings are relative to their mean. A player named in ``players`` without a game is rated
    at the prior, with a wide interval."""
    games = _games("A", "B", 30, 10) + _games("B", "C", 20, 20)
    anchored = fit(games, anchor="C")
    assert anchored["C"].rating == 0 and anchored["A"].rating > anchored["B"].rating > -50
    centred = fit(games, players=["D"])
    assert sum(r.rating for r in centred.values()) == pytest.approx(0, abs=1e-6)
    assert centred["A"].rating - centred["C"].rating == pytest.approx(anchored["A"].rating, abs=1e-6)
    assert centred["D"].games == 0 and centred["D"].ci[1] - centred["D"].ci[0] > 2000
    assert fit(games, anchor="nobody")["A"].rating == pytest.approx(centred["A"].rating)
    assert fit([]) == {}


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError):
        fit([("A", "A", 1.0)])
    with pytest.raises(ValueError):
        fit([("A", "B", 1.5)])
