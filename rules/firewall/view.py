"""What a seat (or a spectator) may see of a Firewall game. Everything the bot posts to a channel
comes from ``render_view(state, None)``; a seat's pending bet and spells stay secret until the reveal
(the others only see that it has submitted)."""

from __future__ import annotations

from typing import Any

from .spells import CLONE
from .state import BRIDGE, FirewallState


def render_view(state: FirewallState, seat: int | None) -> dict[str, Any]:
    players = []
    for s, p in enumerate(state.players):
        players.append(
            {
                "seat": s,
                "wizard": p.wizard,
                "mana": p.mana,
                "hand_size": len(p.hand),  # the false card included
                "stock_count": len(p.stock),
                "discard": list(p.discard),
                "in_play": list(p.in_play),  # revealed this turn, while a follow-up is awaited
                "last_played": list(p.last_played),  # revealed on the previous turn (what Clone may copy)
                "submitted": p.pending is not None,
                "asked": state.step_of(s),
            }
        )
    ctx = state.ctx
    out: dict[str, Any] = {
        "game": "firewall",
        "variant": state.variant,
        "phase": state.phase.value,
        "round": state.round,
        "turn": state.turn,  # turns revealed in this round
        "turns_total": state.turns_total,
        "bridge": {
            "length": BRIDGE,
            "broken": state.broken(),
            "wall": state.wall,
            "wizards": [p.wizard for p in state.players],
            "round_start_wall": state.round_start_wall,
        },
        "muted": state.muted,
        "players": players,
        "last_turn": state.last_turn,
        "resolving": dict(ctx.record) if ctx is not None and ctx.pending is not None else None,
        "pending_choice": dict(ctx.pending) if ctx is not None and ctx.pending is not None else None,
        "awaiting": state.awaiting.to_json(),
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.to_json()
    if seat is not None:
        p = state.players[seat]
        you: dict[str, Any] = {
            "seat": seat,
            "asked": state.step_of(seat),
            "hand": list(p.hand),
            "stock_count": len(p.stock),
            "submitted": p.pending.to_json() if p.pending is not None else None,
            "clone_options": state.clone_options(seat) if CLONE in p.hand else [],
            "max_bet": p.mana,
        }
        if state.variant == "chosen_order":
            you["stock"] = list(p.stock)  # you chose it
        if state.step_of(seat) == "recycle":
            lo, hi = state.recycle_range(seat)
            you["recycle"] = {"bet": ctx.bets[seat] if ctx else None, "min": lo, "max": hi}
        out["you"] = you
    return out
