"""Playing a seat through its web page as a browser without scripts would (tests of issue 35,
part 3): read the page, follow one of the offered choices, post the confirmed move."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

OPTION = re.compile(r'<a class="option" href="\?p=([^"#]*)#decide"')
HIDDEN = re.compile(r'<input type="hidden" name="(action|step)" value="([^"]*)">')


def options(page: str) -> list[str]:
    """The picks each offered choice leads to (``?p=`` values)."""
    return [html.unescape(p) for p in OPTION.findall(page)]


def confirm_form(page: str) -> dict[str, str] | None:
    """The confirm form's fields (the move's JSON and the step), None when the page has none."""
    found = {k: html.unescape(v) for k, v in HIDDEN.findall(page)}
    return found if "action" in found else None


async def click_once(session: aiohttp.ClientSession, url: str, rng: random.Random) -> str:
    """One move of the seat at ``url``: choices followed at random until the confirm form, then
    posted. Returns "played", "idle" when the page asks nothing, "over" when the match is."""
    async with session.get(url) as answer:
        page = await answer.text()
        if answer.status == 410:
            return "over"
        assert answer.status == 200, page
    while (form := confirm_form(page)) is None:
        picks = options(page)
        if not picks:
            return "idle"
        async with session.get(url, params={"p": rng.choice(picks)}) as answer:
            page = await answer.text()
            assert answer.status == 200, page
    async with session.post(url, data=form, allow_redirects=False) as posted:
        text = await posted.text()
        assert posted.status == 303, text
    return "played"


async def play_to_the_end(
    bot: Any,
    urls: list[str],
    match_id: int,
    rng: random.Random,
    think: Callable[[], Awaitable[None]],
    limit: int = 3000,
) -> int:
    """Both (all) seats play from their pages until the match is over; the moves made. ``think``
    runs after each move (a player's time to think: Discord's rate limits see people, not tests)."""
    moves = 0
    # a connection per request: the server holds no idle connection open while the bot settles
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as session:
        for _ in range(limit):
            if (await bot.service.get(match_id)).status.value != "active":
                return moves
            played = []
            for url in urls:
                played.append(await click_once(session, url, rng))
                if played[-1] == "played":
                    await think()
            moves += played.count("played")
            if "played" not in played:
                await bot.service.computers_settle()
    raise AssertionError(f"match {match_id} not over after {limit} rounds of clicks")
