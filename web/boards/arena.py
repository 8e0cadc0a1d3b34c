"""Arena's board on the web table: the square grid with its column letters and row numbers (row 1
at the south edge, as the view counts it), terrain squares, and each model still on the board as a
disc of its owner's colour, W for a Wizard and M for a Minion, with its health (a model knocked
out is left off). Drawn from the view (Arena is open information: docs/rulings/arena.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from rules.events import fill_names

from . import WIDTH, Links, link, svg, text

SIDES = ("#2f6fd1", "#c2410c")
LABEL = 40  # the margin for the letters and numbers


def draw(view: Mapping[str, Any], names: Sequence[str], *, links: Links | None = None) -> str:
    """The board; ``links``: the squares (``"[x, y]"``) and models (``'"p1-wizard"'``) a seat's page
    lets its player click (see :data:`web.boards.Board`)."""
    links = links or {}
    size = int(view["grid"]["size"])
    cell = (WIDTH - LABEL - 8) / size
    height = LABEL + size * cell + 90
    parts = [f'<rect width="{WIDTH}" height="{height:.0f}" fill="#fbf7ef"/>']
    terrain = {(int(x), int(y)) for x, y in view.get("terrain") or []}

    def corner(x: int, y: int) -> tuple[float, float]:  # row 1 at the bottom
        return LABEL + x * cell, 8 + (size - 1 - y) * cell

    for x in range(size):
        for y in range(size):
            left, top = corner(x, y)
            fill = "#8b7d6b" if (x, y) in terrain else ("#e9e2d3" if (x + y) % 2 else "#f3eee3")
            square = (
                f'<rect x="{left:.1f}" y="{top:.1f}" width="{cell:.1f}" height="{cell:.1f}" fill="{fill}"'
                f' stroke="#c8bfae" stroke-width="1"/>'
            )
            href = links.get(json.dumps([x, y]))
            if href is not None:  # a square the player may choose: marked, and a link
                square += (
                    f'<circle cx="{left + cell / 2:.1f}" cy="{top + cell / 2:.1f}" r="{cell * 0.16:.1f}"'
                    f' fill="#2b2250" fill-opacity="0.45"/>'
                )
            parts.append(link(href, square, label=f"square {chr(ord('A') + x)}{y + 1}"))
    for i, letter in enumerate(view["grid"]["columns"]):
        parts.append(text(LABEL + (i + 0.5) * cell, 8 + size * cell + 30, str(letter), fill="#5b5b6b"))
    for y, number in enumerate(view["grid"]["rows"]):
        parts.append(text(LABEL / 2, 8 + (size - 1 - y + 0.5) * cell + 8, str(number), fill="#5b5b6b"))
    described = []
    for model in view["models"]:
        if model.get("knocked_out"):
            continue
        x, y = (int(v) for v in model["pos"])
        left, top = corner(x, y)
        colour = SIDES[int(model["owner"]) % 2]
        wizard = model["kind"] == "wizard"
        label = fill_names(str(model["label"]), list(names))
        href = links.get(json.dumps(str(model["id"])))
        stroke, width = ("#f5c400", 5) if href else ("#1d1d27", 3 if wizard else 1)  # a model to click: marked
        health = f"health {model['health']} of {model['max_health']}"
        disc = (
            f'<circle cx="{left + cell / 2:.1f}" cy="{top + cell / 2:.1f}" r="{cell * (0.42 if wizard else 0.34):.1f}"'
            f' fill="{colour}" stroke="{stroke}" stroke-width="{width}">'
            f"<title>{escape(label)}, {model['square']}, {health}</title></circle>"
        ) + text(left + cell / 2, top + cell / 2 + 9, "W" if wizard else "M", fill="#ffffff", font_weight="bold")
        parts.append(link(href, disc, label=f"{label} on {model['square']}"))
        described.append(f"{label} on {model['square']} ({model['health']}/{model['max_health']})")
    foot = 8 + size * cell + 72
    turn = f"Turn {view.get('game_turn', '?')} of {view.get('game_turn_limit', '?')}"
    favour = " · ".join(
        f"{names[int(p['seat'])] if int(p['seat']) < len(names) else p['seat']}: crowd {p['crowd_favour']}"
        for p in view["players"]
    )
    parts.append(text(LABEL, foot, f"{turn} · {favour}", anchor="start", fill="#1d1d27"))
    return svg(WIDTH, height, parts, title="Arena: " + ("; ".join(described) or "no model on the board yet"))


BOARD = draw
