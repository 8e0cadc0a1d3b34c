"""/help and /howto: what the bot does, and each game's rules on one screen, with a picture.

- ``/help`` lists every slash command the bot has (read from its command tree, so a new command
  appears by itself), grouped, one line each, and how a match works: challenge, thread, private
  moves, deadlines, the end.
- ``/howto game`` shows one embed: the game's goal, a turn, the end, the one thing a newcomer must
  know (:data:`FIRST_MATCH_TIPS`), an illustrated summary drawn with Pillow (one picture per game,
  cached, drawn off the event loop) and the full rulings page ``docs/rulings/<game>.md``: a link
  to ``<DOCS_BASE_URL>/docs/rulings/<game>.md`` when the bot's ``docs_base_url`` setting is set,
  else the page itself attached as ``<game>-rulings.md`` (read from the project folder,
  :data:`RULINGS_DIR`, once; an installed copy without the docs says where the page is instead).
- :func:`first_match_tip` gives the one-line tip the match start sends to a player's first match
  of a game (who is new: :meth:`bot.stats.StatsService.newcomers`).

Both replies are ephemeral and have no components (so no custom_id grammar). What a player typed
is echoed clipped (:data:`ECHO_CHARS`).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

from rules.errors import RulesError
from rules.registry import game_slugs, get_game
from rules.text import plural

from .games.base import clip
from .games.pictures import PICTURES, SEAT_COLOURS, font, seat_ink, star, text_with

if TYPE_CHECKING:
    from bot.client import RefereeBot

RULINGS_DIR = Path(__file__).resolve().parents[1] / "docs" / "rulings"
"""The project's rulings pages, ``<slug>.md`` each: attached to /howto when no ``docs_base_url``
is set."""
ECHO_CHARS = 40

FIRST_MATCH_TIPS: dict[str, str] = {
    "wizards-cup": (
        "Once both teams are set you only watch: choose your 6 Wizards and the order of 5 with care; "
        "the 6th waits face down as your Waiting card."
    ),
    "firewall": (
        "Both bets are paid whoever wins the turn, and mana only comes back (50) at the next round: "
        "do not spend it all at once."
    ),
    "magic-duel": (
        "Cast one combination per trick (1, 2, 3 or 4 cards of one value); the most tricks scores, "
        "so keep strong combinations for tricks you can win."
    ),
    "arena": (
        "Knock out the enemy Wizard to win, and mind that a model starting its move next to an enemy "
        "takes 2 damage when it moves."
    ),
}
"""The one thing a player must know in their first match of each game (one line)."""


def first_match_tip(game: str) -> str | None:
    """The tip for a player's first match of ``game`` (a slug), or None for a game without one."""
    tip = FIRST_MATCH_TIPS.get(game)
    return None if tip is None else f"💡 First {game_title(game)} match? {tip}"


class HelpError(ValueError):
    """A request /howto refuses; the message is meant for the player."""


# ------------------------------------------------------------------------------ the summaries


@dataclass(frozen=True)
class Step:
    """One panel of a game's picture: an icon and a short caption."""

    icon: str  # a key of ICONS
    caption: str


@dataclass(frozen=True)
class HowTo:
    goal: str
    turn: str
    end: str
    steps: tuple[Step, ...]


