"""Arena's board, drawn from the spectator view only: a PNG picture and a monospace text grid.

Both show the same things: the grid with its coordinates (columns A.., rows 1.. with row 1 at the
bottom, the south edge), the terrain, every model in its owner's colour (a Wizard is a round token
with a hat, a Minion a square token with its number) with its Health, knocked-out Wizards, lasting
effects, the model being activated, and both players' Crowd Favour. The picture also traces this
post's moves and attacks and shows the last dice. Arena has no secrets (``view(None) == view(seat)``);
the functions only read the view.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import discord
from PIL import Image, ImageDraw

from rules import Event, fill_names
from rules.arena.view import ArenaView, ModelView, PlayerView

from ..pictures import BACKGROUND, MUTED, PICTURES, TEXT, font, ink_on, legible, seat_colour, star
from ..pictures import text as draw_text
from .rolls import roll_label, roll_seats

BOARD_PX = 600  # the grid's side in pixels, whatever the number of squares
MARGIN = 34  # coordinates around the grid
FOOTER = 172
FLOOR = ((206, 186, 148), (194, 173, 134))  # sand, checkered
GRID_LINE = (150, 130, 98)
ROCK = (92, 90, 96)
ROCK_LIGHT = (140, 138, 146)
ROCK_DARK = (58, 56, 62)
KO_GREY = (110, 110, 110)
HIGHLIGHT = (255, 221, 0)
ATTACK = (220, 40, 40)
HEALTH_OK = (60, 180, 75)
HEALTH_LOW = (225, 60, 45)
WHITE = (255, 255, 255)

#: Effect markers: (letter, colour) drawn as little tags on a token. Shield is a ring, burning a flame.
EFFECT_TAGS: dict[str, tuple[str, tuple[int, int, int]]] = {
    "vines": ("V", (40, 120, 40)),
    "torment": ("T", (140, 60, 170)),
    "crippled": ("C", (120, 90, 60)),
    "hypnotic": ("H", (220, 90, 170)),
    "curse": ("K", (70, 70, 70)),
    "empower": ("E", (230, 170, 0)),
    "transmuted": ("X", (170, 30, 90)),
    "mutation": ("M", (90, 150, 60)),
    "insult": ("I", (150, 150, 150)),
}
EFFECT_WORDS = {
    "burning": "🔥 burning",
    "shield": "🛡️ shield",
    "vines": "🌿 vines",
    "torment": "😵 torment",
    "crippled": "🦴 crippled",
    "hypnotic": "🌀 hypnotised",
    "curse": "🕯️ cursed",
    "empower": "💪 empowered",
    "transmuted": "🧬 transmuted",
    "mutation": "🧬 mutation",
    "insult": "😤 insulted",
}


Box = tuple[float, float, float, float]
ANCHOR = {"left": "lm", "centre": "mm", "right": "rm"}


class BoardDraw(ImageDraw.ImageDraw):
    """An ImageDraw whose texts are fitted into the box the layout reserves for them: the font
    shrinks (down to ``min_size``), then the text is shortened with "…". ``texts`` records every
    text with the box it was drawn in and the box reserved for it (tests check one is in the other)."""

    def __init__(self, img: Image.Image) -> None:
        super().__init__(img)
        self.texts: list[tuple[str, Box, Box]] = []

    def _place(self, box: Box, align: str) -> tuple[tuple[float, float], str]:
        x0, y0, x1, y1 = box
        x = {"left": x0, "centre": (x0 + x1) / 2, "right": x1}[align]
        return (x, (y0 + y1) / 2), ANCHOR[align]

    def _fits(self, bb: Box, box: Box) -> bool:
        return bb[0] >= box[0] and bb[1] >= box[1] and bb[2] <= box[2] and bb[3] <= box[3]

    def measure(self, box: Box, text: str, size: int, align: str = "left", min_size: int = 8) -> tuple[str, int, Box]:
        """The text (shortened if need be), the font size and the text's box once fitted in ``box``;
        never smaller than the picture's legible size (2.8% of its width)."""
        min_size = max(min_size, legible(self._image.width))
        size = max(size, min_size)
        xy, anchor = self._place(box, align)
        for s in range(size, min_size - 1, -1):
            bb = self.textbbox(xy, text, font=font(s), anchor=anchor)
            if self._fits(bb, box):
                return text, s, bb
        s = min_size
        for n in range(len(text) - 1, 0, -1):
            short = text[:n].rstrip() + "…"
            bb = self.textbbox(xy, short, font=font(s), anchor=anchor)
            if self._fits(bb, box):
                return short, s, bb
        return "", s, (box[0], box[1], box[0], box[1])

    def fit(
        self, box: Box, text: str, size: int, fill: tuple[int, int, int] = TEXT, align: str = "left", min_size: int = 8
    ) -> Box:
        """Draw ``text`` inside ``box`` (vertically centred, aligned ``align``); its drawn box."""
        shown, s, bb = self.measure(box, text, size, align, min_size)
        if shown:
            xy, anchor = self._place(box, align)
            draw_text(self, xy, shown, s, fill, anchor=anchor)
            self.texts.append((shown, bb, box))
        return bb


