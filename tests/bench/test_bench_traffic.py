"""The traffic benchmark's players (tests/discord_harness/traffic.py, ``python -m bench traffic``):
they make their moves by clicking the bot's prompts, as players do, and the counting keeps the
interaction responses (which Discord does not rate limit) apart from the REST calls.

Measured when this test was written (seed 20261121, quick options, the bot of commit 22fbaab): no
move fell back to the service in any game (Wizards Cup 8 moves, 5.5 clicks a move; Firewall 10,
7.5; Magic Duel 38, 3.2; Arena 193, 1.5). The bound asserted is 10% of the moves. Arena now plays
``python -m bench traffic --quick``'s ten game turns (108 moves instead of 335).
"""

from __future__ import annotations

import pytest

from bench import traffic as traffic_bench
from tests.discord_harness import traffic
from tests.discord_harness.records import (
    HarnessMessage,
    InteractionRecord,
    RecordedFile,
    RecordedRequest,
    SimChannel,
    SimUser,
)
from tests.discord_harness.server import FakeDiscord
from tests.discord_harness.traffic import Monkey, Tally, interaction_call, match_figures, measure, play, usable

SEED = 20261121
QUICK = traffic_bench.QUICK_OPTIONS  # Magic Duel to 1 point, Arena: a small board, ten game turns


@pytest.mark.slow
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
    # the whole match's figures, with the last seat's DMs closed
    for key in MATCH_KEYS:
        assert isinstance(figures[key], (int, float)), key
    closed = traffic.NAMES[figures["seats"] - 1]
    assert detail["closed_dm_player"] == closed and set(detail["pings_by_player"]) == set(
        traffic.NAMES[: figures["seats"]]
    )
    assert figures["closed_dm_pings"] == detail["pings_by_player"][closed] <= figures["pings_max_per_player"]
    assert figures["thread_posts_per_match"] >= 1 and 1 <= figures["player_turns"] <= figures["moves"]
    assert figures["picture_mb_per_match"] == 0.0  # images off


@pytest.mark.slow
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


@pytest.mark.slow
async def test_a_seat_that_cannot_click_its_move_falls_back_to_the_service(tmp_path, monkeypatch):
    monkeypatch.setattr(traffic, "MAX_CLICKS", 0)  # no click allowed: every move falls back
    figures = await play("wizards-cup", think=2.0, seed=SEED, images=False, workdir=tmp_path)
    assert figures["detail"]["status"] == "finished"
    assert figures["fallback_moves"] == figures["moves"] > 0
    assert figures["clicks_per_move"] == 0.0


MATCH_KEYS = (
    "thread_posts_per_match",
    "edits_per_match",
    "pings_max_per_player",
    "closed_dm_pings",
    "picture_mb_per_match",
    "board_thumbnails",
    "player_turns",
    "thread_posts_per_player_turn",
    "edits_per_player_turn",
)


