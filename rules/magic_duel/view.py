"""What a seat (or a spectator) may see of a Magic Duel game. Everything the bot posts to a
channel comes from ``render_view(state, None)``: face-down spells show only their card count
until the reveal; hands, the Decks' contents and Risk discards stay secret."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, overload

from .cards import sorted_cards
from .game import Phase
from .scoring import ScoringRecord
from .state import MagicDuelState
from .table import TrickRecord
from .verdict import RevealedPlay

__all__ = [
    "AwaitingView",
    "DecksView",
    "DrawView",
    "PlayerView",
    "PlayView",
    "RevealedPlay",
    "ScoringRecord",
    "SeatView",
    "SpectatorView",
    "TrickRecord",
    "TrickView",
    "YouView",
    "render_view",
]


class PlayerView(TypedDict):
    seat: int
    removed: bool
    hand_size: int
    tricks: int  # gathered this hand
    points: int
    played: bool  # cast a spell in the current trick
    passed: bool  # passed the current trick (no cards)


class PlayView(TypedDict):
    """A spell of the current trick: its cards only once face-up."""

    seat: int
    face_up: bool
    count: int
    cards: list[str] | None
    combination: str | None


class TrickView(TypedDict):
    number: int
    replay: int
    last: bool
    order: list[int]  # seats still playing, leader first
    plays: list[PlayView]
    passed: list[int]


class DrawView(TypedDict):
    seat: int  # who draws now
    need: int  # how many cards they draw
    winner: int | None  # the trick winner (draws the extra card of advantage afterwards)


class DecksView(TypedDict):
    risk: int
    advantage: int
    closed: bool


class AwaitingView(TypedDict):
    kind: str
    seats: list[int]


class SpectatorView(TypedDict):
    game: str
    phase: str
    hand: int
    points_to_win: int
    decks_used: int
    seat_order: list[int]
    turn_order: list[int]
    leader: int
    to_act: int | None
    awaiting: AwaitingView
    trick: TrickView | None
    draw: DrawView | None
    decks: DecksView
    cursed_by: int | None
    set_aside: int
    removed: list[int]
    players: list[PlayerView]
    last_trick: TrickRecord | None
    last_scoring: ScoringRecord | None
    outcome: NotRequired[dict[str, Any]]


class YouView(TypedDict):
    seat: int
    hand: list[str]  # sorted
    to_act: bool
    asked: str | None  # the decision's kind ("trick", "draw") when the seat is asked
    played: list[str] | None  # the seat's spell in the current trick
    risked: str | None  # the card it put on the Deck of Risk for that spell


class SeatView(SpectatorView):
    you: YouView


def _trick(state: MagicDuelState) -> TrickView | None:
    t = state.trick
    if t is None:
        return None
    return TrickView(
        number=t.number,
        replay=t.replay,
        last=t.last,
        order=[s for s in t.order if s not in state.removed],
        plays=[
            PlayView(
                seat=p.seat,
                face_up=p.face_up,
                count=len(p.cards),
                cards=list(p.cards) if p.face_up else None,
                combination=p.combo.kind.title if p.face_up else None,
            )
            for p in t.plays
        ],
        passed=list(t.passed),
    )


@overload
def render_view(state: MagicDuelState, seat: None) -> SpectatorView: ...


@overload
def render_view(state: MagicDuelState, seat: int) -> SeatView: ...


@overload
def render_view(state: MagicDuelState, seat: int | None) -> SpectatorView: ...


def render_view(state: MagicDuelState, seat: int | None) -> SpectatorView:
    t = state.trick
    to_act = state.current_seat()
    counts = state.tricks_count()
    played = {p.seat: p for p in t.plays} if t else {}
    players = [
        PlayerView(
            seat=s,
            removed=s in state.removed,
            hand_size=len(state.hands[s]),
            tricks=counts[s],
            points=state.points[s],
            played=s in played,
            passed=bool(t and s in t.passed),
        )
        for s in range(state.num_seats)
    ]
    drawing = state.draw_queue[0] if state.phase is Phase.DRAW and state.draw_queue else None
    aw = state.awaiting
    out = SpectatorView(
        game="magic-duel",
        phase=state.phase.value,
        hand=state.hand_no,
        points_to_win=state.points_to_win,
        decks_used=state.game.decks,
        seat_order=state.active,
        turn_order=state.rotation_from(state.leader) if state.active else [],
        leader=state.leader,
        to_act=to_act,
        awaiting=AwaitingView(kind=aw.kind.value, seats=sorted(aw.seats)),
        trick=_trick(state),
        draw=(
            None
            if drawing is None
            else DrawView(seat=drawing, need=state.draw_need(drawing), winner=state.trick_winner)
        ),
        decks=DecksView(risk=len(state.risk), advantage=len(state.advantage), closed=state.closed),
        cursed_by=state.cursed_by,
        set_aside=len(state.set_aside),
        removed=list(state.removed),
        players=players,
        last_trick=state.last_trick,
        last_scoring=state.last_scoring,
    )
    outcome = state.outcome
    if outcome is not None:
        out["outcome"] = outcome.to_json()
    if seat is None:
        return out
    mine = played.get(seat)
    decision = state.asked(seat)
    you = YouView(
        seat=seat,
        hand=sorted_cards(state.hands[seat]),
        to_act=to_act == seat,
        asked=decision.kind if decision is not None else None,
        played=list(mine.cards) if mine else None,
        risked=mine.risk if mine else None,
    )
    return SeatView(**out, you=you)
