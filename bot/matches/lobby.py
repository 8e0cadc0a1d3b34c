"""The lobby: challenges and open tables, from the invitation to the start of the match (create,
accept, join, leave, decline, start now, cancel, expire).

A challenge is a pending match: seat 0 is the challenger, the others are invited (or, at an open
table, join with a button). It starts by itself once everyone seated has accepted and enough
players are seated (an open table: full); the host may start earlier with those who accepted. The
start is one transaction: the seed, the opening log (chance), the deadlines and the notices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.servers import turn_time_problem
from db import Batch, DatabaseUnavailable, IntegrityError, MatchRecord, MatchStatus, SeatRecord, StaleWrite
from db.live import LiveRepository
from rules.core import public_events
from rules.registry import get_game
from rules.text import plural

from .computer import computer_ref, is_computer_id
from .context import Context, log, prompt_of
from .errors import Conflict, InvalidChallenge, MatchError, NotAPlayer, NotSaved, WrongStatus
from .moves import Moves, closed_text
from .notify import ChallengeExpiredArgs, Delivery, FinishedArgs, Notice, PromptArgs, StartedArgs
from .results import AcceptResult, PlayerRef
from .store import new_match, with_seats

LOBBY_RETRIES = 20
"""Times a lobby operation is decided again after another process changed the challenge first
(each retry means another writer committed: it is bounded by how many act on it at once)."""
READY_GRACE = 60
"""Seconds a challenge whose every seat has accepted may stay pending before the timer tick starts
it (a practice match is started by its creator right after its message is posted)."""

Decide = Callable[[MatchRecord, Batch], "MatchRecord | MatchStatus"]
"""A lobby operation's decision (see :meth:`Lobby._change`)."""

MIN_TURN_SECONDS = 10
"""The shortest turn time a match may have of its own (a tournament's, checked with
:func:`check_turn_time`; a server's /settings turn time is at least a minute)."""
MAX_TURN_SECONDS = 7 * 24 * 3600
"""The longest turn time a match may have of its own (7 days)."""


def check_turn_time(turn_time: object) -> int | None:
    """A match's own turn time, validated: None (the server's or the bot's), or whole seconds
    from :data:`MIN_TURN_SECONDS` to :data:`MAX_TURN_SECONDS`; InvalidChallenge otherwise."""
    if turn_time is None:
        return None
    problem = turn_time_problem(turn_time, MIN_TURN_SECONDS, MAX_TURN_SECONDS)
    if problem is not None:
        raise InvalidChallenge(problem)
    assert isinstance(turn_time, int)
    return turn_time


def player_name(name: str | None, seat: int) -> str:
    return (name or "").strip() or f"Player {seat + 1}"


def ready_to_start(record: MatchRecord, accepting: int | None = None) -> bool:
    """Whether a pending match starts by itself: everyone seated has accepted (``accepting`` is
    about to) and nobody else is expected: an open table must be full, an invitation must still
    seat the game's minimum (the host may start earlier with :meth:`Lobby.start_now`)."""
    game_cls = get_game(record.game)
    seated = len(record.seats)
    enough = seated == game_cls.max_seats if record.open_table else seated >= game_cls.min_seats
    return enough and all(s.accepted or s.seat == accepting for s in record.seats)


def check_join(record: MatchRecord, user_id: int) -> None:
    """Refuse a join the table does not allow: already seated, invitation only, or full."""
    if record.seat_of(user_id) is not None:
        raise InvalidChallenge(f"You already have a seat in match #{record.id}.")
    if not record.open_table:
        raise InvalidChallenge(f"Match #{record.id} is by invitation only.")
    game_cls = get_game(record.game)
    if len(record.seats) >= game_cls.max_seats:
        raise InvalidChallenge(f"The table of match #{record.id} is full ({game_cls.max_seats} players).")