def request(
    method: str,
    path: str,
    route: str,
    *,
    status: int = 200,
    at: float = 0.0,
    json: dict | None = None,
    response: dict | None = None,
    files: list[RecordedFile] | None = None,
    **params: str,
) -> RecordedRequest:
    return RecordedRequest(
        method=method,
        path=path,
        route=route,
        dpy_route=route,
        params=params,
        query={},
        json=json,
        status=status,
        at=at,
        response=response,
        files=files or [],
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


def test_the_whole_match_figures_count_thread_posts_edits_pings_pictures_and_thumbnails():
    app = 100
    server = FakeDiscord(app_id=app, bot_user=SimUser(id=app, name="bot", bot=True), schema=None)
    ann, bob = SimUser(id=5, name="ann"), SimUser(id=6, name="bob", dms_open=False)
    server.channels[7] = SimChannel(id=7, type=0, payload={"id": "7", "name": "duels"}, guild_id=1)
    server.channels[9] = SimChannel(id=9, type=11, payload={"id": "9", "name": "match", "parent_id": "7"}, guild_id=1)
    server.channels[8] = SimChannel(id=8, type=1, payload={"id": "8"}, recipient_id=5)
    where = {101: 9, 102: 9, 103: 8, 104: 7, 105: 9, 106: 9}
    for mid, cid in where.items():
        server.messages[mid] = HarnessMessage(
            id=mid, channel_id=cid, guild_id=None, author_id=app, payload={}, kind="channel", ephemeral=mid == 105
        )
    server.interactions["tok1"] = InteractionRecord(1, "tok1", 3, 6, 9, 1, {}, original_message_id=105)
    server.interactions["tok2"] = InteractionRecord(2, "tok2", 3, 6, 9, 1, {}, message_id=101, original_message_id=101)
    server.interactions["tok3"] = InteractionRecord(3, "tok3", 3, 6, 9, 1, {}, original_message_id=106)
    new, edit = "/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}"
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    board = {"content": "<@5> <@6>: your move", "allowed_mentions": {"parse": [], "users": ["6"]}}
    board["embeds"] = [{"title": "Board", "thumbnail": {"url": "attachment://board.png"}}]
    picture = RecordedFile("files[0]", "board.png", b"x" * 500_000)
    requests = [
        # a new thread post: pings bob (allowed), not ann; its picture is a thumbnail
        request(
            "POST", "/channels/9/messages", new, json=board, response={"id": "101"}, files=[picture], channel_id="9"
        ),
        # an edit pings nobody, whatever it mentions
        request(
            "PATCH", "/channels/9/messages/101", edit, json={"content": "<@5> <@6>"}, channel_id="9", message_id="101"
        ),
        # allowed_mentions users=False (discord.py: parse without "users", no list): no ping
        request(
            "POST",
            "/channels/9/messages",
            new,
            json={"content": "<@6>", "allowed_mentions": {"parse": []}},
            response={"id": "102"},
            channel_id="9",
        ),
        # a DM without allowed_mentions: every mention pings; not a thread post
        request(
            "POST", "/channels/8/messages", new, json={"content": "<@5> hi"}, response={"id": "103"}, channel_id="8"
        ),
        # refused (429): nothing was sent
        request("POST", "/channels/7/messages", new, status=429, json={"content": "<@5>"}, channel_id="7"),
        # an ephemeral answer: no ping, no post
        request(
            "POST",
            "/interactions/1/tok1/callback",
            callback,
            json={"type": 4, "data": {"content": "<@6>", "flags": 64, "allowed_mentions": {"parse": ["users"]}}},
        ),
        # the component's message updated: an edit; a V2 Thumbnail of an upload counts as a thumbnail
        request(
            "POST",
            "/interactions/2/tok2/callback",
            callback,
            json={
                "type": 7,
                "data": {
                    "flags": 1 << 15,
                    "components": [
                        {
                            "type": 17,
                            "components": [
                                {
                                    "type": 9,
                                    "components": [{"type": 10, "content": "Board"}],
                                    "accessory": {"type": 11, "media": {"url": "attachment://b.png"}},
                                }
                            ],
                        }
                    ],
                },
            },
        ),
        # deferred, then filled in: one post (not an edit) that pings bob
        request("POST", "/interactions/3/tok3/callback", callback, json={"type": 5, "data": {}}),
        request(
            "PATCH",
            f"/webhooks/{app}/tok3/messages/@original",
            "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
            json={"content": "<@6> your turn", "allowed_mentions": {"parse": ["users"]}},
        ),
    ]
    figures = match_figures(server, requests, players=[ann, bob], closed=bob, channel_id=7, player_turns=2)
    assert figures["thread_posts_per_match"] == 3  # 101, 102, 106
    assert figures["edits_per_match"] == 2  # 101 twice
    assert figures["detail"]["pings_by_player"] == {"ann": 1, "bob": 2}
    assert figures["pings_max_per_player"] == 2 and figures["closed_dm_pings"] == 2
    assert figures["picture_mb_per_match"] == 0.5
    assert figures["board_thumbnails"] == 2
    assert figures["player_turns"] == 2 and figures["thread_posts_per_player_turn"] == 1.5
    assert figures["edits_per_player_turn"] == 1.0
    assert figures["detail"]["ephemeral_messages"] == 1 and figures["detail"]["dm_messages"] == 1
    assert figures["detail"]["picture_kb_by_kind"] == {"board.png": [1, 500.0]}


def test_a_player_turn_ends_when_the_move_passes():
    tally = Tally()
    for seat in (0, 0, 0, 1, 1, 0, 1):
        tally.moved(1.0, "", seat=seat)
    assert tally.player_turns == 4 and tally.moves == 7


def test_the_prompt_is_found_at_any_depth_of_the_layout_components():
    msg = HarnessMessage(
        id=1,
        channel_id=9,
        guild_id=None,
        author_id=100,
        kind="channel",
        payload={
            "flags": 1 << 15,
            "components": [
                {
                    "type": 17,
                    "components": [
                        {"type": 10, "content": "Your move"},
                        {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
                        {
                            "type": 9,
                            "components": [{"type": 10, "content": "Move"}],
                            "accessory": {"type": 2, "style": 1, "custom_id": "m:1:0:3:move", "label": "Move"},
                        },
                        {"type": 14},
                        {
                            "type": 1,
                            "components": [
                                {"type": 2, "style": 2, "custom_id": "m:1:0:3:end", "label": "End turn"},
                                {"type": 2, "style": 5, "url": "https://example.com", "label": "Rules"},
                            ],
                        },
                    ],
                },
                {"type": 1, "components": [{"type": 3, "custom_id": "m:1:0:3:pick", "options": [{"value": "a"}]}]},
            ],
        },
    )
    found = [c["custom_id"] for c in msg.walk_components() if usable(c, "m:1:0:3:")]
    assert found == ["m:1:0:3:move", "m:1:0:3:end", "m:1:0:3:pick"]


@pytest.mark.slow
async def test_a_quick_match_has_a_seat_whose_dms_are_closed_and_a_steady_pace(tmp_path):
    figures = await play("firewall", think=2.0, seed=SEED, images=True, workdir=tmp_path)
    detail = figures["detail"]
    assert detail["status"] == "finished" and detail["closed_dm_player"] == "bob"
    assert detail["dm_messages"] > 0  # ann's prompts still come by DM; bob gets none (his DMs are closed)
    assert figures["picture_mb_per_match"] > 0 and all(key in figures for key in MATCH_KEYS)
    again = await play("firewall", think=2.0, seed=SEED, images=False, workdir=tmp_path / "open", closed_dm=False)
    assert again["detail"]["closed_dm_player"] is None and again["closed_dm_pings"] == 0
