"""bot.replays.ReplayService on a real SQLite database (in memory), filled through the public
MatchService API: which matches may be replayed and by whom, steps that follow the resolutions of
the game and hold every event once, the spectator and the seat views of a live match, every secret
revealed once it is over, a cache that rebuilds only when the match moved, and that nothing is
written."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.matches import MatchService
from bot.replays import MatchReplay, ReplayRefused, ReplayService, build_steps
from cogs.games import get_ui
from cogs.replay import STORY_CHARS, paginate
from db import Database, MatchStatus
from rules.match import Match
from rules.story import notice_kinds, story_lines
from tests.bot.stats_env import changes_so_far
from tests.conftest import DbTarget
from tests.fakes import Clock
from tests.running_timer import timer_pass

T0 = 1_750_000_000
GUILD_A, GUILD_B = 111, 222
ANN, BOB, CY = (1, "ann"), (2, "bob"), (3, "cy")
WC_STORY = get_ui("wizards-cup").story_kinds


@dataclass
class Env:
    db: Database
    service: MatchService
    replays: ReplayService
    clock: Clock

    async def start(self, game: str, guild: int | None = GUILD_A) -> int:
        self.clock.now += 60
        record = await self.service.create_challenge(game, None, guild, 5, ANN, [BOB])
        await self.service.accept(record.id, BOB[0])
        return record.id

    async def moves(self, match_id: int, rng: random.Random, n: int = 10_000) -> None:
        """Up to ``n`` random legal moves through the service (until the match is over)."""
        done = 0
        while done < n and (record := await self.service.get(match_id)).status is MatchStatus.ACTIVE:
            for seat, s in enumerate(record.seats):
                prompt = await self.service.prompt(match_id, seat)
                if prompt.awaited:
                    legal = prompt.legal_actions
                    await self.service.submit(match_id, s.user_id, legal[rng.randrange(len(legal))], seat_step=None)
                    done += 1
                    break
        await self.service.settle()


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    clock = Clock(T0)
    db = await Database.open(target.memory_url, clock=clock)
    seeds = iter(range(4242, 100_000))
    service = MatchService(db, clock=clock, seed_factory=lambda: next(seeds))
    yield Env(db, service, ReplayService(db), clock)
    await db.close()


async def changes(db: Database) -> Any:
    return await changes_so_far(db)


async def test_who_may_replay_what(env: Env) -> None:
    live = await env.start("wizards-cup")
    dm = await env.start("firewall", guild=None)
    env.clock.now += 60
    pending = await env.service.create_challenge("wizards-cup", None, GUILD_A, 5, ANN, [BOB])
    before = await changes(env.db)
    # a live match of the server: anyone there; in another server nobody, not even its players
    # (servers are kept apart: the words of a missing id); in a DM, its players
    assert (await env.replays.replayable(live, guild_id=GUILD_A, user_id=CY[0])).id == live
    for who in (ANN, CY):
        with pytest.raises(ReplayRefused, match=rf"^There is no match #{live} in this server\.$"):
            await env.replays.replayable(live, guild_id=GUILD_B, user_id=who[0])
    assert (await env.replays.replayable(live, guild_id=None, user_id=ANN[0])).id == live
    assert (await env.replays.replayable(dm, guild_id=None, user_id=BOB[0])).id == dm
    with pytest.raises(ReplayRefused, match=rf"^You have no match #{dm}\.$"):
        await env.replays.replayable(dm, guild_id=None, user_id=CY[0])
    with pytest.raises(ReplayRefused, match=rf"Match #{pending.id} has not started: there is nothing to replay\."):
        await env.replays.replayable(pending.id, guild_id=GUILD_A, user_id=ANN[0])
    for huge in (2**61, 2**63, 10**20 - 1, 0, -3):  # SQLite holds ids below 2^63: no overflow
        with pytest.raises(ReplayRefused, match=rf"no match #{huge} in this server"):
            await env.replays.replayable(huge, guild_id=GUILD_A, user_id=ANN[0])
    assert await changes(env.db) == before  # reads only
    # abandoned with a log: replayed, everything revealed
    env.clock.now += 10 * 3600
    await timer_pass(env.service)
    before = await changes(env.db)
    record = await env.replays.replayable(live, guild_id=GUILD_A, user_id=CY[0])
    assert record.status is MatchStatus.ABANDONED
    replay = await env.replays.replay(record, WC_STORY)
    assert replay.revealed and not replay.live and replay.outcome is None  # nobody won
    assert replay.steps[-1].complete
    assert await changes(env.db) == before


async def test_a_live_match_for_spectators_and_for_a_seat_then_revealed(env: Env) -> None:
    rng = random.Random(8)
    match_id = await env.start("wizards-cup")
    await env.moves(match_id, rng, 3)  # the decks are in, ann's plan too
    record = await env.service.get(match_id)
    before = await changes(env.db)
    spectator = await env.replays.replay(record, WC_STORY)
    ann = await env.replays.replay(record, WC_STORY, seat=0)
    assert await changes(env.db) == before  # nothing written
    assert spectator.live and not spectator.revealed and spectator.seat is None
    events = [e for step in spectator.steps for e in step.events]
    secrets = [e for e in events if e.visible_to is not None]
    assert secrets
    told_spectator = [line for step in spectator.steps for line in spectator.lines(step)]
    assert not any(line.secret for line in told_spectator)
    assert not any(e.render(record.names) in {t.text for t in told_spectator} for e in secrets)
    assert not any(e.kind in notice_kinds("wizards-cup") for e in events if e.render(record.names) in told_spectator)
    # ann's view: her own secrets, in her own words; never bob's
    told_ann = {line.index: line.text for step in ann.steps for line in ann.lines(step)}
    for i, e in enumerate(events):
        if e.visible_to is not None:
            assert (told_ann.get(i) == e.render(record.names)) == (0 in e.visible_to), e
            assert i in told_ann or 0 not in e.visible_to
    assert not spectator.steps[-1].complete
    # the spectator view of each step is the rules' spectator view (no hand, no hidden order)
    last = spectator.steps[-1].view
    assert json.dumps(last) == json.dumps(Match.replay(await log_of(env, match_id)).state.view(None))

    await env.moves(match_id, rng)  # to the end
    record = await env.service.get(match_id)
    done = await env.replays.replay(record, WC_STORY, seat=0)
    assert done.revealed and done.seat is None  # over: everyone sees everything
    lines = [line for step in done.steps for line in done.lines(step)]
    assert sum(line.secret for line in lines) == sum(e.visible_to is not None for s in done.steps for e in s.events)
    assert all(line.text.startswith(("(secret, ann) ann", "(secret, bob) bob")) for line in lines if line.secret)


async def log_of(env: Env, match_id: int) -> object:
    from rules.core import CHANCE
    from rules.match import LogEntry, MatchLog

    record = await env.service.get(match_id)
    rows = await env.db.actions.for_match(match_id)
    return MatchLog(
        game=record.game,
        options=record.options,
        seed=record.seed or 0,
        seats=record.names,
        actions=[LogEntry(seat=CHANCE if r.seat is None else r.seat, action=r.action) for r in rows],
    )


async def test_the_cache_rebuilds_only_when_the_match_moved(env: Env) -> None:
    rng = random.Random(2)
    match_id = await env.start("firewall")
    await env.moves(match_id, rng, 2)
    record = await env.service.get(match_id)
    first = await env.replays.replay(record, get_ui("firewall").story_kinds)
    assert await env.replays.replay(record, get_ui("firewall").story_kinds) is first
    await env.moves(match_id, rng, 1)
    moved = await env.replays.replay(record, get_ui("firewall").story_kinds)  # the stale record is re-read
    assert moved is not first
    assert sum(len(s.events) for s in moved.steps) > sum(len(s.events) for s in first.steps)


async def test_a_log_the_rules_refuse_is_a_clear_refusal(env: Env) -> None:
    match_id = await env.start("firewall")
    await env.moves(match_id, random.Random(1), 4)
    record = await env.service.get(match_id)
    # a game of this log that the rules no longer know (the stored log itself is append-only)
    await env.db.execute("UPDATE matches SET game = 'retired-game' WHERE id = ?", (match_id,))
    with pytest.raises(ReplayRefused, match=rf"Match #{match_id} cannot be replayed with the current rules"):
        await env.replays.replay(record, get_ui("firewall").story_kinds)


@pytest.mark.parametrize("slug", ["wizards-cup", "firewall", "magic-duel", "arena"])
def test_steps_follow_the_games_resolutions_and_hold_every_event_once(slug: str) -> None:
    m = Match.new(slug, seed=5, seats=["ann", "bob"])
    rng = random.Random(5)
    while not m.awaiting.is_terminal:
        s = min(m.awaiting.seats)
        m.act(s, m.state.sample_action(s, rng))
    kinds = get_ui(slug).story_kinds
    steps, outcome = build_steps(m.to_log(), kinds, over=True)
    assert outcome == m.outcome
    assert [e for s in steps for e in s.events] == m.events
    assert [s.number for s in steps] == list(range(len(steps)))
    for step in steps[:-1]:  # each ends with the resolution that closes it
        assert step.complete and any(e.kind in kinds for e in step.public_events())
    assert steps[-1].view == m.state.view(None)
    if slug == "firewall":  # a step per turn
        assert len(steps) >= sum(e.kind == "turn_end" for e in m.events)


def test_a_step_longer_than_one_embed_is_split_without_losing_a_line(monkeypatch: pytest.MonkeyPatch) -> None:
    m = Match.new("wizards-cup", seed=7, seats=["ann" * 10, "bob" * 10])
    rng = random.Random(7)
    while not m.awaiting.is_terminal:
        s = min(m.awaiting.seats)
        m.act(s, m.state.sample_action(s, rng))
    steps, outcome = build_steps(m.to_log(), WC_STORY, over=True)

    class Record:
        id, game, names, status, summary, seats = 1, "wizards-cup", m.seats, MatchStatus.FINISHED, "", ()

    replay = MatchReplay(Record(), tuple(steps), True, None, outcome)  # type: ignore[arg-type]
    # at the real limit: each step starts one page, a step longer than the limit goes on over more
    # (the long names make one here), and no page holds more than the limit (or more than one line)
    assert paginate.__globals__["STORY_CHARS"] == STORY_CHARS
    step_lines_of = paginate.__globals__["step_lines"]
    longest = max(sum(len(line) + 1 for line in step_lines_of(replay, step)) for step in steps)
    pages = paginate(replay)
    assert [p.step for p in pages if p.part == 1] == list(steps)
    assert len(pages) == len(steps) + sum(p.parts - 1 for p in pages if p.part == 1)
    assert any(p.parts > 1 for p in pages) == (longest > STORY_CHARS)
    assert all(sum(len(line) + 1 for line in p.lines) <= STORY_CHARS or len(p.lines) == 1 for p in pages)
    # the module paginate reads (a bot started by another test reloads its extensions, cogs.replay too)
    monkeypatch.setitem(paginate.__globals__, "STORY_CHARS", 400)
    pages = paginate(replay)
    assert len(pages) > len(steps)
    assert [p.number for p in pages] == list(range(len(pages)))
    for page in pages:
        assert sum(len(line) + 1 for line in page.lines) <= 400 or len(page.lines) == 1
        assert 1 <= page.part <= page.parts
    numbers = [int(line.split("`")[1]) for p in pages for line in p.lines]
    expected = story_lines(m.events, m.seats, game="wizards-cup", revealed=True)
    assert numbers == [line.index + 1 for line in expected]
    # the old text pages' first events land on the step that holds them
    public = [i for i, e in enumerate(m.events) if e.visible_to is None]
    for k in range(0, len(public), 15):
        step = replay.step_of_public_event(k)
        assert steps[step].first_event <= public[k] < steps[step].first_event + len(steps[step].events)
    assert replay.step(-5) is steps[0] and replay.step(10**6) is steps[-1]
