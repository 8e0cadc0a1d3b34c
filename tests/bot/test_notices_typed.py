"""The match service's notices, typed (issue 34 item 2): the outbox rows they store and what the
notifier is told stay exactly as recorded before the seam between them was typed.

The recording (tests/golden/notices.json) plays seeded matches of every game through the public
``MatchService`` API on a fake clock, with every kind of notice: an expired challenge, starts,
moves, prompts (a DM reached the player, so the seat's ``dm_ok`` is learned), reminders, time-outs
(the default played, a forfeit, an abandonment), finishes, deadlines repaired on load; then a second
service on the same database, as after a crash, delivers again every notice the outbox holds
(rebuilt from the matches as they are then; a prompt no longer current skipped). It stores every
outbox row as written (a trigger copies them: kind, payload JSON, times, claims), every notifier
call with its arguments, and the match and seat rows at the end.

    python -m tests.bot.test_notices_typed   # re-record tests/golden/notices.json (only on purpose)
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import random
import sqlite3
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any, get_args

from bot.matches import MatchService, SeatPrompt, TimeoutResult
from bot.matches.notify import (
    NOTICE_ARGS,
    ChallengeExpiredArgs,
    EventsArgs,
    FinishedArgs,
    NoticeArgs,
    NoticeKind,
    Notifier,
    PromptArgs,
    ReminderArgs,
    StartedArgs,
    TimeoutArgs,
    tell,
)
from db import Database, MatchRecord, MatchStatus
from rules.core import Event, Outcome
from rules.registry import get_game
from tests.fakes import Clock, HeardNotice, RecordingNotifier
from tests.running_timer import timer_pass

PATH = Path(__file__).resolve().parents[1] / "golden" / "notices.json.gz"
T0 = 1_700_000_000
GAMES = ("wizards-cup", "firewall", "magic-duel", "arena")
MAX_MOVES = 120

CAPTURE = (
    "CREATE TABLE outbox_copy (id INTEGER, match_id INTEGER, kind TEXT, payload TEXT, created_at INTEGER,"
    " claimed_by TEXT, claimed_until INTEGER)",
    "CREATE TRIGGER outbox_copied AFTER INSERT ON outbox BEGIN INSERT INTO outbox_copy VALUES (NEW.id,"
    " NEW.match_id, NEW.kind, NEW.payload, NEW.created_at, NEW.claimed_by, NEW.claimed_until); END",
)


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


def heard(notice: HeardNotice) -> list[Any]:
    """One notifier call, every argument (the record, events and views as digests)."""
    record = notice.record
    row: list[Any] = [notice.kind, record.id, record.status.value, record.version, digest(asdict(record))]
    if notice.seat is not None:
        row.append(["seat", notice.seat])
    if notice.kind in ("started", "events"):
        row.append(["events", [e.kind for e in notice.events], digest([e.to_json() for e in notice.events])])
        row.append(["view", digest(notice.view)])
    if notice.prompt is not None:
        p = notice.prompt
        decision = None if p.decision is None else type(p.decision).__name__
        row.append(["prompt", p.match_id, p.seat, p.seat_step, p.awaited, p.deadline_at, p.turn_passed, decision])
        row.append(["view", digest(p.view)])
    if notice.deadline is not None:
        row.append(["deadline", notice.deadline])
    if notice.result is not None:
        row.append(["result", notice.result.value])
    if notice.outcome is not None:
        row.append(["outcome", digest(notice.outcome.to_json())])
    return row


def service_on(db: Database, notes: RecordingNotifier, clock: Clock, seed: int) -> MatchService:
    return MatchService(
        db,
        notifier=notes,
        clock=clock,
        challenge_timeout_seconds=900,
        move_timeout_seconds=3600,
        reminder_before_seconds=300,
        seed_factory=lambda: 5000 + seed,
    )


async def play_one(service: MatchService, clock: Clock, game: str, seed: int) -> None:
    """A seeded match of ``game`` played at random, with reminders and time-outs now and then."""
    rng = random.Random(f"notices:{game}:{seed}")
    cls = get_game(game)
    seats = cls.min_seats + seed % (cls.max_seats - cls.min_seats + 1)
    players = [(200 + i, f"P{i + 1}") for i in range(seats)]
    record = await service.create_challenge(game, None, 10, 20, players[0], players[1:])
    for uid, _ in players[1:]:
        clock.now += 5
        await service.accept(record.id, uid)
    for _ in range(MAX_MOVES):
        record = await service.get(record.id)
        if record.status != "active":
            return
        clock.now += 30
        if rng.random() < 0.06:  # somebody sleeps: reminded, then the referee acts
            clock.now += 3300
            await timer_pass(service)
            clock.now += 400
            await timer_pass(service)
            continue
        awaited = []
        for s in range(seats):
            prompt = await service.prompt(record.id, s)
            if prompt.awaited and prompt.decision is not None and len(prompt.decision.choices):
                awaited.append(prompt)
        if not awaited:
            return
        prompt = rng.choice(awaited)
        assert prompt.decision is not None
        choices = prompt.decision.choices
        await service.submit(
            record.id, players[prompt.seat][0], choices[rng.randrange(len(choices))], seat_step=prompt.seat_step
        )
    if rng.random() < 0.5:  # the rest resign
        await service.forfeit(record.id, players[0][0])


async def record_in(folder: Path) -> dict[str, Any]:
    clock = Clock(T0)
    path = folder / "notices.sqlite3"
    db = await Database.open(path, clock=clock)
    for statement in CAPTURE:
        await db.execute(statement)
    notes = RecordingNotifier(dm_ok=True)
    service = service_on(db, notes, clock, 1)
    service.store.flush = _kept  # type: ignore[method-assign]  # every notice stays for the restart below
    again = RecordingNotifier(dm_ok=False)
    try:
        # an expired challenge
        await service.create_challenge("firewall", None, 10, 20, (100, "Ann"), [(101, "Bob")])
        clock.now += 1000
        await timer_pass(service)
        # an abandoned match: nobody moves
        record = await service.create_challenge("firewall", None, 10, 20, (100, "Ann"), [(101, "Bob")])
        await service.accept(record.id, 101)
        clock.now += 3700
        await timer_pass(service)
        # deadlines repaired on load (left without by an older version)
        record = await service.create_challenge("wizards-cup", None, 10, 20, (100, "Ann"), [(101, "Bob")])
        await service.accept(record.id, 101)
        await db.execute("UPDATE seats SET deadline_at = NULL WHERE match_id = ?", (record.id,))
        service.store.drop(record.id)
        await service.prompt(record.id, 0)
        await service.forfeit(record.id, 101)
        for seed, game in enumerate(GAMES * 2):
            clock.now += 100
            await play_one(service, clock, game, seed)
        # matches left in play: their current prompts are delivered again, the older ones skipped
        for seed, game in enumerate(GAMES):
            record = await service.create_challenge(game, None, 10, 20, (100, "Ann"), [(101, "Bob")])
            await service.accept(record.id, 101)
            for _ in range(seed + 1):
                prompt = next(p for p in [await service.prompt(record.id, s) for s in (0, 1)] if p.awaited)
                assert prompt.decision is not None
                action = prompt.decision.choices[0]
                await service.submit(record.id, (100, 101)[prompt.seat], action, seat_step=prompt.seat_step)
        # a restart: a new service delivers what the outbox holds
        clock.now += 60
        restarted = service_on(db, again, clock, 2)
        await restarted.recover()
        await timer_pass(restarted)
    finally:
        await db.close()
    conn = sqlite3.connect(path)
    try:
        outbox = [list(r) for r in conn.execute("SELECT * FROM outbox_copy ORDER BY id")]
        matches = [
            list(r)
            for r in conn.execute(
                "SELECT id, status, seed, started_at, finished_at, expires_at, outcome, summary, version FROM matches"
                " ORDER BY id"
            )
        ]
        seats = [
            list(r)
            for r in conn.execute(
                "SELECT match_id, seat, user_id, accepted, deadline_at, awaited_since, reminded, dm_ok FROM seats"
                " ORDER BY match_id, seat"
            )
        ]
        left = conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
    finally:
        conn.close()
    return {
        "outbox": outbox,
        "heard": [heard(n) for n in notes.notices],
        "heard_again": [heard(n) for n in again.notices],
        "matches": matches,
        "seats": seats,
        "outbox_left": left,
    }


async def _kept() -> None:
    return None


async def test_notices_are_stored_and_told_as_recorded() -> None:
    with gzip.open(PATH, "rt", encoding="utf-8") as f:
        recorded = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        now = json.loads(json.dumps(await record_in(Path(tmp))))
    kinds = {row[2] for row in now["outbox"]}
    assert kinds == set(get_args(NoticeKind))  # every kind is in the recording
    assert {n[0] for n in now["heard_again"]} == kinds  # and every kind is delivered again
    for key in ("outbox", "matches", "seats", "outbox_left"):
        assert now[key] == recorded[key], key
    assert len(now["heard"]) == len(recorded["heard"])
    for i, (a, b) in enumerate(zip(now["heard"], recorded["heard"], strict=True)):
        assert a == b, i
    assert now["heard_again"] == recorded["heard_again"]


# -- the typed seam -------------------------------------------------------------------------------


def test_every_kind_has_its_arguments_and_a_notifier_method() -> None:
    """The dispatch table covers every stored kind, each with the arguments of that kind, told to
    the Notifier method named after it; the union of arguments is the table's."""
    assert set(NOTICE_ARGS) == set(get_args(NoticeKind))
    assert set(NOTICE_ARGS.values()) == set(get_args(NoticeArgs))
    for kind, args in NOTICE_ARGS.items():
        assert args.kind == kind
        assert callable(getattr(Notifier, f"on_{kind}", None)), kind


