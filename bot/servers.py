"""Per-server settings: where matches are played, one thread per match, the default turn time,
reminders, pictures, the leaderboard's minimum number of games and how long a player may be quiet
before the bot mentions them (``ping_after``). Discord-free, like :mod:`bot.matches`.

:class:`ServersService` reads a server's settings (cached in memory; a change drops the cached
value) and changes them (``/settings`` in ``cogs/settings.py``). Every value is validated before
anything is written: a bad value raises :class:`ServerSettingsError` (a ``ValueError``, so the
Discord layer shows its message) and nothing changes. A server that never changed anything, and
direct messages, get the bot's defaults (:class:`bot.settings.Settings`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from db import Database
from db.ratings import RatingsRepository
from db.servers import COLUMNS, ServerSettingsRecord, ServersRepository
from rules.text import plural

from .leagues import Band, LeagueError
from .leagues import dump as dump_leagues
from .leagues import load as load_leagues
from .leagues import parse as parse_leagues
from .settings import Settings

MIN_TURN_SECONDS = 60
"""The shortest default turn time a server may set (1 minute)."""
MAX_TURN_SECONDS = 7 * 24 * 3600
"""The longest default turn time a server may set (7 days)."""

DEFAULT_LEADERBOARD_MIN_GAMES = 1
"""Without a setting, every rated player appears on the server's leaderboard."""
MAX_LEADERBOARD_MIN_GAMES = 1000
"""The highest minimum number of games a server may ask for to appear on its leaderboard."""

DEFAULT_PING_AFTER_SECONDS = 120
"""Without a setting, a player is mentioned when the move passes to them after 2 minutes without a
click in the match (issue 31, part 2)."""
MAX_PING_AFTER_SECONDS = 24 * 3600
"""The longest a server may let a player be quiet before mentioning them (1 day); 0: always."""

MAX_WINDOW_DAYS = 3650
"""The longest leaderboard window a server may set (10 years)."""
DEFAULT_SEASON_DAYS = 91
"""A season's length when neither /season start nor the server says (three months)."""
MIN_SEASON_DAYS = 1
MAX_SEASON_DAYS = 3650

SETTING_NAMES = COLUMNS
"""The names :meth:`ServersService.update` accepts."""


class ServerSettingsError(ValueError):
    """A change the settings refuse; the message is meant for the server's admin. Nothing changed."""


@dataclass(frozen=True)
class ServerSettings:
    """A server's effective settings: what it chose, and the bot's defaults for the rest."""

    guild_id: int | None  # None: direct messages
    channel_id: int | None  # where matches are played; None: wherever the challenge is made
    threads: bool  # one thread per match (where the bot may create threads)
    turn_time_seconds: int  # the default time for each move
    reminders: bool  # remind a player before their move times out
    pictures: bool  # attach pictures to channel posts
    turn_time_is_default: bool = True  # the turn time is the bot's MOVE_TIMEOUT_SECONDS
    pictures_is_default: bool = True  # pictures follow the bot's RENDER_IMAGES
    updated_at: int | None = None  # unix seconds of the last change; None: never changed
    updated_by: int | None = None  # the user id of the last change
    leaderboard_min_games: int = DEFAULT_LEADERBOARD_MIN_GAMES  # rated games to appear on the leaderboard
    # mention a player when the move passes to them only if they have not clicked in the match for
    # this long (0: always)
    ping_after_seconds: int = DEFAULT_PING_AFTER_SECONDS
    ping_after_is_default: bool = True  # the ping delay is DEFAULT_PING_AFTER_SECONDS
    web: bool = True  # the server's matches have pages on the web table (docs/web.md)
    leaderboard_window_days: int | None = None  # listed only with a rated game in this many days (None: always)
    season_days: int = DEFAULT_SEASON_DAYS  # a new season's default length
    leagues: tuple[Band, ...] = ()  # the league bands, lowest first (none: no leagues)