def host_name(record: MatchRecord) -> str:
    """Who made the challenge (seat 0, except for a rematch, whose seats are rotated)."""
    seat = record.seat_of(record.challenger_id)
    return record.names[seat if seat is not None else 0]


def not_seated(record: MatchRecord) -> str:
    return f"You were not challenged in match #{record.id}."


def seat_in(record: MatchRecord, user_id: int) -> int:
    """The user's seat in the challenge, or NotAPlayer."""
    seat = record.seat_of(user_id)
    if seat is None:
        raise NotAPlayer(not_seated(record))
    return seat


def remove_seats(record: MatchRecord, batch: Batch, removed: Sequence[int]) -> MatchRecord:
    """Add to ``batch`` the removal of these seats (the later ones move up, keeping their order);
    returns the seats as they will be."""
    if not removed:
        return record
    kept = [s for s in record.seats if s.seat not in removed]
    LiveRepository.remove_seats(batch, record.id, removed, [(s.seat, i) for i, s in enumerate(kept) if s.seat != i])
    return replace(record, seats=tuple(replace(s, seat=i) for i, s in enumerate(kept)))


def challenge_due(record: MatchRecord, now: int) -> bool:
    """A pending challenge whose time to be accepted is up."""
    return record.status is MatchStatus.PENDING and record.expires_at is not None and record.expires_at <= now


