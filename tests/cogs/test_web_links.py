"""The Discord cards link to the web table (issue 35, part 2; docs/web.md): with ``PUBLIC_URL`` set,
a live match's card has a "Watch on the web" link button and its end card "Replay on the web", each
to the match's signed page, which the running bot serves; without it, the cards are as they were
(no link, the payloads of every other test)."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_flows import setup_players


def links(components: list[Any]) -> dict[str, str]:
    """label -> url of every link button (style 5) in a message's components."""
    found: dict[str, str] = {}
    stack = list(components)
    while stack:
        comp = stack.pop()
        if isinstance(comp, dict):
            if comp.get("type") == 2 and comp.get("style") == 5:
                found[str(comp.get("label"))] = str(comp["url"])
            stack.extend(comp.get("components") or [])
    return found


async def played_out(h: Any, bot: Any, players: Any = None) -> tuple[int, dict[str, str], dict[str, str]]:
    """A Firewall match started and resigned (in a new server, or ``players``' from
    ``setup_players``): its id, the links on its live card and on its end."""
    guild, ch, ann, bob = players or setup_players(h)
    record = await bot.service.create_challenge("firewall", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")])
    await bot.service.accept(record.id, bob.id)
    await h.settle()
    live: dict[str, str] = {}
    for msg in h.server.messages.values():
        live.update(links(msg.payload.get("components") or []))
    await bot.service.forfeit(record.id, bob.id)
    await bot.service.settle()
    await h.settle()
    over: dict[str, str] = {}
    for msg in h.server.messages.values():
        over.update(links(msg.payload.get("components") or []))
    return record.id, live, over


async def test_with_a_public_address_the_cards_link_to_the_match_s_page(make, tmp_path, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("PUBLIC_URL", "https://referee.example.org")
    h, bot, db = await make(tmp_path / "links.sqlite3", images=False)
    match_id, live, over = await played_out(h, bot)
    page = f"https://referee.example.org/m/{bot.signer.token('match', match_id)}"
    assert live.get("Watch on the web") == page
    assert over.get("Replay on the web") == page
    assert h.violations == []  # the link buttons are valid components (the schema and Discord's rules)
    local = page.replace("https://referee.example.org", bot.web.url)  # the running bot serves it
    async with aiohttp.ClientSession() as session, session.get(local) as answer:
        assert answer.status == 200 and f"Firewall · match #{match_id}" in await answer.text()


@pytest.mark.parametrize("setting", [{}, {"PUBLIC_URL": "https://referee.example.org", "WEB_ENABLED": "false"}])
async def test_without_a_public_site_the_cards_have_no_link(make, tmp_path, monkeypatch, setting) -> None:  # noqa: F811
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    h, bot, db = await make(tmp_path / "nolinks.sqlite3", images=False)
    _, live, over = await played_out(h, bot)
    assert live == {} and over == {}


async def test_an_admin_turns_the_server_s_pages_off_with_settings(make, tmp_path, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv("PUBLIC_URL", "https://referee.example.org")
    h, bot, db = await make(tmp_path / "settings.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    role = h.add_role(guild, "admins", permissions=discord.Permissions(manage_guild=True).value)
    boss = h.add_member(guild, "boss", roles=[role])
    r = await h.slash(boss, ch, "settings", {"web": False})
    fields = {f["name"]: f["value"] for f in r.embed["fields"]}
    assert fields["Web pages"].startswith("off")
    _, live, over = await played_out(h, bot, (guild, ch, ann, bob))
    assert live == {} and over == {}
    assert h.violations == []
