"""The Review button of a practice match's end card through discord.py's real objects and the fake
Discord (payloads checked against Discord's schema, rate limits enforced): a practice match played
to the end carries Review on its card (thread and channel message); the player's click is deferred
("thinking") and answered privately with the moves whose chance dropped most, the same review as
the pure core's (rules.ai.review) and told from the player's side; asked again (or twice at once)
it is not worked out again; someone else, a match between people, a match not over and a damaged
id are refused privately, changing nothing; a card between people has no Review button."""

from __future__ import annotations

import asyncio

import pytest

from bot.matches import NoReview, WrongStatus
from cogs.ending import card_view
from rules.ai.review import review
from rules.match import MatchLog
from tests.cogs.practice_flows import Learner, practice_args, said
from tests.discord_flows import setup_players


def custom_ids(view) -> list[str]:
    return [c.custom_id for c in view.children]


def cards(h, where, match_id: int):
    return [m for m in h.messages_in(where) if f"end:rematch:{match_id}" in m.custom_ids]


async def finished_practice(h, bot, ch, ann) -> int:
    await h.slash(ann, ch, "practice", practice_args("wizards-cup"))
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    await Learner(h, bot, record.id, {0: ann}).play()
    await bot.service.computers_settle()
    await h.settle()
    assert str((await bot.service.get(record.id)).status) == "finished"
    return record.id


def test_the_card_view_offers_review_only_for_practice() -> None:
    assert "review:7" not in custom_ids(card_view(7))
    assert custom_ids(card_view(7, practice=True))[-1] == "review:7"


@pytest.mark.slow
async def test_review_of_a_practice_match(practice_bot) -> None:
    h, bot, db = await practice_bot("review")
    h.settle_timeout = 300.0  # a click waits for the review's jobs in the pool (a few seconds of CPU)
    guild, ch, ann, bob = setup_players(h)
    match_id = await finished_practice(h, bot, ch, ann)
    (thread,) = h.threads(ch)
    (card,) = cards(h, thread, match_id)
    (result,) = cards(h, ch, match_id)
    for shown in (card, result):
        assert f"review:{match_id}" in shown.custom_ids
        assert shown.component(f"review:{match_id}")["label"] == "Review"

    r = await h.click(ann, card, f"review:{match_id}")
    assert r.deferred and r.ephemeral  # "thinking" first: the review takes a while
    text = said(r) + "\n".join(m.text() for m in r.messages)
    assert f"Review of match #{match_id} · Wizards Cup" in text, text
    expected = review(MatchLog.model_validate(await bot.service.match_log(match_id)), 0)
    assert f"{expected.decisions} decisions of yours reviewed" in text
    assert bot.service.reviews.worked == 1
    if expected.moments:
        assert "where your chance to win dropped most" in text
    for moment in expected.moments:
        assert f"(chance {round(moment.before * 100)}% → {round(moment.after * 100)}%)" in text
        assert moment.label in text
    # told from ann's side: her own moves and the computer's suggestion in her prompts' words
    assert "You played: **" in text or not expected.moments
    assert "The computer would have played: **" in text or not expected.moments
    record = await bot.service.get(match_id)
    assert record.names[1] not in text.replace(f"vs {record.names[1]}", "")  # nothing of the computer's hand

    # asked again (from the channel's card), or twice at once: the same, not worked out again
    again = await h.click(ann, result, f"review:{match_id}")
    assert "\n".join(m.text() for m in again.messages) == "\n".join(m.text() for m in r.messages)
    bot.service.reviews._kept.clear()
    first, second = await asyncio.gather(
        bot.service.review(match_id, ann.id, guild.id), bot.service.review(match_id, ann.id, guild.id)
    )
    assert first == second and bot.service.reviews.worked == 2

    # someone who did not play: refused privately, nothing worked out
    other = await h.click(bob, card, f"review:{match_id}")
    assert other.ephemeral and said(other) == f"⚠️ Only the players of match #{match_id} can review it."
    assert bot.service.reviews.worked == 2

    # a practice match not over yet
    await h.slash(ann, ch, "practice", practice_args("firewall"))
    await h.settle()
    (live,) = [m for m in await bot.service.live_matches_for(ann.id) if m.id != match_id]
    with pytest.raises(WrongStatus):
        await bot.service.review(live.id, ann.id, guild.id)
    # a damaged id
    bad = await h.click(ann, await forged(bot, h, ch, "review:x"), "review:x")
    assert bad.ephemeral and "damaged or out of date" in said(bad)
    assert h.rate_limit_hits == [] and h.violations == []


async def forged(bot, h, ch, custom_id: str):
    import discord

    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Review", custom_id=custom_id))
    await bot.get_channel(ch.id).send("a copied message", view=view)
    return h.last_message(ch)


@pytest.mark.slow
async def test_a_match_between_people_has_no_review(practice_bot) -> None:
    h, bot, db = await practice_bot("people")
    guild, ch, ann, bob = setup_players(h)
    s = bot.service
    match_id = (await s.create_challenge("firewall", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")])).id
    await s.accept(match_id, bob.id)
    await s.forfeit(match_id, bob.id)
    await s.settle()
    await h.settle()
    shown = [m for where in (ch, *h.threads(ch)) for m in cards(h, where, match_id)]
    assert shown and all(not any(i.startswith("review:") for i in m.custom_ids) for m in shown)
    r = await h.click(ann, await forged(bot, h, ch, f"review:{match_id}"), f"review:{match_id}")
    assert r.ephemeral and said(r) == "⚠️ Reviews are for practice matches (against the computer) only."
    with pytest.raises(NoReview):
        await s.review(match_id, ann.id, guild.id)
    assert s.reviews.worked == 0 and h.violations == []
