"""Scoring a Magic Duel hand and ending the game (docs/rulings/magic-duel.md, 27 to 31)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from ..core import Outcome, Result, SeatResult, seat_ref


class ScoringRecord(TypedDict):
    """The last hand's scoring (the view's ``last_scoring`` and the ``hand_scored`` event's data)."""

    hand: int
    tricks: list[int]
    best: list[int]
    zero_tricks: list[int]
    doubled: bool
    awarded: list[int]
    points: list[int]


def join_seats(seats: Sequence[int]) -> str:
    """``{p1}``, ``{p1} and {p2}``, ``{p1}, {p2} and {p3}``."""
    names = [seat_ref(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def score_hand(
    hand_no: int, counts: Sequence[int], active: Sequence[int], points: list[int]
) -> tuple[ScoringRecord, str]:
    """Score a hand from the trick counts: the most tricks get 1 point plus 1 per player with no
    trick, doubled if nobody else gathered one. Adds the awards to ``points``; returns the record
    and its sentence."""
    best = max((counts[s] for s in active), default=0)
    top = [s for s in active if counts[s] == best] if best > 0 else []
    zeros = [s for s in active if counts[s] == 0]
    award = [0] * len(points)
    doubled = False
    if top:
        pts = 1 + len(zeros)
        doubled = len(top) == 1 and len(zeros) == len(active) - 1
        if doubled:
            pts *= 2
        for s in top:
            award[s] = pts
            points[s] += pts
    if not top:
        text = f"Hand {hand_no} ends with no trick gathered: nobody scores."
    else:
        names = join_seats(top)
        text = (
            f"Hand {hand_no}: {names} gathered the most tricks ({best}) and "
            f"{'each ' if len(top) > 1 else ''}score{'s' if len(top) == 1 else ''} {award[top[0]]} point"
            f"{'s' if award[top[0]] != 1 else ''}"
            f" (1 + {len(zeros)} for the wizard{'s' if len(zeros) != 1 else ''} with no trick"
            + (", doubled: nobody else gathered a trick" if doubled else "")
            + ")."
        )
    record = ScoringRecord(
        hand=hand_no,
        tricks=list(counts),
        best=top,
        zero_tricks=zeros,
        doubled=doubled,
        awarded=award,
        points=list(points),
    )
    return record, text


def ranks(points: Sequence[int], active: Sequence[int], removed: Sequence[int]) -> tuple[int, ...]:
    """By points (equal points share a rank), then the removed players, the last to leave first."""
    out = [0] * len(points)
    for s in active:
        out[s] = 1 + sum(1 for o in active if points[o] > points[s])
    nxt = len(active) + 1
    for s in reversed(removed):
        out[s] = nxt
        nxt += 1
    return tuple(out)


def final_outcome(points: Sequence[int], active: Sequence[int], removed: Sequence[int]) -> Outcome:
    """The end of the tournament: the most points win (equal most points share the victory)."""
    best = max(points[s] for s in active)
    winners = [s for s in active if points[s] == best]
    names = join_seats(winners)
    if len(winners) == 1:
        summary = f"{names} wins the tournament with {best} points."
    else:
        summary = f"{names} share the victory with {best} points each."
    seats = []
    for s in range(len(points)):
        if s in winners:
            seats.append(SeatResult(Result.WIN, summary))
        elif s in removed:
            seats.append(SeatResult(Result.LOSS, f"{seat_ref(s)} left the game."))
        else:
            seats.append(SeatResult(Result.LOSS, f"{seat_ref(s)} finished with {points[s]} points. {summary}"))
    return Outcome(tuple(seats), summary, ranks(points, active, removed))


def last_standing_outcome(winner: int, points: Sequence[int], removed: Sequence[int]) -> Outcome:
    """Everyone else left: the last wizard standing wins."""
    summary = f"{seat_ref(winner)} is the last wizard standing and wins."
    seats = tuple(
        SeatResult(Result.WIN, summary) if s == winner else SeatResult(Result.LOSS, f"{seat_ref(s)} left the game.")
        for s in range(len(points))
    )
    return Outcome(seats, summary, ranks(points, [winner], removed))


__all__ = ["ScoringRecord", "final_outcome", "join_seats", "last_standing_outcome", "ranks", "score_hand"]
