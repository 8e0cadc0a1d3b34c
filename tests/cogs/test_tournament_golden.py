"""Golden tournaments: four seeded tournaments played to their end through the match service, and
what they leave behind compared with a recording (``tests/golden/tournaments.json.gz``):

- every stored row of the tournament tables (the tournament rows with their state JSON, entrants,
  links, and the outbox of events with its payload text byte for byte: stored rows stay readable
  across upgrades);
- what the service's calls return (the records and views, as their stored form);
- the presenter's Discord payloads (:class:`cogs.tournament_presenter.TournamentPresenter`: every
  post and every edit of the tournament message, embeds, components and picture names), the
  presenter flushed after every step as the timer and the background would.

The four: a Swiss of Wizards Cup with a leave and a join in the sign-up, a silent player timed out
and a drop; a knock-out of Firewall with a third-place match, a round deadline that adjudicates,
and a pause; a Swiss of Magic Duel tables; an Arena knock-out whose games are drawn (played
again, then adjudicated) and a cancelled tournament.

The steps here call ``tick()`` by hand on a fake clock; the last test here shows the running
client's own loops doing the same work (a silent tournament match timed out, its result recorded,
the event finished), nobody calling a tick.

Record again (a deliberate change of what is stored or shown; say why in the commit):
``python -m tests.cogs.test_tournament_golden`` (a script, not a test: a test never records).
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.client import build_bot
from bot.matches import MIN_TURN_SECONDS, MatchStatus
from bot.messages import MessagesService
from cogs.tournament_presenter import TournamentPresenter
from db import Database
from db.tournaments import TournamentStatus
from tests.bot.tournament_env import (
    CHANNEL,
    GUILD,
    ORG,
    QUICK,
    TURN,
    Env,
    live_links,
    move_once,
    open_env,
    pass_once,
)
from tests.conftest import DbTarget
from tests.discord_flows import setup_players
from tests.running_timer import eventually, running_settings, timer_pass, tournament_timer_pass

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "tournaments.json.gz"
MESSAGE_ID = 555_000

pytestmark = pytest.mark.slow


# -- the presenter's Discord, recorded ----------------------------------------------------------


def _file(f: discord.File) -> dict[str, Any]:
    fp = f.fp
    at = fp.tell()
    data = fp.read()
    fp.seek(at)
    return {"filename": f.filename, "sha256": hashlib.sha256(data).hexdigest()}


def _payload(kwargs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in sorted(kwargs.items()):
        if isinstance(value, discord.Embed):
            out[key] = value.to_dict()
        elif isinstance(value, discord.ui.View):
            out[key] = value.to_components()
        elif isinstance(value, discord.AllowedMentions):
            out[key] = value.to_dict()
        elif key == "attachments":
            out[key] = [_file(a) if isinstance(a, discord.File) else repr(a) for a in value]
        elif value is None or isinstance(value, str | int | float | bool):
            out[key] = value
        else:
            out[key] = repr(value)
    return out


class _Message:
    def __init__(self, log: list[Any], message_id: int) -> None:
        self.log, self.id = log, message_id

    async def edit(self, **kwargs: Any) -> Any:
        self.log.append({"edit": self.id, **_payload(kwargs)})
        return SimpleNamespace(attachments=[])


class _Channel:
    def __init__(self, log: list[Any], channel_id: int) -> None:
        self.log, self.id = log, channel_id

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        self.log.append({"send": self.id, **_payload({"content": content, **kwargs})})
        return SimpleNamespace(id=0)

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(self.log, message_id)


def presenter_for(env: Env, log: list[Any]) -> TournamentPresenter:
    bot = SimpleNamespace(
        tournaments=env.service,
        messages=MessagesService(env.db),
        settings=SimpleNamespace(render_images=True),
        get_partial_messageable=lambda channel_id: _Channel(log, channel_id),
    )
    presenter = TournamentPresenter(bot)  # type: ignore[arg-type]
    ticks = itertools.count(0, 100)
    presenter.clock = lambda: float(next(ticks))  # never inside an edit window: every flush edits
    return presenter


# -- the recording ------------------------------------------------------------------------------


class Recorder:
    def __init__(self, env: Env) -> None:
        self.env = env
        self.discord: list[Any] = []
        self.calls: list[Any] = []
        self.presenter = presenter_for(env, self.discord)

    def open_again(self) -> None:
        self.presenter = presenter_for(self.env, self.discord)

    async def step(self, tid: int) -> None:
        """What the background and the timer deliver: the service settled, the presenter flushed."""
        await self.env.matches.settle()
        await self.env.service.settle()
        await self.presenter.flush(tid)

    def call(self, what: str, value: Any) -> None:
        self.calls.append([what, _stored(value)])

    def tables(self) -> dict[str, Any]:
        out = {}
        for table, order in (
            ("tournaments", "id"),
            ("tournament_entrants", "tournament_id, user_id"),
            ("tournament_matches", "match_id"),
            ("tournament_events", "id"),
        ):
            out[table] = [list(r) for r in self.env.sql(f"SELECT * FROM {table} ORDER BY {order}")]
        return out


def _stored(value: Any) -> Any:
    """A record or a view as what it holds (the dataclasses' fields, the core as its JSON)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [_stored(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _stored(v) for k, v in value.items()}
    if hasattr(value, "to_json") and hasattr(value, "rounds"):
        return value.to_json()
    if hasattr(value, "__dataclass_fields__"):
        return {name: _stored(getattr(value, name)) for name in value.__dataclass_fields__}
    if hasattr(value, "value"):
        return value.value
    return repr(value)


async def play(rec: Recorder, tid: int, rng: random.Random, *, silent: frozenset[int] = frozenset()) -> None:
    """Random moves until every match of the round waits (on a silent player) or is over, the
    presenter flushed after each finished match."""
    env = rec.env
    for _ in range(20_000):
        await rec.step(tid)
        progressed = False
        for mid in await live_links(env, tid):
            while await move_once(env, mid, rng, silent=silent):
                progressed = True
            await rec.step(tid)
        if not progressed:
            return


async def to_the_end(rec: Recorder, tid: int, rng: random.Random, *, silent: frozenset[int] = frozenset()) -> None:
    env = rec.env
    for _ in range(50):
        await play(rec, tid, rng, silent=silent)
        view = await env.service.view(tid)
        if view.status.value != "running":
            break
        env.clock.advance(TURN + 1)  # the silent players time out
        await timer_pass(env.matches)
        await tournament_timer_pass(env.service)
        await rec.step(tid)
    await rec.step(tid)


# -- the tournaments ----------------------------------------------------------------------------


async def swiss_wizards_cup(rec: Recorder) -> None:
    env = rec.env
    created = await env.service.create(
        GUILD, CHANNEL, ORG, "wizards-cup", "swiss", rounds=3, options=QUICK["wizards-cup"]
    )
    tid = created.id
    rec.call("create", created)
    rec.call("set_message_id", await env.service.set_message_id(tid, MESSAGE_ID))
    for i in range(1, 6):
        rec.call("join", await env.service.join(tid, (i, f"P{i}")))
        await rec.step(tid)
    rec.call("leave", await env.service.leave(tid, 5))
    rec.call("join", await env.service.join(tid, (5, "P5 again")))
    rec.call("start", await env.service.start(tid, ORG))
    await rec.step(tid)
    rng = random.Random(1)
    await play(rec, tid, rng, silent=frozenset({2}))  # 2 times out in round 1
    env.clock.advance(TURN + 1)
    await timer_pass(env.matches)
    await rec.step(tid)
    rec.call("drop", await env.service.drop(tid, 4, 4))
    await rec.step(tid)
    await to_the_end(rec, tid, rng)
    rec.call("view", await env.service.view(tid))
    rec.call("player_results", await env.service.player_results(1, GUILD))
    rec.call("history", await env.service.history(GUILD))


async def knockout_firewall(rec: Recorder) -> None:
    env = rec.env
    created = await env.service.create(GUILD, CHANNEL, ORG, "firewall", "single_elimination", third_place=True)
    tid = created.id
    await env.service.set_message_id(tid, MESSAGE_ID)
    for i in range(11, 17):
        await env.service.join(tid, (i, f"K{i}"))
    rec.call("deadline", await env.service.set_round_deadline(tid, ORG, 600))
    rec.call("start", await env.service.start(tid, ORG))
    await rec.step(tid)
    rng = random.Random(2)
    # round 1: one match played a little, then the deadline adjudicates what is left
    first = (await live_links(env, tid))[0]
    for _ in range(3):
        await move_once(env, first, rng)
    await rec.step(tid)
    env.clock.advance(601)
    rec.call("tick", await tournament_timer_pass(env.service))
    await rec.step(tid)
    rec.call("pause", await env.service.pause(tid, ORG))
    await play(rec, tid, rng)
    rec.call("resume", await env.service.resume(tid, ORG))
    await rec.step(tid)
    await to_the_end(rec, tid, rng)
    rec.call("view", await env.service.view(tid))
    rec.call("player_results", await env.service.player_results(11))


async def tables_magic_duel(rec: Recorder) -> None:
    env = rec.env
    created = await env.service.create(
        GUILD, CHANNEL, ORG, "magic-duel", "swiss", rounds=2, options=QUICK["magic-duel"]
    )
    tid = created.id
    await env.service.set_message_id(tid, MESSAGE_ID)
    for i in range(21, 28):
        await env.service.join(tid, (i, f"M{i}"))
    rec.call("start", await env.service.start(tid, ORG))
    await to_the_end(rec, tid, random.Random(3))
    rec.call("view", await env.service.view(tid))


async def arena_draws_and_a_cancel(rec: Recorder) -> None:
    env = rec.env
    tid = (await env.service.create(GUILD, CHANNEL, ORG, "arena", "single_elimination", options=QUICK["arena"])).id
    await env.service.set_message_id(tid, MESSAGE_ID)
    for i in (31, 32):
        await env.service.join(tid, (i, f"A{i}"))
    rec.call("start", await env.service.start(tid, ORG))
    for _ in range(4):
        await rec.step(tid)
        if (await env.service.view(tid)).status.value != "running":
            break
        (match_id,) = await live_links(env, tid)
        for _ in range(2000):
            if not await pass_once(env, match_id):
                break
    await rec.step(tid)
    rec.call("view", await env.service.view(tid))
    other = (await env.service.create(GUILD, CHANNEL + 1, ORG, "firewall", "swiss")).id
    await env.service.set_message_id(other, MESSAGE_ID + 1)
    for i in (41, 42, 43):
        await env.service.join(other, (i, f"C{i}"))
    await env.service.start(other, ORG)
    await rec.step(other)
    rec.call("cancel", await env.service.cancel(other, ORG))
    await rec.step(other)
    rec.call("history", await env.service.history(GUILD))


SCENARIOS = {
    "swiss_wizards_cup": swiss_wizards_cup,
    "knockout_firewall": knockout_firewall,
    "tables_magic_duel": tables_magic_duel,
    "arena_draws_and_a_cancel": arena_draws_and_a_cancel,
}


async def run(name: str, tmp_path: Path) -> dict[str, Any]:
    env = await open_env(DbTarget("sqlite", str(tmp_path / f"{name}.sqlite3")))
    try:
        rec = Recorder(env)
        await SCENARIOS[name](rec)
        await env.matches.settle()
        await env.service.settle()
        return {"calls": rec.calls, "discord": rec.discord, "tables": rec.tables()}
    finally:
        await env.close()


def _load() -> dict[str, Any]:
    if not GOLDEN.exists():
        return {}
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        loaded: dict[str, Any] = json.load(f)
    return loaded


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", list(SCENARIOS))
async def test_a_tournament_stores_and_shows_what_it_did(name: str, tmp_path: Path) -> None:
    got = _normal(await run(name, tmp_path))
    want = _load().get(name)
    assert want is not None, f"no recording of {name}: python -m tests.cogs.test_tournament_golden"
    for part in ("tables", "calls", "discord"):
        for key in sorted(set(want[part]) | set(got[part])) if isinstance(want[part], dict) else [None]:
            w = want[part] if key is None else want[part].get(key)
            g = got[part] if key is None else got[part].get(key)
            if w != g:
                size = min(len(w or []), len(g or []))
                first = next((i for i in range(size) if w[i] != g[i]), size)
                raise AssertionError(
                    f"{name}: {part} {key or ''} differs at item {first}:\n"
                    f"recorded: {json.dumps((w or [])[first : first + 1])[:3000]}\n"
                    f"now:      {json.dumps((g or [])[first : first + 1])[:3000]}"
                )


async def _record() -> None:
    """Play every scenario and write the golden file (only on purpose: see the module docstring)."""
    import tempfile

    recorded = {}
    for name in SCENARIOS:
        with tempfile.TemporaryDirectory() as tmp:
            recorded[name] = _normal(await run(name, Path(tmp)))
    with gzip.open(GOLDEN, "wt", encoding="utf-8") as f:
        json.dump(recorded, f, sort_keys=True, indent=0)
    print(f"recorded {len(recorded)} tournaments in {GOLDEN}")


@pytest.mark.slow
async def test_the_client_s_timers_end_a_silent_tournament_match_and_finish_the_event(
    discord_harness,  # noqa: F811
    tmp_path: Path,
) -> None:
    """What the golden steps above drive with ``tick()`` by hand on a fake clock (a tournament match
    nobody moves in runs out of time, its result is recorded and the event goes on), done by the
    running client's own loops on the real clock: nobody calls a tick."""
    path = tmp_path / "bot.sqlite3"
    db = await Database.open(path)
    bot = build_bot(running_settings(path), db)  # timers on, as the bot runs
    try:
        h = await discord_harness(bot)
        guild, ch, ann, bob = setup_players(h)
        rec = await bot.tournaments.create(
            guild.id, ch.id, ann.id, "firewall", "swiss", rounds=1, turn_time=MIN_TURN_SECONDS
        )
        for user in (ann, bob):
            await bot.tournaments.join(rec.id, (user.id, user.name))
        await bot.tournaments.start(rec.id, ann.id)

        async def paired() -> bool:
            return len((await bot.tournaments.view(rec.id)).current_links()) == 1

        assert await eventually(paired, 10)  # the round's match starts in the background
        links = (await bot.tournaments.view(rec.id)).current_links()

        async def over() -> bool:
            return (await bot.tournaments.record(rec.id)).status is TournamentStatus.FINISHED

        assert await eventually(over, MIN_TURN_SECONDS + 20)
        (link,) = links.values()
        assert (await bot.service.get(link.match_id)).status is MatchStatus.ABANDONED  # nobody moved
        await h.close()
    finally:
        await db.close()


if __name__ == "__main__":
    import asyncio

    asyncio.run(_record())
