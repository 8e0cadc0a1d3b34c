"""A live match's page follows the match (issue 35, part 2): the running bot's web table streams
server-sent events, ``moved`` within a second of each move and ``over`` at the end, read for all
watched matches at once (bot/watch.py: one query a period, however many watchers), carrying a
version number and nothing of what happened (docs/web.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest

from bot.signing import Signer
from bot.watch import MatchWatch
from tests.discord_flows import setup_players
from web.app import SECURITY_HEADERS

SECRET = "a-test-secret-of-32-characters!!"


@pytest.fixture
async def site(make, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("WEB_SECRET", SECRET)
    h, bot, db = await make(tmp_path / "live.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    record = await bot.service.create_challenge("firewall", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")])
    await bot.service.accept(record.id, bob.id)
    return bot, record.id, [ann.id, bob.id], Signer(SECRET)


async def move(bot: Any, match_id: int, users: list[int]) -> None:
    for seat, uid in enumerate(users):
        prompt = await bot.service.prompt(match_id, seat)
        if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
            await bot.service.submit(match_id, uid, prompt.decision.choices[0], seat_step=prompt.seat_step)
            return
    raise AssertionError("nobody is awaited")


async def next_event(stream: aiohttp.ClientResponse, timeout: float = 10.0) -> tuple[str, dict[str, Any]]:
    """The next event of the stream (comments skipped); the timeout only keeps a broken stream from
    hanging the test (how fast a move arrives is ``python -m bench web``'s to measure)."""
    while True:
        block = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), timeout)).decode()
        fields = dict(line.split(": ", 1) for line in block.strip().splitlines() if not line.startswith(":"))
        if fields:
            return fields["event"], json.loads(fields["data"])


async def test_a_move_reaches_the_live_page_within_a_second_and_the_end_closes_the_stream(site) -> None:
    bot, match_id, users, signer = site
    token = signer.token("match", match_id)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{bot.web.url}/m/{token}") as page:
            text = await page.text()
        assert f'data-live="/m/{token}/events"' in text and "/static/live.js" in text
        async with session.get(f"{bot.web.url}/m/{token}/events") as stream:
            assert stream.status == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
            for name, value in SECURITY_HEADERS.items():
                assert stream.headers[name] == value
            kind, first = await next_event(stream)
            assert kind == "state" and first["live"] is True
            for _ in range(3):
                await move(bot, match_id, users)
                kind, data = await next_event(stream)
                assert kind == "moved" and data["version"] > first["version"]
                first = data
                assert set(data) == {"version", "live"}  # nothing of what happened
            await bot.service.forfeit(match_id, users[1])
            kind, data = await next_event(stream)
            assert kind == "over" and data["live"] is False
            assert await asyncio.wait_for(stream.content.read(), 10.0) == b""  # the stream has ended
        async with session.get(f"{bot.web.url}/m/{token}") as page:
            text = await page.text()
        assert "data-live" not in text and "/static/live.js" not in text


async def test_the_stream_of_a_wrong_address_is_refused(site) -> None:
    bot, match_id, users, signer = site
    url = f"{bot.web.url}/m/{signer.token('player', match_id)}/events"
    async with aiohttp.ClientSession() as session, session.get(url) as stream:
        assert stream.status == 404 and "No such match" in await stream.text()


async def test_many_watchers_cost_one_read_a_period(site) -> None:
    bot, match_id, users, signer = site
    watch = MatchWatch(bot.db, every=0.05)
    woken: list[int] = []

    async def watcher(n: int) -> None:
        async with watch.watching(match_id) as watched:
            if await watched.wait(watched.version, 5.0):
                woken.append(n)

    started = asyncio.get_running_loop().time()
    tasks = [asyncio.create_task(watcher(n)) for n in range(200)]
    for _ in range(200):  # (at most 10 s)
        if watch.reads >= 3:
            break
        await asyncio.sleep(0.05)
    periods = (asyncio.get_running_loop().time() - started) / watch.every
    assert watch.watched == 1 and 3 <= watch.reads <= periods + 1  # one read a period, not one per watcher
    await move(bot, match_id, users)
    await asyncio.wait_for(asyncio.gather(*tasks), 10.0)
    assert sorted(woken) == list(range(200))
    assert watch.watched == 0  # the last watcher gone, the match is no longer read
    await watch.close()
    with pytest.raises(LookupError):
        async with watch.watching(987_654):
            pass


async def test_a_client_may_hold_only_so_many_live_streams(site) -> None:
    """docs/web.md, Limits: one client address holds at most a few streams open; a closed one
    frees its place."""
    from web import WebServer, make_app

    bot, match_id, users, signer = site
    server = WebServer(make_app(bot.replays, signer, streams_per_client=2), "127.0.0.1", 0)
    await server.start()
    url = f"{server.url}/m/{signer.token('match', match_id)}/events"
    try:
        async with aiohttp.ClientSession() as session:
            first = await session.get(url)
            second = await session.get(url)
            assert (await next_event(first))[0] == (await next_event(second))[0] == "state"
            async with session.get(url) as third:
                assert third.status == 429 and "Too many live pages" in await third.text()
                assert int(third.headers["Retry-After"]) > 0
            first.close()
            for _ in range(100):  # the server sees the page closed (at most 10 s)
                async with session.get(url) as again:
                    if again.status == 200:
                        break
                await asyncio.sleep(0.1)
            assert again.status == 200
            second.close()
    finally:
        await server.stop()
