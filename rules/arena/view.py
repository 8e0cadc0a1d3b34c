"""What the channel shows of an Arena game. Open information: ``render_view(state)`` is the same
for every seat and for spectators (``view(None) == view(seat)``).

Coordinates: ``pos`` is ``[x, y]`` with x the column index from 0 (column A, left) and y the row
index from 0 (row 1, the south edge); ``square`` is the label ("C4").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import label

if TYPE_CHECKING:
    from .state import ArenaState


def render_view(state: ArenaState) -> dict[str, Any]:
    n = state.size
    models = []
    for m in state.ordered_models():
        skill, smods = state.eff_skill(m)
        defence, _ = state.eff_defence(m)
        if m.is_wizard:
            sp = state.spell
            act = sp["selected"] if sp and m.owner == state.active and not sp.get("cast") else None
        else:
            act = state.discipline(m.owner).minion.action.id
        models.append(
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
    players = []
    for s, p in enumerate(state.players):
        d = state.data.disciplines.get(p.discipline or "")
        players.append(
            {
                "seat": s,
                "discipline": p.discipline,
                "discipline_name": d.name if d else None,
                "discipline_info": d.to_json() if d else None,
                "wizard_name": p.wizard_name,
                "edge": p.edge,
                "crowd_favour": p.favour,
                "chant": p.chant and not p.chant_used,
                "scholar_bonus_available": p.discipline == "noble_scholar" and p.scholar_game_turn != state.game_turn,
                "deployed": list(p.deployed),
                "minions_on_board": len(state.minions(s)) if p.discipline else 0,
            }
        )
    spell = None
    if state.spell is not None:
        spell = {
            **state.spell,
            "option_names": {sid: state.data.spell(sid).name for sid in state.spell["options"]},
        }
    out: dict[str, Any] = {
        "game": "arena",
        "grid": {
            "size": n,
            "columns": [chr(ord("A") + i) for i in range(n)],
            "rows": list(range(1, n + 1)),
            "coordinates": "pos [x, y]: x = column index from 0 (A), y = row index from 0 (row 1, south edge)",
        },
        "terrain": [list(t) for t in state.terrain],
        "terrain_squares": [label(t) for t in state.terrain],
        "terrain_count": state.terrain_count,
        "players": players,
        "models": models,
        "phase": state.phase,
        "game_turn": state.game_turn,
        "turn": state.turn_no,
        "game_turn_limit": state.turn_limit,
        "active": state.active if state.turn_no else None,
        "spell": spell,
        "activation": dict(state.activation) if state.activation else None,
        "activated": list(state.activated),
        "dominate": dict(state.dominate) if state.dominate else None,
        "brawl": state.brawl_until is not None,
        "prompt": dict(state.prompt) if state.prompt else None,
        "pending_roll": state.pending_roll.to_json() if state.pending_roll else None,
        "pending_terrain_layout": state.pending_layout,
        "last_roll": state.last_roll,
        "awaiting": state.awaiting.to_json(),
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.to_json()
    return out
