"""The web table's first pages (issue 35, parts 1 and 4; web/, docs/web.md): the running bot
serves a page for each match at a signed address; a live match shows what a spectator may see and
nothing secret, a finished one the whole story with every secret named; every answer carries the
security headers; bad addresses, other methods and floods get clear refusals."""

from __future__ import annotations

import asyncio
import re
import socket
from typing import Any

import aiohttp
import pytest

from bot.settings import Settings
from bot.signing import Signer
from rules.story import told
from tests.discord_flows import setup_players
from web import WebServer, make_app, signer_of
from web.app import SECURITY_HEADERS, RateLimiter
from web.common import NO_MATCH

SECRET = "a-test-secret-of-32-characters!!"


async def fetch(url: str, method: str = "GET") -> tuple[int, str, Any]:
    async with aiohttp.ClientSession() as session, session.request(method, url) as response:
        return response.status, await response.text(), response.headers


async def started_match(bot: Any, where: tuple[Any, Any], game: str, players: list[tuple[int, str]]) -> int:
    guild, channel = where
    record = await bot.service.create_challenge(game, None, guild.id, channel.id, players[0], players[1:])
    for uid, _ in players[1:]:
        await bot.service.accept(record.id, uid)
    return record.id


async def play_some(bot: Any, match_id: int, user_ids: list[int], moves: int, seed: int = 5) -> None:
    """Random legal moves by the awaited seats (the prompts' own choices)."""
    import random

    rng = random.Random(seed)
    for _ in range(moves):
        record = await bot.service.get(match_id)
        if record.status.value != "active":
            return
        for seat, uid in enumerate(user_ids):
            prompt = await bot.service.prompt(match_id, seat)
            if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
                choices = prompt.decision.choices
                await bot.service.submit(
                    match_id, uid, choices[rng.randrange(len(choices))], seat_step=prompt.seat_step
                )
                break


@pytest.fixture
async def site(make, tmp_path, monkeypatch):  # noqa: F811
    """The harness's bot, its web table on a free port with a known secret."""
    monkeypatch.setenv("WEB_SECRET", SECRET)
    h, bot, db = await make(tmp_path / "web.sqlite3", images=False)
    assert isinstance(bot.web, WebServer) and bot.web.port > 0  # started by the bot's own start-up
    return h, bot, Signer(SECRET)


# ------------------------------------------------------------------------------- addresses
def test_a_token_opens_its_own_page_only() -> None:
    signer = Signer(SECRET)
    token = signer.token("match", 12345)
    assert re.fullmatch(r"[0-9a-z]+\.[A-Za-z0-9_-]{22}", token)
    assert signer.read("match", token) == 12345
    assert signer.read("player", token) is None  # another kind of page
    assert Signer("another-secret-of-some-length").read("match", token) is None
    number, mac = token.split(".")
    assert signer.read("match", f"{int(number, 36) + 1:x}.{mac}") is None  # the next id, by counting
    for bad in ("", "12345", "x.y", token + "A", token.upper(), "../etc", "1." + "A" * 22):
        assert signer.read("match", bad) is None
    with pytest.raises(ValueError):
        Signer("short")


def test_without_a_secret_the_links_change_at_each_start(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(discord_token="t", web_secret=None)
    first, second = signer_of(settings), signer_of(settings)
    assert first.token("match", 1) != second.token("match", 1)
    assert "WEB_SECRET is not set" in caplog.text
    fixed = Settings(discord_token="t", web_secret=SECRET)
    assert signer_of(fixed).token("match", 1) == signer_of(fixed).token("match", 1)


def test_settings_refuse_a_short_secret_and_an_address_that_is_not_a_site() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="at least 16 characters"):
        Settings(discord_token="t", web_secret="short")
    with pytest.raises(ValidationError, match="http:// or https://"):
        Settings(discord_token="t", public_url="referee.example.org")
    assert Settings(discord_token="t", public_url="https://referee.example.org/").public_url == (
        "https://referee.example.org"
    )


# ------------------------------------------------------------------------------- the pages
async def test_the_running_bot_serves_a_live_match_as_a_spectator_sees_it(site) -> None:
    h, bot, signer = site
    guild, ch, ann, bob = setup_players(h)
    match_id = await started_match(bot, (guild, ch), "wizards-cup", [(ann.id, "ann"), (bob.id, "bob")])
    await play_some(bot, match_id, [ann.id, bob.id], 6)
    status, page, headers = await fetch(f"{bot.web.url}/m/{signer.token('match', match_id)}")
    assert status == 200
    assert "Wizards Cup · match #" in page and "ann" in page and "bob" in page and "Live" in page
    assert "<h3 " in page and '<li value="' in page  # the story so far, by chapter
    assert '<figure class="board" id="board"><svg ' in page and "Victory token" in page  # its board
    assert "to move, by <time datetime=" in page  # the clock of each seat that owes a move
    for name, value in SECURITY_HEADERS.items():
        assert headers[name] == value
    # nothing secret: no private event's text, in any form, is on the page
    replay = await bot.replays.replay(await bot.service.get(match_id), frozenset({"duel"}))
    secrets = [e for step in replay.steps for e in step.events if e.visible_to is not None]
    assert secrets, "the match has secrets to keep"
    for event in secrets:
        for text in (told(event, ["ann", "bob"], revealed=True), told(event, ["ann", "bob"], revealed=False)):
            assert text not in page
    assert "(secret," not in page


