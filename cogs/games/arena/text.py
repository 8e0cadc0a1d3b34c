"""Arena's words, shared by the prompts and the channel posts: models as players say them, a model's
one-line summary, spell lines, the Spell Selection and crowd tables and the Discipline card.

Everything is read from the rules' typed view (``ArenaView``) and the game data (``DATA``); a model id
("p1-wizard", "p2-m3") is spelled out with the players' names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import discord

from rules import fill_names
from rules.arena import label, load_data
from rules.arena.view import ArenaView, ModelView, PlayerView

from ..pictures import SEAT_EMOJI
from .art import EFFECT_WORDS, MODEL_ID, token

DATA = load_data()
COLOUR = discord.Colour.from_rgb(196, 120, 40)
TARGET_TEXT = {
    "enemy": "an enemy model",
    "enemy_minion": "an enemy Minion",
    "enemy_wizard": "the enemy Wizard",
    "friendly": "a friendly model (or the Wizard itself)",
    "friendly_minion": "a friendly Minion",
    "any": "any model (or the Wizard itself)",
    "square": "an empty square",
    "none": "no target",
}


def seat_emoji(seat: int) -> str:
    return SEAT_EMOJI[seat % len(SEAT_EMOJI)]


def seat_name(names: Sequence[str], seat: int) -> str:
    """The player's name, or "Player n" for a seat without one."""
    return names[seat] if seat < len(names) else f"Player {seat + 1}"


def player(view: ArenaView, seat: int) -> PlayerView:
    return view["players"][seat]


def models(view: ArenaView) -> dict[str, ModelView]:
    """The models by id."""
    return {m["id"]: m for m in view["models"]}


def wizard_of(view: ArenaView, seat: int) -> ModelView | None:
    """The seat's Wizard, if it is on the board."""
    return next((m for m in view["models"] if m["owner"] == seat and m["kind"] == "wizard"), None)


def icon(m: ModelView) -> str:
    return "🧙" if m["kind"] == "wizard" else "👾"


def model_name(view: ArenaView, model_id: str, names: Sequence[str], *, own: int | None = None) -> str:
    """A model as players say it: "Ann's Wizard Morgana", "Bob's Phantasm 2" ("your ..." for ``own``)."""
    m = MODEL_ID.fullmatch(model_id)
    if m is None:
        return model_id
    seat = int(m[1]) - 1
    who = "your" if own == seat else (f"{names[seat]}'s" if seat < len(names) else f"Player {seat + 1}'s")
    p = player(view, seat)
    if m[2] == "wizard":
        return f"{who} Wizard" + (f" {p['wizard_name']}" if p.get("wizard_name") else "")
    d = DATA.disciplines.get(p.get("discipline") or "")
    kind = d.minion.name if d else "Minion"
    return f"{who} {kind} {m[2][1:]}"


#: The engine's name of a Minion, "{p1}'s Drake Spirit p1-m1": its owner, its kind and its id.
ENGINE_MINION = re.compile(
    r"\{p([12])\}'s (?:"
    + "|".join(sorted({re.escape(d.minion.name) for d in DATA.disciplines.values()}, key=len, reverse=True))
    + r") (p\1-m\d+)\b"
)


def pretty(text: str, view: ArenaView, names: Sequence[str]) -> str:
    """An engine text with the players' names in and model ids (p2-m1) spelled out. The engine's
    Minion names ("{p1}'s Drake Spirit p1-m1") are said once ("Ann's Drake Spirit 1")."""
    text = ENGINE_MINION.sub(lambda m: m[2], text)
    return MODEL_ID.sub(lambda m: model_name(view, m[0], names), fill_names(text, names))


def cap(text: str) -> str:
    """The text with its first letter upper case, the rest as it is ("your Wizard Ignatia" ->
    "Your Wizard Ignatia"; ``str.capitalize`` would lower-case the name)."""
    return text[:1].upper() + text[1:]


def sq(pos: Sequence[int]) -> str:
    """A position ``[x, y]`` as its label ("C4")."""
    return label((int(pos[0]), int(pos[1])))


