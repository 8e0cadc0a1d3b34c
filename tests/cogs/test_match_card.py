"""The match card (cogs/card.py, issue 31 part 1): one message per match built with Discord's layout
components, edited in place, its pictures at full width and kept when unchanged, each awaited
player's deadline, the latest events and the public buttons; within Discord's components-v2 limits
whatever the game's post holds. Every request body is validated against Discord's schema (the
harness's subset of ../shared/discord-api/openapi.json) and Discord's components-v2 rules."""

from __future__ import annotations

import io
from types import SimpleNamespace

import discord
import pytest

from bot.matches import MatchStatus
from cogs.card import MAX_COMPONENTS, MAX_TEXT, content_named, match_card, status_line
from cogs.games.base import Post
from cogs.games.pictures import CONTENT_NAMED
from tests.cogs.firewall_flows import Plan, answer
from tests.cogs.firewall_flows import challenge_and_accept as firewall_match
from tests.discord_flows import board_message, gallery_urls, in_match, is_card, latest_prompt, setup_players

V2 = 1 << 15


def card_requests(h, card_id: int):
    """The bodies that posted or edited the card ``card_id``."""
    return [
        r
        for r in h.requests
        if (r.method == "POST" and r.path.endswith("/messages") and str((r.response or {}).get("id")) == str(card_id))
        or (r.method == "PATCH" and r.path.endswith(f"/messages/{card_id}"))
    ]


async def test_the_card_is_one_layout_message_with_the_board_at_full_width_and_the_public_buttons(make, tmp_path):
    h, bot, db = await make(tmp_path / "card.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await firewall_match(h, bot, ch, ann, bob)
    card = board_message(h, ch)
    assert is_card(card) and card.content == "" and card.embeds == []
    (posted,) = [r for r in card_requests(h, card.id) if r.method == "POST"]
    body = posted.json
    assert body["flags"] & V2 and not body.get("content") and not body.get("embeds")
    kinds = [c["type"] for c in body["components"]]
    assert kinds == [17, 1]  # a container, then the row of public buttons
    inside = [c["type"] for c in body["components"][0]["components"]]
    assert 10 in inside and 12 in inside and 11 not in inside  # text, a media gallery, never a thumbnail
    # the board picture: a gallery item naming an uploaded file, named by its content
    (url,) = gallery_urls(card)
    (picture,) = card.attachments
    assert url == f"attachment://{picture['filename']}" and CONTENT_NAMED.fullmatch(picture["filename"])
    # whose move, with the deadline as a Discord timestamp; the players mentioned in the first card
    assert "Waiting for **ann**, **bob** · due <t:" in card.text()
    assert {int(u["id"]) for u in card.payload["mentions"]} == {ann.id, bob.id}
    assert card.custom_ids == ["card:rules:firewall", f"rpl:{match_id}:open"]
    # the public buttons answer privately, for whoever clicks (a spectator too)
    spectator = h.add_member(guild, "cy")
    rules = await h.click(spectator, card, "card:rules:firewall")
    assert rules.ephemeral and "Firewall" in rules.message.text()
    replay = await h.click(spectator, card, f"rpl:{match_id}:open")
    assert replay.ephemeral
    assert h.violations == [] and h.rate_limit_hits == []


@pytest.mark.slow
async def test_an_edit_of_the_card_keeps_a_picture_that_did_not_change(make, tmp_path):
    h, bot, db = await make(tmp_path / "keep.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    await firewall_match(h, bot, ch, ann, bob, "variant=chosen_order")
    card = board_message(h, ch)
    before = [r for r in card_requests(h, card.id)]
    # Ann puts her stock in order: the card says so, the bridge has not changed
    assert await answer(h, ann, latest_prompt(h.dms_to(ann)), Plan()) == "order"
    await h.settle()
    edits = [r for r in card_requests(h, card.id) if r not in before]
    assert edits and "ann has put their stock in order" in card.text()
    for edit in edits:
        assert edit.files == []  # nothing uploaded again
    assert gallery_urls(card) == [f"attachment://{a['filename']}" for a in card.attachments]
    assert len(in_match(h, ch)) == len(set(m.id for m in in_match(h, ch)))
    assert h.violations == []


def record_of(deadlines: list[int | None], status: MatchStatus = MatchStatus.ACTIVE, summary: str | None = None):
    seats = [
        SimpleNamespace(display_name=name, deadline_at=d, ai=None, user_id=i + 1)
        for i, (name, d) in enumerate(zip(["ann", "bob", "cy"], deadlines, strict=False))
    ]
    return SimpleNamespace(
        id=7, game="magic-duel", seats=seats, names=[s.display_name for s in seats], status=status, summary=summary
    )


def test_each_awaited_player_has_their_own_deadline():
    assert status_line(record_of([100, 100, None])) == "⏳ Waiting for **ann**, **bob** · due <t:100:R>"
    assert status_line(record_of([100, 200, None])) == (
        "⏳ Waiting for **ann** (due <t:100:R>), **bob** (due <t:200:R>)"
    )
    assert status_line(record_of([None, None, None])) == "⏳ Resolving…"
    over = record_of([None, None, None], MatchStatus.FINISHED, "ann wins.")
    assert status_line(over) == "🏁 ann wins."


def test_the_card_stays_within_discords_limits_whatever_the_post_holds():
    embeds = []
    files = []
    for i in range(10):
        e = discord.Embed(title=f"Part {i}", description="x" * 3000)
        for j in range(25):
            e.add_field(name=f"field {j}", value="y" * 1000)
        e.set_image(url=f"attachment://p{i}.png")
        e.set_thumbnail(url=f"attachment://t{i}.png")
        embeds.append(e)
        files.append(discord.File(io.BytesIO(b"png%d" % i), filename=f"p{i}.png"))
    view = match_card(record_of([100, 200, 300]), Post(embeds, files), latest=["z" * 500] * 10, footer="f" * 500)
    payload = view.to_components()

    def walk(items):
        for c in items:
            yield c
            yield from walk(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                yield from walk([c["accessory"]])

    flat = list(walk(payload))
    assert len(flat) <= MAX_COMPONENTS
    assert sum(len(c.get("content") or "") for c in flat if c["type"] == 10) <= MAX_TEXT
    assert all(1 <= len(c["items"]) <= 10 for c in flat if c["type"] == 12)
    assert not any(c["type"] == 11 for c in flat)  # no thumbnail component either


def test_pictures_get_their_content_as_name_and_the_embeds_follow():
    e = discord.Embed(title="Board")
    e.set_image(url="attachment://arena.png")
    post = content_named(Post([e], [discord.File(io.BytesIO(b"same bytes"), filename="arena.png")]))
    again = content_named(Post([e], [discord.File(io.BytesIO(b"same bytes"), filename="arena.png")]))
    other = content_named(Post([e], [discord.File(io.BytesIO(b"other bytes"), filename="arena.png")]))
    name = post.files[0].filename
    assert CONTENT_NAMED.fullmatch(name) and name.startswith("arena-")
    assert post.embeds[0].image.url == f"attachment://{name}" and e.image.url == "attachment://arena.png"
    assert again.files[0].filename == name != other.files[0].filename
    assert post.files[0].fp.read() == b"same bytes"
