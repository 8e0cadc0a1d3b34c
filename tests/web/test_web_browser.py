"""The web table in a real browser (issue 35, part 5; tests/browser.py: Debian's headless Chromium,
driven by Playwright): a spectator page follows a move made through the service; the replay
scrubber and the story's chapter links step through a finished match; each game is played to its
end from the two seat pages with clicks; spectator pages keep every secret in the DOM, the network
and the event stream; a 360 px phone sees no horizontal scroll and no text under 12 CSS px. A
screenshot of each page kind is saved (tests/browser.py ``shots``)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import aiohttp
import pytest

from bot.signing import Signer, seat_ident
from rules.story import told
from tests.browser import MEASURE, browser, shots
from tests.discord_flows import discord_harness, make, setup_players  # noqa: F401
from web.app import LIMITER

SECRET = "a-test-secret-of-32-characters!!"
SHORT = {"arena": {"game_turn_limit": 2}, "magic-duel": {"points_to_win": 1}}
GAMES = ["firewall", "wizards-cup", "magic-duel", "arena"]
PHONE = {"width": 360, "height": 740}


@pytest.fixture
async def site(make, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("WEB_SECRET", SECRET)
    h, bot, db = await make(tmp_path / "browser.sqlite3", images=False)
    limiter = bot.web.app[LIMITER]
    limiter.rate, limiter.burst = 10_000.0, 10_000  # a test clicks faster than a person
    return h, bot, Signer(SECRET)


async def started(bot: Any, h: Any, game: str) -> tuple[int, list[int]]:
    guild, ch, ann, bob = setup_players(h)
    record = await bot.service.create_challenge(
        game, SHORT.get(game), guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
    )
    await bot.service.accept(record.id, bob.id)
    return record.id, [ann.id, bob.id]


async def move(bot: Any, match_id: int, users: list[int], rng: random.Random) -> bool:
    """One random legal move of an awaited seat, through the service (as Discord makes it); False
    when nobody is awaited or the match is over."""
    if (await bot.service.get(match_id)).status.value != "active":
        return False
    for seat, uid in enumerate(users):
        prompt = await bot.service.prompt(match_id, seat)
        if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
            choices = prompt.decision.choices
            await bot.service.submit(match_id, uid, choices[rng.randrange(len(choices))], seat_step=prompt.seat_step)
            return True
    return False


async def think(h: Any) -> None:
    """A player's pause: the bot's Discord work done, time for Discord's rate limits to pass."""
    await h.settle()
    h.advance(3.0)


def match_url(bot: Any, signer: Signer, match_id: int) -> str:
    return f"{bot.web.url}/m/{signer.token('match', match_id)}"


def seat_url(bot: Any, signer: Signer, match_id: int, seat: int) -> str:
    return f"{bot.web.url}/p/{signer.token('seat', seat_ident(match_id, seat))}"


async def phone_check(page: Any, what: str) -> None:
    """At 360 px: no horizontal scroll, no text under 12 CSS px; and a screenshot."""
    measured = await page.evaluate(MEASURE)
    assert measured["overflow"] <= 0, f"{what}: {measured['overflow']} px of horizontal scroll"
    assert measured["smallest"] >= 12 - 0.01, f"{what}: text of {measured['smallest']:.1f} px ({measured['where']})"
    await page.screenshot(path=str(shots() / f"{what}.png"), full_page=True)


# ------------------------------------------------------------------------------- spectators
async def test_a_spectator_page_follows_a_move_made_through_the_service(site) -> None:
    h, bot, signer = site
    match_id, users = await started(bot, h, "wizards-cup")
    rng = random.Random(4)
    async with browser() as chromium:
        page = await chromium.new_page(viewport=PHONE)
        await page.goto(match_url(bot, signer, match_id))
        before = await page.locator("ol.lines li").count()
        await phone_check(page, "match-live")
        for _ in range(4):  # both Decks and both plans: the first duel resolves
            if await move(bot, match_id, users, rng):
                await think(h)
        # the page's own script fetched the new story (the timeout only keeps a broken page from hanging)
        await page.wait_for_function(
            "n => document.querySelectorAll('ol.lines li').length > n", arg=before, timeout=15_000
        )
        assert await page.locator("p.status").inner_text() != ""