class Lobby:
    def __init__(self, ctx: Context, moves: Moves) -> None:
        self.ctx = ctx
        self.moves = moves

    async def create_challenge(
        self,
        game: str,
        options: Mapping[str, Any] | None,
        guild_id: int | None,
        channel_id: int | None,
        challenger: PlayerRef,
        opponents: Sequence[PlayerRef],
        *,
        open_table: bool = False,
        computers: Sequence[str] = (),
        turn_time: int | None = None,
    ) -> MatchRecord:
        """A pending challenge (see :meth:`MatchService.create_challenge`); ``turn_time``: the
        match's own seconds per move (validated; None: the server's or the bot's)."""
        turn_time = check_turn_time(turn_time)
        game_cls = get_game(game)
        if not opponents and not open_table and not computers:
            raise InvalidChallenge("Name at least one opponent, or open the table for anyone to join.")
        if any(uid == challenger[0] for uid, _ in opponents):
            raise InvalidChallenge("You cannot challenge yourself.")
        ids = [uid for uid, _ in opponents]
        if len(set(ids)) != len(ids):
            raise InvalidChallenge("A player is named twice in the challenge; each player takes one seat.")
        if any(is_computer_id(uid) for uid, _ in [challenger, *opponents]):
            raise InvalidChallenge("That player id is reserved for computer players.")
        players = [(int(uid), player_name(name, i)) for i, (uid, name) in enumerate([challenger, *opponents])]
        humans = len(players)
        if len(players) + len(computers) > game_cls.max_seats:
            counted = f"{len(players)} players and {len(computers)} computer players" if computers else len(players)
            raise InvalidChallenge(f"{game_cls.name} seats at most {game_cls.max_seats} players; you named {counted}.")
        players += [computer_ref(i, level) for i, level in enumerate(computers)]
        ai = {humans + i: level for i, level in enumerate(computers)}
        if len(players) < game_cls.min_seats and not open_table:
            raise InvalidChallenge(
                f"{game_cls.name} needs at least {game_cls.min_seats} players: name more opponents or open the table."
            )
        options_obj = game_cls(options, num_seats=max(len(players), game_cls.min_seats)).options
        now = self.ctx.now()
        return await self.ctx.db.matches.create(
            game=game,
            options=options_obj.model_dump(mode="json"),
            guild_id=guild_id,
            channel_id=channel_id,
            seats=players,
            expires_at=now + self.ctx.challenge_timeout,
            created_at=now,
            open_table=open_table,
            ai=ai,
            turn_time_seconds=turn_time,
        )

    async def start_if_ready(self, match_id: int) -> AcceptResult:
        """Start a pending match whose seats have all accepted (a practice match: the player and
        the computers), as the last acceptance would; a match not ready is returned as it is."""

        def decide(record: MatchRecord, batch: Batch) -> MatchRecord:
            return record

        return await self._change(match_id, decide)

    async def accept(self, match_id: int, user_id: int) -> AcceptResult:
        def decide(record: MatchRecord, batch: Batch) -> MatchRecord:
            seat = seat_in(record, user_id)
            if user_id == record.challenger_id:
                raise InvalidChallenge("You made this challenge; wait for your opponents to accept it.")
            if record.seats[seat].accepted:
                if ready_to_start(record):
                    return record  # every seat accepted, yet not started (an older version's race): start it now
                raise InvalidChallenge(f"You have already accepted challenge #{match_id}.")
            LiveRepository.accept(batch, match_id, seat)
            return with_seats(record, accepted={seat: True})

        return await self._change(match_id, decide)

    async def join(self, match_id: int, user_id: int, name: str) -> AcceptResult:
        def decide(record: MatchRecord, batch: Batch) -> MatchRecord:
            check_join(record, user_id)
            seat = len(record.seats)
            display = player_name(name, seat)
            LiveRepository.join(batch, match_id, seat, user_id, display, self.ctx.now())
            joined = SeatRecord(match_id, seat, user_id, display, None, True, None, None, False)
            return replace(record, seats=(*record.seats, joined))

        return await self._change(match_id, decide)

    async def leave(self, match_id: int, user_id: int) -> MatchRecord:
        return (await self.leave_result(match_id, user_id)).record

    async def leave_result(self, match_id: int, user_id: int) -> AcceptResult:
        """:meth:`leave`, with whether this leave started the match (the last player not yet
        accepted left): ``started``. The record is read again after the write, so it may show a
        start another process committed meanwhile; only ``started`` says who started it."""

        def decide(record: MatchRecord, batch: Batch) -> MatchRecord | MatchStatus:
            seat = seat_in(record, user_id)
            if user_id == record.challenger_id:
                return MatchStatus.CANCELLED
            if not record.open_table and len(record.seats) - 1 < get_game(record.game).min_seats:
                return MatchStatus.DECLINED
            return remove_seats(record, batch, [seat])

        return await self._change(match_id, decide)

    async def start_now(self, match_id: int, user_id: int) -> AcceptResult:
        def decide(record: MatchRecord, batch: Batch) -> MatchRecord:
            seat_in(record, user_id)
            if user_id != record.challenger_id:
                raise NotAPlayer(f"Only the host ({host_name(record)}) can start match #{match_id}.")
            game_cls = get_game(record.game)
            ready = [s for s in record.seats if s.accepted]
            if len(ready) < game_cls.min_seats:
                raise InvalidChallenge(
                    f"{plural(len(ready), 'player')} ready; {game_cls.name} needs at least "
                    f"{game_cls.min_seats}. Wait for more players to accept or join."
                )
            return remove_seats(record, batch, [s.seat for s in record.seats if not s.accepted])

        return await self._change(match_id, decide, start=True)

    async def cancel(self, match_id: int, user_id: int) -> MatchRecord:
        def decide(record: MatchRecord, batch: Batch) -> MatchStatus:
            if record.challenger_id != user_id:
                raise NotAPlayer(f"Only the challenger can withdraw challenge #{match_id}.")
            return MatchStatus.CANCELLED

        return (await self._change(match_id, decide)).record

    async def expire_due(self, now: float | None = None) -> list[MatchRecord]:
        """The lobby's part of the timer tick: start the challenges left ready but not started
        (:meth:`start_ready`), then expire those whose time is up; returns the expired ones."""
        at = self.ctx.now(now)
        await self.start_ready(at)
        expired = []
        for match_id in await self.ctx.db.matches.due_to_expire(at):
            try:
                async with self.ctx.session(match_id) as delivery:
                    record = await self.ctx.store.record(match_id)
                    if challenge_due(record, at) and (fresh := await self._expire(record, at, delivery)) is not None:
                        expired.append(fresh)
            except Exception:
                log.exception("Expiring challenge %s failed", match_id)
        return expired

    async def start_ready(self, now: int) -> list[int]:
        """Start every pending challenge whose seats have all accepted (and that is ready to start)
        but that was not started, once it is :data:`READY_GRACE` seconds old: rows an older version
        left behind when two acceptances raced in two processes, or a practice match whose creator
        stopped before starting it. Returns the ids started here (another process may start some
        first: its start wins, this one's is refused by the version check and changes nothing)."""
        started = []
        for match_id, game, open_table, seated in await self.ctx.store.repo.accepted_pending(now - READY_GRACE, now):
            try:
                game_cls = get_game(game)
            except Exception:
                continue  # a game this version does not know
            if seated < game_cls.min_seats or (open_table and seated < game_cls.max_seats):
                continue  # an open table still waiting for players, say
            try:
                if (await self.start_if_ready(match_id)).started:
                    log.warning("Challenge %s had every seat accepted but was not started; started it now", match_id)
                    started.append(match_id)
            except MatchError as exc:
                log.info("Challenge %s left ready was not started: %s", match_id, exc)
            except DatabaseUnavailable:
                raise
            except Exception:
                log.exception("Starting challenge %s left ready failed", match_id)
        return started

    async def check(self, match_id: int, user_id: int, op: str) -> None:
        """Refuse a lobby button press (accept, decline, leave, join, start) that the operation
        itself would refuse, with its words, changing nothing: the button asks before it defers."""
        record = await self.ctx.store.record(match_id)
        if record.status is not MatchStatus.PENDING:
            raise WrongStatus(f"Challenge #{record.id} {closed_text(record.status)}.")
        if challenge_due(record, self.ctx.now()):
            raise WrongStatus(f"Challenge #{record.id} has expired.")
        seat = record.seat_of(user_id)
        if op == "join":
            check_join(record, user_id)
            return
        if op == "start" and user_id != record.challenger_id:
            raise NotAPlayer(f"Only the host ({host_name(record)}) can start match #{match_id}.")
        if seat is None:
            raise NotAPlayer(not_seated(record))
        if op == "accept":
            if user_id == record.challenger_id:
                raise InvalidChallenge("You made this challenge; wait for your opponents to accept it.")
            if record.seats[seat].accepted and not ready_to_start(record):
                raise InvalidChallenge(f"You have already accepted challenge #{match_id}.")

    # -- internals (lock held) -----------------------------------------------------------------
    async def _change(self, match_id: int, decide: Decide, *, start: bool = False) -> AcceptResult:
        """One lobby operation as one guarded write (see ``LiveRepository.guard_pending``).

        ``decide`` is given the challenge as committed (pending and unexpired) and a batch that
        opens with the version check; it refuses (a MatchError), or adds its change of the seats to
        the batch and returns the seats as they will be, or returns the status that closes the
        challenge. If the seats it returns are ready (or ``start``), the start goes in the same
        batch. So the decision that a challenge is ready and its start commit together, against the
        version they were decided on: with several processes exactly one start wins. A write that
        lost to another process's (StaleWrite) is decided again on the challenge as it now is."""
        async with self.ctx.session(match_id) as delivery:
            for _ in range(LOBBY_RETRIES):
                record = await self.ctx.store.record(match_id)
                now = self.ctx.now()
                await self._require_open(record, now, delivery)
                batch = Batch()
                LiveRepository.guard_pending(batch, match_id, record.version)
                after = decide(record, batch)
                try:
                    if isinstance(after, MatchStatus):
                        LiveRepository.close_challenge(batch, match_id, after, now)
                        await self.ctx.store.write(batch)
                    elif start or ready_to_start(after):
                        return await self._start(after, record.version, now, delivery, batch)
                    elif len(batch) > 1:
                        await self.ctx.store.write(batch)
                except (StaleWrite, IntegrityError):
                    continue  # another process changed the challenge first: decide again on it as it is
                return AcceptResult(await self.ctx.store.record(match_id), started=False)
        raise Conflict(
            f"Challenge #{match_id} keeps changing (players joining, leaving or accepting); please try again."
        )

    async def _require_open(self, record: MatchRecord, now: int, delivery: Delivery) -> None:
        if record.status is not MatchStatus.PENDING:
            raise WrongStatus(f"Challenge #{record.id} {closed_text(record.status)}.")
        if challenge_due(record, now):
            await self._expire(record, now, delivery)
            raise WrongStatus(f"Challenge #{record.id} has expired.")

    async def _expire(self, record: MatchRecord, now: int, delivery: Delivery) -> MatchRecord | None:
        batch = Batch()
        LiveRepository.expire(batch, record.id, now)
        notice = Notice.expired(record.id)
        if not await self.ctx.commit(batch, [notice], now):
            return None
        fresh = await self.ctx.store.record(record.id)
        Moves.ready(delivery, notice, fresh, ChallengeExpiredArgs())
        return fresh

    async def _start(
        self, record: MatchRecord, version: int, now: int, delivery: Delivery, batch: Batch
    ) -> AcceptResult:
        """Start ``record`` (its seats as they will be once ``batch`` commits: the version check
        at ``version`` and the seats' change) in the same batch; StaleWrite if the check fails."""
        ctx = self.ctx
        seed = ctx.seed_factory()
        live, events, entries = new_match(record, seed)
        LiveRepository.start(batch, record.id, seed, now)
        LiveRepository.add_actions(batch, record.id, 0, entries, now)
        started = Notice.started(record.id, events)
        notices: list[tuple[Notice[Any], int]] = [(started, ctx.queue(batch, started, now))]
        outcome = live.state.outcome
        finish: Notice[FinishedArgs] | None = None
        prompts: list[tuple[int, Notice[PromptArgs]]] = []
        if outcome is not None:
            self.moves.finish_statements(batch, record, outcome, now)
            finish = Notice.finished(record.id, outcome)
            notices.append((finish, ctx.queue(batch, finish, now)))
        else:
            turn_time = await ctx.turn_time(record)
            deadlines = self.moves.reschedule(batch, live, frozenset(), None, now, turn_time)
            for s in [s for s, d in deadlines.items() if d is not None]:
                prompt = Notice.prompt(record.id, s, live.seat_steps[s], True)
                prompts.append((s, prompt))
                notices.append((prompt, ctx.queue(batch, prompt, now)))
        try:
            rowids = await ctx.store.write(batch)
        except (StaleWrite, IntegrityError, DatabaseUnavailable):
            raise
        except Exception as exc:
            log.exception("Starting match %s failed", record.id)
            raise NotSaved(f"Match #{record.id} could not be started (database error); please try again.") from exc
        ctx.written(notices, rowids)
        fresh = await ctx.store.repo.record(record.id)
        assert fresh is not None
        # the version this start committed (another process may already have moved the match on:
        # then the cached copy is behind, and its next touch sees it)
        fresh = replace(fresh, version=version + 1)
        live.record = fresh
        if outcome is None:
            ctx.store.keep(live)
        else:
            self.moves.rate(fresh)
        # in commit order: the start, then the finish or the prompts
        Moves.ready(delivery, started, fresh, StartedArgs(public_events(events), live.state.view(None)))
        if finish is not None:
            assert outcome is not None
            Moves.ready(delivery, finish, fresh, FinishedArgs(outcome))
        for s, prompt in prompts:
            Moves.ready(delivery, prompt, fresh, PromptArgs(prompt_of(live, s, True)))
        return AcceptResult(fresh, started=True, events=tuple(events))


__all__ = ["Lobby", "challenge_due", "host_name", "player_name", "ready_to_start"]
