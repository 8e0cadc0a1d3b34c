"""Arena: two Wizards of rival Magic Disciplines and their Minions fight on a grid with terrain.

Modules: game.py (the Game, options, phases, constants), actions.py, state.py (``ArenaState``: the
data of a game, the State hooks and the table of steps; its behaviour is in functions of the state
in the modules that follow), ground.py and queries.py (questions that read the state), table.py
(the small changes), legal.py (legal actions and checks), dice.py (rolls), setup.py, turn.py,
resolve.py, casualties.py and crowd.py (the steps), explain.py (why an action is refused), view.py,
pieces.py (models and effects), records.py (the turn's records), board.py (geometry) and data.py
(Disciplines and tables).
"""

from .actions import (
    Act,
    BloodPact,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    Decline,
    Deploy,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    PlaceMinion,
    PlaceTerrain,
    RandomTerrain,
    Reroll,
    Roll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    TerrainLayout,
    WitchStep,
    action_adapter,
)
from .board import label, line_of_sight, manhattan, parse_label, reachable, segment_crosses_square
from .data import DISCIPLINE_IDS, load_data
from .game import CHANT_PURPOSES, Arena, ArenaOptions, Phase
from .pieces import Effect, Model
from .records import Resolution
from .state import ArenaState
from .view import ArenaView, ModelView, PlayerView, render_view

Arena.bind(ArenaState, render_view)

__all__ = [
    "CHANT_PURPOSES",
    "DISCIPLINE_IDS",
    "Act",
    "Arena",
    "ArenaOptions",
    "ArenaState",
    "ArenaView",
    "BloodPact",
    "ChooseDiscipline",
    "ChooseEdge",
    "ChooseSpell",
    "Decline",
    "Deploy",
    "Effect",
    "EndActivation",
    "EndTurn",
    "Extinguish",
    "Model",
    "ModelView",
    "Move",
    "Phase",
    "PlaceMinion",
    "PlaceTerrain",
    "PlayerView",
    "RandomTerrain",
    "Reroll",
    "Resolution",
    "Roll",
    "ScholarBonus",
    "SelectModel",
    "SpendFavour",
    "Teleport",
    "TerrainLayout",
    "WitchStep",
    "action_adapter",
    "label",
    "line_of_sight",
    "load_data",
    "manhattan",
    "parse_label",
    "reachable",
    "render_view",
    "segment_crosses_square",
]
