"""Arena geometry: squares, labels, orthogonal distance, movement (BFS) and line of sight.

Coordinates: a square is ``(x, y)`` with ``x`` the column (0 = column A, left) and ``y`` the row
(0 = row 1, the south edge). Labels read ``"A1"`` .. ``"J10"``. Distance is orthogonal (Manhattan):
diagonal steps are not allowed, "staircase" paths are.

Line of sight is exact integer geometry: square centres are at odd doubled coordinates
``(2x+1, 2y+1)``; the segment between two centres is blocked by a terrain square when it passes
through that square's open interior. A segment that only touches a corner (or runs along an edge)
is not blocked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TypeVar

from ..memo import bounded

Square = tuple[int, int]
T = TypeVar("T")

#: The four board edges and the unit step toward each.
EDGES: dict[str, Square] = {"south": (0, -1), "north": (0, 1), "west": (-1, 0), "east": (1, 0)}
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}


def label(sq: Square) -> str:
    x, y = sq
    return f"{chr(ord('A') + x)}{y + 1}"


def parse_label(text: str) -> Square:
    """``"C4"`` -> ``(2, 3)``. Raises ValueError for anything else."""
    t = text.strip().upper()
    if len(t) < 2 or not t[0].isalpha() or not t[1:].isdigit():
        raise ValueError(f"{text!r} is not a square like 'C4' (column letter, row number)")
    return (ord(t[0]) - ord("A"), int(t[1:]) - 1)


def manhattan(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def on_board(sq: Square, size: int) -> bool:
    return 0 <= sq[0] < size and 0 <= sq[1] < size


def neighbours(sq: Square, size: int) -> list[Square]:
    x, y = sq
    out = [(x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)]
    return [s for s in out if on_board(s, size)]


def edge_squares(edge: str, size: int) -> list[Square]:
    if edge == "south":
        return [(x, 0) for x in range(size)]
    if edge == "north":
        return [(x, size - 1) for x in range(size)]
    if edge == "west":
        return [(0, y) for y in range(size)]
    return [(size - 1, y) for y in range(size)]


def is_edge_square(sq: Square, size: int) -> bool:
    return sq[0] in (0, size - 1) or sq[1] in (0, size - 1)


def mirror(sq: Square, size: int) -> Square:
    """The square symmetric about the centre of the board (a half turn)."""
    return (size - 1 - sq[0], size - 1 - sq[1])


def within(centre: Square, dist: int, size: int) -> list[Square]:
    """Every square at orthogonal distance 1..dist from ``centre`` (not the centre), in row order."""
    cx, cy = centre
    out = []
    for y in range(max(0, cy - dist), min(size, cy + dist + 1)):
        for x in range(max(0, cx - dist), min(size, cx + dist + 1)):
            d = abs(x - cx) + abs(y - cy)
            if 0 < d <= dist:
                out.append((x, y))
    return out


def reachable(start: Square, steps: int, size: int, passable: Callable[[Square], bool]) -> dict[Square, list[Square]]:
    """Breadth-first search: every square reachable in 1..steps orthogonal steps through passable
    squares, mapped to one shortest path (start excluded, destination included)."""
    paths: dict[Square, list[Square]] = {start: []}
    frontier = [start]
    for _ in range(steps):  # level by level: the order of a breadth-first queue
        reached: list[Square] = []
        for sq in frontier:
            x, y = sq
            path = paths[sq]
            for nb in ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)):
                if nb not in paths and 0 <= nb[0] < size and 0 <= nb[1] < size and passable(nb):
                    paths[nb] = [*path, nb]
                    reached.append(nb)
        if not reached:
            break
        frontier = reached
    del paths[start]
    return paths


def reachable_squares(start: Square, steps: int, size: int, blocked: set[Square] | frozenset[Square]) -> set[Square]:
    """The squares of :func:`reachable` through squares not in ``blocked``, without their paths."""
    table = neighbour_table(size)
    seen = {start}
    frontier = [start]
    for _ in range(steps):
        reached: list[Square] = []
        for sq in frontier:
            for nb in table[sq]:
                if nb not in seen and nb not in blocked:
                    seen.add(nb)
                    reached.append(nb)
        if not reached:
            break
        frontier = reached
    seen.discard(start)
    return seen


def path_to(start: Square, dest: Square, steps: int, size: int, blocked: set[Square]) -> list[Square] | None:
    """``reachable(start, steps, size, free)[dest]`` (the same shortest path) with ``free`` the
    on-board squares not in ``blocked``, or None when ``dest`` is not reachable."""
    table = neighbour_table(size)
    parent: dict[Square, Square] = {start: start}
    frontier = [start]
    for _ in range(steps):
        reached: list[Square] = []
        for sq in frontier:
            for nb in table[sq]:
                if nb not in parent and nb not in blocked:
                    parent[nb] = sq
                    if nb == dest:
                        path = [nb]
                        while (sq := parent[nb]) != start:
                            path.append(sq)
                            nb = sq
                        path.reverse()
                        return path
                    reached.append(nb)
        if not reached:
            break
        frontier = reached
    return None


# Bit boards: square (x, y) is bit y * (size + 1) + x (one padding column per row, never on the
# board, so that shifting by 1 does not wrap from one row into the next). Bits ascend in reading
# order (row by row from the south-west corner), the order of ``rowkey``.
_PAD: Square = (-1, -1)


@cache
def board_bits(size: int) -> int:
    """The bits of every square of the board."""
    row = (1 << size) - 1
    return sum(row << (y * (size + 1)) for y in range(size))


@cache
def bit_squares(size: int) -> tuple[Square, ...]:
    """Bit index -> square (padding bits map to an off-board square and are never set)."""
    w = size + 1
    return tuple((i % w, i // w) if i % w < size else _PAD for i in range(w * size))


def square_bit(sq: Square, size: int) -> int:
    """The bit of an on-board square."""
    return 1 << (sq[1] * (size + 1) + sq[0])


def reach_bits(start: Square, steps: int, size: int, blocked: int) -> int:
    """:func:`reachable_squares` as bits, with ``blocked`` as bits."""
    w = size + 1
    free = board_bits(size) & ~blocked
    first = 1 << (start[1] * w + start[0])
    seen = frontier = first
    for _ in range(steps):
        f = frontier
        f = ((f << 1) | (f >> 1) | (f << w) | (f >> w)) & free & ~seen
        if not f:
            break
        seen |= f
        frontier = f
    return seen & ~first


@cache
def byte_squares(size: int) -> tuple[int, list[list[tuple[Square, ...]]]]:
    """(the number of bytes of a board's bits, and per byte of the bits and per value of that
    byte the squares of its set bits in order)."""
    return byte_table(size, bit_squares(size))


def byte_table(size: int, items: Sequence[T]) -> tuple[int, list[list[tuple[T, ...]]]]:
    """Per byte of a board's bits and per value of that byte: the ``items`` (one per bit index)
    of its set bits, in bit order."""
    nbytes = (len(bit_squares(size)) + 7) // 8
    rows: list[list[tuple[T, ...]]] = []
    for k in range(nbytes):
        row: list[tuple[T, ...]] = [()]
        for v in range(1, 256):
            low = v & -v
            i = k * 8 + low.bit_length() - 1
            # the lowest bit first, then the others (already in the row)
            row.append((items[i], *row[v ^ low]) if i < len(items) else row[v ^ low])
        rows.append(row)
    return nbytes, rows


def squares_in(bits: int, size: int) -> list[Square]:
    """The squares of ``bits`` in reading order (sorted by ``rowkey``)."""
    nbytes, rows = byte_squares(size)
    out: list[Square] = []
    for row, byte in zip(rows, bits.to_bytes(nbytes, "little"), strict=True):
        if byte:
            out += row[byte]
    return out


@cache
def neighbour_table(size: int) -> dict[Square, tuple[Square, ...]]:
    """Every square's orthogonal neighbours on the board, in :func:`neighbours` order."""
    return {(x, y): tuple(neighbours((x, y), size)) for x in range(size) for y in range(size)}


