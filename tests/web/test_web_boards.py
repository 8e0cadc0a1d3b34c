"""The web table's boards (issue 35, part 2; web/boards/): each game that has one draws its
spectator view as SVG that is well formed, legible on a 360 px phone (no text under
:data:`web.boards.MIN_FONT` units in a viewBox at most :data:`web.boards.WIDTH` wide), styled by
attributes only (the pages' Content-Security-Policy), with every name escaped, and shows what the
view says: Firewall's wall, lava and wizards, Arena's models on their squares."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from rules.core import CHANCE
from rules.match import Match
from rules.registry import entry, game_slugs
from web.boards import MIN_FONT, WIDTH, board_of, board_svg

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["ann <b>&", "bob"]
OPTIONS: dict[str, dict[str, Any]] = {"arena": {"grid_size": 8, "terrain_count": 4}}


def views(slug: str, seed: int, every: int = 7, limit: int = 400) -> list[dict[str, Any]]:
    """Spectator views along a game of random legal moves."""
    m = Match.new(slug, OPTIONS.get(slug), seed=seed, seats=["p0", "p1"])
    state, rng, out = m.state, random.Random(seed), []
    for step in range(limit):
        aw = state.awaiting
        if aw.is_terminal:
            break
        seat = CHANCE if aw.is_chance else rng.choice(sorted(aw.seats))
        state.apply(seat, state.sample_action(seat, rng))
        if step % every == 0:
            out.append(dict(state.view(None)))
    out.append(dict(state.view(None)))
    return out


def checked(drawn: str) -> ET.Element:
    root = ET.fromstring(drawn)  # well formed
    assert root.tag == f"{SVG}svg" and float(root.attrib["viewBox"].split()[2]) <= WIDTH
    for element in root.iter():
        assert "style" not in element.attrib  # attributes only: the CSP allows no inline style
        if element.tag == f"{SVG}text":
            assert float(element.attrib["font-size"]) >= MIN_FONT
    assert "<b>" not in drawn and "ann &lt;b&gt;&amp;" in drawn  # names escaped
    return root


@pytest.mark.parametrize("slug", game_slugs())
def test_every_game_names_its_board_or_none(slug: str) -> None:
    if entry(slug).web is None:
        assert board_of(slug) is None and board_svg(slug, {}, NAMES) is None
    else:
        assert callable(board_of(slug))


@pytest.mark.parametrize("slug", [s for s in game_slugs() if entry(s).web is not None])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_board_is_well_formed_legible_and_escaped_all_game_long(slug: str, seed: int) -> None:
    for view in views(slug, seed):
        drawn = board_svg(slug, view, NAMES)
        assert drawn is not None
        checked(drawn)


def test_firewall_draws_the_wall_the_lava_and_the_wizards_where_the_view_has_them() -> None:
    """docs/rulings/firewall.md#a-turn: the wall between the wizards; collapsed flagstones are lava."""
    seen_lava = False
    for seed in range(1, 6):
        for view in views("firewall", seed, every=3):
            root = checked(board_svg("firewall", view, NAMES) or "")
            titles = [t.text or "" for t in root.iter(f"{SVG}title")]
            bridge = view["bridge"]
            assert f"the Fire Wall, flagstone {bridge['wall']}" in titles
            assert sum("(lava)" in t for t in titles) == len(bridge["broken"])
            seen_lava = seen_lava or bool(bridge["broken"])
            label = root.attrib["aria-label"]
            for p in view["players"]:
                assert f"on {p['wizard']} with {p['mana']} mana" in label
    assert seen_lava, "no game collapsed a flagstone: the lava was never drawn"


def test_every_project_game_has_a_board() -> None:
    assert [slug for slug in game_slugs() if entry(slug).web is None] == []


def test_magic_duel_shows_a_face_down_spell_as_its_count_only() -> None:
    """docs/rulings/magic-duel.md: a face-down spell's cards stay secret until its reveal."""
    seen = 0
    for seed in range(1, 4):
        for view in views("magic-duel", seed, every=1, limit=150):
            drawn = board_svg("magic-duel", view, NAMES) or ""
            checked(drawn)
            for play in (view.get("trick") or {}).get("plays") or []:
                if not play["face_up"]:
                    assert f"{play['count']} face down" in drawn
                    seen += 1
    assert seen, "no face-down spell was ever on the table"


def test_wizards_cup_names_the_duelling_wizards_and_the_tokens() -> None:
    for view in views("wizards-cup", 4, every=2):
        root = checked(board_svg("wizards-cup", view, NAMES) or "")
        label = root.attrib["aria-label"]
        for p in view["players"]:
            assert f"{p['tokens']} Victory token(s)" in label


def test_arena_draws_each_model_on_the_board_on_its_square() -> None:
    for view in views("arena", 3, every=5):
        root = checked(board_svg("arena", view, NAMES) or "")
        discs = [c for c in root.iter(f"{SVG}circle")]
        standing = [m for m in view["models"] if not m["knocked_out"]]
        assert len(discs) == len(standing)
        titles = [c.find(f"{SVG}title") for c in discs]
        for model, title in zip(standing, titles, strict=True):
            assert title is not None and f", {model['square']}, health {model['health']}" in (title.text or "")
