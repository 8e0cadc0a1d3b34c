"""MatchService with the toy game: challenges, moves, stale prompts, durability, timers, recovery."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.matches import (
    InvalidChallenge,
    MatchNotFound,
    MatchService,
    NotAPlayer,
    NotSaved,
    StalePrompt,
    TimeoutResult,
    WrongStatus,
)
from db import Database, MatchRecord, MatchStatus
from rules.core import Awaiting, Result, fill_names
from rules.errors import IllegalAction, MalformedAction, NotYourTurn
from tests.conftest import DbTarget
from tests.fakes import Clock, RecordingNotifier
from tests.running_timer import timer_pass

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

T0 = 1_700_000_000
ANN, BOB, CY, DEE = (1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Dee")
GAME = "toy-guess"


@dataclass
class Env:
    db: Database
    service: MatchService
    notes: RecordingNotifier
    clock: Clock
    target: DbTarget

    async def challenge(
        self, *opponents: tuple[int, str], options: dict[str, Any] | None = None, challenger=ANN
    ) -> MatchRecord:
        return await self.service.create_challenge(GAME, options, 10, 20, challenger, list(opponents or [BOB]))

    async def started(self, *opponents: tuple[int, str], options: dict[str, Any] | None = None) -> MatchRecord:
        record = await self.challenge(*opponents, options=options)
        for uid, _ in opponents or [BOB]:
            result = await self.service.accept(record.id, uid)
        assert result.started
        return result.record

    async def guess(self, match_id: int, user: tuple[int, str], number: int, step: int | None = None):
        seat = (await self.service.get(match_id)).seat_of(user[0])
        assert seat is not None
        if step is None:
            step = await self.service.seat_step(match_id, seat)
        return await self.service.submit(match_id, user[0], {"type": "guess", "number": number}, seat_step=step)

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Read through a second, independent connection: only committed data is visible."""
        return self.target.sql(query, *params)

    def stored_actions(self, match_id: int) -> list[tuple[Any, ...]]:
        return self.sql("SELECT idx, seat, action, auto FROM actions WHERE match_id = ? ORDER BY idx", match_id)


def make_service(db: Database, notes: RecordingNotifier, clock: Clock, seed: int = 7) -> MatchService:
    return MatchService(
        db,
        notifier=notes,
        clock=clock,
        challenge_timeout_seconds=900,
        move_timeout_seconds=3600,
        reminder_before_seconds=300,
        seed_factory=lambda: seed,
    )


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    clock = Clock(T0)
    db = await target.open(clock=clock)
    notes = RecordingNotifier()
    yield Env(db, make_service(db, notes, clock), notes, clock, target)
    await db.close()


# -- challenges ------------------------------------------------------------------------------


async def test_create_challenge(env: Env) -> None:
    record = await env.challenge(BOB, options={"high": 5})
    assert record.status is MatchStatus.PENDING
    assert record.expires_at == T0 + 900 and record.created_at == T0
    assert record.options == {"high": 5, "rounds": 1, "follow_up": False}  # validated and complete
    assert [(s.user_id, s.display_name, s.accepted) for s in record.seats] == [(1, "Ann", True), (2, "Bob", False)]
    assert record.seed is None and record.guild_id == 10 and record.channel_id == 20


async def test_invalid_challenges(env: Env) -> None:
    with pytest.raises(InvalidChallenge, match="yourself"):
        await env.challenge(ANN)
    with pytest.raises(InvalidChallenge, match="twice"):
        await env.challenge(BOB, BOB)
    with pytest.raises(InvalidChallenge, match="at least one"):
        await env.service.create_challenge(GAME, None, 10, 20, ANN, [])
    with pytest.raises(MalformedAction, match="Unknown game"):
        await env.service.create_challenge("chess", None, 10, 20, ANN, [BOB])
    with pytest.raises(MalformedAction, match="high"):
        await env.challenge(BOB, options={"high": 99})
    with pytest.raises(MalformedAction, match="colour"):
        await env.challenge(BOB, options={"colour": "red"})
    with pytest.raises(InvalidChallenge, match="at most 4 players; you named 5"):
        await env.challenge(BOB, CY, DEE, (5, "Eve"))
    assert env.sql("SELECT COUNT(*) FROM matches") == [(0,)]


