"""/help and /howto through discord.py's real objects and the fake transport (every request body
validated against Discord's schema): /help lists every command the bot registers, grouped, and how
a match works; /howto shows one game's rules on one screen with a picture (drawn once, its captions
inside their boxes) and the game's full rulings page: attached when no DOCS_BASE_URL is set, linked
under it when it is; bad game names get a short clear error; and the first-match tips."""

from __future__ import annotations

import sys
from pathlib import Path

import discord
import pytest
from PIL import Image, ImageDraw

import cogs.help
from cogs.games import get_ui, ui_slugs
from cogs.games.base import embed_size
from cogs.games.pictures import PICTURES, font
from cogs.help import (
    CAPTION_SIZE,
    HEIGHT,
    caption_boxes,
    first_match_tip,
    howto_image,
    wrap,
)
from rules.registry import get_game
from tests.discord_flows import setup_players

ROOT = Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
GAMES = ["wizards-cup", "firewall", "magic-duel", "arena"]
#: each game's first-match tip and /howto entry, as its UI gives them
FIRST_MATCH_TIPS = {slug: get_ui(slug).first_match_tip for slug in GAMES}
HOWTOS = {slug: get_ui(slug).howto for slug in GAMES}


def synced_commands(h) -> dict[str, dict]:
    """Every slash command the bot synced, by name (the last sync wins)."""
    out: dict[str, dict] = {}
    for request in h.requests_for("PUT"):
        if isinstance(request.json, list):
            out.update({c["name"]: c for c in request.json})
    return out


async def test_help_lists_every_command_grouped_and_how_a_match_works(make, tmp_path):
    h, bot, db = await make(tmp_path / "h.sqlite3")
    guild, ch, ann, _ = setup_players(h)
    commands = synced_commands(h)
    assert {"help", "howto", "challenge", "leaderboard", "profile", "settings"} <= set(commands)

    r = await h.slash(ann, ch, "help", {})
    assert r.ephemeral and len(r.embeds) == 1
    embed = r.embed
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    listed = "\n".join(v for k, v in fields.items() if k != "How a match works")
    for name, command in commands.items():  # every command, with its one line
        assert f"`/{name}` — {command['description']}" in listed, name
    assert listed.count("`/") == len(commands)  # each once
    assert "`/challenge`" in fields["🎲 Play"] and "`/howto`" in fields["📖 Learn"]
    assert "`/profile`" in fields["🏆 Results"] and "`/settings`" in fields["⚙️ Server admins"]
    how = fields["How a match works"]
    for word in ("Challenge", "Accept", "Thread", "DM", "Submit privately", "Deadlines", "reminder", "forfeits"):
        assert word in how, word
    for _, name in [(s, get_game(s).name) for s in GAMES]:
        assert name in embed["description"]
    assert embed_size(discord.Embed.from_dict(embed)) <= 6000
    assert not h.violations and h.messages_in(ch) == []  # nothing posted in the channel


@pytest.mark.parametrize("slug", GAMES)
async def test_howto_shows_one_screen_with_a_picture_and_the_rulings_page_attached(make, tmp_path, monkeypatch, slug):
    monkeypatch.delenv("DOCS_BASE_URL", raising=False)  # no address where the project is browsed
    h, bot, db = await make(tmp_path / "h.sqlite3")
    assert bot.settings.docs_base_url is None
    guild, ch, ann, bob = setup_players(h)
    name = str(get_game(slug).name)
    r = await h.slash(ann, ch, "howto", {"game": slug})
    assert r.ephemeral and len(r.embeds) == 1
    embed = r.embed
    assert embed["title"] == f"How to play {name}"
    assert "url" not in embed  # no made-up address
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["💡 Know this"] == FIRST_MATCH_TIPS[slug]
    assert {"A turn", "The end"} <= set(fields)
    assert fields["More"].startswith(f"Every rule and ruling: attached, `{slug}-rulings.md`")
    assert "](" not in fields["More"] and "http" not in fields["More"]
    png, rulings = r.message.files
    assert png.filename == f"howto-{slug}.png" and png.data.startswith(PNG)
    assert embed["image"]["url"] == f"attachment://howto-{slug}.png"
    # the attachment is the game's full rulings page, byte for byte
    assert rulings.filename == f"{slug}-rulings.md"
    assert rulings.data == (ROOT / "docs" / "rulings" / f"{slug}.md").read_bytes()
    assert rulings.data.startswith(b"# ") and len(rulings.data) > 1000
    assert embed_size(discord.Embed.from_dict(embed)) <= 6000

    # by its display name too, and the picture is drawn once (cached by what it shows)
    hits = PICTURES.hits
    again = await h.slash(bob, ch, "howto", {"game": name.upper()})
    assert again.embed["title"] == embed["title"] and again.message.files[0].data == png.data
    assert [f.filename for f in again.message.files] == [png.filename, rulings.filename]
    assert again.message.files[1].data == rulings.data  # a fresh attachment from the cached page
    assert PICTURES.hits == hits + 1
    assert not h.violations and h.messages_in(ch) == []


