"""Arena in the channel: the post after every resolution (the public events, the end of the fight,
the board as a picture or a text grid with each player's Discipline, Crowd Favour and models), and
the reference texts of /rules and /card.

Everything is read from the spectator view (``ArenaView``) and the public events only; Arena is open
information, so the channel never shows less than a player's prompt does.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from rules import Event, public_events
from rules.arena.view import ArenaView, PlayerView

from ..base import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, Lookup, Post, clip
from .art import board_file, text_grid
from .story import event_text, last_roll_text
from .text import (
    COLOUR,
    DATA,
    TARGET_TEXT,
    crowd_table_text,
    discipline_embed,
    model_line,
    model_name,
    pretty,
    seat_emoji,
    seat_name,
    spell_table_text,
)

IMAGE_NAME = "arena.png"
EVENT_ICON = {
    "roll": "🎲",
    "reroll": "🎲",
    "spell_selection": "📜",
    "spell_options": "✨",
    "spell_chosen": "📜",
    "select": "▶️",
    "move": "👣",
    "disengage": "💢",
    "action": "🪄",
    "opposed": "⚔️",
    "explosion": "💥",
    "damage": "💔",
    "heal": "💚",
    "effect": "✴️",
    "effect_end": "▫️",
    "favour": "⭐",
    "favour_blocked": "🚫",
    "crowd": "📣",
    "crowd_skip": "📣",
    "gremlin": "👹",
    "brawl_end": "📣",
    "knockout": "☠️",
    "fate": "⚰️",
    "game_end": "🏆",
    "minion_removed": "💀",
    "transmutation_death": "💀",
    "deployed": "📍",
    "summon": "📍",
    "terrain_placed": "🪨",
    "terrain_layout": "🪨",
    "terrain_random": "🎲",
    "discipline_chosen": "🧙",
    "edge_chosen": "🧭",
    "rolloff": "📣",
    "first_player": "🎲",
    "turn_start": "🔔",
    "turn_end": "⏹️",
    "activation_end": "✔️",
    "no_more_activations": "⏹️",
    "extinguish": "🧯",
    "burning": "🔥",
    "scholar_bonus": "🎓",
    "ability": "🌟",
    "swap": "🔄",
    "dominated": "🧠",
    "dominate_end": "🧠",
    "storm": "⚙️",
    "tidal_wave_blocked": "🌊",
    "teleport_declined": "✋",
    "no_effect": "▫️",
    "forfeit": "🏳️",
}
QUIET_EVENTS = {"activation_end"}  # said by the next line anyway


# ------------------------------------------------------------------------------ the channel post


def public_post(view: ArenaView, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
    """The post after a resolution: what happened, the end of the fight if it ended, and the board
    (a picture, or the text grid when pictures are off)."""
    public = public_events(events)
    embeds: list[discord.Embed] = []
    lines = [
        f"{EVENT_ICON.get(ev.kind, '•')} {event_text(ev, view, names, public)}"
        for ev in public
        if ev.kind not in QUIET_EVENTS
    ]
    if lines:
        embeds.append(discord.Embed(title=post_title(view, names), description=fit_lines(lines), colour=COLOUR))
    end = next((ev for ev in public if ev.kind == "game_end"), None)
    if end is not None:
        embeds.append(
            discord.Embed(
                title=end_title(end),
                description=clip(pretty(end.text, view, names), 4096),
                colour=discord.Colour.gold(),
            )
        )
    board = board_embed(view, names, text=not images)
    files: list[discord.File] = []
    if images:
        files.append(board_file(view, names, public, IMAGE_NAME))
        board.set_image(url=f"attachment://{IMAGE_NAME}")
    embeds.append(board)
    return Post(embeds, files)


def end_title(end: Event) -> str:
    """The title over the end of the fight: a trophy only when somebody won."""
    seats = (end.data.get("outcome") or {}).get("seats") or []
    if seats and all(s.get("result") == "draw" for s in seats):
        return "🤝 The fight is over: a draw"
    return "🏆 The fight is over"


def post_title(view: ArenaView, names: Sequence[str]) -> str:
    turn = view.get("game_turn") or 0
    if view.get("phase") == "over":
        return "Arena — the end"
    if not turn:
        return "Arena — set-up"
    active = view.get("active")
    who = names[active] if isinstance(active, int) and active < len(names) else "?"
    return f"Arena — game turn {turn} · {who}'s turn"


def fit_lines(lines: list[str], limit: int = EMBED_DESCRIPTION) -> str:
    """The lines, dropping the middle ones if they do not fit."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    head: list[str] = []
    tail: list[str] = []
    size = 60  # room for the "… (n more lines) …" line
    i, j = 0, len(lines) - 1
    while i <= j:  # one line from the top, one from the bottom, ... until the next does not fit
        from_head = len(head) <= len(tail)
        line = lines[i] if from_head else lines[j]
        if size + len(line) + 1 > limit:
            break
        size += len(line) + 1
        if from_head:
            head.append(line)
            i += 1
        else:
            tail.insert(0, line)
            j -= 1
    dropped = len(lines) - len(head) - len(tail)
    return clip("\n".join([*head, f"… ({dropped} more lines) …", *tail]), limit)


