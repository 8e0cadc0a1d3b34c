"""Arena end to end through discord.py's real objects and the fake transport: /challenge, set-up
through each player's private control panel (Disciplines with their cards, a Wizard named
through a modal, terrain placed by coordinate or at random, edges, deployment), the board
picture after every action, the turn's buttons and selects (only legal squares and targets), a
whole game to the knock-out, the other player unable to see or click the panel, a restart in the
middle, the time limit and a forfeit. The service's seed is fixed, so chance is drawn from
``chance_rng(seed, index)`` and every run plays the same game. Every request body is validated
against Discord's schema by the harness."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

from rules.arena import parse_label
from tests.discord_flows import RecordingIds, forget_posted_messages, in_match, setup_players
from tests.discord_harness import HarnessError
from tests.running_timer import timer_pass

OPTIONS = "grid_size=8 terrain_count=4"


async def start(h, bot, ch, ann, bob, options: str = OPTIONS) -> int:
    r = await h.slash(ann, ch, "challenge", {"opponent": bob, "game": "arena", "options": options})
    await h.click(bob, r.message, label="Accept")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    return record.id


def prompt_for(h, ch, match_id: int, seat: int):
    """The newest control panel of ``seat`` that still has components (its custom_ids name the
    seat): a DM, or an ephemeral message where DMs are closed (never the thread)."""
    mark = f"m:{match_id}:{seat}:"
    live = [m for m in h.server.messages.values() if not m.deleted and any(c.startswith(mark) for c in m.custom_ids)]
    assert not any(m.guild_id and not m.ephemeral for m in live), "Arena's controls are private"
    return max(live, key=lambda m: m.id) if live else None


def option_values(select) -> list[str]:
    return [o["value"] for o in select["options"]]


def find_select(msg, payload: str):
    for s in msg.selects:
        if s["custom_id"].rsplit(":", 1)[-1] == payload:
            return s
    return None


def find_button(msg, payload: str):
    for b in msg.buttons:
        if b["custom_id"].rsplit(":", 1)[-1] == payload:
            return b
    return None


def dist(a, b) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


async def aggressive_step(h, bot, match_id: int, seat: int, user, msg, disciplines) -> None:
    """One click of a player who attacks the enemy Wizard whenever they can."""
    view = await bot.service.view(match_id, None)
    models = {m["id"]: m for m in view["models"]}
    enemy = models.get(f"p{2 - seat}-wizard")
    payloads = [b["custom_id"].rsplit(":", 1)[-1] for b in msg.buttons]

    async def pick(select, value):
        await h.select(user, msg, select["custom_id"], [value])

    async def press(payload):
        await h.click(user, msg, next(b["custom_id"] for b in msg.buttons if b["custom_id"].endswith(":" + payload)))

    if (s := find_select(msg, "dsel")) is not None:
        return await pick(s, disciplines[seat])
    if any(p.startswith("dok.") for p in payloads):
        return await press(next(p for p in payloads if p.startswith("dok.")))
    if "etok" in payloads:
        return await press("etok")
    confirm = next((p for p in payloads if p.partition(".")[0] in ("okm", "oka", "bpok")), None)
    if confirm is not None:  # the confirm screen of a move, an Action or a risky sacrifice
        return await press(confirm)
    if (s := find_select(msg, "act")) is not None:
        values = option_values(s)
        target = enemy["id"] if enemy and enemy["id"] in values else None
        target = target or next((v for v in values if v.startswith(f"p{2 - seat}-")), None)
        if target is not None and (enemy is None or target == enemy["id"] or not find_select(msg, "sq.mv")):
            return await pick(s, target)
    for kind in ("mv", "su", "dw", "dm", "pm", "pt"):
        s = find_select(msg, f"sq.{kind}")
        c = find_select(msg, f"col.{kind}")
        goal = enemy["pos"] if enemy else [view["grid"]["size"] // 2] * 2
        if s is not None:
            return await pick(s, min(option_values(s), key=lambda v: (dist(parse_label(v), goal), v)))
        if c is not None:
            return await pick(c, min(option_values(c), key=lambda v: (abs(ord(v) - 65 - goal[0]), v)))
    if (s := find_select(msg, "act")) is not None:
        return await pick(s, option_values(s)[0])
    favour = sorted((int(p[4:]) for p in payloads if p.startswith("fav.")), reverse=True)
    if favour:
        return await press(f"fav.{favour[0]}")
    spells = [p for p in payloads if p.startswith("sp.")]
    if spells:
        damaging = [p for p in spells if p[3:] in ("boiling_blood", "fire_breath", "mental_torment", "storm_of_iron")]
        return await press((damaging or ["sp.arcane_rocket"])[0])
    for payload in ("rt", "edge.north", "decl", "actn"):
        if payload in payloads:
            return await press(payload)
    for payload in payloads:
        if payload.startswith("sel."):
            return await press(payload)
    for payload in ("ea", "et"):
        if payload in payloads:
            return await press(payload)
    raise AssertionError(f"no move found in {payloads}")


async def play_aggressively(h, bot, match_id, users, ch, disciplines, *, max_clicks=3000, stop=None) -> int:
    clicks = 0
    while clicks < max_clicks:
        record = await bot.service.get(match_id)
        if record.status != "active" or (stop is not None and await stop()):
            return clicks
        moved = False
        for seat, user in enumerate(users):
            sp = await bot.service.prompt(match_id, seat)
            if not sp.awaited:
                continue
            msg = prompt_for(h, ch, match_id, seat)
            assert msg is not None, f"no channel prompt for seat {seat}"
            await aggressive_step(h, bot, match_id, seat, user, msg, disciplines)
            await h.settle()
            clicks += 1
            moved = True
            break
        assert moved, "nobody could move"
    raise AssertionError("the match did not end")


def pngs(msg) -> list[Image.Image]:
    out = []
    for f in msg.files:
        img = Image.open(io.BytesIO(f.data))
        img.load()
        out.append(img)
    return out


@pytest.mark.slow
async def test_setup_in_the_channel_with_cards_name_modal_and_coordinates(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start(h, bot, ch, ann, bob, OPTIONS + " first_player=challenger")
    # each player's controls are a private panel (a DM), none in the thread
    mine, theirs = prompt_for(h, ch, match_id, 0), prompt_for(h, ch, match_id, 1)
    assert mine in h.dms_to(ann) and theirs in h.dms_to(bob)
    assert not [m for m in in_match(h, ch) if any(c.startswith(f"m:{match_id}:") for c in m.custom_ids)]
    assert mine is not None and theirs is not None and "Discipline" in mine.text()

    # Bob cannot even see Ann's controls (her DM)
    sel = find_select(mine, "dsel")
    with pytest.raises(HarnessError, match="cannot see"):
        await h.select(bob, mine, sel["custom_id"], ["draconic_magus"])

    # Ann looks at a card, goes back, then picks and names her Wizard through a modal
    await h.select(ann, mine, sel["custom_id"], ["green_witch"])
    assert "Grasping Vines" in mine.text() and "Forest Dweller" in mine.text()
    await h.click(ann, mine, label="Back to the list")
    await h.select(ann, mine, find_select(mine, "dsel")["custom_id"], ["draconic_magus"])
    assert "Fire Breath" in mine.text() and "Drake Spirit" in mine.text() and "Move 3" in mine.text()
    opened = await h.click(ann, mine, label="Choose and name my Wizard…")
    assert opened.response_name == "MODAL"
    blank = await h.submit_modal(ann, {"text": "   "})
    assert blank.ephemeral and "blank" in blank.content
    await h.click(ann, mine, label="Choose and name my Wizard…")
    await h.submit_modal(ann, {"text": "Ignatia"})
    await h.settle()
    # an answered panel becomes the record of what was played (never deleted and reposted)
    assert not mine.deleted and "Locked in" in mine.content and not mine.components
    await h.select(bob, theirs, find_select(theirs, "dsel")["custom_id"], ["metallurgist"])
    await h.click(bob, theirs, label="Choose Metallurgist")
    await h.settle()
    view = await bot.service.view(match_id, None)
    assert view["players"][0]["wizard_name"] == "Ignatia" and view["phase"] == "terrain"

    # terrain by coordinate: a column, then a row (only legal squares offered)
    for _ in range(4):
        msg = prompt_for(h, ch, match_id, 0)
        col = find_select(msg, "col.pt")
        assert col is not None and len(col["options"]) == 8
        await h.select(ann, msg, col["custom_id"], ["C"])
        row = find_select(msg, "sq.pt")
        values = option_values(row)
        assert values and all(v.startswith("C") for v in values)
        await h.select(ann, msg, row["custom_id"], [values[len(values) // 2]])
        await h.settle()
    view = await bot.service.view(match_id, None)
    assert len(view["terrain"]) == 4 and all(t[0] == 2 for t in view["terrain"])

    # edges: one button per edge, for Player 2
    msg = prompt_for(h, ch, match_id, 1)
    assert {b["label"].split()[0] for b in msg.buttons} == {"North", "South", "West", "East"}
    await h.click(bob, msg, label="West (column A)")
    await h.settle()

    # deployment: a select per model, only free squares of the edge row
    for seat, user, edge_x in ((0, ann, 7), (1, bob, 0)):
        for kind in ("dw", "dm"):
            msg = prompt_for(h, ch, match_id, seat)
            sel = find_select(msg, f"sq.{kind}")
            values = option_values(sel)
            assert values and all(parse_label(v)[0] == edge_x for v in values)
            await h.select(user, msg, sel["custom_id"], [values[3]])
            await h.settle()
    view = await bot.service.view(match_id, None)
    assert view["phase"] in ("start", "spell", "action") and view["game_turn"] == 1
    text = "\n".join(m.text() for m in in_match(h, ch))  # the thread: the card, as spectators see it
    assert "Crowd Favour" in text and "Ignatia" in text
    # every public post carries the board picture
    posts = [m for m in in_match(h, ch) if m.files]
    assert posts and all(img.format == "PNG" for m in posts for img in pngs(m))
    assert h.violations == []


@pytest.mark.slow
async def test_the_roll_off_makes_the_challenged_player_player_1(make, tmp_path):
    """With the service's fixed seed the opening roll-off goes to Bob (seat 1): he is Player 1, so he
    sets up the terrain, Ann chooses the edge, Bob deploys first and plays the first turn."""
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start(h, bot, ch, ann, bob)
    view = await bot.service.view(match_id, None)
    assert view["player_one"] == 1
    assert "wins the roll-off" in "\n".join(m.text() for m in in_match(h, ch))

    async def press(user, msg, payload: str) -> None:
        await h.click(user, msg, find_button(msg, payload)["custom_id"])
        await h.settle()

    for seat, user, did in ((0, ann, "mermancer"), (1, bob, "metallurgist")):
        msg = prompt_for(h, ch, match_id, seat)
        await h.select(user, msg, find_select(msg, "dsel")["custom_id"], [did])
        await press(user, msg, f"dok.{did}")
    # Player 1 (Bob) sets up the terrain: here he asks for a random layout; Ann has no prompt
    assert prompt_for(h, ch, match_id, 0) is None
    await press(bob, prompt_for(h, ch, match_id, 1), "rt")
    # Player 2 (Ann) chooses the edge; Bob gets the opposite one
    assert prompt_for(h, ch, match_id, 1) is None
    await press(ann, prompt_for(h, ch, match_id, 0), "edge.north")
    view = await bot.service.view(match_id, None)
    assert [p["edge"] for p in view["players"]] == ["north", "south"]
    # Player 1 deploys first, on the south edge row
    assert prompt_for(h, ch, match_id, 0) is None
    for seat, user, row in ((1, bob, 0), (1, bob, 0), (0, ann, 7), (0, ann, 7)):
        msg = prompt_for(h, ch, match_id, seat)
        sel = find_select(msg, "sq.dw") or find_select(msg, "sq.dm")
        values = option_values(sel)
        assert values and all(parse_label(v)[1] == row for v in values)
        await h.select(user, msg, sel["custom_id"], [values[0]])
        await h.settle()
    view = await bot.service.view(match_id, None)
    assert view["game_turn"] == 1 and view["active"] == 1
    assert prompt_for(h, ch, match_id, 1) is not None and prompt_for(h, ch, match_id, 0) is None
    assert h.violations == []


@pytest.mark.slow
async def test_a_whole_game_to_the_knock_out(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start(h, bot, ch, ann, bob)
    clicks = await play_aggressively(h, bot, match_id, [ann, bob], ch, ["draconic_magus", "blood_mage"])
    record = await bot.service.get(match_id)
    assert record.status == "finished" and "knocked out" in record.summary
    text = "\n".join(m.text() for m in in_match(h, ch))
    for needle in ("Spell Selection", "Roll for", "damage", "knocked out", "Fate roll", "The fight is over", "⭐"):
        assert needle in text, needle
    # the last post shows the knocked-out Wizard on the picture
    last = [m for m in in_match(h, ch) if m.files][-1]
    (img,) = pngs(last)
    assert img.format == "PNG" and 500 < img.width < 900 and 600 < img.height < 1000
    assert "knocked out" in last.text()
    rows = await db.actions.for_match(match_id)
    assert len(rows) > clicks // 3
    assert h.violations == []


async def phase_is(bot, match_id, phase: str, kind: str | None = None) -> bool:
    view = await bot.service.view(match_id, None)
    return view["phase"] == phase and (kind is None or (view["prompt"] or {}).get("kind") == kind)


@pytest.mark.slow
async def test_foreign_clicks_are_refused_and_only_legal_squares_offered(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start(h, bot, ch, ann, bob)
    disciplines = ["draconic_magus", "blood_mage"]

    async def activating() -> bool:
        view = await bot.service.view(match_id, None)
        return view["phase"] == "action" and view["activation"] is not None and not view["activation"]["moved"]

    await play_aggressively(h, bot, match_id, [ann, bob], ch, disciplines, stop=activating)
    view = await bot.service.view(match_id, None)
    seat = view["active"]
    me, other = (ann, bob) if seat == 0 else (bob, ann)
    msg = prompt_for(h, ch, match_id, seat)
    assert "activating" in msg.text() and find_button(msg, "ea") is not None
    # the other player cannot see this panel (Discord lets nobody else click in a DM)
    before = await bot.service.seat_step(match_id, seat)
    for b in msg.buttons:
        with pytest.raises(HarnessError, match="cannot see"):
            await h.click(other, msg, b["custom_id"])
    assert await bot.service.seat_step(match_id, seat) == before
    # the destinations offered are exactly the engine's legal moves
    sp = await bot.service.prompt(match_id, seat)
    legal = {tuple(a.to) for a in sp.legal_actions if a.type == "move"}
    offered = set()
    if (s := find_select(msg, "sq.mv")) is not None:
        offered = {parse_label(v) for v in option_values(s)}
    else:
        col = find_select(msg, "col.mv")
        for letter in option_values(col):
            await h.select(me, msg, col["custom_id"], [letter])
            offered |= {parse_label(v) for v in option_values(find_select(msg, "sq.mv"))}
            await h.click(me, msg, label="Back")
            col = find_select(msg, "col.mv")
    assert offered == legal and offered
    # End turn with models left asks first; Back returns to the turn's controls
    await h.click(me, msg, find_button(msg, "et")["custom_id"])
    assert find_button(msg, "etok") is not None
    await h.click(me, msg, label="Back")
    assert find_button(msg, "ea") is not None
    assert h.violations == []


@pytest.mark.slow
async def test_a_move_waits_for_confirm_and_a_second_confirm_is_out_of_date(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    match_id = await start(h, bot, ch, ann, bob)

    async def activating() -> bool:
        view = await bot.service.view(match_id, None)
        act = view["activation"]
        return view["phase"] == "action" and act is not None and not act["moved"] and not act["acted"]

    await play_aggressively(h, bot, match_id, [ann, bob], ch, ["draconic_magus", "blood_mage"], stop=activating)
    view = await bot.service.view(match_id, None)
    seat, model = view["active"], view["activation"]["model"]
    me = (ann, bob)[seat]
    msg = prompt_for(h, ch, match_id, seat)
    step = await bot.service.seat_step(match_id, seat)
    if find_select(msg, "sq.mv") is None:  # more than 25 squares: the column first
        col = find_select(msg, "col.mv")
        await h.select(me, msg, col["custom_id"], [option_values(col)[0]])
    square = option_values(find_select(msg, "sq.mv"))[0]
    # picking a square shows the confirm screen: nothing is committed yet
    await h.select(me, msg, find_select(msg, "sq.mv")["custom_id"], [square])
    assert "confirm the move" in msg.text() and f"to **{square}**" in msg.text()
    assert await bot.service.seat_step(match_id, seat) == step
    # Back: the activation's controls again, still nothing committed
    await h.click(me, msg, label="Back")
    assert "activating" in msg.text() and find_button(msg, "ea") is not None
    assert await bot.service.seat_step(match_id, seat) == step
    if find_select(msg, "sq.mv") is None:
        col = find_select(msg, "col.mv")
        await h.select(me, msg, col["custom_id"], [square[0]])
    await h.select(me, msg, find_select(msg, "sq.mv")["custom_id"], [square])
    confirm = find_button(msg, f"okm.{square}")
    assert confirm is not None
    # the other player cannot confirm it (nor see it: it is the mover's own panel)
    with pytest.raises(HarnessError, match="cannot see"):
        await h.click((bob, ann)[seat], msg, confirm["custom_id"])
    shown = copy.deepcopy(h.world.message(msg).payload)  # the confirm screen, as the client shows it
    await h.click(me, msg, confirm["custom_id"])
    await h.settle()
    after = await bot.service.view(match_id, None)
    moved = next(m for m in after["models"] if m["id"] == model)
    assert moved["square"] == square and await bot.service.seat_step(match_id, seat) == step + 1
    # the same Confirm again (a double click: the client still shows the confirm screen): out of
    # date, nothing changes
    double = {"custom_id": confirm["custom_id"], "component_type": 2}
    payload = h.base_interaction(3, h.world.user(me), h.server.channels[int(shown["channel_id"])], double)
    payload["message"] = shown
    again = await h.dispatch_interaction(payload, message_id=msg.id, wait=True, expect_response=True)
    assert again.ephemeral and "out of date" in (again.content + " ".join(m.content for m in again.followups))
    assert await bot.service.seat_step(match_id, seat) == step + 1
    assert await bot.service.view(match_id, None) == after
    assert h.violations == []


@pytest.mark.slow
async def test_restart_in_the_middle_of_a_game_continues(make, tmp_path):
    path = tmp_path / "arena.sqlite3"
    h, bot, db = await make(path)
    ids = h.server.ids = RecordingIds(h.server.ids)
    guild, ch, ann, bob = setup_players(h)
    world = list(ids.given)
    match_id = await start(h, bot, ch, ann, bob)
    disciplines = ["draconic_magus", "blood_mage"]
    await play_aggressively(
        h, bot, match_id, [ann, bob], ch, disciplines, stop=lambda: phase_is(bot, match_id, "action")
    )
    steps = [await bot.service.seat_step(match_id, s) for s in (0, 1)]
    await h.close()
    await db.close()

    h2, bot2, db2 = await make(path)
    h2.server.ids = RecordingIds(h2.server.ids, replay=world)
    await forget_posted_messages(db2)
    guild, ch, ann, bob = setup_players(h2)
    assert [await bot2.service.seat_step(match_id, s) for s in (0, 1)] == steps
    view = await bot2.service.view(match_id, None)
    seat = view["active"]
    user = (ann, bob)[seat]
    # the old channel prompt is gone with the old process: /status reopens it
    st = await h2.slash(user, ch, "status")
    await h2.click(user, st.message, f"open:{match_id}:{seat}")
    await h2.settle()
    eph = [m for m in h2.ephemeral_responses_to(user) if m.components][-1]
    assert "Arena" in eph.text()
    await aggressive_step(h2, bot2, match_id, seat, user, eph, disciplines)
    await h2.settle()
    await play_aggressively(h2, bot2, match_id, [ann, bob], ch, disciplines)
    record = await bot2.service.get(match_id)
    assert record.status == "finished" and "knocked out" in record.summary
    assert h2.violations == []


@pytest.mark.slow
async def test_time_limit_default_spell_then_forfeit(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    clock = {"now": 1_900_000_000.0}
    bot.service._clock = lambda: clock["now"]
    match_id = await start(h, bot, ch, ann, bob)
    disciplines = ["draconic_magus", "luminous_sorcerer"]
    await play_aggressively(
        h, bot, match_id, [ann, bob], ch, disciplines, stop=lambda: phase_is(bot, match_id, "spell", "spell")
    )
    view = await bot.service.view(match_id, None)
    seat = view["active"]
    # the spell prompt has a default (Arcane Rocket); the Action Phase has none: the player forfeits
    clock["now"] = (await bot.service.get(match_id)).seats[seat].deadline_at + 1
    await timer_pass(bot.service)
    await h.settle()
    view = await bot.service.view(match_id, None)
    assert view["spell"]["selected"] == "arcane_rocket" and view["phase"] == "action"
    assert any("default choice" in m.text() for m in in_match(h, ch))
    clock["now"] = (await bot.service.get(match_id)).seats[seat].deadline_at + 1
    await timer_pass(bot.service)
    await h.settle()
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.outcome["seats"][1 - seat]["result"] == "win"
    assert any("ran out of time and forfeits" in m.text() for m in in_match(h, ch))
    assert h.violations == []


@pytest.mark.slow
async def test_forfeit_mid_game_and_text_board_without_images(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    bot.settings.render_images = False
    guild, ch, ann, bob = setup_players(h)
    match_id = await start(h, bot, ch, ann, bob)
    await play_aggressively(
        h,
        bot,
        match_id,
        [ann, bob],
        ch,
        ["green_witch", "noble_scholar"],
        stop=lambda: phase_is(bot, match_id, "action"),
    )
    posts = [m for m in in_match(h, ch) if "Board" in m.text()]  # the match card: the text grid
    assert posts and not any(m.files for m in in_match(h, ch))
    assert "```" in posts[-1].text() and "W1" in posts[-1].text() and "w2" in posts[-1].text()
    r = await h.slash(bob, ch, "forfeit")
    assert r.ephemeral and "forfeited" in r.content
    await h.settle()
    record = await bot.service.get(match_id)
    assert record.status == "finished" and record.outcome["seats"][0]["result"] == "win"
    assert h.violations == []


async def test_rules_and_card_commands(make, tmp_path):
    h, bot, db = await make(tmp_path / "arena.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "rules", {"game": "arena"})
    text = r.message.text()
    for needle in ("Start Phase", "Spell table", "Crowd table", "Arcane Rocket", "crystal shard", "Health 15"):
        assert needle in text, needle
    ac = await h.autocomplete(ann, ch, "card", "name", "fire", {"game": "arena"})
    assert "fire_breath" in [c["value"] for c in ac.choices]
    r = await h.slash(ann, ch, "card", {"game": "arena", "name": "draconic_magus"})
    text = r.message.text()
    for needle in ("Draconic Magus", "Fire Breath", "Drake Spirit", "Ignite", "Move 3", "Skill 4", "Defence 2"):
        assert needle in text, needle
    r = await h.slash(ann, ch, "card", {"game": "arena", "name": "arcane_rocket"})
    assert "Range" in r.message.text() and "Arcane Rocket" in r.message.text()
    r = await h.slash(ann, ch, "card", {"game": "arena", "name": "nothing"})
    assert r.ephemeral and "nothing called" in r.content
    assert h.violations == []
