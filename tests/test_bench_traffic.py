"""The traffic benchmark's players (tests/discord_harness/traffic.py, ``python -m bench traffic``):
they make their moves by clicking the bot's prompts, as players do, and the counting keeps the
interaction responses (which Discord does not rate limit) apart from the REST calls.

Measured when this test was written (seed 20261121, quick options, the bot of commit 22fbaab): no
move fell back to the service in any game (Wizards Cup 8 moves, 5.5 clicks a move; Firewall 10,
7.5; Magic Duel 38, 3.2; Arena 193, 1.5). The bound asserted is 10% of the moves.
"""

from __future__ import annotations

import pytest

from tests.discord_harness import traffic
from tests.discord_harness.records import RecordedRequest, SimChannel, SimUser
from tests.discord_harness.server import FakeDiscord
from tests.discord_harness.traffic import Monkey, interaction_call, measure, play

SEED = 20261121
QUICK = {"magic-duel": "points_to_win=1", "arena": "grid_size=8 terrain_count=4"}


@pytest.mark.parametrize("slug", traffic.SLUGS)
async def test_the_players_make_their_moves_by_clicking_the_prompts(tmp_path, slug):
    figures = await play(slug, think=2.0, seed=SEED, images=False, workdir=tmp_path, options=QUICK.get(slug))
    detail = figures["detail"]
    assert detail["status"] == "finished" and figures["moves"] > 0
    assert figures["fallback_moves"] <= 0.1 * figures["moves"], (
        f"{slug}: {figures['fallback_moves']} of {figures['moves']} moves fell back to the service: "
        f"{detail['fallback_reasons']}; e.g. {detail['fallback_examples']}"
    )
    assert figures["clicks_per_move"] >= 1.0  # every clicked move took at least its submitting click
    assert detail["unanswered_clicks"] == 0
    # each click is answered through its interaction, and those answers are counted apart
    assert detail["interaction_calls"] >= detail["clicks"]
    assert all(route.split()[1].startswith(("/interactions/", "/webhooks/")) for route in detail["interaction_routes"])
    assert not any(route.split()[1].startswith("/interactions/") for route in detail["routes"])


async def test_the_same_seed_clicks_the_same_way(tmp_path):
    runs = [
        await play("wizards-cup", think=2.0, seed=seed, images=False, workdir=tmp_path / str(i))
        for i, seed in enumerate((SEED, SEED, SEED + 1))
    ]
    for run in runs:
        assert run["detail"]["status"] == "finished"
    first, again, other = (run["detail"]["click_digest"] for run in runs)
    assert first == again and runs[0]["detail"]["clicks"] == runs[1]["detail"]["clicks"]
    assert runs[0]["rest_calls_per_move"] == runs[1]["rest_calls_per_move"]
    assert other != first


async def test_a_seat_that_cannot_click_its_move_falls_back_to_the_service(tmp_path, monkeypatch):
    monkeypatch.setattr(traffic, "MAX_CLICKS", 0)  # no click allowed: every move falls back
    figures = await play("wizards-cup", think=2.0, seed=SEED, images=False, workdir=tmp_path)
    assert figures["detail"]["status"] == "finished"
    assert figures["fallback_moves"] == figures["moves"] > 0
    assert figures["clicks_per_move"] == 0.0


def request(
    method: str, path: str, route: str, *, status: int = 200, at: float = 0.0, **params: str
) -> RecordedRequest:
    return RecordedRequest(
        method=method, path=path, route=route, dpy_route=route, params=params, query={}, json=None, status=status, at=at
    )


def test_interaction_responses_are_not_counted_as_rest_calls():
    app = 100
    server = FakeDiscord(app_id=app, bot_user=SimUser(id=app, name="bot", bot=True), schema=None)
    server.channels[7] = SimChannel(id=7, type=0, payload={"id": "7", "name": "duels"}, guild_id=1)
    server.channels[8] = SimChannel(id=8, type=1, payload={"id": "8"}, recipient_id=5)
    webhook = "/webhooks/{webhook_id}/{webhook_token}"
    message = "/channels/{channel_id}/messages"
    answers = [
        request("POST", "/interactions/55/tok/callback", "/interactions/{interaction_id}/{interaction_token}/callback"),
        request("POST", f"/webhooks/{app}/tok", webhook),  # a follow-up
        request("PATCH", f"/webhooks/{app}/tok/messages/@original", webhook + "/messages/@original"),
        request("GET", f"/webhooks/{app}/tok/messages/@original", webhook + "/messages/@original"),
        request("DELETE", f"/webhooks/{app}/tok/messages/66", webhook + "/messages/{message_id}"),
    ]
    rest = [
        request("POST", "/webhooks/999/secret", webhook),  # another webhook: rate limited
        request("POST", "/channels/7/messages", message, at=0.0, channel_id="7"),
        request("POST", "/channels/7/messages", message, at=1.0, channel_id="7"),
        request("POST", "/channels/7/messages", message, at=2.0, status=429, channel_id="7"),
        request("POST", "/channels/8/messages", message, at=2.0, channel_id="8"),
        request("PATCH", "/channels/7/messages/66", message + "/{message_id}", channel_id="7", message_id="66"),
    ]
    assert [interaction_call(r, app) for r in answers + rest] == [True] * 5 + [False] * 6
    figures = measure(server, answers + rest, 2, answers[:1] + rest[:1])
    assert figures["rest_calls_per_move"] == 3.0
    assert figures["rest_calls_per_move_in_play"] == 2.5  # the first call was the start's
    assert figures["interaction_calls_per_move"] == 2.5
    assert figures["channel_posts_per_move"] == 1.0 and figures["dm_posts_per_move"] == 0.5
    assert figures["max_messages_per_5s_per_channel"] == 2 and figures["http_429"] == 1
    assert figures["detail"]["rest_calls_to_start"] == 1
    assert "POST /channels/{channel_id}/messages" in figures["detail"]["routes"]
    assert "POST /interactions/{interaction_id}/{interaction_token}/callback" not in figures["detail"]["routes"]


def test_a_modal_is_filled_as_a_player_would():
    monkey = Monkey(None, None, 1, [], think=2.0, click_time=0.0, seed=SEED)
    modal = {
        "custom_id": "m:1:0:3:x",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "name", "label": "Your name", "value": "Zed"}]},
            {"type": 18, "label": "How many (2-6)?", "component": {"type": 4, "custom_id": "n", "max_length": 2}},
            {"type": 18, "label": "Pick", "component": {"type": 3, "custom_id": "s", "options": [{"value": "a"}]}},
        ],
    }
    first = monkey.fill(modal, first=True)
    assert first["name"] == "Zed" and 2 <= int(first["n"]) <= 6 and first["s"] == ["a"]
    again = [monkey.fill(modal, first=False) for _ in range(20)]
    assert all(v["name"] != "Zed" and 2 <= int(v["n"]) <= 6 for v in again)
    assert len({v["n"] for v in again}) > 1  # random within the range, not one fixed answer