async def resigned_firewall(h: Any, bot: Any, moves: int) -> int:
    """A Firewall match of ann and bob, ``moves`` random moves, then bob resigns: its id."""
    guild, ch, ann, bob = setup_players(h)
    match_id = await started_match(bot, (guild, ch), "firewall", [(ann.id, "ann"), (bob.id, "bob")])
    await play_some(bot, match_id, [ann.id, bob.id], moves)
    await bot.service.forfeit(match_id, bob.id)
    return match_id


async def test_a_finished_match_tells_every_secret_with_its_owner(site) -> None:
    h, bot, signer = site
    match_id = await resigned_firewall(h, bot, 4)
    status, page, _ = await fetch(f"{bot.web.url}/m/{signer.token('match', match_id)}")
    assert status == 200 and "How it ended" in page and "(secret, " in page
    assert "Live" not in page
    assert '<figure class="board" id="board"><svg ' in page and "the Fire Wall, flagstone" in page  # its board
    # the end card's figures: each place, rating change and the game's own key figures
    assert '<ol class="finish">' in page and "1st · ann" in page and "Mana spent:" in page and "Spells cast:" in page
    assert "rating " in page and " → " in page


async def test_a_wrong_address_and_a_missing_match_get_the_same_answer(site) -> None:
    h, bot, signer = site
    wrong = await fetch(f"{bot.web.url}/m/1.{'A' * 22}")
    missing = await fetch(f"{bot.web.url}/m/{signer.token('match', 99_999)}")
    assert wrong[0] == missing[0] == 404
    assert NO_MATCH.split(":")[0] in wrong[1] and wrong[1] == missing[1]
    other = await fetch(f"{bot.web.url}/nothing/here")
    assert other[0] == 404 and other[2]["X-Robots-Tag"] == "noindex, nofollow"
    posted = await fetch(f"{bot.web.url}/m/{signer.token('match', 1)}", "POST")
    assert posted[0] == 405 and posted[2]["Allow"] == "GET, HEAD"
    assert (await fetch(f"{bot.web.url}/healthz"))[1] == "ok"
    css = await fetch(f"{bot.web.url}/static/table.css")
    assert css[0] == 200 and "font-size" in css[1]


async def test_the_page_unfurls_with_its_public_address_and_its_board_picture(site, monkeypatch) -> None:
    import io

    from PIL import Image

    from tests.browser import cairo

    cairo()  # the system's cairo library, which the pictures are drawn with (installed if missing)
    h, bot, signer = site
    guild, ch, ann, bob = setup_players(h)
    match_id = await started_match(bot, (guild, ch), "arena", [(ann.id, "ann"), (bob.id, "bob")])
    for n in range(8):
        await play_some(bot, match_id, [ann.id, bob.id], 1, seed=n)
        await h.settle()
        h.advance(3.0)  # players take their time: the DMs stay within Discord's rate limits
    app = make_app(bot.replays, signer, public_url="https://referee.example.org/")
    server = WebServer(app, "127.0.0.1", 0)
    await server.start()
    try:
        token = signer.token("match", match_id)
        _, page, _ = await fetch(f"{server.url}/m/{token}")
        async with aiohttp.ClientSession() as session, session.get(f"{server.url}/m/{token}/board.png") as answer:
            status, kind, body = answer.status, answer.headers["Content-Type"], await answer.read()
        missing = await fetch(f"{server.url}/m/{signer.token('match', 99_999)}/board.png")
    finally:
        await server.stop()
    assert f'<meta property="og:url" content="https://referee.example.org/m/{token}">' in page
    assert '<meta property="og:title" content="Arena · match #' in page
    assert f'<meta property="og:image" content="https://referee.example.org/m/{token}/board.png">' in page
    assert status == 200 and kind == "image/png"
    picture = Image.open(io.BytesIO(body))
    assert picture.format == "PNG" and picture.width == 1200 and picture.height > 600  # the board, full size
    assert missing[0] == 404


