"""The tournament service's read side and outbox: the events the presentation delivers, the
tournament message's id, a server's history and a player's tournament results.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from db.tournaments import TournamentRecord, TournamentStatus

from .errors import BadSettings, BadSnapshot
from .events import TournamentEvent
from .model import PlayerId
from .service_core import OPEN, ServiceCore, TournamentView, log
from .standings import Standing
from .tournament import Tournament

#: Finished tournaments whose results :meth:`Outbox.player_results` keeps in memory.
FINAL_CACHE_SIZE = 256


class Outbox:
    """Events and reads for the presentation."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        #: finished tournaments' results by id, least recently used first
        self._finals: OrderedDict[int, FinalResults] = OrderedDict()

    async def events(self, tournament_id: int, *, pending_only: bool = False) -> list[TournamentEvent]:
        """The tournament's events, oldest first (``pending_only``: not yet marked delivered),
        each with its payload typed (:class:`~bot.tournaments.events.TournamentEvent`)."""
        return [
            TournamentEvent.of(row) for row in await self.core.repo.events(tournament_id, pending_only=pending_only)
        ]

    async def mark_delivered(self, event_ids: Sequence[int]) -> None:
        await self.core.repo.mark_delivered(event_ids)

    async def with_pending_events(self) -> list[int]:
        """The tournaments that have events not yet delivered, the one with the oldest pending
        event first (one query returning one row per tournament, not the events)."""
        return await self.core.repo.with_pending_events()

    async def open_tournaments(self) -> list[int]:
        """The tournaments in sign-up, running or paused, by id."""
        return await self.core.repo.ids_with_status(*OPEN)

    async def set_message_id(self, tournament_id: int, message_id: int | None) -> TournamentRecord:
        """Remember the tournament's message in its channel (the presentation edits it)."""
        core = self.core
        async with core.lock(tournament_id):
            held = await core.hold(tournament_id)
            return await core.write(held, core.now(), [], message_id=message_id)

    async def history(self, guild_id: int, limit: int = 10, offset: int = 0) -> list[TournamentView]:
        """A page of the server's past tournaments (finished or cancelled), newest first: ``limit``
        of them after skipping ``offset``."""
        _check_page(limit, offset)
        core = self.core
        return [await core.view(tid, links=False) for tid in await core.repo.past(guild_id, limit, offset)]

    async def history_count(self, guild_id: int) -> int:
        """How many past tournaments (finished or cancelled) the server has: the pages of :meth:`history`."""
        return await self.core.repo.past_count(guild_id)

    async def player_results(
        self, user_id: int, guild_id: int | None = None, limit: int = 10
    ) -> list[TournamentResult]:
        """The player's results in finished tournaments they entered (also those they dropped
        out of), newest first; ``guild_id`` None: every server's."""
        _check_page(limit, 0)
        out = []
        for tid in await self.core.repo.finished_entered(user_id, guild_id, limit):
            rec = await self.core.record(tid)
            out.append(TournamentResult.of(rec, user_id, self._final(rec)))
        return out

    def _final(self, rec: TournamentRecord) -> FinalResults:
        """A finished tournament's results, kept for the next profile (a finished tournament never
        changes; the least recently used are forgotten past :data:`FINAL_CACHE_SIZE`)."""
        found = self._finals.get(rec.id)
        if found is None:
            found = FinalResults.of(rec)
            if rec.status is TournamentStatus.FINISHED:
                self._finals[rec.id] = found
                while len(self._finals) > FINAL_CACHE_SIZE:
                    self._finals.popitem(last=False)
        else:
            self._finals.move_to_end(rec.id)
        return found

    async def player_result_count(self, user_id: int, guild_id: int | None = None) -> int:
        """How many finished tournaments the player entered (``guild_id`` None: every server's)."""
        return await self.core.repo.finished_entered_count(user_id, guild_id)


def _check_page(limit: int, offset: int) -> None:
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise BadSettings(f"A page holds 0 or more tournaments, not {limit!r}.")
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise BadSettings(f"A page starts at 0 or later, not {offset!r}.")


@dataclass(frozen=True)
class TournamentResult:
    """A player's result in one finished tournament (for /profile). ``place``: the final rank (1 =
    champion; shared places as the ranking shares them; None only when the stored tournament
    cannot tell). ``match_points``: the standings' points, to the nearest whole point (Magic Duel
    tables score thirds and quarters). ``wins``/``losses``/``draws``: matches played (byes and
    walkovers are not counted, as in the standings' record)."""

    tournament_id: int
    guild_id: int | None
    game: str
    format: str
    finished_at: int | None
    place: int | None
    entrants: int
    match_points: int
    wins: int
    losses: int
    draws: int
    dropped: bool
    champion: bool

    @classmethod
    def of(cls, rec: TournamentRecord, user_id: int, final: FinalResults | None = None) -> TournamentResult:
        """The player's result in the stored tournament (``final``: its results, if already read)."""
        final = final if final is not None else FinalResults.of(rec)
        row = final.rows.get(user_id)
        return cls(
            tournament_id=rec.id,
            guild_id=rec.guild_id,
            game=rec.game,
            format=rec.format,
            finished_at=rec.finished_at,
            place=final.places.get(user_id),
            entrants=final.entrants,
            match_points=math.floor(row.match_points + Fraction(1, 2)) if row is not None else 0,
            wins=row.wins if row is not None else 0,
            losses=row.losses if row is not None else 0,
            draws=row.draws if row is not None else 0,
            dropped=user_id in final.dropped,
            champion=final.champion is not None and final.champion == user_id,
        )


@dataclass(frozen=True)
class FinalResults:
    """Everyone's result in a finished tournament, read once from its stored core state (the
    standings computed once: they are the costly part, tens of ms for a large field)."""

    places: dict[PlayerId, int]
    rows: dict[PlayerId, Standing]
    champion: PlayerId | None
    dropped: frozenset[PlayerId]
    entrants: int

    @classmethod
    def of(cls, rec: TournamentRecord) -> FinalResults:
        t = _core(rec)
        if t is None:
            return cls({}, {}, None, frozenset(), len(rec.entrants))
        standings = t.standings()
        ranking = t.ranking(standings)
        return cls(
            places={pid: place for place, pid in ranking},
            rows={row.player: row for row in standings.rows},
            champion=ranking[0][1] if t.finished and ranking else None,
            dropped=frozenset(p.id for p in t.players if p.dropped),
            entrants=len(t.players),
        )


def _core(rec: TournamentRecord) -> Tournament | None:
    if rec.state is None:
        return None
    try:
        return Tournament.from_json(rec.state)
    except BadSnapshot:
        log.warning("Tournament %s: its stored state cannot be read", rec.id)
        return None


__all__ = ["FINAL_CACHE_SIZE", "FinalResults", "Outbox", "TournamentResult"]
