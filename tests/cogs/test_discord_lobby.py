"""The challenge lobby in Discord: open tables anyone joins, leaving before the start, the host's
Start button, options typed with autocompletion, and refusals as ephemeral replies. Every request
body is validated against Discord's schema by the harness."""

from __future__ import annotations

from tests.discord_flows import in_match, setup_players


async def test_open_table_fills_and_starts(make, tmp_path):
    h, bot, db = await make(tmp_path / "lobby.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "open": True})
    lobby = r.message
    assert "opens a table of Wizards Cup" in lobby.text()
    assert {b.get("label") for b in lobby.buttons} == {"Join", "Start now", "Leave"}

    refused = await h.click(bob, lobby, label="Start now")
    assert refused.ephemeral and "Only the host" in refused.content
    refused = await h.click(ann, lobby, label="Start now")  # deferred (it may start the match), then refused
    await h.settle()
    (note,) = refused.followups
    assert note.ephemeral and "needs at least 2" in note.text()

    await h.click(cy, lobby, label="Join")  # Wizards Cup seats two: the table is full and starts
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    assert record.status == "active" and record.names == ["ann", "cy"]
    assert f"Match #{record.id} of Wizards Cup is on: ann vs cy" in lobby.content and not lobby.components
    assert any("begins" in m.text() for m in in_match(h, ch))
    assert h.dms_to(ann) and h.dms_to(cy)  # the private prompts went out


async def test_leaving_an_open_table_before_the_start(make, tmp_path):
    h, bot, db = await make(tmp_path / "lobby.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    # a challenge with a named opponent that is also open: the opponent may leave, others may join
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "opponent": bob, "open": True})
    lobby = r.message
    assert {b.get("label") for b in lobby.buttons} == {"Accept", "Start now", "Leave"}  # full: no Join
    refused = await h.click(cy, lobby, label="Leave")
    assert refused.ephemeral and "not challenged" in refused.content
    await h.click(bob, lobby, label="Leave")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id)
    assert record.status == "pending" and record.names == ["ann"]
    assert "Join" in {b.get("label") for b in lobby.buttons}
    await h.click(cy, lobby, label="Join")
    await h.settle()
    record = await bot.service.get(record.id)
    assert record.status == "active" and record.names == ["ann", "cy"]


async def test_options_are_typed_with_completions(make, tmp_path):
    h, bot, db = await make(tmp_path / "lobby.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    ac = await h.autocomplete(ann, ch, "challenge", "options", "", {"game": "wizards-cup"})
    assert [c["value"] for c in ac.choices] == ["card_set=default"]
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "opponent": bob, "options": "colour=red"})
    assert r.ephemeral and "Unknown option 'colour'" in r.content and "card_set" in r.content
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup", "opponent": bob, "options": "card_set=big"})
    assert r.ephemeral and "Invalid options for Wizards Cup" in r.content
    r = await h.slash(ann, ch, "challenge", {"game": "wizards-cup"})
    assert r.ephemeral and "open the table" in r.content
    assert await bot.service.live_matches_for(ann.id) == []  # nothing was created by the refusals
    r = await h.slash(ann, ch, "rules", {"game": "wizards-cup"})
    assert "card_set" in r.message.text()
