"""A tournament's rounds run in the background (issue 18): the player whose move ends a round and
the organizer who starts the tournament get their answer before the next round's matches are
started (each start opens a thread at Discord's pace in production: here a notifier whose
``on_started`` waits on an Event the test controls); ``settle()`` waits for that work; a crash in
between loses nothing (the start-up's recovery, or the timer's tick, starts the round).

``tick()`` is called by hand in the first tests; the last ones (the running client's own tournament
timer) build the bot as ``python -m bot`` builds it (``build_bot``, timers on), on the real clock,
and nobody calls a tick: ``tick_tournaments`` is watched (counted, then the real one runs), never
driven. It does what these tests and tests/cogs/test_discord_tournament.py drive by hand: a tournament
created with ``/tournament create start_time:5s`` stays in sign-up until its planned time, then the
loop (every ``TOURNAMENT_TICK_SECONDS``) starts it; a match result alone is not urgent (the
presenter leaves it for the timer) and is delivered on the loop's next tick; a round start that
failed is retried."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.client import TOURNAMENT_TICK_SECONDS, build_bot
from bot.matches import MatchService, MatchStatus, NullNotifier
from bot.settings import Settings
from bot.tournaments.service import TournamentService
from db import Database
from db.tournaments import TournamentStatus
from tests.bot.tournament_env import CHANNEL, GUILD, ORG, QUICK, T0, TURN
from tests.cogs.tournament_flows import create, said
from tests.conftest import DbTarget
from tests.discord_flows import setup_players
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.fakes import Clock
from tests.running_timer import eventually, tournament_timer_pass

QUICKLY = 10.0


class SlowStarts(NullNotifier):
    """A notifier whose match starts wait for ``gate`` (open unless the test closes it)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()
        self.started: list[int] = []  # the matches whose start was delivered, in order
        self.waiting = 0  # starts waiting at the gate now

    async def on_started(self, record: Any, events: Sequence[Any], view: Mapping[str, Any]) -> None:
        self.waiting += 1
        try:
            await self.gate.wait()
        finally:
            self.waiting -= 1
        self.started.append(record.id)


class Env:
    def __init__(self, path: Path) -> None:
        self.target = DbTarget("sqlite", str(path))
        self.clock = Clock(T0)
        self.notifier = SlowStarts()

    async def open(self, notifier: NullNotifier | None = None) -> None:
        self.db: Database = await self.target.open(clock=self.clock)
        self.matches = MatchService(
            self.db,
            notifier=notifier if notifier is not None else self.notifier,
            clock=self.clock,
            move_timeout_seconds=TURN,
            seed_factory=lambda: 7,
        )
        self.service = TournamentService(self.db, self.matches, seed_factory=lambda: 11)

    async def close(self) -> None:
        self.notifier.gate.set()
        await self.service.shutdown(grace=QUICKLY)
        self.service.close()
        await self.matches.close()
        await self.db.close()

    async def make(self, n: int, rounds: int = 2) -> int:
        rec = await self.service.create(
            GUILD, CHANNEL, ORG, "firewall", "swiss", rounds=rounds, options=QUICK["firewall"]
        )
        for i in range(1, n + 1):
            await self.service.join(rec.id, (i, f"P{i}"))
        return rec.id

    async def round_matches(self, tid: int) -> tuple[int, list[int]]:
        """The current round's number and its (latest) matches."""
        view = await self.service.view(tid)
        t = view.tournament
        assert t is not None and t.current_round is not None
        return t.current_round.number, [link.match_id for link in view.current_links().values()]

    async def active(self, match_ids: list[int]) -> int:
        statuses = [(await self.matches.get(mid)).status for mid in match_ids]
        return statuses.count(MatchStatus.ACTIVE)


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    found = Env(tmp_path / "bot.sqlite3")
    await found.open()
    yield found
    await found.close()


async def pick(env: Env, mid: int, rng: random.Random) -> tuple[int, Any, Any] | None:
    m = await env.matches.get(mid)
    if m.status is not MatchStatus.ACTIVE:
        return None
    seats = list(range(len(m.seats)))
    rng.shuffle(seats)
    for s in seats:
        p = await env.matches.prompt(mid, s)
        if p.awaited and p.decision is not None and p.decision.choices:
            return m.seats[s].user_id, p.decision.choices[rng.randrange(len(p.decision.choices))], p.seat_step
    return None


async def move(env: Env, mid: int, rng: random.Random) -> bool:
    choice = await pick(env, mid, rng)
    if choice is None:
        return False
    user, action, step = choice
    await env.matches.submit(mid, user, action, seat_step=step)
    return True