HOWTOS: dict[str, HowTo] = {
    "wizards-cup": HowTo(
        goal="Build a team of 6 Wizards from your 18 cards and win 2 rounds (2 Victory tokens).",
        turn=(
            "Secretly order 5 of your 6 Wizards; the 6th is your face-down **Waiting card**. Then the "
            "first Wizards duel: **A.** Magic powers (Immediate, Permanent, Dormant), **B.** Element "
            "(Fire < Water < Nature < Fire; Shadow < Light; Light loses to Water, Fire and Nature; Void "
            "has no weakness), **C.** Value (equal: both lose). The loser goes to its discard pile, the "
            "winner stays and meets the next Wizard."
        ),
        end=(
            "A player who cannot send a new Wizard loses the round. Between rounds each player may swap "
            "one Deck card for one of their 12 others. Both reach 2 tokens at once: the lower Deck total wins."
        ),
        steps=(
            Step("wc-cards", "A Deck of 6: 1 drawn, 5 chosen of 18"),
            Step("wc-order", "Order 5; the 6th waits face down"),
            Step("wc-duel", "Duel: power, then Element, then Value"),
            Step("wc-cup", "2 Victory tokens win the Cup"),
        ),
    ),
    "firewall": HowTo(
        goal="Push the Fire Wall onto your rival: a wizard left standing on lava falls and loses.",
        turn=(
            "Both wizards secretly bet mana (1 to what they have) and lay spells face down. Reveal: the "
            "higher attack (bet + spells) pushes the wall one flagstone toward the other wizard, and "
            "**both** pay their bets. Identical spells cancel; the False Card bluffs."
        ),
        end=(
            "A round ends when the wall reaches a wizard, End of Round is cast or mana runs out; the "
            "wizards step back and the bridge loses a flagstone at each end. Mana resets to 50 each round."
        ),
        steps=(
            Step("fw-bridge", "19 flagstones, the Fire Wall in the middle"),
            Step("fw-bet", "Bet mana and lay spells in secret"),
            Step("fw-push", "Higher attack pushes the wall"),
            Step("fw-lava", "A wizard on lava falls and loses"),
        ),
    ),
    "magic-duel": HowTo(
        goal="Win tricks with spells made of playing cards; the first to the target score (default 3) wins.",
        turn=(
            "Each trick every wizard casts one combination: ✨ Cantrip (1 card), ⚡ Codu (2 of a value), "
            "🔥 Thrack (3), 💥 Raquav (4), 🛡️ Badef (a Joker), 🌟 Jokulme (both Jokers). The strongest "
            "combination wins the trick (same kind: higher value; an Ace beats a King). Then everyone "
            "refills to 7, from the Deck of Advantage or the Deck of Risk."
        ),
        end=(
            "Drawing the Cursed Spell closes the decks: one last trick, then the hand is scored: most "
            "tricks = 1 point, +1 per wizard with no trick."
        ),
        steps=(
            Step("md-hand", "Hold 7 cards"),
            Step("md-combos", "Cast one combination a trick"),
            Step("md-trick", "The strongest spell wins the trick"),
            Step("md-score", "Most tricks scores; first to 3 wins"),
        ),
    ),
    "arena": HowTo(
        goal="Knock out the enemy Wizard (0 Health) with your Wizard, Minions, spells and the crowd.",
        turn=(
            "**Start:** spend Crowd Favour on the crowd table. **Spells:** roll 2 dice and pick one "
            "spell (or the Arcane Rocket). **Actions:** each model may Move (starting next to an enemy "
            "costs 2 damage) and take 1 Action. Against an enemy: D6 + Skill against D6 + Defence; a "
            "tie explodes (reflected, or double damage)."
        ),
        end="A Wizard at 0 Health is knocked out and the game ends. A Minion at 0 is removed (+1 Crowd Favour).",
        steps=(
            Step("arena-board", "A Wizard and {minions} each, on a {grid} by {grid} board"),
            Step("arena-dice", "Roll 2 dice, pick a spell"),
            Step("arena-attack", "D6 + Skill against D6 + Defence"),
            Step("arena-ko", "Knock out the enemy Wizard"),
        ),
    ),
}


def game_title(slug: str) -> str:
    try:
        return str(get_game(slug).name)
    except RulesError:
        return slug


def howto_games() -> list[tuple[str, str]]:
    """(slug, name) of every registered game that has a summary."""
    return [(slug, game_title(slug)) for slug in game_slugs() if slug in HOWTOS]


def resolve_howto(value: str) -> str:
    """The slug of a game with a summary, given by slug or name."""
    wanted = value.strip().lower()
    games = howto_games()
    for slug, name in games:
        if wanted in (slug, name.lower()):
            return slug
    names = ", ".join(name for _, name in games)
    raise HelpError(f"There is no game called {clip(value.strip(), ECHO_CHARS)!r}. /howto knows: {names}.")


def rulings_url(game: str, base: str) -> str:
    """The game's rulings page under ``base``, where the project's files are browsed."""
    return f"{base.rstrip('/')}/docs/rulings/{game}.md"


