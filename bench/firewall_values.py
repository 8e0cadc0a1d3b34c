"""Generator of ``rules/ai/firewall_values.json``: Firewall's bidding round solved by backward induction.

``python -m bench.firewall_values [--out PATH]`` (about a minute of CPU; numpy and scipy, which the
rules themselves never import). The rules' reader is :mod:`rules.ai.firewall_value`.

The game solved is a Firewall round without spells (docs/rulings/firewall.md, rules 5, 8, 21): each
turn both seats secretly bet 1 .. their mana, the higher bet pushes the wall one flagstone toward
the other wizard (equal bets: it stays), both pay; a seat at 0 mana lets the other push the wall
one flagstone per mana point left (rule 21); the round ends when the wall reaches a wizard or the
mana runs out (or both are out).

A position within a round, seen from one seat ("me"), is ``(m, n, k)``: my mana, the opponent's,
and the wall's distance to my wizard (1..5; the opponent's is ``6 - k``). Each turn is a zero-sum
matrix game (rows my bets, columns the opponent's; entries the values of the positions they lead
to), solved as a linear programme by backward induction over the mana totals (every turn spends
at least 2). Its payoff is where the round leaves the wall, ``e`` flagstones from where it began
toward the opponent (-3 .. 3, scaled to 0..1): the round as a tug of war. The game is symmetric
(the opponent's mix at ``(m, n, k)`` is mine at ``(n, m, 6 - k)``), so from both mixes each
position gets the chance of each end ``e`` under equilibrium play. The match's value (who falls
off the bridge, rules 22 to 24) is then a weighted sum of those chances, computed in the rules per
match context (:mod:`rules.ai.firewall_value`): a round's risk that differs from the tug of war's
(a match point) is read there, where the root's bet is re-solved with the match's values.

A bet above the opponent's mana + 1 is dominated (it wins no more and keeps less), which keeps
each matrix at most 50 x 50.

Stored (JSON): ``{"version", "mana", "scale", "ends"}``: ``ends`` the base64 of the zlib of the
uint16 (little-endian) chances ``P[m][n][k][e]`` for m, n in 0..50, k in 1..5, e in -3..3 (index
``((m * 51 + n) * 5 + k - 1) * 7 + e + 3``), each scaled to 0..65535.
"""

from __future__ import annotations

import argparse
import base64
import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import linprog

MANA = 50
OUT = Path(__file__).resolve().parent.parent / "rules" / "ai" / "firewall_values.json"
SCALE = 65535


def solve_matrix(payoff: np.ndarray) -> tuple[float, np.ndarray]:
    """The value of the zero-sum game ``payoff`` (the row player maximizes) and the row player's
    equilibrium mix, by linear programming (a pure saddle point is taken at once)."""
    rows, cols = payoff.shape
    lower = payoff.min(axis=1).max()
    upper = payoff.max(axis=0).min()
    if upper - lower < 1e-12:  # a saddle point: a pure strategy for each
        mix = np.zeros(rows)
        mix[int(payoff.min(axis=1).argmax())] = 1.0
        return float(lower), mix
    # variables p_1..p_rows, v; maximize v: minimize -v; for each column: v - sum p_a M[a][b] <= 0
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((cols, 1))])
    b_ub = np.zeros(cols)
    a_eq = np.zeros((1, rows + 1))
    a_eq[0, :rows] = 1.0
    bounds = [(0.0, None)] * rows + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if not res.success:  # pragma: no cover - HiGHS solves every bounded game
        raise RuntimeError(res.message)
    return float(res.x[-1]), np.asarray(res.x[:rows])


def matrix_bets(m: int, n: int) -> tuple[int, int]:
    """How many bets each side considers: 1 .. min(own mana, other's mana + 1) (a higher bet wins
    the turn no better than other's mana + 1 and keeps less mana)."""
    return min(m, n + 1), min(n, m + 1)


def solve_round(mana: int = MANA) -> np.ndarray:
    """``P[m, n, k, e]``: the chance that the round ends ``e - 3`` flagstones toward the opponent
    from (m, n, k) (k 0..6; 0 and 6 the round's ends) under equilibrium play of the tug of war,
    for m, n in 0 .. ``mana`` (a position never depends on one with more mana, so a smaller
    ``mana`` gives the same chances: a test checks a slice)."""
    ends = np.linspace(0.0, 1.0, 7)
    v = np.zeros((mana + 1, mana + 1, 7))
    dist = np.zeros((mana + 1, mana + 1, 7, 7))
    eye = np.eye(7)
    mixes: dict[tuple[int, int, int], np.ndarray] = {}
    for total in range(0, 2 * mana + 1):
        pairs = [(m, total - m) for m in range(max(0, total - mana), min(mana, total) + 1)]
        for m, n in pairs:
            for k in range(0, 7):
                if k in (0, 6) or (m == 0 and n == 0):
                    end = k
                elif m == 0:
                    end = k - min(n, k)
                elif n == 0:
                    end = k + min(m, 6 - k)
                else:
                    continue
                v[m, n, k] = ends[end]
                dist[m, n, k] = eye[end]
        for m, n in pairs:
            if m == 0 or n == 0:
                continue
            rows, cols = matrix_bets(m, n)
            a = np.arange(1, rows + 1)[:, None]
            b = np.arange(1, cols + 1)[None, :]
            sign = np.sign(a - b)
            for k in range(1, 6):
                value, mix = solve_matrix(v[m - a, n - b, k + sign])
                v[m, n, k] = value
                mix = np.clip(mix, 0.0, None)
                mixes[(m, n, k)] = mix / mix.sum()
        for m, n in pairs:
            if m == 0 or n == 0:
                continue
            rows, cols = matrix_bets(m, n)
            a = np.arange(1, rows + 1)[:, None]
            b = np.arange(1, cols + 1)[None, :]
            sign = np.sign(a - b)
            for k in range(1, 6):
                p, q = mixes[(m, n, k)], mixes[(n, m, 6 - k)]
                nxt = dist[m - a, n - b, k + sign]  # rows x cols x 7
                dist[m, n, k] = np.einsum("a,b,abe->e", p, q, nxt)
    return dist


def encode(dist: np.ndarray) -> str:
    """The stored form of ``dist`` (k 1..5 only)."""
    inner = np.rint(dist[:, :, 1:6, :] * SCALE).astype("<u2")
    return base64.b64encode(zlib.compress(inner.tobytes(), 9)).decode()


def generate() -> dict[str, Any]:
    return {"version": 2, "mana": MANA, "scale": SCALE, "ends": encode(solve_round())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = generate()
    args.out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
