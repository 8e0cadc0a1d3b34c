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
TYPED = re.compile(
    r'<input type="hidden" name="p" value="([^"]*)"><input type="hidden" name="f" value="([^"]*)">'
    r'.*?<input type="number" name="v" min="(-?\d+)" max="(-?\d+)"',
    re.S,
)


def typed_choice(page: str, rng: random.Random) -> dict[str, str] | None:
    """A number in the page's number box (a bet), as its form sends it; None without one."""
    found = TYPED.search(page)
    if found is None:
        return None
    picks, field, low, high = found.groups()
    return {"p": html.unescape(picks), "f": field, "v": str(rng.randint(int(low), int(high)))}


def options(page: str) -> list[str]:
    """The picks each offered choice leads to (``?p=`` values)."""
    return [html.unescape(p) for p in OPTION.findall(page)]


def confirm_form(page: str) -> dict[str, str] | None:
    """The confirm form's fields (the move's JSON and the step), None when the page has none."""
    found = {k: html.unescape(v) for k, v in HIDDEN.findall(page)}
    return found if "action" in found else None


async def first_form(session: aiohttp.ClientSession, url: str) -> dict[str, str]:
    """The confirm form of the seat's move built from the first offered choice at each step (the
    lowest number in a number box)."""
    async with session.get(url) as answer:
        page = await answer.text()
    while (form := confirm_form(page)) is None:
        picks = options(page)
        typed = typed_choice(page, random.Random(0))
        if typed is not None:
            found = TYPED.search(page)
            assert found is not None
            typed["v"] = found.group(3)
        params = {"p": picks[0]} if picks else typed
        assert params is not None, "the page asks nothing"
        async with session.get(url, params=params) as answer:
            page = await answer.text()
    return form


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
        typed = typed_choice(page, rng)
        if not picks and typed is None:
            return "idle"
        params = typed if typed is not None and (not picks or rng.random() < 0.5) else {"p": rng.choice(picks)}
        async with session.get(url, params=params) as answer:
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
