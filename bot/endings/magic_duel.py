"""Magic Duel at the end of a match (the end-of-match card, cogs/ending.py): tricks won and
points; every hand, risked card and face-down spell revealed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.matches import Ending
from rules.magic_duel.cards import labels


def figures(ending: Ending) -> dict[int, list[str]]:
    """Per seat: tricks won over the match, and tournament points."""
    won: Counter[int] = Counter()
    for e in ending.of_kind("trick_won"):
        winner = e.data.get("winner")
        if isinstance(winner, int):
            won[winner] += 1
    players = ending.public_view.get("players") or []
    out: dict[int, list[str]] = {}
    for s in range(len(ending.names)):
        points = players[s].get("points") if s < len(players) else None
        out[s] = [f"Tricks won: {won[s]}"] + ([f"Points: {points}"] if points is not None else [])
    return out


def _spell(play: Mapping[str, Any]) -> str:
    return f"{play.get('combination', '?')} ({labels([str(c) for c in play.get('cards') or ()])})"


def secrets(ending: Ending) -> dict[int, list[str]]:
    """Per seat: the hand at the end, the cards put on the Deck of Risk, the face-down spells."""
    out: dict[int, list[str]] = {}
    for s in range(len(ending.names)):
        you: Mapping[str, Any] = ending.views[s].get("you") or {}
        hand = [str(c) for c in you.get("hand") or ()]
        risked = [str(e.data["card"]) for e in ending.of_kind("risk_private") if e.data.get("seat") == s]
        hidden = [e.data for e in ending.of_kind("play_private") if e.data.get("seat") == s]
        lines = [f"Hand at the end: {labels(hand) if hand else 'empty'}"]
        lines.append(f"Risked: {labels(risked)}" if risked else "Risked: nothing")
        if hidden:
            cast = "; ".join(_spell(d) for d in hidden)
            lines.append(f"Cast face-down: {cast}")
        out[s] = lines
    return out


NOTE: str | None = None