async def test_the_replay_scrubber_and_the_story_s_links_step_through_a_finished_match(site) -> None:
    h, bot, signer = site
    match_id, users = await started(bot, h, "firewall")
    rng = random.Random(2)
    for _ in range(14):
        if await move(bot, match_id, users, rng):
            await think(h)
    await bot.service.forfeit(match_id, users[1])
    await bot.service.settle()
    async with browser() as chromium:
        page = await chromium.new_page(viewport=PHONE)
        await page.goto(match_url(bot, signer, match_id))
        caption = page.locator("figure.board figcaption")
        steps = int((await caption.inner_text()).split(" of ")[1].split(":")[0])
        assert steps > 2
        await phone_check(page, "match-finished")
        await page.click("nav.scrubber >> text=First")
        assert (await caption.inner_text()).startswith("Step 1 of")
        await page.click("nav.scrubber >> text=Next")
        assert (await caption.inner_text()).startswith("Step 2 of") and "step=2" in page.url
        await page.locator("nav.scrubber input[type=range]").evaluate(
            "(el, v) => { el.value = v; el.dispatchEvent(new Event('change')); }", steps - 1
        )
        await page.wait_for_url(f"**step={steps - 1}**")
        assert (await caption.inner_text()).startswith(f"Step {steps - 1} of")
        chapter = page.locator("section.story h3 a").nth(1)
        title = await chapter.inner_text()
        await chapter.click()
        await page.wait_for_load_state()
        assert title in await caption.inner_text()  # the chapter clicked is the step shown
        heading = page.locator("section.story h3").nth(2)
        step = (await heading.locator("a").get_attribute("href") or "").split("step=")[1].split("#")[0]
        await heading.locator("xpath=following-sibling::ol[1]//a[@class='move']").first.click()
        await page.wait_for_load_state()  # a move of the list: the board after its step
        assert (await caption.inner_text()).startswith(f"Step {step} of")
        await page.click("nav.scrubber >> text=Last")
        assert (await caption.inner_text()).startswith(f"Step {steps} of")


# ------------------------------------------------------------------------------- seats
async def browse_move(page: Any, url: str, rng: random.Random) -> str:
    """One move of the seat at ``url``, with clicks: offered choices (a board's square or model
    now and then) until "Play it". "played", "idle" (nothing asked) or "over"."""
    answer = await page.goto(url)
    if answer is not None and answer.status == 410:
        return "over"
    for _ in range(80):
        if await page.locator("form.confirm button.play").count():
            await page.click("form.confirm button.play")
            await page.wait_for_load_state()
            refused = await page.locator("p.error").all_inner_texts()
            assert not refused, f"the move was refused: {refused}"
            return "played"
        options, board = page.locator("#decide a.option"), page.locator("svg.board a")
        count, on_board = await options.count(), await board.count()
        box = page.locator("form.typed input[type=number]")
        if await box.count() and (count == 0 or rng.random() < 0.5):  # a bet: typed in its box
            low, high = int(await box.get_attribute("min") or 0), int(await box.get_attribute("max") or 0)
            await box.fill(str(rng.randint(low, high)))
            await page.click("form.typed button.choose")
            await page.wait_for_load_state()
            continue
        if count == 0 and on_board == 0:
            return "idle"
        if on_board and rng.random() < 0.5:
            await board.nth(rng.randrange(on_board)).click()
        else:
            await options.nth(rng.randrange(count)).click()
        await page.wait_for_load_state()
    raise AssertionError(f"no move after 80 clicks on {page.url}")


@pytest.mark.slow  # whole matches, click by click
@pytest.mark.parametrize("game", GAMES)
async def test_each_game_is_played_to_its_end_from_the_seat_pages_with_clicks(site, game: str) -> None:
    h, bot, signer = site
    match_id, users = await started(bot, h, game)
    rng = random.Random(11)
    played = 0
    async with browser() as chromium:
        pages = [await chromium.new_page(viewport=PHONE) for _ in users]
        urls = [seat_url(bot, signer, match_id, seat) for seat in range(len(users))]
        await pages[0].goto(urls[0])
        await phone_check(pages[0], f"seat-{game}")
        for _ in range(1500):
            if (await bot.service.get(match_id)).status.value != "active":
                break
            for page, url in zip(pages, urls, strict=True):
                if await browse_move(page, url, rng) == "played":
                    played += 1
                    await think(h)
        else:
            raise AssertionError("the match did not end")
    record = await bot.service.get(match_id)
    assert record.status.value == "finished" and played > 3
    log = await bot.service.match_log(match_id)
    assert sum(1 for e in log["actions"] if e["seat"] != "chance") == played