# ---------------------------------------------------------------------------------------
# durations
# ---------------------------------------------------------------------------------------

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_UNIT_WORDS = r"d|days?|h|hours?|hrs?|m|mins?|minutes?|s|secs?|seconds?"
_PART = re.compile(rf"(\d+(?:\.\d+)?)\s*({_UNIT_WORDS})", re.IGNORECASE)
_DURATION = re.compile(rf"(?:\d+(?:\.\d+)?\s*(?:{_UNIT_WORDS})\s*)+", re.IGNORECASE)
_DEFAULT_WORDS = ("default", "reset")


def _seconds(value: str) -> int | None:
    """Seconds from a lower-cased, stripped ``"90"``, ``"90s"``, ``"1h30m"`` or ``"1.5h"``; None:
    not a duration."""
    if re.fullmatch(r"\d+", value):
        return int(value)
    if _DURATION.fullmatch(value):
        total = sum(float(n) * _UNITS[unit[0]] for n, unit in _PART.findall(value))
        return round(total)
    return None


def parse_turn_time(text: str) -> int | None:
    """Seconds from ``"90"``, ``"90s"``, ``"30m"``, ``"2h"``, ``"1d"``, ``"1h30m"`` or ``"1.5h"``;
    None from ``"default"`` (back to the bot's default). The range is checked by
    :meth:`ServersService.update`."""
    value = text.strip().lower()
    if value in _DEFAULT_WORDS:
        return None
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    raise ServerSettingsError(
        f"{text.strip()[:40]!r} is not a turn time. Give seconds or a number with a unit, "
        "like 90, 30m, 2h, 1d or 1h30m (or 'default' for the bot's default). Nothing was changed."
    )


def parse_ping_after(text: str) -> int | None:
    """``/settings ping_after``: seconds from ``"2m"``, ``"30s"``, ``"90"``, ``"1h"`` (as
    :func:`parse_turn_time`), 0 from ``"0"`` or ``"always"`` (mention the player every time the
    move passes to them), None from ``"default"`` (:data:`DEFAULT_PING_AFTER_SECONDS`). The range
    is checked by :meth:`ServersService.update`."""
    value = text.strip().lower()
    if value in _DEFAULT_WORDS:
        return None
    if value == "always":
        return 0
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    raise ServerSettingsError(
        f"{text.strip()[:40]!r} is not a time to wait before pinging. Give seconds or a number with a unit, "
        "like 30s, 2m or 1h, 0 to always ping, or 'default' for 2 minutes. Nothing was changed."
    )


def turn_time_problem(value: object, least: int, most: int) -> str | None:
    """What is wrong with ``value`` as a turn time from ``least`` to ``most`` seconds (a
    player's sentence), or None: it is fine. Servers' /settings and a match's own turn time."""
    if not isinstance(value, int) or isinstance(value, bool):
        return f"The turn time must be a whole number of seconds, not {str(value)[:40]!r}."
    if not least <= value <= most:
        shown = format_duration(value) if value > 0 else f"{value} seconds"
        verdict = "short" if value < least else "long"
        bounds = f"between {format_duration(least)} and {format_duration(most)}"
        return f"The turn time must be {bounds}; {shown} is too {verdict}."
    return None


def format_duration(seconds: int) -> str:
    """``5400`` -> ``"1 hour 30 minutes"`` (largest unit first)."""
    parts: list[str] = []
    rest = int(seconds)
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        count, rest = divmod(rest, size)
        if count:
            parts.append(plural(count, name))
    return " ".join(parts) if parts else "0 seconds"


# ---------------------------------------------------------------------------------------
# the service
# ---------------------------------------------------------------------------------------


