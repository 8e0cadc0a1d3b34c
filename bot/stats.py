"""Read-only statistics: leaderboards, profiles and match history (replays: :mod:`bot.replays`).

Discord-free, like :mod:`bot.matches`: :class:`StatsService` reads the ratings and matches tables
and returns typed values (frozen dataclasses) that ``cogs/stats.py`` renders. It never writes.

The record types the stats commands render (:class:`Standing`, :class:`RatingChange`,
:class:`MatchRecord`, :class:`MatchStatus`, :data:`GLOBAL_SCOPE`) are re-exported here, so the
Discord layer imports nothing from :mod:`db`. Page sizes are the caller's (they are a matter of
presentation); the service clamps page numbers, so an old paging button still gets a page.

Also: a server's leaderboard may leave out players with fewer rated games than the server's
``leaderboard_min_games`` setting (the caller passes it: :meth:`StatsService.leaderboard`); a
profile carries each recent match's number of players and shared places (placements: "2nd of 4"),
the most frequent opponents with head-to-head results, one rating series per game, and each
ladder's :class:`Record` (two-player matches as wins-losses-draws, matches of three or more
players as placements, "=1st" when shared; derived from the stored rating changes: no schema
change, every rated match counts; the leaderboard's rows carry theirs too); and
:meth:`StatsService.newcomers` says which players start their first match of a game (the
first-match tip of ``cogs/help.py``).

Practice matches (with a computer player, never rated: migration 0010) have their own record on
a profile (:attr:`Profile.practice`: per game and computer level, results from the outcome's
placements as the ratings count them, abandoned ones apart); computer players (negative user
ids) are never opponents or newcomers, and :meth:`StatsService.history` lists practice matches
with ``MatchRecord.practice`` set so that the UI can mark them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.leagues import league_of
from bot.leagues import load as load_leagues
from bot.rating_time import ListRules
from bot.ratings import RatingService, placement
from bot.stats_record import Placed, Record, Streak, streak, table_streak_key
from db import GLOBAL_SCOPE, Database, MatchRecord, MatchStatus, RatingChange, RatingsRepository, Standing
from db.servers import ServersRepository
from db.stats import StatsRepository

RECENT_CHANGES = 50
"""How many of a player's latest global rating changes a profile reads (its streaks count these)."""
CHART_POINTS = 200
"""How many rating changes the profile's chart draws at most (the newest)."""
CHART_GAMES = 4
"""How many games' rating series a profile reads (the most played first)."""
OPPONENTS = 5
"""How many of a player's most frequent opponents a profile lists."""
LEVELS = ("easy", "normal", "hard")
"""The computer players' levels, weakest first (``seats.ai``)."""


class StatsError(ValueError):
    """A request the stats refuse; the message is meant for the player."""