async def test_accept_starts_the_match_with_chance_persisted(env: Env) -> None:
    record = await env.challenge(BOB)
    with pytest.raises(NotAPlayer):
        await env.service.accept(record.id, CY[0])
    with pytest.raises(InvalidChallenge, match="made this challenge"):
        await env.service.accept(record.id, ANN[0])
    with pytest.raises(WrongStatus, match="not started"):
        await env.guess(record.id, ANN, 1, step=0)

    result = await env.service.accept(record.id, BOB[0])
    assert result.started and result.record.status is MatchStatus.ACTIVE
    assert result.record.seed == 7 and result.record.started_at == T0 and result.record.expires_at is None
    assert [e.kind for e in result.events] == ["secret"]
    # the opening chance draw is committed, as a chance row
    (row,) = env.stored_actions(record.id)
    assert row[0] == 0 and row[1] is None and '"type":"secret"' in row[2]
    assert [(s.deadline_at, s.reminded) for s in result.record.seats] == [(T0 + 3600, False)] * 2
    assert env.notes.kinds(record.id) == ["started", "prompt", "prompt"]
    assert [n.seat for n in env.notes.of("prompt")] == [0, 1]
    with pytest.raises(WrongStatus, match="already started"):
        await env.service.accept(record.id, BOB[0])


async def test_three_players_start_when_the_last_accepts(env: Env) -> None:
    record = await env.challenge(BOB, CY)
    first = await env.service.accept(record.id, CY[0])
    assert not first.started and first.record.status is MatchStatus.PENDING
    with pytest.raises(InvalidChallenge, match="already accepted"):
        await env.service.accept(record.id, CY[0])
    second = await env.service.accept(record.id, BOB[0])
    assert second.started and len(second.record.seats) == 3
    assert [n.seat for n in env.notes.of("prompt")] == [0, 1, 2]


async def test_decline_and_cancel(env: Env) -> None:
    declined = await env.challenge(BOB)
    with pytest.raises(NotAPlayer):
        await env.service.decline(declined.id, CY[0])
    assert (await env.service.decline(declined.id, BOB[0])).status is MatchStatus.DECLINED
    with pytest.raises(WrongStatus, match="was declined"):
        await env.service.accept(declined.id, BOB[0])

    withdrawn = await env.challenge(BOB)
    with pytest.raises(NotAPlayer, match="Only the challenger"):
        await env.service.cancel(withdrawn.id, BOB[0])
    assert (await env.service.cancel(withdrawn.id, ANN[0])).status is MatchStatus.CANCELLED
    by_decline = await env.challenge(BOB)
    assert (await env.service.decline(by_decline.id, ANN[0])).status is MatchStatus.CANCELLED
    with pytest.raises(MatchNotFound):
        await env.service.accept(999, BOB[0])


async def test_challenges_expire(env: Env) -> None:
    old = await env.challenge(BOB)
    env.clock.advance(600)
    newer = await env.challenge(CY)
    assert (await timer_pass(env.service)).expired == []
    env.clock.advance(300)  # old is due now, newer is not
    report = await timer_pass(env.service)
    assert report.expired == [old.id]
    assert (await env.service.get(old.id)).status is MatchStatus.EXPIRED
    assert [n.match_id for n in env.notes.of("challenge_expired")] == [old.id]
    assert (await timer_pass(env.service)).expired == []  # idempotent
    # accepting after the expiry time, before a tick: refused, and expired on the spot
    env.clock.advance(600)
    with pytest.raises(WrongStatus, match="expired"):
        await env.service.accept(newer.id, CY[0])
    assert (await env.service.get(newer.id)).status is MatchStatus.EXPIRED
    assert [n.match_id for n in env.notes.of("challenge_expired")] == [old.id, newer.id]


# -- moves -----------------------------------------------------------------------------------


async def test_a_full_match(env: Env) -> None:
    record = await env.started(BOB, options={"high": 3})
    env.notes.clear()
    first = await env.guess(record.id, ANN, 2)
    assert first.awaiting == Awaiting.of(1) and first.prompted == () and not first.finished
    assert [e.kind for e in first.events] == ["guess", "locked_in"]
    assert first.events[0].visible_to == frozenset({0})
    seats = first.record.seats
    assert seats[0].deadline_at is None and seats[1].deadline_at == T0 + 3600

    second = await env.guess(record.id, BOB, 3)
    assert second.finished and second.awaiting.is_terminal
    final = second.record
    assert final.status is MatchStatus.FINISHED and final.finished_at == T0
    assert second.outcome is not None
    assert final.outcome == second.outcome.to_json(["Ann", "Bob"])
    assert final.summary == fill_names(second.outcome.summary, ["Ann", "Bob"])
    assert all(s.deadline_at is None for s in final.seats)
    assert env.notes.kinds(record.id) == ["events", "events", "finished"]
    assert [r[1] for r in env.stored_actions(record.id)] == [None, 0, 1]
    assert await env.service.live_matches_for(ANN[0]) == []
    with pytest.raises(WrongStatus, match="is over"):
        await env.guess(record.id, ANN, 1, step=1)
    # an ended match can still be viewed (rebuilt from its log)
    assert (await env.service.view(record.id, None))["history"][0]["guesses"] == [2, 3]


