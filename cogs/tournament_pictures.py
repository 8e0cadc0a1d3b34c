"""Pictures of a tournament (Pillow) for its message: the standings table, the single-elimination
bracket and the Magic Duel table knock-out.

Each picture is drawn from a small JSON-able model (names, numbers, flags: exactly what is drawn),
built from the tournament by :func:`picture_model`. The model is the cache key
(:data:`TOURNAMENT_PICTURES`), so a tournament message edited without any change to what it shows
draws nothing again, and the file is named by its content (``tournament-standings-<16 hex>.png``),
so a message that already shows it can keep it. Drawing happens in a worker thread (the caller
uses ``asyncio.to_thread``).

- **Readable in both themes**: the picture carries its own opaque dark card and light text, the
  way Discord's own embeds look in the dark theme; in the light theme it reads as a dark card.
- **Size**: the standings take one block of columns up to :data:`ONE_BLOCK` rows, two blocks side
  by side up to :data:`MAX_ROWS` (64: about 1,200 by 900 pixels); more rows are left out with a
  line saying how many (the text field says the same). A bracket leaves out rounds with more than
  :data:`MAX_BRACKET_MATCHES` matches (a 256-player first round); the round's pairings are in the
  message's text anyway.
- **Names** are drawn as text: control and formatting characters removed, clipped with "…" to
  the column's width; glyphs the font lacks show as boxes, never an error.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import discord
from PIL import Image, ImageDraw, ImageFont

from bot.matches.ending import ordinal
from bot.tournaments.elimination import table_advancers
from bot.tournaments.model import Format
from bot.tournaments.service import TournamentView
from bot.tournaments.standings import compute_standings, tiebreak_names
from rules import get_game
from rules.text import plural

from .games.pictures import PictureCache, font, legible, star, text_with
from .tournament_embeds import FORMAT_NAMES

Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont

BACKGROUND: Colour = (43, 45, 49)
STRIPE: Colour = (50, 52, 57)
HEADER: Colour = (30, 31, 34)
BORDER: Colour = (88, 91, 99)
TEXT: Colour = (236, 237, 239)
MUTED: Colour = (186, 189, 196)
WIN: Colour = (67, 181, 129)
WIN_BG: Colour = (38, 78, 60)
LIVE: Colour = (88, 101, 242)
MEDALS: tuple[Colour, ...] = ((240, 190, 50), (192, 196, 204), (205, 127, 50))

MAX_ROWS = 64
"""The most standings rows one picture draws."""
ONE_BLOCK = 24
"""Up to this many rows the standings are one block of columns; more: two blocks side by side."""
MAX_BRACKET_MATCHES = 32
"""A bracket round with more matches than this is left out of the picture."""
MAX_TABLES = 16
"""A table knock-out round with more tables than this is left out of the picture."""
NAME_CHARS = 64

#: The tournament pictures, by what they show (smaller than the games' cache: one per message).
TOURNAMENT_PICTURES = PictureCache(max_items=128, max_bytes=32 * 1024 * 1024)


# ------------------------------------------------------------------------------ text helpers


def left_out_note(rounds: int) -> str:
    """The title's note on the first rounds a picture leaves to the text: "the first round is in
    the text", "the first 3 rounds are in the text" (never "round(s)")."""
    if rounds == 1:
        return "the first round is in the text"
    return f"the first {plural(rounds, 'round')} are in the text"


def plain(name: str) -> str:
    """A name as one line of text: control and format characters (newlines, bidi overrides,
    zero-width joiners) dropped, white space collapsed, at most :data:`NAME_CHARS` characters."""
    spaced = (" " if ch.isspace() else ch for ch in name)
    kept = "".join(ch for ch in spaced if unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))
    text = " ".join(kept.split())[:NAME_CHARS]
    return text or "?"


