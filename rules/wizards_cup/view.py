"""What a seat (or a spectator) may see of a Wizards Cup game. Everything the bot posts to a
channel comes from ``render_view(state, None)``; secrets appear only once the rules reveal them."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from .state import WizardsCupState


class PlayerView(TypedDict):
    """One player as everybody sees them."""

    seat: int
    tokens: int
    random_pick: str | None  # shown to both players when drawn
    deck_count: int
    has_waiting: bool
    waiting: str | None  # face down (None) unless The Detective put it back face up
    duel: str | None
    discard: list[str]  # bottom ... top
    ready: bool  # not asked for anything now
    asked: str  # the kind of decision asked now (choose_deck, plan, swap, botanist) or "done"


class YouView(TypedDict):
    """The seat's own secrets (in a seat's view only)."""

    seat: int
    asked: str
    deck: list[str]  # the 6 cards of your Deck
    order: list[str]  # the rest of your Deck this round, top first
    waiting: str | None
    unused: list[str]  # the cards of your set not in your Deck (once it is chosen)


class SpectatorView(TypedDict):
    """What a spectator (and the channel) sees."""

    game: str
    round: int
    phase: str
    duels_this_round: int
    awaiting: dict[str, Any]  # Awaiting.to_json()
    players: list[PlayerView]
    outcome: NotRequired[dict[str, Any]]  # Outcome.to_json(), once the game is over


class SeatView(SpectatorView):
    """What a seat sees: the spectator view and its own secrets."""

    you: YouView


def asked_kind(state: WizardsCupState, seat: int) -> str:
    """The kind of decision ``seat`` is asked now, or "done".

    After a forfeit the game awaits nobody, but the view keeps showing the step each seat had
    reached (as it always has), so this reads the game's own pending steps, not the forfeit.
    """
    ask = state.game_step(seat)
    return ask.kind if ask is not None else "done"


def render_view(state: WizardsCupState, seat: int | None) -> SpectatorView | SeatView:
    players: list[PlayerView] = []
    for s, p in enumerate(state.players):
        asked = asked_kind(state, s)
        players.append(
            {
                "seat": s,
                "tokens": p.tokens,
                "random_pick": p.random_pick,
                "deck_count": len(p.pile),
                "has_waiting": p.waiting is not None,
                # The Waiting card is face down; only The Detective going back face down is public.
                "waiting": p.waiting if p.waiting_known else None,
                "duel": p.duel,
                "discard": list(p.discard),
                "ready": asked == "done",
                "asked": asked,
            }
        )
    out: SpectatorView = {
        "game": "wizards-cup",
        "round": state.round,
        "phase": state.phase.value,
        "duels_this_round": state.duel_count,
        "awaiting": state.awaiting.to_json(),
        "players": players,
    }
    outcome = state.outcome
    if outcome is not None:
        out["outcome"] = outcome.to_json()
    if seat is None:
        return out
    p = state.players[seat]
    you: YouView = {
        "seat": seat,
        "asked": players[seat]["asked"],
        "deck": list(p.team),
        "order": list(p.pile),
        "waiting": p.waiting,
        "unused": state.unused(seat) if p.team else [],
    }
    return {**out, "you": you}