def cell_px(size: int) -> int:
    return BOARD_PX // size


def image_size(size: int) -> tuple[int, int]:
    c = cell_px(size)
    return 2 * MARGIN + c * size, 2 * MARGIN + c * size + FOOTER


def _xy(sq: Sequence[int], size: int) -> tuple[int, int]:
    """Top-left pixel of square ``[x, y]`` (row 1 at the bottom)."""
    c = cell_px(size)
    return MARGIN + sq[0] * c, MARGIN + (size - 1 - sq[1]) * c


def _centre(sq: Sequence[int], size: int) -> tuple[float, float]:
    x, y = _xy(sq, size)
    c = cell_px(size)
    return x + c / 2, y + c / 2


def _minion_number(model_id: str) -> str:
    return model_id.rsplit("-m", 1)[-1] if "-m" in model_id else ""


MODEL_ID = re.compile(r"\bp([12])-(wizard|m\d+)\b")


def _id_token(player: str, rest: str) -> str:
    """The text grid's token for a model id: p1-wizard -> W1, p2-m3 -> m3."""
    t = f"W{player}" if rest == "wizard" else f"M{rest[1:]}"
    return t.upper() if player == "1" else t.lower()


def _effects(m: ModelView) -> list[str]:
    return [e["kind"] for e in m.get("effects", [])]


