"""Arena, the game: its options, its phases and the constants the engine and the UI share.

Rules: the game's rule text and its design note (data and gaps), neither part of this repository,
as docs/rulings/arena.md states them with this project's rulings; each ruling's *Rule:* line says
which part of the game's rules it implements.

Player 1 and Player 2 are roles, not seats: a roll-off at the start (a chance action) decides
which seat is Player 1, unless the option ``first_player`` is ``"challenger"`` (seat 0, the
challenger, is Player 1; logs stored before the roll-off existed replay that way).
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Literal

from pydantic import Field

from ..core import Game, GameOptions
from .actions import action_adapter


class Phase(StrEnum):
    """The phase of the game. The values are the view's ``phase`` strings."""

    DISCIPLINE = "discipline"
    TERRAIN = "terrain"
    EDGE = "edge"
    DEPLOY = "deploy"
    ROLLOFF = "rolloff"
    START = "start"
    SPELL = "spell"
    ACTION = "action"
    OVER = "over"


#: The set-up phases: each awaits one kind of set-up action.
SETUP_PHASES = frozenset({Phase.DISCIPLINE, Phase.TERRAIN, Phase.EDGE, Phase.DEPLOY})

#: Rolls after which the hometown chant's re-roll is offered.
CHANT_PURPOSES = frozenset({"spell_selection", "opposed", "explosion", "damage", "heal", "mutation"})

#: The board edges a Player 2 may choose, in the order the choices are listed.
EDGE_CHOICES: tuple[Literal["south", "north", "west", "east"], ...] = ("south", "north", "west", "east")


class ArenaOptions(GameOptions):
    grid_size: int = Field(10, ge=8, le=12, description="the board is grid_size x grid_size squares")
    terrain_count: int = Field(6, ge=4, le=8, description="single-square terrain pieces")
    terrain_setup: Literal["player1", "random"] = Field(
        "player1",
        description="player1: Player 1 places the terrain (or asks for a random layout); random: always random",
    )
    game_turn_limit: int = Field(
        30, ge=0, le=200, description="after this many game turns without a knock-out the match is a draw; 0 = none"
    )
    first_player: Literal["roll_off", "challenger"] = Field(
        "roll_off",
        description="roll_off: a roll-off at the start decides who is Player 1; challenger: the challenger "
        "(seat 0) is Player 1",
        json_schema_extra={"legacy": "challenger"},
    )


class Arena(Game[ArenaOptions]):
    slug: ClassVar[str] = "arena"
    name: ClassVar[str] = "Arena"
    summary: ClassVar[str] = (
        "Two Wizards of rival Magic Disciplines and their Minions fight on a square grid with terrain: "
        "roll for your spell, move, cast, win the crowd, and knock out the enemy Wizard."
    )
    min_seats = 2
    max_seats = 2
    options_model = ArenaOptions
    action_adapter = action_adapter


__all__ = ["CHANT_PURPOSES", "EDGE_CHOICES", "SETUP_PHASES", "Arena", "ArenaOptions", "Phase"]