def rulings_filename(game: str) -> str:
    return f"{game}-rulings.md"


@lru_cache(maxsize=16)
def _read_once(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:  # an installed copy without the docs folder
        return None


def rulings_bytes(game: str) -> bytes | None:
    """The game's rulings page ``docs/rulings/<game>.md`` as stored in the project folder (read once),
    or None when it is not there."""
    return _read_once(RULINGS_DIR / f"{game}.md")


def seats_text(slug: str) -> str:
    g = get_game(slug)
    low, high = int(g.min_seats), int(g.max_seats)
    return f"{low} players" if low == high else f"{low} to {high} players"


# ------------------------------------------------------------------------------ the picture
# Two by two panels, each drawn with the game's real pieces (Wizards Cup's cards, Firewall's
# bridge and mana, Magic Duel's playing cards, Arena's board with its Wizards and Minions) and its
# real numbers. 530 px wide: the smallest text (15 px) is 2.8% of the width, legible on a phone.

WIDTH = 530
HEADER = 50
PANEL_PAD = 12
PANEL_W = (WIDTH - 3 * PANEL_PAD) // 2
PANEL_H = 232
ART_H = 150  # the picture part of a panel; the caption below it
HEIGHT = HEADER + 2 * (PANEL_H + PANEL_PAD) + 2
CAPTION_SIZE = 16
SMALL = 15  # legible(WIDTH)
INK = (235, 235, 235)
MUTED = (170, 170, 170)
PANEL = (40, 42, 46)
FIRE, LAVA, STONE, GOLD = (226, 88, 34), (190, 50, 30), (176, 164, 146), (240, 196, 64)
BLUE, ORANGE = SEAT_COLOURS[0], SEAT_COLOURS[1]
Box = tuple[float, float, float, float]  # left, top, right, bottom


def arena_numbers() -> tuple[int, int]:
    """(Minions per side, the board's side) of an Arena match with the default options."""
    from rules.arena import ArenaOptions
    from rules.arena.data import load_data

    return int(load_data().max_minions), int(ArenaOptions().grid_size)


def caption(slug: str, step: Step) -> str:
    """A step's caption with the game's real numbers filled in."""
    if slug == "arena":
        minions, grid = arena_numbers()
        return step.caption.format(minions=plural(minions, "Minion"), grid=grid)
    return step.caption


def _centre(b: Box) -> tuple[float, float]:
    return (b[0] + b[2]) / 2, (b[1] + b[3]) / 2


def _wc_cards(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """Two real Wizard cards: the random one (framed in gold) and one chosen."""
    from .games.wizards_cup.draw import GOLD as WC_GOLD
    from .games.wizards_cup.draw import Painter, card

    p = Painter(image)
    cx, cy = _centre(b)
    card(p, (cx - 96, cy - 64, cx - 6, cy + 50), "jester", frame=WC_GOLD)
    card(p, (cx + 12, cy - 64, cx + 102, cy + 50), "matron")
    text_with(d, (cx - 51, cy + 64), "drawn", fill=WC_GOLD, font=font(SMALL), anchor="mm")
    text_with(d, (cx + 57, cy + 64), "chosen", fill=MUTED, font=font(SMALL), anchor="mm")


def _wc_order(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The five places of the playing order and the Waiting card face down."""
    cx, cy = _centre(b)
    w, gap = 38, 6
    x0 = cx - (5 * w + 4 * gap) / 2
    for i, label in enumerate(("1st", "2nd", "3rd", "4th", "5th")):
        x = x0 + i * (w + gap)
        d.rounded_rectangle([x, cy - 62, x + w, cy - 8], radius=6, fill=(52, 54, 62), outline=MUTED, width=2)
        text_with(d, (x + w / 2, cy - 35), label, fill=INK, font=font(SMALL), anchor="mm")
    d.rounded_rectangle([cx - 26, cy + 2, cx + 26, cy + 58], radius=6, fill=(72, 52, 140), outline=GOLD, width=2)
    text_with(d, (cx, cy + 30), "?", fill=INK, font=font(24), anchor="mm")
    text_with(d, (cx + 34, cy + 30), "Waiting", fill=GOLD, font=font(SMALL), anchor="lm")


def _wc_duel(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """A real duel: Water beats Fire (the Element decides), the winner framed in gold."""
    from .games.wizards_cup.draw import GOLD as WC_GOLD
    from .games.wizards_cup.draw import LOSER, Painter, card

    p = Painter(image)
    cx, cy = _centre(b)
    card(p, (cx - 106, cy - 62, cx - 14, cy + 48), "fire-wizard", frame=LOSER)
    card(p, (cx + 12, cy - 62, cx + 112, cy + 48), "water-wizard", frame=WC_GOLD)
    text_with(d, (cx, cy - 8), "vs", fill=MUTED, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 66), "Water beats Fire", fill=WC_GOLD, font=font(SMALL), anchor="mm")


def _stars(d: ImageDraw.ImageDraw, b: Box, n: int, label: str) -> None:
    cx, cy = _centre(b)
    for k in range(n):
        star(d, cx + (k - (n - 1) / 2) * 56, cy - 12, 26, GOLD)
    text_with(d, (cx, cy + 44), label, fill=GOLD, font=font(18), anchor="mm")


def _wc_cup(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    _stars(d, b, 2, "2 Victory tokens")


def _fw_bridge(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The real bridge: its flagstones, the Fire Wall where it starts and both wizards."""
    from rules.firewall import BRIDGE, START_WALL

    cell = (b[2] - b[0] - 8) / BRIDGE
    left, top = b[0] + 4, (b[1] + b[3]) / 2 + 6
    d.rectangle([b[0], top + 14, b[2], top + 30], fill=LAVA)
    for i in range(BRIDGE):
        d.rectangle([left + i * cell + 1, top, left + (i + 1) * cell - 1, top + 16], fill=STONE)
    wall = left + START_WALL * cell
    d.rectangle([wall + 1, top - 50, wall + cell - 1, top], fill=FIRE)
    d.rectangle([wall + 4, top - 42, wall + cell - 4, top - 4], fill=GOLD)
    for seat, pos in ((0, START_WALL - 3), (1, START_WALL + 3)):
        x = left + (pos + 0.5) * cell
        colour = SEAT_COLOURS[seat]
        d.polygon([(x - 7, top), (x + 7, top), (x, top - 24)], fill=colour)
        d.ellipse([x - 5, top - 32, x + 5, top - 22], fill=(240, 210, 180))
        d.polygon([(x - 6, top - 28), (x + 6, top - 28), (x + 1, top - 44)], fill=colour)
    for pos in (0, START_WALL, BRIDGE - 1):
        text_with(d, (left + (pos + 0.5) * cell, top + 44), str(pos), fill=INK, font=font(SMALL), anchor="mm")
    text_with(d, (wall + cell / 2, top - 66), "Fire Wall", fill=GOLD, font=font(SMALL), anchor="mm")


def _gauge(d: ImageDraw.ImageDraw, x: float, y: float, w: float, mana: int, seat: int) -> None:
    from rules.firewall import MAX_MANA

    d.rectangle([x, y, x + w, y + 14], fill=(55, 57, 62), outline=MUTED)
    d.rectangle([x, y, x + w * mana / MAX_MANA, y + 14], fill=SEAT_COLOURS[seat])
    text_with(d, (x + w / 2, y - 12), f"{mana} / {MAX_MANA} mana", fill=INK, font=font(SMALL), anchor="mm")


def _fw_bet(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """Mana to bet (full at the round's start) and a spell laid face down."""
    from rules.firewall import MAX_MANA

    cx, cy = _centre(b)
    _gauge(d, b[0] + 14, cy - 30, b[2] - b[0] - 28, MAX_MANA, 0)
    _gauge(d, b[0] + 14, cy + 30, b[2] - b[0] - 28, MAX_MANA - 12, 0)
    text_with(d, (cx, cy + 62), "bet 12: both bets are paid", fill=GOLD, font=font(SMALL), anchor="mm")


def _fw_push(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The higher attack pushes the wall one flagstone toward the other wizard."""
    cx, cy = _centre(b)
    d.rectangle([cx - 8, cy - 44, cx + 8, cy + 16], fill=FIRE)
    d.line([(cx - 20, cy - 14), (cx + 44, cy - 14)], fill=INK, width=4)
    d.polygon([(cx + 44, cy - 24), (cx + 44, cy - 4), (cx + 60, cy - 14)], fill=INK)
    text_with(d, (b[0] + 12, cy - 40), "attack 14", fill=seat_ink(0, PANEL), font=font(18), anchor="lm")
    text_with(d, (b[2] - 12, cy + 40), "attack 9", fill=seat_ink(1, PANEL), font=font(18), anchor="rm")


def _fw_lava(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    d.rectangle([b[0] + 10, cy + 10, b[2] - 10, cy + 34], fill=LAVA)
    d.ellipse([cx - 8, cy - 26, cx + 8, cy - 10], fill=ORANGE)
    d.polygon([(cx - 10, cy + 22), (cx + 10, cy + 22), (cx, cy - 12)], fill=ORANGE)
    text_with(d, (cx, cy - 50), "fell: loses", fill=INK, font=font(18), anchor="mm")


def _md_cards(d: ImageDraw.ImageDraw, x: float, y: float, cards: Sequence[str], w: float = 44, gap: float = 6) -> None:
    from .games.magic_duel.art import draw_card

    for i, cid in enumerate(cards):
        draw_card(d, x + i * (w + gap), y, w, w * 1.42, cid, small=SMALL)


def _md_hand(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """A real hand of seven playing cards."""
    from rules.magic_duel.cards import HAND_SIZE

    hand = ["3C", "7H", "7D", "7S", "10H", "QS", "KD"][:HAND_SIZE]
    cx, cy = _centre(b)
    _md_cards(d, cx - 92, cy - 68, hand[:4], w=44, gap=2)
    _md_cards(d, cx - 92, cy + 2, hand[4:], w=44, gap=2)
    text_with(d, (cx + 50, cy + 34), f"{HAND_SIZE} cards", fill=GOLD, font=font(18), anchor="lm")


def _md_combos(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    _md_cards(d, cx - 74, cy - 52, ["7H", "7D", "7S"], w=44)
    text_with(d, (cx, cy + 26), "Thrack: 3 of a value", fill=INK, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 50), "Codu 2 · Raquav 4", fill=MUTED, font=font(SMALL), anchor="mm")


def _md_trick(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """A trick: two Codus, the higher value wins."""
    cx, cy = _centre(b)
    for row, (cards, words, colour) in enumerate(
        ((["7C", "7D"], "Codu of 7s", MUTED), (["KS", "KH"], "Kings WIN", GOLD))
    ):
        y = cy - 62 + row * 68
        _md_cards(d, b[0] + 38, y, cards, w=38)
        text_with(d, (b[0] + 124, y + 27), words, fill=colour, font=font(SMALL), anchor="lm")
    d.rounded_rectangle([b[0] + 30, cy + 1, b[2] - 4, cy + 62], radius=8, outline=GOLD, width=2)


def _md_score(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    _stars(d, b, 3, "3 points win")


def _arena_board(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    """The real board: the grid of the default options, each Wizard and its Minions on its edge."""
    minions, grid = arena_numbers()
    cell = min(int((b[3] - b[1] - 8) / grid), 14)
    cx, cy = _centre(b)
    x0, y0 = cx - grid * cell / 2, cy - grid * cell / 2
    for gy in range(grid):
        for gx in range(grid):
            fill = (206, 186, 148) if (gx + gy) % 2 else (194, 173, 134)
            d.rectangle([x0 + gx * cell, y0 + gy * cell, x0 + (gx + 1) * cell, y0 + (gy + 1) * cell], fill=fill)
    for seat, row in ((0, grid - 1), (1, 0)):
        first = (grid - 1 - minions) // 2
        for k in range(minions + 1):
            x, y = x0 + (first + k + 0.5) * cell, y0 + (row + 0.5) * cell
            r = cell * 0.45
            if k == minions // 2:  # the Wizard: round
                d.ellipse([x - r, y - r, x + r, y + r], fill=SEAT_COLOURS[seat], outline=INK)
            else:
                d.rectangle([x - r, y - r, x + r, y + r], fill=SEAT_COLOURS[seat], outline=INK)
    text_with(d, (x0 - 6, y0 + grid * cell / 2), str(grid), fill=INK, font=font(SMALL), anchor="rm")


def _arena_dice(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    for x, value in ((cx - 50, 3), (cx + 6, 5)):
        d.rounded_rectangle([x, cy - 36, x + 44, cy + 8], radius=7, fill=INK)
        pips = {3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)]}.get(
            value, [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)]
        )
        for px, py in pips:
            X, Y = x + px * 44, cy - 36 + py * 44
            d.ellipse([X - 4, Y - 4, X + 4, Y + 4], fill=(30, 30, 30))
    text_with(d, (cx, cy + 30), "3: the Discipline Spell", fill=GOLD, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 52), "5: Empower", fill=GOLD, font=font(SMALL), anchor="mm")


def _arena_attack(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    text_with(d, (cx, cy - 40), "attack: 4 + 3 = 7", fill=seat_ink(0, PANEL), font=font(18), anchor="mm")
    text_with(d, (cx, cy - 8), "defend: 2 + 4 = 6", fill=seat_ink(1, PANEL), font=font(18), anchor="mm")
    text_with(d, (cx, cy + 26), "7 beats 6: a hit", fill=GOLD, font=font(SMALL), anchor="mm")
    text_with(d, (cx, cy + 50), "equal: it explodes", fill=MUTED, font=font(SMALL), anchor="mm")


def _arena_ko(image: Image.Image, d: ImageDraw.ImageDraw, b: Box) -> None:
    cx, cy = _centre(b)
    r = 30
    d.ellipse([cx - r, cy - 20 - r, cx + r, cy - 20 + r], fill=(110, 110, 110), outline=INK, width=2)
    d.line([(cx - 28, cy - 48), (cx + 28, cy + 8)], fill=(220, 40, 40), width=6)
    d.line([(cx + 28, cy - 48), (cx - 28, cy + 8)], fill=(220, 40, 40), width=6)
    text_with(d, (cx, cy + 40), "0 Health: out", fill=INK, font=font(18), anchor="mm")


ICONS = {
    "wc-cards": _wc_cards,
    "wc-order": _wc_order,
    "wc-duel": _wc_duel,
    "wc-cup": _wc_cup,
    "fw-bridge": _fw_bridge,
    "fw-bet": _fw_bet,
    "fw-push": _fw_push,
    "fw-lava": _fw_lava,
    "md-hand": _md_hand,
    "md-combos": _md_combos,
    "md-trick": _md_trick,
    "md-score": _md_score,
    "arena-board": _arena_board,
    "arena-dice": _arena_dice,
    "arena-attack": _arena_attack,
    "arena-ko": _arena_ko,
}


def wrap(draw: ImageDraw.ImageDraw, text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels (a word too long alone is clipped)."""
    lines: list[str] = []
    for word in text.split():
        line = f"{lines[-1]} {word}" if lines else word
        if lines and draw.textlength(line, font=font(size)) <= width:
            lines[-1] = line
            continue
        while draw.textlength(word, font=font(size)) > width and len(word) > 1:
            word = word[:-2] + "…"
        lines.append(word)
    return lines


def panel_boxes(panels: int) -> list[Box]:
    """Each panel's frame: two columns, as many rows as needed."""
    out: list[Box] = []
    for i in range(panels):
        left = PANEL_PAD + (i % 2) * (PANEL_W + PANEL_PAD)
        top = HEADER + PANEL_PAD + (i // 2) * (PANEL_H + PANEL_PAD)
        out.append((left, top, left + PANEL_W, top + PANEL_H))
    return out


def caption_boxes(panels: int) -> list[Box]:
    """Where each panel's caption is written (its text must fit there)."""
    return [(b[0] + 6, b[1] + ART_H + 8, b[2] - 6, b[3] - 4) for b in panel_boxes(panels)]


def howto_image(slug: str) -> Image.Image:
    """The game's illustrated summary: its name and players, then one panel per step."""
    howto = HOWTOS[slug]
    image = Image.new("RGB", (WIDTH, HEIGHT), (30, 31, 34))
    d = ImageDraw.Draw(image)
    d.rectangle([0, 0, WIDTH, HEADER], fill=(54, 57, 63))
    text_with(d, (PANEL_PAD, HEADER / 2), game_title(slug), font=font(24), fill=INK, anchor="lm")
    text_with(d, (WIDTH - PANEL_PAD, HEADER / 2), seats_text(slug), font=font(16), fill=INK, anchor="rm")
    steps = howto.steps
    for i, (step, frame, box) in enumerate(zip(steps, panel_boxes(len(steps)), caption_boxes(len(steps)), strict=True)):
        left, top, right, _ = frame
        d.rounded_rectangle(frame, radius=10, fill=PANEL, outline=(70, 72, 78), width=2)
        ICONS[step.icon](image, d, (left + 4, top + 8, right - 4, top + ART_H))
        d.ellipse([left + 6, top + 6, left + 32, top + 32], fill=GOLD)
        text_with(d, (left + 19, top + 19), str(i + 1), font=font(SMALL + 1), fill=(30, 30, 30), anchor="mm")
        y = box[1]
        for line in wrap(d, caption(slug, step), box[2] - box[0] - 12, CAPTION_SIZE):
            text_with(d, ((box[0] + box[2]) / 2, y), line, font=font(CAPTION_SIZE), fill=INK, anchor="ma")
            y += CAPTION_SIZE + 5
    return image


def howto_file(slug: str) -> discord.File:
    """The picture as an attachment, drawn once per game and per numbers (call it in a thread)."""
    howto = HOWTOS[slug]
    inputs = [slug, game_title(slug), [[s.icon, caption(slug, s)] for s in howto.steps]]
    return PICTURES.file("howto", inputs, f"howto-{slug}.png", lambda: howto_image(slug))


def howto_files(slug: str, *, with_rulings: bool) -> list[discord.File]:
    """The picture, then (``with_rulings``, and when the page is there) the game's rulings page as
    ``<slug>-rulings.md``, which Discord previews. Call it in a thread."""
    files = [howto_file(slug)]
    data = rulings_bytes(slug) if with_rulings else None
    if data is not None:
        files.append(discord.File(io.BytesIO(data), filename=rulings_filename(slug)))
    return files


# ------------------------------------------------------------------------------ the embeds

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("🎲 Play", ("challenge", "status", "forfeit", "tournament")),
    ("📖 Learn", ("help", "howto", "rules", "card", "practice", "hint")),
    ("🏆 Results", ("leaderboard", "profile", "history", "replay")),
    ("⚙️ Server admins", ("settings",)),
)
HOW_A_MATCH_WORKS = (
    "1. **Challenge**: `/challenge` a game and your opponents (or `open:True` for a table anyone may "
    "join); each invited player presses **Accept**.\n"
    "2. **Thread**: the match gets its own thread (where the server allows threads) with a live board; "
    "every duel, trick or turn is told there.\n"
    "3. **Your moves**: secret choices come by DM (closed DMs: a **Submit privately** button), hidden from "
    "everyone until the game reveals them; Arena's controls are in the thread, usable only by you.\n"
    "4. **Deadlines**: each move has a time limit (the server's turn time, or a tournament's own, shown on "
    "the prompt), with a reminder before it runs out; running out forfeits (an optional choice takes its default).\n"
    "5. **The end**: the result and the rating changes; `/profile`, `/leaderboard` and `/replay` follow it up.\n"
    "No opponent at hand? `/practice` plays any game against the computer (unrated, with a 💡 Hint button)."
)


SlashCommand = app_commands.Command[Any, Any, Any] | app_commands.Group


def command_lines(tree_commands: Sequence[SlashCommand]) -> dict[str, str]:
    """Command name -> its one line for /help."""
    return {c.name: clip(f"`/{c.name}` — {c.description}", 200) for c in tree_commands}


def help_embed(tree_commands: Sequence[SlashCommand]) -> discord.Embed:
    """Every command, grouped (a command no group names goes under "More"), then how a match works."""
    lines = command_lines(tree_commands)
    embed = discord.Embed(
        title="🧙 Wizard Referee",
        description=(
            "I referee wizard-duel tabletop games in this server: I deal, keep every secret, enforce the rules "
            "exactly, time the moves and rate the results. Games: "
            + ", ".join(name for _, name in howto_games())
            + ". New to a game? `/howto game` shows its rules on one screen."
        ),
        colour=discord.Colour.blurple(),
    )
    listed: set[str] = set()
    for title, names in GROUPS:
        value = "\n".join(lines[n] for n in names if n in lines)
        listed.update(names)
        if value:
            embed.add_field(name=title, value=clip(value, 1024), inline=False)
    rest = [line for name, line in sorted(lines.items()) if name not in listed]
    if rest:
        embed.add_field(name="➕ More", value=clip("\n".join(rest), 1024), inline=False)
    embed.add_field(name="How a match works", value=HOW_A_MATCH_WORKS, inline=False)
    embed.set_footer(text="Your replies from /help and /howto are only visible to you.")
    return embed


def rulings_pointer(slug: str, url: str | None, attached: bool) -> str:
    """Where the full rulings are: the link, the attachment, or the page in the bot's source."""
    if url is not None:
        return f"Every rule and ruling: [docs/rulings/{slug}.md]({url})"
    if attached:
        return f"Every rule and ruling: attached, `{rulings_filename(slug)}`"
    return f"Every rule and ruling: see docs/rulings/{slug}.md in the bot's source"


def howto_embed(slug: str, base_url: str | None = None, *, rulings_attached: bool = False) -> discord.Embed:
    """One screen: goal, a turn, the end, the newcomer's tip, the picture and where the full rulings
    are (a link under ``base_url``, else the attached page when ``rulings_attached``)."""
    howto = HOWTOS[slug]
    url = None if base_url is None else rulings_url(slug, base_url)
    embed = discord.Embed(
        title=f"How to play {game_title(slug)}",
        url=url,
        description=f"**{seats_text(slug)}.** {howto.goal}",
        colour=discord.Colour.dark_teal(),
    )
    embed.add_field(name="A turn", value=howto.turn, inline=False)
    embed.add_field(name="The end", value=howto.end, inline=False)
    tip = FIRST_MATCH_TIPS.get(slug)
    if tip:
        embed.add_field(name="💡 Know this", value=tip, inline=False)
    embed.add_field(
        name="More",
        value=f"{rulings_pointer(slug, url, rulings_attached)} · options: `/rules` · cards: `/card`",
        inline=False,
    )
    embed.set_image(url=f"attachment://howto-{slug}.png")
    embed.set_footer(text=f"Play it: /challenge game:{game_title(slug)}")
    return embed


# ------------------------------------------------------------------------------ the cog


class Help(commands.Cog):
    def __init__(self, bot: RefereeBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What this bot does: every command, and how a match works")
    async def help(self, interaction: discord.Interaction) -> None:
        listed = [c for c in self.bot.tree.get_commands() if not isinstance(c, app_commands.ContextMenu)]
        embed = help_embed(listed)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="howto", description="A game's rules on one screen, with a picture")
    @app_commands.describe(game="which game")
    async def howto(self, interaction: discord.Interaction, game: str) -> None:
        slug = resolve_howto(game)
        base_url = self.bot.settings.docs_base_url  # validated by bot.settings.Settings
        files = await asyncio.to_thread(howto_files, slug, with_rulings=base_url is None)
        embed = howto_embed(slug, base_url, rulings_attached=len(files) > 1)
        await interaction.response.send_message(embed=embed, files=files, ephemeral=True)

    @howto.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        cur = current.strip().lower()[:100]
        return [
            app_commands.Choice(name=name, value=slug)
            for slug, name in howto_games()
            if cur in slug or cur in name.lower()
        ][:25]


async def setup(bot: RefereeBot) -> None:
    """The /help and /howto commands."""
    await bot.add_cog(Help(bot))


__all__ = [
    "FIRST_MATCH_TIPS",
    "HOWTOS",
    "RULINGS_DIR",
    "Help",
    "HelpError",
    "caption_boxes",
    "first_match_tip",
    "help_embed",
    "howto_embed",
    "howto_file",
    "howto_files",
    "howto_image",
    "resolve_howto",
    "rulings_bytes",
    "rulings_url",
    "setup",
    "wrap",
]
