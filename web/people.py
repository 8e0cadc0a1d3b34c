"""A server's leaderboards and its players' pages on the web table (issue 35, part 2).

- ``GET /s/<token>?game=<slug>&page=<n>``: the server's ladder of one game (the token signs the
  server's id, kind "server"), the games rated there as tabs, 25 players a page, each linked to
  their page; players with fewer rated games than the server's ``/settings`` minimum are left out,
  as ``/leaderboard`` leaves them out.
- ``GET /u/<token>``: a player as that server sees them (the token signs the server's id and the
  player's, kind "player"): per game their rating on the server's ladder and the global one, their
  record and streak, a chart of their global rating over their rated matches, their latest rated
  matches (a match of this server linked to its page) and their most frequent opponents.

What the pages show is what ``/leaderboard`` and ``/profile`` show in that server; a server that
turned its pages off (``/settings web``) has none (the same "No such page" as a wrong address).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from aiohttp import web
from markupsafe import Markup

from bot.rating_time import provisional
from bot.stats import GLOBAL_SCOPE, Profile, RatingSeries, StatsService
from rules.text import plural

from . import pages
from .boards import svg, text
from .common import REPLAYS, SIGNER, guild_shows, html, match_link

STATS: web.AppKey[StatsService | None] = web.AppKey("stats")
PAGE_SIZE = 25
NO_PAGE = "No such page: the link is wrong, or this server does not show its pages on the web."


def add_routes(app: web.Application, stats: StatsService | None) -> None:
    """The leaderboard and player routes (none without the stats service)."""
    app[STATS] = stats
    if stats is None:
        return
    app.router.add_get("/s/{token}", leaderboard)
    app.router.add_get("/u/{token}", player)


def no_page() -> web.Response:
    return html(pages.message_page("No such page", NO_PAGE), 404)


def player_link(app: web.Application, guild_id: int, user_id: int) -> str:
    return f"/u/{app[SIGNER].pair_token('player', guild_id, user_id)}"


def server_link(app: web.Application, guild_id: int, game: str | None = None) -> str:
    base = f"/s/{app[SIGNER].token('server', guild_id)}"
    return base if game is None else f"{base}?game={game}"


async def leaderboard(request: web.Request) -> web.Response:
    app = request.app
    guild_id = app[SIGNER].read("server", request.match_info["token"])
    stats = app[STATS]
    if guild_id is None or stats is None or not await guild_shows(app, guild_id):
        return no_page()
    played = await stats.games_played(guild_id)
    games = [g.game for g in played]
    game = request.query.get("game") or (games[0] if games else None)
    if game is not None and game not in games:
        return html(pages.message_page("No such game", "Nobody is rated in that game on this server."), 404)
    page_text = request.query.get("page", "1")
    if not page_text.isdigit() or int(page_text) < 1:
        return html(pages.message_page("No such page", "The page must be a whole number from 1."), 400)
    board = None
    if game is not None:
        board = await stats.leaderboard(game, guild_id, int(page_text) - 1, size=PAGE_SIZE)
    rows = []
    if board is not None:
        for at, standing in enumerate(board.standings):
            record = board.records.get(standing.user_id)
            rows.append(
                {
                    "rank": board.page * board.size + at + 1,
                    "name": standing.display_name or f"player {standing.user_id}",
                    "link": player_link(app, guild_id, standing.user_id),
                    "rating": f"≈{standing.display}" if provisional(standing.sigma) else standing.display,
                    "games": standing.games,
                    "record": _record_words(record, standing),
                }
            )
    return html(
        pages.render(
            "leaderboard.html",
            title=f"Leaderboard · {pages.game_name(game) if game else 'no games yet'}",
            games=[(g, pages.game_name(g), server_link(app, guild_id, g)) for g in games],
            game=game,
            game_name=pages.game_name(game) if game else "",
            rows=rows,
            board=board,
            base=server_link(app, guild_id, game),
        )
    )


def _record_words(record: Any, standing: Any) -> str:
    if record is None:
        return f"{standing.wins}-{standing.losses}-{standing.draws}"
    if record.places:
        firsts = sum(n for (rank, _), n in record.places.items() if rank == 1)
        return f"{record.wins}-{record.losses}-{record.draws}, {firsts} tables won"
    return f"{record.wins}-{record.losses}-{record.draws}"


async def player(request: web.Request) -> web.Response:
    app = request.app
    found = app[SIGNER].read_pair("player", request.match_info["token"])
    stats = app[STATS]
    if found is None or stats is None or not await guild_shows(app, found[0]):
        return no_page()
    guild_id, user_id = found
    profile = await stats.profile(user_id, guild_id, chart_games=4)
    name = _name_of(profile, user_id)
    games = []
    for game in profile.games:
        ladders = [
            {
                "where": "this server" if placed.standing.scope != GLOBAL_SCOPE else "everywhere",
                "rating": placed.standing.display,
                "position": placed.position,
                "of": placed.players,
                "record": _record_words(game.records.get(placed.standing.scope), placed.standing),
            }
            for placed in game.ladders
        ]
        chart = next((c for c in profile.charts if c.game == game.game), None)
        games.append(
            {
                "name": pages.game_name(game.game),
                "ladders": ladders,
                "streak": _streak_words(game.streak),
                "chart": Markup(rating_chart(chart, pages.game_name(game.game))) if chart else None,  # noqa: S704
                "board": server_link(app, guild_id, game.game),
            }
        )
    recent = []
    for change in profile.recent:
        record = await app[REPLAYS].on_the_web(change.match_id)
        at_table = profile.sizes.get(change.match_id, (2, 1))[0] > 2
        here = record is not None and record.guild_id == guild_id
        recent.append(
            {
                "match": change.match_id,
                "game": pages.game_name(change.game),
                "result": f"place {change.rank}" if at_table else change.result,
                "change": change.display_after - change.display_before,
                "link": match_link(app, change.match_id) if here else None,
            }
        )
    opponents = [
        {
            "name": o.display_name or f"player {o.user_id}",
            "link": player_link(app, guild_id, o.user_id),
            "matches": o.matches,
            "ahead": o.ahead,
            "level": o.level,
            "behind": o.behind,
        }
        for o in profile.opponents
    ]
    return html(
        pages.render(
            "player.html", title=f"{name} · Wizard Referee", name=name, games=games, recent=recent, opponents=opponents
        )
    )


def _name_of(profile: Profile, user_id: int) -> str:
    for game in profile.games:
        for placed in game.ladders:
            if placed.standing.display_name:
                return str(placed.standing.display_name)
    return f"player {user_id}"


def _streak_words(run: Any) -> str:
    if run is None:
        return ""
    words = {"win": "wins", "loss": "losses", "draw": "draws", "first": "tables won", "shared-first": "shared wins"}
    return f"{run.length} {words.get(run.result, run.result)} in a row" if run.length > 1 else ""


def rating_chart(series: RatingSeries, game: str) -> str:
    """A player's rating over their rated matches as an SVG line (each match a dot: filled for a
    win, hollow for a loss, grey for a draw or a place at a table)."""
    width, height, pad = 640.0, 260.0, 48.0
    points: Sequence[int] = series.points
    low, high = min(points), max(points)
    span = max(high - low, 1)
    step = (width - 2 * pad) / max(len(points) - 1, 1)

    def at(i: int, value: int) -> tuple[float, float]:
        return pad + i * step, height - pad - (value - low) / span * (height - 2 * pad)

    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(i, v) for i, v in enumerate(points)))
    parts = [
        f'<rect width="{width:g}" height="{height:g}" fill="#fbf7ef"/>',
        f'<polyline points="{line}" fill="none" stroke="#4a3d8f" stroke-width="4"/>',
    ]
    for i, result in enumerate(series.results, start=1):
        x, y = at(i, points[i])
        fill = {"win": "#0a7a3c", "loss": "#fbf7ef"}.get(result, "#9a9aa8")
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="{fill}" stroke="#1d1d27" stroke-width="2"/>')
    parts.append(text(pad, 34, f"{high}", anchor="start", fill="#5b5b6b"))
    parts.append(text(pad, height - 12, f"{low}", anchor="start", fill="#5b5b6b"))
    parts.append(text(width - pad, height - 12, plural(series.matches, "match"), anchor="end", fill="#5b5b6b"))
    title = f"{game}: rating from {points[0]} to {points[-1]} over {series.matches} rated matches"
    return svg(width, height, parts, title=title)


__all__ = ["STATS", "add_routes", "player_link", "rating_chart", "server_link"]
