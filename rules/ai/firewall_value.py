"""Firewall's bidding game value: each seat's chance of winning the match from the mana, the wall
and the bridge, with both seats betting the equilibrium of every turn (spells left aside).

The table ``firewall_values.json`` (made by ``python -m bench.firewall_values``, which says how)
holds, for every position of a round ``(m, n, k)`` (my mana, the opponent's, the wall's distance
to my wizard 1..5), the chance of each place ``e`` (-3 .. 3 flagstones toward the opponent from
where the round began) where the round leaves the wall when both seats play the round's
equilibrium. The match is read on top of it (docs/rulings/firewall.md, rules 21 to 24): a round
that leaves the wall ``e`` from where it began, in the match context ``(x, d)`` (``x``: where the
wall began the round, counted from my end of the bridge; ``d``: flagstones broken at each end),
sets the wizards 3 from it and breaks one more flagstone at each end; a wizard on a broken one
loses (both: a draw); otherwise the next round starts with 50 mana each, whose value is computed
the same way (:func:`match_value`). A position's value is the sum over ``e`` of its chance times
that round end's value (:func:`value`).

:func:`equilibrium` re-solves the present turn's simultaneous bet as a zero-sum matrix game whose
entries are these values for the match context at hand (fictitious play, pure Python): the bet mix
the AI draws from (a mix, so it cannot be read and exploited). Pure: the standard library only.
"""

from __future__ import annotations

import base64
import json
import zlib
from array import array
from functools import cache, lru_cache
from pathlib import Path
from sys import byteorder

from ..firewall.table import FirewallTable

MANA = 50
BRIDGE = 19
GAP = 3
#: Fictitious-play rounds per solved bet (a 50 x 50 game: about 20 ms of CPU).
FP_ROUNDS = 1500
#: Bets the equilibrium plays less often than this are dropped (fictitious play's stray tries).
MIN_SHARE = 0.03
#: The weight of the round's tug of war (where the round leaves the wall, -0.5 .. 0.5) added to a
#: position's match value in :func:`value`: among lines of equal match value (a round already won
#: or lost on mana alone, in the game without spells) it prefers the one that pushes the wall
#: farther, the robust one when spells can still turn a turn.
TUG = 0.03
#: The chance that a turn won on the bets is turned by an opponent who may hold a spell that does
#: it (Resistance, Winner Loses, a boost...: ``exposed`` in :func:`equilibrium`): the wall then
#: stays. It makes the all-or-nothing bets (the opponent's mana + 1) cost what they risk.
SPELL_RISK = 0.25
#: A tie-breaker of the equilibrium's turn game: winning the turn itself (among bets of equal value,
#: in a round decided by mana alone, the one that moves the wall now: spells can still intervene).
TURN_WON = 0.002
_TUG_ENDS = tuple((e + GAP) / (2 * GAP) - 0.5 for e in range(-GAP, GAP + 1))

_TABLE: array[int] | None = None
_STRIDE = 7


def _table() -> array[int]:
    """The stored chances, decoded once (uint16, scaled to 0..65535)."""
    global _TABLE
    if _TABLE is None:
        data = json.loads((Path(__file__).with_name("firewall_values.json")).read_text())
        raw = zlib.decompress(base64.b64decode(data["ends"]))
        table: array[int] = array("H")
        table.frombytes(raw)
        if byteorder == "big":  # pragma: no cover - stored little-endian
            table.byteswap()
        assert len(table) == (MANA + 1) * (MANA + 1) * 5 * _STRIDE
        _TABLE = table
    return _TABLE


