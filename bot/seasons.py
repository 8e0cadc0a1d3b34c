"""Seasons (issue 36): per server, an admin starts one (``/season start [name] [length]``) or ends
it (``/season end``); at its planned end the timer ends it and starts the next, as often as it
comes round. Discord-free, like :mod:`bot.matches`; docs/ratings.md ("Seasons") is the calendar.

- A season covers every game of its server (or, if the admin names one, that game only): each
  game has a season ladder beside the all-time one, and a player's first match of the season
  starts their season rating from a soft reset of their all-time rating there
  (:func:`bot.rating_time.soft_reset`). All-time ratings go on as before.
- A match belongs to the season running on its server when it finished (by the finish sequence:
  :mod:`db.seasons`), whenever it is rated, so a rebuild gives the same season ratings.
- A season ends once, whichever process or command gets there first (a guarded write); the rollover
  that starts the next one is in the same transaction. A bot that was down past several planned
  ends catches up season by season, each new season starting where the last one was planned to end.
- Once ended, a season is archived: its matches still queued are rated, its ladders settle as of
  its end, and every player's final place, rating and league is written to ``season_results``,
  readable for ever (``/leaderboard season:``, ``/profile``). Then its end is posted once (a lease
  that another process takes over if the poster died: :meth:`SeasonService.to_announce`).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from db import Database, IntegrityError, Standing
from db.seasons import SeasonRecord, SeasonResult, SeasonsRepository

from .leagues import Band, league_of
from .rating_time import DAY, provisional
from .ratings import RatingService
from .servers import DEFAULT_SEASON_DAYS, MAX_SEASON_DAYS, ServersService
from .stats import page_count

log = logging.getLogger(__name__)

ANNOUNCE_LEASE = 300
"""Seconds a process has to post a season's end before another may take it over."""
TOP_PLAYERS = 3
"""Players per game named in a season's end post."""
ARCHIVE_PAGE = 500
MAX_NAME = 40
OPEN_ENDED = ("none", "open", "never", "0")


class SeasonError(ValueError):
    """A request the seasons refuse; the message is meant for the player or admin. Nothing changed."""


def parse_length(text: str | None, default_days: int) -> int | None:
    """Days from ``"90"``, ``"90d"``, ``"12w"``, ``"3 months"`` (a month: 365.25 / 12 days, so three
    are 91 days) or ``"1y"``; None from ``"none"`` (until ``/season end``); the server's default
    without a text."""
    if text is None or not text.strip():
        return default_days
    value = text.strip().lower()
    if value in OPEN_ENDED:
        return None
    found = re.fullmatch(r"(\d{1,4})\s*(d|days?|w|weeks?|m|months?|y|years?)?", value)
    if found is None:
        raise SeasonError(
            f"{text.strip()[:30]!r} is not a season's length: give days, weeks, months or years, like 90d, "
            "12w, 3 months or 1y (or 'none': until /season end). Nothing was changed."
        )
    n, unit = int(found[1]), (found[2] or "d")[0]
    days = {"d": n, "w": 7 * n, "m": round(n * 365.25 / 12), "y": round(n * 365.25)}[unit]
    if not 1 <= days <= MAX_SEASON_DAYS:
        raise SeasonError(f"A season lasts from 1 day to {MAX_SEASON_DAYS} days. Nothing was changed.")
    return days


@dataclass(frozen=True)
class BoardRow:
    place: int
    user_id: int
    display_name: str | None
    display: int
    games: int
    wins: int
    losses: int
    draws: int
    league: str | None
    provisional: bool = False


@dataclass(frozen=True)
class SeasonBoard:
    """A page of a season's leaderboard in one game: live while it runs, its archive once ended."""

    season: SeasonRecord
    game: str
    games: tuple[str, ...]  # the games the season has ladders in
    page: int
    pages: int
    total: int  # listed players
    hidden: int  # players not listed
    size: int
    rows: tuple[BoardRow, ...]