class ServersService:
    """Reads and changes per-server settings. One per bot: ``ServersService(db, settings)``."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.settings = settings
        self._db = db
        self._repo = ServersRepository(db)
        self._cache: dict[int, ServerSettings] = {}
        # bumped by every change, so that a read that started before a change never caches its
        # (now stale) result
        self._generation: dict[int, int] = {}

    def defaults(self, guild_id: int | None = None) -> ServerSettings:
        """The settings of a server that never changed anything (and of direct messages)."""
        return ServerSettings(
            guild_id=guild_id,
            channel_id=None,
            threads=True,
            turn_time_seconds=self.settings.move_timeout_seconds,
            reminders=True,
            pictures=self.settings.render_images,
        )

    async def get(self, guild_id: int | None) -> ServerSettings:
        """The server's effective settings (the defaults for direct messages: ``guild_id`` None)."""
        if guild_id is None:
            return self.defaults(None)
        cached = self._cache.get(guild_id)
        if cached is not None:
            return cached
        generation = self._generation.get(guild_id, 0)
        value = self._effective(guild_id, await self._repo.get(guild_id))
        if self._generation.get(guild_id, 0) == generation:
            self._cache[guild_id] = value
        return value

    async def update(self, guild_id: int | None, user_id: int, **changes: object) -> ServerSettings:
        """Change some of the server's settings and return the result. Names (see
        :data:`SETTING_NAMES`): ``channel_id`` (a channel id, or None: wherever the challenge is
        made), ``threads``, ``reminders``, ``pictures`` (True or False), ``turn_time_seconds``
        (:data:`MIN_TURN_SECONDS` to :data:`MAX_TURN_SECONDS`, or None: the bot's default),
        ``leaderboard_min_games`` (1 to :data:`MAX_LEADERBOARD_MIN_GAMES`, or None: the default, 1),
        ``ping_after_seconds`` (0: always, to :data:`MAX_PING_AFTER_SECONDS`, or None: the default,
        :data:`DEFAULT_PING_AFTER_SECONDS`), ``web`` (True or False: the web table's pages).

        Every value is checked first; on any problem :class:`ServerSettingsError` names them all
        and nothing is written. No changes: the current settings, nothing written."""
        if guild_id is None:
            raise ServerSettingsError("Settings belong to a server: use /settings in a server, not in direct messages.")
        checked = _validate(changes)
        if not checked:
            return await self.get(guild_id)
        self._generation[guild_id] = self._generation.get(guild_id, 0) + 1
        self._cache.pop(guild_id, None)
        async with self._db.transaction():
            await self._repo.upsert(guild_id, checked, updated_by=user_id)
            if {"leaderboard_min_games", "leaderboard_window_days"} & set(checked):
                # who the server's ladders list changed: each of their ratings settles again when read
                await RatingsRepository(self._db).mark_due(guild_id)
        self._generation[guild_id] += 1  # a read that overlapped the write must not cache its result
        self._cache.pop(guild_id, None)
        return await self.get(guild_id)

    def _effective(self, guild_id: int, record: ServerSettingsRecord | None) -> ServerSettings:
        if record is None:
            return self.defaults(guild_id)
        return ServerSettings(
            guild_id=guild_id,
            channel_id=record.channel_id,
            threads=record.threads,
            turn_time_seconds=(
                self.settings.move_timeout_seconds if record.turn_time_seconds is None else record.turn_time_seconds
            ),
            reminders=record.reminders,
            pictures=self.settings.render_images if record.pictures is None else record.pictures,
            turn_time_is_default=record.turn_time_seconds is None,
            pictures_is_default=record.pictures is None,
            updated_at=record.updated_at,
            updated_by=record.updated_by,
            leaderboard_min_games=(
                DEFAULT_LEADERBOARD_MIN_GAMES if record.leaderboard_min_games is None else record.leaderboard_min_games
            ),
            ping_after_seconds=(
                DEFAULT_PING_AFTER_SECONDS if record.ping_after_seconds is None else record.ping_after_seconds
            ),
            ping_after_is_default=record.ping_after_seconds is None,
            web=True if record.web is None else record.web,
            leaderboard_window_days=record.leaderboard_window_days,
            season_days=DEFAULT_SEASON_DAYS if record.season_days is None else record.season_days,
            leagues=load_leagues(record.leagues),
        )


_DAY_RANGES = {
    "leaderboard_window_days": (1, MAX_WINDOW_DAYS, "The leaderboard's window"),
    "season_days": (MIN_SEASON_DAYS, MAX_SEASON_DAYS, "A season's length"),
}

