"""The ground of an Arena game as it stands: the terrain and the occupied squares (as sets and as
bit boards, see board.py), line of sight through the terrain, and where Player 1 may still put
terrain. :class:`Ground` is the base of :class:`~.table.Table`, which sets its attributes up.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .actions import PlaceTerrain, place_terrain
from .board import EDGES, Square, board_bits, crossed, edge_squares, on_board, square_bit, square_bits, squares_in
from .pieces import Model


@cache
def _terrain_actions(size: int) -> tuple[tuple[Square, PlaceTerrain], ...]:
    """Every square of the board in reading order with the action placing terrain there."""
    return tuple((sq, place_terrain(sq)) for sq in squares_in(board_bits(size), size))


class Ground:
    """The board's squares now: terrain and models (the attributes are set by ``Table``)."""

    size: int
    terrain: list[Square]
    models: dict[str, Model]
    #: The terrain list the memo (``_terrain_set``, ``_terrain_bits``) was made from.
    _terrain_src: list[Square] | None
    _terrain_set: frozenset[Square]
    _terrain_bits: int

    def occupant(self, sq: Square) -> Model | None:
        for m in self.models.values():
            if m.pos == sq:
                return m
        return None

    def is_free(self, sq: Square) -> bool:
        return on_board(sq, self.size) and sq not in self.terrain and self.occupant(sq) is None

    def blocked(self) -> set[Square]:
        """The squares with terrain or a model on them now."""
        if self._terrain_src is not self.terrain:
            self._terrain_memo()
        out = set(self._terrain_set)
        out.update([m.pos for m in self.models.values()])
        return out

    def free_test(self) -> Callable[[Square], bool]:
        """``is_free`` for many squares of the board as it is now (models and terrain stay put)."""
        blocked = self.blocked()
        size = self.size

        def free(sq: Square) -> bool:
            return 0 <= sq[0] < size and 0 <= sq[1] < size and sq not in blocked

        return free

    def _terrain_memo(self) -> None:
        """Remember the terrain as a set and as bits (``terrain`` is replaced, never changed in place)."""
        self._terrain_src = self.terrain
        self._terrain_set = frozenset(self.terrain)
        n = self.size
        self._terrain_bits = sum(square_bit(sq, n) for sq in self._terrain_set if on_board(sq, n))

    def blocked_bits(self) -> int:
        """``blocked()`` as bits (see board.py)."""
        if self._terrain_src is not self.terrain:
            self._terrain_memo()
        bit = square_bits(self.size)
        out = self._terrain_bits
        for m in self.models.values():
            out |= bit[m.pos]
        return out

    def blocker(self, a: Square, b: Square) -> Square | None:
        """``first_blocker(a, b, self.terrain)``: the first terrain square the line crosses."""
        if self._terrain_src is not self.terrain:
            self._terrain_memo()
        terrain = self._terrain_set
        for t in crossed(a, b):
            if t in terrain:
                return t
        return None

    def _tight_edges(self) -> tuple[Square, ...] | None:
        """For terrain placement: None when some board edge has fewer than 2 free squares (no
        terrain may go anywhere), else the unit steps (see ``EDGES``) of the edges with exactly 2
        free squares (terrain may not go on those)."""
        n = self.size
        terrain = set(self.terrain)
        tight = []
        for e, unit in EDGES.items():
            free = sum(1 for s in edge_squares(e, n) if s not in terrain)
            if free < 2:
                return None
            if free == 2:
                tight.append(unit)
        return tuple(tight)

    @staticmethod
    def _on_edge(sq: Square, unit: Square, n: int) -> bool:
        x, y = sq
        dx, dy = unit
        return (dy == -1 and y == 0) or (dy == 1 and y == n - 1) or (dx == -1 and x == 0) or (dx == 1 and x == n - 1)

    def terrain_allowed(self, sq: Square) -> bool:
        """Whether Player 1 may put terrain on ``sq`` now (see ``terrain_squares``)."""
        n = self.size
        if not on_board(sq, n) or sq in self.terrain:
            return False
        tight = self._tight_edges()
        return tight is not None and not any(self._on_edge(sq, u, n) for u in tight)

    def terrain_squares(self) -> list[Square]:
        """Squares Player 1 may still put terrain on: free, and every board edge keeps at least 2
        free squares (so both teams can always deploy)."""
        n = self.size
        tight = self._tight_edges()
        if tight is None:
            return []
        terrain = set(self.terrain)
        squares = squares_in(board_bits(n), n)
        if not tight:
            return [sq for sq in squares if sq not in terrain]
        on_edge = self._on_edge
        return [sq for sq in squares if sq not in terrain and not any(on_edge(sq, u, n) for u in tight)]

    def terrain_actions(self) -> list[PlaceTerrain]:
        """``[place_terrain(sq) for sq in terrain_squares()]``."""
        n = self.size
        tight = self._tight_edges()
        if tight:
            return [place_terrain(sq) for sq in self.terrain_squares()]
        if tight is None:
            return []
        terrain = set(self.terrain)
        return [a for sq, a in _terrain_actions(n) if sq not in terrain]


__all__ = ["Ground"]