async def last_move_of_round(env: Env, tid: int, rng: random.Random) -> tuple[int, int]:
    """Play the current round's matches to their end but one, and that one until its player
    only has to forfeit to end it: returns (match, player) whose forfeit ends the round."""
    _, matches = await env.round_matches(tid)
    for mid in matches[:-1]:
        while await move(env, mid, rng):
            pass
    for _ in range(3):  # a few moves in the last match too
        await move(env, matches[-1], rng)
    m = await env.matches.get(matches[-1])
    assert m.status is MatchStatus.ACTIVE
    return matches[-1], m.seats[0].user_id


async def test_the_move_that_ends_a_round_returns_before_the_next_round_starts(env: Env) -> None:
    tid = await env.make(8)
    await env.service.start(tid, ORG)
    await env.service.settle()
    number, first = await env.round_matches(tid)
    assert number == 1 and await env.active(first) == 4
    rng = random.Random(1)
    for mid in first[:-1]:
        while await move(env, mid, rng):
            pass
    await env.service.settle()
    env.notifier.gate.clear()  # from now on, a match start takes until the test says so
    last = first[-1]
    while (await env.matches.get(last)).status is MatchStatus.ACTIVE:
        choice = await pick(env, last, rng)
        assert choice is not None
        user, action, step = choice
        # every move returns at once, the round's last too (held up: it would wait for the gate)
        await asyncio.wait_for(env.matches.submit(last, user, action, seat_step=step), QUICKLY)
    for _ in range(200):  # let the background go as far as it can: to the first start's gate
        if env.notifier.waiting:
            break
        await asyncio.sleep(0.01)
    assert env.notifier.waiting == 1
    number, second = await env.round_matches(tid)
    assert number == 2  # round 2 is paired (committed) ...
    assert not any(m in env.notifier.started for m in second)  # ... but none of its starts delivered
    # its matches are made (pending) and the round announced before any of them starts
    assert len(second) == 4
    assert [e.payload["round"] for e in await env.service.events(tid) if e.kind == "round_started"] == [1, 2]
    env.notifier.gate.set()
    await asyncio.wait_for(env.service.settle(), QUICKLY)
    number, second = await env.round_matches(tid)
    assert number == 2 and len(second) == 4 and await env.active(second) == 4
    assert all(m in env.notifier.started for m in second)
    assert [e.payload["round"] for e in await env.service.events(tid) if e.kind == "round_started"] == [1, 2]


async def test_the_organizers_start_returns_before_round_one_is_started(env: Env) -> None:
    tid = await env.make(8)
    env.notifier.gate.clear()
    view = await asyncio.wait_for(env.service.start(tid, ORG), QUICKLY)
    assert view.status is TournamentStatus.RUNNING
    t = view.tournament
    assert t is not None and t.current_round is not None and t.current_round.number == 1  # paired, committed
    assert len(t.current_round.matches) == 4
    assert env.notifier.started == []  # no match start delivered yet
    env.notifier.gate.set()
    await asyncio.wait_for(env.service.settle(), QUICKLY)
    _, first = await env.round_matches(tid)
    assert len(first) == 4 and await env.active(first) == 4 and sorted(env.notifier.started) == sorted(first)
    assert [e.kind for e in await env.service.events(tid)].count("round_started") == 1


async def test_asks_while_the_background_runs_make_it_run_once_more_not_once_each(env: Env) -> None:
    tid = await env.make(4)
    runs = 0
    real = env.service.reconcile

    async def counting(tournament_id: int) -> None:
        nonlocal runs
        runs += 1
        await real(tournament_id)

    env.service.reconcile = counting  # type: ignore[method-assign]
    env.notifier.gate.clear()
    await env.service.start(tid, ORG)
    for _ in range(200):
        if env.notifier.waiting:
            break
        await asyncio.sleep(0.01)
    assert runs == 1 and env.notifier.waiting == 1  # the first run waits at the gate
    for _ in range(5):
        env.service.schedule(tid)
    env.notifier.gate.set()
    await env.service.settle()
    assert runs == 2


