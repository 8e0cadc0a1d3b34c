"""The challenge / open table message: its embed and buttons, and the edit that brings it up to
date once the challenge starts, closes or changes."""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import MatchRecord, MatchStatus
from bot.matches.lobby import host_name
from rules import get_game

from .games.base import clip
from .options import describe_options


def lobby_embed(record: MatchRecord) -> discord.Embed:
    """The challenge / open table message: who is seated, who has accepted, the options."""
    g = get_game(record.game)
    host = host_name(record)
    host_seat = record.seat_of(record.challenger_id)
    if record.open_table:
        title = f"🪑 {host} opens a table of {g.name}"
    else:
        others = [s.display_name for s in record.seats if s.seat != host_seat]
        title = f"⚔️ {host} challenges " + ", ".join(others) + f" to {g.name}"
    embed = discord.Embed(title=clip(title, 256), description=g.summary, colour=discord.Colour.blurple())
    seats = "\n".join(
        f"{'✅' if s.accepted else '⏳'} {i + 1}. {s.display_name}" + (" (host)" if i == host_seat else "")
        for i, s in enumerate(record.seats)
    )
    size = f"{g.min_seats}" + (f"-{g.max_seats}" if g.max_seats != g.min_seats else "")
    embed.add_field(name=f"Players ({len(record.seats)}, {size} play)", value=seats, inline=False)
    embed.add_field(name="Options", value=describe_options(record.options, g.options_model))
    if record.expires_at:
        embed.add_field(name="Expires", value=f"<t:{record.expires_at}:R>")
    if record.open_table:
        how = "anyone may join; the host starts when ready"
    elif g.max_seats > 2:
        how = "invited players accept or decline; the host may start with those who accepted"
    else:
        how = f"only {', '.join(others)} can accept"
    if record.practice:
        how += " · with computer players: a practice match, not rated"
    embed.set_footer(text=f"Match #{record.id} · {how}")
    return embed


def lobby_view(record: MatchRecord) -> discord.ui.View:
    g = get_game(record.game)
    view = discord.ui.View(timeout=None)

    def add(op: str, label: str, style: discord.ButtonStyle) -> None:
        view.add_item(discord.ui.Button(label=label, style=style, custom_id=f"ch:{record.id}:{op}"))

    if any(not s.accepted for s in record.seats):
        add("accept", "Accept", discord.ButtonStyle.success)
    if record.open_table and len(record.seats) < g.max_seats:
        add("join", "Join", discord.ButtonStyle.success)
    if record.open_table or g.max_seats > 2:
        add("start", "Start now", discord.ButtonStyle.primary)
    add(
        "leave" if record.open_table else "decline",
        "Leave" if record.open_table else "Decline",
        discord.ButtonStyle.danger,
    )
    return view


def lobby_message(record: MatchRecord, thread_id: int | None = None) -> dict[str, Any]:
    """The edit that shows a challenge's current state (open, started, or closed); a match played
    in a thread links to it."""
    status = record.status
    if status is MatchStatus.PENDING:
        return {"content": None, "embed": lobby_embed(record), "view": lobby_view(record)}
    g = get_game(record.game)
    texts = {
        MatchStatus.ACTIVE: f"✅ Match #{record.id} of {g.name} is on: " + " vs ".join(record.names) + ".",
        MatchStatus.FINISHED: f"🏁 Match #{record.id} of {g.name} is over: "
        + (record.summary or " vs ".join(record.names) + "."),
        MatchStatus.ABANDONED: f"⌛ Match #{record.id} of {g.name} was abandoned: nobody moved in time.",
        MatchStatus.DECLINED: f"❌ The challenge (match #{record.id}) was declined.",
        MatchStatus.CANCELLED: f"❌ {host_name(record)} cancelled the challenge (match #{record.id}).",
        MatchStatus.EXPIRED: f"⌛ The challenge (match #{record.id}) expired.",
    }
    text = texts.get(status, f"Match #{record.id}: {status.value}.")
    if record.practice and status in (MatchStatus.ACTIVE, MatchStatus.FINISHED):
        text += " 🎯 A practice match against the computer: not rated."
    if thread_id is not None and status in (MatchStatus.ACTIVE, MatchStatus.FINISHED, MatchStatus.ABANDONED):
        text += (
            f" Follow the match in <#{thread_id}>."
            if status is MatchStatus.ACTIVE
            else f" The whole match: <#{thread_id}>."
        )
    return {"content": text, "embeds": [], "view": None}


__all__ = ["lobby_embed", "lobby_message", "lobby_view"]