async def test_only_players_can_act(env: Env) -> None:
    record = await env.started(BOB)
    with pytest.raises(NotAPlayer, match="not a player"):
        await env.service.submit(record.id, CY[0], {"type": "guess", "number": 1}, seat_step=0)
    with pytest.raises(NotAPlayer):
        await env.service.forfeit(record.id, CY[0])
    with pytest.raises(MatchNotFound):
        await env.service.submit(12345, ANN[0], {"type": "guess", "number": 1}, seat_step=None)
    assert len(env.stored_actions(record.id)) == 1


async def test_rules_errors_change_nothing(env: Env) -> None:
    record = await env.started(BOB)
    before = env.stored_actions(record.id)
    with pytest.raises(IllegalAction, match="from 1 to 3"):
        await env.guess(record.id, ANN, 9)
    with pytest.raises(MalformedAction):
        await env.service.submit(record.id, ANN[0], {"type": "shout"}, seat_step=0)
    await env.guess(record.id, ANN, 1)
    with pytest.raises(NotYourTurn):  # Ann already guessed; without a step there is no stale check
        await env.service.submit(record.id, ANN[0], {"type": "guess", "number": 2}, seat_step=None)
    assert len(env.stored_actions(record.id)) == len(before) + 1
    assert await env.service.seat_step(record.id, 0) == 1


async def test_stale_prompts_and_double_clicks_are_refused(env: Env) -> None:
    record = await env.started(BOB)
    with pytest.raises(StalePrompt, match="does not match"):
        await env.guess(record.id, ANN, 1, step=3)
    # a double click: two submissions from the same prompt at once
    results = await asyncio.gather(
        env.guess(record.id, ANN, 1, step=0), env.guess(record.id, ANN, 2, step=0), return_exceptions=True
    )
    assert sum(isinstance(r, StalePrompt) for r in results) == 1
    stale = next(r for r in results if isinstance(r, StalePrompt))
    assert str(stale).startswith("That prompt is out of date:")
    stored = env.stored_actions(record.id)
    assert len(stored) == 2
    # the second prompt again, later: still refused, nothing changed
    with pytest.raises(StalePrompt):
        await env.guess(record.id, ANN, 3, step=0)
    assert env.stored_actions(record.id) == stored
    assert await env.service.seat_step(record.id, 0) == 1
    assert (await env.service.prompt(record.id, 0)).awaited is False


async def test_every_move_is_committed_before_submit_returns(env: Env) -> None:
    """Checked with a second connection from inside the notifications and right after return."""
    seen: list[int] = []

    class Checking(RecordingNotifier):
        async def on_events(self, record, events, awaiting) -> None:
            seen.append(len(env.stored_actions(record.id)))
            await super().on_events(record, events, awaiting)

    env.service.notifier = Checking()
    record = await env.started(BOB, options={"rounds": 2})
    assert len(env.stored_actions(record.id)) == 1
    for user, number, expected in ((ANN, 1, 2), (BOB, 2, 4), (BOB, 3, 5), (ANN, 1, 6)):
        await env.guess(record.id, user, number)
        assert len(env.stored_actions(record.id)) == expected  # round 2's chance draw included
    assert seen == [2, 4, 5, 6]
    assert env.sql("SELECT status FROM matches WHERE id = ?", record.id) == [("finished",)]


