"""A tournament's page on the web table (issue 35, part 2): ``GET /t/<token>`` (the token signs the
tournament's id, kind "tournament").

Its game, format and state; the standings (rank, player, match points, record, the tie-breaks the
format uses); and every round with its matches, each match's players and result, linked to the
match's page. While the tournament runs the page reloads itself every 30 seconds (a match's own
page is live to the move). A server that turned its pages off (``/settings web``) has none.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from bot.tournaments.service import TournamentService

from . import pages, people
from .common import SIGNER, guild_shows, html, match_link

TOURNAMENTS: web.AppKey[TournamentService | None] = web.AppKey("tournaments")
NO_TOURNAMENT = "No such tournament: the link is wrong, or it is not shown on the web."


def add_routes(app: web.Application, tournaments: TournamentService | None) -> None:
    app[TOURNAMENTS] = tournaments
    if tournaments is not None:
        app.router.add_get("/t/{token}", tournament)


async def found(request: web.Request) -> Any:
    """The tournament's view, if its page may be shown; None otherwise."""
    app = request.app
    tournament_id = app[SIGNER].read("tournament", request.match_info["token"])
    service = app[TOURNAMENTS]
    if tournament_id is None or service is None:
        return None
    try:
        view = await service.view(tournament_id)
    except (LookupError, ValueError):
        return None
    return view if await guild_shows(app, view.record.guild_id) else None


async def tournament(request: web.Request) -> web.Response:
    view = await found(request)
    if view is None:
        return html(pages.message_page("No such tournament", NO_TOURNAMENT), 404)
    record, core = view.record, view.tournament
    names = {e.user_id: e.display_name for e in record.entrants}

    def name(player: Any) -> str:
        return str(names.get(int(player), f"player {player}"))

    matches = {(link.round, link.pairing): link.match_id for link in view.links}
    standings = []
    rounds = []
    if core is not None:
        for row in core.standings().rows:
            standings.append(
                {
                    "rank": row.rank,
                    "name": name(row.player),
                    "link": _player_link(request.app, record.guild_id, int(row.player)),
                    "points": f"{float(row.match_points):g}",
                    "record": f"{row.wins}-{row.losses}-{row.draws}",
                    "omw": f"{float(row.omw) * 100:.1f}%" if hasattr(row, "omw") else "",
                }
            )
        for rnd in core.rounds:
            listed = []
            for m in rnd.matches:
                match_id = matches.get((rnd.number, m.id))
                listed.append(
                    {
                        "label": m.label,
                        "players": " vs ".join(name(p) for p in m.seats) if not m.bye else f"{name(m.seats[0])}: a bye",
                        "result": _result_words(m, name),
                        "link": match_link(request.app, match_id) if match_id is not None else None,
                    }
                )
            rounds.append({"number": rnd.number, "matches": listed})
    live = record.status.value in ("running", "paused")
    return html(
        pages.render(
            "tournament.html",
            title=f"{pages.game_name(record.game)} tournament #{record.id}",
            game=pages.game_name(record.game),
            record=record,
            format=record.format.replace("_", " "),
            status=record.status.value,
            entrants=[e.display_name for e in record.entrants],
            standings=standings,
            rounds=list(reversed(rounds)),
            live=live,
        )
    )


def _player_link(app: web.Application, guild_id: int | None, user_id: int) -> str | None:
    """The player's page in the tournament's server (None in DMs or without the ladders)."""
    if guild_id is None or app[people.STATS] is None:
        return None
    return people.player_link(app, guild_id, user_id)


def _result_words(m: Any, name: Any) -> str:
    if m.bye:
        return "bye"
    if m.result is None:
        return "playing"
    winner = m.winner()
    if winner is not None:
        return f"{name(winner)} won"
    return "a draw" if len(m.seats) == 2 else "places shared"


__all__ = ["TOURNAMENTS", "add_routes"]
