"""Computer players: practice matches against the AI (``rules.ai``), and hints.

A computer player holds a seat like anyone else (``seats.ai`` is its level, its user id a reserved
negative id: :func:`computer_ref`). The service never sends it a prompt: when a notice would
prompt a computer seat, :meth:`Computer.prompted` starts its thinking instead.

Thinking never runs on the event loop. Under the match lock the state is pickled; the search runs
in a worker process (:mod:`bot.thinker`, through a ``concurrent.futures`` process pool shared by
every match); then, under the lock again, the action is played through the same path as a
player's move (:meth:`Moves.play`), unless the match moved on meanwhile (a stale decision is
dropped). A decision is bounded by ``think_limit`` seconds and by half the seat's time left; past
that, or if the worker fails, the seat plays its decision's default or a seeded random legal
action, so a computer never makes a match wait for its turn time. Each decision's seed comes
from the match's seed and the point of the match (:func:`bot.thinker.decision_seed`).

The timer tick (:meth:`Computer.resume`) restarts the thinking of computer seats that wait
without it (after a restart, or a failure).

Hints (practice matches only): what the AI would play for the asking player, and its estimate of
the player's chance to win from here (:func:`bot.thinker.hint`), computed the same way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import pickle
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.thinker import decision_seed, think
from bot.thinker import hint as think_hint
from db import MatchRecord, MatchStatus
from rules.core import fill_names
from rules.errors import RulesError

from .context import Context, log
from .errors import InvalidChallenge, NoHint, StalePrompt, WrongStatus
from .moves import Moves, require_seat
from .results import PlayerRef
from .store import LiveMatch

LEVELS = ("easy", "normal", "hard")
#: The computer players' names, one per seat they may take at a table (Magic Duel seats 8).
COMPUTER_NAMES = ("Merlin", "Morgana", "Prospero", "Circe", "Gwydion", "Nimue", "Taliesin")
#: The level hints are computed at.
HINT_LEVEL = "normal"
#: Seconds a process's claim on a computer seat outlasts the longest decision (then another
#: process may take the seat over, e.g. when the one thinking was killed).
CLAIM_MARGIN = 10
#: Hints kept in memory (the newest), so a hint asked again or played is the one shown.
MAX_KEPT_HINTS = 5000

T = TypeVar("T")


def computer_ref(index: int, level: str) -> PlayerRef:
    """The ``index``-th computer player at a table (0-based): a reserved negative user id (Discord
    ids are positive) and its name, which says it is a computer and its level."""
    if level not in LEVELS:
        raise InvalidChallenge(f"Unknown level {level!r}: choose easy, normal or hard.")
    if not 0 <= index < len(COMPUTER_NAMES):
        raise InvalidChallenge(f"At most {len(COMPUTER_NAMES)} computer players can sit at one table.")
    return -(index + 1), f"{COMPUTER_NAMES[index]} (AI, {level})"


def is_computer_id(user_id: int) -> bool:
    return user_id < 0


@dataclass(frozen=True)
class Hint:
    """What the AI would play for a seat, told as the seat would be told it (``text``, names
    filled; empty when that account would depend on what the seat cannot see, e.g. the cards a
    draw brings: then the game's UI describes ``action``), and its estimated chance (0..1) that
    the seat wins from here. Then what that estimate rests on (for the hint's reason): the
    ``seats`` at the table, the ``games`` the search played out from here (0: the seat had one
    legal move), the ``tries`` that began with this action, and the ``runner_up`` (the other action
    the search tried most; None if none), told as ``runner_up_text`` (or empty, like ``text``),
    with its own score and tries. A score is the chance of winning with two players; with more,
    the share of the other players the seat finished ahead of."""

    match_id: int
    game: str
    seat: int
    seat_step: int
    text: str
    chance: float
    action: dict[str, Any]
    seats: int = 2
    games: int = 0
    tries: int = 0
    runner_up: dict[str, Any] | None = None
    runner_up_text: str = ""
    runner_up_chance: float = 0.0
    runner_up_tries: int = 0
    #: the seat's legal moves (``games`` 0 with more than one: every plan weighed agreed)
    choices: int = 1


def _process_pool(workers: int) -> concurrent.futures.Executor:
    # spawn: a fresh interpreter per worker (forking a process that runs an event loop and
    # threads is unsafe); a worker imports only the rules (bot.thinker)
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


class Computer:
    """Plays the computer seats of every match, and gives hints. See the module docstring."""

    def __init__(
        self,
        ctx: Context,
        moves: Moves,
        *,
        workers: int = 1,
        think_limit: float = 20.0,
        pace: float = 1.2,
        executor: concurrent.futures.Executor | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.ctx = ctx
        self.moves = moves
        self.workers = max(1, workers)
        self.think_limit = think_limit
        # seconds a computer waits before it plays: players can follow its moves, and a table of
        # computers stays within Discord's 5 edits per 5 s of a thread
        self.pace = pace
        self.sleep = sleep
        self._executor = executor
        self._owns_executor = executor is None
        self._thinking: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._wanted: set[tuple[int, int]] = set()
        self._hinting: set[tuple[int, int]] = set()
        # the hints given, by (match, seat, seat step): the same hint again (and its Play this
        # button) without a new search; a miss (a restart) searches again with the same seed
        self._hints: OrderedDict[tuple[int, int, int], Hint] = OrderedDict()
        self.decisions = 0  # decisions played (for tests and the log)
        self.fallbacks = 0  # decisions that fell back to the default or a random action

    # -- the pool -------------------------------------------------------------------------------
    @property
    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            self._executor = _process_pool(self.workers)
        return self._executor

    async def _run(self, limit: float, fn: Callable[..., T], *args: Any) -> T:
        try:
            future = self.executor.submit(fn, *args)
            return await asyncio.wait_for(asyncio.wrap_future(future), timeout=limit)
        except concurrent.futures.BrokenExecutor:
            # a worker died (killed, out of memory): the next decision gets a fresh pool
            if self._owns_executor and self._executor is not None:
                log.warning("A computer players' worker process died; the pool is restarted")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
            raise

    # -- playing --------------------------------------------------------------------------------
    def prompted(self, record: MatchRecord, seat: int) -> None:
        """A computer seat was prompted: think (in the background) unless it already does."""
        self._wake((record.id, seat))

    def _wake(self, key: tuple[int, int]) -> bool:
        """Ask the seat's thinker to (look again and) play; start one if none runs. A prompt that
        arrives while the thinker is finishing its last move (its own move prompts it again) is
        not lost: the thinker loops while it is wanted."""
        self._wanted.add(key)
        task = self._thinking.get(key)
        if task is not None and not task.done():
            return False
        self._thinking[key] = asyncio.get_running_loop().create_task(self._play(*key), name=f"computer-{key}")
        return True

    async def _play(self, match_id: int, seat: int) -> None:
        key = (match_id, seat)
        try:
            while key in self._wanted:
                self._wanted.discard(key)
                try:
                    await self._decide_and_play(match_id, seat)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("The computer player of seat %s in match %s failed", seat, match_id)
                    return  # the timer's next tick (resume) tries again
        finally:
            self._wanted.discard(key)
            if self._thinking.get(key) is asyncio.current_task():
                del self._thinking[key]

    async def _decide_and_play(self, match_id: int, seat: int) -> None:
        ctx = self.ctx
        if ctx.store.shared:
            # several processes on one database: one of them thinks for the seat (a lease, as for
            # a time-out; the computer's move sets a new deadline, which clears it)
            now = ctx.now()
            lease = int(self.think_limit + self.pace) + CLAIM_MARGIN
            if not await ctx.db.seats.claim_seat(match_id, seat, ctx.store.owner, now + lease, now):
                return
        if self.pace > 0:
            await self.sleep(self.pace)
        async with ctx.session(match_id) as delivery:
            live = await ctx.load(match_id, delivery)
            if not self._awaits(live, seat):
                return
            assert isinstance(live, LiveMatch)
            level = live.record.seats[seat].ai or "normal"
            step = live.seat_steps[seat]
            seed = _seed(live, seat, "move")
            blob = pickle.dumps(live.state, protocol=pickle.HIGHEST_PROTOCOL)
            limit = self._limit(live, seat)
        action: dict[str, Any] | None
        try:
            action = await self._run(limit, think, blob, seat, level, seed, _search_limit(limit))
        except Exception as exc:
            log.warning(
                "The computer of seat %s in match %s did not decide in time (%s); it plays a default move",
                seat,
                match_id,
                type(exc).__name__ if not isinstance(exc, TimeoutError) else f"over {limit:.0f} s",
            )
            action = None
        async with ctx.session(match_id) as delivery:
            live = await ctx.load(match_id, delivery)
            if not self._awaits(live, seat) or not isinstance(live, LiveMatch) or live.seat_steps[seat] != step:
                return  # the match moved on (a time-out, a forfeit): the decision is stale
            if action is not None:
                try:
                    await self.moves.play(live, seat, action, delivery, now=ctx.now())
                    self.decisions += 1
                    return
                except RulesError:
                    log.exception("The computer's move in match %s seat %s was refused", match_id, seat)
            self.fallbacks += 1
            await self.moves.play(live, seat, self._fallback(live, seat), delivery, now=ctx.now())
            self.decisions += 1

    @staticmethod
    def _awaits(found: LiveMatch | MatchRecord, seat: int) -> bool:
        return isinstance(found, LiveMatch) and found.record.is_ai(seat) and seat in found.awaited()

    def _limit(self, live: LiveMatch, seat: int) -> float:
        """Seconds the decision may take: ``think_limit``, and at most half the seat's time left."""
        deadline = live.record.seats[seat].deadline_at
        if deadline is None:
            return self.think_limit
        return max(0.5, min(self.think_limit, (deadline - self.ctx.now()) / 2))

    @staticmethod
    def _fallback(live: LiveMatch, seat: int) -> Any:
        decision = live.state.asked(seat)
        if decision is not None and decision.default is not None:
            return decision.default
        return live.state.sample_action(seat, random.Random(_seed(live, seat, "fallback")))

    async def resume(self) -> int:
        """Start thinking for every computer seat that waits without a thinker (after a restart,
        or when thinking failed); returns how many were started."""
        started = 0
        for key in await self.ctx.db.seats.awaited_computers():
            task = self._thinking.get(key)
            if (task is None or task.done()) and self._wake(key):
                started += 1
        return started

    async def settle(self) -> None:
        """Wait until no computer is thinking (each move may prompt the next: repeat)."""
        while self._thinking:
            await asyncio.gather(*list(self._thinking.values()), return_exceptions=True)

    def thinking(self) -> int:
        return sum(1 for t in self._thinking.values() if not t.done())

    # -- hints ----------------------------------------------------------------------------------
    async def hint(self, match_id: int, user_id: int, seat_step: int | None = None) -> Hint:
        """What the AI would play for ``user_id`` now, and their chance to win from here: only in
        a practice match, only for a player who is asked to act, only for their newest prompt
        (``seat_step``), one hint at a time. The hint of a seat step is kept (a few thousand, the
        newest): asked again (or played by its Play this button), it is the same; after a restart it is
        searched again with the same seed, so it is the same unless the search ran out of time."""
        ctx = self.ctx
        async with ctx.session(match_id) as delivery:
            found = await ctx.load(match_id, delivery)
            record = found.record if isinstance(found, LiveMatch) else found
            seat = require_seat(record, user_id)
            if not record.practice:
                raise NoHint("Hints are for practice matches (against the computer) only.")
            if not isinstance(found, LiveMatch):
                if record.status is MatchStatus.PENDING:
                    raise WrongStatus(f"Match #{match_id} has not started yet.")
                raise WrongStatus(f"Match #{match_id} is over; there is nothing left to hint.")
            if seat not in found.awaited():
                raise NoHint("It is not your move: a hint is for a move you are asked to make.")
            step = found.seat_steps[seat]
            if seat_step is not None and seat_step != step:
                raise StalePrompt("That hint button is from an earlier move. Use your newest prompt.")
            given = self._hints.get((match_id, seat, step))
            if given is not None:
                return given
            key = (match_id, seat)
            if key in self._hinting:
                raise NoHint("A hint for this move is already being worked out.")
            blob = pickle.dumps(found.state, protocol=pickle.HIGHEST_PROTOCOL)
            seed = _seed(found, seat, "hint")
            names = list(record.names)
            self._hinting.add(key)
        try:
            result = await self._run(
                self.think_limit, think_hint, blob, seat, HINT_LEVEL, seed, _search_limit(self.think_limit)
            )
        except TimeoutError as exc:
            raise NoHint("The hint took too long to work out; please try again.") from exc
        finally:
            self._hinting.discard(key)
        found_hint = Hint(
            match_id,
            record.game,
            seat,
            step,
            " ".join(fill_names(t, names) for t in result.texts),
            result.chance,
            result.action,
            seats=len(names),
            games=result.games,
            tries=result.tries,
            runner_up=result.runner_up,
            runner_up_text=" ".join(fill_names(t, names) for t in result.runner_up_texts),
            runner_up_chance=result.runner_up_chance,
            runner_up_tries=result.runner_up_tries,
            choices=result.choices,
        )
        self._hints[(match_id, seat, step)] = found_hint
        while len(self._hints) > MAX_KEPT_HINTS:
            self._hints.popitem(last=False)
        return found_hint

    # -- the end --------------------------------------------------------------------------------
    async def close(self) -> None:
        for task in list(self._thinking.values()):
            task.cancel()
        await asyncio.gather(*list(self._thinking.values()), return_exceptions=True)
        self._thinking.clear()
        if self._owns_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _search_limit(limit: float) -> float:
    """The search's own time cap inside the worker for a decision the service waits ``limit``
    seconds for: three quarters of it, less the hop to the worker and back, so the worker stops
    searching (and is free for the next decision) before the service gives up waiting. Decisions
    well within budget never reach it and stay a function of their seed."""
    return max(0.2, 0.75 * limit - 0.3)


def _seed(live: LiveMatch, seat: int, salt: str) -> int:
    return decision_seed(live.seed, live.length, seat, salt)


__all__ = ["COMPUTER_NAMES", "LEVELS", "Computer", "Hint", "computer_ref", "is_computer_id"]
