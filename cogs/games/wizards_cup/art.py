"""Wizards Cup's pictures.

- ``situation_file``: a small scoreboard for the prompts' thumbnail (the round, each wizard's
  Victory tokens and the card in their duel zone), from public parts of the view only, so both
  players' prompts share one cached picture;
- ``set_file``, ``deck_file``, ``order_file``: the seat's cards on its own prompt screens (the set
  with the random card, the six-card Deck, the planned order and the Waiting card);
- ``duels_file``: the duels of a channel post, one row per duel (``duel_rows.py`` draws it).

All are pure and synchronous (callers build prompts and posts in a worker thread), named by their
content (a prompt edit keeps a picture the message already shows), and fit every text into its box
(``Painter``: smaller type, then an ellipsis; never cut at an edge)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass
from typing import Any

import discord
from PIL import Image

from ..pictures import BACKGROUND, MUTED, PICTURES, TEXT, seat_ink, star
from .cards import CARDS
from .draw import ELEMENT_COLOUR, GOLD, Painter, card, empty_slot, ink_on
from .duel_rows import duels_file, duels_image, duels_painter

WIDTH, HEIGHT = 360, 200
CARD_W, CARD_H, CAPTION, GAP, MARGIN, TITLE = 136, 132, 24, 10, 14, 32
COLUMNS = 3
"""Cards per row of a grid: three cards 136 px wide make a picture 456 px wide, so its smallest
text (13 px) is 2.8% of its width and a card's name reads on a phone."""


# ------------------------------------------------------------------ the scoreboard (thumbnail)
def public_situation(view: Mapping[str, Any]) -> dict[str, Any]:
    """What the picture shows (the same for every seat): the round and each player's tokens and duel card."""
    players = [{"seat": p["seat"], "tokens": p["tokens"], "duel": p["duel"]} for p in view["players"]]
    return {"round": view["round"], "players": players}


def situation_painter(situation: Mapping[str, Any], names: Sequence[str]) -> Painter:
    p = Painter(Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND))
    p.text((0, 4, WIDTH, 32), f"Round {situation['round']}", 18, fill=MUTED)
    players = situation["players"]
    column = WIDTH / max(1, len(players))
    for i, pl in enumerate(players):
        cx = column * (i + 0.5)
        p.text(
            (column * i + 4, 36, column * (i + 1) - 4, 58),
            names[pl["seat"]],
            16,
            fill=seat_ink(pl["seat"]),
            floor=12,
        )
        for k in range(pl["tokens"]):  # one star per Victory token
            star(p.draw, cx + (k - (pl["tokens"] - 1) / 2) * 22, 72, 9, GOLD)
        c = CARDS[pl["duel"]] if pl["duel"] else None
        box = (cx - 55, 92, cx + 55, 188)
        if c is None:
            empty_slot(p, box, "duel zone empty")
            continue
        colour = ELEMENT_COLOUR.get(c.element.value, MUTED)
        p.draw.rounded_rectangle(box, radius=8, fill=colour)
        p.text((box[0], 104, box[2], 132), c.name, 13, fill=ink_on(colour))
        p.text((box[0], 134, box[2], 166), str(c.value), 28, fill=ink_on(colour))
        p.text((box[0], 166, box[2], 186), c.element.value, 12, fill=ink_on(colour))
    return p


def situation_image(situation: Mapping[str, Any], names: Sequence[str]) -> Image.Image:
    return situation_painter(situation, names).image


def situation_file(view: Mapping[str, Any], names: Sequence[str]) -> discord.File:
    """The scoreboard as a PNG named by its content (a prompt edit keeps it when it is unchanged)."""
    situation = public_situation(view)
    return PICTURES.file("wc-situation", [situation, list(names)], None, lambda: situation_image(situation, names))


# ------------------------------------------------------------------ the seat's cards (prompts)
@dataclass(frozen=True)
class Cell:
    """A place in a grid of cards: a card (or an empty slot labelled ``slot``) and its caption."""

    card: str | None
    caption: str = ""
    gold: bool = False  # framed in gold (the random card, the Waiting card)
    dim: bool = False
    slot: str = ""


