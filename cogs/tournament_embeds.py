"""How a tournament looks in Discord: the tournament message's embed (format, players, round,
pairings with links to the matches' threads, standings as text or a picture's caption), the
champion card and a line of ``/tournament history``. Pure rendering from a
:class:`~bot.tournaments.service.TournamentView`; :mod:`cogs.tournament_presenter` sends them."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.tournaments.model import Format
from bot.tournaments.service import TournamentService, TournamentView
from bot.tournaments.standings import tiebreak_legend
from rules import get_game

from .games.base import clip

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Single elimination", value="single_elimination"),
]
FORMAT_NAMES = {c.value: c.name for c in FORMAT_CHOICES}
STATUS_TEXT = {
    "signup": "📝 Sign-up open",
    "running": "▶️ Running",
    "paused": "⏸️ Paused",
    "finished": "🏁 Finished",
    "cancelled": "❌ Cancelled",
}
PICTURE_FIELD = "Shown in the picture below: place, points, the tie-breaks and wins-losses-draws."
#: The standings before anyone has a result: no places to show.
NOT_PLAYED = "No game has been played yet: everyone starts on 0 points."


def service_of(client: Any) -> TournamentService:
    found = getattr(client, "tournaments", None)
    if not isinstance(found, TournamentService):
        raise RuntimeError("this client has no tournament service")
    return found


# ------------------------------------------------------------------------------ rendering


def _name(view: TournamentView, pid: int) -> str:
    return clip(view.record.name_of(pid), 32)


def legend(view: TournamentView) -> str:
    """How ties are broken in this tournament, in plain words, for its game (Wizards Cup: duels
    won; Magic Duel tables: shares of points)."""
    t = view.tournament
    return tiebreak_legend(tables=bool(t is not None and t.uses_tables), game=view.record.game)


def standings_table(view: TournamentView, limit: int = 16) -> str | None:
    """The standings as a monospaced text table (None before the first round; :data:`NOT_PLAYED`
    before anyone has a result). Players tied on every tie-break share their place ("=2")."""
    t = view.tournament
    if t is None or not t.started:
        return None
    standings = t.standings()
    if not standings.played:
        return NOT_PLAYED
    places = standings.places()
    rows = standings.rows
    lines = [f"{'#':>3} {'player':<16} {'pts':>4} {'W-L-D':>7}"]
    for row in rows[:limit]:
        name = _name(view, row.player)[:16] + (" ✗" if row.dropped else "")
        record = f"{row.wins}-{row.losses}-{row.draws}"
        lines.append(f"{places[row.player]:>3} {name:<16} {float(row.match_points):>4g} {record:>7}")
    if len(rows) > limit:
        lines.append(f"… and {len(rows) - limit} more")
    shared = " A place like =2 is shared: tied on points and every tie-break." if standings.draws else ""
    return "```\n" + "\n".join(lines) + "\n```\n" + legend(view) + shared


def round_lines(view: TournamentView, threads: dict[int, int]) -> str | None:
    """The current round's pairings, each with its result or a link to its match's thread."""
    t = view.tournament
    if t is None or t.current_round is None:
        return None
    links = view.current_links()
    lines = []
    for m in t.current_round.matches:
        who = " vs ".join(_name(view, p) for p in m.seats)
        if m.bye or len(m.seats) < 2:
            lines.append(f"• {who}: bye")
            continue
        link = links.get(m.id)
        if m.result is not None:
            winners = [p for p, place in zip(m.seats, m.result.placements, strict=True) if place == 1]
            shown = "draw" if len(winners) != 1 else f"{_name(view, winners[0])} wins"
            lines.append(f"• {who}: {shown}")
        elif link is not None and link.match_id in threads:
            lines.append(f"• {who}: live in <#{threads[link.match_id]}> (match #{link.match_id})")
        elif link is not None:
            lines.append(f"• {who}: playing (match #{link.match_id})")
        else:
            lines.append(f"• {who}: waiting")
    return clip("\n".join(lines), 1024)


def tournament_embed(
    view: TournamentView, threads: dict[int, int] | None = None, picture: str | None = None
) -> discord.Embed:
    """The tournament message: format, players, round, standings, the live matches. ``picture``:
    the file name of the attached picture (standings, bracket or tables) the embed shows in place
    of the text table."""
    rec, t = view.record, view.tournament
    g = get_game(rec.game)
    fmt = FORMAT_NAMES.get(rec.format, rec.format)
    status = rec.status.value
    embed = discord.Embed(
        title=clip(f"🏆 Tournament #{rec.id}: {g.name}, {fmt}", 256),
        description=STATUS_TEXT.get(status, status) + f" · organized by <@{rec.organizer_id}>",
        colour=discord.Colour.gold(),
    )
    cap = f"/{rec.max_players}" if rec.max_players else ""
    names = ", ".join(clip(e.display_name, 32) for e in rec.entrants) or "nobody yet"
    embed.add_field(name=f"Players ({len(rec.entrants)}{cap})", value=clip(names, 1024), inline=False)
    if t is not None and t.current_round is not None:
        embed.add_field(
            name=f"Round {t.current_round.number} of {t.rounds_planned}",
            value=round_lines(view, threads or {}) or "-",
            inline=False,
        )
    elif rec.settings.get("rounds"):
        embed.add_field(name="Rounds", value=str(rec.settings["rounds"]))
    if picture is not None:
        embed.set_image(url=f"attachment://{picture}")
    elimination = rec.format == "single_elimination"
    table = standings_table(view)
    if table == NOT_PLAYED:
        embed.add_field(name="Standings", value=NOT_PLAYED, inline=False)
    elif table and picture is not None and not elimination:
        embed.add_field(name="Standings", value=clip(f"{PICTURE_FIELD}\n{legend(view)}", 1024), inline=False)
    elif table and picture is None:
        embed.add_field(name="Standings", value=clip(table, 1024), inline=False)
    if status == "finished" and t is not None and t.champion is not None:
        embed.add_field(name="Champion", value=f"🥇 {_name(view, t.champion)}", inline=False)
    if rec.start_at and status == "signup":
        embed.add_field(name="Starts", value=f"<t:{rec.start_at}:R>")
    if rec.round_deadline_at and status == "running":
        embed.add_field(name="Round deadline", value=f"<t:{rec.round_deadline_at}:R>")
    how = "press Join to enter; the organizer starts with /tournament start" if status == "signup" else ""
    embed.set_footer(text=f"Tournament #{rec.id}" + (f" · {how}" if how else ""))
    return embed


def champion_embed(view: TournamentView) -> discord.Embed:
    rec, t = view.record, view.tournament
    g = get_game(rec.game)
    champion = t.champion if t is not None else None
    who = _name(view, champion) if champion is not None else "nobody"
    embed = discord.Embed(
        title=clip(f"🥇 {who} wins tournament #{rec.id}!", 256),
        description=f"{g.name}, {FORMAT_NAMES.get(rec.format, rec.format)}, {len(rec.entrants)} players.",
        colour=discord.Colour.gold(),
    )
    if t is not None:
        if t.format is Format.SINGLE_ELIMINATION:
            ranking = [(str(place), pid) for place, pid in t.ranking()]
        else:  # tied on every tie-break: the same place, whatever order the random draw gave
            standings = t.standings()
            places = standings.places()
            ranking = [(places[row.player], row.player) for row in standings.rows]
            tied = next((d.players for d in standings.draws if champion in d.players), ())
            if champion is not None and len(tied) > 1:
                others = ", ".join(_name(view, p) for p in tied if p != champion)
                embed.add_field(
                    name="Decided by the draw",
                    value=clip(
                        f"{who} and {others} are level on points and every tie-break; "
                        "the random draw made at the start puts "
                        f"{who} first.",
                        1024,
                    ),
                    inline=False,
                )
        podium = [f"{place}. {_name(view, pid)}" for place, pid in ranking[:3]]
        if podium:
            embed.add_field(name="Podium", value="\n".join(podium), inline=False)
    return embed


def champion_post(view: TournamentView) -> dict[str, Any]:
    """The champion's post: the card, with the champion mentioned (and only them pinged)."""
    t = view.tournament
    champion = t.champion if t is not None else None
    out: dict[str, Any] = {"embed": champion_embed(view)}
    if champion is not None:
        out["content"] = f"🏆 Congratulations <@{champion}>!"
        out["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(id=champion)]
        )
    return out


def history_line(v: TournamentView) -> tuple[str, str]:
    """A past tournament as an embed field: number, game and format; champion (or cancelled),
    date and players."""
    rec, t = v.record, v.tournament
    g = get_game(rec.game)
    if rec.status.value == "finished" and t is not None and t.champion is not None:
        result = f"🥇 {_name(v, t.champion)}"
    else:
        result = "❌ cancelled"
    players = ", ".join(clip(e.display_name, 32) for e in rec.entrants) or "nobody"
    when = f" · <t:{rec.finished_at}:d>" if rec.finished_at else ""
    name = clip(f"#{rec.id} {g.name}, {FORMAT_NAMES.get(rec.format, rec.format)}", 256)
    return name, clip(f"{result}{when}\n{len(rec.entrants)} players: {players}", 1024)
