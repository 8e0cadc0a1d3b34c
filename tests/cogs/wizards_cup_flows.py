"""A Wizards Cup match through the fake Discord (tests/cogs/test_discord_wizards_cup.py, the endings and
the threads tests): challenge and accept, answer prompts like a player, play to the end."""

from __future__ import annotations

from tests.discord_flows import in_match, latest_prompt


async def challenge_and_accept(h, bot, ch, ann, bob) -> int:
    r = await h.slash(ann, ch, "challenge", {"opponent": bob, "game": "wizards-cup"})
    msg = r.message
    assert "challenges" in msg.text() and msg.component(label="Accept")
    # only the challenged player may accept
    refused = await h.click(ann, msg, label="Accept")
    assert refused.ephemeral and "⚠️" in refused.content
    await h.click(bob, msg, label="Accept")
    await h.settle()
    assert "match #" in msg.content.lower()
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    return record.id


async def answer(h, user, msg) -> None:
    """Work through one prompt like a player: selects take their first options (or "keep"),
    buttons the first that is not "Start over"; stop when the prompt has no components left."""
    for _ in range(20):
        if not msg.components:
            return
        if msg.selects:
            sel = msg.selects[0]
            values = [o["value"] for o in sel["options"]]
            values = ["keep"] if "keep" in values else values[: sel.get("min_values", 1)]
            await h.select(user, msg, sel["custom_id"], values)
        else:
            button = next(b for b in msg.buttons if b.get("label") != "Start over")
            await h.click(user, msg, button["custom_id"])
        await h.settle()
    raise AssertionError("the prompt never finished")


async def play_seat(h, bot, match_id, seat, user, ch) -> bool:
    """Answer the seat's current prompt wherever it is (DM, or the channel's private button)."""
    sp = await bot.service.prompt(match_id, seat)
    if not sp.awaited:
        return False
    record = await bot.service.get(match_id)
    msg = latest_prompt(h.dms_to(user)) if record.seats[seat].dm_ok else None
    if msg is None and record.seats[seat].dm_ok:
        # e.g. after a restart the old DM is gone from this fake Discord: /status reopens the prompt
        st = await h.slash(user, ch, "status")
        await h.click(user, st.message, next(c for c in st.message.custom_ids if c == f"open:{match_id}:{seat}"))
        await h.settle()
        msg = latest_prompt(h.ephemeral_responses_to(user))
    elif msg is None:
        opener = [m for m in in_match(h, ch) if any(c.startswith("open:") for c in m.custom_ids)][-1]
        await h.click(user, opener, next(c for c in opener.custom_ids if c.startswith(f"open:{match_id}:")))
        await h.settle()
        msg = latest_prompt(h.ephemeral_responses_to(user))
    assert msg is not None, "no prompt found"
    await answer(h, user, msg)
    return True


async def play_to_the_end(h, bot, match_id, users, ch) -> None:
    for _ in range(100):
        record = await bot.service.get(match_id)
        if record.status != "active":
            return
        moved = False
        for seat, user in enumerate(users):
            if (await bot.service.get(match_id)).status != "active":
                return
            moved |= await play_seat(h, bot, match_id, seat, user, ch)
        assert moved, "nobody could move"
    raise AssertionError("the match did not end")
