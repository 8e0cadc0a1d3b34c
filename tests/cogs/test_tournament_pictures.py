"""The tournament pictures (cogs/tournament_pictures.py): standings of 64 players with a long
name in glyphs the font lacks, the single-elimination bracket (byes, winners, third place), the
Magic Duel table knock-out, image sizes within bounds, and the cache that draws a picture once
per content."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.tournaments.service import TournamentView
from cogs.tournament_pictures import (
    MAX_ROWS,
    TOURNAMENT_PICTURES,
    fit,
    left_out_note,
    picture_file,
    picture_model,
    plain,
    standings_image,
)
from tests.cogs.tournament_views import view_of

WILD = "𝕯𝖗𝖆𝖐𝖔 🐉 ʕ•ᴥ•ʔ" + "ꙮ" * 100


def png(view: TournamentView) -> Image.Image:
    found = picture_model(view)
    assert found is not None
    file = picture_file(*found)
    data = file.fp.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert file.filename is not None and file.filename.startswith(found[0] + "-")
    return Image.open(io.BytesIO(data))


def test_standings_of_64_players_with_wild_names_fit_an_embed() -> None:
    names = [WILD] + [f"wizard {i}" for i in range(1, 64)]
    view = view_of("firewall", "swiss", 64, 3, names=names)
    kind, model = picture_model(view) or ("", {})
    assert kind == "tournament-standings"
    assert len(model["rows"]) == 64 and model["total"] == 64
    assert any(row[1].startswith("𝕯𝖗𝖆𝖐𝖔 🐉") for row in model["rows"])  # drawn as text, not dropped
    img = png(view)
    assert 600 <= img.width <= 1600 and 300 <= img.height <= 1200  # two blocks of 32 rows: still wide
    # fewer players: one block, smaller
    small = png(view_of("firewall", "swiss", 8, 2))
    assert small.width < img.width and small.height < img.height and small.height <= 400


def test_more_rows_than_a_picture_holds_are_left_out_and_counted() -> None:
    view = view_of("wizards-cup", "swiss", 80, 1)
    _, model = picture_model(view) or ("", {})
    assert len(model["rows"]) == MAX_ROWS and model["total"] == 80
    img = standings_image(model)
    assert img.height <= 1200


def test_standings_picture_waits_for_the_first_round_and_shows_dropped_players() -> None:
    view = view_of("firewall", "swiss", 6, 0)
    view.tournament.next_round()
    assert picture_model(view) is None  # round 1 being played: nothing to draw yet
    view = view_of("firewall", "swiss", 6, 1)
    view.tournament.drop(101)
    _, model = picture_model(view) or ("", {})
    assert [row[7] for row in model["rows"] if row[1] == "wizard 1"] == [True]


def test_names_are_one_clipped_line() -> None:
    assert plain("a\nb\u202e\u200dc\x00  d") == "a bc d"
    assert len(plain("x" * 500)) == 64
    assert plain("\n\t") == "?"
    from PIL import ImageDraw

    from cogs.games.pictures import font

    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    clipped = fit(draw, WILD, 120, font(15))
    assert clipped.endswith("…") and draw.textlength(clipped, font=font(15)) <= 120


def test_bracket_shows_rounds_byes_winners_and_third_place() -> None:
    view = view_of("firewall", "single_elimination", 6, 2, third=True)
    kind, model = picture_model(view) or ("", {})
    assert kind == "tournament-bracket"
    assert [r["name"] for r in model["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    quarter = model["rounds"][0]["matches"]
    assert sum(m["bye"] for m in quarter) == 2 and all(m["won"] is not None for m in quarter)
    assert all(m["sides"][0][0] in (1, 2) for m in quarter if m["bye"])  # the byes go to the top seeds
    assert model["third"] is not None and model["champion"] is None
    img = png(view)
    assert img.width <= 1400 and img.height <= 800
    # a 64-player bracket still fits (tall, but bounded)
    big = png(view_of("firewall", "single_elimination", 64, 1))
    assert big.height <= 2200 and big.width <= 2000


def test_table_knockout_shows_who_went_through_and_the_champion() -> None:
    view = view_of("magic-duel", "single_elimination", 14, 5)
    kind, model = picture_model(view) or ("", {})
    assert kind == "tournament-tables"
    first = model["rounds"][0]["tables"]
    assert len(first) == 4 and all(t["done"] for t in first)
    for table in first:  # the top half of each table (rounded down) goes through
        assert sum(seat[3] for seat in table["seats"]) == len(table["seats"]) // 2
    assert model["rounds"][-1]["tables"][0]["name"] == "Final table"
    assert model["champion"] is not None
    img = png(view)
    assert img.width <= 1200 and img.height <= 1000


def test_the_same_picture_is_drawn_once() -> None:
    view = view_of("firewall", "swiss", 10, 2)
    found = picture_model(view)
    assert found is not None
    before = TOURNAMENT_PICTURES.misses
    first = picture_file(*found)
    again = picture_file(*picture_model(view_of("firewall", "swiss", 10, 2)) or found)
    assert TOURNAMENT_PICTURES.misses == before + 1  # same content: drawn once
    assert first.filename == again.filename
    other = picture_file(*(picture_model(view_of("firewall", "swiss", 10, 3)) or found))
    assert other.filename != first.filename


def test_standings_picture_shares_places_tied_on_everything_and_names_the_tiebreaks_plainly() -> None:
    """After round 1 of 4 players, the two winners (and the two losers) are equal on every
    tie-break: they share a place, so nobody gets a medal; the columns say what they count."""
    view = view_of("wizards-cup", "swiss", 4, 1)
    _, model = picture_model(view) or ("", {})
    assert [row[0] for row in model["rows"]] == ["=1", "=1", "=3", "=3"]
    assert model["shared"] and model["heads"] == ["Opp.", "Duels", "Opp. duels"]  # Wizards Cup's own score
    _, firewall = picture_model(view_of("firewall", "swiss", 4, 1)) or ("", {})
    assert firewall["heads"] == ["Opp.", "Won", "Opp. won"]  # a match is one game
    img = standings_image(model)
    medal = (240, 190, 50)  # the gold medal's colour: not drawn for a shared first place
    assert medal not in {img.getpixel((x, y)) for x in range(img.width) for y in range(img.height)}
    decided = view_of("wizards-cup", "swiss", 8, 3)
    _, model = picture_model(decided) or ("", {})
    assert model["rows"][0][0] == "1"  # a place of one's own after three rounds
    img = standings_image(model)
    assert medal in {img.getpixel((x, y)) for x in range(img.width) for y in range(img.height)}


def test_the_left_out_rounds_note_says_round_or_rounds_never_round_s():
    assert left_out_note(1) == "the first round is in the text"
    assert left_out_note(3) == "the first 3 rounds are in the text"
    assert "(s)" not in left_out_note(2)


@pytest.mark.slow
def test_no_player_facing_text_says_s_in_brackets():
    """Plurals go through rules.text.plural: no "(s)" left in a string of cogs, bot or rules."""
    import ast
    import pathlib

    found = []
    for package in ("cogs", "bot", "rules"):
        for path in pathlib.Path(package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and node.body
                and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docstrings
                    and "(s)" in node.value
                ):
                    found.append(f"{path}:{node.lineno}")
    assert found == []
