"""Why an action is refused: a readable sentence (what was wrong, what is allowed now)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core import ActionModel
from .actions import (
    Act,
    ChooseDiscipline,
    ChooseSpell,
    Deploy,
    EndActivation,
    Extinguish,
    Move,
    PlaceMinion,
    PlaceTerrain,
    Reroll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    WitchStep,
)
from .board import edge_squares, label, manhattan, on_board
from .setup import square_text

if TYPE_CHECKING:
    from .state import ArenaState

_TYPES = {
    "action": ("select_model", "move", "act", "extinguish", "end_activation"),
    "dominate": ("move", "act"),
    "witch_step": ("witch_step",),
    "teleport": ("teleport",),
    "necro": ("place_minion",),
    "terrain": ("place_terrain",),
    "deploy": ("deploy",),
}

_ASKED = {
    "discipline": "choose your Wizard's Discipline (choose_discipline)",
    "terrain": "place terrain (place_terrain) or ask for a random layout (random_terrain)",
    "edge": "choose your board edge (edge)",
    "deploy": "deploy your Wizard and Minion on your edge row (deploy)",
    "action": "activate your models (select_model, move, act, end_activation, end_turn)",
    "crowd": "decide how much Crowd Favour to spend (spend_favour)",
    "spell": "choose your spell for this turn (choose_spell)",
    "reroll": "decide on the hometown chant's re-roll (reroll or decline)",
    "scholar": "decide on the Noble Scholar's +2 (scholar_bonus or decline)",
    "blood_pact": "decide on the Blood Mage's sacrifice (blood_pact or decline)",
    "witch_step": "make the Green Witch's free step (witch_step or decline)",
    "necro": "place the Necromancer's free Minion (place_minion)",
    "teleport": "choose where the Teleport sends the model (teleport or decline)",
    "dominate": "move and act with the Dominated Minion (move, act or decline)",
}


def explain(st: ArenaState, seat: int, action: ActionModel, legal: Sequence[ActionModel]) -> str:
    types = sorted({action_type(a) for a in legal})
    allowed = ", ".join(types)
    kind = st.prompt.kind if st.prompt else str(st.phase)
    asked = _ASKED.get(kind, kind)
    if action_type(action) not in types and action_type(action) not in _TYPES.get(kind, ()):
        return f"Now you are asked to {asked}; allowed actions: {allowed}."
    if isinstance(action, ChooseDiscipline):
        return f"Unknown Discipline {action.discipline!r}; choose one of: {', '.join(st.data.disciplines)}."
    if isinstance(action, PlaceTerrain):
        sq = action.at
        if not on_board(sq, st.size):
            return f"{square_text(sq)} is not on the {st.size}x{st.size} board."
        if sq in st.terrain:
            return f"There is already terrain on {label(sq)}."
        return f"Terrain on {label(sq)} would leave a board edge with fewer than 2 free squares."
    if isinstance(action, Deploy):
        p = st.players[seat]
        if action.model in p.deployed:
            return f"Your {action.model} is already deployed."
        if not on_board(action.at, st.size):
            return f"{square_text(action.at)} is not on the board."
        if action.at not in edge_squares(p.edge or "south", st.size):
            return f"{label(action.at)} is not on your board edge ({p.edge}); deploy on your edge row."
        return f"{label(action.at)} is not free (terrain or a model is there)."
    if isinstance(action, SpendFavour):
        have = st.players[seat].favour
        return f"You have {have} Crowd Favour; spend 0 to {have}."
    if isinstance(action, ChooseSpell):
        opts = ", ".join(st.spell.options) if st.spell else ""
        return f"{action.spell!r} is not among your spells this turn; choose one of: {opts}."
    if isinstance(action, SelectModel):
        m = st.models.get(action.model)
        if m is None:
            return f"There is no model {action.model!r} on the board."
        if m.owner != seat:
            return f"{action.model} is not yours."
        if m.id in st.activated:
            return f"{action.model} has already been activated this turn."
        return f"{action.model} can neither move nor act now."
    if isinstance(action, (Move, Extinguish, EndActivation)) and st.prompt is None and st.activation is None:
        return "Select a model first (select_model)."
    if isinstance(action, Extinguish):
        return "Only a burning model that has not yet taken its Action can put itself out."
    if isinstance(action, (Move, WitchStep, Teleport, PlaceMinion)):
        sq = action.to if not isinstance(action, PlaceMinion) else action.at
        if not on_board(sq, st.size):
            return f"{square_text(sq)} is not on the board."
        if sq in st.terrain:
            return f"{label(sq)} is terrain."
        if (occupant := st.occupant(sq)) is not None:
            return f"{label(sq)} is occupied by {occupant.id}."
        if isinstance(action, Move) and st.activation and st.activation.moved and not st.prompt:
            return "This model has already moved this turn."
        held = st.activation and not st.prompt and st.held_by_vines(st.models[st.activation.model])
        if isinstance(action, Move) and held:
            return "This model is held by Grasping Vines: it cannot Move this turn."
        if isinstance(action, Move):
            steps = mover_steps(st)
            return f"{label(sq)} cannot be reached: the model can move {steps} squares around terrain and models."
        if isinstance(action, Teleport) and st.prompt and st.prompt.model in st.models:
            return f"{label(sq)} is more than 4 squares from {st.prompt.model}."
        return f"{label(sq)} is not a square this choice allows."
    if isinstance(action, Act):
        return explain_act(st, seat, action)
    if isinstance(action, (Reroll, ScholarBonus)):
        n = len(st.roll.dice) if st.roll else 0
        return f"Choose a die number from 0 to {n - 1}." if n else "There is no die to change."
    return f"That {action_type(action).replace('_', ' ')} is not allowed now; allowed actions: {allowed}."


def mover_steps(st: ArenaState) -> int:
    mid = st.dominate.model if st.prompt and st.dominate else (st.activation.model if st.activation else None)
    m = st.models.get(mid or "")
    return st.eff_move(m) if m else 0


def explain_act(st: ArenaState, seat: int, action: Act) -> str:
    if st.prompt and st.dominate:
        m, side, dominated = st.models[st.dominate.model], st.dominate.seat, True
    elif st.activation:
        m, side, dominated = st.models[st.activation.model], seat, False
    else:
        return "Select a model first."
    if not dominated and st.activation and st.activation.acted:
        return "This model has already taken its Action this turn."
    if not dominated and st.held_by_vines(m):
        return "This model is held by Grasping Vines: no Action this turn."
    adef = st.model_action(m) if not dominated else st.discipline(m.owner).minion.action
    if adef is None:
        return "Your Wizard has already cast its spell this turn."
    if adef.target == "none":
        return f"{adef.name} has no target: send act with neither target nor at."
    if adef.target == "square":
        if action.at is None:
            return f"{adef.name} needs a square (at), not a model."
        if len(st.minions(side)) >= st.data.max_minions:
            return f"You already have {st.data.max_minions} Minions on the board."
        if not on_board(action.at, st.size):
            return f"{square_text(action.at)} is not on the board."
        if manhattan(action.at, m.pos) > (adef.range or 2):
            return f"{label(action.at)} is more than {adef.range} squares from the Wizard."
        return f"{label(action.at)} is not free."
    if action.target is None:
        return f"{adef.name} needs a target model."
    t = st.models.get(action.target)
    if t is None:
        return f"There is no model {action.target!r} on the board."
    ok, why = st.target_kind_ok(m, t, adef.target, side, dominated)
    if not ok:
        return f"{adef.name}: {why}."
    hyp = None if dominated else st.hypnotic_source(m)
    if hyp is not None and t.id != hyp:
        return f"This model is under Hypnotic Dancing: it may only target {hyp} this turn."
    ok, why = st.reach(m, t, adef.range, side)
    if not ok:
        return f"{t.id} is obscured or out of reach: {why}. Choose another target."
    return f"{adef.name} cannot target {t.id} now."


def action_type(action: ActionModel) -> str:
    """An action's JSON ``type``."""
    return str(getattr(action, "type", ""))
