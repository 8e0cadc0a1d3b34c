"""Firewall's board on the web table: the bridge of flagstones (the collapsed ones as lava), the
Fire Wall where it stands and where the round began, each wizard on its flagstone with its name
and mana below (docs/rulings/firewall.md#a-turn). Drawn from the spectator view only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import WIDTH, Links, svg, text

SIDES = ("#2f6fd1", "#c2410c")  # seat 0, seat 1


def draw(view: Mapping[str, Any], names: Sequence[str], *, links: Links | None = None) -> str:
    bridge = view["bridge"]
    length = int(bridge["length"])
    broken = {int(i) for i in bridge["broken"]}
    margin = 10
    step = (WIDTH - 2 * margin) / length
    top, stone = 60, 44
    parts = [f'<rect width="{WIDTH}" height="250" fill="#fbf7ef"/>']
    where = f"Round {view.get('round', '?')}, turn {int(view.get('turn', 0)) + 1}"
    parts.append(text(WIDTH / 2, 34, where, fill="#1d1d27"))
    for i in range(length):
        x = margin + i * step
        lava = i in broken
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{top}" width="{step - 2:.1f}" height="{stone}" rx="4"'
            f' fill="{"#e4572e" if lava else "#cfc6b4"}" stroke="#6b6355" stroke-width="1">'
            f"<title>flagstone {i}{' (lava)' if lava else ''}</title></rect>"
        )
    start = int(bridge["round_start_wall"])
    x0 = margin + start * step + step / 2
    parts.append(
        f'<line x1="{x0:.1f}" y1="{top - 8}" x2="{x0:.1f}" y2="{top + stone + 8}"'
        ' stroke="#999" stroke-dasharray="4 4"/>'
    )
    wall = int(bridge["wall"])
    xw = margin + wall * step
    parts.append(
        f'<rect x="{xw + 2:.1f}" y="{top - 12}" width="{step - 4:.1f}" height="{stone + 24}" rx="6" fill="#f59e0b"'
        f' stroke="#b45309" stroke-width="2"><title>the Fire Wall, flagstone {wall}</title></rect>'
    )
    for player in view["players"]:
        seat = int(player["seat"])
        xs = margin + int(player["wizard"]) * step + step / 2
        colour = SIDES[seat % 2]
        parts.append(f'<circle cx="{xs:.1f}" cy="{top + stone / 2}" r="{min(step / 2 - 3, 16):.1f}" fill="{colour}"/>')
        name = names[seat] if seat < len(names) else f"seat {seat + 1}"
        anchor_x = margin + 4 if seat == 0 else WIDTH - margin - 4
        anchor = "start" if seat == 0 else "end"
        parts.append(text(anchor_x, 160, name, anchor=anchor, fill=colour, font_weight="bold"))
        parts.append(text(anchor_x, 196, f"mana {player['mana']}", anchor=anchor, fill="#1d1d27"))
        if player.get("submitted"):
            parts.append(text(anchor_x, 232, "has locked in", anchor=anchor, fill="#5b5b6b"))
    title = f"Firewall: the wall on flagstone {wall} of {length}; " + ", ".join(
        f"{names[int(p['seat'])] if int(p['seat']) < len(names) else p['seat']} on {p['wizard']} with {p['mana']} mana"
        for p in view["players"]
    )
    return svg(WIDTH, 250, parts, title=title)


BOARD = draw
