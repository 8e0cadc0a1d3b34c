"""The web table (issue 35): a page for every match, served by the bot's own process.

A presentation beside ``cogs/``, over ``bot/``: it reads the bot's services (the replays) and
never imports ``cogs/`` or ``db/`` (import contracts in pyproject.toml). The bot loads it as it
loads its command extensions (``"web.extension"`` in ``bot.client.EXTENSIONS``), so ``bot/``
does not import it either. With ``WEB_ENABLED`` (the default) it listens on ``WEB_HOST``:``WEB_PORT``
(127.0.0.1:8080 unless set); a port it cannot take is one warning, and the bot runs on without it.
Links in pages carry ``PUBLIC_URL`` when it is set. Page addresses are signed with ``WEB_SECRET``
(:mod:`bot.signing`); without one, a random secret is made at start-up and the links change at each
restart (one warning says so). See docs/web.md.
"""

from __future__ import annotations

from bot.signing import Signer, signer_of

from .app import make_app
from .server import WebServer

__all__ = ["Signer", "WebServer", "make_app", "signer_of"]
