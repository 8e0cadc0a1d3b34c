"""/replay through discord.py's real objects and the fake Discord: a finished match, page by page,
shows exactly its public events (rebuilt from the stored log), with restart-proof buttons; live,
abandoned, unknown and other servers' matches are refused."""

from __future__ import annotations

import random
import re

from db import MatchStatus
from rules.core import CHANCE
from rules.match import LogEntry, Match, MatchLog
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)
from tests.test_discord_stats import World, world  # noqa: F401  (pytest fixture)


async def test_replay_shows_public_events_only_and_refuses_what_is_not_finished_here(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob, cy = (h.add_member(guild, n) for n in ("ann", "bob", "cy"))
    rng = random.Random(8)
    done = await world.start("wizards-cup", guild, [ann, bob])
    await world.play(done, rng)
    abandoned = await world.start("toy-guess", guild, [ann, bob])
    world.clock.now += 10 * 3600
    await world.service.tick()
    assert (await world.service.get(abandoned)).status is MatchStatus.ABANDONED
    live = await world.start("wizards-cup", guild, [ann, cy])
    await world.play(live, rng, until_finished=False, moves=1)  # ann's secret Deck is in
    assert (await world.service.get(live)).status is MatchStatus.ACTIVE
    record = await world.service.get(done)

    # the replay, page by page, equals the public events of the match rebuilt from its log
    rows = await world.db.actions.for_match(done)
    rebuilt = Match.replay(
        MatchLog(
            game="wizards-cup",
            options=record.options,
            seed=record.seed,
            seats=record.names,
            actions=[LogEntry(seat=CHANCE if a.seat is None else a.seat, action=a.action) for a in rows],
        )
    )
    public = [e.render(record.names) for e in rebuilt.public_events()]
    private = {e.render(record.names) for e in rebuilt.events if e.visible_to is not None} - set(public)
    assert public and private  # the match had secrets

    rp = await h.slash(bob, ch, "replay", {"match": done})
    msg = rp.message
    assert not rp.ephemeral and msg.embed["title"] == f"🎞️ Replay of match #{done} · Wizards Cup"
    pages = [msg.embed["description"]]
    total = int(re.search(r"Page 1/(\d+)", msg.embed["footer"]["text"]).group(1))
    assert total >= 2
    world.bot._connection._view_store._views.clear()  # restart-proof
    for page in range(1, total):
        await h.click(cy, msg, f"replay:{done}:{page}:n")
        assert f"Page {page + 1}/{total}" in msg.embed["footer"]["text"]
        pages.append(msg.embed["description"])
    assert msg.component(f"replay:{done}:{total - 1}:n")["disabled"] is True
    assert any(f["name"] == "Result" and record.summary in f["value"] for f in msg.embed["fields"])
    text = "\n".join(pages)
    assert len(re.findall(r"^`\s*\d+` ", text, flags=re.M)) == len(public)
    for event in public:
        assert event.strip()[:100] in text
    for secret in private:
        assert secret not in text, secret

    # refusals: live, abandoned, unknown, another server's
    for match_id, words in ((live, "still being played"), (abandoned, "was abandoned"), (9999, "no match #9999")):
        refused = await h.slash(ann, ch, "replay", {"match": match_id})
        assert refused.ephemeral and words in refused.content
    other = h.add_guild("Elsewhere")
    och = h.add_text_channel(other, "general")
    eve = h.add_member(other, "eve")
    refused = await h.slash(eve, och, "replay", {"match": done})
    assert refused.ephemeral and f"no match #{done} here" in refused.content

    everything = "\n".join(m.text() for m in h.messages_in(ch, include_ephemeral=True))
    assert re.findall(rf"#{live}\b", everything) == [f"#{live}"]  # only in the refusal
    assert f"Match #{live} is still being played" in everything
    assert h.violations == []
