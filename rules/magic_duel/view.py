"""What a seat (or a spectator) may see of a Magic Duel game. Everything the bot posts to a
channel comes from ``render_view(state, None)``: face-down spells show only their card count
until the reveal; hands, the Decks' contents and Risk discards stay secret."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import sorted_cards

if TYPE_CHECKING:
    from .state import MagicDuelState


def render_view(state: MagicDuelState, seat: int | None) -> dict[str, Any]:
    t = state.trick
    to_act = state.current_seat()
    counts = state.tricks_count()
    played = {p.seat: p for p in t.plays} if t else {}
    players = [
        {
            "seat": s,
            "removed": s in state.removed,
            "hand_size": len(state.hands[s]),
            "tricks": counts[s],
            "points": state.points[s],
            "played": s in played,
            "passed": bool(t and s in t.passed),
        }
        for s in range(state.num_seats)
    ]
    trick: dict[str, Any] | None = None
    if t is not None:
        plays = [
            {
                "seat": p.seat,
                "face_up": p.face_up,
                "count": len(p.cards),
                "cards": list(p.cards) if p.face_up else None,
                "combination": p.combo.kind.title if p.face_up else None,
            }
            for p in t.plays
        ]
        trick = {
            "number": t.number,
            "replay": t.replay,
            "last": t.last,
            "order": [s for s in t.order if s not in state.removed],
            "plays": plays,
            "passed": list(t.passed),
        }
    out: dict[str, Any] = {
        "game": "magic-duel",
        "phase": state.phase.value,
        "hand": state.hand_no,
        "points_to_win": state.points_to_win,
        "decks_used": state.game.decks,
        "seat_order": state.active,
        "turn_order": state.rotation_from(state.leader) if state.active else [],
        "leader": state.leader,
        "to_act": to_act,
        "awaiting": state.awaiting.to_json(),
        "trick": trick,
        "draw": (
            {"seat": state.draw_queue[0], "need": state.draw_need(state.draw_queue[0]), "winner": state.trick_winner}
            if state.phase.value == "draw" and state.draw_queue
            else None
        ),
        "decks": {"risk": len(state.risk), "advantage": len(state.advantage), "closed": state.closed},
        "cursed_by": state.cursed_by,
        "set_aside": len(state.set_aside),
        "removed": list(state.removed),
        "players": players,
        "last_trick": state.last_trick,
        "last_scoring": state.last_scoring,
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.to_json()
    if seat is not None:
        mine = played.get(seat)
        out["you"] = {
            "seat": seat,
            "hand": sorted_cards(state.hands[seat]),
            "to_act": to_act == seat,
            "asked": (state.phase.value if to_act == seat else None),
            "played": list(mine.cards) if mine else None,
            "risked": mine.risk if mine else None,
        }
    return out
