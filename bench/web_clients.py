"""The clients of ``python -m bench web``, a process of their own: reads its plan (one JSON line
on stdin), loads pages with ``viewers`` clients for ``seconds``, reports their latencies; then
holds ``watchers`` live streams open until told to stop (a second line, with each move's commit
time), and reports, for every ``moved`` event each watcher saw, the time from the commit."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import aiohttp


async def pages(
    session: aiohttp.ClientSession, urls: list[str], viewers: int, seconds: float
) -> tuple[list[tuple[int, float]], int]:
    """Each page load as (the url's index, its latency in ms), and the errors."""
    latencies: list[tuple[int, float]] = []
    errors = 0
    end = time.monotonic() + seconds

    async def viewer(n: int) -> None:
        nonlocal errors
        i = n
        while time.monotonic() < end:
            started = time.perf_counter()
            try:
                async with session.get(urls[i % len(urls)]) as answer:
                    await answer.read()
                    if answer.status != 200:
                        errors += 1
            except aiohttp.ClientError:
                errors += 1
            latencies.append((i % len(urls), (time.perf_counter() - started) * 1000))
            i += 1

    await asyncio.gather(*(viewer(n) for n in range(viewers)))
    return latencies, errors


async def watcher(
    session: aiohttp.ClientSession, url: str, seen: list[tuple[str, int, float, str]], broken: list[int]
) -> None:
    match = url.rsplit("/", 1)[-1]
    try:
        async with session.get(url + "/events", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            if stream.status != 200:
                broken.append(1)
                return
            while True:
                block = (await stream.content.readuntil(b"\n\n")).decode()
                fields = dict(line.split(": ", 1) for line in block.strip().splitlines() if not line.startswith(":"))
                if fields.get("event") in ("moved", "over"):  # "over": the move that ended the match
                    seen.append((match, int(json.loads(fields["data"])["version"]), time.time(), fields["event"]))
                if fields.get("event") == "over":
                    return  # the stream closes after it
    except asyncio.CancelledError:
        raise
    except (aiohttp.ClientError, ValueError):
        broken.append(1)


async def main() -> None:
    plan: dict[str, Any] = json.loads(sys.stdin.readline())
    urls: list[str] = plan["urls"]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        latencies, errors = await pages(session, urls, int(plan["viewers"]), float(plan["seconds"]))
        seen: list[tuple[str, int, float, str]] = []
        broken: list[int] = []
        tasks = [
            asyncio.create_task(watcher(session, urls[n % len(urls)], seen, broken)) for n in range(plan["watchers"])
        ]
        page_ms = [ms for _, ms in latencies]
        print(json.dumps({"page_ms": page_ms, "page_by_url": latencies, "errors": errors}), flush=True)
        loop = asyncio.get_running_loop()
        stop = json.loads(await loop.run_in_executor(None, sys.stdin.readline))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    committed: dict[str, dict[str, float]] = stop["committed"]
    by_token = {url.rsplit("/", 1)[-1]: url for url in urls}
    pushes = []
    endings = []  # the pushes of "over" events: the moves that ended their match
    expected = 0
    for token in by_token:
        watching = sum(1 for n in range(plan["watchers"]) if urls[n % len(urls)].rsplit("/", 1)[-1] == token)
        match_id = str(int(token.split(".")[0], 36))
        expected += watching * len(committed.get(match_id, {}))
    for token, version, at, kind in seen:
        match_id = str(int(token.split(".")[0], 36))
        when = committed.get(match_id, {}).get(str(version))
        if when is not None:
            pushes.append((at - when) * 1000)
            if kind == "over":
                endings.append((at - when) * 1000)
    missing = max(expected - len(pushes), 0)
    print(json.dumps({"push_ms": pushes, "over_ms": endings, "errors": len(broken) + missing}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
