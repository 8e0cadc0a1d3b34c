"""What the channel shows of an Arena game. Open information: ``render_view(state, seat)`` is the
same for every seat and for spectators (``view(None) == view(seat)``), so the seat view has no
"you" block.

Coordinates: ``pos`` is ``[x, y]`` with x the column index from 0 (column A, left) and y the row
index from 0 (row 1, the south edge); ``square`` is the label ("C4").
"""

from __future__ import annotations

from functools import cache
from typing import Any, NotRequired, TypedDict

from .board import label
from .data import Discipline
from .records import ActivationJSON, DominationJSON, PromptJSON, SpellJSON
from .state import ArenaState


class GridView(TypedDict):
    size: int
    columns: list[str]
    rows: list[int]
    coordinates: str


class StatsView(TypedDict):
    move: int
    skill: int
    defence: int


class ModelView(TypedDict):
    id: str
    owner: int
    kind: str  # "wizard" or "minion"
    name: str
    label: str  # "{p1}'s Morgana the Draconic Magus", with {pN} to fill with names
    discipline: str
    pos: list[int]
    square: str
    health: int
    max_health: int
    stats: StatsView  # now, with every modifier
    base_stats: StatsView
    action: str | None  # the Action it may take: the selected spell (Wizard) or its Minion action
    effects: list[dict[str, Any]]
    activated: bool
    knocked_out: bool


class PlayerView(TypedDict):
    seat: int
    discipline: str | None
    discipline_name: str | None
    discipline_info: dict[str, Any] | None
    wizard_name: str | None
    edge: str | None
    crowd_favour: int
    chant: bool  # the hometown chant's re-roll is available this turn
    scholar_bonus_available: bool
    deployed: list[str]
    minions_on_board: int


class SpellView(SpellJSON):
    option_names: dict[str, str]


class ArenaView(TypedDict):
    """The view of every seat and of spectators."""

    game: str
    grid: GridView
    terrain: list[list[int]]
    terrain_squares: list[str]
    terrain_count: int
    players: list[PlayerView]
    models: list[ModelView]
    phase: str
    game_turn: int
    turn: int
    game_turn_limit: int
    active: int | None
    player_one: int  # the seat that is Player 1 (the roll-off's winner, or the challenger)
    spell: SpellView | None
    activation: ActivationJSON | None
    activated: list[str]
    dominate: DominationJSON | None
    brawl: bool
    prompt: PromptJSON | None
    pending_roll: dict[str, Any] | None
    pending_terrain_layout: bool
    last_roll: dict[str, Any] | None
    awaiting: dict[str, Any]
    outcome: NotRequired[dict[str, Any]]


def _models(state: ArenaState) -> list[ModelView]:
    out: list[ModelView] = []
    sp = state.spell
    for m in state.ordered_models():
        if m.effects:
            skill, _smods = state.eff_skill(m)
            defence, _ = state.eff_defence(m)
        else:  # the same, without modifiers to look for
            skill, defence = m.skill, m.defence
        if m.is_wizard:
            act = sp.selected if sp and m.owner == state.active and not sp.cast else None
        else:
            act = state.discipline(m.owner).minion.action.id
        out.append(
            {
                "id": m.id,
                "owner": m.owner,
                "kind": m.kind,
                "name": m.name,
                "label": state.mname(m.id),
                "discipline": m.discipline,
                "pos": list(m.pos),
                "square": label(m.pos),
                "health": m.health,
                "max_health": m.max_health,
                "stats": {"move": state.eff_move(m), "skill": skill, "defence": defence},
                "base_stats": {"move": m.move, "skill": m.skill, "defence": m.defence},
                "action": act,
                "effects": [e.to_json() for e in m.effects],
                "activated": m.id in state.activated,
                "knocked_out": m.is_wizard and m.health == 0,
            }
        )
    return out


def _players(state: ArenaState) -> list[PlayerView]:
    out: list[PlayerView] = []
    for s, p in enumerate(state.players):
        d = state.data.disciplines.get(p.discipline or "")
        out.append(
            {
                "seat": s,
                "discipline": p.discipline,
                "discipline_name": d.name if d else None,
                "discipline_info": _discipline_info(d) if d else None,
                "wizard_name": p.wizard_name,
                "edge": p.edge,
                "crowd_favour": p.favour,
                "chant": p.chant and not p.chant_used,
                "scholar_bonus_available": p.discipline == "noble_scholar" and p.scholar_game_turn != state.game_turn,
                "deployed": list(p.deployed),
                "minions_on_board": state.minion_count(s) if p.discipline else 0,
            }
        )
    return out


#: Discipline id -> (the Discipline, its ``to_json()``), made once.
_DISCIPLINE_JSON: dict[str, tuple[Discipline, dict[str, Any]]] = {}


def _discipline_info(d: Discipline) -> dict[str, Any]:
    """``d.to_json()``: a fresh copy of the memo (its texts are formatted once)."""
    memo = _DISCIPLINE_JSON.get(d.id)
    if memo is None or memo[0] is not d:
        memo = _DISCIPLINE_JSON[d.id] = (d, d.to_json())
    j = memo[1]
    minion = j["minion"]
    return {**j, "spell": dict(j["spell"]), "minion": {**minion, "action": dict(minion["action"])}}


@cache
def _grid(n: int) -> GridView:
    return {
        "size": n,
        "columns": [chr(ord("A") + i) for i in range(n)],
        "rows": list(range(1, n + 1)),
        "coordinates": "pos [x, y]: x = column index from 0 (A), y = row index from 0 (row 1, south edge)",
    }


def _spell(state: ArenaState) -> SpellView | None:
    sp = state.spell
    if sp is None:
        return None
    return {**sp.to_json(), "option_names": {sid: state.data.spell(sid).name for sid in sp.options}}


def render_view(state: ArenaState, seat: int | None = None) -> ArenaView:
    """What ``seat`` (None: a spectator) sees: everything (open information)."""
    grid = _grid(state.size)
    out: ArenaView = {
        "game": "arena",
        "grid": {**grid, "columns": list(grid["columns"]), "rows": list(grid["rows"])},
        "terrain": [list(t) for t in state.terrain],
        "terrain_squares": [label(t) for t in state.terrain],
        "terrain_count": state.terrain_count,
        "players": _players(state),
        "models": _models(state),
        "phase": str(state.phase),
        "game_turn": state.game_turn,
        "turn": state.turn_no,
        "game_turn_limit": state.turn_limit,
        "active": state.active if state.turn_no else None,
        "player_one": state.player_one,
        "spell": _spell(state),
        "activation": state.activation.to_json() if state.activation else None,
        "activated": list(state.activated),
        "dominate": state.dominate.to_json() if state.dominate else None,
        "brawl": state.brawl_until is not None,
        "prompt": state.prompt.to_json() if state.prompt else None,
        "pending_roll": state.pending_roll.to_json() if state.pending_roll else None,
        "pending_terrain_layout": state.pending_layout,
        "last_roll": state.last_roll.to_json() if state.last_roll else None,
        "awaiting": state.awaiting.to_json(),
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.to_json()
    return out


__all__ = [
    "ActivationJSON",
    "ArenaView",
    "DominationJSON",
    "GridView",
    "ModelView",
    "PlayerView",
    "PromptJSON",
    "SpellJSON",
    "SpellView",
    "StatsView",
    "render_view",
]