async def test_a_failed_commit_is_not_acknowledged_and_the_match_is_rebuilt(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = await env.started(BOB)
    original = env.db.write

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(env.db, "write", broken)
    env.notes.clear()
    with pytest.raises(NotSaved, match="did not count"):
        await env.guess(record.id, ANN, 2, step=0)
    assert len(env.stored_actions(record.id)) == 1
    assert env.notes.notices == []
    monkeypatch.setattr(env.db, "write", original)
    # the same prompt still works: the move never happened
    assert await env.service.seat_step(record.id, 0) == 0
    result = await env.guess(record.id, ANN, 2, step=0)
    assert result.awaiting == Awaiting.of(1)
    assert len(env.stored_actions(record.id)) == 2


async def test_notifier_failures_do_not_undo_moves(env: Env) -> None:
    env.service.notifier = RecordingNotifier(fail={"events", "prompt", "finished"})
    record = await env.started(BOB)
    await env.guess(record.id, ANN, 1)
    result = await env.guess(record.id, BOB, 2)
    assert result.finished
    assert (await env.service.get(record.id)).status is MatchStatus.FINISHED
    assert len(env.stored_actions(record.id)) == 3


async def test_the_notifier_is_handed_what_it_needs_without_calling_back(env: Env) -> None:
    record = await env.started(BOB, options={"rounds": 2})
    prompts = env.notes.of("prompt", record.id)
    assert [(n.seat, n.prompt.seat_step, n.prompt.awaited, len(n.prompt.legal_actions)) for n in prompts] == [
        (0, 0, True, 3),
        (1, 0, True, 3),
    ]
    assert all(n.prompt.turn_passed for n in prompts)
    (started,) = env.notes.of("started", record.id)
    assert started.view == await env.service.view(record.id, None)
    env.notes.clear()
    await env.guess(record.id, ANN, 1)
    (moved,) = env.notes.of("events")
    assert all(e.visible_to is None for e in moved.events)  # public events only
    assert moved.view == await env.service.view(record.id, None)  # the spectator view after the move
    await env.guess(record.id, BOB, 1)
    assert [(n.seat, n.prompt.seat_step) for n in env.notes.of("prompt")] == [(0, 1), (1, 1)]


async def test_a_notifier_reports_whether_dms_reach_a_player(env: Env) -> None:
    env.service.notifier = RecordingNotifier(dm_ok=False)
    record = await env.started(BOB)
    assert [s.dm_ok for s in (await env.service.get(record.id)).seats] == [False, False]
    assert env.sql("SELECT dm_ok FROM seats WHERE match_id = ? ORDER BY seat", record.id) == [(0,), (0,)]


async def test_forfeit(env: Env) -> None:
    record = await env.started(BOB)
    env.notes.clear()
    result = await env.service.forfeit(record.id, BOB[0])
    assert result.finished and result.outcome is not None
    assert [s.result for s in result.outcome.seats] == [Result.WIN, Result.LOSS]
    assert env.notes.kinds(record.id) == ["events", "finished"]
    assert env.stored_actions(record.id)[-1][1:] == (1, '{"reason":"resign","type":"forfeit"}', 0)
    with pytest.raises(WrongStatus):
        await env.service.forfeit(record.id, ANN[0])


async def test_deadline_kept_for_a_seat_still_awaited_on_the_same_step(env: Env) -> None:
    record = await env.started(BOB, options={"rounds": 2})
    env.clock.advance(100)
    after_ann = await env.guess(record.id, ANN, 1)
    assert after_ann.record.seats[1].deadline_at == T0 + 3600  # Bob's deadline is not reset
    assert after_ann.record.seats[0].deadline_at is None
    env.clock.advance(100)
    after_bob = await env.guess(record.id, BOB, 2)  # round 2: both owe a new guess
    assert [s.deadline_at for s in after_bob.record.seats] == [T0 + 200 + 3600] * 2
    assert after_bob.prompted == (0, 1)


# -- timers ----------------------------------------------------------------------------------


async def test_reminders_fire_once(env: Env) -> None:
    record = await env.started(BOB, options={"rounds": 2})
    env.clock.advance(3600 - 301)
    assert (await timer_pass(env.service)).reminders == []
    env.clock.advance(1)
    report = await timer_pass(env.service)
    assert sorted(report.reminders) == [(record.id, 0), (record.id, 1)]
    assert (await timer_pass(env.service)).reminders == []
    assert [(n.seat, n.deadline) for n in env.notes.of("reminder")] == [(0, T0 + 3600), (1, T0 + 3600)]
    # a new step re-arms the reminder
    await env.guess(record.id, ANN, 1)
    await env.guess(record.id, BOB, 1)
    env.clock.advance(3600 - 300)
    assert len((await timer_pass(env.service)).reminders) == 2
    assert len(env.notes.of("reminder")) == 4


async def test_timeout_forfeits_the_silent_seat(env: Env) -> None:
    record = await env.started(BOB)
    await env.guess(record.id, ANN, 2)
    env.clock.advance(3599)
    assert (await timer_pass(env.service)).timeouts == []
    env.clock.advance(1)
    env.notes.clear()
    report = await timer_pass(env.service)
    assert report.timeouts == [(record.id, 1, TimeoutResult.FORFEIT)]
    final = await env.service.get(record.id)
    assert final.status is MatchStatus.FINISHED and final.summary == "Bob ran out of time; Ann wins."
    assert final.outcome is not None and [s["result"] for s in final.outcome["seats"]] == ["win", "loss"]
    assert env.stored_actions(record.id)[-1][1:] == (1, '{"reason":"timeout","type":"forfeit"}', 1)
    assert env.notes.kinds(record.id) == ["timeout", "events", "finished"]
    assert env.notes.of("timeout")[0].result is TimeoutResult.FORFEIT
    assert (await timer_pass(env.service)).timeouts == []


async def test_timeout_plays_the_default_action(env: Env) -> None:
    record = await env.started(BOB, options={"follow_up": True})
    await env.guess(record.id, ANN, 1)
    env.clock.advance(50)
    result = await env.guess(record.id, BOB, 3)
    assert result.awaiting == Awaiting.of(0) and result.prompted == (0,)
    assert result.record.seats[0].deadline_at == T0 + 50 + 3600
    env.clock.advance(3600)
    env.notes.clear()
    report = await timer_pass(env.service)
    assert report.timeouts == [(record.id, 0, TimeoutResult.ACTION_TAKEN)]
    assert env.stored_actions(record.id)[-1][1:] == (0, '{"double":false,"type":"double"}', 1)
    final = await env.service.get(record.id)
    assert final.status is MatchStatus.FINISHED  # the default resolved the round; no forfeit
    assert env.notes.kinds(record.id) == ["timeout", "events", "finished"]


async def test_abandoned_when_nobody_acted(env: Env) -> None:
    record = await env.started(BOB)
    env.clock.advance(3600)
    env.notes.clear()
    report = await timer_pass(env.service)
    assert report.timeouts == [(record.id, 0, TimeoutResult.ABANDONED)]
    final = await env.service.get(record.id)
    assert final.status is MatchStatus.ABANDONED and final.outcome is None and final.finished_at == T0 + 3600
    assert all(s.deadline_at is None for s in final.seats)
    assert env.notes.kinds(record.id) == ["timeout"]
    assert len(env.stored_actions(record.id)) == 1  # no forfeit written
    with pytest.raises(WrongStatus, match="abandoned"):
        await env.guess(record.id, ANN, 1, step=0)


async def test_abandoned_in_a_later_round_when_both_go_silent(env: Env) -> None:
    record = await env.started(BOB, options={"rounds": 2})
    await env.guess(record.id, ANN, 1)
    await env.guess(record.id, BOB, 1)
    env.clock.advance(3600)
    assert (await timer_pass(env.service)).timeouts == [(record.id, 0, TimeoutResult.ABANDONED)]


async def test_silent_follow_up_and_silent_opponent(env: Env) -> None:
    """Round 2: Ann's follow-up defaults, then Bob, who is waited on, forfeits; Ann does not
    count as present because the referee played for her."""
    record = await env.started(BOB, options={"rounds": 2, "follow_up": True})
    await env.guess(record.id, ANN, 1)
    await env.guess(record.id, BOB, 1)
    await env.service.submit(record.id, ANN[0], {"type": "double", "double": False}, seat_step=1)
    await env.guess(record.id, BOB, 2)  # round 2: Bob guessed, Ann is silent
    env.clock.advance(3600)
    report = await timer_pass(env.service)
    assert report.timeouts == [(record.id, 0, TimeoutResult.FORFEIT)]  # Bob is waiting on Ann


async def test_three_players_one_silent(env: Env) -> None:
    record = await env.started(BOB, CY)
    await env.guess(record.id, ANN, 1)
    await env.guess(record.id, CY, 2)
    env.clock.advance(3600)
    assert (await timer_pass(env.service)).timeouts == [(record.id, 1, TimeoutResult.FORFEIT)]
    final = await env.service.get(record.id)
    assert final.outcome is not None
    assert [s["result"] for s in final.outcome["seats"]] == ["win", "loss", "win"]


async def test_run_timers_with_an_injected_sleep(env: Env) -> None:
    record = await env.started(BOB)
    stop = asyncio.Event()
    sleeps: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        env.clock.advance(1650)  # ticks at +0, +1650, +3300 (reminders), +4950 (time-out)
        if len(sleeps) == 4:
            stop.set()

    await asyncio.wait_for(env.service.run_timers(2.5, sleep=fake_sleep, stop=stop), 5)
    assert sleeps == [2.5] * 4
    assert len(env.notes.of("reminder")) == 2
    assert (await env.service.get(record.id)).status is MatchStatus.ABANDONED


# -- recovery --------------------------------------------------------------------------------

MOVES = [(ANN, 1), (BOB, 3), (BOB, 2), (ANN, 2), (ANN, 3), (BOB, 1)]
OPTIONS = {"rounds": 3, "high": 5}


async def play(env: Env, match_id: int, moves: list[tuple[tuple[int, str], int]]) -> None:
    for user, number in moves:
        await env.guess(match_id, user, number)


async def test_restart_recovery_matches_an_uninterrupted_run(target: DbTarget, tmp_path: Path) -> None:
    # uninterrupted reference run (on SQLite, whatever the backend under test)
    clock = Clock(T0)
    ref_target = DbTarget("sqlite", str(tmp_path / "ref.sqlite3"))
    ref_db = await ref_target.open(clock=clock)
    ref = Env(
        ref_db,
        make_service(ref_db, RecordingNotifier(), clock, seed=99),
        RecordingNotifier(),
        clock,
        ref_target,
    )
    ref_record = await ref.started(BOB, options=OPTIONS)
    await play(ref, ref_record.id, MOVES)
    ref_final = await ref.service.get(ref_record.id)
    ref_view = await ref.service.view(ref_record.id, None)
    await ref_db.close()

    # interrupted run: same seed, the service and database are closed mid-match
    path = target.url
    clock = Clock(T0)
    db = await Database.open(path, clock=clock)
    first = Env(db, make_service(db, RecordingNotifier(), clock, seed=99), RecordingNotifier(), clock, target)
    record = await first.started(BOB, options=OPTIONS)
    pending = await first.challenge(CY)
    await play(first, record.id, MOVES[:3])
    await first.service.close()  # a clean shutdown: the delivered notices are gone from the outbox
    await db.close()

    db = await Database.open(path, clock=clock)
    try:
        notes = RecordingNotifier()
        second = Env(db, make_service(db, notes, clock, seed=12345), notes, clock, target)
        recovered = await second.service.recover()
        assert recovered == [record.id]
        assert notes.notices == []  # deadlines were intact: nothing to re-prompt
        assert await second.service.seat_step(record.id, 1) == 2
        assert (await second.service.get(pending.id)).status is MatchStatus.PENDING
        await play(second, record.id, MOVES[3:])
        final = await second.service.get(record.id)
        assert final.status is MatchStatus.FINISHED
        assert (final.seed, final.outcome, final.summary) == (ref_final.seed, ref_final.outcome, ref_final.summary)
        assert await second.service.view(record.id, None) == ref_view
        assert second.stored_actions(record.id) == ref.stored_actions(ref_record.id)
        # the pending challenge kept its expiry across the restart
        clock.advance(900)
        assert (await timer_pass(second.service)).expired == [pending.id]
    finally:
        await db.close()


async def test_recovery_without_a_cache_works_lazily_too(env: Env) -> None:
    record = await env.started(BOB, options={"rounds": 2})
    await env.guess(record.id, ANN, 1)
    fresh = make_service(env.db, env.notes, env.clock)
    result = await fresh.submit(record.id, BOB[0], {"type": "guess", "number": 2}, seat_step=0)
    assert result.awaiting == Awaiting.of(0, 1)


async def test_a_match_loaded_without_deadlines_gets_them_and_the_prompts(env: Env) -> None:
    record = await env.started(BOB)
    await env.db.seats.clear_deadline(record.id, 1)  # as if written by an older version
    await env.service.close()
    env.notes.clear()
    fresh = make_service(env.db, env.notes, env.clock)
    assert await fresh.recover() == [record.id]  # start-up loads nothing...
    assert env.notes.notices == []
    prompt = await fresh.prompt(record.id, 0)  # ...the first touch rebuilds the match and repairs it
    assert prompt.awaited and prompt.deadline_at == T0 + 3600
    assert (await fresh.get(record.id)).seats[1].deadline_at == T0 + 3600
    assert [(n.kind, n.seat) for n in env.notes.notices] == [("prompt", 1)]
    assert env.sql("SELECT deadline_at FROM seats WHERE match_id = ? AND seat = 1", record.id) == [(T0 + 3600,)]


# -- many matches ----------------------------------------------------------------------------


async def test_many_matches_at_once_and_one_player_in_several(env: Env) -> None:
    opponents = [(100 + i, f"P{i}") for i in range(12)]
    records = [await env.started(opp, options={"rounds": 2}) for opp in opponents]
    assert [r.id for r in await env.service.live_matches_for(ANN[0])] == [r.id for r in records]
    pending = await env.challenge(opponents[0])
    assert len(await env.service.live_matches_for(ANN[0])) == 13
    assert len(await env.service.live_matches_for(ANN[0], include_pending=False)) == 12

    async def play_match(record: MatchRecord, opp: tuple[int, str], k: int) -> MatchRecord:
        for user, number in ((ANN, 1 + k % 3), (opp, 3 - k % 3), (opp, 2), (ANN, 1 + (k + 1) % 3)):
            await env.guess(record.id, user, number)
            await asyncio.sleep(0)
        return await env.service.get(record.id)

    pairs = enumerate(zip(records, opponents, strict=True))
    finals = await asyncio.gather(*(play_match(r, o, k) for k, (r, o) in pairs))
    assert all(f.status is MatchStatus.FINISHED for f in finals)
    for record, final in zip(records, finals, strict=True):
        assert [r[1] for r in env.stored_actions(record.id)] == [None, 0, 1, None, 1, 0]
        assert final.outcome is not None
    assert [r.id for r in await env.service.live_matches_for(ANN[0])] == [pending.id]
    assert await env.service.live_matches_for(opponents[3][0]) == []


# -- lobbies: several opponents, open tables, leaving, starting early --------------------------------


async def test_three_player_invitation_starts_when_everyone_accepted(env: Env) -> None:
    record = await env.challenge(BOB, CY)
    first = await env.service.accept(record.id, BOB[0])
    assert not first.started and first.record.status is MatchStatus.PENDING
    second = await env.service.accept(record.id, CY[0])
    assert second.started and second.record.names == ["Ann", "Bob", "Cy"]
    assert second.record.status is MatchStatus.ACTIVE


async def test_a_declining_invitee_leaves_and_the_rest_play_on(env: Env) -> None:
    record = await env.challenge(BOB, CY, DEE)
    await env.service.accept(record.id, BOB[0])
    await env.service.accept(record.id, DEE[0])
    # Cy declines: the seats close up in challenge order, and everyone left has accepted: start
    after = await env.service.decline(record.id, CY[0])
    assert after.status is MatchStatus.ACTIVE
    assert after.names == ["Ann", "Bob", "Dee"]
    assert [s.seat for s in after.seats] == [0, 1, 2]


async def test_declining_a_two_player_challenge_closes_it(env: Env) -> None:
    record = await env.challenge(BOB)
    after = await env.service.decline(record.id, BOB[0])
    assert after.status is MatchStatus.DECLINED


async def test_open_table_join_leave_and_host_start(env: Env) -> None:
    record = await env.service.create_challenge(GAME, None, 10, 20, ANN, [], open_table=True)
    assert record.open_table and record.names == ["Ann"]
    with pytest.raises(InvalidChallenge, match="needs at least 2"):
        await env.service.start_now(record.id, ANN[0])
    joined = await env.service.join(record.id, BOB[0], "Bob")
    assert not joined.started and joined.record.names == ["Ann", "Bob"]
    with pytest.raises(InvalidChallenge, match="already have a seat"):
        await env.service.join(record.id, BOB[0], "Bob")
    await env.service.join(record.id, CY[0], "Cy")
    left = await env.service.leave(record.id, BOB[0])
    assert left.status is MatchStatus.PENDING and left.names == ["Ann", "Cy"]
    with pytest.raises(NotAPlayer, match="Only the host"):
        await env.service.start_now(record.id, CY[0])
    started = await env.service.start_now(record.id, ANN[0])
    assert started.started and started.record.names == ["Ann", "Cy"]
    assert env.notes.kinds(record.id)[0] == "started"
    with pytest.raises(WrongStatus):
        await env.service.join(record.id, DEE[0], "Dee")


async def test_open_table_starts_itself_when_full(env: Env) -> None:
    record = await env.service.create_challenge(GAME, None, 10, 20, ANN, [BOB], open_table=True)
    await env.service.accept(record.id, BOB[0])  # invited and accepted, but the table is still open
    assert (await env.service.get(record.id)).status is MatchStatus.PENDING
    await env.service.join(record.id, CY[0], "Cy")
    result = await env.service.join(record.id, DEE[0], "Dee")  # toy-guess seats at most 4
    assert result.started and result.record.names == ["Ann", "Bob", "Cy", "Dee"]


async def test_host_starts_without_invitees_who_did_not_answer(env: Env) -> None:
    record = await env.challenge(BOB, CY)
    await env.service.accept(record.id, CY[0])
    result = await env.service.start_now(record.id, ANN[0])
    assert result.started and result.record.names == ["Ann", "Cy"]
    assert env.sql("SELECT user_id FROM seats WHERE match_id = ? ORDER BY seat", record.id) == [(1,), (3,)]


async def test_lobby_refusals(env: Env) -> None:
    invite = await env.challenge(BOB)
    with pytest.raises(InvalidChallenge, match="invitation only"):
        await env.service.join(invite.id, CY[0], "Cy")
    with pytest.raises(NotAPlayer):
        await env.service.leave(invite.id, CY[0])
    with pytest.raises(InvalidChallenge, match="open the table"):
        await env.service.create_challenge(GAME, None, 10, 20, ANN, [])
    table = await env.service.create_challenge(GAME, None, 10, 20, ANN, [BOB, CY, DEE], open_table=True)
    with pytest.raises(InvalidChallenge, match="full"):
        await env.service.join(table.id, 5, "Eve")
    # the host leaving withdraws the table
    assert (await env.service.leave(table.id, ANN[0])).status is MatchStatus.CANCELLED


async def test_silence_after_your_own_move_forfeits_when_the_others_wait(env: Env) -> None:
    """Arena: Player 1 makes several moves in a row in their Action Phase, then goes silent (no
    default there). Bob moved earlier and is waiting on Ann: she forfeits; the match is not abandoned."""
    record = await env.service.create_challenge("arena", {"terrain_setup": "random"}, 10, 20, ANN, [BOB])
    await env.service.accept(record.id, BOB[0])
    users = {0: ANN[0], 1: BOB[0]}
    for _ in range(60):  # set-up and Ann's Start Phase with the first legal choices
        view = await env.service.view(record.id, None)
        if view["phase"] == "action" and view["active"] == 0:
            break
        for seat in (0, 1):
            sp = await env.service.prompt(record.id, seat)
            if sp.awaited:
                await env.service.submit(record.id, users[seat], sp.legal_actions[0], seat_step=None)
                break
    select = next(a for a in (await env.service.prompt(record.id, 0)).legal_actions if a.type == "select_model")
    await env.service.submit(record.id, ANN[0], select, seat_step=None)
    env.clock.advance(3601)
    report = await timer_pass(env.service)
    assert report.timeouts == [(record.id, 0, TimeoutResult.FORFEIT)]
    finished = await env.service.get(record.id)
    assert finished.status is MatchStatus.FINISHED
    assert [s["result"] for s in finished.outcome["seats"]] == [Result.LOSS, Result.WIN]


async def test_leftover_notices_wait_out_a_database_outage(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """A notice a crash left in the outbox, met by a database outage while the timer delivers it,
    is kept for the next run (not counted as delivered and deleted): nothing a player must be told
    is lost to the outage."""
    from db import DatabaseUnavailable

    record = await env.started(BOB)
    await env.db.execute(
        "INSERT INTO outbox (match_id, kind, payload, created_at) VALUES (?, 'prompt', ?, ?)",
        (record.id, '{"seat": 1, "seat_step": 0, "turn_passed": true}', T0),
    )
    await env.service.close()
    env.notes.clear()
    fresh = make_service(env.db, env.notes, env.clock)
    await fresh.recover()
    real = fresh.store.live

    async def down(*args: Any, **kwargs: Any) -> Any:
        raise DatabaseUnavailable("the database cannot be reached")

    monkeypatch.setattr(fresh.store, "live", down)
    await fresh.deliver_leftovers()  # the outage: nothing delivered, nothing given up
    assert env.notes.notices == []
    monkeypatch.setattr(fresh.store, "live", real)
    await timer_pass(fresh)  # the next run of the timer, the database back
    assert [(n.kind, n.seat) for n in env.notes.notices] == [("prompt", 1)]
    await timer_pass(fresh)
    assert env.sql("SELECT COUNT(*) FROM outbox") == [(0,)]
