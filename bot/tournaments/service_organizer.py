"""The tournament service's organizer operations: create, join, leave, start, cancel, pause,
resume, drop, the round deadline and the planned start. Each one validates first (a
TournamentError, nothing written), then makes one guarded write under the tournament's lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.matches import InvalidChallenge, PlayerRef, check_turn_time
from db import Batch, MatchStatus
from db.tournaments import TournamentRecord, TournamentsRepository, TournamentStatus
from rules.registry import get_game

from .errors import BadPlayers, BadRounds, BadSettings, SignupClosed, TournamentError, WrongState
from .events import Cancelled, Created, Paused, PlayerDropped, Resumed, RoundDeadline, SignupChanged, Started
from .model import Format, game_profile
from .service_core import ANYWHERE, MAX_PLAYERS, OPEN, Held, ServiceCore, TournamentView, Where, log
from .service_rounds import Rounds
from .tournament import DEFAULT_MISS_LIMIT, Tournament, max_swiss_rounds


class Organizer:
    """Sign-up and the organizer's controls. Each operation reads its tournament once under the
    lock (:meth:`ServiceCore.hold`: after a check outside it, so a foreign id takes no lock) and
    hands the held tournament to the engine (:meth:`Rounds.record_and_pair`) where it goes on."""

    def __init__(self, core: ServiceCore, rounds: Rounds) -> None:
        self.core = core
        self.rounds = rounds

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
        try:
            check_turn_time(turn_time)  # the match service's own bounds: each match gets this turn time
        except InvalidChallenge as exc:
            raise BadSettings(str(exc)) from None
        if round_seconds is not None and (not isinstance(round_seconds, int) or round_seconds < 60):
            raise BadSettings(f"A round deadline must be at least 60 seconds, not {round_seconds!r}.")
        if miss_limit is not None and (not isinstance(miss_limit, int) or miss_limit < 1):
            raise BadSettings(f"Missed matches before a drop must be at least 1 (or none), not {miss_limit!r}.")
        if start_at is not None and not isinstance(start_at, int):
            raise BadSettings(f"The start time is a unix time in seconds, not {start_at!r}.")
        # third place and the like: the core's own checks, on two stand-in players
        Tournament.create(game, fmt, [1, 2], third_place=third_place, miss_limit=miss_limit or DEFAULT_MISS_LIMIT)
        game_options = self._game_options(game, options)
        core = self.core
        seed = int(core.seed_factory())
        settings = {"rounds": rounds, "third_place": bool(third_place), "miss_limit": miss_limit, "seed": seed}
        now = core.now()
        rec = await core.repo.create(
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
        return await core.write(Held(rec, None), now, [Created.of(rec)])

    @staticmethod
    def _game_options(game: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
        game_cls = get_game(game)
        try:
            made = game_cls(dict(options or {}), num_seats=max(2, int(game_cls.min_seats)))
        except (ValueError, TypeError) as exc:
            raise BadSettings(f"Those {game_cls.name} options are not valid: {exc}") from exc
        dumped: dict[str, Any] = made.options.model_dump(mode="json")
        return dumped

    async def join(self, tournament_id: int, player: PlayerRef, *, guild_id: Where = ANYWHERE) -> TournamentRecord:
        """Enter during the sign-up (refused: after it, twice, or when full). Every operation
        here names the tournament from ``guild_id``, the interaction's server (see
        :meth:`~.service_core.ServiceCore.record`: another server's is not found)."""
        core = self.core
        user_id, name = int(player[0]), (player[1] or "").strip() or f"Player {player[0]}"
        await core.record(tournament_id, guild_id)  # before the lock: a foreign id takes no lock
        async with core.lock(tournament_id):
            held = await core.hold(tournament_id, guild_id)
            rec = held.record
            if rec.status is not TournamentStatus.SIGNUP:
                raise SignupClosed(f"Tournament #{tournament_id} {core.closed(rec)}: the sign-up is closed.")
            if rec.entrant(user_id) is not None:
                raise BadPlayers(f"You have already joined tournament #{tournament_id}.")
            if rec.max_players is not None and len(rec.entrants) >= rec.max_players:
                raise SignupClosed(f"Tournament #{tournament_id} is full ({rec.max_players} players).")
            now = core.now()
            batch = TournamentsRepository.add_entrant(Batch(), rec.id, user_id, name, now)
            return await core.write(held, now, [], batch=batch, after=lambda r: [SignupChanged.of(r)])

    async def leave(self, tournament_id: int, user_id: int, *, guild_id: Where = ANYWHERE) -> TournamentRecord:
        """Leave during the sign-up (after the start: :meth:`drop`)."""
        core = self.core
        await core.record(tournament_id, guild_id)
        async with core.lock(tournament_id):
            held = await core.hold(tournament_id, guild_id)
            rec = held.record
            if rec.status is not TournamentStatus.SIGNUP:
                raise SignupClosed(f"Tournament #{tournament_id} {core.closed(rec)}: drop out instead of leaving.")
            if rec.entrant(user_id) is None:
                raise BadPlayers(f"You have not joined tournament #{tournament_id}.")
            now = core.now()
            batch = TournamentsRepository.remove_entrant(Batch(), rec.id, user_id)
            return await core.write(held, now, [], batch=batch, after=lambda r: [SignupChanged.of(r)])

    # -----------------------------------------------------------------------------------------
    # the organizer's controls
    # -----------------------------------------------------------------------------------------

    async def _controlled(
        self, tournament_id: int, user_id: int | None, is_manager: bool, guild_id: Where, what: str
    ) -> Held:
        """The tournament for an organizer's control, held (lock held by the caller): refused
        for anyone but the organizer or a manager."""
        held = await self.core.hold(tournament_id, guild_id)
        self.core.require_organizer(held.record, user_id, is_manager, what)
        return held

    async def start(
        self, tournament_id: int, user_id: int | None, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentView:
        """Close the sign-up and start round 1 (the organizer or a manager; ``user_id`` None: the
        bot itself, at the planned start). Refused with nothing changed: not allowed, not in
        sign-up, fewer than 2 players, a round count the players cannot play."""
        core = self.core
        await core.record(tournament_id, guild_id)
        async with core.lock(tournament_id):
            held = await self._controlled(tournament_id, user_id, is_manager, guild_id, "start")
            rec = held.record
            if rec.status is not TournamentStatus.SIGNUP:
                raise WrongState(f"Tournament #{tournament_id} {core.closed(rec)}.")
            players = await core.players(rec)
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
            now = core.now()
            await core.write(held, now, [Started.of(t)], status=TournamentStatus.RUNNING, tournament=t, start_at=None)
            await self.rounds.record_and_pair(held)  # round 1 paired; its matches: background
        return await core.view(tournament_id)

    async def cancel(
        self, tournament_id: int, user_id: int, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentRecord:
        """Stop the tournament for good. Its matches still being played go on as ordinary rated
        matches; their results no longer count for the tournament."""
        core = self.core
        await core.record(tournament_id, guild_id)
        async with core.lock(tournament_id):
            held = await self._controlled(tournament_id, user_id, is_manager, guild_id, "cancel")
            if held.record.status not in OPEN:
                raise WrongState(f"Tournament #{tournament_id} {core.closed(held.record)}.")
            now = core.now()
            return await core.write(
                held,
                now,
                [Cancelled(by=user_id)],
                status=TournamentStatus.CANCELLED,
                finished_at=now,
                round_deadline_at=None,
            )

    async def pause(
        self, tournament_id: int, user_id: int, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentRecord:
        """Hold the next round: the matches being played finish and count, but no round starts and
        the round deadline does not fire until :meth:`resume`."""
        core = self.core
        await core.record(tournament_id, guild_id)
        async with core.lock(tournament_id):
            held = await self._controlled(tournament_id, user_id, is_manager, guild_id, "pause")
            if held.record.status is not TournamentStatus.RUNNING:
                raise WrongState(f"Tournament #{tournament_id} is not running, so it cannot be paused.")
            return await core.write(held, core.now(), [Paused(by=user_id)], status=TournamentStatus.PAUSED)

    async def resume(
        self, tournament_id: int, user_id: int, *, is_manager: bool = False, guild_id: Where = ANYWHERE
    ) -> TournamentView:
        """Go on after a pause: a round deadline starts again from now (the whole round time)."""
        core = self.core
        await core.record(tournament_id, guild_id)
        async with core.lock(tournament_id):
            held = await self._controlled(tournament_id, user_id, is_manager, guild_id, "resume")
            rec = held.record
            if rec.status is not TournamentStatus.PAUSED:
                raise WrongState(f"Tournament #{tournament_id} is not paused.")
            now = core.now()
            deadline = now + rec.round_seconds if rec.round_seconds and rec.round_deadline_at else None
            await core.write(
                held, now, [Resumed(by=user_id)], status=TournamentStatus.RUNNING, round_deadline_at=deadline
            )
            await self.rounds.record_and_pair(held)  # the next round paired; its matches: background
        return await core.view(tournament_id)

    async def set_round_deadline(
        self,
        tournament_id: int,
        user_id: int,
        seconds: int | None,
        *,
        is_manager: bool = False,
        guild_id: Where = ANYWHERE,
    ) -> TournamentRecord:
        """Set (None: remove) the round time: each round's unfinished matches are adjudicated
        ``seconds`` after it starts. A round in progress gets its deadline from now."""
        if seconds is not None and (not isinstance(seconds, int) or seconds < 60):
            raise BadSettings(f"A round deadline must be at least 60 seconds, not {seconds!r}.")
        core = self.core
        await core.record(tournament_id, guild_id)
        async with core.lock(tournament_id):
            held = await self._controlled(tournament_id, user_id, is_manager, guild_id, "set the round deadline of")
            rec = held.record
            if rec.status not in OPEN:
                raise WrongState(f"Tournament #{tournament_id} {core.closed(rec)}.")
            now = core.now()
            live = rec.status is not TournamentStatus.SIGNUP
            deadline = now + seconds if seconds is not None and live else None
            return await core.write(
                held,
                now,
                [RoundDeadline(seconds=seconds, at=deadline)],
                round_seconds=seconds,
                round_deadline_at=deadline,
            )

    async def drop(
        self,
        tournament_id: int,
        user_id: int,
        player_id: int,
        *,
        is_manager: bool = False,
        guild_id: Where = ANYWHERE,
    ) -> TournamentView:
        """Drop a player (themself, or anyone: the organizer or a manager). Never paired again; a
        two-player match of theirs being played is forfeited (a loss, the opponent wins as in any
        match); a table plays on without them. In sign-up this is :meth:`leave`."""
        core, matches = self.core, self.core.matches
        rec = await core.record(tournament_id, guild_id)
        if user_id != player_id:
            core.require_organizer(rec, user_id, is_manager, "drop players from")
        async with core.lock(tournament_id):
            held = await core.hold(tournament_id)
            rec, t = held.record, held.tournament
            signup = rec.status is TournamentStatus.SIGNUP
            if signup:
                pass
            elif rec.status not in OPEN or t is None:
                raise WrongState(f"Tournament #{tournament_id} {core.closed(rec)}.")
            else:
                view = await core.view_of(held)
                t.drop(player_id)  # typed refusals: unknown player, dropped already, over
                await core.write(held, core.now(), [PlayerDropped(player_id, "dropped", by=user_id)], tournament=t)
                for link in view.current_links().values():
                    if link.recorded:
                        continue
                    found = await matches.get(link.match_id)
                    if found.status is MatchStatus.PENDING and found.seat_of(player_id) is not None:
                        await matches.start_arranged(link.match_id)
                        found = await matches.get(link.match_id)
                    if found.status is MatchStatus.ACTIVE and found.seat_of(player_id) is not None:
                        try:
                            await matches.forfeit(link.match_id, player_id, "left")
                        except Exception:
                            log.exception("Forfeiting match %s for a drop failed", link.match_id)
                await self.rounds.record_and_pair(held)  # the next round's matches: background
        if signup:
            await self.leave(tournament_id, player_id, guild_id=guild_id)
        return await core.view(tournament_id)

    async def planned_start(self, rec: TournamentRecord) -> None:
        """The timer, at a sign-up's planned start: start it, or cancel it (fewer than 2 players,
        or a start the players cannot make: the reason said in the ``cancelled`` event)."""
        if len(rec.entrants) < 2:
            await self._cancel_planned(rec.id, "fewer than 2 players at the planned start")
            return
        try:
            await self.start(rec.id, None, is_manager=True)
        except TournamentError as exc:
            log.info("Tournament %s could not start at its planned time: %s", rec.id, exc)
            await self._cancel_planned(rec.id, str(exc))

    async def _cancel_planned(self, tournament_id: int, reason: str) -> None:
        core = self.core
        async with core.lock(tournament_id):
            held = await core.hold(tournament_id)
            if held.record.status is TournamentStatus.SIGNUP:
                await core.write(
                    held,
                    core.now(),
                    [Cancelled(by=None, reason=reason)],
                    status=TournamentStatus.CANCELLED,
                    finished_at=core.now(),
                    start_at=None,
                )


__all__ = ["Organizer"]
