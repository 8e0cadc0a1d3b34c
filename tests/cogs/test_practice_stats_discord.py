"""/profile's practice record (against the computer, unrated) and /history's practice label
through discord.py's real objects and the fake transport (request bodies validated)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.stats import PRACTICE_FIELD
from db import MatchStatus
from tests.cogs.stats_world import World

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

MERLIN, MORGANA = (-1, "Merlin (AI, easy)"), (-2, "Morgana (AI, normal)")


async def practice(
    w: World, guild: Any, user: Any, game: str, computer: tuple[int, str], level: str, results: list[str] | None
) -> int:
    w.clock.now += 60
    record = await w.db.matches.create(
        game=game,
        options={},
        guild_id=guild.id,
        channel_id=1,
        seats=[(user.id, user.display_name), computer],
        expires_at=None,
        ai={1: level},
    )
    assert await w.db.matches.start(record.id, seed=1)
    w.clock.now += 60
    if results is None:
        assert await w.db.matches.finish(record.id, MatchStatus.ABANDONED)
    else:
        out = {"seats": [{"result": r} for r in results]}
        assert await w.db.matches.finish(record.id, MatchStatus.FINISHED, outcome=out, summary="Merlin bows.")
    return record.id


async def test_profile_shows_the_practice_record_even_without_a_rated_match(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    for results in (["win", "loss"], ["win", "loss"], ["loss", "win"], ["win", "loss"], ["loss", "win"]):
        await practice(world, guild, ann, "firewall", MORGANA, "normal", results)
    await practice(world, guild, ann, "firewall", MERLIN, "easy", ["draw", "draw"])
    await practice(world, guild, ann, "firewall", MERLIN, "easy", None)

    r = await h.slash(bob, ch, "profile", {"player": ann})
    embed = r.message.embed
    assert embed["description"] == "No rated matches yet. Finish a match to get a rating."
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields[PRACTICE_FIELD].splitlines() == [
        "Firewall · easy: 1 played · 0-0-1 · 1 abandoned (not counted)",
        "Firewall · normal: 5 played · 3-2-0",
    ]
    # rated matches too: the practice field follows the rated ones, which ignore practice
    await world.toy(guild, [ann, bob], winners=[1])
    again = (await h.slash(ann, ch, "profile", {})).message.embed
    fields = {f["name"]: f["value"] for f in again["fields"]}
    assert "0-1-0 · 1 game" in fields["Toy Guess"]
    assert [f["name"] for f in again["fields"]][-1] == PRACTICE_FIELD
    assert "Firewall · normal: 5 played · 3-2-0" in fields[PRACTICE_FIELD]
    assert "Merlin" not in fields.get("Most frequent opponents", "") and "bob" in fields["Most frequent opponents"]
    # no practice: no field
    plain = (await h.slash(bob, ch, "profile", {})).message.embed
    assert PRACTICE_FIELD not in [f["name"] for f in plain["fields"]]
    assert h.violations == []


async def test_history_marks_practice_matches(world: World) -> None:  # noqa: F811
    h = world.h
    guild = h.add_guild("Academy")
    ch = h.add_text_channel(guild, "duels")
    ann, bob = h.add_member(guild, "ann"), h.add_member(guild, "bob")
    rated = await world.toy(guild, [ann, bob], winners=[0])
    done = await practice(world, guild, ann, "firewall", MORGANA, "normal", ["win", "loss"])

    r = await h.slash(bob, ch, "history", {})
    fields = r.message.embed["fields"]
    assert [f["name"] for f in fields] == [f"#{done} · Firewall · 🎯 practice", f"#{rated} · Toy Guess"]
    assert "ann vs Morgana (AI, normal)" in fields[0]["value"] and "Merlin bows." in fields[0]["value"]
    assert h.violations == []
