"""Ratings and time (issue 36): an idle rating settles, a season starts from a soft reset, and a
ladder lists the players who played enough and recently enough. Pure arithmetic, no database;
docs/ratings.md ("Time away", "Seasons") states the numbers.

**Time away.** A rating's uncertainty (openskill's sigma) grows while the player is away, as
Glicko's rating deviation does: its variance grows by :data:`IDLE_VARIANCE_PER_DAY` a day, up to a
newcomer's sigma. So the ladder's conservative number (``mu - 3 sigma``) drops while a player is
away, and a returning player's first matches move them faster. The growth is counted in steps, on
whole weeks away that double: 1, 2, 4, 8, 16, 32, 64 and 128 weeks. A rating therefore changes at
most eight times over a long absence, never every night, and it is always computed from the same
two stored facts, the sigma of the player's last rated match and that match's time: settling it
at any moment, in any order, as often as wished, gives the same number (:func:`idle_sigma` is a
function of the time away only; nothing settled is ever settled again on top).

**Listed.** A ladder lists a player with at least the server's minimum of rated games and, when
the server set a window, a rated game within it. :func:`settle` gives a standing's ladder number,
whether it is listed, and the next moment either changes (a step of time away, or the window's
end): the database keeps that moment so a read settles only what is due.

**Soft reset.** A player's first match of a season starts their season rating from their
all-time rating on that server (as time away left it), pulled toward a newcomer's by
:data:`SOFT_RESET_SHARE`, mu and sigma alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

from db.ratings import ordinal

_MODEL = PlackettLuce()
INITIAL_MU: float = _MODEL.mu
INITIAL_SIGMA: float = _MODEL.sigma

DISPLAY_BASE = 1200
DISPLAY_SCALE = 20


def display_rating(mu: float, sigma: float) -> int:
    """The single number players see: ``round(1200 + 20 * (mu - 3 sigma))``."""
    return int(round(DISPLAY_BASE + DISPLAY_SCALE * ordinal(mu, sigma)))


DAY = 86_400
WEEK = 7 * DAY
IDLE_YEARS_TO_NEWCOMER = 2
IDLE_VARIANCE_PER_DAY = INITIAL_SIGMA**2 / (365 * IDLE_YEARS_TO_NEWCOMER)
"""How much a rating's variance (sigma squared) grows per day away: a player the model were
certain of (sigma 0) would be as uncertain as a newcomer after two years away. A regular with sigma
2 loses about 10 rating points after a week away, 35 after four weeks, 90 after four months."""
IDLE_STEP_WEEKS = (1, 2, 4, 8, 16, 32, 64, 128)
"""The weeks away at which the growth is counted (between two steps it stays at the earlier one)."""
SOFT_RESET_SHARE = 0.5
"""How far a new season pulls a player's rating toward a newcomer's (0: not at all, 1: all the way)."""
PROVISIONAL_SIGMA = 6.0
"""A rating whose sigma is above this is marked provisional (a newcomer's is 8.33; it drops below
6 after about five matches of two players)."""


def idle_days(away: float) -> int:
    """The days of time away counted after ``away`` seconds (0 under a week; then the last step)."""
    weeks = int(away // WEEK)
    counted = 0
    for step in IDLE_STEP_WEEKS:
        if weeks >= step:
            counted = step
    return counted * 7


def idle_sigma(sigma: float, away: float) -> float:
    """Sigma after ``away`` seconds without a rated match (never below ``sigma``, never above a
    newcomer's unless it already was)."""
    days = idle_days(away)
    if days == 0 or sigma >= INITIAL_SIGMA:
        return sigma
    return min(INITIAL_SIGMA, math.sqrt(sigma * sigma + IDLE_VARIANCE_PER_DAY * days))


def next_step(sigma: float, away: float) -> float | None:
    """Seconds away at which :func:`idle_sigma` next changes, or None if it never will."""
    if idle_sigma(sigma, away) >= INITIAL_SIGMA:
        return None
    weeks = int(away // WEEK)
    for step in IDLE_STEP_WEEKS:
        if step > weeks:
            return float(step * WEEK)
    return None


def soft_reset(mu: float, sigma: float) -> tuple[float, float]:
    """A season's starting (mu, sigma) from an all-time rating."""
    share = SOFT_RESET_SHARE
    return mu + share * (INITIAL_MU - mu), sigma + share * (INITIAL_SIGMA - sigma)


@dataclass(frozen=True)
class ListRules:
    """Who a ladder lists: ``min_games`` rated games and, with ``window_days``, one of them within
    that many days. ``frozen_at``: a season that ended settles as of its end (its ladder no longer moves)."""

    min_games: int = 1
    window_days: int | None = None
    frozen_at: int | None = None


@dataclass(frozen=True)
class Settled:
    """A standing as of a moment: the ladder's order and number, whether it is listed, and when
    any of them next changes (None: never)."""

    sigma: float
    ordinal: float
    display: int
    listed: bool
    settle_at: int | None


def settle(*, mu: float, sigma: float, games: int, updated_at: int, now: int, rules: ListRules) -> Settled:
    """The standing's settled values at ``now`` (at most the rules' ``frozen_at``)."""
    if rules.frozen_at is not None:
        now = min(now, rules.frozen_at)
    away = max(0, now - updated_at)
    grown = idle_sigma(sigma, away)
    order = ordinal(mu, grown)
    listed = games >= rules.min_games
    changes: list[float] = []
    if rules.window_days is not None:
        window = rules.window_days * DAY
        listed = listed and away < window
        if away < window:
            changes.append(updated_at + window)
    step = next_step(sigma, away)
    if step is not None:
        changes.append(updated_at + step)
    if rules.frozen_at is not None:
        changes = []
    return Settled(grown, order, display_rating(mu, grown), listed, int(min(changes)) if changes else None)


def provisional(sigma: float) -> bool:
    """Whether a rating is still provisional (the model is not sure of the player yet)."""
    return sigma > PROVISIONAL_SIGMA


__all__ = [
    "DAY",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "IDLE_STEP_WEEKS",
    "IDLE_VARIANCE_PER_DAY",
    "INITIAL_MU",
    "INITIAL_SIGMA",
    "PROVISIONAL_SIGMA",
    "SOFT_RESET_SHARE",
    "WEEK",
    "ListRules",
    "Settled",
    "idle_days",
    "idle_sigma",
    "next_step",
    "provisional",
    "display_rating",
    "settle",
    "soft_reset",
]