def _rock(draw: BoardDraw, x: int, y: int, c: int) -> None:
    p = max(2, c // 10)
    pts = [(x + p, y + c * 0.55), (x + c * 0.25, y + p), (x + c * 0.7, y + p * 1.5), (x + c - p, y + c * 0.45)]
    pts += [(x + c * 0.8, y + c - p), (x + c * 0.3, y + c - p)]
    draw.polygon(pts, fill=ROCK, outline=ROCK_DARK)
    draw.line([(x + c * 0.3, y + c * 0.35), (x + c * 0.55, y + c * 0.25)], fill=ROCK_LIGHT, width=max(1, c // 18))
    draw.line([(x + c * 0.45, y + c * 0.7), (x + c * 0.7, y + c * 0.6)], fill=ROCK_DARK, width=max(1, c // 18))


def _flame(draw: BoardDraw, cx: float, cy: float, r: float) -> None:
    draw.polygon(
        [(cx - r, cy + r), (cx + r, cy + r), (cx + r * 0.6, cy - r * 0.2), (cx, cy - r * 1.4)], fill=(240, 110, 20)
    )
    draw.polygon([(cx - r * 0.45, cy + r), (cx + r * 0.45, cy + r), (cx, cy - r * 0.3)], fill=(255, 220, 60))


def _model(draw: BoardDraw, m: ModelView, size: int, active: bool) -> None:
    """A model's token on its square: the highlight if it is activating, a shield ring, the token (a
    Wizard round with a hat, a Minion square with its number), Health, effects, a cross when out."""
    c = cell_px(size)
    x, y = _xy(m["pos"], size)
    cx, cy = x + c * 0.46, y + c * 0.55  # a little low and left: the Health badge is top right
    ko = m.get("knocked_out")
    fill = KO_GREY if ko else seat_colour(m["owner"])
    effects = _effects(m)
    r = c * 0.31
    if active:
        draw.rounded_rectangle(
            [x + 1, y + 1, x + c - 2, y + c - 2], radius=c // 6, outline=HIGHLIGHT, width=max(2, c // 16)
        )
    if "shield" in effects:
        draw.ellipse([cx - r - 4, cy - r - 4, cx + r + 4, cy + r + 4], outline=(80, 220, 255), width=max(2, c // 18))
    if m["kind"] == "wizard":
        _wizard_token(draw, cx, cy, r, c, fill)
    else:
        rr = r * 0.82
        draw.rounded_rectangle(
            [cx - rr, cy - rr, cx + rr, cy + rr], radius=max(2, c // 10), fill=fill, outline=TEXT, width=2
        )
        draw.fit((cx - rr, cy - rr, cx + rr, cy + rr), _minion_number(m["id"]), int(c * 0.36), ink_on(fill), "centre")
    _health(draw, m, x, y, c)
    _effect_tags(draw, effects, x, y, c)
    if ko:
        w = max(3, c // 12)
        draw.line([(x + c * 0.15, y + c * 0.15), (x + c * 0.85, y + c * 0.85)], fill=ATTACK, width=w)
        draw.line([(x + c * 0.85, y + c * 0.15), (x + c * 0.15, y + c * 0.85)], fill=ATTACK, width=w)


def _wizard_token(draw: BoardDraw, cx: float, cy: float, r: float, c: int, fill) -> None:
    """A Wizard: a round token with a pointed hat and a W."""
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=TEXT, width=2)
    draw.polygon(
        [(cx - r * 0.55, cy - r * 0.05), (cx + r * 0.55, cy - r * 0.05), (cx + r * 0.1, cy - r * 0.85)],
        fill=(250, 250, 250),
    )
    draw.line(
        [(cx - r * 0.7, cy - r * 0.05), (cx + r * 0.7, cy - r * 0.05)], fill=(250, 250, 250), width=max(2, c // 20)
    )
    draw.fit((cx - r * 0.7, cy - 1, cx + r * 0.7, cy + r * 0.95), "W", int(c * 0.3), ink_on(fill), "centre")


def _health(draw: BoardDraw, m: ModelView, x: int, y: int, c: int) -> None:
    """Health: a bar along the bottom of the square, and the number in the top right corner."""
    hp, mx = int(m["health"]), max(1, int(m["max_health"]))
    bx0, bx1, by = x + c * 0.1, x + c * 0.9, y + c - max(5, c // 9)
    bh = max(3, c // 14)
    draw.rectangle([bx0, by, bx1, by + bh], fill=(40, 40, 40))
    if hp > 0:
        frac = hp / mx
        col = HEALTH_OK if frac > 0.34 else HEALTH_LOW
        draw.rectangle([bx0, by, bx0 + (bx1 - bx0) * frac, by + bh], fill=col)
    badge = max(legible(draw._image.width) + 4, int(c * 0.36))
    room: Box = (x + c * 0.4, y + 2, x + c - 3, y + 2 + badge)  # the top right corner, inside the square
    text, size, bb = draw.measure(room, str(hp), int(c * 0.34), "right")
    draw.rounded_rectangle([bb[0] - 3, y + 1, x + c - 1, y + 3 + badge], radius=4, fill=(20, 20, 20))
    draw.fit(room, text, size, WHITE, "right", size)


def _effect_tags(draw: BoardDraw, effects: list[str], x: int, y: int, c: int) -> None:
    """Lasting effects down the left of the square: a flame for burning, letter tags for the rest."""
    tx, ty = x + 3, y + 3
    tag = max(legible(draw._image.width) + 4, c // 5)
    if "burning" in effects:
        _flame(draw, tx + tag / 2, ty + tag / 2 + 2, tag / 2.4)
        ty += tag + 1
    for kind in effects:
        if kind in EFFECT_TAGS and ty + tag < y + c - 6:
            letter, col = EFFECT_TAGS[kind]
            draw.ellipse([tx, ty, tx + tag, ty + tag], fill=col, outline=(255, 255, 255))
            draw.fit((tx, ty, tx + tag, ty + tag), letter, int(tag * 0.8), ink_on(col), "centre")
            ty += tag + 1


def _arrow(draw: BoardDraw, a: tuple[float, float], b: tuple[float, float], colour, width: int) -> None:
    draw.line([a, b], fill=colour, width=width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    k = 4 * width
    left = (b[0] - k * math.cos(ang - 0.45), b[1] - k * math.sin(ang - 0.45))
    right = (b[0] - k * math.cos(ang + 0.45), b[1] - k * math.sin(ang + 0.45))
    draw.polygon([b, left, right], fill=colour)


def _traces(draw: BoardDraw, view: ArenaView, events: Sequence[Event]) -> None:
    """This post's moves (dotted paths in the owner's colour) and attacks (red arrows)."""
    size = view["grid"]["size"]
    c = cell_px(size)
    where = {m["id"]: m for m in view["models"]}
    for ev in events:
        if ev.visible_to is not None:
            continue
        d = ev.data
        if ev.kind == "move":
            owner = int(d["model"][1]) - 1  # "p1-wizard", "p2-m3"
            pts = [_centre(d["from"], size)] + [_centre(p, size) for p in d.get("path") or [d["to"]]]
            col = tuple(min(255, v + 60) for v in seat_colour(owner))
            for p, q in zip(pts, pts[1:], strict=False):
                draw.line([p, q], fill=col, width=max(2, c // 14))
            for p in pts[:-1]:
                draw.ellipse([p[0] - 3, p[1] - 3, p[0] + 3, p[1] + 3], fill=col)
        elif ev.kind == "action" and d.get("target") and not d.get("ally"):
            a, t = where.get(str(d.get("actor"))), where.get(d["target"])
            if a and t and a["id"] != t["id"]:
                _arrow(draw, _centre(a["pos"], size), _centre(t["pos"], size), ATTACK, max(2, c // 16))


def _explosions(draw: BoardDraw, view: ArenaView, events: Sequence[Event]) -> None:
    """This post's damage doubled by a magical explosion, on the models that took it."""
    where = {m["id"]: m for m in view["models"]}
    for ev in events:
        parts = ev.data.get("parts") or [] if ev.kind == "damage" and ev.visible_to is None else []
        hit = where.get(str(ev.data.get("model")))
        if hit is not None and any(p.get("why") == "explosion_double" for p in parts):
            _doubled(draw, hit["pos"], int(view["grid"]["size"]))


def _doubled(draw: BoardDraw, pos: Sequence[int], size: int) -> None:
    """The magical explosion's doubled damage: a burst marked "x2" on the bottom left of the square."""
    c = cell_px(size)
    x, y = _xy(pos, size)
    r = max(14, c * 0.4)
    cx, cy = x + r, y + c - r - max(5, c // 9)
    spikes = [
        (cx + k * math.cos(i * math.pi / 8), cy + k * math.sin(i * math.pi / 8))
        for i in range(16)
        for k in [r if i % 2 == 0 else r * 0.78]
    ]
    draw.polygon(spikes, fill=(250, 140, 20), outline=(120, 40, 0))
    box = (cx - r * 0.68, cy - r * 0.5, cx + r * 0.68, cy + r * 0.5)
    draw.fit(box, "x2", int(r * 0.85), (20, 20, 20), "centre")


def _die(draw: BoardDraw, x: float, y: float, s: float, value: int, sides: int) -> None:
    draw.rounded_rectangle([x, y, x + s, y + s], radius=s // 6, fill=(250, 250, 245), outline=(60, 60, 60), width=2)
    if sides != 6 or not 1 <= value <= 6:
        draw.fit((x + 2, y + 2, x + s - 2, y + s - 2), str(value), int(s * 0.55), (20, 20, 20), "centre")
        return
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.25, 0.25), (0.75, 0.75)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
    }[value]
    r = s * 0.09
    for px, py in pips:
        draw.ellipse([x + px * s - r, y + py * s - r, x + px * s + r, y + py * s + r], fill=(20, 20, 20))


def _panel(draw: BoardDraw, view: ArenaView, p: PlayerView, names: Sequence[str], box: Box) -> None:
    """A player's panel: name, Wizard's name and Discipline, Crowd Favour and the Wizard's Health."""
    x0, top, x1, bottom = box
    s = p["seat"]
    col = seat_colour(s)
    active = view.get("active") == s and view.get("phase") not in ("over",)
    draw.rounded_rectangle(list(box), radius=8, outline=HIGHLIGHT if active else col, width=3 if active else 2)
    draw.ellipse([x0 + 10, top + 10, x0 + 30, top + 30], fill=col)
    name = names[s] if s < len(names) else f"Player {s + 1}"
    draw.fit((x0 + 38, top + 6, x1 - 134, top + 34), name, 20, TEXT)
    disc = p.get("discipline_name") or "choosing a Discipline"
    wiz_name = p.get("wizard_name")
    draw.fit((x0 + 12, top + 35, x1 - 10, top + 58), (f"{wiz_name}, " if wiz_name else "") + disc, 19, MUTED)
    star(draw, x0 + 20, top + 72, 9, (250, 200, 40))
    draw.fit((x0 + 34, top + 60, x1 - 10, bottom - 4), f"Crowd Favour {p['crowd_favour']}", 19, TEXT)
    w = next((m for m in view["models"] if m["kind"] == "wizard" and m["owner"] == s), None)
    if w is not None:
        hp = "KO" if w.get("knocked_out") else f"{w['health']}/{w['max_health']}"
        draw.fit((x1 - 130, top + 6, x1 - 10, top + 34), f"Wizard {hp}", 19, TEXT, "right")


def _roll_caption(view: ArenaView, names: Sequence[str]) -> str:
    """The last roll's label, with whose die is whose in a roll-off ("crowd roll-off: Ann, Bob")."""
    roll = view.get("last_roll") or {}
    purpose = str(roll.get("purpose", ""))
    label = roll_label(purpose, str(roll.get("label") or purpose).replace("_", " "))
    label = MODEL_ID.sub(lambda m: _id_token(m[1], m[2]), fill_names(label, names))
    seats = roll_seats(purpose, view, (), roll.get("ctx"))
    if seats is not None:
        label += " (" + ", ".join(names[i] if i < len(names) else f"Player {i + 1}" for i in seats) + ")"
    return label


#: Colours of a board picture: the board is drawn in a few flat colours (floor, rock, two seats,
#: ink), and an Arena match sends a board at every step that changes it, so 32 are kept (10 KB).
BOARD_COLOURS = 32

#: The height of the players' boxes at the top of the footer (the panel's picture ends there).
PLAYERS_BOXES = 100


def _footer(
    draw: BoardDraw, view: ArenaView, names: Sequence[str], top: int, width: int, *, details: bool = True
) -> None:
    half = width // 2
    for p in view["players"]:
        x0 = 10 + p["seat"] * half
        _panel(draw, view, p, names, (x0, top + 6, x0 + half - 20, top + 96))
    if not details:
        return
    roll = view.get("last_roll")
    y = top + 104
    turn = view.get("game_turn") or 0
    info = f"Game turn {turn}" if turn else "Set-up"
    spell = view["spell"]
    if spell and spell["selected"]:
        info += " · spell: " + spell["option_names"].get(spell["selected"], spell["selected"])
    draw.fit((12, y - 2, width - 12, y + 24), info, 19, MUTED)
    if roll:
        dice = roll.get("dice", [])
        sides = roll.get("sides", [6] * len(dice))
        s = 34
        x = width - 12 - len(dice) * (s + 5)
        draw.fit((12, y + 28, x - 8, y + 28 + s), "Last roll: " + _roll_caption(view, names), 19, MUTED)
        for i, (v, sd) in enumerate(zip(dice, sides, strict=False)):
            _die(draw, x + i * (s + 5), y + 28, s, int(v), int(sd))


def board_image(
    view: ArenaView, names: Sequence[str], events: Sequence[Event] = (), *, panel: bool = False
) -> Image.Image:
    """The board as a picture: about 670 x 840 pixels whatever the grid size. ``panel``: the control
    panel's picture, the board and the players' boxes without the turn's line and the last roll
    (the panel's text tells those), so it changes only when the board does."""
    size = int(view["grid"]["size"])
    c = cell_px(size)
    width, height = image_size(size)
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = BoardDraw(img)
    # floor and grid
    for gy in range(size):
        for gx in range(size):
            x, y = _xy((gx, gy), size)
            draw.rectangle([x, y, x + c, y + c], fill=FLOOR[(gx + gy) % 2], outline=GRID_LINE)
    # each player's starting edge, tinted in their colour
    band = max(3, c // 10)
    x0, y0 = MARGIN, MARGIN
    x1, y1 = MARGIN + c * size, MARGIN + c * size
    for p in view["players"]:
        col = seat_colour(p["seat"])
        edge = p.get("edge")
        box = {
            "north": [x0, y0 - band, x1, y0 - 1],
            "south": [x0, y1 + 1, x1, y1 + band],
            "west": [x0 - band, y0, x0 - 1, y1],
            "east": [x1 + 1, y0, x1 + band, y1],
        }.get(edge or "")
        if box:
            draw.rectangle(box, fill=col)
    # coordinates
    fs = 20
    for i, letter in enumerate(view["grid"]["columns"]):
        cx = MARGIN + i * c + c / 2
        draw.fit((cx - c / 2, 2, cx + c / 2, MARGIN - band - 1), letter, fs, TEXT, "centre")
        draw.fit((cx - c / 2, y1 + band + 1, cx + c / 2, y1 + MARGIN - 2), letter, fs, TEXT, "centre")
    for row in range(1, size + 1):
        cy = MARGIN + (size - row) * c + c / 2
        draw.fit((1, cy - c / 2, MARGIN - band - 1, cy + c / 2), str(row), fs, TEXT, "centre")
        draw.fit((x1 + band + 1, cy - c / 2, x1 + MARGIN - 1, cy + c / 2), str(row), fs, TEXT, "centre")
    for t in view["terrain"]:
        x, y = _xy(t, size)
        _rock(draw, x, y, c)
    _traces(draw, view, events)
    activation, dominate = view["activation"], view["dominate"]
    active = (activation["model"] if activation else None) or (dominate["model"] if dominate else None)
    if panel:
        active = None  # the panel's text names the model being activated: the picture is the board alone
    for m in view["models"]:
        _model(draw, m, size, m["id"] == active)
    _explosions(draw, view, events)
    draw.line([(0, y1 + MARGIN + 2), (width, y1 + MARGIN + 2)], fill=(60, 62, 66), width=1)
    _footer(draw, view, names, y1 + MARGIN + 4, width, details=not panel)
    return img.crop((0, 0, width, y1 + MARGIN + 4 + PLAYERS_BOXES)) if panel else img


def board_file(
    view: ArenaView,
    names: Sequence[str],
    events: Sequence[Event] = (),
    filename: str | None = "arena.png",
    *,
    panel: bool = False,
) -> discord.File:
    """The board picture (``filename`` None: named by its content). ``panel``: the control panel's
    (see :func:`board_image`); the inputs it does not show are left out of its cache key."""
    if panel:
        shown = {k: v for k, v in view.items() if k not in ("last_roll", "spell", "log_tail", "activation", "dominate")}
        return PICTURES.file(
            "arena-board",
            [shown, list(names), "panel"],
            filename,
            lambda: board_image(view, names, panel=True),
            colours=BOARD_COLOURS,
        )
    inputs = [view, list(names), [e.to_json() for e in events]]
    return PICTURES.file(
        "arena-board", inputs, filename, lambda: board_image(view, names, events), colours=BOARD_COLOURS
    )


# ------------------------------------------------------------------------------ text version


def token(m: ModelView) -> str:
    """Two characters for a model in the text grid: Player 1 upper case, Player 2 lower case;
    W = Wizard, X = knocked-out Wizard, M<n> = Minion number n (>9: its last digit after M)."""
    if m["kind"] == "wizard":
        t = "X" if m.get("knocked_out") else "W"
        t += str(m["owner"] + 1)
    else:
        t = "M" + _minion_number(m["id"])[-1:]
    return t.upper() if m["owner"] == 0 else t.lower()


def text_grid(view: ArenaView) -> str:
    """The board as a monospace grid (a code block): row 1 at the bottom, ## terrain, · empty."""
    size = int(view["grid"]["size"])
    cols = view["grid"]["columns"]
    cells = {tuple(t): "##" for t in view["terrain"]}
    for m in view["models"]:
        cells[tuple(m["pos"])] = token(m)
    lines = ["    " + " ".join(f"{c:<2}" for c in cols)]
    for row in range(size, 0, -1):
        line = " ".join(f"{cells.get((x, row - 1), '· '):<2}" for x in range(size))
        lines.append(f"{row:>2}  {line}")
    lines.append("    " + " ".join(f"{c:<2}" for c in cols))
    return "```\n" + "\n".join(lines) + "\n```"


__all__ = ["BACKGROUND", "EFFECT_WORDS", "MODEL_ID", "board_file", "board_image", "image_size", "text_grid", "token"]
