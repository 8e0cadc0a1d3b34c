"""What the web table's handlers share: the application's keys, the HTML answer, the "no such
match" answer and the check of a server's ``/settings web`` switch."""

from __future__ import annotations

from aiohttp import web

from bot.matches import MatchRecord
from bot.replays import ReplayService
from bot.servers import ServersService
from bot.signing import Signer
from bot.watch import MatchWatch

from . import pages

NO_MATCH = "No such match: the link is wrong, or the match is not shown on the web."

REPLAYS: web.AppKey[ReplayService] = web.AppKey("replays", ReplayService)
SIGNER: web.AppKey[Signer] = web.AppKey("signer", Signer)
PUBLIC_URL: web.AppKey[str] = web.AppKey("public_url", str)
WATCH: web.AppKey[MatchWatch] = web.AppKey("watch", MatchWatch)
SERVERS: web.AppKey[ServersService | None] = web.AppKey("servers")


def html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def no_match() -> web.Response:
    return html(pages.message_page("No such match", NO_MATCH), 404)


async def guild_shows(app: web.Application, guild_id: int | None) -> bool:
    """Whether the server ``guild_id`` shows its pages on the web (``/settings web``; direct
    messages have the defaults: shown)."""
    servers = app[SERVERS]
    return servers is None or guild_id is None or (await servers.get(guild_id)).web


async def server_shows(app: web.Application, record: MatchRecord) -> bool:
    """Whether ``record``'s server shows its matches on the web."""
    return await guild_shows(app, record.guild_id)


def match_link(app: web.Application, match_id: int) -> str:
    """The match's page, as a path on this site."""
    return f"/m/{app[SIGNER].token('match', match_id)}"
