"""Practice against the computer through discord.py's real objects and the fake Discord (every
payload checked against Discord's schema, rate limits enforced): /practice for each game played
to the end by a player clicking the bot's prompts while the computer moves by itself (a thread, a
live board, prompts, the end card saying "Practice: unrated", no rating, a replayable log); the
Hint button (an ephemeral answer with a move and a chance; refused for another player, an old
prompt or a match without computers); /hint; computer seats at a Magic Duel table through
/challenge; bad input answered clearly with nothing created."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest

from db import RatingsRepository
from rules.match import Match, MatchLog
from tests.discord_flows import SEED, in_match, latest_prompt, setup_players
from tests.discord_harness.traffic import Monkey


def said(result: Any) -> str:
    """Everything the bot answered an interaction with (a deferred reply edits its first message)."""
    return "\n".join(m.content or "" for m in result.messages)


OPTIONS = {"arena": "grid_size=8 terrain_count=4", "magic-duel": "points_to_win=1"}


@pytest.fixture
async def practice_bot(make, tmp_path):
    """``h, bot, db = await practice_bot(name)``: the bot with its computers thinking in a thread
    pool (the process pool has its own test in tests/test_practice_service.py), their pause
    before each move passing on the harness's clock."""
    pools: list[concurrent.futures.Executor] = []

    async def factory(name: str = "practice"):
        h, bot, db = await make(tmp_path / f"{name}.sqlite3")
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        pools.append(pool)
        computer = bot.service.computer
        computer._executor, computer._owns_executor = pool, False

        async def paced(seconds: float) -> None:  # the pause passes on the harness's clock
            h.advance(seconds)
            await asyncio.sleep(0)

        computer.sleep = paced  # the default pace (Settings.ai_pace_seconds) keeps the rate limits
        return h, bot, db

    yield factory
    for pool in pools:
        pool.shutdown(wait=True, cancel_futures=True)


class Learner(Monkey):
    """The people at a practice table click their prompts (as in bench traffic); the computers
    move by themselves meanwhile."""

    def __init__(self, h: Any, bot: Any, match_id: int, people: dict[int, Any]) -> None:
        super().__init__(h, bot.service, match_id, list(people.values()), think=1.0, click_time=0.0, seed=SEED)
        self.people = people
        self.bot = bot

    async def play(self) -> Any:
        with self.monitor.installed():
            for _ in range(2000):
                await self.bot.service.computers_settle()
                await self.harness.settle()
                if not await self.active():
                    return self.tally
                moved = False
                for seat, user in self.people.items():
                    sp = await self.service.prompt(self.match_id, seat)
                    if sp.awaited:
                        await self.move(seat, user, sp.seat_step)
                        moved = True
                        break
                if not moved and not self.bot.service.computer.thinking():
                    awaiting = (await self.bot.service.prompt(self.match_id, 0)).view
                    raise AssertionError(f"nobody moves in match #{self.match_id}: {awaiting}")
        raise AssertionError("the practice match did not end")


def practice_args(slug: str, **more: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"game": slug, "level": "easy", **more}
    if slug in OPTIONS:
        args["options"] = OPTIONS[slug]
    return args


@pytest.mark.parametrize("slug", ["wizards-cup", "firewall", "magic-duel", "arena"])
async def test_practice_plays_a_whole_match_against_the_computer(practice_bot, slug):
    h, bot, db = await practice_bot()
    guild, ch, ann, bob = setup_players(h)
    computers = 2 if slug == "magic-duel" else 1
    r = await h.slash(ann, ch, "practice", practice_args(slug, computers=computers))
    assert "is on" in r.message.text() and "practice match against the computer: not rated" in r.message.text()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    assert record.practice and record.seats[0].user_id == ann.id and record.ai_seats == list(range(1, computers + 1))
    assert all(s.user_id < 0 and "(AI, easy)" in s.display_name for s in record.seats[1:])
    (thread,) = h.threads(ch)  # the match is told in its thread, as any match
    # the person's prompts carry a Hint button
    await bot.service.computers_settle()
    await h.settle()
    hinted = [m for m in h.server.messages.values() if any(c.startswith(f"hint:{record.id}:0:") for c in m.custom_ids)]
    assert hinted and (await bot.service.prompt(record.id, 0)).awaited
    tally = await Learner(h, bot, record.id, {0: ann}).play()
    await bot.service.computers_settle()
    await h.settle()
    done = await bot.service.get(record.id)
    assert str(done.status) == "finished" and done.outcome is not None
    assert tally.moves > 0 and bot.service.computer.decisions > 0
    # never a DM to a computer: every DM channel opened is a person's
    recipients = {int(q.json["recipient_id"]) for q in h.requests if q.path == "/users/@me/channels"}
    assert recipients <= {ann.id}
    # the card: unrated, the computer named as such; nothing rated
    card = [m for m in h.messages_in(thread) if any(c.startswith("end:rematch:") for c in m.custom_ids)]
    assert card and "Practice: unrated" in card[-1].text() and "Computer player" in card[-1].text()
    assert await RatingsRepository(db).changes_for_match(record.id) == []
    assert await db.fetchall("SELECT * FROM rating_queue") == []
    # recorded and replayable: the stored log replays to the stored outcome
    data = await bot.service.match_log(record.id)
    assert Match.replay(MatchLog.model_validate(data)).state.outcome is not None
    assert h.violations == [] and h.rate_limit_hits == []


