"""Ratings and time (issue 36, part 2; docs/ratings.md#time-away): an idle rating's uncertainty
grows by steps of time away, the same whenever and however often it is computed; a ladder lists
players with the server's minimum of games and a game in its window, and marks provisional ratings;
a season starts from a soft reset. Pure arithmetic (bot/rating_time.py) and leagues (bot/leagues.py)."""

from __future__ import annotations

import math
import random

import pytest

from bot.leagues import Band, LeagueError, describe, dump, league_of, load, parse
from bot.rating_time import (
    DAY,
    IDLE_VARIANCE_PER_DAY,
    INITIAL_MU,
    INITIAL_SIGMA,
    WEEK,
    ListRules,
    display_rating,
    idle_days,
    idle_sigma,
    next_step,
    provisional,
    settle,
    soft_reset,
)

T = 1_750_000_000


def test_time_away_counts_in_doubling_weeks() -> None:
    assert [idle_days(d * DAY) for d in (0, 6, 7, 13, 14, 27, 28, 55, 56, 10_000)] == [
        0, 0, 7, 7, 14, 14, 28, 28, 56, 896
    ]  # fmt: skip
    assert idle_sigma(2.0, 6 * DAY) == 2.0  # under a week: nothing
    assert idle_sigma(2.0, 7 * DAY) == pytest.approx(math.sqrt(4 + 7 * IDLE_VARIANCE_PER_DAY))
    assert idle_sigma(2.0, 20 * 365 * DAY) == INITIAL_SIGMA  # never above a newcomer's
    assert idle_sigma(INITIAL_SIGMA + 1, 365 * DAY) == INITIAL_SIGMA + 1  # never lowered
    assert next_step(2.0, 0) == WEEK and next_step(2.0, 9 * DAY) == 2 * WEEK and next_step(2.0, 3 * 365 * DAY) is None


def test_a_regular_loses_a_few_points_a_week_and_more_the_longer_away() -> None:
    mu, sigma = 35.0, 2.0
    shown = [display_rating(mu, idle_sigma(sigma, w * WEEK)) for w in (0, 1, 4, 16, 52)]
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == 5
    assert 5 <= shown[0] - shown[1] <= 15 and 60 <= shown[0] - shown[3] <= 200


@pytest.mark.parametrize("seed", range(5))
def test_settling_is_the_same_whenever_and_however_often_it_is_computed(seed: int) -> None:
    """Settled at random moments in any order, or once at the end: the same values (the lazy growth
    is a function of the last match and the time only)."""
    rng = random.Random(seed)
    mu, sigma, games = rng.uniform(15, 40), rng.uniform(0.8, 8), rng.randint(1, 40)
    rules = ListRules(min_games=rng.randint(1, 5), window_days=rng.choice([None, 14, 30, 90]))
    end = T + rng.randint(0, 400) * DAY
    direct = settle(mu=mu, sigma=sigma, games=games, updated_at=T, now=end, rules=rules)
    moments = sorted(rng.randint(T, end) for _ in range(rng.randint(1, 30)))
    for now in rng.sample(moments, len(moments)) + [end]:
        last = settle(mu=mu, sigma=sigma, games=games, updated_at=T, now=now, rules=rules)
    assert last == direct
    # and the settled values only change at the moment the previous settling said
    at = T
    while True:
        here = settle(mu=mu, sigma=sigma, games=games, updated_at=T, now=at, rules=rules)
        if here.settle_at is None or here.settle_at > end:
            break
        just_before = settle(mu=mu, sigma=sigma, games=games, updated_at=T, now=here.settle_at - 1, rules=rules)
        assert just_before == here
        at = here.settle_at


def test_the_window_and_the_minimum_decide_who_is_listed() -> None:
    rules = ListRules(min_games=3, window_days=30)
    kw = {"mu": 30.0, "sigma": 3.0, "updated_at": T}
    assert not settle(games=2, now=T, rules=rules, **kw).listed  # too few games
    inside = settle(games=3, now=T + 29 * DAY, rules=rules, **kw)
    assert inside.listed and inside.settle_at == T + 30 * DAY  # leaving the window is the next change
    assert not settle(games=3, now=T + 30 * DAY, rules=rules, **kw).listed
    frozen = ListRules(min_games=1, frozen_at=T + 10 * DAY)  # an ended season settles as of its end
    assert settle(games=3, now=T + 500 * DAY, rules=frozen, **kw) == settle(
        games=3, now=T + 10 * DAY, rules=frozen, **kw
    )
    assert settle(games=3, now=T + 500 * DAY, rules=frozen, **kw).settle_at is None


def test_provisional_ratings_and_the_soft_reset() -> None:
    assert provisional(INITIAL_SIGMA) and not provisional(4.0)
    assert soft_reset(INITIAL_MU, INITIAL_SIGMA) == (INITIAL_MU, INITIAL_SIGMA)
    mu, sigma = soft_reset(35.0, 2.0)
    assert mu == pytest.approx(30.0) and sigma == pytest.approx((2.0 + INITIAL_SIGMA) / 2)


def test_leagues_are_read_from_an_admins_line_and_placed_by_rating_or_share() -> None:
    by_rating = parse("Apprentice, Adept 1400, Archmage 1600")
    assert by_rating == (Band("Apprentice"), Band("Adept", 1400), Band("Archmage", 1600))
    assert [league_of(by_rating, d, None, 0) for d in (1200, 1400, 1599, 1600)] == [
        "Apprentice", "Adept", "Adept", "Archmage"
    ]  # fmt: skip
    by_share = parse("Apprentice, Adept top 50%, Archmage top 10%")
    assert [league_of(by_share, 1300, place, 20) for place in (1, 2, 3, 10, 11, None)] == [
        "Archmage", "Archmage", "Adept", "Adept", "Apprentice", "Apprentice"
    ]  # fmt: skip
    assert load(dump(by_share)) == by_share and describe(by_share) == "Apprentice, Adept top 50%, Archmage top 10%"
    assert league_of((), 2000, 1, 1) is None and load("not json") == ()
    for bad in (
        "Solo",
        "A 1000, B 1200",
        "A, B",
        "A, B 1600, C 1400",
        "A, B 1400, C top 10%",
        "A, a 1400",
        "A, B@ 1400",
    ):
        with pytest.raises(LeagueError, match="Nothing was changed"):
            parse(bad)