_SWITCH_WORDS = {"threads": "Threads", "reminders": "Reminders", "pictures": "Pictures", "web": "Web pages"}


def _validate(changes: dict[str, object]) -> dict[str, int | bool | str | None]:
    """The changes, checked; every problem at once in one :class:`ServerSettingsError`."""
    problems: list[str] = []
    out: dict[str, int | bool | str | None] = {}
    for name, value in changes.items():
        if name not in SETTING_NAMES:
            problems.append(f"There is no setting {name!r}; the settings are {', '.join(SETTING_NAMES)}.")
        elif name == "channel_id":
            if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
                out[name] = value
            else:
                problems.append(f"The match channel must be a channel of this server, not {str(value)[:40]!r}.")
        elif name == "turn_time_seconds":
            if value is None:
                out[name] = None
            elif problem := turn_time_problem(value, MIN_TURN_SECONDS, MAX_TURN_SECONDS):
                problems.append(problem)
            else:
                assert isinstance(value, int)  # what turn_time_problem accepts
                out[name] = value
        elif name == "leaderboard_min_games":
            problem = _min_games_problem(value)
            if problem:
                problems.append(problem)
            else:
                out[name] = value if isinstance(value, int) else None
        elif name in _DAY_RANGES:
            low, high, words = _DAY_RANGES[name]
            if value is None:
                out[name] = None
            elif not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                problems.append(
                    f"{words} must be a whole number of days from {low} to {high}, not {str(value)[:40]!r}."[:200]
                )
            else:
                out[name] = value
        elif name == "leagues":
            if value is None:
                out[name] = None
            elif isinstance(value, str):
                try:
                    out[name] = dump_leagues(parse_leagues(value))
                except LeagueError as exc:
                    problems.append(str(exc).removesuffix(" Nothing was changed."))
            else:
                problems.append("The leagues must be a line of text, like 'Apprentice, Adept 1400, Archmage 1600'.")
        elif name == "ping_after_seconds":
            problem = _ping_after_problem(value)
            if problem:
                problems.append(problem)
            else:
                out[name] = value if isinstance(value, int) else None
        elif isinstance(value, bool):
            out[name] = value
        else:
            problems.append(f"{_SWITCH_WORDS[name]} must be on or off (True or False), not {str(value)[:40]!r}.")
    if problems:
        raise ServerSettingsError(" ".join(problems) + " Nothing was changed.")
    return out


def _min_games_problem(value: object) -> str | None:
    """Why ``value`` cannot be the leaderboard's minimum number of games (None: it can)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return f"The leaderboard's minimum number of games must be a whole number, not {str(value)[:40]!r}."
    if not 1 <= value <= MAX_LEADERBOARD_MIN_GAMES:
        return (
            f"The leaderboard's minimum number of games must be between 1 and {MAX_LEADERBOARD_MIN_GAMES}; "
            f"{value} is too {'small' if value < 1 else 'large'}."
        )
    return None


def _ping_after_problem(value: object) -> str | None:
    """Why ``value`` cannot be the time a player may be quiet before being pinged (None: it can)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return f"The time before a ping must be a whole number of seconds, not {str(value)[:40]!r}."
    if value < 0:
        return f"The time before a ping must be 0 (always ping) or more; {value} seconds is too short."
    if value > MAX_PING_AFTER_SECONDS:
        return (
            f"The time before a ping must be between 0 (always ping) and {format_duration(MAX_PING_AFTER_SECONDS)}; "
            f"{format_duration(value)} is too long."
        )
    return None


__all__ = [
    "DEFAULT_LEADERBOARD_MIN_GAMES",
    "DEFAULT_PING_AFTER_SECONDS",
    "DEFAULT_SEASON_DAYS",
    "MAX_SEASON_DAYS",
    "MAX_WINDOW_DAYS",
    "MAX_LEADERBOARD_MIN_GAMES",
    "MAX_PING_AFTER_SECONDS",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "SETTING_NAMES",
    "ServerSettings",
    "ServerSettingsError",
    "ServersService",
    "format_duration",
    "turn_time_problem",
    "parse_ping_after",
    "parse_turn_time",
]
