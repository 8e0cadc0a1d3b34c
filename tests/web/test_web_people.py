"""A server's leaderboards, its players' pages and its tournaments' pages on the web table (issue 35,
part 2; web/people.py, web/tournament_page.py, docs/web.md): what ``/leaderboard``, ``/profile``
and the tournament message show in that server, at signed addresses, linked to each other and to
the match pages; hidden with the server's other pages by ``/settings web``; the tournament message
links its page when the site has a public address."""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import pytest

from bot.signing import Signer
from tests.cogs.tournament_flows import create, play_to_end
from tests.discord_flows import discord_harness, make, setup_players  # noqa: F401
from tests.discord_harness.tournament import presenter_on_harness_clock

SECRET = "a-test-secret-of-32-characters!!"


@pytest.fixture
async def site(make, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("WEB_SECRET", SECRET)
    monkeypatch.setenv("PUBLIC_URL", "https://referee.example.org")
    h, bot, db = await make(tmp_path / "people.sqlite3", images=False)
    presenter_on_harness_clock(bot, h)
    return h, bot, Signer(SECRET)


async def get(url: str, **params: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url, params=params) as answer:
        return answer.status, await answer.text()


async def rated(h: Any, bot: Any, players: Any, count: int) -> list[int]:
    """``count`` Firewall matches of ann and bob, each resigned by bob: rated wins for ann."""
    guild, ch, ann, bob = players
    ids = []
    for _ in range(count):
        record = await bot.service.create_challenge(
            "firewall", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
        )
        await bot.service.accept(record.id, bob.id)
        await bot.service.forfeit(record.id, bob.id)
        await bot.service.settle()
        await h.settle()
        h.advance(5)
        ids.append(record.id)
    return ids


def hrefs(page: str, prefix: str) -> list[str]:
    return re.findall(rf'href="({prefix}[^"]+)"', page)


async def test_the_leaderboard_and_the_players_pages_link_each_other_and_the_matches(site) -> None:
    h, bot, signer = site
    players = setup_players(h)
    guild, ch, ann, bob = players
    matches = await rated(h, bot, players, 3)
    base = bot.web.url
    status, board = await get(f"{base}/s/{signer.token('server', guild.id)}")
    assert status == 200 and "Leaderboard · Firewall" in board
    assert board.index(">ann<") < board.index(">bob<")  # the winner first
    ann_page_link = next(
        link for link in hrefs(board, "/u/") if signer.read_pair("player", link[3:]) == (guild.id, ann.id)
    )
    status, ann_page = await get(base + ann_page_link)
    assert status == 200 and "<h1>ann</h1>" in ann_page and "this server" in ann_page and "everywhere" in ann_page
    assert '<figure class="chart"><svg ' in ann_page  # the rating chart
    linked = {signer.read("match", link[3:]) for link in hrefs(ann_page, "/m/")}
    assert linked == set(matches)  # each rated match of this server, linked to its page
    assert "Head to head" in ann_page and ">bob<" in ann_page and ">3<" in ann_page
    status, match_page = await get(f"{base}/m/{signer.token('match', matches[0])}")
    assert ann_page_link in match_page  # a match page links its players' pages


async def test_bad_addresses_and_hidden_servers_get_clear_answers(site) -> None:
    h, bot, signer = site
    players = setup_players(h)
    guild, ch, ann, bob = players
    await rated(h, bot, players, 1)
    base = bot.web.url
    board_url = f"{base}/s/{signer.token('server', guild.id)}"
    assert (await get(board_url, game="arena"))[0] == 404  # nobody is rated in it here
    status, text = await get(board_url, page="x")
    assert status == 400 and "whole number" in text
    assert (await get(board_url, page="99"))[0] == 200  # past the end: the last page
    assert (await get(f"{base}/s/{signer.token('match', guild.id)}"))[0] == 404  # another kind's token
    player_url = f"{base}/u/{signer.pair_token('player', guild.id, ann.id)}"
    assert (await get(player_url))[0] == 200
    forged = f"{base}/u/{signer.pair_token('player', guild.id, ann.id)[:-2]}AA"
    assert (await get(forged))[0] == 404
    await bot.servers.update(guild.id, 1, web=False)  # the server's pages go, its players' too
    assert (await get(board_url))[0] == 404 and (await get(player_url))[0] == 404


async def test_a_tournament_has_a_page_its_message_links(site) -> None:
    h, bot, signer = site
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    dee = h.add_member(guild, "dee")
    r = await create(h, ch, ann, rounds=2, max_players=4)
    message = r.message
    tid = int(message.buttons[0]["custom_id"].rsplit(":", 1)[1])
    page_url = f"https://referee.example.org/t/{signer.token('tournament', tid)}"
    assert [b.get("url") for b in message.buttons if b.get("url")] == [page_url]  # beside Join and Leave
    for user in (ann, bob, cy, dee):
        await bot.tournaments.join(tid, (user.id, user.display_name))
    await bot.tournaments.start(tid, ann.id)
    await bot.tick_tournaments()
    await h.settle()
    local = page_url.replace("https://referee.example.org", bot.web.url)
    status, page = await get(local)
    assert status == 200 and "Round 1" in page and "Standings" in page
    players = {signer.read_pair("player", link[3:]) for link in hrefs(page, "/u/")}
    assert players == {(guild.id, u.id) for u in (ann, bob, cy, dee)}  # each standing linked to the player
    links = [signer.read("match", link[3:]) for link in hrefs(page, "/m/")]
    view = await bot.tournaments.view(tid)
    assert sorted(links) == sorted(link.match_id for link in view.links)  # every match linked
    await play_to_end(h, bot, tid)
    status, page = await get(local)
    assert status == 200 and "finished" in page and "Round 2" in page
    assert [b.get("url") for b in message.buttons if b.get("url")] == [page_url]  # kept after the sign-up
    assert (await get(f"{bot.web.url}/t/{signer.token('match', tid)}"))[0] == 404
    assert h.violations == []
