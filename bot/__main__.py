"""Entry point: ``python -m bot`` (or the ``wizard-referee`` script).

Configuration problems end the process with exit code 2 and one line per problem on stderr,
never a traceback. Before anything is created on disk the token is tried against Discord (one
``GET /users/@me``): without a network the process prints ``cannot reach Discord: ...`` and exits
with code 1, with a token Discord rejects it prints one line and exits with code 2; only then is the
database opened (created and migrated on the first start). The database is ``DATABASE_URL`` (an
SQLite file, the default, or a PostgreSQL server): an unknown scheme is one line and exit code 1
before Discord is contacted, a server that cannot be reached one line and exit code 1 (nothing is
written: each migration is one transaction).

``python -m bot web`` runs the web table alone, beside the bot's processes on one PostgreSQL
database (:mod:`bot.web_process`; no token needed). ``python -m bot db copy --from URL --to URL``
copies the database to a new, empty one (SQLite to PostgreSQL or back; :mod:`bot.dbcopy`), with the
bot stopped. ``python -m bot --help`` prints the usage; any other argument prints it too, on stderr,
and exits with code 2 without logging in.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence
from typing import TextIO

from pydantic import ValidationError

from bot.settings import Settings, settings_problems

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_CONFIG = 2

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set. Copy .env.example to .env and put your bot token in it "
    "(README: 'Create the Discord application')."
)
REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN (login failed). Check that .env holds the current bot token "
    "(Developer Portal > your application > Bot > Reset Token)."
)
LOGIN_TIMEOUT = 30.0
"""Seconds the first login may take before Discord counts as unreachable."""
UNREACHABLE = "cannot reach Discord: {reason}. Check the network connection, then start again."
MISSING_INTENTS = (
    "Discord refused a privileged intent the bot asked for. Enable it in the Developer Portal "
    "(your application > Bot > Privileged Gateway Intents) or remove it from the bot."
)

USAGE = """usage: python -m bot [-h | --help]
       python -m bot db copy --from URL --to URL

Runs the Discord bot with the settings in .env or the environment (DISCORD_TOKEN, DATABASE_URL and
the others .env.example lists). It takes no other arguments.

The web table alone, beside the bot's processes on PostgreSQL (docs/web.md):
  python -m bot web                           serve the match pages and seat pages (WEB_HOST, WEB_PORT)

Maintenance commands (the bot stopped):
  python -m bot db copy --from URL --to URL   copy the database to a new, empty one (docs/deploy.md)
  python -m bot.ratings {rebuild,verify}      rebuild the ratings from the finished matches, or compare
  python -m rules play                        the offline table: play a game in the terminal
"""
HELP = ("-h", "--help", "help")

log = logging.getLogger("bot")


def load_settings(stderr: TextIO) -> Settings | None:
    """The settings, or None after printing one line per problem."""
    try:
        return Settings()
    except ValidationError as exc:
        for line in settings_problems(exc):
            print(line, file=stderr)
        return None


def main(argv: Sequence[str] | None = None) -> int:
    """Load settings, open the database and run the bot until it stops; return the exit code.

    ``python -m bot db ...`` (``argv`` starting with ``db``; default ``sys.argv[1:]``) runs a
    database command instead (:mod:`bot.dbcopy`: ``db copy --from URL --to URL``), without
    settings, a token or Discord. ``--help`` prints :data:`USAGE`; any other argument prints it on
    stderr with the argument named, exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["db"]:
        from bot.dbcopy import cli

        return cli(args[1:])
    if args[:1] == ["web"] and len(args) == 1:
        return web_main(sys.stderr)
    stderr = sys.stderr
    if args[:1] and args[0] in HELP:
        print(USAGE, end="")
        return EXIT_OK
    if args:
        print(f"python -m bot: unknown argument: {' '.join(args)}", file=stderr)
        print(USAGE, end="", file=stderr)
        return EXIT_CONFIG
    settings = load_settings(stderr)
    if settings is None:
        return EXIT_CONFIG
    if settings.token is None:
        print(MISSING_TOKEN, file=stderr)
        return EXIT_CONFIG
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        return asyncio.run(run(settings, stderr))
    except KeyboardInterrupt:
        return EXIT_OK


def web_main(stderr: TextIO) -> int:
    """``python -m bot web``: the web table alone, beside the bot's processes (bot/web_process.py)."""
    from bot.web_process import serve as serve_web

    settings = load_settings(stderr)
    if settings is None:
        return EXIT_CONFIG
    logging.basicConfig(level=settings.log_level_number, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(serve_web(settings, stderr))
    except KeyboardInterrupt:
        return EXIT_OK


def unreachable(exc: BaseException) -> str:
    """The one line for a connection to Discord that failed (no network, DNS, TLS, a timeout)."""
    reason = str(exc).strip() or type(exc).__name__
    if isinstance(exc, TimeoutError):
        reason = "the connection timed out"
    return UNREACHABLE.format(reason=reason)


async def try_login(token: str) -> None:
    """Log in once with a bare HTTP client (nothing else is built): raises LoginFailure for a
    rejected token and ``aiohttp.ClientError``/``OSError``/``TimeoutError`` without a network."""
    import discord

    http = discord.http.HTTPClient(asyncio.get_running_loop())
    try:
        await asyncio.wait_for(http.static_login(token), LOGIN_TIMEOUT)
    finally:
        await http.close()


async def run(settings: Settings, stderr: TextIO) -> int:
    """Check that Discord takes the token, then open the database (migrations applied), build the
    client and run it."""
    import aiohttp
    import discord

    token = settings.token
    assert token is not None
    from db import UnknownDatabaseURL, parse_database_url

    try:
        parse_database_url(settings.database)
    except UnknownDatabaseURL as exc:
        print(str(exc), file=stderr)
        return EXIT_FAILURE
    offline = (aiohttp.ClientError, OSError, TimeoutError)
    try:
        await try_login(token)
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=stderr)
        return EXIT_CONFIG
    except offline as exc:
        print(unreachable(exc), file=stderr)
        return EXIT_FAILURE
    return await serve(settings, token, stderr)


async def serve(settings: Settings, token: str, stderr: TextIO) -> int:
    """Open the database and run the bot until it stops."""
    import aiohttp
    import discord

    from bot.client import build_bot
    from db import Database, DatabaseUnavailable, StorageError

    try:
        db = await Database.open(settings.database, pool_size=settings.database_pool_size)
    except DatabaseUnavailable as exc:
        print(f"cannot open the database: {exc}. Check DATABASE_URL, then start again.", file=stderr)
        return EXIT_FAILURE
    except StorageError as exc:  # an unknown scheme, a migration that failed (rolled back)
        print(f"cannot open the database: {exc}", file=stderr)
        return EXIT_FAILURE
    try:
        bot = build_bot(settings, db)
        async with bot:
            await bot.start(token)
    except discord.LoginFailure:
        print(REJECTED_TOKEN, file=stderr)
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print(MISSING_INTENTS, file=stderr)
        return EXIT_CONFIG
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        print(unreachable(exc), file=stderr)
        return EXIT_FAILURE
    finally:
        await db.close()
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
