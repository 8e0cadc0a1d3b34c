"""Arena in Discord: the channel prompts (set-up, the turn, the follow-up choices) and the channel post.

Arena is open information (``view(None) == view(seat)``), so the awaited player's prompt is posted in
the channel (``public_prompts``); only that player may use its components (the platform checks).
What the seat is asked is the engine's decision (``ctx.decision``: its ``kind`` picks the screen;
every control is built from its ``choices``, the seat's legal actions, and every click is checked
against them): only legal squares, targets and choices are ever offered. Player 1 and Player 2 are
roles (the view's ``player_one``); the screens follow whoever is asked. A square is chosen with one
select when there are at most 25, else with a column select and then a row select. Prompts are
stateless: each screen's state is in its custom_ids (``sq.mv`` + the chosen square, ``col.mv`` +
the column ...).

Payloads (after ``m:<match>:<seat>:<step>:``): ``dsel`` (a Discipline card), ``dok.<id>`` (choose
it), ``dnm.<id>`` / ``dname.<id>`` (choose it with a name, asked as text), ``rt`` (random terrain),
``edge.<side>``, ``col.<kind>`` / ``sq.<kind>`` (a square in two steps or one: kinds ``mv`` move,
``ws`` witch step, ``tp`` teleport, ``pm`` place minion, ``pt`` place terrain, ``dw``/``dm`` deploy
Wizard/Minion, ``su`` summon), ``fav.<n>`` (spend Crowd Favour), ``sp.<spell>``, ``rr.<die>``
(re-roll), ``sb[.<die>]`` (Noble Scholar), ``bp`` (blood pact), ``decl`` (decline), ``act``
(target select), ``actn`` (an Action without target), ``ext`` (extinguish), ``ea`` (end
activation), ``sel.<model>``, ``et`` / ``etok`` (end turn, confirmed), ``back``, ``any.<i>``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

import discord

from rules import ActionModel, Event, fill_names
from rules.arena import (
    Act,
    BloodPact,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    Decline,
    Deploy,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    PlaceMinion,
    PlaceTerrain,
    RandomTerrain,
    Reroll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    WitchStep,
    label,
    load_data,
    parse_label,
)
from rules.arena.data import ActionDef
from rules.arena.view import ArenaView, ModelView, PlayerView, PromptJSON

from ..base import (
    EMBED_DESCRIPTION,
    EMBED_FIELD_VALUE,
    SELECT_OPTIONS,
    AskText,
    GameUI,
    Lookup,
    Post,
    Prompt,
    PromptContext,
    Submit,
    clip,
)
from ..pictures import SEAT_EMOJI
from .art import EFFECT_WORDS, MODEL_ID, board_file, text_grid, token

DATA = load_data()
COLOUR = discord.Colour.from_rgb(196, 120, 40)
IMAGE_NAME = "arena.png"
EDGE_TEXT = {
    "north": ("⬆️", "North"),
    "south": ("⬇️", "South"),
    "west": ("⬅️", "West"),
    "east": ("➡️", "East"),
}
EDGE_SIDES: dict[str, Literal["north", "south", "west", "east"]] = {
    "north": "north",
    "south": "south",
    "west": "west",
    "east": "east",
}
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


# ------------------------------------------------------------------------------ names and text


def _seat_emoji(seat: int) -> str:
    return SEAT_EMOJI[seat % len(SEAT_EMOJI)]


def _player(view: ArenaView, seat: int) -> PlayerView:
    return view["players"][seat]


def _models(view: ArenaView) -> dict[str, ModelView]:
    return {m["id"]: m for m in view["models"]}


def model_name(view: ArenaView, model_id: str, names: Sequence[str], *, own: int | None = None) -> str:
    """A model as players say it: "Ann's Wizard Morgana", "Bob's Phantasm 2" ("your ..." for ``own``)."""
    m = MODEL_ID.fullmatch(model_id)
    if m is None:
        return model_id
    seat = int(m[1]) - 1
    who = "your" if own == seat else (f"{names[seat]}'s" if seat < len(names) else f"Player {seat + 1}'s")
    p = _player(view, seat)
    if m[2] == "wizard":
        return f"{who} Wizard" + (f" {p['wizard_name']}" if p.get("wizard_name") else "")
    d = DATA.disciplines.get(p.get("discipline") or "")
    kind = d.minion.name if d else "Minion"
    return f"{who} {kind} {m[2][1:]}"


def pretty(text: str, view: ArenaView, names: Sequence[str]) -> str:
    """An engine text with the players' names in and model ids (p2-m1) spelled out."""
    return MODEL_ID.sub(lambda m: model_name(view, m[0], names), fill_names(text, names))


def _sq(pos: Sequence[int]) -> str:
    return label((int(pos[0]), int(pos[1])))


def _effects_text(m: ModelView) -> str:
    words = [EFFECT_WORDS.get(e["kind"], e["kind"]) for e in m.get("effects", [])]
    return (" · " + ", ".join(words)) if words else ""