# ------------------------------------------------------------------------------ the board embed


def board_embed(view: ArenaView, names: Sequence[str], *, text: bool) -> discord.Embed:
    """The board's embed: the text grid (``text``), a field per player, and what is going on now."""
    n = view["grid"]["size"]
    e = discord.Embed(title=f"Board {n}×{n}", colour=COLOUR)
    if text:
        e.description = clip(
            text_grid(view)
            + "\nRow 1 is the south edge. `##` terrain · `W1`/`w2` Wizards · `M1`/`m1` Minions (upper case: "
            f"{names[0]}, lower case: {names[1]}) · `X` knocked out.",
            EMBED_DESCRIPTION,
        )
    for p in view["players"]:
        s = p["seat"]
        e.add_field(
            name=clip(f"{seat_emoji(s)} {seat_name(names, s)}", 256),
            value=clip("\n".join(_player_lines(view, p, names)), EMBED_FIELD_VALUE),
            inline=False,
        )
    status = _now_lines(view, names)
    if status:
        e.add_field(name="Now", value=clip("\n".join(status), EMBED_FIELD_VALUE), inline=False)
    e.set_footer(text="Row 1 is the south edge · /card game:arena shows Disciplines and spells")
    return e


def _player_lines(view: ArenaView, p: PlayerView, names: Sequence[str]) -> list[str]:
    """A player's field: Discipline and Wizard's name, edge, Crowd Favour (and chant), models."""
    lines = []
    if p.get("discipline_name"):
        lines.append(f"🧙 {p['discipline_name']}" + (f" · **{p['wizard_name']}**" if p.get("wizard_name") else ""))
    else:
        lines.append("🧙 choosing a Discipline")
    if p.get("edge"):
        lines.append(f"🧭 {p['edge']} edge")
    lines.append(f"⭐ Crowd Favour **{p['crowd_favour']}**" + (" · 📣 chant" if p.get("chant") else ""))
    lines += [model_line(view, m, names) for m in view["models"] if m["owner"] == p["seat"]]
    return lines


def _now_lines(view: ArenaView, names: Sequence[str]) -> list[str]:
    """The "Now" field: this turn's spell (or its options), the model activating, the last roll."""
    spell = view["spell"]
    status = []
    if view["phase"] != "over" and view["game_turn"]:
        if spell and spell["selected"]:
            status.append(f"📜 Spell: **{DATA.spell(spell['selected']).name}**" + (" (cast)" if spell["cast"] else ""))
        elif spell and spell["options"]:
            status.append("📜 Options: " + ", ".join(DATA.spell(s).name for s in spell["options"]))
        act = view.get("activation")
        if act:
            status.append(f"▶️ Activating {model_name(view, act['model'], names)}")
    roll = last_roll_text(view, names)
    if roll:
        status.append(f"🎲 Last roll, {roll[0]}: {roll[1]}")
    return status


# ------------------------------------------------------------------------------ /rules and /card


