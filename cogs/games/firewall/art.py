"""Firewall's bridge, drawn from the spectator view only: a PNG picture and an emoji strip.

Both show the same things: the flagstones (broken ones are lava), the Fire Wall, both wizards in
their seat colours with their names, and both mana gauges. Nothing here can see a secret: the
functions take ``view(None)`` (or any view: they only read its public part).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from PIL import Image, ImageDraw

from rules.firewall import BRIDGE, MAX_MANA, FirewallView

from ..pictures import (
    DARK_INK,
    MUTED,
    PICTURES,
    SEAT_EMOJI,
    TEXT,
    bar,
    canvas,
    legible,
    seat_colour,
    seat_ink,
    text_centered,
)

CELL = 30  # pixels per flagstone
MARGIN_CELLS = 2  # lava drawn beyond each end of the bridge (a wizard may stand past it when falling)
WIDTH_CELLS = BRIDGE + 2 * MARGIN_CELLS
WIDTH = WIDTH_CELLS * CELL  # 690
HEIGHT = 300
SIZE = legible(WIDTH)  # 20 px: the smallest text (2.8% of the width)
DECK_TOP, DECK_BOTTOM = 156, 190  # the flagstones
STONE = (176, 164, 146)
STONE_EDGE = (70, 62, 55)
LAVA = (205, 62, 18)
LAVA_GLOW = (250, 140, 30)
WALL_CORE = (255, 214, 90)
WALL_FLAME = (240, 100, 20)

# Emoji strip
EMOJI_STONE = "🟫"
EMOJI_LAVA = "🟥"
EMOJI_WALL = "🔥"
EMOJI_FALLEN = "💀"
MANA_EMOJI = ("🟦", "🟧")


def _bridge(view: FirewallView) -> tuple[int, int, list[int], set[int], int]:
    b = view["bridge"]
    return b["length"], b["wall"], list(b["wizards"]), set(b["broken"]), b["round_start_wall"]


def _gone(pos: int, length: int, broken: set[int]) -> bool:
    return pos < 0 or pos >= length or pos in broken


def _x(pos: int) -> int:
    """Left edge of flagstone ``pos`` in the picture."""
    return (pos + MARGIN_CELLS) * CELL


def _short(name: str, limit: int = 14) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _wizard(draw: ImageDraw.ImageDraw, cx: int, base: int, colour: tuple[int, int, int], fallen: bool) -> None:
    """A little wizard: robe, head, pointed hat. A fallen one is drawn sinking, greyed out."""
    if fallen:
        base += 26
        colour = tuple(int(c * 0.55) for c in colour)  # type: ignore[assignment]
    draw.polygon([(cx - 11, base), (cx + 11, base), (cx, base - 34)], fill=colour, outline=TEXT)  # robe
    draw.ellipse([cx - 7, base - 42, cx + 7, base - 28], fill=(240, 210, 180), outline=TEXT)  # head
    draw.polygon([(cx - 9, base - 38), (cx + 9, base - 38), (cx + 2, base - 58)], fill=colour, outline=TEXT)  # hat


def _wall(draw: ImageDraw.ImageDraw, x0: int) -> None:
    top = 84
    draw.rectangle([x0 + 3, top, x0 + CELL - 4, DECK_TOP], fill=WALL_FLAME)
    for i in range(4):  # flame tongues
        fx = x0 + 4 + i * 7
        draw.polygon([(fx, top + 4), (fx + 6, top + 4), (fx + 3, top - 14 + (i % 2) * 6)], fill=WALL_FLAME)
    draw.rectangle([x0 + 10, top + 10, x0 + CELL - 11, DECK_TOP - 4], fill=WALL_CORE)


def bridge_image(view: FirewallView, names: Sequence[str]) -> Image.Image:
    """The bridge as a picture (690 x 300)."""
    length, wall, wizards, broken, start = _bridge(view)
    players = view["players"]
    img, draw = canvas(WIDTH, HEIGHT)
    # lava river under the whole bridge
    draw.rectangle([0, DECK_BOTTOM - 6, WIDTH, DECK_BOTTOM + 22], fill=LAVA)
    for i in range(0, WIDTH, 16):
        draw.arc([i, DECK_BOTTOM + 2, i + 16, DECK_BOTTOM + 14], 200, 340, fill=LAVA_GLOW, width=2)
    # flagstones
    for pos in range(-MARGIN_CELLS, length + MARGIN_CELLS):
        x0 = _x(pos)
        if _gone(pos, length, broken):
            if 0 <= pos < length:  # a broken flagstone: a few crumbs over the lava
                draw.rectangle([x0 + 2, DECK_TOP + 14, x0 + CELL - 3, DECK_BOTTOM], fill=LAVA)
                draw.line([x0 + 6, DECK_TOP + 18, x0 + CELL - 8, DECK_BOTTOM - 4], fill=LAVA_GLOW, width=2)
            continue
        draw.rectangle([x0 + 1, DECK_TOP, x0 + CELL - 2, DECK_BOTTOM], fill=STONE, outline=STONE_EDGE, width=2)
        text_centered(draw, (x0 + CELL / 2, (DECK_TOP + DECK_BOTTOM) / 2), str(pos), SIZE, fill=DARK_INK)
    # where the wall stood when the round began
    if start != wall:
        cx = _x(start) + CELL // 2
        draw.polygon([(cx - 6, DECK_BOTTOM + 34), (cx + 6, DECK_BOTTOM + 34), (cx, DECK_BOTTOM + 26)], fill=MUTED)
    _wall(draw, _x(wall))
    # wizards and their names
    for seat, pos in enumerate(wizards):
        pos_clamped = max(-MARGIN_CELLS, min(length + MARGIN_CELLS - 1, pos))
        cx = _x(pos_clamped) + CELL // 2
        fallen = _gone(pos, length, broken)
        _wizard(draw, cx, DECK_TOP - 2, seat_colour(seat), fallen)
        label = _short(names[seat] if seat < len(names) else f"Player {seat + 1}") + (" (fell)" if fallen else "")
        lx = min(max(cx, 80), WIDTH - 80)
        text_centered(draw, (lx, 56), label, SIZE + 2, fill=seat_ink(seat))
    # title line between the names
    title = f"Round {view['round']}" + (f" · turn {view['turn']}" if view["turn"] else "")
    if view["muted"]:
        title += " · muted"
    if view["phase"] == "over":
        title += " · match over"
    text_centered(draw, (WIDTH / 2, 18), title, SIZE, fill=MUTED)
    # mana gauges: seat 0 on the left, seat 1 on the right
    gauge_w, gy = 280, HEIGHT - 30
    for seat in (0, 1):
        mana = players[seat]["mana"]
        x0 = 24 if seat == 0 else WIDTH - 24 - gauge_w
        text_centered(draw, (x0 + gauge_w / 2, gy - 16), f"{mana} / {MAX_MANA} mana", SIZE, fill=TEXT)
        draw.rectangle([x0, gy, x0 + gauge_w, gy + 18], fill=(55, 57, 62), outline=MUTED)
        filled = round(gauge_w * max(0, min(mana, MAX_MANA)) / MAX_MANA)
        if filled:
            draw.rectangle([x0, gy, x0 + filled, gy + 18], fill=seat_colour(seat))
    return img


def bridge_file(view: FirewallView, names: Sequence[str], filename: str | None = "bridge.png") -> discord.File:
    return PICTURES.file("firewall-bridge", [view, list(names)], filename, lambda: bridge_image(view, names))


def bridge_strip(view: FirewallView) -> str:
    """The bridge as one line of emoji: 🟫 flagstone, 🟥 lava, 🔥 the wall, 🔵/🟠 the wizards (💀 fallen)."""
    length, wall, wizards, broken, _ = _bridge(view)
    lo = min(0, *wizards)
    hi = max(length - 1, *wizards)
    cells = []
    for pos in range(lo, hi + 1):
        if pos in wizards:
            seat = wizards.index(pos)
            cells.append(EMOJI_FALLEN if _gone(pos, length, broken) else SEAT_EMOJI[seat])
        elif pos == wall:
            cells.append(EMOJI_WALL)
        else:
            cells.append(EMOJI_LAVA if _gone(pos, length, broken) else EMOJI_STONE)
    return "".join(cells)


def mana_bar(seat: int, mana: int) -> str:
    """An emoji gauge of a seat's mana in its colour, e.g. 🟦🟦🟦⬛⬛... 15/50."""
    return f"{bar(mana, MAX_MANA, 10, full=MANA_EMOJI[seat % 2])} {mana}/{MAX_MANA}"