# ------------------------------------------------------------------------------- secrets
@pytest.mark.parametrize("game", GAMES)
async def test_a_spectator_page_keeps_every_secret_in_the_dom_the_network_and_the_stream(site, game: str) -> None:
    h, bot, signer = site
    match_id, users = await started(bot, h, game)
    rng = random.Random(8)
    for _ in range(5):  # (a Wizards Cup match is 10 or so moves long)
        if await move(bot, match_id, users, rng):
            await think(h)
    record = await bot.service.get(match_id)
    assert record.status.value == "active", "the match is live: its secrets are kept"
    replay = await bot.replays.replay(record, frozenset())
    names = record.names
    secrets = {
        text
        for step in replay.steps
        for event in step.events
        if event.visible_to is not None
        for text in (told(event, names, revealed=True), told(event, names, revealed=False))
    }
    for seat in range(len(users)):  # what each seat holds, as its own page shows it
        you = (await bot.service.view(match_id, seat)).get("you") or {}
        secrets |= {", ".join(map(str, v)) for k, v in you.items() if isinstance(v, list) and len(v) > 1}
    bodies: list[str] = []
    async with browser() as chromium:
        page = await chromium.new_page(viewport=PHONE)

        async def keep(response: Any) -> None:
            if "/events" not in response.url:  # the stream is read below, whole events at a time
                bodies.append((await response.body()).decode(errors="replace"))

        page.on("response", lambda r: asyncio.ensure_future(keep(r)))
        await page.goto(match_url(bot, signer, match_id))
        await page.wait_for_load_state("networkidle")
        await asyncio.sleep(0.2)  # the last responses' bodies are read
        dom = await page.content()
    stream = await first_events(f"{match_url(bot, signer, match_id)}/events")
    assert bodies and dom and stream
    for text in secrets:
        assert text not in dom, f"a secret in the page: {text!r}"
        assert all(text not in body for body in bodies), f"a secret on the network: {text!r}"
    assert all(set(json.loads(data)) == {"version", "live"} for data in stream)  # a version, nothing else


async def first_events(url: str) -> list[str]:
    """The data of the event stream's first event (the state it opens with)."""
    async with aiohttp.ClientSession() as session, session.get(url) as stream:
        block = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)).decode()
    return [line[len("data: ") :] for line in block.splitlines() if line.startswith("data: ")]


# ------------------------------------------------------------------------------- phones
async def test_every_page_kind_fits_a_phone(site) -> None:
    h, bot, signer = site
    match_id, users = await started(bot, h, "arena")
    guild, ch, ann, bob = setup_players(h)
    done = await bot.service.create_challenge("firewall", None, guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")])
    await bot.service.accept(done.id, bob.id)
    await bot.service.forfeit(done.id, bob.id)  # a rated match: ladders, a player's page
    await bot.service.settle()
    tour = await bot.tournaments.create(guild.id, ch.id, ann.id, "firewall", "swiss", rounds=1)
    for who in (ann, bob):
        await bot.tournaments.join(tour.id, (who.id, who.display_name))
    await bot.tournaments.start(tour.id, ann.id)
    await think(h)
    async with browser() as chromium:
        page = await chromium.new_page(viewport=PHONE)
        for what, url in (
            ("home", f"{bot.web.url}/"),
            ("not-found", f"{bot.web.url}/m/1.{'A' * 22}"),
            ("arena-live", match_url(bot, signer, match_id)),
            ("arena-seat", seat_url(bot, signer, match_id, 0)),
            ("leaderboard", f"{bot.web.url}/s/{signer.token('server', guild.id)}"),
            ("player", f"{bot.web.url}/u/{signer.pair_token('player', guild.id, ann.id)}"),
            ("tournament", f"{bot.web.url}/t/{signer.token('tournament', tour.id)}"),
            ("seat-over", seat_url(bot, signer, done.id, 0)),
        ):
            answer = await page.goto(url)
            assert answer is not None and answer.status in (200, 404, 410), (what, answer.status)
            await phone_check(page, what)