def _record() -> MatchRecord:
    return MatchRecord(7, "firewall", {}, 1, 10, 20, MatchStatus.ACTIVE, 100, T0, T0, None, None, None, None, None, ())


async def test_each_kind_is_told_to_its_notifier_method_with_its_arguments() -> None:
    record = _record()
    events = (Event("played", "{p1} played"),)
    view = {"board": [1, 2]}
    prompt = SeatPrompt(7, 1, 3, True, T0 + 60, None, {"hand": []}, turn_passed=False)
    outcome = Outcome.single_winner(2, 0, "won the race")
    cases: list[tuple[NoticeArgs, HeardNotice]] = [
        (StartedArgs(events, view), HeardNotice("started", record, events=events, view=view)),
        (EventsArgs(events, view), HeardNotice("events", record, events=events, view=view)),
        (PromptArgs(prompt), HeardNotice("prompt", record, seat=1, prompt=prompt)),
        (ReminderArgs(1, T0 + 60), HeardNotice("reminder", record, seat=1, deadline=T0 + 60)),
        (
            TimeoutArgs(0, TimeoutResult.FORFEIT),
            HeardNotice("timeout", record, seat=0, result=TimeoutResult.FORFEIT),
        ),
        (FinishedArgs(outcome), HeardNotice("finished", record, outcome=outcome)),
        (ChallengeExpiredArgs(), HeardNotice("challenge_expired", record)),
    ]
    assert {type(args) for args, _ in cases} == set(get_args(NoticeArgs))
    notes = RecordingNotifier(dm_ok=True)
    answers = [await tell(notes, record, args) for args, _ in cases]
    assert notes.notices == [expected for _, expected in cases]
    assert answers == [None, None, True, None, None, None, None]  # on_prompt's answer: the DM reached the player


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = asyncio.run(record_in(Path(tmp)))
    with gzip.open(PATH, "wt", encoding="utf-8") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"recorded {len(data['outbox'])} outbox rows, {len(data['heard'])} + {len(data['heard_again'])} calls")


if __name__ == "__main__":
    main()