def fit(draw: ImageDraw.ImageDraw, text: str, width: float, f: Font) -> str:
    """``text`` clipped with "…" to ``width`` pixels in font ``f``."""
    if draw.textlength(text, font=f) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if draw.textlength(text[:mid] + "…", font=f) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def number(value: float | Fraction) -> str:
    """Match points: whole numbers plainly, else up to two decimals (7/3 -> 2.33)."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text or "0"


def percent(value: float | Fraction) -> str:
    return f"{100 * float(value):.1f}"


# ------------------------------------------------------------------------------ the models


def title_of(view: TournamentView) -> str:
    rec, t = view.record, view.tournament
    fmt = FORMAT_NAMES.get(rec.format, rec.format)
    text = f"Tournament #{rec.id} · {get_game(rec.game).name}, {fmt}"
    if t is not None and t.current_round is not None:
        done = t.current_round.complete
        state = "final" if t.finished else (f"after round {t.current_round.number}" if done else None)
        if state is None:
            state = f"round {t.current_round.number} of {t.rounds_planned}"
        text += f" · {state}"
    return text


def complete_rounds(view: TournamentView) -> int:
    """How many rounds are over (the standings picture shows the standings after the last)."""
    t = view.tournament
    return 0 if t is None else sum(1 for r in t.rounds if r.complete)


def standings_model(view: TournamentView) -> dict[str, Any]:
    """What the standings picture draws: every row's rank, name, points, tie-breaks and record,
    after the last round that is over (the tie-breaks depend on the whole round, so a round being
    played changes nothing until it is over)."""
    t = view.tournament
    assert t is not None
    done = complete_rounds(view)
    standings = compute_standings(t.players, t.rounds[:done], t.seed)
    rows, places = standings.rows, standings.places()
    rec = view.record
    fmt = FORMAT_NAMES.get(rec.format, rec.format)
    stage = "final standings" if t.finished else f"standings after round {done} of {t.rounds_planned}"
    names = tiebreak_names(tables=t.uses_tables, game=rec.game)
    return {
        "title": f"Tournament #{rec.id} · {get_game(rec.game).name}, {fmt} · {stage}",
        "total": len(rows),
        "heads": [n.short for n in names],
        "shared": bool(standings.draws),
        "rows": [
            [
                places[r.player],
                plain(view.record.name_of(r.player)),
                number(r.match_points),
                percent(r.omw),
                percent(r.gwp),
                percent(r.ogw),
                f"{r.wins}-{r.losses}-{r.draws}",
                r.dropped,
            ]
            for r in rows[:MAX_ROWS]
        ],
    }


def bracket_model(view: TournamentView) -> dict[str, Any]:
    """What the bracket picture draws: rounds of matches, each side (seed, name) and the winner."""
    t = view.tournament
    assert t is not None
    b = t.bracket()
    dropped = {p.id for p in t.players if p.dropped}

    def side(pid: int | None, seed: int | None) -> list[Any] | None:
        if pid is None:
            return None
        return [seed, plain(view.record.name_of(pid)), pid in dropped]

    def match(m: Any) -> dict[str, Any]:
        players, seeds = m.players, m.seeds
        won = None if m.winner is None else players.index(m.winner)
        return {
            "sides": [side(players[0], seeds[0]), side(players[1], seeds[1])],
            "won": won,
            "bye": bool(m.bye),
            "live": m.match_id is not None and m.winner is None and not m.bye,
        }

    rounds = [{"name": r.name, "matches": [match(m) for m in r.matches]} for r in b.rounds]
    shown = [r for r in rounds if len(r["matches"]) <= MAX_BRACKET_MATCHES]
    return {
        "title": title_of(view),
        "left_out": len(rounds) - len(shown),
        "rounds": shown,
        "third": None if b.third_place is None else match(b.third_place),
        "champion": None if b.champion is None else plain(view.record.name_of(b.champion)),
    }


def tables_model(view: TournamentView) -> dict[str, Any]:
    """What the table knock-out picture draws: each round's tables, their players by placement
    (seed, name, place) and who went through."""
    t = view.tournament
    assert t is not None
    seed_of = {p.id: p.seed or 0 for p in t.players}
    rounds = []
    for rnd in t.rounds:
        tables = []
        for k, m in enumerate(rnd.matches, start=1):
            through = set(table_advancers(m, seed_of)) if m.result is not None and m.label != "final" else set()
            placed = sorted(m.seats, key=lambda p: (m.placement_of(p) or 99, seed_of.get(p, 0)))
            seats = [
                [
                    seed_of.get(p, 0),
                    plain(view.record.name_of(p)),
                    m.placement_of(p),
                    p in through or (m.label == "final" and m.winner() == p),
                    m.result is not None and p in m.result.timed_out,
                ]
                for p in placed
            ]
            name = "Final table" if m.label == "final" else f"Table {k}"
            tables.append({"name": name, "seats": seats, "done": m.result is not None})
        rounds.append({"name": f"Round {rnd.number}", "tables": tables})
    shown = [r for r in rounds if len(r["tables"]) <= MAX_TABLES]
    champion = t.champion
    return {
        "title": title_of(view),
        "left_out": len(rounds) - len(shown),
        "rounds": shown,
        "champion": None if champion is None else plain(view.record.name_of(champion)),
    }


def picture_model(view: TournamentView) -> tuple[str, dict[str, Any]] | None:
    """The picture a tournament's message shows, as (kind, model): the bracket for a two-player
    single elimination, the tables for a Magic Duel knock-out, else the standings; None before
    the first round (the standings: before the first round is over)."""
    t = view.tournament
    if t is None or not t.started:
        return None
    if t.format is Format.SINGLE_ELIMINATION:
        if t.uses_tables:
            return "tournament-tables", tables_model(view)
        return "tournament-bracket", bracket_model(view)
    if complete_rounds(view) == 0:
        return None
    return "tournament-standings", standings_model(view)


DRAWERS: dict[str, Callable[[Mapping[str, Any]], Image.Image]] = {}


def picture_file(kind: str, model: Mapping[str, Any]) -> discord.File:
    """The picture as an attachment named by its content, drawn only if not cached (call it in a
    worker thread)."""
    return TOURNAMENT_PICTURES.file(kind, model, None, lambda: DRAWERS[kind](model))


# ------------------------------------------------------------------------------ standings
# Every text is at least 2.8% of its picture's width (legible on a phone): the standings' one
# block is about 600 px wide with 17 px text; the bracket and the table knock-out size their
# text from their width (:func:`cogs.games.pictures.legible`).

SIZE = 17
ROW_H = 28
TITLE_H = 44
HEAD_H = 30
FOOT_H = 30
PAD = 14
# (header, width, right-aligned)
COLUMNS: tuple[tuple[str, int, bool], ...] = (
    ("#", 30, True),
    ("Player", 180, False),
    ("Pts", 40, True),
    ("Opp.", 56, True),
    ("Won", 56, True),
    ("Opp. won", 90, True),
    ("W-L-D", 76, True),
)
TIEBREAK_HEADS = [head for head, _, _ in COLUMNS[3:6]]
COLUMN_GAP = 8
BLOCK_W = sum(w for _, w, _ in COLUMNS) + COLUMN_GAP * (len(COLUMNS) - 1)
BLOCK_GAP = 28


def wrap(draw: ImageDraw.ImageDraw, text: str, width: float, f: Font) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels (a word too long alone is clipped)."""
    lines: list[str] = []
    for word in text.split(" "):
        line = f"{lines[-1]} {word}" if lines else word
        if lines and draw.textlength(line, font=f) <= width:
            lines[-1] = line
        else:
            lines.append(fit(draw, word, width, f))
    return lines


