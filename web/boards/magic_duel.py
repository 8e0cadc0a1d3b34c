"""Magic Duel's board on the web table: the hand and the points to win, each wizard's points,
tricks this hand and cards in hand (whose turn it is marked), the spells of the current trick (a
face-down spell as its card count only, until its reveal) and the Decks of Risk and Advantage
(docs/rulings/magic-duel.md). Drawn from the spectator view only: hands are never in it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.magic_duel.cards import labels

from . import WIDTH, Links, svg, text

COLOURS = ("#2f6fd1", "#c2410c", "#15803d", "#7e22ce", "#b45309", "#0e7490", "#be123c", "#4d7c0f")
ROW = 46


def draw(view: Mapping[str, Any], names: Sequence[str], *, links: Links | None = None) -> str:
    players = list(view["players"])
    trick = view.get("trick") or {}
    plays = {int(p["seat"]): p for p in trick.get("plays") or []}
    height = 150 + ROW * len(players) + 60
    parts = [f'<rect width="{WIDTH}" height="{height}" fill="#fbf7ef"/>']
    head = f"Hand {view.get('hand', '?')} · {view.get('points_to_win', '?')} points to win"
    parts.append(text(WIDTH / 2, 34, head, fill="#1d1d27"))
    parts.append(text(16, 84, "wizard", anchor="start", fill="#5b5b6b"))
    parts.append(text(300, 84, "points", fill="#5b5b6b"))
    parts.append(text(400, 84, "tricks", fill="#5b5b6b"))
    parts.append(text(520, 84, "spell", fill="#5b5b6b"))
    to_act = view.get("to_act")
    described = []
    for i, player in enumerate(players):
        seat = int(player["seat"])
        y = 130 + i * ROW
        name = names[seat] if seat < len(names) else f"seat {seat + 1}"
        colour = COLOURS[seat % len(COLOURS)]
        if to_act == seat:
            parts.append(f'<rect x="4" y="{y - 32}" width="{WIDTH - 8}" height="{ROW - 4}" rx="6" fill="#fff3c4"/>')
        shown = name if len(name) <= 14 else name[:13] + "…"
        if player.get("removed"):
            shown += " (out)"
        parts.append(text(16, y, shown, anchor="start", fill=colour, font_weight="bold"))
        parts.append(text(300, y, str(player["points"]), fill="#1d1d27"))
        parts.append(text(400, y, str(player["tricks"]), fill="#1d1d27"))
        play = plays.get(seat)
        if play is not None:
            spell = labels(play["cards"]) if play.get("face_up") and play.get("cards") else f"{play['count']} face down"
        else:
            spell = "passed" if player.get("passed") else ""
        parts.append(text(520, y, spell, fill="#1d1d27"))
        described.append(f"{name}: {player['points']} points, {player['tricks']} tricks")
    decks = view.get("decks") or {}
    foot = 150 + ROW * len(players) + 30
    parts.append(
        text(
            16,
            foot,
            f"Deck of Risk {decks.get('risk', 0)} · Advantage {decks.get('advantage', 0)}",
            anchor="start",
            fill="#5b5b6b",
        )
    )
    return svg(WIDTH, height, parts, title="Magic Duel: " + "; ".join(described))


BOARD = draw