def model_line(view: ArenaView, m: ModelView, names: Sequence[str], *, own: int | None = None) -> str:
    icon = "🧙" if m["kind"] == "wizard" else "👾"
    health = "☠️ knocked out" if m.get("knocked_out") else f"❤️ {m['health']}/{m['max_health']}"
    st = m["stats"]
    stats = f"M{st['move']} S{st['skill']} D{st['defence']}"
    done = " · done" if m.get("activated") else ""
    return (
        f"`{token(m)}` {icon} {model_name(view, m['id'], names, own=own)} · **{_sq(m['pos'])}** · {health} · "
        f"{stats}{_effects_text(m)}{done}"
    )


def _spell_line(spell_id: str) -> str:
    s = DATA.spell(spell_id)
    rng = f"range {s.range}" if s.range is not None else "no range"
    dmg = f", {s.damage} damage" if s.damage else ""
    return f"**{s.name}** ({rng}{dmg}; targets {TARGET_TEXT.get(s.target, s.target)}): {s.text}"


def discipline_embed(did: str) -> discord.Embed:
    """The card of a Discipline: ability, spell, Minion stats and action."""
    d = DATA.disciplines[did]
    mn = d.minion
    e = discord.Embed(title=f"🧙 {d.name}", description=f"**Ability.** {d.ability}", colour=COLOUR)
    e.add_field(name=f"Discipline Spell: {d.spell.name}", value=_spell_line(d.spell.id), inline=False)
    e.add_field(
        name=f"Minion: {mn.name}",
        value=f"Move {mn.move} · Skill {mn.skill} · Defence {mn.defence} · Health {mn.health}",
        inline=False,
    )
    a = mn.action
    rng = f"range {a.range}" if a.range is not None else "no range"
    dmg = f", {a.damage} damage" if a.damage else ""
    e.add_field(name=f"Minion action: {a.name}", value=f"{rng}{dmg}. {a.text}", inline=False)
    w = DATA.wizard
    e.set_footer(
        text=f"Every Wizard: Move {w['move']}, Skill {w['skill']}, Defence {w['defence']}, Health {w['health']}"
    )
    return e


def spell_embed(spell_id: str) -> discord.Embed:
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


def spell_table_text() -> str:
    lines = []
    for v, sid in sorted(DATA.spell_table.items()):
        lines.append(f"**{v}** — " + ("your Discipline Spell" if sid == "discipline" else DATA.spell(sid).name))
    lines.append("Always: **Arcane Rocket**. A double: any spell.")
    return "\n".join(lines)


def crowd_table_text() -> str:
    return "\n".join(f"**{v}** — {r.name}: {r.text}" for v, r in sorted(DATA.crowd.items()))


# ------------------------------------------------------------------------------ the prompts


def _legal(ctx: PromptContext) -> list[ActionModel]:
    """What the seat may choose now: the engine's decision (nothing when it is not asked)."""
    return list(ctx.decision.choices) if ctx.decision is not None else []


def _prompt(ctx: PromptContext) -> PromptJSON:
    """The prompt the seat answers (its screens are shown only when the decision is a prompt)."""
    p = _seen(ctx)["prompt"]
    if p is None:
        raise ValueError("That button does not belong to this prompt.")
    return p


def _seen(ctx: PromptContext) -> ArenaView:
    """The rules' view of the seat, typed."""
    return cast(ArenaView, ctx.seen)