def ends(m: int, n: int, k: int) -> tuple[float, ...]:
    """The chances (sum 1) that the round from (m, n, k) ends with the wall e = -3 .. 3 flagstones
    toward the opponent from where it began, under the tug of war's equilibrium."""
    if k <= 0:
        return (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    if k >= 6:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    i = ((min(m, MANA) * (MANA + 1) + min(n, MANA)) * 5 + k - 1) * _STRIDE
    row = _table()[i : i + _STRIDE]
    total = sum(row) or 1
    return tuple(c / total for c in row)


def _falls(x: int, d: int) -> tuple[bool, bool]:
    """Whether I and the opponent fall when a round ends with the wall on ``x`` (from my end) and
    ``d`` flagstones then broken at each end (rule 22)."""
    return x - GAP < d, x + GAP >= BRIDGE - d


@cache
def round_ends(x: int, d: int) -> tuple[float, ...]:
    """My match value when the round of context (x, d) ends e = -3 .. 3 flagstones toward the
    opponent from where it began."""
    out = []
    for e in range(-GAP, GAP + 1):
        me, opp = _falls(x + e, d + 1)
        out.append(0.5 if me and opp else 0.0 if me else 1.0 if opp else match_value(x + e, d + 1))
    return tuple(out)


@cache
def match_value(x: int, d: int) -> float:
    """My chance of winning the match at the start of a round of context (x, d) (50 mana each)."""
    return _dot(ends(MANA, MANA, GAP), round_ends(x, d))


def _dot(p: tuple[float, ...], v: tuple[float, ...]) -> float:
    return sum(a * b for a, b in zip(p, v, strict=True))


def value(x: int, d: int, m: int, n: int, k: int) -> float:
    """My chance of winning the match from the round position (m, n, k) in context (x, d), plus
    :data:`TUG` times where the round leaves the wall."""
    r = round_ends(x, d)
    if k <= 0:
        return r[0] - TUG / 2
    if k >= 6:
        return r[6] + TUG / 2
    p = ends(m, n, k)
    return _dot(p, r) + TUG * _dot(p, _TUG_ENDS)


def context(table: FirewallTable, seat: int) -> tuple[int, int, int, int, int]:
    """(x, d, m, n, k) of ``seat`` in a Firewall table (its public part only)."""
    start, players = table.round_start_wall, table.players
    x = start if seat == 0 else BRIDGE - 1 - start
    k = abs(table.wall - players[seat].wizard)
    return x, table.broken_depth, players[seat].mana, players[1 - seat].mana, k


def state_value(table: FirewallTable, seat: int) -> float:
    """``seat``'s chance of winning the match from a Firewall table (spells left aside)."""
    return value(*context(table, seat))


@lru_cache(maxsize=4096)
def equilibrium(x: int, d: int, m: int, n: int, k: int, exposed: bool = False) -> tuple[tuple[int, float], ...]:
    """My equilibrium bet mix at (m, n, k) in context (x, d): (bet, share) pairs, shares summing
    to 1. A bet above n + 1 is never needed (it wins no more and keeps less); the last mana is
    not bet into a loss (:func:`top_bet`; ``exposed``: the opponent may hold a spell that turns
    a turn)."""
    if m <= 1 or n <= 0:
        return ((1, 1.0),) if m >= 1 else ()
    rows, cols = min(top_bet(m, n, k, exposed), n + 1), min(n, m + 1)
    risk = SPELL_RISK if exposed else 0.0
    matrix = []
    for a in range(1, rows + 1):
        line = []
        for b in range(1, cols + 1):
            step = 1 if a > b else -1 if a < b else 0
            entry = value(x, d, m - a, n - b, k + step) + TURN_WON * step
            if step > 0 and risk:  # the opponent's spell may keep the wall where it stands
                entry = (1 - risk) * entry + risk * value(x, d, m - a, n - b, k)
            line.append(entry)
        matrix.append(line)
    counts = _fictitious_play(matrix, FP_ROUNDS)
    total = sum(counts)
    mix = [(a + 1, c / total) for a, c in enumerate(counts) if c / total >= MIN_SHARE]
    kept = sum(s for _, s in mix)
    return tuple((a, s / kept) for a, s in mix)


def top_bet(m: int, n: int, k: int, exposed: bool = False) -> int:
    """The highest bet worth considering with ``m`` mana against ``n``, the wall ``k`` from my
    wizard: not the last mana when the opponent, betting 1, would keep enough to push the wall onto
    my wizard even after I win the turn (docs/rulings/firewall.md, rule 21), unless that win ends
    the round (the wall one flagstone from the opponent's wizard) and the opponent cannot turn
    the turn with a spell (``exposed``: it may hold Resistance, Winner Loses, a boost...)."""
    wins_round = k + 1 >= 2 * GAP and not exposed
    reach = k if exposed else k + 1  # where the wall stands after the turn: kept, or won
    if m > 1 and not wins_round and n - 1 >= reach:
        return m - 1
    return m


def _fictitious_play(matrix: list[list[float]], rounds: int) -> list[int]:
    """How often the row player's best reply was each row, over ``rounds`` of fictitious play of
    the zero-sum game ``matrix`` (rows maximize): its frequencies approach an equilibrium mix."""
    rows, cols = len(matrix), len(matrix[0])
    columns = [list(c) for c in zip(*matrix, strict=True)]
    row_total = [0.0] * rows
    col_total = [0.0] * cols
    counts = [0] * rows
    for _ in range(rounds):
        a = row_total.index(max(row_total))
        counts[a] += 1
        col_total = [t + v for t, v in zip(col_total, matrix[a], strict=True)]
        b = col_total.index(min(col_total))
        row_total = [t + v for t, v in zip(row_total, columns[b], strict=True)]
    return counts