@pytest.mark.parametrize("how", ["recover", "tick"])
async def test_a_crash_between_the_round_over_and_the_next_round_started_loses_nothing(
    env: Env, how: str, caplog: Any
) -> None:
    tid = await env.make(8)
    await env.service.start(tid, ORG)
    await env.service.settle()
    mid, player = await last_move_of_round(env, tid, random.Random(2))
    await env.service.settle()
    env.notifier.gate.clear()
    await env.matches.forfeit(mid, player, "left")  # round 1 is over
    for _ in range(200):
        if env.notifier.waiting:
            break
        await asyncio.sleep(0.01)
    assert env.notifier.waiting == 1
    # the process dies while round 2's first match is being started: the background is cancelled
    await env.service.shutdown(grace=0)
    assert env.notifier.waiting == 0
    env.service.close()
    env.notifier.gate.set()
    await env.matches.close()
    await env.db.close()
    # the restart
    await env.open(NullNotifier())
    await env.matches.recover()
    if how == "recover":
        await env.service.recover()
    else:
        await tournament_timer_pass(env.service)
    await env.service.settle()
    number, second = await env.round_matches(tid)
    assert number == 2 and len(second) == 4 and await env.active(second) == 4
    view = await env.service.view(tid)
    assert view.tournament is not None and view.tournament.rounds[0].matches[-1].result is not None
    assert [e.payload["round"] for e in await env.service.events(tid) if e.kind == "round_started"] == [1, 2]
    # and the tournament plays on to its champion
    rng = random.Random(3)
    for _ in range(50):
        await env.service.settle()
        view = await env.service.view(tid)
        if view.status is not TournamentStatus.RUNNING:
            break
        for link in view.current_links().values():
            while await move(env, link.match_id, rng):
                pass
    assert view.status is TournamentStatus.FINISHED


async def test_a_failure_in_the_background_is_logged_and_the_tick_retries(env: Env, caplog: Any) -> None:
    tid = await env.make(4)
    real = env.matches.start_arranged
    failing = True

    async def flaky(match_id: int) -> Any:
        if failing:
            raise RuntimeError("Discord is down")
        return await real(match_id)

    env.matches.start_arranged = flaky  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="bot.tournaments"):
        await env.service.start(tid, ORG)
        await env.service.settle()
    assert any("in the background failed" in r.getMessage() for r in caplog.records)
    failing = False
    await tournament_timer_pass(env.service)
    await env.service.settle()
    _, first = await env.round_matches(tid)
    assert len(first) == 2 and await env.active(first) == 2


# -- the running client's own tournament timer --------------------------------------------------

START_IN = 5  # seconds from /tournament create to the planned start (start_time)


def _settings(path: Path) -> Settings:
    return Settings(discord_token="t", database_path=str(path), render_images=False, timer_seconds=1.0)


def _announced(h: Any, ch: Any, text: str) -> list[Any]:
    return [m for m in h.messages_in(ch) if text in m.text()]