def _squares(legal: Sequence[ActionModel], kind: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a in legal:
        sq = _square_of(a, kind)
        if sq is not None:
            out.append(sq)
    return sorted(set(out))


def _square_of(a: ActionModel, kind: str) -> tuple[int, int] | None:
    if kind == "mv" and isinstance(a, Move):
        return a.to
    if kind == "ws" and isinstance(a, WitchStep):
        return a.to
    if kind == "tp" and isinstance(a, Teleport):
        return a.to
    if kind == "pm" and isinstance(a, PlaceMinion):
        return a.at
    if kind == "pt" and isinstance(a, PlaceTerrain):
        return a.at
    if kind == "dw" and isinstance(a, Deploy) and a.model == "wizard":
        return a.at
    if kind == "dm" and isinstance(a, Deploy) and a.model == "minion":
        return a.at
    if kind == "su" and isinstance(a, Act) and a.at is not None:
        return a.at
    return None


def _square_action(kind: str, sq: tuple[int, int]) -> ActionModel:
    return {
        "mv": lambda: Move(to=sq),
        "ws": lambda: WitchStep(to=sq),
        "tp": lambda: Teleport(to=sq),
        "pm": lambda: PlaceMinion(at=sq),
        "pt": lambda: PlaceTerrain(at=sq),
        "dw": lambda: Deploy(model="wizard", at=sq),
        "dm": lambda: Deploy(model="minion", at=sq),
        "su": lambda: Act(at=sq),
    }[kind]()


SQUARE_WHAT = {
    "mv": "Move to",
    "ws": "Step to",
    "tp": "Teleport to",
    "pm": "Raise the Minion on",
    "pt": "Put terrain on",
    "dw": "Place your Wizard on",
    "dm": "Place your Minion on",
    "su": "Summon a Minion on",
}


class ArenaUI(GameUI):
    slug = "arena"
    public_prompts = True

    # ------------------------------------------------------------------ reference
    def rules_fields(self) -> list[tuple[str, str]]:
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
                "coordinate, and only legal squares and targets are offered.",
            ),
        ]

    def lookup_choices(self, current: str) -> list[Lookup]:
        cur = current.lower().strip()
        out = [Lookup(did, f"Discipline: {d.name}") for did, d in DATA.disciplines.items()]
        out += [Lookup(sid, f"Spell: {s.name}") for sid, s in DATA.generic.items()]
        out += [Lookup("spell_table", "Table: Spell Selection"), Lookup("crowd_table", "Table: the crowd")]
        out += [Lookup(d.spell.id, f"Spell: {d.spell.name} ({d.name})") for d in DATA.disciplines.values()]
        out += [Lookup(f"minion.{did}", f"Minion: {d.minion.name} ({d.name})") for did, d in DATA.disciplines.items()]
        return [x for x in out if cur in x.label.lower() or cur in x.key]

    def lookup(self, key: str) -> discord.Embed | None:
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

    # ------------------------------------------------------------------ screens
    def _header(self, ctx: PromptContext, title: str, text: str) -> discord.Embed:
        e = discord.Embed(title=clip(f"Arena — {title}", 256), description=clip(text, EMBED_DESCRIPTION), colour=COLOUR)
        turn = _seen(ctx).get("game_turn") or 0
        who = ctx.names[ctx.seat] if ctx.seat < len(ctx.names) else f"Player {ctx.seat + 1}"
        e.set_footer(text=f"Match #{ctx.match_id} · {who}'s move · " + (f"game turn {turn}" if turn else "set-up"))
        return e

    def prompt(self, ctx: PromptContext) -> Prompt:
        legal = _legal(ctx)
        if ctx.decision is None or not legal:
            return Prompt("Nothing to decide right now. Watch the board!")
        screen = {
            "discipline": self._discipline_screen,
            "terrain": self._terrain_screen,
            "edge": self._edge_screen,
            "deploy": self._deploy_screen,
            "crowd": self._crowd_screen,
            "spell": self._spell_screen,
            "reroll": self._reroll_screen,
            "scholar": self._scholar_screen,
            "blood_pact": self._blood_screen,
            "witch_step": self._witch_screen,
            "necro": self._necro_screen,
            "teleport": self._teleport_screen,
            "dominate": self._dominate_screen,
            "action": self._action_screen,
        }.get(ctx.decision.kind)
        if screen is None:
            return self._fallback_screen(ctx, legal)
        return screen(ctx, legal)

    # -- square pickers
    def _square_picker(
        self, ctx: PromptContext, view: discord.ui.View, kind: str, squares: Sequence[tuple[int, int]], what: str = ""
    ) -> None:
        """One select for ≤ 25 squares; else a column select (then a row select on the next screen)."""
        if not squares:
            return
        what = what or SQUARE_WHAT[kind]
        if len(squares) <= SELECT_OPTIONS:
            options = [discord.SelectOption(label=label(sq), value=label(sq)) for sq in squares]
            view.add_item(
                discord.ui.Select(custom_id=ctx.cid(f"sq.{kind}"), placeholder=clip(f"{what}…", 150), options=options)
            )
            return
        cols: dict[int, list[int]] = {}
        for x, y in squares:
            cols.setdefault(x, []).append(y + 1)
        options = [
            discord.SelectOption(
                label=f"Column {chr(65 + x)}",
                value=chr(65 + x),
                description=clip("rows " + ", ".join(map(str, sorted(rows))), 100),
            )
            for x, rows in sorted(cols.items())
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"col.{kind}"),
                placeholder=clip(f"{what}… (1: choose the column)", 150),
                options=options,
            )
        )

    def _row_screen(self, ctx: PromptContext, kind: str, column: str) -> Prompt:
        legal = _legal(ctx)
        squares = [sq for sq in _squares(legal, kind) if chr(65 + sq[0]) == column]
        if not squares:
            raise ValueError(f"No legal square in column {column}; choose another column.")
        what = SQUARE_WHAT[kind]
        e = self._header(ctx, f"{what.lower()}…", f"Column **{column}**: choose the row.")
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"sq.{kind}"),
                placeholder=f"{what}… (2: choose the row in column {column})",
                options=[
                    discord.SelectOption(label=label(sq), value=label(sq), description=f"row {sq[1] + 1}")
                    for sq in sorted(squares, key=lambda s: s[1])
                ],
            )
        )
        view.add_item(discord.ui.Button(label="Back", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("back")))
        return Prompt(f"{what.lower()} a square in column {column}.", [e], view)

    # -- set-up
    def _discipline_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        choices = [a.discipline for a in legal if isinstance(a, ChooseDiscipline)]
        lines = [f"**{DATA.disciplines[d].name}** — {DATA.disciplines[d].ability}" for d in choices]
        e = self._header(
            ctx,
            "choose your Discipline",
            "Pick the Magic Discipline your Wizard follows: its card (ability, Discipline Spell, Minion) is "
            "shown before you confirm, and you may name your Wizard.\n\n" + "\n".join(lines),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid("dsel"),
                placeholder="See a Discipline's card…",
                options=[
                    discord.SelectOption(
                        label=DATA.disciplines[d].name,
                        value=d,
                        description=clip(
                            f"{DATA.disciplines[d].spell.name} · Minion: {DATA.disciplines[d].minion.name}", 100
                        ),
                    )
                    for d in choices
                ],
            )
        )
        return Prompt("choose your Wizard's Discipline.", [e], view)

    def _discipline_card_screen(self, ctx: PromptContext, did: str) -> Prompt:
        if did not in {a.discipline for a in _legal(ctx) if isinstance(a, ChooseDiscipline)}:
            raise ValueError("That Discipline cannot be chosen now.")
        name = DATA.disciplines[did].name
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=clip(f"Choose {name}", 80), style=discord.ButtonStyle.success, custom_id=ctx.cid(f"dok.{did}")
            )
        )
        view.add_item(
            discord.ui.Button(
                label="Choose and name my Wizard…",
                emoji="✍️",
                style=discord.ButtonStyle.primary,
                custom_id=ctx.cid(f"dnm.{did}"),
            )
        )
        view.add_item(
            discord.ui.Button(label="Back to the list", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("back"))
        )
        return Prompt(f"the {name} — choose it, or go back.", [discipline_embed(did)], view)

    def _terrain_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        placed = len(_seen(ctx)["terrain"])
        total = _seen(ctx)["terrain_count"]
        squares = _squares(legal, "pt")
        text = (
            f"Place the terrain: **{total - placed}** of {total} pieces left. Each piece fills one square and "
            "blocks movement and line of sight. Pick a square by coordinate (column, then row); every board "
            "edge keeps at least 2 free squares."
        )
        view = discord.ui.View(timeout=None)
        if any(isinstance(a, RandomTerrain) for a in legal):
            text += "\nOr let the referee lay out all the pieces at random, mirrored about the centre."
            view.add_item(
                discord.ui.Button(
                    label="Random symmetric layout",
                    emoji="🎲",
                    style=discord.ButtonStyle.primary,
                    custom_id=ctx.cid("rt"),
                )
            )
        if _seen(ctx)["terrain_squares"]:
            text += "\nTerrain so far: " + ", ".join(_seen(ctx)["terrain_squares"]) + "."
        self._square_picker(ctx, view, "pt", squares)
        return Prompt(f"place the terrain ({total - placed} left).", [self._header(ctx, "terrain", text)], view)

    def _edge_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        n = _seen(ctx)["grid"]["size"]
        last = _seen(ctx)["grid"]["columns"][-1]
        where = {"north": f"row {n}", "south": "row 1", "west": "column A", "east": f"column {last}"}
        view = discord.ui.View(timeout=None)
        for a in legal:
            if isinstance(a, ChooseEdge):
                emoji, name = EDGE_TEXT[a.side]
                view.add_item(
                    discord.ui.Button(
                        label=f"{name} ({where[a.side]})",
                        emoji=emoji,
                        style=discord.ButtonStyle.primary,
                        custom_id=ctx.cid(f"edge.{a.side}"),
                    )
                )
        e = self._header(
            ctx,
            "choose your edge",
            "Choose the board edge you start on; your opponent gets the opposite one. "
            "You deploy second, on that edge's row.",
        )
        return Prompt("choose your starting edge.", [e], view)

    def _deploy_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        p = _player(_seen(ctx), ctx.seat)
        d = DATA.disciplines[p["discipline"] or ""]
        view = discord.ui.View(timeout=None)
        for kind, what in (("dw", "Place your Wizard on"), ("dm", f"Place your Minion ({d.minion.name}) on")):
            self._square_picker(ctx, view, kind, _squares(legal, kind), what)
        left = [k for k in ("wizard", "minion") if k not in p["deployed"]]
        e = self._header(
            ctx,
            "deploy",
            f"Deploy your {' and '.join(left)} on your edge row ({p['edge']}). Only free squares of your edge are "
            "offered.",
        )
        return Prompt(f"deploy your {' and '.join(left)}.", [e], view)

    # -- the Start Phase and Spell Selection
    def _crowd_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        points = sorted({a.points for a in legal if isinstance(a, SpendFavour)})
        have = _player(_seen(ctx), ctx.seat)["crowd_favour"]
        e = self._header(
            ctx,
            "the crowd",
            f"You have **{have}** Crowd Favour. Spend 1 to roll a D6 on the crowd table; each extra point adds +1 "
            "(above 6 counts as 6).",
        )
        e.add_field(name="Crowd table", value=clip(crowd_table_text(), EMBED_FIELD_VALUE), inline=False)
        view = discord.ui.View(timeout=None)
        for k in points:
            if k > 6:  # 6 points already make any roll a 6
                break
            if k == 0:
                lab, style = "Keep my favour", discord.ButtonStyle.secondary
            else:
                lab, style = f"Spend {k}: D6" + (f" + {k - 1}" if k > 1 else ""), discord.ButtonStyle.primary
            view.add_item(discord.ui.Button(label=lab, style=style, custom_id=ctx.cid(f"fav.{k}")))
        return Prompt("Start Phase: spend Crowd Favour on the crowd?", [e], view)

    def _spell_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        spell = _seen(ctx)["spell"]
        options = [a.spell for a in legal if isinstance(a, ChooseSpell)]
        dice = ", ".join(map(str, spell["values"] if spell else []))
        text = f"You rolled **{dice}**." + (" A double: choose any spell!" if spell and spell["any"] else "")
        text += " Choose your spell for this turn (your Wizard casts it as its Action)."
        e = self._header(ctx, "Spell Selection", text)
        for sid in options:
            e.add_field(name=DATA.spell(sid).name, value=clip(_spell_line(sid), EMBED_FIELD_VALUE), inline=False)
        view = discord.ui.View(timeout=None)
        for sid in options:
            view.add_item(
                discord.ui.Button(
                    label=clip(DATA.spell(sid).name, 80),
                    emoji="📜",
                    style=discord.ButtonStyle.secondary if sid == "arcane_rocket" else discord.ButtonStyle.primary,
                    custom_id=ctx.cid(f"sp.{sid}"),
                )
            )
        return Prompt(f"you rolled {dice}: choose your spell.", [e], view)

    def _roll_text(self, ctx: PromptContext) -> str:
        r = _seen(ctx).get("last_roll") or {}
        what = r.get("label") or str(r.get("purpose", "the roll")).replace("_", " ")
        return f"the roll for {pretty(what, _seen(ctx), ctx.names)}"

    def _reroll_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        p = _prompt(ctx)
        dice = list(p.get("dice") or (_seen(ctx)["last_roll"] or {}).get("dice", []))
        view = discord.ui.View(timeout=None)
        for a in legal:
            if isinstance(a, Reroll):
                shows = f" (shows {dice[a.die]})" if a.die < len(dice) else ""
                view.add_item(
                    discord.ui.Button(
                        label=f"Re-roll die {a.die + 1}{shows}",
                        emoji="🎲",
                        style=discord.ButtonStyle.primary,
                        custom_id=ctx.cid(f"rr.{a.die}"),
                    )
                )
        self._decline_button(ctx, view, legal, "Keep the roll")
        purpose = str(p.get("purpose", "")).replace("_", " ")
        e = self._header(
            ctx,
            "hometown chant",
            f"The crowd chants for you: you may re-roll one die of this {purpose} roll "
            f"(**{', '.join(map(str, dice))}**), once this turn.",
        )
        return Prompt("re-roll a die with the hometown chant?", [e], view)

    def _scholar_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        p = _prompt(ctx)
        r = _seen(ctx)["last_roll"] or {}
        dice = list(r.get("dice", []))
        view = discord.ui.View(timeout=None)
        for a in legal:
            if isinstance(a, ScholarBonus):
                if a.die is None:
                    lab, payload = f"+2 to my {p.get('roll', '')} roll", "sb"
                else:
                    shows = f" (shows {dice[a.die]})" if a.die < len(dice) else ""
                    lab, payload = f"+2 to die {a.die + 1}{shows}", f"sb.{a.die}"
                view.add_item(
                    discord.ui.Button(
                        label=clip(lab, 80), emoji="🎓", style=discord.ButtonStyle.primary, custom_id=ctx.cid(payload)
                    )
                )
        self._decline_button(ctx, view, legal, "No thanks")
        e = self._header(
            ctx,
            "Noble Scholar",
            f"Once per game turn your Noble Scholar may add +2 to a roll, even after rolling. Now: "
            f"{self._roll_text(ctx)}, **{', '.join(map(str, dice))}**.",
        )
        return Prompt("use the Noble Scholar's +2?", [e], view)

    def _blood_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        view = discord.ui.View(timeout=None)
        if any(isinstance(a, BloodPact) for a in legal):
            view.add_item(
                discord.ui.Button(
                    label="Take D6 damage for an extra die",
                    emoji="🩸",
                    style=discord.ButtonStyle.danger,
                    custom_id=ctx.cid("bp"),
                )
            )
        self._decline_button(ctx, view, legal, "No sacrifice")
        wiz = _models(_seen(ctx)).get(f"p{ctx.seat + 1}-wizard")
        hp = f" Your Wizard has {wiz['health']} Health." if wiz else ""
        e = self._header(ctx, "Blood Mage", f"Take D6 damage to roll one extra die in this Spell Selection?{hp}")
        return Prompt("the Blood Mage's sacrifice?", [e], view)

    def _witch_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        view = discord.ui.View(timeout=None)
        self._square_picker(ctx, view, "ws", _squares(legal, "ws"))
        self._decline_button(ctx, view, legal, "Stay where I am")
        wiz = _models(_seen(ctx)).get(f"p{ctx.seat + 1}-wizard")
        at = f" from **{_sq(wiz['pos'])}**" if wiz else ""
        e = self._header(
            ctx, "Green Witch", f"Your Wizard may step up to 2 squares{at}, free (no damage from adjacent enemies)."
        )
        return Prompt("make the Green Witch's free step?", [e], view)

    def _necro_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        view = discord.ui.View(timeout=None)
        self._square_picker(ctx, view, "pm", _squares(legal, "pm"))
        e = self._header(
            ctx, "Necromancer", "You have no Minion on the board: one rises for free within 2 squares of your Wizard."
        )
        return Prompt("place the Necromancer's free Minion.", [e], view)

    def _teleport_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        p = _prompt(ctx)
        mid = str(p.get("model", ""))
        m = _models(_seen(ctx)).get(mid)
        view = discord.ui.View(timeout=None)
        self._square_picker(ctx, view, "tp", _squares(legal, "tp"))
        self._decline_button(ctx, view, legal, "Leave it where it is")
        where = f" (on **{_sq(m['pos'])}**)" if m else ""
        e = self._header(
            ctx,
            "Teleport",
            f"Send {model_name(_seen(ctx), mid, ctx.names, own=ctx.seat)}{where} up to 4 squares away, over terrain "
            "and models.",
        )
        return Prompt("where does the Teleport send it?", [e], view)

    def _dominate_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        d = _seen(ctx)["dominate"]
        mid = d["model"] if d else ""
        view = discord.ui.View(timeout=None)
        self._square_picker(ctx, view, "mv", _squares(legal, "mv"), "Move it to")
        self._target_select(ctx, view, legal, mid)
        self._decline_button(ctx, view, legal, "End the Domination")
        e = self._header(
            ctx,
            "Dominate",
            f"You control {model_name(_seen(ctx), mid, ctx.names)}: move it (up to its Move) and make its Action "
            "against a target you choose.",
        )
        m = _models(_seen(ctx)).get(mid)
        if m:
            e.add_field(name="Dominated", value=model_line(_seen(ctx), m, ctx.names), inline=False)
        return Prompt("move and act with the Dominated Minion.", [e], view)

    def _decline_button(self, ctx: PromptContext, view: discord.ui.View, legal: list[ActionModel], text: str) -> None:
        if any(isinstance(a, Decline) for a in legal):
            view.add_item(discord.ui.Button(label=text, style=discord.ButtonStyle.secondary, custom_id=ctx.cid("decl")))

    def _target_select(
        self, ctx: PromptContext, view: discord.ui.View, legal: list[ActionModel], actor_id: str
    ) -> None:
        targets = [a.target for a in legal if isinstance(a, Act) and a.target is not None]
        if not targets:
            return
        models = _models(_seen(ctx))
        actor = models.get(actor_id)
        adef = self._action_def(actor)
        what = f"{adef.name} on" if adef else "Target"
        options = []
        for t in targets:
            m = models.get(t)
            if m is None:
                continue
            dist = abs(m["pos"][0] - actor["pos"][0]) + abs(m["pos"][1] - actor["pos"][1]) if actor else 0
            dom = _seen(ctx)["dominate"]
            ally = m["owner"] == (dom["seat"] if dom else ctx.seat) and t != actor_id
            hp = f"{m['health']}/{m['max_health']} HP"
            desc = (
                f"{hp} · Defence {m['stats']['defence']} · {dist} away"
                if not ally
                else f"{hp} · ally: it simply happens"
            )
            if t == actor_id:
                desc = "itself"
            options.append(
                discord.SelectOption(
                    label=clip(f"{model_name(_seen(ctx), t, ctx.names, own=ctx.seat)} on {_sq(m['pos'])}", 100),
                    value=t,
                    description=clip(desc, 100),
                    emoji="🧙" if m["kind"] == "wizard" else "👾",
                )
            )
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid("act"), placeholder=clip(f"{what}…", 150), options=options[:SELECT_OPTIONS]
            )
        )

    def _action_def(self, actor: ModelView | None) -> ActionDef | None:
        """The Action the model may take now (the view's ``action``: its Minion action, or the
        Wizard's selected spell until it is cast)."""
        return DATA.action(actor["action"]) if actor and actor["action"] else None

    # -- the Action Phase
    def _action_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        view = discord.ui.View(timeout=None)
        models = _models(_seen(ctx))
        act = _seen(ctx).get("activation")
        spell = _seen(ctx)["spell"]
        spell_name = DATA.spell(spell["selected"]).name if spell and spell["selected"] else "—"
        cast = " (cast)" if spell and spell["cast"] else ""
        selects = [a.model for a in legal if isinstance(a, SelectModel)]
        if act is None:
            text = (
                f"Your spell this turn: **{spell_name}**{cast}. Choose a model to activate: it may Move and take "
                "its Action, in either order. Or end your turn."
            )
            title = "Action Phase"
            content = "Action Phase: activate a model or end your turn."
        else:
            mid = act["model"]
            m = models.get(mid)
            adef = self._action_def(m)
            did = []
            did.append("has moved" if act.get("moved") else "may still Move")
            did.append("has taken its Action" if act.get("acted") else "may still take its Action")
            title = f"activating {model_name(_seen(ctx), mid, ctx.names, own=ctx.seat)}"
            text = f"{model_name(_seen(ctx), mid, ctx.names, own=ctx.seat).capitalize()} {' and '.join(did)}."
            if adef is not None and not act.get("acted"):
                text += "\nAction: " + (_spell_line(adef.id) if adef.is_spell else f"**{adef.name}**: {adef.text}")
            content = f"{title}: move, act, or end the activation."
            self._square_picker(ctx, view, "mv", _squares(legal, "mv"))
            self._target_select(ctx, view, legal, mid)
            self._square_picker(ctx, view, "su", _squares(legal, "su"))
            if any(isinstance(a, Act) and a.target is None and a.at is None for a in legal):
                name = adef.name if adef else "the spell"
                view.add_item(
                    discord.ui.Button(
                        label=clip(f"Cast {name}", 80),
                        emoji="🌊",
                        style=discord.ButtonStyle.primary,
                        custom_id=ctx.cid("actn"),
                    )
                )
            if any(isinstance(a, Extinguish) for a in legal):
                view.add_item(
                    discord.ui.Button(
                        label="Put out the flames",
                        emoji="🧯",
                        style=discord.ButtonStyle.primary,
                        custom_id=ctx.cid("ext"),
                    )
                )
            if any(isinstance(a, EndActivation) for a in legal):
                view.add_item(
                    discord.ui.Button(
                        label="End activation", emoji="✔️", style=discord.ButtonStyle.success, custom_id=ctx.cid("ea")
                    )
                )
        for sel in selects:
            m = models[sel]
            verb = "Activate" if act is None else "Switch to"
            view.add_item(
                discord.ui.Button(
                    label=clip(f"{verb} {model_name(_seen(ctx), sel, ctx.names, own=ctx.seat)} ({_sq(m['pos'])})", 80),
                    emoji="🧙" if m["kind"] == "wizard" else "👾",
                    style=discord.ButtonStyle.primary if act is None else discord.ButtonStyle.secondary,
                    custom_id=ctx.cid(f"sel.{sel}"),
                )
            )
        if any(isinstance(a, EndTurn) for a in legal):
            view.add_item(
                discord.ui.Button(
                    label="End turn", emoji="⏹️", style=discord.ButtonStyle.danger, custom_id=ctx.cid("et")
                )
            )
        e = self._header(ctx, title, text)
        mine = [
            model_line(_seen(ctx), m, ctx.names, own=ctx.seat) for m in _seen(ctx)["models"] if m["owner"] == ctx.seat
        ]
        e.add_field(name="Your models", value=clip("\n".join(mine) or "—", EMBED_FIELD_VALUE), inline=False)
        return Prompt(content, [e], view)

    def _end_turn_confirm(self, ctx: PromptContext) -> Prompt:
        e = self._header(ctx, "end your turn?", "Some of your models can still move or act. End your turn anyway?")
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(label="Yes, end my turn", style=discord.ButtonStyle.danger, custom_id=ctx.cid("etok"))
        )
        view.add_item(discord.ui.Button(label="Back", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("back")))
        return Prompt("end your turn?", [e], view)

    def _fallback_screen(self, ctx: PromptContext, legal: list[ActionModel]) -> Prompt:
        """A choice this UI does not know: one button per legal action (at most 25)."""
        view = discord.ui.View(timeout=None)
        for i, a in enumerate(legal[:25]):
            view.add_item(discord.ui.Button(label=clip(str(a.to_json()), 80), custom_id=ctx.cid(f"any.{i}")))
        return Prompt("your move.", [self._header(ctx, "your move", "Choose one of the legal actions.")], view)

    # ------------------------------------------------------------------ clicks
    def handle(self, ctx: PromptContext, payload: str, values: Sequence[str]) -> Submit | Prompt | AskText:
        head, _, arg = payload.partition(".")
        legal = _legal(ctx)

        def submit(action: ActionModel, why: str = "That choice is not legal now.") -> Submit:
            if action not in legal:
                raise ValueError(why)
            return Submit(action)

        if head == "back":
            return self.prompt(ctx)
        if head == "dsel":
            return self._discipline_card_screen(ctx, values[0] if values else "")
        if head == "dok":
            return submit(ChooseDiscipline(discipline=arg), "That Discipline cannot be chosen now.")
        if head == "dnm":
            if arg not in DATA.disciplines:
                raise ValueError("Unknown Discipline.")
            return AskText(
                f"Name your {DATA.disciplines[arg].name}",
                "Your Wizard's name",
                f"dname.{arg}",
                placeholder="e.g. Morgana the Bold",
                max_length=40,
            )
        if head == "dname":
            name = " ".join((values[0] if values else "").split())
            if not name:
                raise ValueError("The name may not be blank.")
            if len(name) > 40:
                raise ValueError("A Wizard's name has at most 40 characters.")
            if ChooseDiscipline(discipline=arg) not in legal:
                raise ValueError("That Discipline cannot be chosen now.")
            return Submit(ChooseDiscipline(discipline=arg, name=name))
        if head == "rt":
            return submit(RandomTerrain(), "Terrain has been placed already: place the rest by hand.")
        if head == "edge":
            if arg not in EDGE_TEXT:
                raise ValueError("Unknown edge.")
            return submit(ChooseEdge(side=EDGE_SIDES[arg]))
        if head == "col":
            if arg not in SQUARE_WHAT or not values:
                raise ValueError("That button does not belong to this prompt.")
            return self._row_screen(ctx, arg, values[0])
        if head == "sq":
            if arg not in SQUARE_WHAT or not values:
                raise ValueError("That button does not belong to this prompt.")
            sq = parse_label(values[0])
            return submit(_square_action(arg, sq), f"{label(sq)} is not a legal square now; choose another.")
        if head == "fav":
            return submit(SpendFavour(points=int(arg)), "You cannot spend that much Crowd Favour.")
        if head == "sp":
            return submit(ChooseSpell(spell=arg), "That spell is not among your options this turn.")
        if head == "rr":
            return submit(Reroll(die=int(arg)))
        if head == "sb":
            return submit(ScholarBonus(die=int(arg)) if arg else ScholarBonus())
        if head == "bp":
            return submit(BloodPact())
        if head == "decl":
            return submit(Decline())
        if head == "act":
            target = values[0] if values else ""
            return submit(Act(target=target), "That target is out of range, obscured or not allowed; choose another.")
        if head == "actn":
            return submit(Act())
        if head == "ext":
            return submit(Extinguish())
        if head == "ea":
            return submit(EndActivation())
        if head == "sel":
            return submit(SelectModel(model=arg), "That model cannot be activated now.")
        if head == "et":
            if any(isinstance(a, SelectModel) for a in legal) or any(isinstance(a, Move | Act) for a in legal):
                return self._end_turn_confirm(ctx)
            return submit(EndTurn())
        if head == "etok":
            return submit(EndTurn())
        if head == "any":
            i = int(arg)
            if not 0 <= i < len(legal):
                raise ValueError("That choice is out of date.")
            return Submit(legal[i])
        raise ValueError("That button does not belong to this prompt.")

    # ------------------------------------------------------------------ the channel
    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        return self.public_post(view, events, names, images=False).embeds

    def public_post(
        self, seen: Mapping[str, Any], events: Sequence[Event], names: Sequence[str], *, images: bool
    ) -> Post:
        view = cast(ArenaView, seen)
        public = [e for e in events if e.visible_to is None]
        embeds: list[discord.Embed] = []
        lines = [
            f"{EVENT_ICON.get(ev.kind, '•')} {pretty(ev.text, view, names)}"
            for ev in public
            if ev.kind not in QUIET_EVENTS
        ]
        if lines:
            embeds.append(
                discord.Embed(title=self._post_title(view, names), description=_fit_lines(lines), colour=COLOUR)
            )
        end = next((ev for ev in public if ev.kind == "game_end"), None)
        if end is not None:
            embeds.append(
                discord.Embed(
                    title="🏆 The fight is over",
                    description=clip(pretty(end.text, view, names), 4096),
                    colour=discord.Colour.gold(),
                )
            )
        board = self.board_embed(view, names, text=not images)
        files: list[discord.File] = []
        if images:
            files.append(board_file(view, names, public, IMAGE_NAME))
            board.set_image(url=f"attachment://{IMAGE_NAME}")
        embeds.append(board)
        return Post(embeds, files)

    def _post_title(self, view: ArenaView, names: Sequence[str]) -> str:
        turn = view.get("game_turn") or 0
        if view.get("phase") == "over":
            return "Arena — the end"
        if not turn:
            return "Arena — set-up"
        active = view.get("active")
        who = names[active] if isinstance(active, int) and active < len(names) else "?"
        return f"Arena — game turn {turn} · {who}'s turn"

    def board_embed(self, view: ArenaView, names: Sequence[str], *, text: bool) -> discord.Embed:
        n = view["grid"]["size"]
        e = discord.Embed(title=f"Board {n}×{n}", colour=COLOUR)
        if text:
            e.description = clip(
                text_grid(view)
                + "\nRow 1 is the south edge. `##` terrain · `W1`/`w2` Wizards · `M1`/`m1` Minions (upper case: "
                f"{names[0]}, lower case: {names[1]}) · `X` knocked out.",
                EMBED_DESCRIPTION,
            )
        models = view["models"]
        for p in view["players"]:
            s = p["seat"]
            lines = []
            if p.get("discipline_name"):
                lines.append(
                    f"🧙 {p['discipline_name']}" + (f" · **{p['wizard_name']}**" if p.get("wizard_name") else "")
                )
            else:
                lines.append("🧙 choosing a Discipline")
            if p.get("edge"):
                lines.append(f"🧭 {p['edge']} edge")
            lines.append(f"⭐ Crowd Favour **{p['crowd_favour']}**" + (" · 📣 chant" if p.get("chant") else ""))
            lines += [model_line(view, m, names) for m in models if m["owner"] == s]
            name = names[s] if s < len(names) else f"Player {s + 1}"
            e.add_field(
                name=clip(f"{_seat_emoji(s)} {name}", 256),
                value=clip("\n".join(lines), EMBED_FIELD_VALUE),
                inline=False,
            )
        spell = view["spell"]
        status = []
        if view["phase"] != "over" and view["game_turn"]:
            if spell and spell["selected"]:
                status.append(
                    f"📜 Spell: **{DATA.spell(spell['selected']).name}**" + (" (cast)" if spell["cast"] else "")
                )
            elif spell and spell["options"]:
                status.append("📜 Options: " + ", ".join(DATA.spell(s).name for s in spell["options"]))
            act = view.get("activation")
            if act:
                status.append(f"▶️ Activating {model_name(view, act['model'], names)}")
        r = view.get("last_roll")
        if r:
            what = pretty(r.get("label") or str(r.get("purpose", "")).replace("_", " "), view, names)
            status.append(f"🎲 Last roll ({what}): " + ", ".join(map(str, r.get("dice", []))))
        if status:
            e.add_field(name="Now", value=clip("\n".join(status), EMBED_FIELD_VALUE), inline=False)
        e.set_footer(text="Row 1 is the south edge · /card game:arena shows Disciplines and spells")
        return e


def _fit_lines(lines: list[str], limit: int = EMBED_DESCRIPTION) -> str:
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


UI = ArenaUI()
