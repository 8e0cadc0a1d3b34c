"""The ground of an Arena game as it stands: the terrain and the occupied squares (as sets and as
bit boards, see board.py), line of sight through the terrain, and where Player 1 may still put
terrain. Functions of an :class:`~.state.ArenaState` that only read it (but for the memo of the
terrain as a set and as bits, which they keep up to date).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from .actions import PlaceTerrain, place_terrain
from .board import EDGES, Square, board_bits, crossed, edge_squares, on_board, square_bit, square_bits, squares_in
from .pieces import Model

if TYPE_CHECKING:
    from .state import ArenaState


@cache
def _terrain_actions(size: int) -> tuple[tuple[Square, PlaceTerrain], ...]:
    """Every square of the board in reading order with the action placing terrain there."""
    return tuple((sq, place_terrain(sq)) for sq in squares_in(board_bits(size), size))


def occupant(st: ArenaState, sq: Square) -> Model | None:
    for m in st.models.values():
        if m.pos == sq:
            return m
    return None


def is_free(st: ArenaState, sq: Square) -> bool:
    return on_board(sq, st.size) and sq not in st.terrain and occupant(st, sq) is None


def blocked_squares(st: ArenaState) -> set[Square]:
    """The squares with terrain or a model on them now (``ArenaState.blocked``)."""
    if st._terrain_src is not st.terrain:
        _terrain_memo(st)
    out = set(st._terrain_set)
    out.update([m.pos for m in st.models.values()])
    return out


def free_test(st: ArenaState) -> Callable[[Square], bool]:
    """``is_free`` for many squares of the board as it is now (models and terrain stay put)."""
    blocked = blocked_squares(st)
    size = st.size

    def free(sq: Square) -> bool:
        return 0 <= sq[0] < size and 0 <= sq[1] < size and sq not in blocked

    return free


def _terrain_memo(st: ArenaState) -> None:
    """Remember the terrain as a set and as bits (``terrain`` is replaced, never changed in place)."""
    st._terrain_src = st.terrain
    st._terrain_set = frozenset(st.terrain)
    n = st.size
    st._terrain_bits = sum(square_bit(sq, n) for sq in st._terrain_set if on_board(sq, n))


def blocked_bits(st: ArenaState) -> int:
    """``blocked_squares()`` as bits (see board.py)."""
    if st._terrain_src is not st.terrain:
        _terrain_memo(st)
    bit = square_bits(st.size)
    out = st._terrain_bits
    for m in st.models.values():
        out |= bit[m.pos]
    return out


def blocker(st: ArenaState, a: Square, b: Square) -> Square | None:
    """``first_blocker(a, b, st.terrain)``: the first terrain square the line crosses."""
    if st._terrain_src is not st.terrain:
        _terrain_memo(st)
    terrain = st._terrain_set
    for t in crossed(a, b):
        if t in terrain:
            return t
    return None


def _tight_edges(st: ArenaState) -> tuple[Square, ...] | None:
    """For terrain placement: None when some board edge has fewer than 2 free squares (no
    terrain may go anywhere), else the unit steps (see ``EDGES``) of the edges with exactly 2
    free squares (terrain may not go on those)."""
    n = st.size
    terrain = set(st.terrain)
    tight = []
    for e, unit in EDGES.items():
        free = sum(1 for s in edge_squares(e, n) if s not in terrain)
        if free < 2:
            return None
        if free == 2:
            tight.append(unit)
    return tuple(tight)


def _on_edge(sq: Square, unit: Square, n: int) -> bool:
    x, y = sq
    dx, dy = unit
    return (dy == -1 and y == 0) or (dy == 1 and y == n - 1) or (dx == -1 and x == 0) or (dx == 1 and x == n - 1)


def terrain_allowed(st: ArenaState, sq: Square) -> bool:
    """Whether Player 1 may put terrain on ``sq`` now (see ``terrain_squares``)."""
    n = st.size
    if not on_board(sq, n) or sq in st.terrain:
        return False
    tight = _tight_edges(st)
    return tight is not None and not any(_on_edge(sq, u, n) for u in tight)


def terrain_squares(st: ArenaState) -> list[Square]:
    """Squares Player 1 may still put terrain on: free, and every board edge keeps at least 2
    free squares (so both teams can always deploy)."""
    n = st.size
    tight = _tight_edges(st)
    if tight is None:
        return []
    terrain = set(st.terrain)
    squares = squares_in(board_bits(n), n)
    if not tight:
        return [sq for sq in squares if sq not in terrain]
    on_edge = _on_edge
    return [sq for sq in squares if sq not in terrain and not any(on_edge(sq, u, n) for u in tight)]


def terrain_actions(st: ArenaState) -> list[PlaceTerrain]:
    """``[place_terrain(sq) for sq in terrain_squares()]``."""
    n = st.size
    tight = _tight_edges(st)
    if tight:
        return [place_terrain(sq) for sq in terrain_squares(st)]
    if tight is None:
        return []
    terrain = set(st.terrain)
    return [a for sq, a in _terrain_actions(n) if sq not in terrain]


__all__ = [
    "blocked_bits",
    "blocked_squares",
    "blocker",
    "free_test",
    "is_free",
    "occupant",
    "terrain_actions",
    "terrain_allowed",
    "terrain_squares",
]
