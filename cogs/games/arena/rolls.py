"""Whose die is whose in Arena's roll-offs, and a roll's label without the engine's note of the
dice order: shared by the channel's story (``story``) and the board picture (``art``), which cannot
depend on each other. Pure functions of the view and the events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules import Event
from rules.arena.view import ArenaView

#: Two-dice roll-offs whose dice are one per player.
ROLL_OFFS = frozenset({"first_player", "rolloff", "explosion"})


def roll_seats(purpose: str, view: ArenaView, events: Sequence[Event], ctx: Any = None) -> list[int] | None:
    """Whose die is whose in a roll-off of two players' dice (None: not a roll-off)."""
    if purpose == "first_player":
        return [0, 1]  # seat 0's die first
    if purpose == "rolloff":
        p1 = int(view.get("player_one") or 0)
        return [p1, 1 - p1]  # Player 1's die first
    if purpose == "explosion":  # the active player's die, then the target's owner's
        opposed = next((e for e in events if e.kind == "opposed" and e.data.get("ctx") == ctx), None)
        if opposed is not None:
            a, t = opposed.data["attacker"]["model"], opposed.data["defender"]["model"]
            active = view.get("active")
            first = int(active) if isinstance(active, int) else int(a[1]) - 1
            return [first, int(t[1]) - 1] if int(t[1]) - 1 != first else [first, 1 - first]
        active = view.get("active")
        return [int(active), 1 - int(active)] if isinstance(active, int) else None
    return None


def roll_label(purpose: str, label: str) -> str:
    """A roll's label without the engine's note of the dice order ("(Player 1, Player 2)")."""
    if purpose in ROLL_OFFS and label.endswith(")") and " (" in label:
        return label.rsplit(" (", 1)[0]
    return label


def dice_text(purpose: str, dice: Sequence[int], seats: Sequence[int] | None) -> str:
    """The dice: "6, 2", or for a roll-off with its owners "{p1} 6, {p2} 2"."""
    if seats is None or len(seats) != len(dice) or purpose not in ROLL_OFFS:
        return ", ".join(map(str, dice))
    return ", ".join(f"{{p{s + 1}}} {v}" for s, v in zip(seats, dice, strict=True))


__all__ = ["ROLL_OFFS", "dice_text", "roll_label", "roll_seats"]
