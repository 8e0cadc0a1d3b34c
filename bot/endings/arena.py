"""Arena at the end of a match (the end-of-match card, cogs/ending.py): damage dealt and crowd
favour. Arena is played in the open: every roll and move was shown as it happened, so there is
nothing hidden to reveal (the card says so) beyond each Wizard's Discipline."""

from __future__ import annotations

from collections import Counter

from bot.matches import Ending

#: Damage a player does to their own side (the Blood Mage's pact): not "dealt".
SELF_INFLICTED = frozenset({"blood_pact"})


def owners(ending: Ending) -> dict[str, int]:
    """Model id -> owning seat, from the final view (models still on the board)."""
    out: dict[str, int] = {}
    for m in ending.public_view.get("models") or []:
        if isinstance(m, dict) and isinstance(m.get("owner"), int):
            out[str(m.get("id"))] = int(m["owner"])
    return out


def owner_of(model: object, known: dict[str, int]) -> int | None:
    """The seat owning a model: from the final view, else from its id (``p<seat + 1>-...``: a
    destroyed Minion has left the board)."""
    key = str(model)
    if key in known:
        return known[key]
    head = key.split("-", 1)[0]
    return int(head[1:]) - 1 if head.startswith("p") and head[1:].isdigit() else None


def figures(ending: Ending) -> dict[int, list[str]]:
    """Per seat: damage dealt to the other side's models, damage taken, Crowd Favour gained and
    left."""
    owner = owners(ending)
    seats = range(len(ending.names))
    taken: Counter[int] = Counter()
    dealt: Counter[int] = Counter()
    for e in ending.of_kind("damage"):
        victim = owner_of(e.data.get("model"), owner)
        amount = int(e.data.get("amount") or 0)
        if victim is None:
            continue
        taken[victim] += amount
        if e.data.get("cause") not in SELF_INFLICTED and len(ending.names) == 2:
            dealt[1 - victim] += amount
    gained: Counter[int] = Counter()
    for e in ending.of_kind("favour"):
        seat, change = e.data.get("seat"), int(e.data.get("change") or 0)
        if isinstance(seat, int) and change > 0:
            gained[seat] += change
    players = ending.public_view.get("players") or []
    out: dict[int, list[str]] = {}
    for s in seats:
        left = players[s].get("crowd_favour") if s < len(players) else None
        favour = f"Crowd Favour gained: {gained[s]}" + (f" ({left} left)" if left is not None else "")
        out[s] = [f"Damage dealt: {dealt[s]}", f"Damage taken: {taken[s]}", favour]
    return out


def secrets(ending: Ending) -> dict[int, list[str]]:
    """Nothing was hidden: each player's Discipline, for the record."""
    players = ending.public_view.get("players") or []
    out: dict[int, list[str]] = {}
    for s in range(len(ending.names)):
        name = players[s].get("discipline_name") if s < len(players) else None
        out[s] = [f"Discipline: {name}"] if name else []
    return out


NOTE: str | None = "Arena is played in the open: every roll and move was shown as it happened; nothing was hidden."
