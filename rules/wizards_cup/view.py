"""What a seat (or a spectator) may see of a Wizards Cup game. Everything the bot posts to a
channel comes from ``render_view(state, None)``; secrets appear only once the rules reveal them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import WizardsCupState


def render_view(state: WizardsCupState, seat: int | None) -> dict[str, Any]:
    players = []
    for s, p in enumerate(state.players):
        public: dict[str, Any] = {
            "seat": s,
            "tokens": p.tokens,
            "random_pick": p.random_pick,  # shown to both players when drawn
            "deck_count": len(p.pile),
            "has_waiting": p.waiting is not None,
            # The Waiting card is face down; only The Detective going back face down is public.
            "waiting": p.waiting if p.waiting_known else None,
            "duel": p.duel,
            "discard": list(p.discard),
            "ready": state.step_of(s) == "done",
            "asked": state.step_of(s),
        }
        players.append(public)
    out: dict[str, Any] = {
        "game": "wizards-cup",
        "round": state.round,
        "phase": state.phase.value,
        "duels_this_round": state.duel_count,
        "awaiting": state.awaiting.to_json(),
        "players": players,
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.to_json()
    if seat is not None:
        p = state.players[seat]
        out["you"] = {
            "seat": seat,
            "asked": state.step_of(seat),
            "deck": list(p.team),  # the 6 cards of your Deck
            "order": list(p.pile),  # the rest of your Deck this round, top first
            "waiting": p.waiting,
            "unused": state.unused(seat) if p.team else [],
        }
    return out
