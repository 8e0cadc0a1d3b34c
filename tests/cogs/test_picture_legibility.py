"""Every picture is legible on a phone (issue 31, part 3).

Each picture kind is rendered at its real size, with long names (32 characters, wide letters,
unicode), extreme values (no mana and full mana, 99 Health, a 10x10 board, eight players...) and
every game, with :func:`cogs.games.pictures.recording` on, which records every text drawn (its
font size, its colour and the colour under it). For every text:

- its size is at least :data:`MIN_TEXT_RATIO` (2.8%) of the picture's width: about 10 px when
  Discord shows the picture 360 px wide on a phone;
- its contrast against what it is drawn on is at least 4.5:1 (WCAG AA).

Every picture kind the cogs make (``PICTURES.file("kind", ...)``, the grids of Wizards Cup, the
tournament ``DRAWERS``) must be listed in :data:`KINDS`, so a new kind cannot skip the check; and
only :func:`cogs.games.pictures.text` may call ``ImageDraw.text``.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from cogs.games.pictures import MIN_CONTRAST, MIN_TEXT_RATIO, TextRecord, contrast, legible, recording

COGS = Path(__file__).resolve().parents[2] / "cogs"
LONG = ["W" * 32, "Ŵ" * 16 + "漢字" * 8]
SHORT = ["ann", "bob"]
EIGHT = ["W" * 32, "Ŵ" * 16 + "漢字" * 8, "cy", "dee", "𝕯𝖗𝖆𝖐𝖔 🐉", "hal", "ivy" * 10, "José María"]


# ------------------------------------------------------------------------------ the pictures


def wc_situation() -> list[Image.Image]:
    from cogs.games.wizards_cup.art import situation_image

    out = []
    for names in (SHORT, LONG):
        for tokens, duel in ((0, None), (2, "revolutionary")):
            zone = [{"seat": s, "tokens": tokens, "duel": duel} for s in (0, 1)]
            out.append(situation_image({"round": 3, "players": zone}, names))
    return out


def wc_grids() -> dict[str, list[Image.Image]]:
    from cogs.games.wizards_cup.art import Cell, grid_painter, order_rows, set_rows
    from rules.wizards_cup import load_card_set

    ids = load_card_set().ids
    longest = sorted(ids, key=lambda c: -len(c))
    return {
        "wc-set": [
            grid_painter(
                "Your set: the random card is in your Deck; choose 5 more", set_rows(ids[5], ids[:5] + ids[6:])
            ).image
        ],
        "wc-deck": [
            grid_painter("Your Deck", [[Cell(c) for c in longest[:6]]]).image,
            grid_painter("Your Deck after the swap (round 2)", [[Cell(c) for c in ids[-6:]]]).image,
        ],
        "wc-order": [
            grid_painter("Your playing order", order_rows(longest[:6], [], 5)).image,
            grid_painter("Your playing order", order_rows(longest[:6], [3, 0, 2], 5)).image,
            grid_painter("Your playing order", order_rows(longest[:6], [3, 0, 2, 5, 1], 5)).image,
        ],
    }


def wc_duels() -> list[Image.Image]:
    from cogs.games.wizards_cup.duel_rows import duels_image
    from cogs.games.wizards_cup.story import duel_stories
    from rules import Match

    out = []
    for names, seed in ((LONG, 3), (SHORT, 11), (LONG, 7)):
        rng = random.Random(seed)
        m = Match.new("wizards-cup", seed=seed, seats=names)
        while not m.awaiting.is_terminal:
            seat = rng.choice(sorted(m.awaiting.seats))
            m.act(seat, rng.choice(m.state.legal_actions(seat)))
        public = [e for e in m.events if e.visible_to is None]
        stories = list(duel_stories(m.state.view(None), public).values())
        out.append(duels_image(stories[:1], names))
        out.append(duels_image(stories, names))  # the tall version: every duel of the match
    return out


def firewall_views() -> list[tuple[dict, list[str]]]:
    from rules import Match

    out = []
    for names, seed in ((LONG, 1), (SHORT, 2)):
        rng = random.Random(seed)
        m = Match.new("firewall", seed=seed, seats=names)
        out.append((m.state.view(None), names))
        while not m.awaiting.is_terminal:
            seat = rng.choice(sorted(m.awaiting.seats))
            m.act(seat, rng.choice(m.state.legal_actions(seat)))
            if rng.random() < 0.08:
                out.append((m.state.view(None), names))
        out.append((m.state.view(None), names))
    return out


def firewall() -> list[Image.Image]:
    from cogs.games.firewall.art import bridge_image

    return [bridge_image(v, n) for v, n in firewall_views()]


def md_hand() -> list[Image.Image]:
    from cogs.games.magic_duel.art import _hand_image

    return [
        _hand_image(["AS", "10H", "QD", "KC", "JOKER" if False else "2S", "10D#2", "7C"]),
        _hand_image(["10H#3"]),
        _hand_image([]),
    ]


def md_trick() -> list[Image.Image]:
    from cogs.games.magic_duel.art import TrickRow, _trick_image

    rows = [
        TrickRow(s, EIGHT[s], ("10H", "10D", "10S", "10C") if s % 2 else None, 4, "Codu, face-up" if s == 1 else "")
        for s in range(8)
    ]
    rows[2] = TrickRow(2, EIGHT[2], ("QH",), 1, "face-up", winner=True)
    return [
        _trick_image("Trick 12 · hand 9", rows),
        _trick_image("Trick 1 · hand 1", rows[:2]),
        _trick_image("Trick 1 · hand 1", []),
    ]


def arena() -> list[Image.Image]:
    from cogs.games.arena.art import board_image
    from tests.cogs.arena_extremes import extreme_match

    m, events = extreme_match()
    st = m.state
    st.players[0].favour = 99  # type: ignore[attr-defined]
    for model in st.models.values():  # type: ignore[attr-defined]
        model.health = model.max_health = 99
    out = [board_image(m.state.view(None), LONG, events)]
    from rules import Match

    fresh = Match.new("arena", seed=4, seats=LONG)
    out.append(board_image(fresh.state.view(None), LONG))
    for size in (8, 12):
        other = Match.new("arena", seed=4, seats=SHORT, options={"grid_size": size})
        out.append(board_image(other.state.view(None), SHORT))
    return out


def howto() -> list[Image.Image]:
    from cogs.help import howto_image, howtos

    HOWTOS = howtos()

    return [howto_image(slug) for slug in HOWTOS]


def rating_chart() -> list[Image.Image]:
    from cogs.charts import Panel, chart_image

    long = Panel("Wizards Cup · " + "W" * 60, tuple(range(1200, 1200 + 201 * 7, 7)), ("win", "loss", "draw") * 67)
    short = Panel("Firewall", (1200, 1180, 1230, 999), ("loss", "win", "loss"))
    return [chart_image([long, short]), chart_image([short])]


def tournament(kind: str) -> list[Image.Image]:
    from cogs.tournament_pictures import DRAWERS, picture_model
    from tests.cogs.tournament_views import view_of

    cases = {
        "tournament-standings": [("wizards-cup", "swiss", 8, 3), ("firewall", "round_robin", 8, 7)],
        "tournament-bracket": [("firewall", "single_elimination", 8, 2), ("firewall", "single_elimination", 4, 1)],
        "tournament-tables": [("magic-duel", "single_elimination", 8, 2)],
    }[kind]
    out = []
    for game, fmt, n, rounds in cases:
        found = picture_model(view_of(game, fmt, n, rounds, names=EIGHT * (n // 8 + 1)))
        assert found is not None and found[0] == kind, (game, fmt, found and found[0])
        out.append(DRAWERS[kind](found[1]))
    return out


KINDS: dict[str, Callable[[], list[Image.Image]]] = {
    "wc-situation": wc_situation,
    "wc-set": lambda: wc_grids()["wc-set"],
    "wc-deck": lambda: wc_grids()["wc-deck"],
    "wc-order": lambda: wc_grids()["wc-order"],
    "wc-duels": wc_duels,
    "firewall-bridge": firewall,
    "md-hand": md_hand,
    "md-trick": md_trick,
    "arena-board": arena,
    "howto": howto,
    "rating-chart": rating_chart,
    "tournament-standings": lambda: tournament("tournament-standings"),
    "tournament-bracket": lambda: tournament("tournament-bracket"),
    "tournament-tables": lambda: tournament("tournament-tables"),
}


def render(kind: str) -> tuple[list[Image.Image], list[TextRecord]]:
    with recording() as texts:
        images = KINDS[kind]()
    return images, texts


def problems(texts: list[TextRecord]) -> list[str]:
    out = []
    for t in texts:
        if t.size < legible(t.width):
            out.append(f"{t.text!r}: {t.size} px on a {t.width} px picture (needs {legible(t.width)})")
        if t.contrast < MIN_CONTRAST:
            out.append(f"{t.text!r}: contrast {t.contrast:.2f} ({t.fill} on {t.background})")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_text_is_big_enough_and_contrasted(kind: str) -> None:
    images, texts = render(kind)
    assert images and texts
    assert {t.width for t in texts} <= {img.width for img in images}
    found = problems(texts)
    assert not found, f"{kind}: {len(found)} illegible texts:\n" + "\n".join(sorted(set(found))[:40])


def test_every_picture_kind_is_checked() -> None:
    """The kinds the cogs make (their cache kinds and the tournament's drawers) are all in KINDS."""
    made: set[str] = set()
    for path in COGS.rglob("*.py"):
        source = path.read_text()
        made |= set(re.findall(r"PICTURES\.file\(\s*\"([a-z0-9-]+)\"", source))
        made |= set(re.findall(r"_grid_file\(\s*\"([a-z0-9-]+)\"", source))
        made |= set(re.findall(r"DRAWERS\[\"([a-z0-9-]+)\"\]\s*=", source))
    assert "arena-board" in made and "tournament-standings" in made
    assert made == set(KINDS), (made - set(KINDS), set(KINDS) - made)


def test_only_the_helper_draws_text() -> None:
    """No picture calls ``ImageDraw.text`` itself: every text goes through ``pictures.text``."""
    for path in COGS.rglob("*.py"):
        if path.name == "pictures.py" and path.parent.name == "games":
            continue
        source = path.read_text()
        assert not re.search(r"\b(draw|d|self\.draw|self)\.text\(", source), path
        assert "ImageFont.truetype" not in source and "load_default" not in source, path


def test_the_recorder_measures_size_and_contrast() -> None:
    from cogs.games.pictures import canvas, text

    img, draw = canvas(360, 100)
    draw.rectangle([0, 50, 360, 100], fill=(255, 255, 255))
    with recording() as texts:
        text(draw, (10, 10), "dim", 9, (90, 90, 90))
        text(draw, (10, 60), "ink", 12, (0, 0, 0))
    text(draw, (10, 30), "not recorded", 12)
    dim, ink = texts
    assert dim.background == (30, 31, 34) and ink.background == (255, 255, 255)
    assert dim.size < legible(360) <= ink.size and legible(360) == 11
    assert round(contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0 and ink.contrast > 20
    assert problems(texts) == [
        "'dim': 9 px on a 360 px picture (needs 11)",
        f"'dim': contrast {dim.contrast:.2f} ((90, 90, 90) on (30, 31, 34))",
    ]
    assert MIN_TEXT_RATIO == 0.028


# ------------------------------------------------------------------------------ reuse


def _files() -> list[Callable[[], object]]:
    from cogs.charts import Panel, rating_chart_file
    from cogs.games.arena.art import board_file
    from cogs.games.firewall.art import bridge_file
    from cogs.games.magic_duel.art import TrickRow, hand_file, trick_file
    from cogs.games.wizards_cup.art import deck_file, order_file, set_file, situation_file
    from cogs.help import howto_file
    from rules import Match
    from rules.wizards_cup import load_card_set

    ids = load_card_set().ids
    fw, names = firewall_views()[1]
    ar = Match.new("arena", seed=4, seats=SHORT)
    wc = Match.new("wizards-cup", seed=1, seats=SHORT)
    panel = Panel("Firewall", (1200, 1180, 1230, 999), ("loss", "win", "loss"))
    return [
        lambda: situation_file(wc.state.view(None), SHORT),
        lambda: set_file(ids[0], ids[1:18]),
        lambda: deck_file(ids[:6]),
        lambda: order_file(ids[:6], [1, 2], 5),
        lambda: bridge_file(fw, names, None),
        lambda: hand_file(["AS", "10H"]),
        lambda: trick_file("Trick 1 · hand 1", [TrickRow(0, "ann", ("AS",), 1)], filename=None),  # type: ignore[arg-type]
        lambda: board_file(ar.state.view(None), SHORT, (), None),
        lambda: howto_file("arena"),
        lambda: rating_chart_file([panel], None),  # type: ignore[arg-type]
    ]


@pytest.mark.slow
def test_the_same_state_gives_the_same_file_name_and_bytes() -> None:
    """Drawn twice (the cache emptied between), a picture has the same bytes and, content-named,
    the same name: a message edit keeps the attachment instead of uploading it again."""
    from cogs.games.pictures import CONTENT_NAMED, PICTURES

    for make in _files():
        PICTURES._items.clear()
        first = make()
        PICTURES._items.clear()
        again = make()
        a, b = first.fp.read(), again.fp.read()  # type: ignore[attr-defined]
        assert a == b and first.filename == again.filename  # type: ignore[attr-defined]
        assert CONTENT_NAMED.fullmatch(first.filename) or first.filename.startswith("howto-"), first.filename  # type: ignore[attr-defined]
        assert Image.open(io.BytesIO(a)).format == "PNG"


# ------------------------------------------------------------------------------ /howto


def test_each_games_howto_picture_is_its_own() -> None:
    """No shared placeholder panels: every game's picture and every panel's drawing differ."""
    from cogs.help import howto_image, howtos

    HOWTOS = howtos()

    pictures = {slug: howto_image(slug).tobytes() for slug in HOWTOS}
    assert len(set(pictures.values())) == len(HOWTOS)
    icons = [step.icon for howto in HOWTOS.values() for step in howto.steps]
    assert len(set(icons)) == len(icons)


def test_the_arena_panel_shows_the_minions_of_the_options(monkeypatch) -> None:
    import cogs.help as help_cog
    from rules.arena.data import load_data

    with recording() as texts:
        help_cog.howto_image("arena")
    minions = load_data().max_minions
    assert any(f"A Wizard and {minions} Minions each" in t.text for t in texts), [t.text for t in texts]
    monkeypatch.setattr("cogs.howto_art.arena_numbers", lambda: (1, 8))
    with recording() as texts:
        help_cog.howto_image("arena")
    shown = " ".join(t.text for t in texts)
    assert "A Wizard and 1 Minion each" in shown and "8 by 8" in shown
    inputs = [s.caption for s in help_cog.howtos()["arena"].steps]
    assert "{minions}" in inputs[0]  # the number is filled in when drawn, not written in the summary
