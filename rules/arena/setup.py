"""The set-up: who is Player 1, Disciplines, terrain (placed or laid out at random), board edges,
deployment and the crowd roll-off that ends it. Functions of an :class:`~.state.ArenaState`.

Player 1 and Player 2 are roles: ``ArenaState.player_one`` is the seat the first roll-off made
Player 1 (or seat 0, the challenger, with the option ``first_player: "challenger"``). Player 1
places the terrain, Player 2 picks the edge, Player 1 deploys first, plays the first turn and
the odd turns.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

from ..core import ActionModel, seat_ref
from ..errors import IllegalAction
from ..lazy import LazySeq, nth_combination
from .actions import ChooseDiscipline, ChooseEdge, Deploy, PlaceTerrain, RandomTerrain, TerrainLayout
from .board import OPPOSITE, Square, is_edge_square, label, mirror, on_board, rowkey
from .game import Phase
from .steps import step
from .table import emit, gain_favour, place_minion, place_wizard, push, request_roll

if TYPE_CHECKING:
    from .state import ArenaState


FIRST_PLAYER_LABEL = "the roll-off for Player 1 ({p1}, {p2})"
ROLLOFF_LABEL = "the crowd roll-off (Player 1, Player 2)"


# ---------------------------------------------------------------- who is Player 1
def ask_first_player(st: ArenaState) -> None:
    """The opening roll-off: each seat rolls a D6 (seat 0's die first); the higher is Player 1."""
    request_roll(st, "first_player", [6, 6], step("first_player"), label=FIRST_PLAYER_LABEL)


def first_player(st: ArenaState) -> None:
    assert st.roll is not None
    a, b = st.roll.dice
    if a == b:
        if st.narrate:
            emit(
                st,
                "first_player",
                f"The roll-off for Player 1 is a tie ({a}-{b}); roll again.",
                dice=[a, b],
                winner=None,
            )
        ask_first_player(st)
        return
    winner = 0 if a > b else 1
    st.player_one = winner
    if st.narrate:
        emit(
            st,
            "first_player",
            f"{seat_ref(winner)} wins the roll-off ({a}-{b}) and is Player 1; {seat_ref(1 - winner)} is Player 2.",
            dice=[a, b],
            winner=winner,
            player_one=winner,
        )


# ---------------------------------------------------------------- the set-up actions
def apply_setup(st: ArenaState, seat: int, action: ActionModel, random_setup: bool) -> None:
    who = seat_ref(seat)
    if type(action) is ChooseDiscipline:
        p = st.players[seat]
        p.discipline = action.discipline
        p.wizard_name = action.name.strip() if action.name else None
        d = st.data.disciplines[action.discipline]
        named = f" named {p.wizard_name}" if p.wizard_name else ""
        if st.narrate:
            emit(
                st,
                "discipline_chosen",
                f"{who}'s Wizard{named} follows the {d.name} Discipline ({d.spell.name}; Minion: {d.minion.name}).",
                seat=seat,
                discipline=d.id,
                name=p.wizard_name,
            )
        if all(pl.discipline for pl in st.players):
            st.phase = Phase.TERRAIN
            if random_setup:
                st.pending_layout = True
    elif type(action) is RandomTerrain:
        if st.narrate:
            emit(st, "terrain_random", f"{who} asks the referee for a random symmetric terrain layout.", seat=seat)
        st.pending_layout = True
    elif type(action) is PlaceTerrain:
        st.terrain = sorted([*st.terrain, action.at], key=rowkey)
        left = st.terrain_count - len(st.terrain)
        if st.narrate:
            emit(
                st,
                "terrain_placed",
                f"{who} places terrain on {label(action.at)} ({left} left).",
                seat=seat,
                at=list(action.at),
                square=label(action.at),
                left=left,
            )
        if left == 0:
            st.phase = Phase.EDGE
    elif type(action) is ChooseEdge:
        one, two = st.player_one, st.player_two
        st.players[two].edge = action.side
        st.players[one].edge = OPPOSITE[action.side]
        st.phase = Phase.DEPLOY
        st.deploy_seat = one
        if st.narrate:
            emit(
                st,
                "edge_chosen",
                f"{who} starts on the {action.side} edge; {seat_ref(one)} gets the {OPPOSITE[action.side]} edge.",
                seat=seat,
                edges=[st.players[0].edge, st.players[1].edge],
            )
    elif type(action) is Deploy:
        p = st.players[seat]
        p.deployed.append(action.model)
        push(st, step("deploy_progress"))
        if action.model == "wizard":
            place_wizard(st, seat, action.at)
        else:
            place_minion(st, seat, action.at, why="deployed")


def deploy_progress(st: ArenaState) -> None:
    if len(st.players[st.deploy_seat].deployed) < 2:
        return
    if st.deploy_seat == st.player_one:
        st.deploy_seat = st.player_two
        return
    st.phase = Phase.ROLLOFF
    request_roll(st, "rolloff", [6, 6], step("rolloff"), label=ROLLOFF_LABEL)


def rolloff(st: ArenaState) -> None:
    """The crowd roll-off after deployment (Player 1's die first): 1 Crowd Favour to the winner."""
    assert st.roll is not None
    a, b = st.roll.dice
    if a == b:
        if st.narrate:
            emit(st, "rolloff", f"The crowd roll-off is a tie ({a}-{b}); roll again.", dice=[a, b], winner=None)
        request_roll(st, "rolloff", [6, 6], step("rolloff"), label=ROLLOFF_LABEL)
        return
    winner = st.player_one if a > b else st.player_two
    if st.narrate:
        emit(
            st,
            "rolloff",
            f"{seat_ref(winner)} has the most fans in the audience ({a}-{b}).",
            dice=[a, b],
            winner=winner,
        )
    gain_favour(st, winner, 1, "won the crowd roll-off")
    st.turn_no = 1
    st.game_turn = 1
    st.active = st.player_one
    push(st, step("turn_start"))


# ---------------------------------------------------------------- the random terrain layout
def layout_parts(st: ArenaState) -> tuple[list[Square], list[Square], int]:
    """(centre choices for an odd count, pair representatives, number of pairs)."""
    n, c = st.size, st.terrain_count
    interior = [(x, y) for y in range(1, n - 1) for x in range(1, n - 1)]
    centre: list[Square] = []
    if c % 2:
        lo, hi = (n - 1) // 2, n // 2
        centre = sorted({(x, y) for x in (lo, hi) for y in (lo, hi)}, key=rowkey)
    reps = [sq for sq in interior if sq < mirror(sq, n) and sq not in centre and mirror(sq, n) not in centre]
    return centre, reps, c // 2


def layout_space(st: ArenaState) -> LazySeq[ActionModel]:
    """Every random layout: pairs of squares mirrored about the centre (and one centre square for
    an odd count), never on an edge row."""
    centre, reps, k = layout_parts(st)
    per = comb(len(reps), k)
    n = st.size

    def make(i: int) -> ActionModel:
        ci, pi = divmod(i, per)
        squares = [sq for r in nth_combination(reps, k, pi) for sq in (r, mirror(r, n))]
        if centre:
            squares.append(centre[ci])
        return TerrainLayout.known(squares=tuple(sorted(squares, key=rowkey)))

    return LazySeq(per * max(1, len(centre)), make)


def check_layout(st: ArenaState, squares: list[Square]) -> None:
    n, c = st.size, st.terrain_count
    if len(squares) != c or len(set(squares)) != c:
        raise IllegalAction(f"The layout needs {c} different squares.")
    for sq in squares:
        if not on_board(sq, n) or is_edge_square(sq, n):
            raise IllegalAction(f"{square_text(sq)}: random terrain never goes on a board edge row.")
    centre, _reps, _k = layout_parts(st)
    unpaired = [sq for sq in squares if mirror(sq, n) not in squares or mirror(sq, n) == sq]
    if c % 2 == 0 and unpaired:
        raise IllegalAction(f"The layout must be mirrored about the centre; {label(unpaired[0])} has no mirror.")
    if c % 2 and (len(unpaired) != 1 or unpaired[0] not in centre):
        raise IllegalAction("The layout must be mirrored about the centre, with one piece on a centre square.")


def apply_layout(st: ArenaState, action: TerrainLayout) -> None:
    st.pending_layout = False
    st.terrain = sorted(action.squares, key=rowkey)
    labels = [label(s) for s in st.terrain]
    if st.narrate:
        emit(
            st,
            "terrain_layout",
            f"The referee lays out the terrain at random, mirrored about the centre: {', '.join(labels)}.",
            squares=[list(s) for s in st.terrain],
            labels=labels,
        )
    st.phase = Phase.EDGE


def square_text(sq: Square) -> str:
    """A square's label, or its coordinates when it is off any board."""
    x, y = sq
    return label(sq) if 0 <= x < 26 and y >= 0 else f"[{x}, {y}]"


__all__ = [
    "apply_layout",
    "apply_setup",
    "ask_first_player",
    "check_layout",
    "deploy_progress",
    "first_player",
    "layout_space",
    "rolloff",
    "square_text",
]
