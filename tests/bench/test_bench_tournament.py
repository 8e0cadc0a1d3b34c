"""``python -m bench tournament`` (issue 18): its JSON, its driver (a Swiss tournament played to its
champion by the real bot in the fake Discord, rate limits enforced) and the pacing of a round's
thread starts (cogs/pacing.py) that keeps a big round within Discord's limits.

Measured when this test was written (seed 20261126, no pictures): 8 players, 3 rounds, 12 matches,
0 HTTP 429; 64 players, 6 rounds, 192 matches, 0 HTTP 429 with the pacing (36 without: 6 a round,
every thread start after the 5th in 5 s of the tournament's channel)."""

from __future__ import annotations

import asyncio
import json

import pytest

from bench import __main__ as bench_main
from bench import tournament as bench
from cogs.pacing import Pacer
from tests.discord_harness import tournament as driver
from tests.discord_harness.counting import max_in_window


def event(**more: object) -> dict[str, object]:
    """The driver's figures of a finished event (the keys the benchmark reads)."""
    return {"http_429": 0, "matches": 12, "seconds": 9.5, "rounds": 3, "champion": True, "status": "finished", **more}


def test_the_json_has_the_issue_keys(tmp_path):
    assert bench_main.BENCHMARKS["tournament"] == "bench.tournament"
    data = bench.figures(0.25, event())
    path = tmp_path / "t.json"
    bench.write_json(str(path), data)
    read = json.loads(path.read_text(encoding="utf-8"))
    assert set(bench.ISSUE_KEYS) == {"swiss_pairing_s_256", "http_429", "matches", "seconds"}
    assert set(bench.ISSUE_KEYS) <= set(read)
    assert read["swiss_pairing_s_256"] == 0.25 and read["matches"] == 12 and read["goals_missed"] == []


@pytest.mark.parametrize(
    ("pairing", "more", "why"),
    [
        (1.5, {}, "pairing 256 players"),
        (0.2, {"http_429": 3}, "429"),
        (0.2, {"champion": False, "status": "running"}, "did not finish"),
        (0.2, {"max_messages_per_5s_per_channel": 6}, "messages in 5 s"),
        (0.2, {"max_requests_per_1s": 51}, "requests in 1 s"),
    ],
)
def test_a_missed_goal_is_named(pairing, more, why):
    missed = bench.figures(pairing, event(**more))["goals_missed"]
    assert len(missed) == 1 and why in missed[0]


@pytest.mark.slow
async def test_the_quick_event_plays_to_a_champion_without_429():
    result = await driver.run(bench.QUICK_PLAYERS, seed=20261126)
    assert result["status"] == "finished" and result["champion"]
    assert result["http_429"] == 0, result["detail"]["rate_limited"]
    assert (result["players"], result["rounds"], result["matches"]) == (8, 3, 12)  # 3 rounds of 4 matches
    assert result["moves"] > result["matches"] and result["rest_calls"] > result["moves"]
    assert result["tournament_message_edits"] > 0 and result["max_messages_per_5s_per_channel"] <= 5
    assert result["detail"]["routes"]["POST /channels/{channel_id}/threads"] == 12  # one thread per match
    data = bench.figures(0.5, result)
    assert set(bench.ISSUE_KEYS) <= set(json.loads(json.dumps(data))) and data["goals_missed"] == []


@pytest.mark.slow
async def test_a_round_of_six_matches_opens_its_threads_at_discords_pace():
    """Six matches start at once in the tournament's channel: without pacing the 6th thread start
    is answered 429 (5 per 5 s per channel); paced, it waits its turn."""
    result = await driver.run(12, seed=7, rounds=1)
    assert result["status"] == "finished" and result["matches"] == 6
    assert result["detail"]["routes"]["POST /channels/{channel_id}/threads"] == 6
    assert result["http_429"] == 0, result["detail"]["rate_limited"]
    assert result["paced"] and result["pacing_wait_s"] > 0


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


def paced(requests: int = 5, per: float = 5.0) -> tuple[Pacer, FakeTime]:
    pacer, time = Pacer(requests, per), FakeTime()
    pacer.clock, pacer.sleep = time.clock, time.sleep
    return pacer, time


async def test_the_pacer_keeps_each_channel_within_its_window_in_order():
    pacer, time = paced()
    sent: list[tuple[int, float]] = []

    async def start(i: int) -> None:
        async with pacer.slot("channel"):
            sent.append((i, time.now))
            time.now += 0.01  # the request's round trip

    await asyncio.gather(*(start(i) for i in range(12)))
    assert [i for i, _ in sent] == list(range(12))  # in the order they asked
    times = [t for _, t in sent]
    assert max_in_window(times, 5.0) == 5  # never a 6th within 5 s
    assert times[5] - times[0] >= 5.0 and times[4] - times[0] < 0.1  # the first 5 at once, then waits
    assert pacer.waited > 0
    before = time.now
    async with pacer.slot("another channel"):  # its own window: no wait
        assert time.now == before


async def test_the_pacer_does_not_wait_when_the_window_has_passed():
    pacer, time = paced(2, 1.0)
    for _ in range(3):
        async with pacer.slot(1):
            pass
        time.now += 1.5
    assert pacer.waited == 0


def test_the_pacer_refuses_a_window_it_cannot_keep():
    with pytest.raises(ValueError, match="at least one request"):
        Pacer(0, 5.0)
