"""bench engines (issue 33, part 5): a speed-up is the median of same-round ratios (each way against
the baseline run right before or after it) and the ratio per CPU second, never one way's best round
over the other's."""

from __future__ import annotations

import pytest

from bench.engines import speedups, total


def rounds(*pairs: tuple[int, float, float]) -> list[dict[str, float]]:
    """Rounds of (games, wall seconds, CPU seconds), 10 applies per game at 5 µs."""
    return [
        {"games": g, "seconds": s, "cpu_seconds": c, "playouts_per_s": g / s, "applies": 10 * g, "apply_us": 5.0}
        for g, s, c in pairs
    ]


def test_a_quiet_moment_for_one_way_does_not_make_its_speed_up() -> None:
    # the load changed between the rounds (the second ran 3x as fast for both ways): best over best
    # would compare the way's best round with the baseline's, whichever round each came from; the
    # same-round ratios compare runs made under the same load, and the CPU ratio what each cost.
    base = rounds((20, 1.0, 0.5), (60, 1.0, 1.0))
    way = rounds((40, 1.0, 0.5), (100, 1.0, 1.0))
    found = speedups(way, base)
    assert found["rounds"] == [2.0, pytest.approx(100 / 60)]
    assert found["same_round"] == pytest.approx((2.0 + 100 / 60) / 2)
    assert found["cpu"] == pytest.approx((140 / 1.5) / (80 / 1.5))


def test_a_way_s_rounds_add_up() -> None:
    found = total(rounds((10, 2.0, 1.0), (30, 2.0, 1.0)))
    assert found == {"games": 40, "playouts_per_s": 10.0, "playouts_per_cpu_s": 20.0, "apply_us": 5.0}
