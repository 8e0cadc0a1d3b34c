"""``python -m bench scale --quick`` as a subprocess (it starts its own PostgreSQL server and
service processes): the JSON it writes has every configuration and figure, with sane values, no
refusal that is not a race, and no accepted move lost or applied twice. Each configuration is timed
for 1 s after 0.5 s (quick: 3 s after 1 s; hundreds of moves each all the same): half the CPU."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ["moves_per_s", "p50_ms", "p99_ms", "p99_ratio"]
MORE = ["p50_ratio", "bare_p50_ms", "bare_p99_ms", "moves", "moves_total", "errors", "raced", "idle", "lost", "doubled"]


@pytest.mark.slow
def test_bench_scale_quick_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "scale.json"
    run = subprocess.run(
        [sys.executable, "-m", "bench", "scale", "--quick", "--seconds", "1", "--warmup", "0.5", "--json", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    data = json.loads(out.read_text())
    assert set(data) == {"sqlite", "postgres", "detail"}
    assert set(data["sqlite"]) == {"1"}
    assert set(data["postgres"]) == {"1", "2", "4"}
    for backend, processes in (("sqlite", ["1"]), ("postgres", ["1", "2", "4"])):
        for n in processes:
            r = data[backend][n]
            where = f"{backend} x{n}: {r}"
            assert set(FIGURES + MORE) <= set(r), where
            assert r["processes"] == int(n)
            assert r["moves"] > 0 and r["moves_total"] >= r["moves"], where
            assert r["moves_per_s"] == pytest.approx(r["moves"] / r["seconds"]), where
            assert 0 < r["p50_ms"] <= r["p99_ms"] < 60_000, where
            assert 0 < r["bare_p50_ms"] <= r["bare_p99_ms"] < 60_000, where
            assert r["p99_ratio"] == pytest.approx(r["p99_ms"] / r["bare_p99_ms"]), where
            assert r["p99_ratio"] > 0 and r["p50_ratio"] > 0, where
            assert r["errors"] == 0, where
            assert r["lost"] == 0 and r["doubled"] == 0, where
            assert r["matches"] >= data["detail"]["live"], where
    # the table is printed, one row per configuration
    rows = [line.split() for line in run.stdout.splitlines() if line.startswith(("sqlite ", "postgres "))]
    assert [(row[0], row[1]) for row in rows] == [
        ("sqlite", "1"),
        ("postgres", "1"),
        ("postgres", "2"),
        ("postgres", "4"),
    ]
