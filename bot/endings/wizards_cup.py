"""Wizards Cup at the end of a match (the end-of-match card, cogs/ending.py): duels won by
Element, Value and power; every Deck, planned order, swap and Waiting card revealed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from bot.matches import Ending

CRITERIA = (("element", "Element"), ("value", "Value"), ("power", "power"))


def card_name(ending: Ending, card_id: object) -> str:
    cards = getattr(ending.game, "cards", None)
    found = cards.by_id.get(str(card_id)) if cards is not None else None
    return found.name if found is not None else str(card_id)


def names(ending: Ending, ids: Any) -> str:
    return ", ".join(card_name(ending, c) for c in ids or ()) or "none"


def figures(ending: Ending) -> dict[int, list[str]]:
    """Per seat: duels won, by what decided them, and Victory tokens."""
    won: dict[int, Counter[str]] = {s: Counter() for s in range(len(ending.names))}
    for e in ending.of_kind("duel"):
        winner = e.data.get("winner")
        if isinstance(winner, int) and winner in won:
            won[winner][str(e.data.get("criterion"))] += 1
    players = ending.public_view.get("players") or []
    out: dict[int, list[str]] = {}
    for s, counts in won.items():
        by = ", ".join(f"{label} {counts[key]}" for key, label in CRITERIA if counts[key])
        line = f"Duels won: {sum(counts.values())}" + (f" ({by})" if by else "")
        tokens = players[s].get("tokens") if s < len(players) else None
        out[s] = [line] + ([f"Victory tokens: {tokens}"] if tokens is not None else [])
    return out


def secrets(ending: Ending) -> dict[int, list[str]]:
    """Per seat: the Deck at the end, each round's planned order and Waiting card, the swaps."""
    out: dict[int, list[str]] = {}
    for s in range(len(ending.names)):
        you: Mapping[str, Any] = ending.views[s].get("you") or {}
        lines = [f"Deck: {names(ending, you.get('deck'))}"]
        plans = [e.data for e in ending.of_kind("plan_private") if e.data.get("seat") == s]
        for n, plan in enumerate(plans, 1):
            order = " → ".join(card_name(ending, c) for c in plan.get("order") or ())
            lines.append(f"Order {n}: {order or 'none'} · Waiting: {card_name(ending, plan.get('waiting'))}")
        for n, e in enumerate((e for e in ending.of_kind("swap_private") if e.data.get("seat") == s), 2):
            remove, add = e.data.get("remove"), e.data.get("add")
            if remove is None or add is None:  # the Swap with neither card: the Deck kept
                lines.append(f"Before round {n}: kept the Deck")
            else:
                lines.append(f"Before round {n}: swapped {card_name(ending, remove)} for {card_name(ending, add)}")
        waiting = you.get("waiting")
        lines.append(f"Waiting card at the end: {card_name(ending, waiting) if waiting else 'none'}")
        out[s] = lines
    return out


NOTE: str | None = None
