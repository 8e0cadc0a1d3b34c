"""The /howto picture's drawing: two by two panels, each drawn with the game's real pieces
(Wizards Cup's cards, Firewall's bridge and mana, Magic Duel's playing cards, Arena's board with its
Wizards and Minions). 530 px wide: the smallest text (15 px) is 2.8% of the width, legible on a
phone. cogs/help.py lays the panels out with their captions (``howto_image``)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from .games.pictures import SEAT_COLOURS, font, seat_ink, star, text_with

WIDTH = 530
HEADER = 50
PANEL_PAD = 12
PANEL_W = (WIDTH - 3 * PANEL_PAD) // 2
PANEL_H = 232
ART_H = 150  # the picture part of a panel; the caption below it
HEIGHT = HEADER + 2 * (PANEL_H + PANEL_PAD) + 2
CAPTION_SIZE = 16
SMALL = 15  # legible(WIDTH)
INK = (235, 235, 235)
MUTED = (170, 170, 170)
PANEL = (40, 42, 46)
FIRE, LAVA, STONE, GOLD = (226, 88, 34), (190, 50, 30), (176, 164, 146), (240, 196, 64)
BLUE, ORANGE = SEAT_COLOURS[0], SEAT_COLOURS[1]
Box = tuple[float, float, float, float]  # left, top, right, bottom


def arena_numbers() -> tuple[int, int]:
    """(Minions per side, the board's side) of an Arena match with the default options."""
    from rules.arena import ArenaOptions
    from rules.arena.data import load_data

    return int(load_data().max_minions), int(ArenaOptions().grid_size)


def _centre(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _wc_cards(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """Two real Wizard cards: the random one (framed in gold) and one chosen."""
    from .games.wizards_cup.draw import GOLD as WC_GOLD
    from .games.wizards_cup.draw import Painter, card

    p = Painter(image)
    cx, cy = _centre(b)
    card(p, (cx - 96, cy - 64, cx - 6, cy + 50), "jester", frame=WC_GOLD)
    card(p, (cx + 12, cy - 64, cx + 102, cy + 50), "matron")
    text_with(d, (cx - 51, cy + 64), "drawn", fill=WC_GOLD, font=font(SMALL), anchor="mm")
    text_with(d, (cx + 57, cy + 64), "chosen", fill=MUTED, font=font(SMALL), anchor="mm")


def _wc_order(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The five places of the playing order and the Waiting card face down."""
    cx, cy = _centre(b)
    w, gap = 38, 6
    x0 = cx - (5 * w + 4 * gap) / 2
    for i, label in enumerate(("1st", "2nd", "3rd", "4th", "5th")):
        x = x0 + i * (w + gap)
        d.rounded_rectangle([x, cy - 62, x + w, cy - 8], radius=6, fill=(52, 54, 62), outline=MUTED, width=2)
        text_with(d, (x + w / 2, cy - 35), label, fill=INK, font=font(SMALL), anchor="mm")
    d.rounded_rectangle([cx - 26, cy + 2, cx + 26, cy + 58], radius=6, fill=(72, 52, 140), outline=GOLD, width=2)
    text_with(d, (cx, cy + 30), "?", fill=INK, font=font(24), anchor="mm")
    text_with(d, (cx + 34, cy + 30), "Waiting", fill=GOLD, font=font(SMALL), anchor="lm")


def _wc_duel(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """A real duel: Water beats Fire (the Element decides), the winner framed in gold."""
    from .games.wizards_cup.draw import GOLD as WC_GOLD
    from .games.wizards_cup.draw import LOSER, Painter, card

    p = Painter(image)
    cx, cy = _centre(b)
    card(p, (cx - 106, cy - 62, cx - 14, cy + 48), "fire-wizard", frame=LOSER)
    card(p, (cx + 12, cy - 62, cx + 112, cy + 48), "water-wizard", frame=WC_GOLD)
    text_with(d, (cx, cy - 8), "vs", fill=MUTED, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 66), "Water beats Fire", fill=WC_GOLD, font=font(SMALL), anchor="mm")


def _stars(d: ImageDraw.ImageDraw, b: Box, n: int, label: str) -> None:
    cx, cy = _centre(b)
    for k in range(n):
        star(d, cx + (k - (n - 1) / 2) * 56, cy - 12, 26, GOLD)
    text_with(d, (cx, cy + 44), label, fill=GOLD, font=font(18), anchor="mm")


def _wc_cup(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    _stars(d, b, 2, "2 Victory tokens")


def _fw_bridge(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The real bridge: its flagstones, the Fire Wall where it starts and both wizards."""
    from rules.firewall import BRIDGE, START_WALL

    cell = (b[2] - b[0] - 8) / BRIDGE
    left, top = b[0] + 4, (b[1] + b[3]) / 2 + 6
    d.rectangle([b[0], top + 14, b[2], top + 30], fill=LAVA)
    for i in range(BRIDGE):
        d.rectangle([left + i * cell + 1, top, left + (i + 1) * cell - 1, top + 16], fill=STONE)
    wall = left + START_WALL * cell
    d.rectangle([wall + 1, top - 50, wall + cell - 1, top], fill=FIRE)
    d.rectangle([wall + 4, top - 42, wall + cell - 4, top - 4], fill=GOLD)
    for seat, pos in ((0, START_WALL - 3), (1, START_WALL + 3)):
        x = left + (pos + 0.5) * cell
        colour = SEAT_COLOURS[seat]
        d.polygon([(x - 7, top), (x + 7, top), (x, top - 24)], fill=colour)
        d.ellipse([x - 5, top - 32, x + 5, top - 22], fill=(240, 210, 180))
        d.polygon([(x - 6, top - 28), (x + 6, top - 28), (x + 1, top - 44)], fill=colour)
    for pos in (0, START_WALL, BRIDGE - 1):
        text_with(d, (left + (pos + 0.5) * cell, top + 44), str(pos), fill=INK, font=font(SMALL), anchor="mm")
    text_with(d, (wall + cell / 2, top - 66), "Fire Wall", fill=GOLD, font=font(SMALL), anchor="mm")


def _gauge(d: ImageDraw.ImageDraw, x: float, y: float, w: float, mana: int, seat: int) -> None:
    from rules.firewall import MAX_MANA

    d.rectangle([x, y, x + w, y + 14], fill=(55, 57, 62), outline=MUTED)
    d.rectangle([x, y, x + w * mana / MAX_MANA, y + 14], fill=SEAT_COLOURS[seat])
    text_with(d, (x + w / 2, y - 12), f"{mana} / {MAX_MANA} mana", fill=INK, font=font(SMALL), anchor="mm")


def _fw_bet(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """Mana to bet (full at the round's start) and a spell laid face down."""
    from rules.firewall import MAX_MANA

    cx, cy = _centre(b)
    _gauge(d, b[0] + 14, cy - 30, b[2] - b[0] - 28, MAX_MANA, 0)
    _gauge(d, b[0] + 14, cy + 30, b[2] - b[0] - 28, MAX_MANA - 12, 0)
    text_with(d, (cx, cy + 62), "bet 12: both bets are paid", fill=GOLD, font=font(SMALL), anchor="mm")


def _fw_push(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The higher attack pushes the wall one flagstone toward the other wizard."""
    cx, cy = _centre(b)
    d.rectangle([cx - 8, cy - 44, cx + 8, cy + 16], fill=FIRE)
    d.line([(cx - 20, cy - 14), (cx + 44, cy - 14)], fill=INK, width=4)
    d.polygon([(cx + 44, cy - 24), (cx + 44, cy - 4), (cx + 60, cy - 14)], fill=INK)
    text_with(d, (b[0] + 12, cy - 40), "attack 14", fill=seat_ink(0, PANEL), font=font(18), anchor="lm")
    text_with(d, (b[2] - 12, cy + 40), "attack 9", fill=seat_ink(1, PANEL), font=font(18), anchor="rm")


def _fw_lava(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    d.rectangle([b[0] + 10, cy + 10, b[2] - 10, cy + 34], fill=LAVA)
    d.ellipse([cx - 8, cy - 26, cx + 8, cy - 10], fill=ORANGE)
    d.polygon([(cx - 10, cy + 22), (cx + 10, cy + 22), (cx, cy - 12)], fill=ORANGE)
    text_with(d, (cx, cy - 50), "fell: loses", fill=INK, font=font(18), anchor="mm")


def _md_cards(d: ImageDraw.ImageDraw, x: float, y: float, cards: Sequence[str], w: float = 44, gap: float = 6) -> None:
    from .games.magic_duel.art import draw_card

    for i, cid in enumerate(cards):
        draw_card(d, x + i * (w + gap), y, w, w * 1.42, cid, small=SMALL)


def _md_hand(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """A real hand of seven playing cards."""
    from rules.magic_duel.cards import HAND_SIZE

    hand = ["3C", "7H", "7D", "7S", "10H", "QS", "KD"][:HAND_SIZE]
    cx, cy = _centre(b)
    _md_cards(d, cx - 92, cy - 68, hand[:4], w=44, gap=2)
    _md_cards(d, cx - 92, cy + 2, hand[4:], w=44, gap=2)
    text_with(d, (cx + 50, cy + 34), f"{HAND_SIZE} cards", fill=GOLD, font=font(18), anchor="lm")


def _md_combos(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    _md_cards(d, cx - 74, cy - 52, ["7H", "7D", "7S"], w=44)
    text_with(d, (cx, cy + 26), "Thrack: 3 of a value", fill=INK, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 50), "Codu 2 · Raquav 4", fill=MUTED, font=font(SMALL), anchor="mm")


def _md_trick(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """A trick: two Codus, the higher value wins."""
    cx, cy = _centre(b)
    for row, (cards, words, colour) in enumerate(
        ((["7C", "7D"], "Codu of 7s", MUTED), (["KS", "KH"], "Kings WIN", GOLD))
    ):
        y = cy - 62 + row * 68
        _md_cards(d, b[0] + 38, y, cards, w=38)
        text_with(d, (b[0] + 124, y + 27), words, fill=colour, font=font(SMALL), anchor="lm")
    d.rounded_rectangle([b[0] + 30, cy + 1, b[2] - 4, cy + 62], radius=8, outline=GOLD, width=2)


def _md_score(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    _stars(d, b, 3, "3 points win")


def _arena_board(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The real board: the grid of the default options, each Wizard and its Minions on its edge."""
    minions, grid = arena_numbers()
    cell = min(int((b[3] - b[1] - 8) / grid), 14)
    cx, cy = _centre(b)
    x0, y0 = cx - grid * cell / 2, cy - grid * cell / 2
    for gy in range(grid):
        for gx in range(grid):
            fill = (206, 186, 148) if (gx + gy) % 2 else (194, 173, 134)
            d.rectangle([x0 + gx * cell, y0 + gy * cell, x0 + (gx + 1) * cell, y0 + (gy + 1) * cell], fill=fill)
    for seat, row in ((0, grid - 1), (1, 0)):
        first = (grid - 1 - minions) // 2
        for k in range(minions + 1):
            x, y = x0 + (first + k + 0.5) * cell, y0 + (row + 0.5) * cell
            r = cell * 0.45
            if k == minions // 2:  # the Wizard: round
                d.ellipse([x - r, y - r, x + r, y + r], fill=SEAT_COLOURS[seat], outline=INK)
            else:
                d.rectangle([x - r, y - r, x + r, y + r], fill=SEAT_COLOURS[seat], outline=INK)
    text_with(d, (x0 - 6, y0 + grid * cell / 2), str(grid), fill=INK, font=font(SMALL), anchor="rm")


def _arena_dice(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    for x, value in ((cx - 50, 3), (cx + 6, 5)):
        d.rounded_rectangle([x, cy - 36, x + 44, cy + 8], radius=7, fill=INK)
        pips = {3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)]}.get(
            value, [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)]
        )
        for px, py in pips:
            X, Y = x + px * 44, cy - 36 + py * 44
            d.ellipse([X - 4, Y - 4, X + 4, Y + 4], fill=(30, 30, 30))
    text_with(d, (cx, cy + 30), "3: the Discipline Spell", fill=GOLD, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 52), "5: Empower", fill=GOLD, font=font(SMALL), anchor="mm")


def _arena_attack(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    text_with(d, (cx, cy - 40), "attack: 4 + 3 = 7", fill=seat_ink(0, PANEL), font=font(18), anchor="mm")
    text_with(d, (cx, cy - 8), "defend: 2 + 4 = 6", fill=seat_ink(1, PANEL), font=font(18), anchor="mm")
    text_with(d, (cx, cy + 26), "7 beats 6: a hit", fill=GOLD, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 50), "equal: it explodes", fill=MUTED, font=font(SMALL), anchor="mm")


def _arena_ko(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    r = 30
    d.ellipse([cx - r, cy - 20 - r, cx + r, cy - 20 + r], fill=(110, 110, 110), outline=INK, width=2)
    d.line([(cx - 28, cy - 48), (cx + 28, cy + 8)], fill=(220, 40, 40), width=6)
    d.line([(cx + 28, cy - 48), (cx - 28, cy + 8)], fill=(220, 40, 40), width=6)
    text_with(d, (cx, cy + 40), "0 Health: out", fill=INK, font=font(18), anchor="mm")


ICONS = {
    "wc-cards": _wc_cards,
    "wc-order": _wc_order,
    "wc-duel": _wc_duel,
    "wc-cup": _wc_cup,
    "fw-bridge": _fw_bridge,
    "fw-bet": _fw_bet,
    "fw-push": _fw_push,
    "fw-lava": _fw_lava,
    "md-hand": _md_hand,
    "md-combos": _md_combos,
    "md-trick": _md_trick,
    "md-score": _md_score,
    "arena-board": _arena_board,
    "arena-dice": _arena_dice,
    "arena-attack": _arena_attack,
    "arena-ko": _arena_ko,
}


def wrap(draw: ImageDraw.ImageDraw, text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels (a word too long alone is clipped)."""
    lines: list[str] = []
    for word in text.split():
        line = f"{lines[-1]} {word}" if lines else word
        if lines and draw.textlength(line, font=font(size)) <= width:
            lines[-1] = line
            continue
        while draw.textlength(word, font=font(size)) > width and len(word) > 1:
            word = word[:-2] + "…"
        lines.append(word)
    return lines


def panel_boxes(panels: int) -> list[Box]:
    """Each panel's frame: two columns, as many rows as needed."""
    out: list[Box] = []
    for i in range(panels):
        left = PANEL_PAD + (i % 2) * (PANEL_W + PANEL_PAD)
        top = HEADER + PANEL_PAD + (i // 2) * (PANEL_H + PANEL_PAD)
        out.append((left, top, left + PANEL_W, top + PANEL_H))
    return out


def caption_boxes(panels: int) -> list[Box]:
    """Where each panel's caption is written (its text must fit there)."""
    return [(b[0] + 6, b[1] + ART_H + 8, b[2] - 6, b[3] - 4) for b in panel_boxes(panels)]