@cache
def square_bits(size: int) -> dict[Square, int]:
    """Every square of the board -> its bit."""
    return {(x, y): square_bit((x, y), size) for x in range(size) for y in range(size)}


@cache
def neighbour_bits(size: int) -> dict[Square, int]:
    """Every square's orthogonal neighbours on the board, as bits."""
    return {sq: sum(square_bit(nb, size) for nb in nbs) for sq, nbs in neighbour_table(size).items()}


@cache
def within_bits(centre: Square, dist: int, size: int) -> int:
    """The squares of :func:`within` as bits."""
    return sum(square_bit(sq, size) for sq in within(centre, dist, size))


def _segment_crosses_square(a: Square, b: Square, t: Square) -> bool:
    """Whether the segment between the centres of ``a`` and ``b`` passes through the open
    interior of square ``t`` (exact: integer arithmetic on fractions ``num / den``, ``den > 0``)."""
    if a == b:
        return False
    px, py = 2 * a[0] + 1, 2 * a[1] + 1
    dx, dy = 2 * (b[0] - a[0]), 2 * (b[1] - a[1])
    # For the open box (2tx, 2tx+2) x (2ty, 2ty+2): the parameters s with p + s*d strictly inside,
    # per axis the open interval (lo/den, hi/den).
    bounds: list[tuple[int, int, int]] = []
    for p, d, t0 in ((px, dx, 2 * t[0]), (py, dy, 2 * t[1])):
        if d == 0:
            if not t0 < p < t0 + 2:
                return False
            continue
        n1, n2 = t0 - p, t0 + 2 - p
        if d < 0:
            n1, n2, d = -n1, -n2, -d
        bounds.append((min(n1, n2), max(n1, n2), d))
    # The open interval (max lo, min hi) meets the closed [0, 1]: the two axis intervals are open,
    # so strict comparisons; 0 and 1 themselves are centres of non-terrain squares.
    low_n, low_d = bounds[0][0], bounds[0][2]
    high_n, high_d = bounds[0][1], bounds[0][2]
    for lo, hi, d in bounds[1:]:
        if lo * low_d > low_n * d:
            low_n, low_d = lo, d
        if hi * high_d < high_n * d:
            high_n, high_d = hi, d
    return low_n * high_d < high_n * low_d and low_n < low_d and high_n > 0


