"""Playing a seat in the browser (issue 35, part 3; web/seat.py, web/choices.py, docs/web.md):
each player's signed page shows what their seat may see and asks each decision one field at a
time; a confirmed move goes through the service's submit as a Discord click does (committed
first, the stale-step check, clear refusals with nothing changed) and Discord hears of it."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import aiohttp
import pytest

from bot.signing import Signer, seat_ident
from rules.registry import game_class, get_game
from tests.discord_flows import discord_harness, in_match, make, setup_players  # noqa: F401
from tests.web.seat_play import click_once, first_form, play_to_the_end
from web import choices
from web.app import LIMITER

SECRET = "a-test-secret-of-32-characters!!"
SHORT = {"arena": {"game_turn_limit": 2}, "magic-duel": {"points_to_win": 1}}


@pytest.fixture
async def site(make, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("WEB_SECRET", SECRET)
    h, bot, db = await make(tmp_path / "seat.sqlite3", images=False)
    limiter = bot.web.app[LIMITER]
    limiter.rate, limiter.burst = 10_000.0, 10_000  # the tests click faster than people
    return h, bot, Signer(SECRET)


async def started(bot: Any, h: Any, game: str) -> tuple[int, list[int], Any]:
    guild, ch, ann, bob = setup_players(h)
    record = await bot.service.create_challenge(
        game, SHORT.get(game), guild.id, ch.id, (ann.id, "ann"), [(bob.id, "bob")]
    )
    await bot.service.accept(record.id, bob.id)
    return record.id, [ann.id, bob.id], ch


def seat_urls(bot: Any, signer: Signer, match_id: int, seats: int = 2) -> list[str]:
    return [f"{bot.web.url}/p/{signer.token('seat', seat_ident(match_id, s))}" for s in range(seats)]


async def get(url: str, **params: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url, params=params) as answer:
        return answer.status, await answer.text()


async def post(url: str, data: dict[str, str], headers: dict[str, str] | None = None) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=data, headers=headers or {}, allow_redirects=False) as answer,
    ):
        return answer.status, await answer.text()


# ------------------------------------------------------------------------------- whole matches
@pytest.mark.slow  # whole matches, click by click
@pytest.mark.parametrize("game", ["firewall", "wizards-cup", "magic-duel", "arena"])
async def test_a_whole_match_is_played_from_the_two_seat_pages(site, game: str) -> None:
    h, bot, signer = site
    match_id, users, ch = await started(bot, h, game)

    async def think() -> None:
        await h.settle()
        h.advance(3.0)

    moves = await play_to_the_end(bot, seat_urls(bot, signer, match_id), match_id, random.Random(7), think)
    record = await bot.service.get(match_id)
    assert record.status.value == "finished" and moves > 3
    log = await bot.service.match_log(match_id)
    assert sum(1 for e in log["actions"] if e["seat"] != "chance") == moves  # every click-built move, once
    # Discord heard of every move as of a click: the thread tells the match to its end
    told = " ".join(m.text() for m in in_match(h, ch))
    assert f"match #{match_id}" in told


async def test_the_builder_reaches_every_kind_of_decision_of_every_game() -> None:
    """Property: for random legal play of each game, every legal action is reachable through the
    offered picks (the choices the page offers lead to exactly that action), and nothing else."""
    from rules.core import CHANCE

    for slug in ("firewall", "wizards-cup", "magic-duel", "arena"):
        game = get_game(slug)()
        state, rng = game.new_state(), random.Random(3)
        for _ in range(200):
            if state.is_terminal:
                break
            if state.awaiting.is_chance:
                state.apply(CHANCE, state.sample_action(CHANCE, rng))
                continue
            seat = min(state.awaiting.seats)
            decision = state.asked(seat)
            assert decision is not None
            target = decision.choices[rng.randrange(len(decision.choices))]
            assert _walk(game, decision, target) == target
            state.apply(seat, target)


def _walk(game: Any, decision: Any, target: Any) -> Any:
    picks: list[Any] = []
    for _ in range(choices.MAX_PICKS):
        asked = choices.build(game, decision, picks)
        if asked.action is not None:
            return asked.action
        wanted = _wanted(asked, target, picks)
        found = [o for o in asked.options if o.value == wanted]
        assert len(found) == 1, (asked.question, wanted)
        picks = choices.decode(found[0].picks)
    raise AssertionError("no action after every pick")


def _wanted(asked: Any, target: Any, picks: list[Any]) -> Any:
    if asked.field == choices.TYPE:
        return target.type
    value = json.loads(json.dumps(target.to_json()[asked.field]))
    if choices.is_list_field(type(target), asked.field):
        made = sum(1 for f, v in picks if f == asked.field and v != choices.DONE)
        return value[made] if made < len(value) else choices.DONE
    return value


# ------------------------------------------------------------------------------- what a seat sees
async def test_a_seat_page_shows_its_own_hand_and_never_the_other_seats(site) -> None:
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "magic-duel")
    ann_url, bob_url = seat_urls(bot, signer, match_id)
    views = [await bot.service.view(match_id, seat) for seat in (0, 1)]
    (_, ann_page), (_, bob_page) = await get(ann_url), await get(bob_url)
    assert "Only you see" in ann_page and "You play as ann" in ann_page
    ann_hand = views[0]["you"]["hand"]
    bob_hand = views[1]["you"]["hand"]
    assert ", ".join(ann_hand) in ann_page and ", ".join(bob_hand) in bob_page
    assert ", ".join(bob_hand) not in ann_page and ", ".join(ann_hand) not in bob_page


async def test_arena_squares_and_models_are_clicked_on_the_board(site) -> None:
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "arena")
    urls = seat_urls(bot, signer, match_id)
    rng = random.Random(1)
    followed: dict[str, str] = {}  # "square" / "model": the page the board's link led to
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as session:
        for _ in range(300):
            for url in urls:
                async with session.get(url) as answer:
                    svg = (await answer.text()).split("</svg>")[0]
                for href, label in re.findall(r'<a href="\?p=([^"#]*)#decide" aria-label="([^"]*)"', svg):
                    kind = "square" if label.startswith("square ") else "model"
                    if kind not in followed:
                        async with session.get(url, params={"p": html.unescape(href)}) as answer:
                            assert answer.status == 200
                            followed[kind] = await answer.text()
                if await click_once(session, url, rng) == "played":
                    await h.settle()
                    h.advance(3.0)
            if len(followed) == 2:
                break
    assert set(followed) == {"square", "model"}, "the board offered squares and models to click"
    for page in followed.values():  # a click on the board is a pick: the move goes on from it
        assert "Confirm your move" in page or '<a class="option"' in page
        assert '<ul class="made">' in page


# ------------------------------------------------------------------------------- refusals
async def test_a_stale_step_is_refused_and_nothing_changes(site) -> None:
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "firewall")
    url = seat_urls(bot, signer, match_id)[0]
    async with aiohttp.ClientSession() as session:
        form = await first_form(session, url)
    prompt = await bot.service.prompt(match_id, 0)  # ann plays the step in Discord meanwhile
    await bot.service.submit(match_id, users[0], prompt.decision.choices[-1], seat_step=prompt.seat_step)
    before = (await bot.service.get(match_id)).version
    status, text = await post(url, form)
    assert status == 409 and "already played" in text
    assert (await bot.service.get(match_id)).version == before


async def test_bad_input_is_answered_clearly_with_no_change(site) -> None:
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "firewall")
    url = seat_urls(bot, signer, match_id)[0]
    version = (await bot.service.get(match_id)).version
    step = str((await bot.service.prompt(match_id, 0)).seat_step)
    cases = [
        ({"action": "not json", "step": step}, 400, "could not be read"),
        ({"action": "[1, 2]", "step": step}, 400, "could not be read"),
        ({"action": json.dumps({"type": "turn", "bet": 1}), "step": "x"}, 400, "could not be read"),
        ({"action": json.dumps({"type": "turn", "bet": 99}), "step": step}, 400, "bet"),
        ({"action": json.dumps({"type": "nonsense"}), "step": step}, 400, "Malformed"),
    ]
    for data, status, words in cases:
        got, text = await post(url, data)
        assert got == status and words in text, (data, got)
    for foreign in ({"Origin": "https://elsewhere.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
        got, text = await post(url, {"action": "{}", "step": step}, foreign)
        assert got == 403 and "did not come from this site" in text, foreign
    got, text = await get(url, p="not-picks!")
    assert got == 400 and "start the move again" in text and 'name="v"' in text  # asked again from the start
    assert (await bot.service.get(match_id)).version == version  # nothing changed
    wrong = f"{bot.web.url}/p/{signer.token('match', seat_ident(match_id, 0))}"  # a match's token
    assert (await get(wrong))[0] == 404
    beyond = f"{bot.web.url}/p/{signer.token('seat', seat_ident(match_id, 5))}"  # no such seat
    assert (await get(beyond))[0] == 404


async def test_the_link_expires_when_the_match_ends(site) -> None:
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "firewall")
    url = seat_urls(bot, signer, match_id)[0]
    await bot.service.forfeit(match_id, users[1])
    status, text = await get(url)
    assert status == 410 and "This match is over" in text and f"/m/{signer.token('match', match_id)}" in text
    got, _ = await post(url, {"action": "{}", "step": "0"})
    assert got == 410


async def test_a_server_that_turned_its_pages_off_has_no_seat_pages(site) -> None:
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "firewall")
    record = await bot.service.get(match_id)
    await bot.servers.update(record.guild_id, 1, web=False)
    assert (await get(seat_urls(bot, signer, match_id)[0]))[0] == 404


def test_every_game_names_its_values_for_the_page() -> None:
    arena = game_class("arena")()
    assert choices.words(arena, "to", [2, 3]) == "C4" and choices.words(arena, "target", "p2-m1") == "P2 Minion 1"
    firewall = game_class("firewall")()
    assert choices.words(firewall, "hand", [0, 5]).count("(") == 2


async def test_a_bet_is_typed_in_a_number_box_within_the_game_s_bounds(site) -> None:
    """Firewall's bet has bounds (``Decision.bounds``): the page offers a number box for it; a
    number in the bounds is a pick, anything else a clear refusal with nothing picked."""
    h, bot, signer = site
    match_id, users, _ = await started(bot, h, "firewall")
    url = seat_urls(bot, signer, match_id)[0]
    bound = (await bot.service.prompt(match_id, 0)).decision.bound("bet")
    _, page = await get(url)
    assert f'<input type="number" name="v" min="{bound.low}" max="{bound.high}"' in page
    status, page = await get(url, p="", f="bet", v="3")
    assert status == 200 and '<span class="what">Bet:</span> 3' in page
    for typed, words in ((str(bound.high + 1), f"must be from {bound.low} to {bound.high}"), ("x3", "whole number")):
        status, page = await get(url, p="", f="bet", v=typed)
        assert status == 400 and words in page and '<ul class="made">' not in page
