"""The web table's HTTP side (issue 35): an ``aiohttp.web`` application over the bot's services.

Routes:

- ``GET /m/<token>``: a match's page (:func:`web.pages.match_page`): live, what a spectator may
  see; once over, the whole story with every secret. The token is signed (:mod:`bot.signing`): a
  page cannot be found by counting, and a bad token and a missing match get the same 404.
- ``GET /m/<token>/events``: the page's live updates, as server-sent events: ``moved`` each time
  the match moves (within :data:`bot.watch.POLL_SECONDS` of the move, whatever process made it),
  ``over`` when it ends (then the stream closes), a comment every :data:`HEARTBEAT` seconds
  between. An event carries the match's version number only, never what happened: the page
  fetches itself again (``static/live.js``), so what a spectator may see is decided in one place.
- ``GET /``: what the site is (it lists nothing).
- ``GET /static/<file>``: the style sheet.
- ``GET /healthz``: ``ok``, for a load balancer or a container's health check.

Every answer (a stream too) carries a Content-Security-Policy (nothing from elsewhere, no inline script),
``X-Robots-Tag: noindex`` and ``Referrer-Policy: no-referrer``. Each client (by address) may make
:data:`RATE` requests a second with bursts of :data:`BURST`; past that it gets 429 and a
``Retry-After``; it may hold :data:`STREAMS_PER_CLIENT` live streams open at once (429 past
them). Only GET and HEAD are served.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

from bot.matches import MatchError, MatchRecord, MatchService
from bot.replays import ReplayRefused, ReplayService
from bot.servers import ServersService
from bot.signing import Signer
from bot.stats import StatsService
from bot.tournaments.service import TournamentService
from bot.watch import MatchWatch

from . import pages, people, picture, seat, tournament_page
from .boards import board_of, board_svg
from .common import PUBLIC_URL, REPLAYS, SERVERS, SIGNER, WATCH, html, no_match, server_shows

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
RATE = 10.0  # requests a second a client may make, on average
BURST = 40  # and at once
CLIENTS = 10_000  # clients whose allowance is remembered (the least recent forgotten first)
HEARTBEAT = 15.0  # seconds between two comments on a quiet event stream (proxies close idle ones)
STREAMS_PER_CLIENT = 20  # live streams one client address may hold open at once
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Robots-Tag": "noindex, nofollow",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
OPEN: web.AppKey[dict[str, int]] = web.AppKey("open streams", dict)  # client address -> live streams
STREAM_CAP: web.AppKey[int] = web.AppKey("streams per client", int)


class RateLimiter:
    """A token bucket per client: ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, when)

    def wait(self, client: str) -> float:
        """0 when ``client`` may go on (one token spent), else the seconds until it may."""
        now = self.clock()
        tokens, when = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.rate)
        waited = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            waited = (1.0 - tokens) / self.rate
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > CLIENTS:
            self._buckets.popitem(last=False)
        return waited


LIMITER: web.AppKey[RateLimiter] = web.AppKey("limiter", RateLimiter)


def make_app(
    replays: ReplayService,
    signer: Signer,
    *,
    public_url: str | None = None,
    limiter: RateLimiter | None = None,
    watch: MatchWatch | None = None,
    servers: ServersService | None = None,
    streams_per_client: int = STREAMS_PER_CLIENT,
    service: MatchService | None = None,
    stats: StatsService | None = None,
    tournaments: TournamentService | None = None,
) -> web.Application:
    """The application: its routes over ``replays``, its tokens made and read by ``signer``;
    ``public_url`` (the site's address as players reach it) goes into the pages' link previews;
    ``watch`` follows the matches live pages show (one of its own, on the replays' database, if
    none is given; closed with the application); ``servers``: the servers' settings, whose ``web``
    switch hides a server's matches (None: every match is shown); ``streams_per_client``: the
    live streams one client address may hold open at once (past it: 429); ``service``: the matches,
    through which a seat's page plays (:mod:`web.seat`; None: no seat pages); ``stats``: the
    ladders (:mod:`web.people`: leaderboards and players' pages); ``tournaments``: the tournaments'
    pages (:mod:`web.tournament_page`)."""

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        writes = request.method == "POST" and seat.is_seat_path(request.path)
        if request.method not in ("GET", "HEAD") and not writes:
            response: web.StreamResponse = html(pages.message_page("Not allowed", "This page is read only."), 405)
            response.headers["Allow"] = "GET, HEAD"
        elif (wait := request.app[LIMITER].wait(request.remote or "?")) > 0:
            response = html(pages.message_page("Too many requests", "Slow down, then try again."), 429)
            response.headers["Retry-After"] = str(max(1, round(wait + 0.5)))
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = html(pages.message_page("Not found", "There is no such page."), 404)
        return response

    async def secure(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)  # as each answer starts, a stream's too

    async def close_watch(app: web.Application) -> None:
        await app[WATCH].close()

    app = web.Application(middlewares=[guard])
    app.on_response_prepare.append(secure)
    app.on_cleanup.append(close_watch)
    app[LIMITER] = limiter or RateLimiter()
    app[WATCH] = watch or MatchWatch(replays.db)
    app[SERVERS] = servers
    app[OPEN] = {}
    app[STREAM_CAP] = streams_per_client
    app[REPLAYS] = replays
    app[SIGNER] = signer
    app[PUBLIC_URL] = (public_url or "").rstrip("/")
    app.router.add_get("/", index)
    app.router.add_get("/healthz", health)
    app.router.add_get("/m/{token}", match)
    app.router.add_get("/m/{token}/events", events)
    app.router.add_get("/m/{token}/board.png", board_picture)
    seat.add_routes(app, service)
    people.add_routes(app, stats)
    tournament_page.add_routes(app, tournaments)
    if service is not None:
        app.router.add_get("/p/{token}/events", seat_events)
    app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    return app


