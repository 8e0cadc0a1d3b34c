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


# ------------------------------------------------------------------------------- play in the browser
def components_of(msg: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = list(msg.payload.get("components") or [])
    while stack:
        comp = stack.pop()
        if isinstance(comp, dict):
            found.append(comp)
            stack.extend(comp.get("components") or [])
    return found


@pytest.mark.parametrize("game", ["firewall", "arena"])
async def test_a_private_prompt_carries_the_link_to_its_own_seat_page(make, tmp_path, monkeypatch, game) -> None:  # noqa: F811
    """Prompts go by DM (Arena's control panel too): each carries "Play in the browser", the signed
    page of that player's seat, which the running bot serves as that seat sees it."""
    from bot.signing import seat_ident

    monkeypatch.setenv("PUBLIC_URL", "https://referee.example.org")
    h, bot, db = await make(tmp_path / "seat-links.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    record = await bot.service.create_challenge(game, None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")])
    await bot.service.accept(record.id, bob.id)
    await h.settle()
    for seat, user in enumerate((ann, bob)):
        found = [links(m.payload.get("components") or []).get("Play in the browser") for m in h.dms_to(user)]
        urls = [u for u in found if u]
        assert urls, f"{user.name}'s prompt has no link to the web"
        token = urls[-1].rsplit("/p/", 1)[1]
        assert bot.signer.read("seat", token) == seat_ident(record.id, seat)  # their own seat, no other
        async with aiohttp.ClientSession() as session, session.get(f"{bot.web.url}/p/{token}") as answer:
            assert answer.status == 200 and f"You play as {user.name}" in await answer.text()
    for msg in h.messages_in(ch) + [m for t in h.threads(ch) for m in h.messages_in(t)]:
        assert "/p/" not in str(msg.payload), "a seat's link is never posted where others read it"
    assert h.violations == []