def page_count(total: int, size: int) -> int:
    """How many pages of ``size`` rows ``total`` rows fill (at least one, possibly empty)."""
    return max(1, -(-total // size))


def _clamp(page: int, pages: int) -> int:
    return min(max(page, 0), pages - 1)


# ---------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a ladder (scope, game), best first."""

    scope: int
    game: str
    page: int  # 0-based, clamped to the pages there are
    pages: int
    total: int  # players listed (on the ladder with at least ``min_games`` games)
    size: int  # rows per page
    standings: tuple[Standing, ...]
    min_games: int = 1  # players with fewer rated games are not listed (the server's setting)
    hidden: int = 0  # players on the ladder not listed (fewer games than ``min_games``, or away)
    # user id -> record (two-player results, placements at tables) of the page's players
    records: Mapping[int, Record] = field(default_factory=dict)
    window_days: int | None = None  # players without a rated game in this many days are not listed
    leagues: Mapping[int, str] = field(default_factory=dict)  # user id -> league (the server's bands)

    def record(self, standing: Standing) -> Record:
        found = self.records.get(standing.user_id)
        return found if found is not None else Record(standing.wins, standing.losses, standing.draws)

    @property
    def first_position(self) -> int:
        """The ladder place of the first row on this page (1 = top)."""
        return self.page * self.size + 1

    def placed(self) -> Iterator[tuple[int, Standing]]:
        """(place on the ladder, standing) for each row of the page."""
        return enumerate(self.standings, start=self.first_position)


@dataclass(frozen=True)
class HistoryPage:
    """One page of a guild's finished matches, newest first."""

    guild_id: int
    game: str | None  # None: every game
    page: int  # 0-based, clamped to the pages there are
    pages: int
    total: int  # finished matches (of the game) in the guild
    size: int
    records: tuple[MatchRecord, ...]


@dataclass(frozen=True)
class PlayedGame:
    """A game rated on a scope, and how many players its ladder has."""

    game: str
    players: int


@dataclass(frozen=True)
class GameProfile:
    """A player's standings in one game: one per scope of the profile where they are rated
    (in the profile's scope order: the server's ladder, then the global one)."""

    game: str
    ladders: tuple[Placed, ...]
    streak: Streak | None  # over the profile's recent changes of this game
    # scope -> the player's record there (two-player results, placements at tables)
    records: Mapping[int, Record] = field(default_factory=dict)

    def record(self, standing: Standing) -> Record:
        """The record of ``standing`` (its stored wins, losses and draws when none was derived)."""
        found = self.records.get(standing.scope)
        return found if found is not None else Record(standing.wins, standing.losses, standing.draws)

    @property
    def widest_record(self) -> Record:
        return self.record(self.widest)

    @property
    def games(self) -> int:
        """The most games played on any of the ladders."""
        return max(p.standing.games for p in self.ladders)

    @property
    def widest(self) -> Standing:
        """The standing with the most games (the global one when the player is on it)."""
        return max((p.standing for p in self.ladders), key=lambda s: (s.games, s.scope == GLOBAL_SCOPE))


@dataclass(frozen=True)
class RatingSeries:
    """A rating over time on the global ladder of one game, oldest first: ``points[0]`` is the
    rating before the first match drawn, then one point (and one result) per match."""

    game: str
    points: tuple[int, ...]
    results: tuple[str, ...]

    @property
    def matches(self) -> int:
        """How many rated matches the series draws."""
        return len(self.results)


@dataclass(frozen=True)
class Opponent:
    """How a player fared against one opponent over their rated matches together (global ladder):
    ``ahead`` times placed better, ``level`` times tied (a draw, a shared place), of ``matches``."""

    user_id: int
    display_name: str | None
    matches: int
    ahead: int
    level: int

    @property
    def behind(self) -> int:
        return self.matches - self.ahead - self.level


@dataclass(frozen=True)
class PracticeRecord:
    """A player's practice matches (against the computer, unrated) of one game at one computer
    level (the highest at the table): ``played`` finished matches, two-player ones each a win,
    loss or draw, those at a table of three or more a placement (``places``, as in
    :class:`Record`: never a loss or a draw); ``abandoned`` matches are apart (not in ``played``)."""

    game: str
    level: str  # 'easy' | 'normal' | 'hard'
    wins: int = 0
    losses: int = 0
    draws: int = 0
    abandoned: int = 0
    places: Mapping[tuple[int, bool], int] = field(default_factory=dict)

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws + sum(self.places.values())

    @property
    def record(self) -> Record:
        return Record(self.wins, self.losses, self.draws, self.places)


@dataclass(frozen=True)
class Profile:
    """A player's ratings. Empty (``games == ()``) when the player has no rated match."""

    user_id: int
    scopes: tuple[int, ...]  # the guild's scope (when asked from a guild), then GLOBAL_SCOPE
    games: tuple[GameProfile, ...]  # most games first, then by slug
    recent: tuple[RatingChange, ...]  # the latest global changes, newest first (at most RECENT_CHANGES)
    streak: Streak | None  # over ``recent``
    chart: RatingSeries | None
    charts: tuple[RatingSeries, ...] = ()  # one per game (``chart``'s game first), at most CHART_GAMES
    # match id -> (rated players, players sharing this player's place), for ``recent``
    sizes: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    opponents: tuple[Opponent, ...] = ()  # the most frequent first, at most OPPONENTS
    # against the computer (unrated): most played game first, then by slug; easy, normal, hard
    practice: tuple[PracticeRecord, ...] = ()

    @property
    def rated(self) -> bool:
        return bool(self.games)

    def players_in(self, change: RatingChange) -> int:
        """How many players the change's match rated (2 when unknown)."""
        return self.sizes.get(change.match_id, (2, 1))[0]

    def shared_place(self, change: RatingChange) -> bool:
        """Whether another player finished in the same place as this player in that match."""
        return self.sizes.get(change.match_id, (2, 1))[1] > 1


# ---------------------------------------------------------------------------------------
# the service
# ---------------------------------------------------------------------------------------


class StatsService:
    """Reads for the stats commands. Only finished matches and stored ratings are shown."""

    def __init__(self, db: Database, *, clock: Callable[[], float] | None = None) -> None:
        self.db = db
        # the moment a read settles the ladders to: the match service's clock (default: the database's)
        self.clock: Callable[[], float] = clock if clock is not None else (lambda: db.clock())
        self._ratings = RatingsRepository(db)
        self._rater = RatingService(db)
        self._stats = StatsRepository(db)

    def now(self) -> int:
        return int(self.clock())

    async def settled(self, scope: int, game: str) -> ListRules:
        """Settle the ladder (its standings due by now: :meth:`RatingService.settle`) and return who
        it lists. Every read of a ladder's order goes through here first."""
        rules = await self._rater.list_rules(scope)
        await self._rater.settle(scope, game, self.now(), rules)
        return rules

    # -- ladders ---------------------------------------------------------------------------
    async def leaderboard(self, game: str, scope: int, page: int, *, size: int) -> LeaderboardPage:
        """Page ``page`` (0-based, clamped) of the ladder of ``game`` on ``scope``: its listed
        players (the server's minimum of rated games and, if it set one, its window), settled to now."""
        rules = await self.settled(scope, game)
        total, hidden = await self._ratings.counts(scope, game)
        pages = page_count(total, size)
        page = _clamp(page, pages)
        rows = await self._ratings.leaderboard(scope, game, offset=page * size, limit=size)
        records = await self.records(scope, game, [r.user_id for r in rows])
        bands = load_leagues((await ServersRepository(self.db).leagues(scope)) if scope > 0 else None)
        leagues = {
            r.user_id: name
            for at, r in enumerate(rows, start=page * size + 1)
            if (name := league_of(bands, r.display, at, total)) is not None
        }
        return LeaderboardPage(
            scope,
            game,
            page,
            pages,
            total,
            size,
            tuple(rows),
            rules.min_games,
            hidden,
            records,
            rules.window_days,
            leagues,
        )

    async def records(self, scope: int, game: str, user_ids: Sequence[int]) -> dict[int, Record]:
        """The records (:class:`Record`) of ``user_ids`` in ``game`` on ``scope``, from the stored
        rating changes: one query, grouped by players at the table, place, shared place, result."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        tally: dict[int, dict[str, Any]] = {}
        for row in await self._stats.record_tallies(scope, game, wanted):
            mine = tally.setdefault(row.user_id, {"win": 0, "loss": 0, "draw": 0, "places": {}})
            if row.players <= 2:
                mine[row.result] += row.matches
            else:
                key = (row.rank, row.same > 1)
                mine["places"][key] = mine["places"].get(key, 0) + row.matches
        return {uid: Record(t["win"], t["loss"], t["draw"], dict(t["places"])) for uid, t in tally.items()}

    async def games_played(self, scope: int) -> list[PlayedGame]:
        """The games rated on ``scope``, most played first."""
        return [PlayedGame(game, players) for game, players in await self._ratings.games(scope)]

    # -- players ---------------------------------------------------------------------------
    async def newcomers(self, game: str, user_ids: Sequence[int], match_id: int | None = None) -> set[int]:
        """The users among ``user_ids`` who never started a match of ``game`` (finished, live or
        abandoned, practice matches included; challenges that never started do not count) other
        than ``match_id``: the players of ``match_id`` for whom it is their first match of the
        game. A computer player (negative id) is never a newcomer."""
        wanted = sorted({uid for uid in user_ids if uid > 0})
        if not wanted:
            return set()
        return set(wanted) - await self._stats.started_a_match(game, wanted, other_than=match_id)

    async def profile(
        self,
        user_id: int,
        guild_id: int | None,
        *,
        chart_game: str | None = None,
        max_games: int | None = None,
        chart_games: int = CHART_GAMES,
    ) -> Profile:
        """The player's standings on the guild's and the global ladders, the latest global
        changes (with each match's number of players), the most frequent opponents, and the
        global rating series of up to ``chart_games`` games: ``chart_game`` first when the player
        has played it, then the most played (``chart`` is the first). ``max_games`` keeps only the
        most played games."""
        scopes = (guild_id, GLOBAL_SCOPE) if guild_id else (GLOBAL_SCOPE,)
        standings = await self._ratings.for_user(user_id, scopes)
        practice = await self.practice(user_id)
        if not standings:
            return Profile(user_id, scopes, (), (), None, None, practice=practice)
        by_game: dict[str, dict[int, Standing]] = {}
        for s in standings:
            by_game.setdefault(s.game, {})[s.scope] = s
        recent = await self._ratings.changes_for_user(user_id, scope=GLOBAL_SCOPE, limit=RECENT_CHANGES)
        sizes = await self._sizes(user_id, [c.match_id for c in recent])

        def key(c: RatingChange) -> str:  # a table's placement is never a loss or a draw
            n, same = sizes.get(c.match_id, (2, 1))
            return c.result if n <= 2 else table_streak_key(c.rank, same > 1)

        order = sorted(by_game, key=lambda g: (-max(x.games for x in by_game[g].values()), g))
        games = []
        for game in order if max_games is None else order[:max_games]:
            ladders = []
            records: dict[int, Record] = {}
            for scope in scopes:
                mine = by_game[game].get(scope)
                if mine is not None:
                    await self.settled(scope, game)
                    mine = await self._ratings.get(scope, game, user_id) or mine
                    if mine.listed:
                        shown, _ = await self._ratings.counts(scope, game)
                        ladders.append(Placed(mine, await self._ratings.position(mine, listed=True), shown))
                    else:
                        players = await self._ratings.count(scope, game)
                        ladders.append(Placed(mine, await self._ratings.position(mine), players, listed=False))
                    found = (await self.records(scope, game, [user_id])).get(user_id)
                    if found is not None:
                        records[scope] = found
            run = streak([key(c) for c in recent if c.game == game])
            games.append(GameProfile(game, tuple(ladders), run, records))
        first = chart_game if chart_game in by_game else order[0]
        drawn = [first, *(g for g in order if g != first)][: max(chart_games, 1)]
        charts = [c for c in [await self._series(user_id, game) for game in drawn] if c is not None]
        chart = charts[0] if charts and charts[0].game == first else None
        return Profile(
            user_id,
            scopes,
            tuple(games),
            tuple(recent),
            streak([key(c) for c in recent]),
            chart,
            tuple(charts),
            sizes,
            await self.opponents(user_id),
            practice,
        )

    async def practice(self, user_id: int) -> tuple[PracticeRecord, ...]:
        """The player's record against the computer, per game and computer level (the highest at
        the table): finished practice matches by result, abandoned ones apart. One query (the
        player's seats, ``seats_by_user``, then each match by its key)."""
        tally: dict[tuple[str, int], dict[str, int]] = {}
        places: dict[tuple[str, int], dict[tuple[int, bool], int]] = {}
        for row in await self._stats.practice_matches(user_id):
            if row.level is None:  # (a practice match has a computer seat)
                continue
            counts = tally.setdefault((row.game, row.level), {"win": 0, "loss": 0, "draw": 0, "abandoned": 0})
            if row.status == "abandoned":
                counts["abandoned"] += 1
                continue
            n = row.seats
            place = placement(_outcome(row.outcome), n)
            seat = row.seat
            if place is None or seat >= len(place.results):
                continue
            if n <= 2:
                counts[place.results[seat]] += 1
            else:
                rank = place.ranks[seat]
                key = (rank, place.ranks.count(rank) > 1)
                tables = places.setdefault((row.game, row.level), {})
                tables[key] = tables.get(key, 0) + 1
        played: dict[str, int] = {}
        for (game, level), counts in tally.items():
            at_tables = sum(places.get((game, level), {}).values())
            played[game] = played.get(game, 0) + counts["win"] + counts["loss"] + counts["draw"] + at_tables
        return tuple(
            PracticeRecord(
                game, LEVELS[level], c["win"], c["loss"], c["draw"], c["abandoned"], places.get((game, level), {})
            )
            for (game, level), c in sorted(tally.items(), key=lambda kv: (-played[kv[0][0]], kv[0][0], kv[0][1]))
        )

    async def _series(self, user_id: int, game: str) -> RatingSeries | None:
        """The player's global rating in ``game`` over (at most) the last CHART_POINTS matches."""
        changes = await self._ratings.changes_for_user(user_id, scope=GLOBAL_SCOPE, game=game, limit=CHART_POINTS)
        if not changes:
            return None
        series = list(reversed(changes))
        points = (series[0].display_before, *(c.display_after for c in series))
        return RatingSeries(game, points, tuple(c.result for c in series))

    async def _sizes(self, user_id: int, match_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """Match id -> (players the match rated, players who shared the user's place, the user
        included), on the global ladder."""
        return await self._stats.match_sizes(user_id, GLOBAL_SCOPE, match_ids)

    async def opponents(self, user_id: int, *, limit: int = OPPONENTS) -> tuple[Opponent, ...]:
        """The player's most frequent opponents in rated matches (global ladder, every game), with
        how often the player placed ahead of, level with or behind each; most matches first."""
        rows = await self._stats.opponents(user_id, GLOBAL_SCOPE, limit=limit)
        return tuple(Opponent(r.user_id, r.display_name, r.matches, r.ahead, r.level) for r in rows)

    # -- matches ---------------------------------------------------------------------------
    async def history(self, guild_id: int, game: str | None, page: int, *, size: int) -> HistoryPage:
        """Page ``page`` (0-based, clamped) of the guild's finished matches (of one game, or all),
        practice matches included (``MatchRecord.practice``: unrated, against the computer)."""
        records, total = await self._ratings.finished_in_guild(
            guild_id, game=game, offset=max(page, 0) * size, limit=size
        )
        pages = page_count(total, size)
        if page >= pages:  # fewer matches than when the page was asked for
            page = pages - 1
            records, total = await self._ratings.finished_in_guild(guild_id, game=game, offset=page * size, limit=size)
        return HistoryPage(guild_id, game, max(page, 0), pages, total, size, tuple(records))


def _outcome(text: str | None) -> dict[str, Any] | None:
    """A stored outcome (JSON), or None when missing or unreadable."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


__all__ = [
    "CHART_GAMES",
    "CHART_POINTS",
    "LEVELS",
    "OPPONENTS",
    "Opponent",
    "GLOBAL_SCOPE",
    "RECENT_CHANGES",
    "GameProfile",
    "HistoryPage",
    "LeaderboardPage",
    "MatchRecord",
    "MatchStatus",
    "Placed",
    "PlayedGame",
    "PracticeRecord",
    "Profile",
    "RatingChange",
    "RatingSeries",
    "Record",
    "Standing",
    "StatsError",
    "StatsService",
    "Streak",
    "page_count",
    "streak",
    "table_streak_key",
]
