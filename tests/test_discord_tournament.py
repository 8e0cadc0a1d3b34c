"""Tournaments in Discord (cogs/tournaments.py) through the fake Discord: /tournament create, the
sign-up message's Join / Leave buttons (foreign, stale and double clicks refused with nothing
changed), the organizer's /tournament start, a whole 4-player Swiss tournament of Wizards Cup
played through the match service, the one tournament message edited in place, the champion
announced and /tournament history. Every request body is checked against Discord's schema by the
harness."""

from __future__ import annotations

import random
from typing import Any

from bot.matches import MatchStatus
from tests.discord_flows import setup_players


def said(result: Any) -> str:
    if result.followups:
        return "\n".join(m.text() for m in result.followups)
    return result.content or ""


async def create(h: Any, ch: Any, user: Any, **more: Any) -> Any:
    options = {"game": "wizards-cup", "format": "swiss", **more}
    return await h.slash(user, ch, "tournament create", options)


async def move_once(bot: Any, match_id: int, rng: random.Random) -> bool:
    """One random legal move by an awaited seat; False when the match cannot move."""
    m = await bot.service.get(match_id)
    if m.status is not MatchStatus.ACTIVE:
        return False
    seats = list(range(len(m.seats)))
    rng.shuffle(seats)
    for s in seats:
        p = await bot.service.prompt(match_id, s)
        if p.awaited and p.decision is not None and len(p.decision.choices) > 0:
            action = p.decision.choices[rng.randrange(len(p.decision.choices))]
            await bot.service.submit(match_id, m.seats[s].user_id, action, seat_step=p.seat_step)
            return True
    return False


async def play_to_end(h: Any, bot: Any, tid: int, seed: int = 3) -> Any:
    rng = random.Random(seed)
    for _ in range(10_000):
        view = await bot.tournaments.view(tid)
        if view.status.value != "running":
            break
        live = [link.match_id for link in view.current_links().values() if not link.recorded]
        progressed = False
        for match_id in live:
            progressed = await move_once(bot, match_id, rng) or progressed
        await h.settle()
        h.advance(3)  # players take their time: the posts stay within Discord's rate limits
        if not progressed:
            await bot.service.settle()
            await bot.tick_tournaments()
            await h.settle()
    await bot.service.settle()
    await bot.tick_tournaments()
    await h.settle()
    return await bot.tournaments.view(tid)


async def test_create_join_leave_by_buttons_and_refusals(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")

    r = await create(h, ch, ann, rounds=9, max_players=4)  # too many rounds for 4 players: refused, readable
    assert r.ephemeral and "allows 1 to" in r.content
    assert h.messages_in(ch) == []

    r = await create(h, ch, ann, rounds=1, max_players=4)
    msg = r.message
    assert not r.ephemeral and "Tournament #" in msg.text() and "Wizards Cup" in msg.text()
    assert {b.get("label") for b in msg.buttons} == {"Join", "Leave"}
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    assert msg.custom_ids == [f"tournament:join:{tid}", f"tournament:leave:{tid}"]

    joined = await h.click(bob, msg, label="Join")
    assert joined.ephemeral and "You joined" in joined.content
    assert "bob" in msg.text() and "Players (1/4)" in msg.text()
    again = await h.click(bob, msg, label="Join")  # a double click: refused, nothing changed
    assert again.ephemeral and "already joined" in again.content
    foreign = await h.click(cy, msg, label="Leave")  # never joined
    assert foreign.ephemeral and "have not joined" in foreign.content
    assert len((await bot.tournaments.record(tid)).entrants) == 1
    left = await h.click(bob, msg, label="Leave")
    assert left.ephemeral and "You left" in left.content
    assert "nobody yet" in msg.text()

    for user in (ann, bob):
        await h.click(user, msg, label="Join")
    refused = await h.slash(bob, ch, "tournament start", {})  # not the organizer
    assert "Only the organizer" in said(refused)
    assert (await bot.tournaments.record(tid)).status.value == "signup"

    # the organizer starts (from another place: the message has not been edited yet), so a click on
    # the message's Join button arrives stale: refused, nothing changed
    await bot.tournaments.start(tid, ann.id)
    stale = await h.click(cy, msg, label="Join")
    assert stale.ephemeral and "sign-up is closed" in stale.content
    await bot.tick_tournaments()  # the timer delivers the events: the buttons go, the round shows
    await h.settle()
    assert msg.components == [] and "Round 1 of 1" in msg.text()
    assert len((await bot.tournaments.record(tid)).entrants) == 2
    assert not h.violations


async def test_a_whole_swiss_tournament_in_discord(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
    r = await create(h, ch, ann, rounds=2)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    for user in players:
        await h.click(user, msg, label="Join")
    assert "Players (4)" in msg.text()
    started = await h.slash(ann, ch, "tournament start", {})
    await h.settle()
    assert "Tournament #1 started" in said(started)
    text = msg.text()
    assert "Round 1 of 2" in text and "Standings" in text
    assert "live in <#" in text  # the round's matches link their threads
    assert any("round 1 of 2 starts" in m.text() for m in h.messages_in(ch))

    view = await play_to_end(h, bot, tid)
    assert view.status.value == "finished"
    champion = view.tournament.champion
    name = view.record.name_of(champion)

    # one tournament message, edited in place (the other posts are announcements and matches)
    ours = [m for m in h.messages_in(ch) if "Tournament #" in m.text() and m.embeds and "Players" in m.text()]
    assert [m.id for m in ours] == [msg.id] and msg.edited
    assert "Finished" in msg.text() and f"🥇 {name}" in msg.text()
    assert any("round 2 of 2 starts" in m.text() for m in h.messages_in(ch))
    cards = [m for m in h.messages_in(ch) if m.embeds and f"{name} wins tournament #{tid}" in m.text()]
    assert len(cards) == 1  # the champion announced once
    assert await bot.tournaments.events(tid, pending_only=True) == []

    hist = await h.slash(bob, ch, "tournament history", {})
    text = hist.message.text()
    assert f"#{tid} Wizards Cup, Swiss" in text and f"🥇 {name}" in text and "4 players" in text
    assert not h.violations
