"""What a seat (or a spectator) may see of a Firewall game. Everything the bot posts to a channel
comes from ``render_view(state, None)``; a seat's pending bet and spells stay secret until the reveal
(the others only see that it has submitted). The TypedDicts below are the contract with the UI."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from ..core import Bound
from .game import BRIDGE
from .spells import CLONE
from .state import FirewallState
from .table import PendingChoice, TurnRecord

Asked = Literal["order", "turn", "larceny", "recycle"]


class BridgeView(TypedDict):
    length: int
    broken: list[int]  # collapsed flagstones (lava)
    wall: int
    wizards: list[int]  # by seat
    round_start_wall: int  # where Middle sends the wall back


class PlayerView(TypedDict):
    seat: int
    wizard: int
    mana: int
    hand_size: int  # the false card included
    stock_count: int
    discard: list[int]
    in_play: list[int]  # revealed this turn, while a follow-up is awaited
    last_played: list[int]  # revealed on the previous turn (what Clone may copy)
    submitted: bool
    asked: str | None  # the kind of the seat's decision (Asked), None when not awaited


class AwaitingView(TypedDict):
    kind: str
    seats: list[int]


class SubmittedTurn(TypedDict):
    """The seat's own secret turn, before the reveal (the JSON of its ``turn`` action)."""

    type: Literal["turn"]
    bet: int
    spells: list[int]
    clone: int | None


class RecycleView(TypedDict):
    bet: int  # the bet Recycle changes
    min: int
    max: int


class SeatView(TypedDict):
    """The ``you`` block: what only this seat sees."""

    seat: int
    asked: str | None
    hand: list[int]
    stock_count: int
    submitted: SubmittedTurn | None
    clone_options: list[int]  # what Clone may copy (empty without Clone in hand)
    max_bet: int  # the seat's mana
    stock: NotRequired[list[int]]  # variant chosen_order: the order it chose
    recycle: NotRequired[RecycleView]  # when asked for Recycle's new bet


class FirewallView(TypedDict):
    """The spectator view; a seat's view adds ``you``."""

    game: Literal["firewall"]
    variant: str
    phase: str
    round: int
    turn: int  # turns revealed in this round
    turns_total: int
    bridge: BridgeView
    muted: bool
    players: list[PlayerView]
    last_turn: TurnRecord | None
    resolving: TurnRecord | None  # the turn being resolved, during a follow-up
    pending_choice: PendingChoice | None
    awaiting: AwaitingView
    outcome: NotRequired[dict[str, Any]]
    you: NotRequired[SeatView]


def _asked(state: FirewallState, seat: int) -> tuple[str, Bound | None] | None:
    """The kind of ``seat``'s step and its bet bound. A forfeit ends the game with nobody asked, yet
    the view has always named the step the seat was left at (stored views and the golden corpus
    show it), hence ``game_step`` rather than ``asked``."""
    ask = state.game_step(seat)
    if ask is None:
        return None
    return ask.kind, next((b for b in ask.bounds if b.field == "bet"), None)


def render_view(state: FirewallState, seat: int | None) -> FirewallView:
    asked = [(a[0] if (a := _asked(state, s)) is not None else None) for s in (0, 1)]
    players: list[PlayerView] = [
        {
            "seat": s,
            "wizard": p.wizard,
            "mana": p.mana,
            "hand_size": len(p.hand),
            "stock_count": len(p.stock),
            "discard": list(p.discard),
            "in_play": list(p.in_play),
            "last_played": list(p.last_played),
            "submitted": p.pending is not None,
            "asked": asked[s],
        }
        for s, p in enumerate(state.players)
    ]
    resolution = state.resolution
    following_up = resolution is not None and resolution.pending is not None
    awaiting = state.awaiting
    out: FirewallView = {
        "game": "firewall",
        "variant": state.variant,
        "phase": state.phase.value,
        "round": state.round,
        "turn": state.turn,
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
        "last_turn": state.last_turn.record() if state.last_turn is not None else None,
        "resolving": resolution.record() if resolution is not None and following_up else None,
        "pending_choice": resolution.pending.copy() if resolution is not None and resolution.pending else None,
        "awaiting": {"kind": awaiting.kind.value, "seats": sorted(awaiting.seats)},
    }
    if state.outcome is not None:
        out["outcome"] = state.outcome.to_json()
    if seat is not None:
        out["you"] = _seat_view(state, seat)
    return out


def _seat_view(state: FirewallState, seat: int) -> SeatView:
    p = state.players[seat]
    asked = _asked(state, seat)
    turn = p.pending
    you: SeatView = {
        "seat": seat,
        "asked": asked[0] if asked is not None else None,
        "hand": list(p.hand),
        "stock_count": len(p.stock),
        "submitted": (
            {"type": "turn", "bet": turn.bet, "spells": list(turn.spells), "clone": turn.clone}
            if turn is not None
            else None
        ),
        "clone_options": state.clone_options(seat) if CLONE in p.hand else [],
        "max_bet": p.mana,
    }
    if state.variant == "chosen_order":
        you["stock"] = list(p.stock)  # you chose it
    if asked is not None and asked[0] == "recycle" and (bound := asked[1]) is not None:
        you["recycle"] = {"bet": state.current().bets[seat], "min": bound.low, "max": bound.high}
    return you
