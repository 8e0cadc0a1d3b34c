"""Round robin: a full schedule by the circle method, first seats balanced.

:func:`schedule` takes the players (in seed order) and returns every round's pairs. With an odd
count a bye seat (``None``) joins, so each round one player rests (a bye: a win, 3 points). The
circle method fixes the first player and rotates the others one place a round; ``n`` players
(rounded up to even) play ``n - 1`` rounds and everyone meets everyone exactly once.

Seats: the orientation of each pair does not depend on the round. Number the real players
0..n-1. For odd n, i has the first seat against j when ``(j - i) mod n`` is in ``1..(n-1)/2``
(every player gets exactly (n-1)/2 first seats). For even n the same rule on players 0..n-2 and
the last player has the first seat against the odd-numbered ones: every player gets n/2 - 1 or
n/2 first seats.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import PlayerId


def first_seat(i: int, j: int, n: int) -> bool:
    """Whether player number ``i`` has the first seat against ``j`` among ``n`` real players."""
    if n % 2 == 1:
        return 1 <= (j - i) % n <= (n - 1) // 2
    last = n - 1
    if i == last:
        return j % 2 == 1
    if j == last:
        return i % 2 == 0
    return 1 <= (j - i) % (n - 1) <= (n - 2) // 2


def schedule(players: Sequence[PlayerId]) -> list[list[tuple[PlayerId, PlayerId | None]]]:
    """Every round of a round robin: a list of (first seat, second seat) pairs; a bye is
    ``(player, None)`` (listed last)."""
    n = len(players)
    number = {p: i for i, p in enumerate(players)}
    circle: list[PlayerId | None] = list(players)
    if n % 2 == 1:
        circle.append(None)
    m = len(circle)
    rounds: list[list[tuple[PlayerId, PlayerId | None]]] = []
    for _ in range(m - 1):
        pairs: list[tuple[PlayerId, PlayerId | None]] = []
        byes: list[tuple[PlayerId, PlayerId | None]] = []
        for k in range(m // 2):
            a, b = circle[k], circle[m - 1 - k]
            if a is None or b is None:
                rest = a if a is not None else b
                if rest is not None:
                    byes.append((rest, None))
                continue
            if first_seat(number[a], number[b], n):
                pairs.append((a, b))
            else:
                pairs.append((b, a))
        rounds.append(pairs + byes)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def rounds_needed(n: int) -> int:
    """Rounds of a round robin of ``n`` players."""
    return n - 1 if n % 2 == 0 else n
