"""Bradley-Terry ratings of a round robin (issue 32's ladder in ``python -m bench ai``), pure Python.

The model: player ``i`` beats player ``j`` with probability ``1 / (1 + 10 ** (-(R_i - R_j) / 400))``,
the Elo scale (a gap of 191 points is a 75 % score, 400 points about 91 %). Each game contributes
the score of one side (1 win, 1/2 draw, 0 loss; the other side scores the rest), so a draw counts
as half a win for each player, the usual way of fitting draws in Bradley-Terry.

The ratings maximise the log-likelihood plus a light Gaussian prior (every player's rating centred
on 0 with a standard deviation of :data:`PRIOR_SD` Elo). Why the prior: a player who won every game
(or lost every one) has no finite maximum-likelihood rating; the prior keeps it finite and, with
a few dozen games per pair, moves the others by a few points at most. The maximum is found by
Newton's method on the natural scale (the log-posterior is strictly concave, so it converges in a
handful of steps; each step is halved until the posterior rises).

The 95 % intervals come from the curvature at the maximum: the inverse of the Hessian of the
negative log-posterior (the Fisher information of the games plus the prior's) is the covariance
of the ratings, and the interval of ``R_i - R_anchor`` is ``±1.96`` standard deviations of that
difference. The ratings are reported relative to the anchor (``random`` in the benchmark, whose
rating is then 0 with an interval of width 0); without an anchor, relative to their mean.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Elo points per natural unit of the logistic model: R = ELO * theta.
ELO = 400 / math.log(10)
#: Standard deviation (Elo) of the prior every rating is centred on: wide enough to change a fit
#: of a few dozen games per pair by a few points, narrow enough that an unbeaten player stays finite.
PRIOR_SD = 1000.0
Z95 = 1.959964


@dataclass(frozen=True)
class Rating:
    """A player's fitted rating (Elo scale, relative to the anchor) and its 95 % interval."""

    rating: float
    ci: tuple[float, float]
    games: int
    #: points scored (wins plus half the draws)
    score: float


def expected(rating_a: float, rating_b: float) -> float:
    """The score the model expects of a player rated ``rating_a`` against one rated ``rating_b``."""
    return 1 / (1 + 10 ** (-(rating_a - rating_b) / 400))


def fit(
    games: Iterable[tuple[str, str, float]],
    *,
    anchor: str | None = None,
    prior_sd: float = PRIOR_SD,
    players: Sequence[str] = (),
) -> dict[str, Rating]:
    """Fit ratings to ``games``, each ``(a, b, score of a)`` with the score in 0..1.

    ``anchor``: the player rated 0 (the others relative to it); None (or a player without a game)
    rates relative to the mean. ``players``: names to rate even without a game (their rating is
    the prior's, their interval wide). Returns each player's :class:`Rating`."""
    names: list[str] = list(dict.fromkeys(players))
    index: dict[str, int] = {name: i for i, name in enumerate(names)}
    pairs: dict[tuple[int, int], list[float]] = {}  # (i, j) with i < j -> [points of i, games]
    for a, b, score in games:
        if a == b:
            raise ValueError(f"{a!r} cannot play itself")
        if not 0 <= score <= 1:
            raise ValueError(f"score {score} out of 0..1")
        for name in (a, b):
            if name not in index:
                index[name] = len(names)
                names.append(name)
        i, j = index[a], index[b]
        key, points = ((i, j), score) if i < j else ((j, i), 1 - score)
        entry = pairs.setdefault(key, [0.0, 0.0])
        entry[0] += points
        entry[1] += 1
    n = len(names)
    if n == 0:
        return {}
    precision = (ELO / prior_sd) ** 2  # the prior's, on the natural scale
    theta = _newton(n, pairs, precision)
    cov = _inverse(_hessian(theta, pairs, precision))
    games_of = [0] * n
    score_of = [0.0] * n
    for (i, j), (points, count) in pairs.items():
        games_of[i] += int(count)
        games_of[j] += int(count)
        score_of[i] += points
        score_of[j] += count - points
    ref = index.get(anchor) if anchor is not None and anchor in index and games_of[index[anchor]] else None
    out: dict[str, Rating] = {}
    for i, name in enumerate(names):
        if ref is not None:
            centre = theta[i] - theta[ref]
            var = cov[i][i] + cov[ref][ref] - 2 * cov[i][ref]
        else:  # relative to the mean of all ratings
            mean = sum(theta) / n
            centre = theta[i] - mean
            row_mean = sum(cov[i]) / n
            all_mean = sum(sum(row) for row in cov) / (n * n)
            var = cov[i][i] - 2 * row_mean + all_mean
        half = Z95 * math.sqrt(max(0.0, var))
        out[name] = Rating(ELO * centre, (ELO * (centre - half), ELO * (centre + half)), games_of[i], score_of[i])
    return out


def _log_posterior(theta: Sequence[float], pairs: dict[tuple[int, int], list[float]], precision: float) -> float:
    total = -0.5 * precision * sum(t * t for t in theta)
    for (i, j), (points, count) in pairs.items():
        d = theta[i] - theta[j]
        # points * log p + (count - points) * log(1 - p), p = 1 / (1 + e^-d), stable for large |d|
        total += points * -_softplus(-d) + (count - points) * -_softplus(d)
    return total


def _softplus(x: float) -> float:
    """log(1 + e^x) without overflow."""
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _gradient(theta: Sequence[float], pairs: dict[tuple[int, int], list[float]], precision: float) -> list[float]:
    grad = [-precision * t for t in theta]
    for (i, j), (points, count) in pairs.items():
        p = 1 / (1 + math.exp(-(theta[i] - theta[j])))
        g = points - count * p
        grad[i] += g
        grad[j] -= g
    return grad


def _hessian(theta: Sequence[float], pairs: dict[tuple[int, int], list[float]], precision: float) -> list[list[float]]:
    """The Hessian of the negative log-posterior (positive definite thanks to the prior)."""
    n = len(theta)
    h = [[precision if r == c else 0.0 for c in range(n)] for r in range(n)]
    for (i, j), (_, count) in pairs.items():
        p = 1 / (1 + math.exp(-(theta[i] - theta[j])))
        w = count * p * (1 - p)
        h[i][i] += w
        h[j][j] += w
        h[i][j] -= w
        h[j][i] -= w
    return h


def _newton(n: int, pairs: dict[tuple[int, int], list[float]], precision: float) -> list[float]:
    theta = [0.0] * n
    value = _log_posterior(theta, pairs, precision)
    for _ in range(100):
        grad = _gradient(theta, pairs, precision)
        if max(abs(g) for g in grad) < 1e-10:
            break
        step = _solve(_hessian(theta, pairs, precision), grad)
        scale = 1.0
        while True:
            trial = [t + scale * s for t, s in zip(theta, step, strict=True)]
            trial_value = _log_posterior(trial, pairs, precision)
            if trial_value >= value or scale < 1e-6:
                break
            scale /= 2
        theta, value = trial, trial_value
    return theta


def _solve(matrix: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    """``x`` with ``matrix @ x == rhs`` (Gaussian elimination with partial pivoting)."""
    n = len(rhs)
    m = [list(row) + [rhs[r]] for r, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]