def rules_fields() -> list[tuple[str, str]]:
    """The /rules fields: set-up, the turn, resolving an Action, the tables, models, Disciplines."""
    w = DATA.wizard
    return [
        (
            "Set-up",
            "A roll-off decides who is Player 1 (or the challenger is, with the option "
            "first_player=challenger). Each player picks a Magic Discipline (and may name the Wizard). "
            "Player 1 places the terrain "
            "(or asks for a random layout, mirrored about the centre); Player 2 picks a board edge, Player 1 "
            "gets the opposite one; each deploys a Wizard and a Minion on their edge row. A roll-off gives "
            "the winner 1 Crowd Favour. Player 1 starts.",
        ),
        (
            "A turn: Start Phase → Spell Selection → Action Phase",
            "**Start:** abilities, then spend Crowd Favour on the crowd (1 point: D6; each extra point +1). "
            "**Spell Selection:** roll 2 D6 and pick one of the two spells, or Arcane Rocket. "
            "**Action:** each model may Move (up to its Move, orthogonally, not through terrain or models; "
            "starting next to an enemy costs 2 damage) and take 1 Action, in either order, one model at a "
            "time. A Wizard's Action casts the spell.",
        ),
        (
            "Resolving an Action",
            "Target in range and in line of sight (terrain blocks). Ally: it happens. Enemy: D6 + Skill "
            "against D6 + Defence; beat it to succeed. Tie: a magical explosion — roll off: the target "
            "reflects it, or it succeeds with double damage; the active player gains 1 Crowd Favour. A Minion "
            "at 0 Health is removed (+1 Crowd Favour). A Wizard at 0 Health is knocked out: the game ends.",
        ),
        ("Spell table (each die)", spell_table_text()),
        ("Crowd table (D6 + extra favour spent)", crowd_table_text()),
        (
            "Models",
            f"Every Wizard: Move {w['move']}, Skill {w['skill']}, Defence {w['defence']}, Health {w['health']}. "
            f"Each Minion: Health 4, at most {DATA.max_minions} per player on the board.",
        ),
        ("Disciplines", ", ".join(d.name for d in DATA.disciplines.values()) + ". See /card game:arena."),
        (
            "Playing in Discord",
            "The board is posted as a picture after every action (row 1 at the bottom). Your controls are "
            "posted in the channel when it is your move; only you can use them. Squares are picked by "
            "coordinate, and only legal squares and targets are offered. A move or an Action on a target "
            "is shown with what it costs (damage for leaving an enemy's side) before you confirm it.",
        ),
    ]


def lookup_choices(current: str) -> list[Lookup]:
    """/card's entries matching ``current``: Disciplines, spells, the two tables, Minions."""
    cur = current.lower().strip()
    out = [Lookup(did, f"Discipline: {d.name}") for did, d in DATA.disciplines.items()]
    out += [Lookup(sid, f"Spell: {s.name}") for sid, s in DATA.generic.items()]
    out += [Lookup("spell_table", "Table: Spell Selection"), Lookup("crowd_table", "Table: the crowd")]
    out += [Lookup(d.spell.id, f"Spell: {d.spell.name} ({d.name})") for d in DATA.disciplines.values()]
    out += [Lookup(f"minion.{did}", f"Minion: {d.minion.name} ({d.name})") for did, d in DATA.disciplines.items()]
    return [x for x in out if cur in x.label.lower() or cur in x.key]


def lookup(key: str) -> discord.Embed | None:
    """The /card embed of an entry, by key or by name (a Discipline Spell or Minion shows its Discipline)."""
    k = key.strip().lower()
    if k in DATA.disciplines:
        return discipline_embed(k)
    if k in DATA.generic:
        return spell_embed(k)
    if k == "spell_table":
        return discord.Embed(title="📜 Spell Selection", description=spell_table_text(), colour=COLOUR)
    if k == "crowd_table":
        return discord.Embed(title="📣 The crowd", description=crowd_table_text(), colour=COLOUR)
    if k.startswith("minion.") and k[7:] in DATA.disciplines:
        return discipline_embed(k[7:])
    for did, d in DATA.disciplines.items():
        if k in (d.spell.id, d.name.lower(), d.spell.name.lower(), d.minion.name.lower()):
            return discipline_embed(did)
    for sid, s in DATA.generic.items():
        if k == s.name.lower():
            return spell_embed(sid)
    return None


def spell_embed(spell_id: str) -> discord.Embed:
    """The /card embed of a generic spell: text, range, damage, target and its Spell Selection roll."""
    s = DATA.spell(spell_id)
    e = discord.Embed(title=f"📜 {s.name}", description=s.text, colour=COLOUR)
    e.add_field(name="Range", value=str(s.range) if s.range is not None else "—")
    e.add_field(name="Damage", value=str(s.damage) if s.damage else "—")
    e.add_field(name="Target", value=TARGET_TEXT.get(s.target, s.target))
    rolls = [str(v) for v, sid in DATA.spell_table.items() if sid == spell_id]
    e.add_field(
        name="Spell Selection",
        value=f"die {' or '.join(rolls)}" if rolls else "always available (Arcane Rocket)",
        inline=False,
    )
    return e