segment_crosses_square = cache(_segment_crosses_square)


def line_of_sight(a: Square, b: Square, terrain: Iterable[Square]) -> bool:
    """True when no terrain square's interior lies on the segment between the two centres."""
    return first_blocker(a, b, terrain) is None


def first_blocker(a: Square, b: Square, terrain: Iterable[Square]) -> Square | None:
    """The first terrain square (in (x, y) order) whose interior the segment crosses, if any."""
    ts = set(terrain)
    for t in crossed(a, b):
        if t in ts:
            return t
    return None


@bounded(4096)
def crossed(a: Square, b: Square) -> tuple[Square, ...]:
    """The squares other than ``a`` and ``b`` whose interior the segment between their centres
    crosses, in (x, y) order: ``first_blocker(a, b, terrain)`` is the first of them in
    ``terrain``. (The geometry is the same under translation: see ``_crossed_from_origin``.)"""
    ax, ay = a
    return tuple([(ax + x, ay + y) for x, y in _crossed_from_origin(b[0] - ax, b[1] - ay)])


@cache
def _crossed_from_origin(dx: int, dy: int) -> tuple[Square, ...]:
    """``crossed((0, 0), (dx, dy))``. The segment stays inside the rectangle of squares spanned by
    its two ends."""
    a, b = (0, 0), (dx, dy)
    xs = range(min(0, dx), max(0, dx) + 1)
    ys = range(min(0, dy), max(0, dy) + 1)
    return tuple(t for t in ((x, y) for x in xs for y in ys) if t != a and t != b and _segment_crosses_square(a, b, t))


def rowkey(sq: Square) -> tuple[int, int]:
    """Squares in reading order from the south-west corner: row by row."""
    return (sq[1], sq[0])