def _foot(draw: ImageDraw.ImageDraw, lines: Sequence[str], bottom: float, f: Font) -> None:
    """Footer lines (secondary text) ending at ``bottom``."""
    step = int(f.size) + 5
    for i, line in enumerate(lines):
        y = bottom - (len(lines) - i) * step + step / 2
        text_with(draw, (PAD, y), line, fill=MUTED, font=f, anchor="lm")


def standings_image(model: Mapping[str, Any]) -> Image.Image:
    rows: Sequence[Sequence[Any]] = model["rows"]
    blocks = 1 if len(rows) <= ONE_BLOCK else 2
    per_block = max(1, math.ceil(len(rows) / blocks))
    width = 2 * PAD + blocks * BLOCK_W + (blocks - 1) * BLOCK_GAP
    size = SIZE  # legible on a phone in one block (up to ONE_BLOCK rows); two blocks: a desktop picture
    big, small, body = font(size + 3), font(size), font(size)
    total = int(model.get("total", len(rows)))
    a, b, c = model.get("heads", TIEBREAK_HEADS)
    foot = f"Equal points: {a}, then {b}, then {c} decide (in %, see the message)"
    if model.get("shared"):
        foot += " · =2: a shared place"
    foot += " · grey: dropped"
    if total > len(rows):
        foot = f"and {total - len(rows)} more players · " + foot
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines = wrap(measure, foot, width - 2 * PAD, small)
    foot_h = len(lines) * (size + 5) + 8
    row_h = max(ROW_H, size + 11)
    height = TITLE_H + HEAD_H + per_block * row_h + foot_h + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    text_with(draw, (PAD, 10), fit(draw, str(model["title"]), width - 2 * PAD, big), fill=TEXT, font=big)
    for blk in range(blocks):
        left = PAD + blk * (BLOCK_W + BLOCK_GAP)
        top = TITLE_H
        draw.rectangle([left, top, left + BLOCK_W, top + HEAD_H - 1], fill=HEADER)
        x = left
        heads = ["#", "Player", "Pts", *model.get("heads", TIEBREAK_HEADS), "W-L-D"]
        for head, (_, w, right) in zip(heads, COLUMNS, strict=True):
            at = (x + w - 4 if right else x + 4, top + HEAD_H // 2)
            text_with(draw, at, fit(draw, head, w - 4, small), fill=MUTED, font=small, anchor="rm" if right else "lm")
            x += w + COLUMN_GAP
        for i, row in enumerate(rows[blk * per_block : (blk + 1) * per_block]):
            y = top + HEAD_H + i * row_h
            if i % 2:
                draw.rectangle([left, y, left + BLOCK_W, y + row_h - 1], fill=STRIPE)
            _standings_row(draw, row, left, y + row_h // 2, body)
    _foot(draw, lines, height - PAD + 4, small)
    draw.rectangle([0, 0, width - 1, height - 1], outline=BORDER)
    return img


def _standings_row(draw: ImageDraw.ImageDraw, row: Sequence[Any], left: int, mid: int, f: Font) -> None:
    rank, name, points, omw, gwp, ogw, record, dropped = row
    colour = MUTED if dropped else TEXT
    x = left
    r = int(f.size) // 2 + 3
    for k, ((_, w, _right), value) in enumerate(zip(COLUMNS, (rank, name, points, omw, gwp, ogw, record), strict=True)):
        if k == 1:
            label = fit(draw, str(name) + (" (dropped)" if dropped else ""), w - 8, f)
            text_with(draw, (x + 4, mid), label, fill=colour, font=f, anchor="lm")
        elif k == 0 and str(rank) in ("1", "2", "3") and not dropped:  # a medal: a place not shared
            draw.ellipse([x + w - 4 - 2 * r, mid - r, x + w - 4, mid + r], fill=MEDALS[int(rank) - 1])
            text_with(draw, (x + w - 4 - r, mid), str(rank), fill=HEADER, font=f, anchor="mm")
        else:
            text_with(draw, (x + w - 4, mid), fit(draw, str(value), w - 4, f), fill=colour, font=f, anchor="rm")
        x += w + COLUMN_GAP


DRAWERS["tournament-standings"] = standings_image


# ------------------------------------------------------------------------------ the bracket

COL_W = 170
COL_GAP = 24
PHONE_ROUNDS = 3
"""A bracket of up to this many rounds has text legible on a phone (2.8% of its width)."""
LINE_H = 26
BOX_H = 2 * LINE_H
UNIT = BOX_H + 14  # vertical room of one first-column match


def _side(
    draw: ImageDraw.ImageDraw, side: Sequence[Any] | None, x: int, y: int, w: int, state: str, bye: bool, f: Font
) -> None:
    """One player line of a match box: seed and name; ``state`` "won", "lost" or "open"."""
    line_h = int(f.size) + 9
    seed_w = int(f.getlength("00")) + 6
    if state == "won":
        draw.rectangle([x + 1, y + 1, x + w - 1, y + line_h - 1], fill=WIN_BG)
        draw.rectangle([x + 1, y + 1, x + 4, y + line_h - 1], fill=WIN)
    mid = y + line_h // 2
    if side is None:
        text_with(draw, (x + seed_w + 8, mid), "bye" if bye else "to be decided", fill=MUTED, font=f, anchor="lm")
        return
    seed, name, dropped = side
    if seed is not None:
        text_with(draw, (x + seed_w + 2, mid), str(seed), fill=MUTED, font=f, anchor="rm")
    colour = MUTED if state == "lost" or dropped else TEXT
    label = fit(draw, str(name) + (" (dropped)" if dropped else ""), w - seed_w - 14, f)
    text_with(draw, (x + seed_w + 8, mid), label, fill=colour, font=f, anchor="lm")


def _match_box(draw: ImageDraw.ImageDraw, m: Mapping[str, Any], x: int, y: int, f: Font) -> None:
    line_h = int(f.size) + 9
    draw.rectangle([x, y, x + COL_W, y + 2 * line_h], fill=STRIPE, outline=LIVE if m.get("live") else BORDER)
    won = m.get("won")
    for k in (0, 1):
        state = "open" if won is None else ("won" if won == k else "lost")
        _side(draw, m["sides"][k], x, y + k * line_h, COL_W, state, bool(m.get("bye")), f)
    draw.line([(x + 1, y + line_h), (x + COL_W - 1, y + line_h)], fill=BORDER)


def bracket_image(model: Mapping[str, Any]) -> Image.Image:
    rounds: Sequence[Mapping[str, Any]] = model["rounds"]
    first = len(rounds[0]["matches"]) if rounds else 1
    champion_w = COL_W
    width = 2 * PAD + len(rounds) * (COL_W + COL_GAP) + champion_w
    # up to 8 players (3 rounds) legible on a phone; a bigger bracket is a desktop picture (17 px
    # text), the message's text has its pairings
    size = legible(width) if len(rounds) <= PHONE_ROUNDS else SIZE
    f, big = font(size), font(size + 3)
    box_h = 2 * (size + 9)
    unit = box_h + (14 if len(rounds) <= PHONE_ROUNDS else 10)
    title_h = size + 3 + 20
    body_h = first * unit
    third = model.get("third")
    foot = "green: won · blue frame: being played · grey: out or dropped"
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines = wrap(measure, foot, width - 2 * PAD, f)
    foot_h = len(lines) * (size + 5) + 8
    height = title_h + size + 14 + body_h + (box_h + size + 30 if third else 0) + foot_h + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    title = str(model["title"])
    if model.get("left_out"):
        title += " · " + left_out_note(int(model["left_out"]))
    text_with(draw, (PAD, 10), fit(draw, title, width - 2 * PAD, big), fill=TEXT, font=big)
    top = title_h + size + 14
    centres: list[list[float]] = []
    for c, rnd in enumerate(rounds):
        x = PAD + c * (COL_W + COL_GAP)
        name = fit(draw, str(rnd["name"]), COL_W + COL_GAP - 4, f)
        text_with(draw, (x + COL_W // 2, title_h + size // 2 + 4), name, fill=MUTED, font=f, anchor="mm")
        span = body_h / max(1, len(rnd["matches"]))
        mids = []
        for j, m in enumerate(rnd["matches"]):
            mid = top + span * j + span / 2
            _match_box(draw, m, x, int(mid - box_h / 2), f)
            mids.append(mid)
            if c > 0 and 2 * j + 1 < len(centres[c - 1]):  # connectors from the two feeders
                x0, xm = x - COL_GAP, x - COL_GAP // 2
                for feeder in (centres[c - 1][2 * j], centres[c - 1][2 * j + 1]):
                    draw.line([(x0, feeder), (xm, feeder), (xm, mid), (x, mid)], fill=BORDER, width=2)
        centres.append(mids)
    # the champion, right of the final
    cx = PAD + len(rounds) * (COL_W + COL_GAP)
    cy = top + body_h / 2
    if centres:
        draw.line([(cx - COL_GAP, cy), (cx, cy)], fill=BORDER, width=2)
    champion = model.get("champion")
    outline = MEDALS[0] if champion else BORDER
    draw.rectangle([cx, int(cy - box_h / 2), cx + champion_w - PAD, int(cy + box_h / 2)], fill=STRIPE, outline=outline)
    star(draw, cx + 16, cy, 10, MEDALS[0] if champion else MUTED)
    label = fit(draw, str(champion) if champion else "to be decided", champion_w - PAD - 36, f)
    text_with(draw, (cx + 30, cy), label, fill=TEXT if champion else MUTED, font=f, anchor="lm")
    if third:
        x = PAD + max(0, len(rounds) - 1) * (COL_W + COL_GAP)
        y = top + body_h + size + 22
        text_with(draw, (x, y - size // 2 - 6), "Third place", fill=MUTED, font=f, anchor="lm")
        _match_box(draw, third, x, y, f)
    _foot(draw, lines, height - PAD + 4, f)
    draw.rectangle([0, 0, width - 1, height - 1], outline=BORDER)
    return img


DRAWERS["tournament-bracket"] = bracket_image


# ------------------------------------------------------------------------------ table knock-out

TABLE_W = 240
TABLE_HEAD = 22
TABLE_GAP = 14


def tables_image(model: Mapping[str, Any]) -> Image.Image:
    rounds: Sequence[Mapping[str, Any]] = model["rounds"]
    width = 2 * PAD + max(1, len(rounds)) * (TABLE_W + COL_GAP)
    size = legible(width) if len(rounds) <= 2 else SIZE  # more rounds: a desktop picture
    f, big = font(size), font(size + 3)
    line_h, head_h = size + 9, size + 9
    seed_w = int(f.getlength("00")) + 6
    place_w = int(f.getlength("10th")) + 8
    tallest = max((sum(head_h + len(t["seats"]) * line_h + TABLE_GAP for t in r["tables"]) for r in rounds), default=0)
    foot = "green: goes through (the top half of each table) · blue frame: being played"
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines = wrap(measure, foot, width - 2 * PAD, f)
    foot_h = len(lines) * (size + 5) + 8
    title_h = size + 3 + 20
    height = title_h + size + 14 + tallest + size + 16 + foot_h + PAD
    img = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    title = str(model["title"])
    if model.get("left_out"):
        title += " · " + left_out_note(int(model["left_out"]))
    text_with(draw, (PAD, 10), fit(draw, title, width - 2 * PAD, big), fill=TEXT, font=big)
    for c, rnd in enumerate(rounds):
        x = PAD + c * (TABLE_W + COL_GAP)
        name = fit(draw, str(rnd["name"]), TABLE_W, f)
        text_with(draw, (x + TABLE_W // 2, title_h + size // 2 + 4), name, fill=MUTED, font=f, anchor="mm")
        y = title_h + size + 14
        for table in rnd["tables"]:
            h = head_h + len(table["seats"]) * line_h
            draw.rectangle([x, y, x + TABLE_W, y + h], fill=STRIPE, outline=BORDER if table["done"] else LIVE)
            draw.rectangle([x + 1, y + 1, x + TABLE_W - 1, y + head_h - 1], fill=HEADER)
            label = fit(draw, str(table["name"]), TABLE_W - 12, f)
            text_with(draw, (x + 6, y + head_h // 2), label, fill=MUTED, font=f, anchor="lm")
            for i, (seed, name, place, through, timed_out) in enumerate(table["seats"]):
                ly = y + head_h + i * line_h
                mid = ly + line_h // 2
                if through:
                    draw.rectangle([x + 1, ly + 1, x + TABLE_W - 1, ly + line_h - 1], fill=WIN_BG)
                    draw.rectangle([x + 1, ly + 1, x + 4, ly + line_h - 1], fill=WIN)
                text_with(draw, (x + seed_w + 2, mid), str(seed), fill=MUTED, font=f, anchor="rm")
                shown = str(name) + (" (timed out)" if timed_out else "")
                colour = TEXT if through or not table["done"] else MUTED
                label = fit(draw, shown, TABLE_W - seed_w - place_w - 12, f)
                text_with(draw, (x + seed_w + 8, mid), label, fill=colour, font=f, anchor="lm")
                if place is not None:
                    text_with(draw, (x + TABLE_W - 6, mid), ordinal(int(place)), fill=colour, font=f, anchor="rm")
            y += h + TABLE_GAP
    champion = model.get("champion")
    foot_y = height - foot_h - PAD - size // 2 - 4
    if champion:
        star(draw, PAD + 10, foot_y, 9, MEDALS[0])
        label = fit(draw, f"Champion: {champion}", width - 60, f)
        text_with(draw, (PAD + 26, foot_y), label, fill=TEXT, font=f, anchor="lm")
    _foot(draw, lines, height - PAD + 4, f)
    draw.rectangle([0, 0, width - 1, height - 1], outline=BORDER)
    return img


DRAWERS["tournament-tables"] = tables_image


__all__ = [
    "MAX_ROWS",
    "TOURNAMENT_PICTURES",
    "bracket_image",
    "bracket_model",
    "fit",
    "left_out_note",
    "picture_file",
    "picture_model",
    "plain",
    "standings_image",
    "standings_model",
    "tables_image",
    "tables_model",
]