def grid_painter(title: str, rows: Sequence[Sequence[Cell]]) -> Painter:
    """Rows of cards under a title, each card with its caption below (a row of more than
    :data:`COLUMNS` cards goes on over more lines)."""
    rows = [row[i : i + COLUMNS] for row in rows for i in range(0, max(1, len(row)), COLUMNS)]
    columns = max(1, *(len(r) for r in rows)) if rows else 1
    width = 2 * MARGIN + columns * CARD_W + (columns - 1) * GAP
    height = TITLE + len(rows) * (CARD_H + CAPTION + GAP) + MARGIN
    p = Painter(Image.new("RGB", (width, height), BACKGROUND))
    p.text((MARGIN, 4, width - MARGIN, TITLE - 2), title, 17, fill=TEXT)
    for r, row in enumerate(rows):
        y = TITLE + r * (CARD_H + CAPTION + GAP)
        for i, cell in enumerate(row):
            x = MARGIN + i * (CARD_W + GAP)
            box = (x, y + 4, x + CARD_W, y + 4 + CARD_H)
            if cell.card is None:
                empty_slot(p, box, cell.slot)
            else:
                card(p, box, cell.card, frame=GOLD if cell.gold else None, dim=cell.dim)
            p.text(
                (x - GAP / 2 + 1, y + CARD_H + 6, x + CARD_W + GAP / 2 - 1, y + CARD_H + CAPTION + 4),
                cell.caption,
                15,
                fill=GOLD if cell.gold else MUTED,
            )
    return p


def _grid_file(kind: str, title: str, rows: Sequence[Sequence[Cell]]) -> discord.File:
    inputs = [title, [[astuple(c) for c in row] for row in rows]]
    return PICTURES.file(kind, inputs, None, lambda: grid_painter(title, rows).image)


def set_rows(pick: str, pool: Sequence[str]) -> list[list[Cell]]:
    """The seat's set when choosing a Deck: the random card first (framed), then the others."""
    cells = [Cell(pick, "in your Deck", gold=True)] + [Cell(c) for c in pool]
    return [cells[i : i + 6] for i in range(0, len(cells), 6)]


def set_file(pick: str, pool: Sequence[str]) -> discord.File:
    """The set to choose the Deck from (the random card framed in gold)."""
    return _grid_file("wc-set", "Your set: the random card is in your Deck; choose 5 more", set_rows(pick, pool))


def deck_file(deck: Sequence[str], title: str = "Your Deck") -> discord.File:
    """The six cards of the seat's Deck."""
    return _grid_file("wc-deck", title, [[Cell(c) for c in deck]])


def order_rows(deck: Sequence[str], picked: Sequence[int], played: int) -> list[list[Cell]]:
    """The planned order so far (``picked``: Deck indices in playing order), the Waiting card once
    the order is complete, and the Deck cards not ordered yet."""
    ordinals = ("1st", "2nd", "3rd", "4th", "5th", "6th")
    slots = [Cell(deck[i], ordinals[n]) for n, i in enumerate(picked)]
    slots += [Cell(None, ordinals[n], slot="to choose") for n in range(len(picked), played)]
    rest = [i for i in range(len(deck)) if i not in picked]
    if len(picked) >= played and rest:
        slots.append(Cell(deck[rest[0]], "Waiting", gold=True))
        return [slots]
    slots.append(Cell(None, "Waiting", slot="left over"))
    return [slots, [Cell(deck[i], "to order") for i in rest]]


def order_file(deck: Sequence[str], picked: Sequence[int], played: int) -> discord.File:
    """The playing order being planned, and what is left to order."""
    return _grid_file("wc-order", "Your playing order", order_rows(deck, picked, played))


__all__ = [
    "Cell",
    "deck_file",
    "duels_file",
    "duels_image",
    "duels_painter",
    "grid_painter",
    "order_file",
    "order_rows",
    "public_situation",
    "set_file",
    "set_rows",
    "situation_file",
    "situation_image",
    "situation_painter",
]
