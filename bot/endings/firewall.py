"""Firewall at the end of a match (the end-of-match card, cogs/ending.py): mana spent and spells
cast; each wizard's hand, stock and bets revealed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.matches import Ending
from rules.firewall.spells import names
from rules.text import plural


def _per_seat(value: Any, seat: int) -> int:
    if isinstance(value, list) and seat < len(value) and isinstance(value[seat], int):
        return int(value[seat])
    return 0


def figures(ending: Ending) -> dict[int, list[str]]:
    """Per seat: mana spent (bets paid, and mana spent moving the wall), spells cast, mana left."""
    out: dict[int, list[str]] = {}
    players = ending.public_view.get("players") or []
    for s in range(len(ending.names)):
        spent = sum(_per_seat(e.data.get("paid"), s) for e in ending.of_kind("turn_end"))
        spent += sum(int(e.data.get("points") or 0) for e in ending.of_kind("out_of_mana") if e.data.get("mover") == s)
        cast = 0
        for e in ending.of_kind("reveal"):
            spells = e.data.get("spells")
            if isinstance(spells, list) and s < len(spells):
                cast += len(spells[s] or ())
        left = players[s].get("mana") if s < len(players) else None
        out[s] = [f"Mana spent: {spent}", f"Spells cast: {cast}"] + ([f"Mana left: {left}"] if left is not None else [])
    return out


def secrets(ending: Ending) -> dict[int, list[str]]:
    """Per seat: the hand and stock at the end, and every bet."""
    out: dict[int, list[str]] = {}
    players = ending.public_view.get("players") or []
    for s in range(len(ending.names)):
        you: Mapping[str, Any] = ending.views[s].get("you") or {}
        hand = [int(c) for c in you.get("hand") or ()]
        bets = [_per_seat(e.data.get("bets"), s) for e in ending.of_kind("reveal")]
        stock = players[s].get("stock_count") if s < len(players) else None
        lines = [f"Hand at the end: {names(hand) if hand else 'empty'}"]
        if stock is not None:
            lines.append(f"Stock left: {plural(stock, 'card')}")
        lines.append("Bets: " + (", ".join(str(b) for b in bets) if bets else "none"))
        out[s] = lines
    return out


NOTE: str | None = None