# ------------------------------------------------------------------------------- floods
def test_a_client_past_its_allowance_waits_and_then_goes_on() -> None:
    now = [0.0]
    limits = RateLimiter(rate=2.0, burst=3, clock=lambda: now[0])
    assert [limits.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limits.wait("a") == pytest.approx(0.5)
    assert limits.wait("b") == 0.0  # another client has its own allowance
    now[0] += 0.5
    assert limits.wait("a") == 0.0


async def test_a_flood_is_answered_429_with_retry_after(site) -> None:
    h, bot, signer = site
    app = make_app(bot.replays, signer, limiter=RateLimiter(rate=0.01, burst=2))
    server = WebServer(app, "127.0.0.1", 0)
    await server.start()
    try:
        answers = [await fetch(f"{server.url}/healthz") for _ in range(3)]
    finally:
        await server.stop()
    assert [a[0] for a in answers] == [200, 200, 429]
    assert int(answers[2][2]["Retry-After"]) >= 1 and answers[2][2]["Content-Security-Policy"]


# ------------------------------------------------------------------------------- start and stop
async def test_the_web_table_stops_with_the_bot_and_can_be_turned_off(make, tmp_path, monkeypatch) -> None:  # noqa: F811
    h, bot, db = await make(tmp_path / "a.sqlite3", images=False)
    port = bot.web.port
    await bot.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        await fetch(f"http://127.0.0.1:{port}/healthz")
    monkeypatch.setenv("WEB_ENABLED", "false")
    h2, off, db2 = await make(tmp_path / "b.sqlite3", images=False)
    assert getattr(off, "web", None) is None


async def test_a_port_already_taken_is_one_warning_and_the_bot_runs_on(make, tmp_path, monkeypatch, caplog) -> None:  # noqa: F811
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        monkeypatch.setenv("WEB_PORT", str(taken.getsockname()[1]))
        h, bot, db = await make(tmp_path / "c.sqlite3", images=False)
    finally:
        taken.close()
    assert getattr(bot, "web", None) is None
    assert "the web table cannot listen on 127.0.0.1" in caplog.text
    guild, ch, ann, bob = setup_players(h)
    r = await h.slash(ann, ch, "challenge", {"game": "firewall", "opponent": bob})
    assert r.message is not None  # the bot answers its commands as ever
    await asyncio.sleep(0)


async def test_a_server_that_turns_its_pages_off_shows_none_and_links_none(make, tmp_path, monkeypatch) -> None:  # noqa: F811
    """/settings web:False (docs/web.md): the server's match pages answer as a missing match does,
    their event streams too, and the cards carry no link; turned on again, the same address works."""
    monkeypatch.setenv("PUBLIC_URL", "https://referee.example.org")
    h, bot, db = await make(tmp_path / "off.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    match_id = await started_match(bot, (guild, ch), "firewall", [(ann.id, "ann"), (bob.id, "bob")])
    page = f"{bot.web.url}/m/{bot.signer.token('match', match_id)}"
    assert (await fetch(page))[0] == 200
    await bot.servers.update(guild.id, ann.id, web=False)
    hidden, missing = await fetch(page), await fetch(f"{bot.web.url}/m/{bot.signer.token('match', 99_999)}")
    assert hidden[0] == 404 and hidden[1] == missing[1]
    assert (await fetch(page + "/events"))[0] == 404
    from cogs.card import watch_url

    record = await bot.service.get(match_id)
    assert await watch_url(bot, record) is None
    await bot.servers.update(guild.id, ann.id, web=True)
    assert (await fetch(page))[0] == 200 and await watch_url(bot, record) == page.replace(
        bot.web.url, "https://referee.example.org"
    )


async def test_the_replay_scrubber_shows_each_step_s_board_and_refuses_a_step_that_is_not_one(site) -> None:
    h, bot, signer = site
    match_id = await resigned_firewall(h, bot, 6)
    page = f"{bot.web.url}/m/{signer.token('match', match_id)}"
    replay = await bot.replays.replay(await bot.service.get(match_id), frozenset({"turn_end", "game_end", "forfeit"}))
    count = len(replay.steps)
    assert count > 2
    boards = set()
    for step in (1, 2, count):
        status, text_, _ = await fetch(f"{page}?step={step}")
        assert status == 200 and f"Step {step} of {count}: " in text_
        assert f'value="{step}"' in text_  # the slider stands at the step shown
        board = text_.split('<figure class="board" id="board">', 1)[1].split("</svg>", 1)[0]
        boards.add(board)
        assert ("Previous" in text_) == (step > 1) and ("Next" in text_) == (step < count)
    assert len(boards) == 3  # each step has its own board
    _, latest, _ = await fetch(page)
    assert f"Step {count} of {count}" in latest and '<a href="?step=1#board">' in latest  # chapters link their step
    for bad in ("0", str(count + 1), "two", "-1", "1.5"):
        status, text_, _ = await fetch(f"{page}?step={bad}")
        assert status == 400 and f"The step must be a whole number from 1 to {count}" in text_
