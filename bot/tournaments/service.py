"""The tournament service: a tournament from sign-up to champion, its matches played through the
match service. Discord-free; the ``/tournament`` commands and the tournament message build on it.

- State: everything is in the database (migration 0012, :mod:`db.tournaments`): the tournament row
  with the core's JSON snapshot (:class:`~bot.tournaments.tournament.Tournament`), its entrants, the
  link match -> (tournament, round, pairing) and an outbox of events. Nothing lives only in memory:
  after a restart :meth:`TournamentService.recover` (and every :meth:`tick`) reconciles each running
  tournament with its matches, so a result a crash left unrecorded is recorded and a round whose
  matches were not all made gets them.
- Matches are ordinary rated matches (:meth:`MatchService.arrange` / :meth:`start_arranged`: no
  challenge to accept), seat 0 as the core's pairing says. The match service tells this service
  that a match ended through its end observer (:meth:`MatchService.add_end_observer`), after the
  commit; the result goes into the core, and when every match of the round has ended the next
  round starts (or the tournament finishes).
- Every change is one guarded write (the row's ``version``), with its events, under a lock per
  tournament in this process.

Rulings (docs/tournaments.md, "The service"): a forfeit by time is a loss and a missed match; an
abandoned match (nobody moved) is a loss by time for all its players; at the round deadline each
unfinished match is adjudicated: the seats the game is waiting on forfeit by time (the others are
not at fault), and if that does not end the game it is abandoned (not rated) with the players not
at fault sharing first place and those at fault last; a knock-out game drawn is replayed.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.matches import MatchService, PlayerRef
from bot.ratings import DISPLAY_BASE, placement
from db import GLOBAL_SCOPE, Batch, Database, MatchRecord, MatchStatus, RatingsRepository, StaleWrite
from db.tournaments import (
    TournamentMatchRecord,
    TournamentRecord,
    TournamentsRepository,
    TournamentStatus,
)
from rules.core import Outcome
from rules.registry import get_game

from .errors import (
    BadPlayers,
    BadResult,
    BadRounds,
    BadSettings,
    NotOrganizer,
    SignupClosed,
    TournamentError,
    TournamentNotFound,
    WrongState,
)
from .model import Format, Match, Player, Result, ResultKind, game_profile
from .tournament import DEFAULT_MISS_LIMIT, Tournament, max_swiss_rounds

log = logging.getLogger("bot.tournaments")

#: The most players a tournament takes (the core pairs 256 in well under a second).
MAX_PLAYERS = 256
#: Games a two-player knock-out pairing plays while they are drawn; then the better seed goes through.
MAX_KNOCKOUT_GAMES = 3
MIN_TURN_SECONDS = 10
MAX_TURN_SECONDS = 7 * 24 * 3600

OVER = (MatchStatus.FINISHED, MatchStatus.ABANDONED)
DEAD = (MatchStatus.EXPIRED, MatchStatus.CANCELLED, MatchStatus.DECLINED)
OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING, TournamentStatus.PAUSED)

#: Event kinds (the ``tournament_events`` outbox): what the tournament message shows.
EVENT_KINDS = (
    "created",
    "signup_changed",
    "started",
    "round_started",
    "match_result",
    "standings_changed",
    "player_dropped",
    "round_deadline",
    "paused",
    "resumed",
    "cancelled",
    "finished",
)


@dataclass(frozen=True)
class TournamentView:
    """A tournament as stored: its row, the core (once started) and its matches."""

    record: TournamentRecord
    tournament: Tournament | None
    links: tuple[TournamentMatchRecord, ...]

    @property
    def status(self) -> TournamentStatus:
        return self.record.status

    def current_links(self) -> dict[str, TournamentMatchRecord]:
        """The latest match of each pairing of the current round."""
        t = self.tournament
        if t is None or t.current_round is None:
            return {}
        number = t.current_round.number
        return {link.pairing: link for link in self.links if link.round == number}


class TournamentService:
    def __init__(
        self,
        db: Database,
        matches: MatchService,
        *,
        clock: Callable[[], float] | None = None,
        seed_factory: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.repo = TournamentsRepository(db)
        self.matches = matches
        self._clock = clock
        self.seed_factory = seed_factory or (lambda: secrets.randbits(31))
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        matches.add_end_observer(self.match_ended)

    def close(self) -> None:
        """Stop listening to the match service (before it or the database closes)."""
        self.matches.remove_end_observer(self.match_ended)

    def now(self) -> int:
        return int(self._clock() if self._clock is not None else self.matches.ctx.clock())

    # -----------------------------------------------------------------------------------------
    # reads
    # -----------------------------------------------------------------------------------------

    async def record(self, tournament_id: int) -> TournamentRecord:
        found = await self.repo.get(tournament_id)
        if found is None:
            raise TournamentNotFound(f"There is no tournament #{tournament_id}.")
        return found

    async def view(self, tournament_id: int) -> TournamentView:
        rec = await self.record(tournament_id)
        t = Tournament.from_json(rec.state) if rec.state is not None else None
        return TournamentView(rec, t, tuple(await self.repo.links(tournament_id)))

    async def events(self, tournament_id: int, *, pending_only: bool = False) -> list[Any]:
        """The tournament's events, oldest first (``pending_only``: not yet marked delivered)."""
        return list(await self.repo.events(tournament_id, pending_only=pending_only))

    async def mark_delivered(self, event_ids: Sequence[int]) -> None:
        await self.repo.mark_delivered(event_ids)

    async def with_pending_events(self) -> list[int]:
        """The tournaments that have events not yet delivered, oldest event first."""
        seen: dict[int, None] = {}
        for event in await self.repo.pending_events():
            seen.setdefault(int(event.tournament_id), None)
        return list(seen)

    async def set_message_id(self, tournament_id: int, message_id: int | None) -> TournamentRecord:
        """Remember the tournament's message in its channel (the presentation edits it)."""
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            return await self._write(rec, self.now(), [], message_id=message_id)

    async def history(self, guild_id: int, limit: int = 10) -> list[TournamentView]:
        """The server's past tournaments (finished or cancelled), newest first."""
        rows = await self.db.fetchall(
            "SELECT id FROM tournaments WHERE guild_id = ? AND status IN (?, ?)"
            " ORDER BY COALESCE(finished_at, updated_at) DESC, id DESC LIMIT ?",
            (guild_id, TournamentStatus.FINISHED.value, TournamentStatus.CANCELLED.value, int(limit)),
        )
        return [await self.view(int(r[0])) for r in rows]

    # -----------------------------------------------------------------------------------------
    # sign-up
    # -----------------------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int | None,
        channel_id: int | None,
        organizer_id: int,
        game: str,
        format: str | Format,
        *,
        rounds: int | None = None,
        options: Mapping[str, Any] | None = None,
        turn_time: int | None = None,
        max_players: int | None = None,
        start_at: int | None = None,
        third_place: bool = False,
        miss_limit: int | None = DEFAULT_MISS_LIMIT,
        round_seconds: int | None = None,
    ) -> TournamentRecord:
        """A tournament in sign-up. Every argument is validated first (a TournamentError with a
        readable message, nothing written): the game and format, the rounds (Swiss only: 1 or more,
        within what ``max_players`` allows; the other formats set their own), the game options,
        the turn time, the player cap (2 to 256), the round deadline and the misses before a drop
        (None: never dropped for missing matches)."""
        profile = game_profile(game)
        fmt = Format.parse(format)
        if rounds is not None:
            if fmt is not Format.SWISS:
                raise BadRounds(
                    f"A {fmt.value.replace('_', ' ')} sets its own number of rounds from the players; leave rounds out."
                )
            if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
                raise BadRounds(f"A Swiss tournament plays 1 round or more, not {rounds!r}.")
            if max_players is not None and isinstance(max_players, int) and max_players >= 2:
                most = max_swiss_rounds(max_players, tables_=profile.tables)
                if rounds > most:
                    raise BadRounds(
                        f"Swiss with at most {max_players} players allows 1 to {most} rounds, not {rounds}."
                    )
        if max_players is not None and (
            not isinstance(max_players, int) or isinstance(max_players, bool) or not 2 <= max_players <= MAX_PLAYERS
        ):
            raise BadSettings(f"Max players must be 2 to {MAX_PLAYERS}, not {max_players!r}.")
        if turn_time is not None and (
            not isinstance(turn_time, int) or not MIN_TURN_SECONDS <= turn_time <= MAX_TURN_SECONDS
        ):
            raise BadSettings(f"The turn time must be {MIN_TURN_SECONDS} s to 7 days, not {turn_time!r}.")
        if round_seconds is not None and (not isinstance(round_seconds, int) or round_seconds < 60):
            raise BadSettings(f"A round deadline must be at least 60 seconds, not {round_seconds!r}.")
        if miss_limit is not None and (not isinstance(miss_limit, int) or miss_limit < 1):
            raise BadSettings(f"Missed matches before a drop must be at least 1 (or none), not {miss_limit!r}.")
        if start_at is not None and not isinstance(start_at, int):
            raise BadSettings(f"The start time is a unix time in seconds, not {start_at!r}.")
        # third place and the like: the core's own checks, on two stand-in players
        Tournament.create(game, fmt, [1, 2], third_place=third_place, miss_limit=miss_limit or DEFAULT_MISS_LIMIT)
        game_options = self._game_options(game, options)
        seed = int(self.seed_factory())
        settings = {"rounds": rounds, "third_place": bool(third_place), "miss_limit": miss_limit, "seed": seed}
        now = self.now()
        rec = await self.repo.create(
            guild_id=guild_id,
            channel_id=channel_id,
            organizer_id=organizer_id,
            game=game,
            format=fmt.value,
            options=game_options,
            settings=settings,
            turn_time_seconds=turn_time,
            max_players=max_players,
            start_at=start_at,
            round_seconds=round_seconds,
            at=now,
        )
        await self._write(rec, now, [("created", self._summary(rec))])
        return await self.record(rec.id)

    @staticmethod
    def _game_options(game: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
        game_cls = get_game(game)
        try:
            made = game_cls(dict(options or {}), num_seats=max(2, int(game_cls.min_seats)))
        except (ValueError, TypeError) as exc:
            raise BadSettings(f"Those {game_cls.name} options are not valid: {exc}") from exc
        dumped: dict[str, Any] = made.options.model_dump(mode="json")
        return dumped

    async def join(self, tournament_id: int, player: PlayerRef) -> TournamentRecord:
        """Enter during the sign-up (refused: after it, twice, or when full)."""
        user_id, name = int(player[0]), (player[1] or "").strip() or f"Player {player[0]}"
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            if rec.status is not TournamentStatus.SIGNUP:
                raise SignupClosed(f"Tournament #{tournament_id} {self._closed(rec)}: the sign-up is closed.")
            if rec.entrant(user_id) is not None:
                raise BadPlayers(f"You have already joined tournament #{tournament_id}.")
            if rec.max_players is not None and len(rec.entrants) >= rec.max_players:
                raise SignupClosed(f"Tournament #{tournament_id} is full ({rec.max_players} players).")
            now = self.now()
            batch = TournamentsRepository.add_entrant(Batch(), rec.id, user_id, name, now)
            rec = await self._write(rec, now, [], batch=batch, after=lambda r: [("signup_changed", self._signup(r))])
            return rec

    async def leave(self, tournament_id: int, user_id: int) -> TournamentRecord:
        """Leave during the sign-up (after the start: :meth:`drop`)."""
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            if rec.status is not TournamentStatus.SIGNUP:
                raise SignupClosed(f"Tournament #{tournament_id} {self._closed(rec)}: drop out instead of leaving.")
            if rec.entrant(user_id) is None:
                raise BadPlayers(f"You have not joined tournament #{tournament_id}.")
            now = self.now()
            batch = TournamentsRepository.remove_entrant(Batch(), rec.id, user_id)
            return await self._write(rec, now, [], batch=batch, after=lambda r: [("signup_changed", self._signup(r))])

    # -----------------------------------------------------------------------------------------
    # the organizer's controls
    # -----------------------------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int | None, *, is_manager: bool = False) -> TournamentView:
        """Close the sign-up and start round 1 (the organizer or a manager; ``user_id`` None: the
        bot itself, at the planned start). Refused with nothing changed: not allowed, not in
        sign-up, fewer than 2 players, a round count the players cannot play."""
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            self._require_organizer(rec, user_id, is_manager, "start")
            if rec.status is not TournamentStatus.SIGNUP:
                raise WrongState(f"Tournament #{tournament_id} {self._closed(rec)}.")
            players = await self._players(rec)
            settings = rec.settings
            miss = settings.get("miss_limit")
            t = Tournament.create(
                rec.game,
                rec.format,
                players,
                rounds=settings.get("rounds"),
                seed=int(settings.get("seed", 0)),
                third_place=bool(settings.get("third_place", False)),
                miss_limit=int(miss) if miss else DEFAULT_MISS_LIMIT,
            )
            now = self.now()
            payload = {"players": [p.id for p in t.players], "rounds": t.rounds_planned, "format": t.format.value}
            await self._write(
                rec, now, [("started", payload)], status=TournamentStatus.RUNNING, state=t.to_json(), start_at=None
            )
            await self._reconcile(tournament_id)
        return await self.view(tournament_id)

    async def cancel(self, tournament_id: int, user_id: int, *, is_manager: bool = False) -> TournamentRecord:
        """Stop the tournament for good. Its matches still being played go on as ordinary rated
        matches; their results no longer count for the tournament."""
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            self._require_organizer(rec, user_id, is_manager, "cancel")
            if rec.status not in OPEN:
                raise WrongState(f"Tournament #{tournament_id} {self._closed(rec)}.")
            now = self.now()
            return await self._write(
                rec,
                now,
                [("cancelled", {"by": user_id})],
                status=TournamentStatus.CANCELLED,
                finished_at=now,
                round_deadline_at=None,
            )

    async def pause(self, tournament_id: int, user_id: int, *, is_manager: bool = False) -> TournamentRecord:
        """Hold the next round: the matches being played finish and count, but no round starts and
        the round deadline does not fire until :meth:`resume`."""
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            self._require_organizer(rec, user_id, is_manager, "pause")
            if rec.status is not TournamentStatus.RUNNING:
                raise WrongState(f"Tournament #{tournament_id} is not running, so it cannot be paused.")
            return await self._write(rec, self.now(), [("paused", {"by": user_id})], status=TournamentStatus.PAUSED)

    async def resume(self, tournament_id: int, user_id: int, *, is_manager: bool = False) -> TournamentView:
        """Go on after a pause: a round deadline starts again from now (the whole round time)."""
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            self._require_organizer(rec, user_id, is_manager, "resume")
            if rec.status is not TournamentStatus.PAUSED:
                raise WrongState(f"Tournament #{tournament_id} is not paused.")
            now = self.now()
            deadline = now + rec.round_seconds if rec.round_seconds and rec.round_deadline_at else None
            await self._write(
                rec, now, [("resumed", {"by": user_id})], status=TournamentStatus.RUNNING, round_deadline_at=deadline
            )
            await self._reconcile(tournament_id)
        return await self.view(tournament_id)

    async def set_round_deadline(
        self, tournament_id: int, user_id: int, seconds: int | None, *, is_manager: bool = False
    ) -> TournamentRecord:
        """Set (None: remove) the round time: each round's unfinished matches are adjudicated
        ``seconds`` after it starts. A round in progress gets its deadline from now."""
        if seconds is not None and (not isinstance(seconds, int) or seconds < 60):
            raise BadSettings(f"A round deadline must be at least 60 seconds, not {seconds!r}.")
        async with self._lock(tournament_id):
            rec = await self.record(tournament_id)
            self._require_organizer(rec, user_id, is_manager, "set the round deadline of")
            if rec.status not in OPEN:
                raise WrongState(f"Tournament #{tournament_id} {self._closed(rec)}.")
            now = self.now()
            live = rec.status is not TournamentStatus.SIGNUP
            deadline = now + seconds if seconds is not None and live else None
            return await self._write(
                rec,
                now,
                [("round_deadline", {"seconds": seconds, "at": deadline})],
                round_seconds=seconds,
                round_deadline_at=deadline,
            )

    async def drop(
        self, tournament_id: int, user_id: int, player_id: int, *, is_manager: bool = False
    ) -> TournamentView:
        """Drop a player (themself, or anyone: the organizer or a manager). Never paired again; a
        two-player match of theirs being played is forfeited (a loss, the opponent wins as in any
        match); a table plays on without them. In sign-up this is :meth:`leave`."""
        if user_id != player_id:
            rec = await self.record(tournament_id)
            self._require_organizer(rec, user_id, is_manager, "drop players from")
        async with self._lock(tournament_id):
            view = await self.view(tournament_id)
            rec, t = view.record, view.tournament
            if rec.status is TournamentStatus.SIGNUP:
                pass
            elif rec.status not in OPEN or t is None:
                raise WrongState(f"Tournament #{tournament_id} {self._closed(rec)}.")
            else:
                t.drop(player_id)  # typed refusals: unknown player, dropped already, over
                await self._write(
                    rec,
                    self.now(),
                    [("player_dropped", {"player": player_id, "reason": "dropped", "by": user_id})],
                    state=t.to_json(),
                )
                for link in view.current_links().values():
                    if link.recorded:
                        continue
                    found = await self.matches.get(link.match_id)
                    if found.status is MatchStatus.PENDING and found.seat_of(player_id) is not None:
                        await self.matches.start_arranged(link.match_id)
                        found = await self.matches.get(link.match_id)
                    if found.status is MatchStatus.ACTIVE and found.seat_of(player_id) is not None:
                        try:
                            await self.matches.forfeit(link.match_id, player_id, "left")
                        except Exception:
                            log.exception("Forfeiting match %s for a drop failed", link.match_id)
                await self._reconcile(tournament_id)
                return await self.view(tournament_id)
        await self.leave(tournament_id, player_id)
        return await self.view(tournament_id)

    # -----------------------------------------------------------------------------------------
    # time and recovery
    # -----------------------------------------------------------------------------------------

    async def tick(self, now: float | None = None) -> list[int]:
        """Start tournaments whose planned start passed (fewer than 2 players: cancelled),
        adjudicate rounds whose deadline passed, and reconcile every running tournament with its
        matches (what a lost notice or a crash left behind). Returns the tournaments touched."""
        at = self.now() if now is None else int(now)
        touched: list[int] = []
        for tid in await self.repo.due(at):
            try:
                rec = await self.record(tid)
                if rec.status is TournamentStatus.SIGNUP:
                    await self._planned_start(rec)
                elif rec.status is TournamentStatus.RUNNING:
                    await self._deadline(tid, at)
                touched.append(tid)
            except Exception:
                log.exception("Tournament %s: the timer failed", tid)
        for tid in await self.repo.ids_with_status(TournamentStatus.RUNNING, TournamentStatus.PAUSED):
            try:
                await self.reconcile(tid)
            except Exception:
                log.exception("Tournament %s: reconciling failed", tid)
        return touched

    async def recover(self) -> list[int]:
        """Start-up: reconcile every running (or paused) tournament with its matches."""
        ids = await self.repo.ids_with_status(TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        for tid in ids:
            try:
                await self.reconcile(tid)
            except Exception:
                log.exception("Tournament %s: recovery failed", tid)
        return ids

    async def reconcile(self, tournament_id: int) -> None:
        """Record what ended, make missing matches, advance rounds. When the tournament is busy
        (its lock held, by this task or another) it is only marked dirty: the holder goes round
        again before letting go. So a match-end observer never waits for a tournament (which
        could wait for that match's delivery)."""
        lock = self._locks.get(tournament_id)
        if lock is not None and lock.locked():
            self._dirty.add(tournament_id)
            return
        async with self._lock(tournament_id):
            await self._reconcile(tournament_id)

    async def match_ended(self, record: MatchRecord, outcome: Outcome | None) -> None:
        """The match service's end observer: a linked match ended, so record it (and go on)."""
        link = await self.repo.link_of(record.id)
        if link is None:
            return
        await self.reconcile(link.tournament_id)

    async def _planned_start(self, rec: TournamentRecord) -> None:
        if len(rec.entrants) < 2:
            async with self._lock(rec.id):
                fresh = await self.record(rec.id)
                if fresh.status is TournamentStatus.SIGNUP:
                    await self._write(
                        fresh,
                        self.now(),
                        [("cancelled", {"by": None, "reason": "fewer than 2 players at the planned start"})],
                        status=TournamentStatus.CANCELLED,
                        finished_at=self.now(),
                        start_at=None,
                    )
            return
        try:
            await self.start(rec.id, None, is_manager=True)
        except TournamentError as exc:
            log.info("Tournament %s could not start at its planned time: %s", rec.id, exc)
            async with self._lock(rec.id):
                fresh = await self.record(rec.id)
                if fresh.status is TournamentStatus.SIGNUP:
                    await self._write(
                        fresh,
                        self.now(),
                        [("cancelled", {"by": None, "reason": str(exc)})],
                        status=TournamentStatus.CANCELLED,
                        finished_at=self.now(),
                        start_at=None,
                    )

    async def _deadline(self, tournament_id: int, at: int) -> None:
        """The round deadline passed: adjudicate every match of the round still being played."""
        async with self._lock(tournament_id):
            view = await self.view(tournament_id)
            rec = view.record
            if (
                rec.status is not TournamentStatus.RUNNING
                or rec.round_deadline_at is None
                or rec.round_deadline_at > at
            ):
                return
            await self._write(rec, at, [("round_deadline", {"passed": True})], round_deadline_at=None)
            for link in view.current_links().values():
                if link.recorded:
                    continue
                found = await self.matches.get(link.match_id)
                if found.status is MatchStatus.PENDING:
                    await self.matches.start_arranged(link.match_id)
                    found = await self.matches.get(link.match_id)
                if found.status is not MatchStatus.ACTIVE:
                    continue
                awaited = []
                for s in found.seats:
                    try:
                        if (await self.matches.prompt(link.match_id, s.seat)).awaited:
                            awaited.append(s.seat)
                    except Exception:
                        continue
                fault = [found.seats[s].user_id for s in awaited]
                await self.repo.write(TournamentsRepository.set_at_fault(Batch(), link.match_id, fault))
                # the game waits on everyone (nobody waits on anybody): nobody to favour, abandoned
                await self.matches.adjudicate(link.match_id, awaited if len(awaited) < len(found.seats) else [])
            await self._reconcile(tournament_id)

    # -----------------------------------------------------------------------------------------
    # the engine: record results, make matches, advance rounds (lock held)
    # -----------------------------------------------------------------------------------------

    async def _reconcile(self, tournament_id: int) -> None:
        """Bring the tournament up to date with its matches. Called with the lock held; a match
        that ends meanwhile (inside a call below) marks the tournament dirty and it runs again."""
        for _ in range(1000):  # bounded: each pass records a result, makes matches or advances
            self._dirty.discard(tournament_id)
            await self._step(tournament_id)
            if tournament_id not in self._dirty:
                return
        log.error("Tournament %s: reconciling did not settle", tournament_id)

    async def _step(self, tournament_id: int) -> None:
        view = await self.view(tournament_id)
        rec, t = view.record, view.tournament
        if rec.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED) or t is None:
            return
        rec, t = await self._record_results(view)
        if rec.status is not TournamentStatus.RUNNING:
            return
        if t.current_round is None or t.round_complete:
            await self._advance(rec, t)
            return
        await self._play_round(tournament_id)

    async def _record_results(self, view: TournamentView) -> tuple[TournamentRecord, Tournament]:
        rec, t = view.record, view.tournament
        assert t is not None
        current = t.current_round
        batch = Batch()
        events: list[tuple[str, dict[str, Any]]] = []
        recorded_any = False
        statuses = await self._statuses([link.match_id for link in view.links if not link.recorded])
        for link in view.links:
            status = statuses.get(link.match_id)
            if link.recorded or status is None:
                continue
            if status in DEAD:
                TournamentsRepository.mark_recorded(batch, link.match_id)  # made again below
                continue
            if status not in OVER:
                continue
            found = await self.matches.get(link.match_id)
            TournamentsRepository.mark_recorded(batch, link.match_id)
            m = t.match(link.pairing)
            if current is None or link.round != current.number or m.result is not None:
                continue  # a walkover after a drop, or an old round: nothing to record
            result = await self._result_of(found, m, link)
            try:
                t.report(m.id, result)
            except BadResult as exc:
                drawn = sum(1 for other in view.links if other.round == link.round and other.pairing == m.id)
                if drawn < MAX_KNOCKOUT_GAMES:
                    # a knock-out game drawn: played again (a new match for the pairing, below)
                    events.append(("match_result", {**self._result_payload(m, link, result), "replay": str(exc)}))
                    continue
                # drawn again: the better seed goes through (adjudicated)
                better = min(m.seats, key=lambda p: t.player(p).seed or 10**9)
                placements = tuple(1 if p == better else 2 for p in m.seats)
                t.report(m.id, Result(placements, timed_out=result.timed_out, kind=ResultKind.ADJUDICATED))
            recorded_any = True
            events.append(("match_result", self._result_payload(m, link, t.match(m.id).result)))
        if not len(batch):
            return rec, t
        if recorded_any and t.round_complete:  # published once a round is over (its tie-breaks with it)
            events.append(("standings_changed", self._standings(t)))
        rec = await self._write(rec, self.now(), events, batch=batch, state=t.to_json())
        return rec, t

    async def _result_of(self, found: MatchRecord, m: Match, link: TournamentMatchRecord) -> Result:
        """The core's result (aligned with the core match's seats) of a match that is over."""
        k = len(m.seats)
        if found.status is MatchStatus.ABANDONED:
            fault = [p for p in (link.at_fault or ()) if p in m.seats]
            if fault and len(fault) < k:
                return Result(tuple(k if p in fault else 1 for p in m.seats), timed_out=tuple(fault))
            return Result(tuple(1 for _ in m.seats), timed_out=tuple(m.seats))
        placed = placement(found.outcome, len(found.seats))
        timed = {
            found.seats[a.seat].user_id
            for a in await self.db.actions.for_match(found.id)
            if a.seat is not None and a.action.get("type") == "forfeit" and a.action.get("reason") == "timeout"
        }
        if placed is None:  # an outcome the ratings cannot read: everyone shares the place
            return Result(tuple(1 for _ in m.seats), timed_out=tuple(p for p in m.seats if p in timed))
        rank = {found.seats[s].user_id: placed.ranks[s] for s in range(len(found.seats))}
        placements = tuple(rank.get(p, k) for p in m.seats)
        return Result(placements, timed_out=tuple(p for p in m.seats if p in timed))

    async def _advance(self, rec: TournamentRecord, t: Tournament) -> None:
        """The round is over (or none started): drop who missed too many, then finish or pair."""
        events: list[tuple[str, dict[str, Any]]] = []
        miss = rec.settings.get("miss_limit")
        if miss and not t.finished:
            for pid in t.players_to_drop(int(miss)):
                t.drop(pid)
                events.append(("player_dropped", {"player": pid, "reason": f"missed {miss} matches in a row"}))
        now = self.now()
        if t.finished or (t.started and len(t.active()) < 2 and t.format is not Format.SINGLE_ELIMINATION):
            ranking = t.ranking()
            champion = ranking[0][1] if ranking else None
            ranked = [[place, pid] for place, pid in ranking]
            events.append(("finished", {"champion": champion, "ranking": ranked, **self._standings(t)}))
            await self._write(
                rec,
                now,
                events,
                state=t.to_json(),
                status=TournamentStatus.FINISHED,
                finished_at=now,
                round_deadline_at=None,
            )
            return
        rnd = t.next_round()
        deadline = now + rec.round_seconds if rec.round_seconds else None
        await self._write(rec, now, events, state=t.to_json(), round_deadline_at=deadline)
        log.info("Tournament %s: round %s paired (%s matches)", rec.id, rnd.number, len(rnd.matches))
        self._dirty.add(rec.id)  # make its matches in the next pass

    async def _play_round(self, tournament_id: int) -> None:
        """Make (and start) every match of the current round that has none in play; announce the
        round once all have one."""
        view = await self.view(tournament_id)
        rec, t = view.record, view.tournament
        assert t is not None and t.current_round is not None
        rnd = t.current_round
        links = view.current_links()
        names = {e.user_id: e.display_name for e in rec.entrants}
        statuses = await self._statuses([link.match_id for link in links.values() if not link.recorded])
        for m in rnd.matches:
            if m.result is not None or len(m.seats) < 2:
                continue
            link = links.get(m.id)
            if link is not None and not link.recorded:
                if statuses.get(link.match_id) is MatchStatus.PENDING:
                    await self.matches.start_arranged(link.match_id)
                continue
            players = [(pid, names.get(pid, f"Player {pid}")) for pid in m.seats]
            made = await self.matches.arrange(rec.game, rec.options, rec.guild_id, rec.channel_id, players)
            await self.repo.write(
                TournamentsRepository.add_link(Batch(), rec.id, made.id, rnd.number, m.id, self.now())
            )
            await self.matches.start_arranged(made.id)
        rec = await self.record(tournament_id)
        if rec.announced_round < rnd.number:
            fresh = await self.view(tournament_id)
            current = fresh.current_links()
            payload = {
                "round": rnd.number,
                "of": t.rounds_planned,
                "deadline": rec.round_deadline_at,
                "matches": [
                    {
                        "pairing": m.id,
                        "seats": list(m.seats),
                        "bye": m.bye,
                        "label": m.label,
                        "match_id": current[m.id].match_id if m.id in current else None,
                    }
                    for m in rnd.matches
                ],
            }
            await self._write(rec, self.now(), [("round_started", payload)], announced_round=rnd.number)

    # -----------------------------------------------------------------------------------------
    # helpers
    # -----------------------------------------------------------------------------------------

    @asynccontextmanager
    async def _lock(self, tournament_id: int) -> AsyncIterator[None]:
        """The tournament's lock in this process. A match that ends while it is held (inside a
        call the tournament makes, or in another task) only marks the tournament dirty (see
        :meth:`reconcile`); the holder reconciles before it lets go. The check and the release
        have no await between them, so no end is left behind."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            yield
            if tournament_id in self._dirty:
                await self._reconcile(tournament_id)

    async def _write(
        self,
        rec: TournamentRecord,
        at: int,
        events: Sequence[tuple[str, Mapping[str, Any]]],
        *,
        batch: Batch | None = None,
        after: Callable[[TournamentRecord], list[tuple[str, dict[str, Any]]]] | None = None,
        **changes: Any,
    ) -> TournamentRecord:
        """One guarded write: ``batch``'s statements, the row's ``changes`` (version bumped) and the
        events; ``after``: events computed from the row as written (run after a first commit)."""
        batch = batch if batch is not None else Batch()
        TournamentsRepository.update(batch, rec, at, **changes)
        for kind, payload in events:
            TournamentsRepository.add_event(batch, rec.id, kind, payload, at)
        try:
            await self.repo.write(batch)
        except StaleWrite as exc:
            raise WrongState(f"Tournament #{rec.id} changed meanwhile; please try again.") from exc
        fresh = await self.record(rec.id)
        if after is not None:
            extra = after(fresh)
            if extra:
                batch = Batch()
                for kind, payload in extra:
                    TournamentsRepository.add_event(batch, rec.id, kind, payload, at)
                await self.repo.write(batch)
        return fresh

    async def _statuses(self, match_ids: Sequence[int]) -> dict[int, MatchStatus]:
        """The status of each match, in one query (a round's matches)."""
        out: dict[int, MatchStatus] = {}
        for i in range(0, len(match_ids), 400):
            chunk = list(match_ids[i : i + 400])
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(f"SELECT id, status FROM matches WHERE id IN ({marks})", chunk)
            out.update((int(r[0]), MatchStatus(r[1])) for r in rows)
        return out

    @staticmethod
    def _require_organizer(rec: TournamentRecord, user_id: int | None, is_manager: bool, what: str) -> None:
        if user_id is None or is_manager or user_id == rec.organizer_id:
            return
        raise NotOrganizer(f"Only the organizer or a server manager can {what} tournament #{rec.id}.")

    @staticmethod
    def _closed(rec: TournamentRecord) -> str:
        return {
            TournamentStatus.SIGNUP: "is in sign-up",
            TournamentStatus.RUNNING: "has already started",
            TournamentStatus.PAUSED: "has already started (paused)",
            TournamentStatus.FINISHED: "is over",
            TournamentStatus.CANCELLED: "was cancelled",
        }[rec.status]

    async def _players(self, rec: TournamentRecord) -> list[Player]:
        """The entrants with their rating on the server's ladder of the game (else the global one;
        a newcomer: the ladder's starting number), for seeding."""
        ratings = RatingsRepository(self.db)
        scope = rec.guild_id or GLOBAL_SCOPE
        out = []
        for e in rec.entrants:
            found = await ratings.get(scope, rec.game, e.user_id)
            out.append(Player(e.user_id, float(found.display) if found is not None else float(DISPLAY_BASE)))
        return out

    @staticmethod
    def _summary(rec: TournamentRecord) -> dict[str, Any]:
        return {
            "game": rec.game,
            "format": rec.format,
            "organizer": rec.organizer_id,
            "rounds": rec.settings.get("rounds"),
            "max_players": rec.max_players,
            "start_at": rec.start_at,
            "turn_time": rec.turn_time_seconds,
        }

    @staticmethod
    def _signup(rec: TournamentRecord) -> dict[str, Any]:
        return {
            "entrants": [{"id": e.user_id, "name": e.display_name} for e in rec.entrants],
            "count": len(rec.entrants),
            "max_players": rec.max_players,
        }

    @staticmethod
    def _standings(t: Tournament) -> dict[str, Any]:
        return {"round": t.current_round.number if t.current_round else 0, **t.standings().to_dict()}

    @staticmethod
    def _result_payload(m: Match, link: TournamentMatchRecord, result: Result | None) -> dict[str, Any]:
        out: dict[str, Any] = {"round": link.round, "pairing": m.id, "match_id": link.match_id}
        if result is not None:
            out["placements"] = {str(p): place for p, place in zip(m.seats, result.placements, strict=True)}
            out["timed_out"] = list(result.timed_out)
            out["kind"] = result.kind.value
        return out


__all__ = ["EVENT_KINDS", "MAX_PLAYERS", "TournamentService", "TournamentView"]