async def test_howto_links_the_rulings_page_under_the_docs_base_url(make, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCS_BASE_URL", " https://example.org/wizard-referee/blob/main/ ")
    h, bot, db = await make(tmp_path / "h.sqlite3")
    assert bot.settings.docs_base_url == "https://example.org/wizard-referee/blob/main/"
    guild, ch, ann, _ = setup_players(h)
    for slug in GAMES:
        r = await h.slash(ann, ch, "howto", {"game": slug})
        url = f"https://example.org/wizard-referee/blob/main/docs/rulings/{slug}.md"
        assert r.ephemeral and r.embed["url"] == url
        more = {f["name"]: f["value"] for f in r.embed["fields"]}["More"]
        assert more.startswith(f"Every rule and ruling: [docs/rulings/{slug}.md]({url}) · ")
        assert "attached" not in more
        (png,) = r.message.files  # the picture only: no rulings attachment
        assert png.filename == f"howto-{slug}.png"
        assert (ROOT / "docs" / "rulings" / f"{slug}.md").is_file()  # the link points at a real page
    assert not h.violations


async def test_howto_without_the_docs_folder_says_where_the_page_is(make, tmp_path, monkeypatch):
    """An installed copy without docs/: no attachment, no crash, the page's place in the source."""
    monkeypatch.delenv("DOCS_BASE_URL", raising=False)
    h, bot, db = await make(tmp_path / "h.sqlite3")
    loaded = sys.modules[type(bot.get_cog("Help")).__module__]  # the extension as the bot loaded it
    monkeypatch.setattr(loaded, "RULINGS_DIR", tmp_path / "no-docs" / "rulings")
    guild, ch, ann, _ = setup_players(h)
    r = await h.slash(ann, ch, "howto", {"game": "Firewall"})
    assert r.ephemeral and r.embed["title"] == "How to play Firewall" and "url" not in r.embed
    more = {f["name"]: f["value"] for f in r.embed["fields"]}["More"]
    assert more.startswith("Every rule and ruling: see docs/rulings/firewall.md in the bot's source · ")
    assert [f.filename for f in r.message.files] == ["howto-firewall.png"]
    assert not h.violations


async def test_howto_autocompletes_the_games_and_refuses_unknown_ones_briefly(make, tmp_path):
    h, bot, db = await make(tmp_path / "h.sqlite3")
    guild, ch, ann, _ = setup_players(h)
    ac = await h.autocomplete(ann, ch, "howto", "game", "")
    assert sorted(c["value"] for c in ac.choices) == sorted(GAMES)
    ac = await h.autocomplete(ann, ch, "howto", "game", "DUEL")
    assert [c["value"] for c in ac.choices] == ["magic-duel"]
    ac = await h.autocomplete(ann, ch, "howto", "game", "x" * 4000)
    assert ac.choices == []

    for typed in ("x" * 4000, "🧙‍♂️" * 1500, "chess\n" * 600, "@everyone " * 300):
        r = await h.slash(ann, ch, "howto", {"game": typed})
        assert r.ephemeral and r.embeds == [] and r.message.files == []
        assert r.content.startswith("⚠️ There is no game called") and len(r.content) < 250, r.content
        assert "Wizards Cup, Firewall" in r.content or "Firewall" in r.content
    assert not h.violations


def test_rulings_url_joins_the_base_and_the_page():
    for base in ("https://example.org/wiki", "https://example.org/wiki/"):
        assert cogs.help.rulings_url("arena", base) == "https://example.org/wiki/docs/rulings/arena.md"


# -- the pictures --------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", GAMES)
def test_howto_picture_captions_fit_their_boxes(slug):
    image = howto_image(slug)
    assert image.size[1] == HEIGHT
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    steps = HOWTOS[slug].steps
    assert 3 <= len(steps) <= 5
    for step, (left, top, right, bottom) in zip(steps, caption_boxes(len(steps)), strict=True):
        lines = wrap(draw, step.caption, right - left - 12, CAPTION_SIZE)
        assert " ".join(lines) == step.caption  # nothing clipped
        assert all(draw.textlength(line, font=font(CAPTION_SIZE)) <= right - left - 12 for line in lines)
        assert top + len(lines) * (CAPTION_SIZE + 5) <= bottom, (slug, step.caption)


def test_wrap_clips_a_word_too_long_for_the_box():
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    lines = wrap(draw, "a " + "W" * 80 + " b", 100, CAPTION_SIZE)
    assert lines[0] == "a" and lines[1].endswith("…") and lines[2] == "b"
    assert draw.textlength(lines[1], font=font(CAPTION_SIZE)) <= 100


# -- first-match tips ----------------------------------------------------------------------------


def test_every_game_has_a_one_line_first_match_tip():
    assert set(ui_slugs()) == set(GAMES)
    for slug in GAMES:
        tip = first_match_tip(slug)
        assert tip is not None and "\n" not in tip and len(tip) <= 200, tip
        assert tip.startswith(f"💡 First {get_game(slug).name} match? ") and tip.endswith(FIRST_MATCH_TIPS[slug])
    assert first_match_tip("toy-guess") is None and first_match_tip("x" * 4000) is None


def test_the_tips_say_what_the_rules_say():
    # Firewall: "both pay their bets"; mana resets to 50 each round (rulings, /rules)
    assert "Both bets are paid" in FIRST_MATCH_TIPS["firewall"] and "50" in FIRST_MATCH_TIPS["firewall"]
    # Arena: "starting next to an enemy costs 2 damage"; a Wizard at 0 Health is knocked out
    assert "2 damage" in FIRST_MATCH_TIPS["arena"] and "Knock out the enemy Wizard" in FIRST_MATCH_TIPS["arena"]
    # Wizards Cup: 5 of the 6 are ordered, the 6th is the Waiting card; then the duels play out
    assert "Waiting card" in FIRST_MATCH_TIPS["wizards-cup"] and "order of 5" in FIRST_MATCH_TIPS["wizards-cup"]
    assert "most tricks" in FIRST_MATCH_TIPS["magic-duel"]


# -- the first-match tip ---------------------------------------------------------------------------


@pytest.mark.slow
async def test_a_players_first_match_of_a_game_opens_with_its_tip(make, tmp_path) -> None:
    """The opening board greets newcomers to the game with the one thing they must know; players
    who already played it are not told again."""
    h, bot, _db = await make(tmp_path / "tips.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")
    tip = first_match_tip("firewall")
    assert tip and FIRST_MATCH_TIPS["firewall"] in tip

    async def start(host, guest) -> str:
        r = await h.slash(host, ch, "challenge", {"opponent": guest, "game": "firewall"})
        await h.click(guest, r.message, label="Accept")
        await h.settle()
        (record,) = await bot.service.live_matches_for(host.id, include_pending=False)
        greeting = next(m for m in h.messages_in(h.threads(ch)[-1]) if "begins" in m.text()).text()  # the card
        await bot.service.forfeit(record.id, guest.id)  # (the board then turns into a link to the result)
        await h.settle()
        return greeting

    first = await start(ann, bob)
    assert f"{ann.mention}, {bob.mention}: {tip}" in first
    second = await start(bob, cy)  # bob has played Firewall: only cy is new to it
    assert f"\n{cy.mention}: {tip}" in second and bob.mention + ":" not in second.split("\n", 1)[1]
    third = await start(cy, ann)
    assert tip not in third
    assert h.violations == []


def test_howto_wizards_cup_names_the_tokens_as_the_game_does():
    # ux-review-2: /howto said "2 Cup Tokens" where the board and the end card say "Victory tokens"
    h = HOWTOS["wizards-cup"]
    text = " ".join([h.goal, h.turn, h.end, *(s.caption for s in h.steps)])
    assert "Cup Token" not in text and "2 Victory tokens" in text