def _effects_text(m: ModelView) -> str:
    words = [EFFECT_WORDS.get(e["kind"], e["kind"]) for e in m.get("effects", [])]
    return (" · " + ", ".join(words)) if words else ""


def model_line(view: ArenaView, m: ModelView, names: Sequence[str], *, own: int | None = None) -> str:
    """One line per model: token, name, square, Health, stats, effects, whether it has activated."""
    health = "☠️ knocked out" if m.get("knocked_out") else f"❤️ {m['health']}/{m['max_health']}"
    st = m["stats"]
    stats = f"M{st['move']} S{st['skill']} D{st['defence']}"
    done = " · done" if m.get("activated") else ""
    return (
        f"`{token(m)}` {icon(m)} {model_name(view, m['id'], names, own=own)} · **{sq(m['pos'])}** · {health} · "
        f"{stats}{_effects_text(m)}{done}"
    )


def beyond_numbers(text: str, rng: str, dmg: str) -> str:
    """The card ``text`` without its opening "Range 6, 2 damage" when the line shows those
    numbers already ("Range 6, D6 damage; the target has -2 Skill" → "The target has -2 Skill");
    "" when the text says nothing more."""
    lead = rng[:1].upper() + rng[1:] + dmg
    if not text.startswith(lead):
        return text
    rest = text[len(lead) :]
    if rest.strip() in ("", "."):
        return ""
    if rest[:1] not in (".", ";", ":", ","):
        return text  # "Range 3, D3 damage (+1 within ...)": the numbers are part of the sentence
    rest = rest[1:].strip()
    return rest[:1].upper() + rest[1:]


def spell_line(spell_id: str) -> str:
    s = DATA.spell(spell_id)
    rng = f"range {s.range}" if s.range is not None else "no range"
    dmg = f", {s.damage} damage" if s.damage else ""
    more = beyond_numbers(s.text, rng, dmg)
    return f"**{s.name}** ({rng}{dmg}; targets {TARGET_TEXT.get(s.target, s.target)})" + (f": {more}" if more else "")


def spell_table_text() -> str:
    lines = []
    for v, sid in sorted(DATA.spell_table.items()):
        lines.append(f"**{v}** — " + ("your Discipline Spell" if sid == "discipline" else DATA.spell(sid).name))
    lines.append("Always: **Arcane Rocket**. A double: any spell.")
    return "\n".join(lines)


def crowd_table_text() -> str:
    return "\n".join(f"**{v}** — {r.name}: {r.text}" for v, r in sorted(DATA.crowd.items()))


def discipline_embed(did: str) -> discord.Embed:
    """The card of a Discipline: ability, spell, Minion stats and action (/card and the set-up prompt)."""
    d = DATA.disciplines[did]
    mn = d.minion
    e = discord.Embed(title=f"🧙 {d.name}", description=f"**Ability.** {d.ability}", colour=COLOUR)
    e.add_field(name=f"Discipline Spell: {d.spell.name}", value=spell_line(d.spell.id), inline=False)
    e.add_field(
        name=f"Minion: {mn.name}",
        value=f"Move {mn.move} · Skill {mn.skill} · Defence {mn.defence} · Health {mn.health}",
        inline=False,
    )
    a = mn.action
    rng = f"range {a.range}" if a.range is not None else "no range"
    dmg = f", {a.damage} damage" if a.damage else ""
    lead = rng[:1].upper() + rng[1:] + dmg  # the card's text opens with the numbers: said once
    value = a.text if a.text.startswith(lead) else f"{rng}{dmg}. {a.text}"
    e.add_field(name=f"Minion action: {a.name}", value=value, inline=False)
    w = DATA.wizard
    e.set_footer(
        text=f"Every Wizard: Move {w['move']}, Skill {w['skill']}, Defence {w['defence']}, Health {w['health']}"
    )
    return e


__all__ = [
    "COLOUR",
    "DATA",
    "TARGET_TEXT",
    "cap",
    "crowd_table_text",
    "discipline_embed",
    "icon",
    "model_line",
    "model_name",
    "models",
    "player",
    "pretty",
    "seat_emoji",
    "seat_name",
    "spell_line",
    "spell_table_text",
    "sq",
    "wizard_of",
]