@dataclass(frozen=True)
class SeasonEnd:
    """What the end of a season tells its server: the top players of each game."""

    season: SeasonRecord
    top: dict[str, tuple[SeasonResult, ...]] = field(default_factory=dict)
    leagues: tuple[Band, ...] = ()
    results: tuple[SeasonResult, ...] = ()  # every player's (for the league roles)


@dataclass(frozen=True)
class PlayerSeasons:
    """A player's seasons on a server: the running one's standings (per game), and the results of
    the ended ones, newest first."""

    current: SeasonRecord | None
    standings: tuple[tuple[Standing, int | None, str | None], ...]  # (standing, place or None, league)
    past: tuple[SeasonResult, ...]
    leagues: tuple[tuple[str, str], ...] = ()  # (game, league) on the server's all-time ladders


class SeasonService:
    def __init__(self, db: Database, servers: ServersService, *, clock: Callable[[], float] | None = None) -> None:
        self.db = db
        self.servers = servers
        self.repo = SeasonsRepository(db)
        self.ratings = RatingService(db)
        self.clock: Callable[[], float] = clock if clock is not None else time.time

    def now(self) -> int:
        return int(self.clock())

    # -- reads -----------------------------------------------------------------------------
    async def current(self, guild_id: int) -> SeasonRecord | None:
        return await self.repo.running(guild_id)

    async def seasons(self, guild_id: int) -> list[SeasonRecord]:
        """The server's seasons, newest first."""
        return await self.repo.of_guild(guild_id)

    async def find(self, guild_id: int | None, name: str) -> SeasonRecord:
        """A season of the server by its name or number ("current": the running one)."""
        if guild_id is None:
            raise SeasonError("Seasons belong to a server: ask in a server, not in direct messages.")
        wanted = name.strip().casefold()
        seasons = await self.repo.of_guild(guild_id)
        for season in seasons:
            if wanted in (season.name.casefold(), str(season.number)) or (wanted == "current" and season.running):
                return season
        raise SeasonError(f"This server has no season called {name.strip()[:MAX_NAME]!r}. /season list shows them.")

    # -- an admin's commands ---------------------------------------------------------------
    async def start(
        self,
        guild_id: int | None,
        user_id: int,
        *,
        name: str | None = None,
        length: str | None = None,
        channel_id: int | None = None,
        game: str | None = None,
    ) -> SeasonRecord:
        """Start a season now (one at a time per server), of every game or of ``game`` only."""
        if guild_id is None:
            raise SeasonError("Seasons belong to a server: use /season in a server, not in direct messages.")
        settings = await self.servers.get(guild_id)
        days = parse_length(length, settings.season_days or DEFAULT_SEASON_DAYS)
        clean = None
        if name is not None and name.strip():
            clean = " ".join(name.split())
            if len(clean) > MAX_NAME or any(c in clean for c in "@#`*_~|<>"):
                raise SeasonError(
                    f"A season's name has up to {MAX_NAME} characters, without @ # ` * _ ~ | < >. Nothing was changed."
                )
            if clean.casefold() == "current" or clean.isdigit():
                raise SeasonError("A season's name cannot be 'current' or a number. Nothing was changed.")
        running = await self.repo.running(guild_id)
        if running is not None:
            raise SeasonError(f"{running.name} is running: end it with /season end first. Nothing was changed.")
        if clean is not None and any(s.name.casefold() == clean.casefold() for s in await self.repo.of_guild(guild_id)):
            raise SeasonError(f"This server already had a season called {clean!r}. Nothing was changed.")
        now = self.now()
        try:
            return await self.repo.start(
                guild_id,
                name=clean,
                started_at=now,
                ends_at=None if days is None else now + days * DAY,
                rollover=days is not None,
                by=user_id,
                channel_id=channel_id,
                game=game,
            )
        except IntegrityError:  # another admin's start won the race
            raise SeasonError("A season was started meanwhile. Nothing was changed.") from None

    async def end(self, guild_id: int | None, user_id: int) -> SeasonRecord:
        """End the running season now; no next one starts (an admin starts it when they wish)."""
        if guild_id is None:
            raise SeasonError("Seasons belong to a server: use /season in a server, not in direct messages.")
        running = await self.repo.running(guild_id)
        if running is None:
            raise SeasonError("No season is running on this server. /season start starts one.")
        done = await self.repo.end(running, at=self.now(), by=user_id)
        if done is None:
            raise SeasonError(f"{running.name} ended meanwhile.")
        await self.archive(done[0])
        return done[0]

    # -- the timer -------------------------------------------------------------------------
    async def tick(self, now: int | None = None) -> list[SeasonRecord]:
        """End the seasons whose planned end has come and start their next ones (a rollover),
        then archive every ended season not archived yet. Returns the seasons ended here."""
        now = self.now() if now is None else now
        ended: list[SeasonRecord] = []
        for _ in range(1000):  # a bot down for many seasons catches up one season at a time
            due = await self.repo.due(now)
            if not due:
                break
            for season in due:
                assert season.ends_at is not None
                length = season.ends_at - season.started_at
                done = await self.repo.end(
                    season, at=season.ends_at, by=0, roll=season.rollover, next_ends_at=season.ends_at + length
                )
                if done is not None:
                    ended.append(done[0])
                    log.info("season %s of server %s ended (rollover: %s)", season.name, season.guild_id, done[1])
        for season in await self.repo.unannounced():
            if not season.archived:
                await self.archive(season)
        return ended

    async def archive(self, season: SeasonRecord) -> None:
        """Write an ended season's final standings (idempotent; several processes may race)."""
        assert season.ended_at is not None
        for game in sorted({game for _, game in await self.ratings.repo.queued()}):
            await self.ratings.catch_up(game)  # its matches still waiting to be rated
        await self.repo.refreeze(season)  # (a standing rated just now settles as of the end too)
        settings = await self.servers.get(season.guild_id)
        rules = await self.ratings.list_rules(season.scope)  # the server's, frozen at the season's end
        results: list[SeasonResult] = []
        for game in await self.repo.games(season):
            await self.ratings.settle(season.scope, game, self.now(), rules)
            everyone: list[Standing] = []
            while True:
                chunk = await self.ratings.repo.leaderboard(
                    season.scope, game, offset=len(everyone), limit=ARCHIVE_PAGE, listed=False
                )
                everyone.extend(chunk)
                if len(chunk) < ARCHIVE_PAGE:
                    break
            listed = sum(s.listed for s in everyone)
            place = 0
            for s in everyone:
                place += s.listed
                at = place if s.listed else 0
                results.append(
                    SeasonResult(
                        season.id,
                        game,
                        s.user_id,
                        at,
                        s.display,
                        s.ordinal,
                        s.games,
                        s.wins,
                        s.losses,
                        s.draws,
                        league_of(settings.leagues, s.display, at or None, listed),
                    )
                )
        await self.repo.archive(season.id, results)

    async def to_announce(
        self, lease: int = ANNOUNCE_LEASE, *, serves: Callable[[int], bool] | None = None
    ) -> list[SeasonEnd]:
        """The ended seasons whose end this process now posts (each claimed for ``lease`` seconds;
        call :meth:`announced` after posting). ``serves``: whether this process can post in a
        server (a shard's process only in its own servers); others are left to their process."""
        ends = []
        for season in await self.repo.unannounced():
            if serves is not None and not serves(season.guild_id):
                continue
            if not season.archived:
                await self.archive(season)
            if not await self.repo.claim(season.id, self.now(), lease):
                continue
            fresh = await self.repo.get(season.id)
            assert fresh is not None
            ends.append(await self.end_of(fresh))
        return ends

    async def end_of(self, season: SeasonRecord) -> SeasonEnd:
        """An archived season's end: its top players per game, and everyone's results."""
        top: dict[str, tuple[SeasonResult, ...]] = {}
        everyone: list[SeasonResult] = []
        for game in await self.repo.games(season):
            top[game] = tuple(await self.repo.results(season.id, game, limit=TOP_PLAYERS))
            everyone.extend(await self.repo.of_season(season.id, game))
        leagues = (await self.servers.get(season.guild_id)).leagues
        return SeasonEnd(season, top, leagues, tuple(everyone))

    async def announced(self, season_id: int) -> None:
        await self.repo.announced(season_id)

    # -- boards and players ----------------------------------------------------------------
    async def board(self, season: SeasonRecord, game: str | None, page: int, *, size: int) -> SeasonBoard:
        """A page of the season's leaderboard in ``game`` (default: its most played)."""
        games = tuple(await self.repo.games(season))
        if game is None or game not in games:
            if game is not None and games:
                raise SeasonError(f"Nobody played that game in {season.name}.")
            game = games[0] if games else (game or "")
        if season.archived:
            listed, hidden = await self.repo.result_counts(season.id, game)
            pages = page_count(listed, size)
            page = min(max(page, 0), pages - 1)
            found = await self.repo.results(season.id, game, offset=page * size, limit=size)
            rows = tuple(
                BoardRow(r.place, r.user_id, r.display_name, r.display, r.games, r.wins, r.losses, r.draws, r.league)
                for r in found
            )
            return SeasonBoard(season, game, games, page, pages, listed, hidden, size, rows)
        settings = await self.servers.get(season.guild_id)
        await self.ratings.settle(season.scope, game, self.now())  # (the ladder's own rules)
        listed, hidden = await self.ratings.repo.counts(season.scope, game)
        pages = page_count(listed, size)
        page = min(max(page, 0), pages - 1)
        standings = await self.ratings.repo.leaderboard(season.scope, game, offset=page * size, limit=size)
        rows = tuple(
            BoardRow(
                page * size + i + 1,
                s.user_id,
                s.display_name,
                s.display,
                s.games,
                s.wins,
                s.losses,
                s.draws,
                league_of(settings.leagues, s.display, page * size + i + 1, listed),
                provisional(s.sigma),
            )
            for i, s in enumerate(standings)
        )
        return SeasonBoard(season, game, games, page, pages, listed, hidden, size, rows)

    async def player(self, user_id: int, guild_id: int | None, games: Sequence[str] = ()) -> PlayerSeasons:
        """The player's seasons on the server (:class:`PlayerSeasons`)."""
        if guild_id is None:
            return PlayerSeasons(None, (), ())
        current = await self.repo.running(guild_id)
        standings: list[tuple[Standing, int | None, str | None]] = []
        settings = await self.servers.get(guild_id)
        leagues = settings.leagues
        all_time: list[tuple[str, str]] = []
        for s in await self.ratings.repo.for_user(user_id, [guild_id]) if leagues else ():
            await self.ratings.settle(guild_id, s.game, self.now())
            mine = await self.ratings.repo.get(guild_id, s.game, user_id) or s
            place = await self.ratings.repo.position(mine, listed=True) if mine.listed else None
            listed, _ = await self.ratings.repo.counts(guild_id, s.game)
            name = league_of(leagues, mine.display, place, listed)
            if name is not None:
                all_time.append((s.game, name))
        if current is not None:
            for s in await self.ratings.repo.for_user(user_id, [current.scope]):
                await self.ratings.settle(current.scope, s.game, self.now())
                mine = await self.ratings.repo.get(current.scope, s.game, user_id) or s
                place = await self.ratings.repo.position(mine, listed=True) if mine.listed else None
                listed, _ = await self.ratings.repo.counts(current.scope, s.game)
                standings.append((mine, place, league_of(leagues, mine.display, place, listed)))
        past = tuple(await self.repo.of_player(user_id, guild_id))
        return PlayerSeasons(current, tuple(standings), past, tuple(all_time))


__all__ = [
    "ANNOUNCE_LEASE",
    "BoardRow",
    "PlayerSeasons",
    "SeasonBoard",
    "SeasonEnd",
    "SeasonError",
    "SeasonRecord",
    "SeasonResult",
    "SeasonService",
    "parse_length",
]
