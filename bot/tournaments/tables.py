"""Magic Duel tables: how many tables of which size, and who sits where.

**Table sizes** (:func:`table_sizes`): tables of 3 to 8 seats, as many of 4 as possible; never 1
or 2 seats unless the whole round has only 2 players (then one table of 2). With ``n = 4q + r``:
r = 0: q tables of 4; r = 1: one table of 5 and the rest of 4 (5 alone: one table of 5); r = 2:
two tables of 3 and the rest of 4 (6: two of 3); r = 3: one table of 3 and the rest of 4. This
keeps every table within one seat of 4.

**Swiss seating** (:func:`seat_tables`): the players in standings order fill the tables in order
(the best at table 1), so players of equal standing meet, as in Swiss. Then repeats are avoided
where possible: a local search swaps players between tables when the swap lowers the number of
pairs seated together again (an earlier table shared) and costs at most a small rank distance,
until no swap helps. A repeat remains only where the search finds no better seating (with few
players it is often unavoidable: 3 players always share their table).

Seat order at a table: seat 0 leads the first hand in Magic Duel, so seats are ordered by how
often each player led (fewest first), then by standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.model import PlayerId

MIN_TABLE = 3
MAX_TABLE = 8


def table_sizes(n: int) -> list[int]:
    """Sizes of the tables for ``n`` players (largest first); ``[]`` for fewer than 2."""
    if n < 2:
        return []
    if n <= 5:
        return [n]
    q, r = divmod(n, 4)
    if r == 0:
        return [4] * q
    if r == 1:
        return [5] + [4] * (q - 1)
    if r == 2:
        return [4] * (q - 1) + [3, 3]
    return [4] * q + [3]


def _pairs_met(table: Sequence[PlayerId], met: Mapping[PlayerId, Mapping[PlayerId, int]]) -> int:
    total = 0
    for i, a in enumerate(table):
        row = met.get(a, {})
        for b in table[i + 1 :]:
            total += row.get(b, 0)
    return total


def seat_tables(
    ranked: Sequence[PlayerId],
    met: Mapping[PlayerId, Mapping[PlayerId, int]],
    leads: Mapping[PlayerId, int],
    *,
    max_rank_shift: int = 8,
) -> list[tuple[PlayerId, ...]]:
    """Seat ``ranked`` (best first) at tables; ``met[a][b]``: how often a and b shared a table."""
    sizes = table_sizes(len(ranked))
    tables: list[list[PlayerId]] = []
    start = 0
    for size in sizes:
        tables.append(list(ranked[start : start + size]))
        start += size
    rank = {p: i for i, p in enumerate(ranked)}

    def home(p: PlayerId, t: int) -> int:
        """How far ``p`` would sit from the tables its rank belongs to."""
        first = sum(sizes[:t])
        last = first + sizes[t] - 1
        r = rank[p]
        return 0 if first <= r <= last else min(abs(r - first), abs(r - last))

    improved = True
    passes = 0
    while improved and passes < 50:
        improved = False
        passes += 1
        for t1 in range(len(tables)):
            if _pairs_met(tables[t1], met) == 0:
                continue
            # try the neighbouring tables first: they hold players of nearly the same standing
            for t2 in sorted(range(len(tables)), key=lambda t: abs(t - t1)):
                if t2 == t1:
                    continue
                for a in list(tables[t1]):
                    for b in list(tables[t2]):
                        if home(b, t1) > max_rank_shift or home(a, t2) > max_rank_shift:
                            continue
                        before = _pairs_met(tables[t1], met) + _pairs_met(tables[t2], met)
                        new1 = [b if p == a else p for p in tables[t1]]
                        new2 = [a if p == b else p for p in tables[t2]]
                        after = _pairs_met(new1, met) + _pairs_met(new2, met)
                        if after < before:
                            tables[t1], tables[t2] = new1, new2
                            improved = True
                            break
                    if improved:
                        break
                if improved:
                    break
            if improved:
                break
    return [tuple(sorted(table, key=lambda p: (leads.get(p, 0), rank[p]))) for table in tables]


def repeat_pairs(tables: Sequence[Sequence[PlayerId]], met: Mapping[PlayerId, Mapping[PlayerId, int]]) -> int:
    """How many pairs of players in ``tables`` have shared a table before."""
    return sum(_pairs_met(table, met) for table in tables)