@pytest.mark.slow
async def test_the_client_s_tournament_timer_starts_a_planned_tournament_and_delivers_a_result(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(_settings(path), db)  # timers on, as the bot runs
    begun: list[float] = []  # when each of the loop's ticks began (real clock)
    ticks: list[float] = []  # ... and ended
    real = bot.tick_tournaments

    async def counted() -> None:  # watched, not driven: the loop calls it
        begun.append(time.monotonic())
        await real()
        ticks.append(time.monotonic())

    bot.tick_tournaments = counted  # type: ignore[method-assign]
    try:
        h = await discord_harness(bot)
        task = bot._tournament_task
        assert task is not None and task.get_name() == "tournament timers" and not task.done()
        assert await eventually(lambda: _true(len(ticks) >= 1), 10)  # its first run, at start-up

        guild, ch, ann, bob = setup_players(h)
        players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
        by_id = {p.id: p for p in players}
        r = await create(h, ch, ann, rounds=2, start_time=f"{START_IN}s")
        msg = r.message
        tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
        for user in players:
            await h.click(user, msg, label="Join")
        await h.settle()

        # before the planned time: the sign-up is open, nothing started (the loop ran, did nothing)
        rec = await bot.tournaments.record(tid)
        planned = rec.start_at
        assert planned is not None and bot.tournaments.now() < planned
        assert rec.status is TournamentStatus.SIGNUP and len(rec.entrants) == 4
        assert {b.get("label") for b in msg.buttons} == {"Join", "Leave"} and "Sign-up open" in msg.text()
        assert h.threads(ch) == [] and not _announced(h, ch, "round 1 of 2 starts")
        assert (await bot.tournaments.view(tid)).current_links() == {}
        assert ticks  # the loop has been running all along

        # nobody calls a tick: the loop starts the tournament once its time has come
        ticks_before_start = len(begun)

        async def started() -> bool:
            view = await bot.tournaments.view(tid)
            links = view.current_links()
            return (
                view.status is TournamentStatus.RUNNING
                and len(links) == 2
                and len(h.threads(ch)) == 2
                and bool(_announced(h, ch, "round 1 of 2 starts"))
            )

        assert await eventually(started, START_IN + 2 * TOURNAMENT_TICK_SECONDS + 10)
        await bot.tournaments.settle()
        await h.settle()
        rec = await bot.tournaments.record(tid)
        assert rec.status is TournamentStatus.RUNNING and rec.start_at is None
        (started_event,) = [e for e in await bot.tournaments.events(tid) if e.kind == "started"]
        assert started_event.created_at >= planned  # not before its time
        assert len(begun) > ticks_before_start  # the loop did it
        # the message: its buttons gone, the round with its matches' threads (an edit the presenter
        # may defer to the end of its edit window, EDIT_EVERY seconds)
        assert await eventually(lambda: _true("Round 1 of 2" in msg.text() and "live in <#" in msg.text()), 10)
        assert msg.components == []
        assert len(_announced(h, ch, "round 1 of 2 starts")) == 1
        view = await bot.tournaments.view(tid)
        match_ids = sorted(link.match_id for link in view.current_links().values())
        for match_id in match_ids:
            assert (await bot.service.get(match_id)).status is MatchStatus.ACTIVE

        # one match ends (a player forfeits) just after a tick: the result is recorded at once but
        # (not urgent) left for the timer; the loop's next tick shows it on the message
        first = match_ids[0]
        seats = [s.user_id for s in (await bot.service.get(first)).seats]
        n = len(ticks)
        assert await eventually(lambda: _true(len(ticks) > n), TOURNAMENT_TICK_SECONDS + 10)
        n = len(begun)
        assert not await bot.tournaments.events(tid, pending_only=True)  # nothing left to deliver
        loser = by_id[seats[0]]
        done = await h.slash(loser, ch, "forfeit", {"match": first})
        assert f"You forfeited match #{first}" in said(done)
        await bot.service.settle()
        await bot.tournaments.settle()
        await h.settle()
        assert (await bot.service.get(first)).status is MatchStatus.FINISHED
        pending = [e.kind for e in await bot.tournaments.events(tid, pending_only=True)]
        assert len(begun) == n, "the timer ticked before the result could be seen undelivered"
        assert "match_result" in pending and "wins" not in msg.text()

        async def shown() -> bool:
            return "wins" in msg.text() and not await bot.tournaments.events(tid, pending_only=True)

        assert await eventually(shown, TOURNAMENT_TICK_SECONDS + 10)
        assert len(begun) > n  # delivered by the loop's tick
        assert (await bot.tournaments.record(tid)).status is TournamentStatus.RUNNING  # round 2 not yet
        assert not h.violations
        await h.close()
    finally:
        await db.close()


async def _true(value: bool) -> bool:
    return value


@pytest.mark.slow
async def test_the_client_s_tournament_timer_retries_a_round_start_that_failed(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    """What tests/bot/test_tournament_background.py drives with ``tick()`` by hand (a round's matches
    whose start failed in the background are started by the next tick), done by the running
    client's own tournament loop: the first starts fail, nobody calls a tick, the matches start."""
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(_settings(path), db)  # timers on, as the bot runs
    matches = bot.tournaments.matches
    real = matches.start_arranged
    failures = 0
    failed_at = 0.0
    begun: list[float] = []
    tick = bot.tick_tournaments

    async def flaky(match_id: int) -> Any:  # the first two starts fail (a Discord outage, say)
        nonlocal failures, failed_at
        if failures < 2:
            failures += 1
            failed_at = time.monotonic()
            raise RuntimeError("starting failed")
        return await real(match_id)

    async def watched() -> None:  # watched, not driven: the loop calls it
        begun.append(time.monotonic())
        await tick()

    matches.start_arranged = flaky  # type: ignore[method-assign]
    bot.tick_tournaments = watched  # type: ignore[method-assign]
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
        r = await create(h, ch, ann, rounds=2, start_time=f"{START_IN}s")
        tid = int(r.message.buttons[0]["custom_id"].rsplit(":", 1)[1])
        for user in players:
            await h.click(user, r.message, label="Join")
        await h.settle()

        async def all_started() -> bool:
            links = (await bot.tournaments.view(tid)).current_links()
            if len(links) != 2:
                return False
            statuses = [(await bot.service.get(link.match_id)).status for link in links.values()]
            return all(s is MatchStatus.ACTIVE for s in statuses)

        assert await eventually(all_started, START_IN + 4 * TOURNAMENT_TICK_SECONDS + 10)
        assert failures == 2  # the first attempt failed ...
        assert any(t > failed_at for t in begun)  # ... and a later tick of the loop's own retried
        await h.close()
    finally:
        await db.close()