async def index(request: web.Request) -> web.Response:
    return html(
        pages.message_page(
            "Wizard Referee",
            "The pages of the matches this bot referees. A match's page is linked from its thread in Discord.",
        )
    )


async def health(request: web.Request) -> web.Response:
    return web.Response(text="ok")


async def shown(request: web.Request) -> MatchRecord | None:
    """The match the address names, if its page may be shown: a match with a log, of a server
    that has not turned its pages off (``/settings web``). None answers "No such match", the same
    for a wrong address, a missing match and a hidden one."""
    app = request.app
    match_id = app[SIGNER].read("match", request.match_info["token"])
    record = await app[REPLAYS].on_the_web(match_id) if match_id is not None else None
    if record is not None and not await server_shows(app, record):
        return None
    return record


async def match(request: web.Request) -> web.Response:
    app = request.app
    record = await shown(request)
    if record is None:
        return no_match()
    try:
        replay = await app[REPLAYS].replay(record, pages.story_kinds(record.game))
    except ReplayRefused as refused:
        return html(pages.message_page(f"Match #{record.id}", str(refused)), 404)
    try:
        step = pages.step_number(request.query.get("step"), replay)
    except pages.BadStep as bad:
        return html(pages.message_page("No such step", str(bad)), 400)
    token = request.match_info["token"]
    base = app[PUBLIC_URL]
    url = f"{base}/m/{token}" if base else None
    image = f"{url}/board.png" if url and board_of(record.game) is not None and picture.rasterizer() else None
    live = f"/m/{token}/events" if replay.live else None
    players: tuple[str | None, ...] = ()
    if record.guild_id is not None and app[people.STATS] is not None:
        players = tuple(
            None if record.is_ai(seat) else people.player_link(app, record.guild_id, s.user_id)
            for seat, s in enumerate(record.seats)
        )
    ending = None
    service = app[seat.SERVICE]
    if not replay.live and service is not None:
        try:
            ending = await service.ending(record.id)
        except MatchError:
            ending = None
    page = pages.match_page(
        replay, url=url, image_url=image, live_url=live, step=step, player_links=players, ending=ending
    )
    return html(page)


async def board_picture(request: web.Request) -> web.Response:
    """The board as it stands, as a PNG (the page's link preview: ``web/picture.py``)."""
    record = await shown(request)
    if record is None or board_of(record.game) is None or picture.rasterizer() is None:
        return no_match()
    key = (record.id, record.version)
    drawn = picture.kept(key)
    if drawn is None:
        try:
            replay = await request.app[REPLAYS].replay(record, pages.story_kinds(record.game))
        except ReplayRefused:
            return no_match()
        last = replay.steps[-1] if replay.steps else None
        svg = board_svg(record.game, last.view, replay.names) if last is not None else None
        drawn = await asyncio.to_thread(picture.png, svg) if svg else None
        if drawn is None:
            return no_match()
        picture.keep(key, drawn)
    return web.Response(body=drawn, content_type="image/png", headers={"Cache-Control": "public, max-age=60"})


async def events(request: web.Request) -> web.StreamResponse:
    return await stream(request, await shown(request))


async def seat_events(request: web.Request) -> web.StreamResponse:
    found = await seat.seat_record(request)
    return await stream(request, found[0] if found is not None else None)


async def stream(request: web.Request, record: MatchRecord | None) -> web.StreamResponse:
    """``record``'s live stream (see the module's docstring); "No such match" for None."""
    if record is None:
        return no_match()
    app = request.app
    client = request.remote or "?"
    open_streams = app[OPEN]
    if open_streams.get(client, 0) >= app[STREAM_CAP]:
        refused = html(pages.message_page("Too many live pages", "Close some of your open match pages."), 429)
        refused.headers["Retry-After"] = str(int(HEARTBEAT))
        return refused
    open_streams[client] = open_streams.get(client, 0) + 1
    try:
        async with app[WATCH].watching(record.id) as watched:
            stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
            await stream.prepare(request)
            version = watched.version
            await stream.write(_event("state", version, watched.live))
            while watched.live:
                if await watched.wait(version, HEARTBEAT):
                    version = watched.version
                    await stream.write(_event("moved" if watched.live else "over", version, watched.live))
                else:
                    await stream.write(b": still here\n\n")
            return stream
    except LookupError:
        return no_match()
    except ConnectionResetError:  # the page was closed
        return web.Response(status=204)
    finally:
        left = open_streams.get(client, 1) - 1
        if left > 0:
            open_streams[client] = left
        else:
            open_streams.pop(client, None)


def _event(kind: str, version: int, live: bool) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'version': version, 'live': live})}\n\n".encode()
