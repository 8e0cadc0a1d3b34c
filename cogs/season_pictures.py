"""The picture of a season's end (Pillow): the podium of each game, on the dark card the
tournament pictures use (legible in both themes and on a phone: text at least 2.8% of the width).
Drawn in a worker thread by the caller (``asyncio.to_thread``)."""

from __future__ import annotations

import io

import discord
from PIL import Image, ImageDraw

from bot.seasons import SeasonEnd

from .games.pictures import font, legible, text_with
from .stats import game_name
from .tournament_pictures import BACKGROUND, BORDER, HEADER, MEDALS, MUTED, TEXT, fit, plain

WIDTH = 640
PAD = 18
MAX_GAMES = 6


def season_picture(end: SeasonEnd) -> discord.File | None:
    """The podiums of the season's games (None: nobody was listed in any game)."""
    games = [(game, top) for game, top in end.top.items() if top][:MAX_GAMES]
    if not games:
        return None
    size = max(legible(WIDTH), 20)
    title_f, head_f, body_f = font(size + 6), font(size), font(size)
    row_h = size + 14
    block_h = row_h * 4 + 10
    height = PAD * 2 + size + 20 + block_h * len(games)
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    title = fit(draw, plain(f"{end.season.name}: final standings"), WIDTH - 2 * PAD, title_f)
    text_with(draw, (PAD, PAD), title, fill=TEXT, font=title_f)
    y = PAD + size + 20
    for game, top in games:
        draw.rectangle([PAD, y, WIDTH - PAD, y + row_h - 2], fill=HEADER)
        text_with(draw, (PAD + 8, y + row_h // 2), game_name(game), fill=MUTED, font=head_f, anchor="lm")
        for i, r in enumerate(top):
            mid = y + row_h * (i + 1) + row_h // 2
            colour = MEDALS[min(r.place, 3) - 1]
            radius = size // 2 + 2
            draw.ellipse([PAD + 8, mid - radius, PAD + 8 + 2 * radius, mid + radius], fill=colour)
            text_with(draw, (PAD + 8 + radius, mid), str(r.place), fill=BACKGROUND, font=body_f, anchor="mm")
            league = f" · {r.league}" if r.league else ""
            rating = f"{r.display}{league}"
            right = WIDTH - PAD - 8
            rating_w = draw.textlength(rating, font=body_f)
            name = fit(draw, plain(r.display_name or f"player {r.user_id}"), right - rating_w - 80, body_f)
            text_with(draw, (PAD + 20 + 2 * radius, mid), name, fill=TEXT, font=body_f, anchor="lm")
            text_with(draw, (right, mid), rating, fill=TEXT, font=body_f, anchor="rm")
        y += block_h
    draw.rectangle([0, 0, WIDTH - 1, height - 1], outline=BORDER)
    out = io.BytesIO()
    img.save(out, "PNG")
    out.seek(0)
    return discord.File(out, filename=f"season-{end.season.id}.png")


__all__ = ["season_picture"]
