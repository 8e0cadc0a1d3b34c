"""Per-server settings: where matches are played, one thread per match, the default turn time,
reminders, pictures and the leaderboard's minimum number of games. Discord-free, like :mod:`bot.matches`.

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
from db.servers import COLUMNS, ServerSettingsRecord, ServersRepository
from rules.text import plural

from .settings import Settings

MIN_TURN_SECONDS = 60
"""The shortest default turn time a server may set (1 minute)."""
MAX_TURN_SECONDS = 7 * 24 * 3600
"""The longest default turn time a server may set (7 days)."""

DEFAULT_LEADERBOARD_MIN_GAMES = 1
"""Without a setting, every rated player appears on the server's leaderboard."""
MAX_LEADERBOARD_MIN_GAMES = 1000
"""The highest minimum number of games a server may ask for to appear on its leaderboard."""

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


# ---------------------------------------------------------------------------------------
# durations
# ---------------------------------------------------------------------------------------

_UNITS = {"d": 86400, "h": 3600, "m": 60, "s": 1}
_UNIT_WORDS = r"d|days?|h|hours?|hrs?|m|mins?|minutes?|s|secs?|seconds?"
_PART = re.compile(rf"(\d+(?:\.\d+)?)\s*({_UNIT_WORDS})", re.IGNORECASE)
_DURATION = re.compile(rf"(?:\d+(?:\.\d+)?\s*(?:{_UNIT_WORDS})\s*)+", re.IGNORECASE)
_DEFAULT_WORDS = ("default", "reset")


def parse_turn_time(text: str) -> int | None:
    """Seconds from ``"90"``, ``"90s"``, ``"30m"``, ``"2h"``, ``"1d"``, ``"1h30m"`` or ``"1.5h"``;
    None from ``"default"`` (back to the bot's default). The range is checked by
    :meth:`ServersService.update`."""
    value = text.strip().lower()
    if value in _DEFAULT_WORDS:
        return None
    if re.fullmatch(r"\d+", value):
        return int(value)
    if _DURATION.fullmatch(value):
        total = sum(float(n) * _UNITS[unit[0]] for n, unit in _PART.findall(value))
        return round(total)
    raise ServerSettingsError(
        f"{text.strip()[:40]!r} is not a turn time. Give seconds or a number with a unit, "
        "like 90, 30m, 2h, 1d or 1h30m (or 'default' for the bot's default). Nothing was changed."
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
        ``leaderboard_min_games`` (1 to :data:`MAX_LEADERBOARD_MIN_GAMES`, or None: the default, 1).

        Every value is checked first; on any problem :class:`ServerSettingsError` names them all
        and nothing is written. No changes: the current settings, nothing written."""
        if guild_id is None:
            raise ServerSettingsError("Settings belong to a server: use /settings in a server, not in direct messages.")
        checked = _validate(changes)
        if not checked:
            return await self.get(guild_id)
        self._generation[guild_id] = self._generation.get(guild_id, 0) + 1
        self._cache.pop(guild_id, None)
        await self._repo.upsert(guild_id, checked, updated_by=user_id)
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
        )


_SWITCH_WORDS = {"threads": "Threads", "reminders": "Reminders", "pictures": "Pictures"}


def _validate(changes: dict[str, object]) -> dict[str, int | bool | None]:
    """The changes, checked; every problem at once in one :class:`ServerSettingsError`."""
    problems: list[str] = []
    out: dict[str, int | bool | None] = {}
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


__all__ = [
    "DEFAULT_LEADERBOARD_MIN_GAMES",
    "MAX_LEADERBOARD_MIN_GAMES",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "SETTING_NAMES",
    "ServerSettings",
    "ServerSettingsError",
    "ServersService",
    "format_duration",
    "turn_time_problem",
    "parse_turn_time",
]