async def test_hint_button_answers_privately_and_refuses_others_and_old_prompts(practice_bot):
    h, bot, db = await practice_bot("hint")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", {"game": "firewall", "level": "normal"})
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    assert sp.awaited
    cid = f"hint:{record.id}:0:{sp.seat_step}"
    prompt = latest_prompt(h.dms_to(ann))
    assert cid in prompt.custom_ids
    before = await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (record.id,))
    # the player's click: an ephemeral hint with a move and a chance
    mine = await h.click(ann, prompt, cid)
    await h.settle()
    assert mine.ephemeral and "💡 **Hint**" in said(mine) and "You bet" in said(mine) and "%**" in said(mine)
    assert await db.fetchval("SELECT COUNT(*) FROM actions WHERE match_id = ?", (record.id,)) == before
    # /hint does the same
    slash = await h.slash(ann, ch, "hint")
    await h.settle()
    assert "💡 **Hint**" in said(slash)
    # once the player has moved, the old button is stale
    action = sp.legal_actions[0]
    await bot.service.submit(record.id, ann.id, action, seat_step=sp.seat_step)
    await h.settle()
    stale = await h.click(ann, prompt, cid)
    await h.settle()
    assert "earlier move" in said(stale) or "not your move" in said(stale), said(stale)
    assert h.violations == []


async def test_another_player_cannot_use_a_public_prompts_hint(practice_bot):
    h, bot, db = await practice_bot("arena-hint")
    guild, ch, ann, bob = setup_players(h)
    await h.slash(ann, ch, "practice", practice_args("arena"))
    await h.settle()
    await bot.service.computers_settle()
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    sp = await bot.service.prompt(record.id, 0)
    cid = f"hint:{record.id}:0:{sp.seat_step}"
    (thread,) = h.threads(ch)
    public = [m for m in h.messages_in(thread) if cid in m.custom_ids]  # Arena's prompts are in the thread
    assert public
    other = await h.click(bob, public[-1], cid)
    assert other.ephemeral and "another player's prompt" in said(other)
    assert bot.service.computer._hinting == set()
    mine = await h.click(ann, public[-1], cid)
    await h.settle()
    assert "💡 **Hint**" in said(mine)


async def test_hints_are_refused_outside_practice_matches(practice_bot):
    h, bot, db = await practice_bot("nohint")
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "challenge", {"game": "firewall", "opponent": bob})
    await h.click(bob, r.message, label="Accept")
    await h.settle()
    prompt = latest_prompt(h.dms_to(ann))
    assert not any(c.startswith("hint:") for c in prompt.custom_ids)  # no button on a rated match
    refused = await h.slash(ann, ch, "hint")
    assert "no practice match" in said(refused)


async def test_computer_seats_at_a_magic_duel_table(practice_bot):
    h, bot, db = await practice_bot("table")
    guild, ch, ann, bob = setup_players(h)
    args = {"game": "magic-duel", "opponent": bob, "computers": 2, "level": "easy", "options": "points_to_win=1"}
    r = await h.slash(ann, ch, "challenge", args)
    text = r.message.text()
    assert "Merlin (AI, easy)" in text and "Morgana (AI, easy)" in text and "not rated" in text
    (record,) = await bot.service.live_matches_for(bob.id)
    assert [s.accepted for s in record.seats] == [True, False, True, True]  # the computers have accepted
    await h.click(bob, r.message, label="Accept")
    await h.settle()
    assert str((await bot.service.get(record.id)).status) == "active"
    await Learner(h, bot, record.id, {0: ann, 1: bob}).play()
    done = await bot.service.get(record.id)
    assert str(done.status) == "finished"
    assert await RatingsRepository(db).changes_for_match(record.id) == []  # the people are not rated either
    assert h.violations == []


async def test_bad_practice_requests_are_answered_and_create_nothing(practice_bot):
    h, bot, db = await practice_bot("bad")
    guild, ch, ann, bob = setup_players(h)
    too_many = await h.slash(ann, ch, "practice", {"game": "firewall", "computers": 3})
    assert "Firewall seats at most 2 players" in said(too_many)
    bad_options = await h.slash(ann, ch, "practice", {"game": "arena", "options": "grid_size=99"})
    assert "grid_size" in said(bad_options)
    assert await db.fetchval("SELECT COUNT(*) FROM matches") == 0
    for _ in range(3):
        await h.slash(ann, ch, "practice", {"game": "wizards-cup", "level": "easy"})
        await h.settle()
    fourth = await h.slash(ann, ch, "practice", {"game": "wizards-cup"})
    assert "already have 3 practice matches" in said(fourth)
    assert await db.fetchval("SELECT COUNT(*) FROM matches") == 3
    await bot.service.computers_settle()
    await h.settle()
    assert len(h.threads(ch)) == 3 and all(m.channel_id for m in in_match(h, ch))
