"""Platform features any game's UI may use, shown with the toy game and a minimal UI: free-text
answers through a modal (stateless: answered from its custom_id, also after a restart), the legal
actions handed to the UI, and prompts posted in the channel for open-information games. Every request
body is validated against Discord's schema by the harness."""

from __future__ import annotations

import time

import pytest

from tests.discord_flows import in_match, is_card, setup_players

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered


@pytest.fixture
def toy_ui():
    """Registers the toy game with its UI (``public``: prompts posted in the channel) for the test."""
    from dataclasses import replace

    from rules.registry import registered
    from tests.toy_game import TOY

    stack = []

    def use(public: bool = False) -> None:
        ctx = registered(replace(TOY, ui="tests.toy_ui:PUBLIC_UI" if public else "tests.toy_ui:UI"))
        ctx.__enter__()
        stack.append(ctx)

    yield use
    for ctx in reversed(stack):
        ctx.__exit__(None, None, None)


async def start_toy(bot, ch, ann, bob) -> int:
    record = await bot.service.create_challenge(
        "toy-guess", {"high": 3}, ch.guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
    )
    await bot.service.accept(record.id, bob.id)
    return record.id


async def test_free_text_through_a_modal(make, tmp_path, toy_ui):
    toy_ui()
    h, bot, db = await make(tmp_path / "toy.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start_toy(bot, ch, ann, bob)
    await h.settle()
    (dm,) = [m for m in h.dms_to(ann) if m.components]
    assert "1 to 3" in dm.text()  # the UI got the legal actions
    opened = await h.click(ann, dm, label="Type your guess")
    assert opened.response_name == "MODAL"
    bad = await h.submit_modal(ann, {"text": "two"})
    assert bad.ephemeral and "not a whole number" in bad.content
    assert await bot.service.seat_step(match_id, 0) == 0  # nothing changed
    await h.click(ann, dm, label="Type your guess")
    await h.submit_modal(ann, {"text": "2"})
    await h.settle()
    assert await bot.service.seat_step(match_id, 0) == 1
    assert "Locked in" in dm.text() and "You guessed 2." in dm.text()  # the answered prompt is a record
    # an old modal (or one answered twice) is stale, and another player cannot answer it
    stale = await h.submit_modal(ann, {"text": "3"}, custom_id=f"m:{match_id}:0:0:typed", channel=dm.channel_id)
    assert stale.ephemeral and "out of date" in stale.content
    foreign = await h.submit_modal(bob, {"text": "3"}, custom_id=f"m:{match_id}:0:1:typed", channel=ch)
    assert foreign.ephemeral and "another player" in foreign.content


async def test_open_information_prompts_are_posted_in_the_channel(make, tmp_path, toy_ui):
    toy_ui(public=True)
    h, bot, db = await make(tmp_path / "toy.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start_toy(bot, ch, ann, bob)
    await h.settle()
    assert not [m for m in h.dms_to(ann) if m.components]  # nothing private
    prompts = [m for m in in_match(h, ch) if m.components and not is_card(m)]
    assert {m.content.split()[0] for m in prompts} == {ann.mention, bob.mention}
    bobs = next(m for m in prompts if m.content.startswith(bob.mention))
    refused = await h.click(ann, bobs, label="Type your guess")
    assert refused.ephemeral and "another player" in refused.content
    await h.click(bob, bobs, label="Type your guess")
    await h.submit_modal(bob, {"text": "1"})
    await h.settle()
    assert await bot.service.seat_step(match_id, 1) == 1


async def test_a_channel_prompt_gives_each_player_their_own_seat_page_privately(make, tmp_path, toy_ui, monkeypatch):
    """A prompt in the channel never carries a seat's link (anyone there could play it): its "Play
    in the browser" button answers the player who clicks, privately, with their own seat's page
    (issue 35, part 3; cogs/web_seat.py); anyone else is refused."""
    from bot.signing import seat_ident

    monkeypatch.setenv("PUBLIC_URL", "https://referee.example.org")
    toy_ui(public=True)
    h, bot, db = await make(tmp_path / "toy.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    carl = h.add_member(guild, "carl")
    match_id = await start_toy(bot, ch, ann, bob)
    await h.settle()
    prompts = [m for m in in_match(h, ch) if m.components and not is_card(m)]
    assert prompts and all("/p/" not in str(m.payload) for m in in_match(h, ch))
    for seat, user in enumerate((ann, bob)):
        answer = await h.click(user, prompts[0], f"web:seat:{match_id}")
        assert answer.ephemeral and "keep this link to yourself" in answer.content
        url = next(c["url"] for row in answer.message.payload["components"] for c in row["components"])
        assert bot.signer.read("seat", url.rsplit("/p/", 1)[1]) == seat_ident(match_id, seat)
    refused = await h.click(carl, prompts[0], f"web:seat:{match_id}")
    assert refused.ephemeral and "Only the players" in refused.content and "/p/" not in str(refused.payload)
    assert h.violations == []  # (another server's click: tests/cogs/test_server_isolation.py)


async def test_channel_prompts_ping_only_when_the_move_passes(make, tmp_path, toy_ui):
    toy_ui(public=True)
    h, bot, db = await make(tmp_path / "toy.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    record = await bot.service.create_challenge(
        "toy-guess", {"high": 3, "follow_up": True}, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
    )
    await bot.service.accept(record.id, bob.id)
    await h.settle()

    def prompt_posts():
        return [
            r.json
            for r in h.requests_for("POST", "/channels/{channel_id}/messages")
            if r.json.get("components") and str(r.json.get("content", "")).startswith("<@")
        ]

    # the match card mentioned both players a moment ago: the opening prompts do not ping again
    assert [p["allowed_mentions"]["parse"] for p in prompt_posts()] == [[], []]
    posted = len(prompt_posts())
    for user in (bob, ann):  # Ann answers last, so the follow-up comes right after her own move
        msg = next(m for m in in_match(h, ch) if m.components and m.content.startswith(user.mention))
        await h.click(user, msg, label="Type your guess")
        await h.submit_modal(user, {"text": "2"})
        await h.settle()
    # her own turn goes on: the prompt she answered shows the next step, edited in place through her
    # click (no new post, no new ping)
    assert len(prompt_posts()) == posted
    assert msg.content.startswith(ann.mention) and "Double" in msg.content and msg.components


async def test_a_player_idle_past_ping_after_is_pinged_when_the_move_comes_to_them(make, tmp_path, toy_ui):
    """Pings only when someone is waited on (/settings ping_after, default 2 minutes): a player
    who has neither clicked in the match nor been mentioned in it for that long is mentioned when
    the move passes to them; one clicking along is not."""
    toy_ui(public=True)
    h, bot, db = await make(tmp_path / "toy.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    record = await bot.service.create_challenge(
        "toy-guess", {"high": 3, "follow_up": False}, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
    )
    await bot.service.accept(record.id, bob.id)
    await h.settle()
    table = bot.service.notifier.table
    assert table.quiet_for(record.id, 0) is not None and table.quiet_for(record.id, 0) < 60  # the card's ping

    def pinged() -> list[list[str]]:
        return [
            r.json["allowed_mentions"]["parse"]
            for r in h.requests_for("POST", "/channels/{channel_id}/messages")
            if r.json.get("components") and str(r.json.get("content", "")).startswith("<@")
        ]

    before = len(pinged())
    # an hour passes without anyone clicking or being mentioned: the next prompts ping
    for seat in (0, 1):
        table.pinged(record.id, seat, at=time.time() - 3600)
        table.touch(record.id, seat, at=time.time() - 3600)
    for user in (bob, ann):
        msg = next(m for m in reversed(in_match(h, ch)) if m.components and m.content.startswith(user.mention))
        await h.click(user, msg, label="Type your guess")
        await h.submit_modal(user, {"text": "2"})
        await h.settle()
    if (await bot.service.get(record.id)).status == "active":
        assert ["users"] in pinged()[before:]  # the round's new prompts mention the idle players
