"""A game is registered once (``rules/registry.py``) and every layer finds it there.

- Every registered game supplies every part: its Game typed by its views, its AI kit, its Discord
  UI typed by the same views with its /howto entry, first-match tip and end card, its tournament
  profile, its pool of rule-based opponents, and its rulings and actions pages.
- A toy game (``tests/toy_game.py``, UI in ``tests/toy_ui.py``) registered by a test shows up in
  /help, /howto, /challenge, /practice (the AI plays it), tournaments, replays and the end card, and
  ``EXTRA_GAMES`` brings it into a benchmark's worker processes.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any, get_args

import pytest

from bench.pool import pool_module
from bot.endings import ending_of
from bot.matches import MatchStatus
from bot.tournaments import game_profile
from cogs.games import get_ui
from cogs.games.base import GameUI
from cogs.games.howto import HowTo
from rules.ai import choose
from rules.ai.kit import AIKit, kit
from rules.core import Game, TournamentProfile
from rules.match import Match
from rules.registry import EXTRA_GAMES_VARIABLE, entry, game_class, game_slugs, registered
from tests.discord_flows import in_match, setup_players
from tests.toy_game import TOY

ROOT = Path(__file__).resolve().parents[1]


def _generic_args(cls: type, base: type) -> tuple[Any, ...]:
    """The type arguments ``cls`` gives ``base`` where it (or a class above it) subclasses it."""
    for klass in cls.__mro__:
        for orig in getattr(klass, "__orig_bases__", ()):
            if typing.get_origin(orig) is not None and issubclass(typing.get_origin(orig), base):
                return get_args(orig)
    return ()


def _name(arg: Any) -> str:
    """A type argument's name (the engines name their views by string: view.py imports game.py)."""
    return arg.__forward_arg__ if isinstance(arg, typing.ForwardRef) else arg.__name__


def _typed_dict(arg: Any, module: str) -> type:
    """The TypedDict a Game's view argument names, from its package's view module (or its own)."""
    if not isinstance(arg, typing.ForwardRef):
        return typing.cast(type, arg)
    package = module.rsplit(".", 1)[0]
    return typing.cast(type, getattr(sys.modules[f"{package}.view"], arg.__forward_arg__))


def assert_complete(slug: str) -> None:
    """Every part of the game ``slug``'s registration is there and agrees with the others."""
    found = entry(slug)
    game = game_class(slug)
    assert issubclass(game, Game) and game.slug == slug and game.name and game.summary
    options, seat_view, public_view = _generic_args(game, Game)
    assert options is game.options_model
    views = [_typed_dict(v, game.__module__) for v in (seat_view, public_view)]
    assert all(typing.is_typeddict(v) for v in views), views
    assert isinstance(game.tournament, TournamentProfile)
    assert game_profile(slug).tables is game.tournament.tables  # the tournament core reads it

    ai = kit(slug)
    assert isinstance(ai, AIKit) and ai is not None
    state = game().new_state()
    hidden = any(ask.secret for s in range(game().num_seats) if (ask := state.asked(s)) is not None)
    assert ai.determinize is not None or not hidden, "a game with secrets needs its determinizer"

    ui = get_ui(slug)
    assert isinstance(ui, GameUI) and ui.slug == slug
    assert isinstance(ui.howto, HowTo) and ui.howto.goal and ui.howto.turn and ui.howto.end and ui.howto.steps
    assert isinstance(ui.first_match_tip, str) and ui.first_match_tip and "\n" not in ui.first_match_tip
    assert callable(ui.ending.figures) and callable(ui.ending.secrets) and hasattr(ui.ending, "NOTE")
    if found.ending is not None:  # the web table reads the same module the end card does
        assert ending_of(slug) is ui.ending
    ui_views = _generic_args(type(ui), GameUI)
    assert [_name(v) for v in ui_views] == [_name(v) for v in (seat_view, public_view)], "UI and Game views differ"
    assert [_name(v) for v in views] == [v.__name__ for v in ui_views]

    if found.pool is not None:
        module = pool_module(slug)
        assert module is not None and len(module.PLAYERS) >= 4 and callable(module.HEURISTIC)


@pytest.mark.parametrize("slug", game_slugs())
def test_every_registered_game_supplies_every_part(slug: str) -> None:
    assert_complete(slug)
    assert entry(slug).pool is not None  # the project's games are measured against a pool
    for folder in ("rulings", "actions"):
        assert (ROOT / "docs" / folder / f"{slug}.md").is_file(), f"docs/{folder}/{slug}.md"


def test_the_toy_game_supplies_every_part_too(toy_game: str) -> None:
    assert_complete(toy_game)


def test_registering_is_scoped_and_an_unknown_game_is_named() -> None:
    before = game_slugs()
    with registered(TOY):
        assert game_slugs() == [*before, TOY.slug]
    assert game_slugs() == before
    with pytest.raises(ValueError, match="Unknown game 'nope'; the games are: wizards-cup, firewall"):
        entry("nope")


