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


async def server_shows(app: web.Application, record: MatchRecord) -> bool:
    """Whether ``record``'s server shows its matches on the web (``/settings web``; a match in
    direct messages has the defaults: shown)."""
    servers = app[SERVERS]
    return servers is None or record.guild_id is None or (await servers.get(record.guild_id)).web


def match_link(app: web.Application, match_id: int) -> str:
    """The match's page, as a path on this site."""
    return f"/m/{app[SIGNER].token('match', match_id)}"
