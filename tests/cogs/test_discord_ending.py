"""The end-of-match card through discord.py's real objects and the fake Discord (every payload
checked against Discord's schema, rate limits enforced): the card as the thread's last post and
as the channel's match message, with the stored ratings; open DM prompts closed with a link to
it; Download the match (a story to read, and a log that replays to the same outcome; a live
match's log is refused by the service: tests/cogs/test_ending.py); Rematch (a new
challenge with the seats swapped that the other player accepts; refused for outsiders and while
pending, changing nothing); an abandoned match's card; and no extra message for any of it."""

from __future__ import annotations

import asyncio
import json

import pytest

from cogs.replay import replay_button
from db import RatingsRepository
from rules.match import Match, MatchLog
from tests.cogs.wizards_cup_flows import challenge_and_accept, play_to_the_end
from tests.discord_flows import in_match, latest_prompt, setup_players
from tests.running_timer import running_firewall_match, timer_pass, until_not_active


def cards(h, where):
    """Messages showing an end-of-match card (its Rematch button)."""
    return [m for m in h.messages_in(where) if any(c.startswith("end:rematch:") for c in m.custom_ids)]


async def finished_match(make, tmp_path):
    h, bot, db = await make(tmp_path / "end.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    await play_to_the_end(h, bot, match_id, [ann, bob], ch)
    await h.settle()
    return h, bot, db, guild, ch, ann, bob, match_id


@pytest.mark.slow
async def test_the_card_ends_the_thread_and_becomes_the_match_message(make, tmp_path):
    h, bot, db, guild, ch, ann, bob, match_id = await finished_match(make, tmp_path)
    (thread,) = h.threads(ch)
    (card,) = cards(h, thread)
    assert card is h.messages_in(thread)[-1]  # the last post of the story
    (challenge,) = cards(h, ch)
    assert challenge is h.messages_in(ch)[0]  # the challenge message, edited into the result
    for shown in (card, challenge):
        text = shown.text()
        assert "🏁" in text and "Everything revealed" in text and "Deck:" in text and "Waiting:" in text
        replay = replay_button(match_id).custom_id
        assert set(shown.custom_ids) >= {f"end:rematch:{match_id}", f"end:log:{match_id}", replay}
        changes = [c for c in await RatingsRepository(db).changes_for_match(match_id) if c.scope == guild.id]
        assert len(changes) == 2
        for c in changes:
            assert f"Rating {c.display_before} → {c.display_after} ({c.delta:+d})" in text
    assert "The whole match: <#" in challenge.content
    # the prompt whose click ended the match became the record of that move, with the link
    last = [m for u in (ann, bob) for m in h.dms_to(u) if "The match is over. The result:" in m.content]
    assert len(last) == 1 and f"/{card.channel_id}/{card.id}" in last[0].content and not last[0].components
    assert h.rate_limit_hits == [] and h.violations == []


@pytest.mark.slow
async def test_download_log_replays_to_the_same_outcome(make, tmp_path):
    h, bot, db, guild, ch, ann, bob, match_id = await finished_match(make, tmp_path)
    (challenge,) = cards(h, ch)
    cy = h.add_member(guild, "cy")  # anyone who sees the card may download the log
    assert challenge.component(f"end:log:{match_id}")["label"] == "Download the match"
    r = await h.click(cy, challenge, f"end:log:{match_id}")
    assert r.ephemeral and "as a story you can read" in r.content and "python -m rules replay" in r.content
    story, sent = r.message.files
    assert story.filename == f"match-{match_id}-wizards-cup.txt" and sent.filename.endswith(".json")
    data = json.loads(sent.data)
    record = await bot.service.get(match_id)
    replayed = Match.replay(MatchLog.model_validate(data))
    assert replayed.state.outcome.to_json(record.names) == record.outcome

    # the story: title, players, result, every step by name with its lines, how it ended
    text = story.data.decode()
    lines = text.splitlines()
    assert lines[0] == f"Wizards Cup · match #{match_id}" and "Players: ann, bob" in lines
    assert any(line.startswith("Result: ") and record.summary in line for line in lines)
    assert "-- Round 1 --" in lines and "-- How it ended --" in lines
    assert any(line.startswith("ann: 1st") or line.startswith("bob: 1st") for line in lines)
    # as much as the log and the end card reveal: every secret, named with its owner; no notices
    assert "(secret, ann) ann's Deck: " in text and "(secret, bob) bob's order: " in text
    assert "is ready" not in text and "{p1}" not in text
    told_ = [int(line.split(".", 1)[0]) for line in lines if line[:1].isspace() or line[:1].isdigit()]
    assert told_ == sorted(told_) and len(told_) == len(set(told_)) > 10
    assert h.violations == []


@pytest.mark.slow
async def test_rematch_swaps_the_seats_and_starts_when_the_other_accepts(make, tmp_path):
    h, bot, db, guild, ch, ann, bob, match_id = await finished_match(make, tmp_path)
    (thread,) = h.threads(ch)
    (card,) = cards(h, thread)
    cy = h.add_member(guild, "cy")
    before = len(h.messages_in(ch))
    outsider = await h.click(cy, card, f"end:rematch:{match_id}")
    assert outsider.ephemeral and "Only the players of match" in outsider.content
    asked = await h.click(ann, card, f"end:rematch:{match_id}")
    await h.settle()
    assert asked.ephemeral and any("Rematch offered" in m.content for m in asked.messages)
    offer = h.messages_in(ch)[-1]
    assert len(h.messages_in(ch)) == before + 1 and f"<@{bob.id}>" in offer.content
    assert "Accept" in [b.get("label") for b in offer.buttons]
    assert "ann challenges bob" in offer.text() and "2. ann (host)" in offer.text()  # the seats swapped
    for clicker in (ann, bob):  # a second click, or the other player's, while the rematch is pending
        again = await h.click(clicker, card, f"end:rematch:{match_id}")
        assert again.ephemeral and "is waiting to be accepted" in again.content
    assert len(h.messages_in(ch)) == before + 1  # nothing posted
    own = await h.click(ann, offer, label="Accept")
    assert own.ephemeral and "You made this challenge" in own.content
    await h.click(bob, offer, label="Accept")
    await h.settle()
    (new,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    old = await bot.service.get(match_id)
    assert new.names == ["bob", "ann"] and new.options == old.options and new.game == old.game
    assert h.rate_limit_hits == [] and h.violations == []


async def test_a_forfeit_closes_the_others_prompt_with_a_link_to_the_card(make, tmp_path):
    h, bot, db = await make(tmp_path / "end.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    prompt = latest_prompt(h.dms_to(bob))
    assert prompt is not None
    assert not any("Everything revealed" in m.text() or "Deck:" in m.text() for m in in_match(h, ch))  # not yet
    await h.slash(ann, ch, "forfeit", {"match": match_id})
    await h.settle()
    (thread,) = h.threads(ch)
    (card,) = cards(h, thread)
    assert "🏳️ ann resigned." in card.text() and "Everything revealed" in card.text()
    assert not prompt.components and "is over" in prompt.content
    assert f"/{card.channel_id}/{card.id}" in prompt.content  # the link to the result
    assert h.violations == []


async def test_an_abandoned_match_gets_its_card_and_its_match_card_links_to_it(make, tmp_path):
    h, bot, db = await make(tmp_path / "end.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await challenge_and_accept(h, bot, ch, ann, bob)
    (thread,) = h.threads(ch)
    posted = len(h.messages_in(thread))
    clock["now"] += 10 * 3600
    await timer_pass(bot.service)
    await h.settle()
    assert (await bot.service.get(match_id)).status == "abandoned"
    (card,) = cards(h, thread)
    # the result is posted (a match card cannot become an embed card), and the match card became
    # a link to it: one message more, nothing stale left
    assert len(h.messages_in(thread)) == posted + 1 and card is h.messages_in(thread)[-1]
    retired = [m for m in h.messages_in(thread) if "is over: the result is at" in m.text()]
    assert len(retired) == 1 and retired[0].edited and f"/{card.id}" in retired[0].text()
    assert "Abandoned: nobody moved in time" in card.text() and "Unrated (abandoned)" in card.text()
    (challenge,) = cards(h, ch)
    assert "was abandoned" in challenge.content
    prompt = h.dms_to(ann)[-1]
    assert not prompt.components and "abandoned" in prompt.content and f"/{card.id}" in prompt.content
    assert any("abandoned" in m.text() for m in in_match(h, ch))


@pytest.mark.slow
async def test_the_client_s_timer_loop_abandons_a_silent_match_and_posts_its_card(discord_harness, tmp_path):
    """What the test above gets from ``tick()`` on a fake clock (an abandoned match gets its card,
    and its match card links to it), done by the running client's own loop on the real clock:
    ``build_bot`` with timers on, nobody calling tick."""
    async with running_firewall_match(discord_harness, tmp_path) as (h, bot, ch, ann, bob, record, ticks):
        (thread,) = h.threads(ch)
        await until_not_active(h, bot, record.id)
        assert (await bot.service.get(record.id)).status == "abandoned" and ticks() >= 1
        (card,) = cards(h, thread)
        assert "Abandoned: nobody moved in time" in card.text() and "Unrated (abandoned)" in card.text()
        retired = [m for m in h.messages_in(thread) if "is over: the result is at" in m.text()]
        assert len(retired) == 1 and f"/{card.id}" in retired[0].text()
        assert h.violations == []


async def test_late_ratings_are_edited_into_the_card_with_one_extra_call(make, tmp_path, monkeypatch):
    import bot.matches.moves
    import cogs.ending

    gate = asyncio.Event()  # the background rating waits for the test
    run = bot.matches.moves.Rater._run

    async def run_later(self):
        await gate.wait()
        await run(self)

    monkeypatch.setattr(bot.matches.moves.Rater, "_run", run_later)
    monkeypatch.setattr(cogs.ending, "RATING_WAIT", 0.01)  # read by the notifier when it is loaded
    h, bot_, db = await make(tmp_path / "end.sqlite3")
    # the card's wait for the late ratings is bounded background work: waited for below
    h.ignore_task(lambda t: t.get_name().startswith("card-") or "Rater.settle" in repr(t.get_coro()))
    try:
        guild, ch, ann, bob = setup_players(h)
        match_id = await challenge_and_accept(h, bot_, ch, ann, bob)
        patches = len(h.requests_for("PATCH", "/channels/{channel_id}/messages/{message_id}"))
        await h.slash(ann, ch, "forfeit", {"match": match_id})
        await h.settle()
        (thread,) = h.threads(ch)
        (card,) = cards(h, thread)
        assert "Rating: being computed…" in card.text() and not card.edited
        challenge = h.messages_in(ch)[0]
        assert "is on" in challenge.content  # its one edit waits for the ratings
    finally:
        gate.set()  # (the bot's shutdown waits for the ratings)
    await asyncio.gather(*bot_.service.notifier._late)
    await h.settle()
    changes = [c for c in await RatingsRepository(db).changes_for_match(match_id) if c.scope == guild.id]
    assert len(changes) == 2
    for shown in (card, challenge):  # the card edited once, then the challenge message (its one edit)
        assert all(f"Rating {c.display_before} → {c.display_after}" in shown.text() for c in changes)
        assert "being computed" not in shown.text() and len(shown.history) == 1 + (shown is challenge)
    # the edits after the forfeit: the old board retired, both open DM prompts closed, the card
    # once (the one extra call) and the challenge message once
    edits = h.requests_for("PATCH", "/channels/{channel_id}/messages/{message_id}")[patches:]
    card_path = f"/channels/{card.channel_id}/messages/{card.id}"
    assert len(edits) == 5 and [r.path for r in edits].count(card_path) == 1