def _choices(command: dict[str, Any], option: str) -> list[str]:
    (found,) = [o for o in command.get("options", []) if o["name"] == option]
    return [c["value"] for c in found.get("choices", [])]


def _synced(h: Any) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for request in h.requests_for("PUT"):
        if isinstance(request.json, list):
            out.update({c["name"]: c for c in request.json})
    return out


async def _play_out(h: Any, bot: Any, match_id: int, rng: random.Random) -> None:
    """Random legal moves by the human seats until the match is over (a computer seat plays itself)."""
    for _ in range(100):
        await bot.service.computers_settle()
        await h.settle()
        record = await bot.service.get(match_id)
        if record.status is not MatchStatus.ACTIVE:
            return
        for seat, info in enumerate(record.seats):
            if record.is_ai(seat):
                continue
            prompt = await bot.service.prompt(match_id, seat)
            if prompt.awaited and prompt.decision is not None and prompt.decision.choices:
                choice = prompt.decision.choices[rng.randrange(len(prompt.decision.choices))]
                await bot.service.submit(match_id, info.user_id, choice, seat_step=prompt.seat_step)
    raise AssertionError(f"match {match_id} did not end")


async def test_a_registered_toy_game_is_found_in_every_layer(make, tmp_path, toy_game, monkeypatch) -> None:
    # the computer players think in worker processes: EXTRA_GAMES registers the toy game there too
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "tests.toy_game:TOY")
    h, bot, db = await make(tmp_path / "toy.sqlite3")

    async def paced(seconds: float) -> None:  # a computer's pause before each move, on the harness's clock
        h.advance(seconds)
        await asyncio.sleep(0)

    bot.service.computer.sleep = paced
    guild, ch, ann, bob = setup_players(h)
    commands = _synced(h)
    for name in ("challenge", "practice", "rules"):
        assert toy_game in _choices(commands[name], "game"), name
    create = next(o for o in commands["tournament"]["options"] if o["name"] == "create")
    assert toy_game in _choices(create, "game")

    r = await h.slash(ann, ch, "help", {})  # /help names the games
    assert "Toy Guess" in r.embed["description"]
    ac = await h.autocomplete(ann, ch, "howto", "game", "toy")
    assert [c["value"] for c in ac.choices] == [toy_game]
    r = await h.slash(ann, ch, "howto", {"game": "Toy Guess"})
    assert r.embed["title"] == "How to play Toy Guess" and "closest guess scores" in r.embed["description"]
    assert [f.filename for f in r.message.files][:1] == [f"howto-{toy_game}.png"]

    r = await h.slash(ann, ch, "challenge", {"game": toy_game, "opponent": bob})  # /challenge
    await h.click(bob, r.message, label="Accept")
    (record,) = await bot.service.live_matches_for(ann.id)
    await _play_out(h, bot, record.id, random.Random(1))
    posted = json.dumps([m.embeds for m in in_match(h, ch)], ensure_ascii=False)
    assert f"Toy Guess · match #{record.id}" in posted and "points" in posted  # the end card, the toy's figures

    rp = await h.slash(ann, ch, "replay", {"match": record.id})  # replays
    assert "Toy Guess" in json.dumps(rp.message.embeds if rp.message else rp.embeds), rp.content

    await h.slash(ann, ch, "practice", {"game": toy_game, "level": "easy"})  # the AI plays it
    (practice,) = await bot.service.live_matches_for(ann.id)
    assert practice.game == toy_game and any(practice.is_ai(s) for s in range(len(practice.seats)))
    await _play_out(h, bot, practice.id, random.Random(2))
    assert (await bot.service.get(practice.id)).status is MatchStatus.FINISHED

    r = await h.slash(ann, ch, "tournament create", {"game": toy_game, "format": "round_robin"})  # tournaments
    assert "Toy Guess" in json.dumps(r.message.embeds), r.content
    assert not h.violations


def test_the_ai_plays_the_toy_game(toy_game: str) -> None:
    match = Match.new(toy_game, options={"rounds": 2, "high": 5}, seed=4, seats=["ann", "bob"])
    rng = random.Random(3)
    for _ in range(50):
        if match.awaiting.is_terminal:
            break
        seat = min(match.awaiting.seats)
        match.act(seat, choose(match.state, seat, level="easy", seed=rng.randrange(1 << 30)))
    assert match.awaiting.is_terminal and match.outcome is not None


def test_extra_games_bring_the_toy_game_into_a_benchmarks_worker(tmp_path: Path) -> None:
    out = tmp_path / "engines.json"
    env = {**os.environ, EXTRA_GAMES_VARIABLE: "tests.toy_game:TOY"}
    cmd = [sys.executable, "-m", "bench", "engines", "--quick", "--no-baseline", "--seconds", "0.3", "--rounds", "1"]
    done = subprocess.run(
        [*cmd, "--games", TOY.slug, "--json", str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert TOY.slug in done.stdout
    assert json.loads(out.read_text())[TOY.slug]["games"] > 0
    listed = subprocess.run([*cmd, "--help"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert TOY.slug in listed.stdout
