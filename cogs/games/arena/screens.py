"""Arena's prompt screens: the first screen of each decision kind (``SCREENS``) and the second
screens a click leads to (a Discipline's card, a column's rows, the end-of-turn confirmation).

Every control is built from the decision's choices (the seat's legal actions, ``legal``); the texts
read the rules' typed view (``ArenaView``). The payloads the components carry are documented in
``prompts``, whose handlers lead back here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from rules import ActionModel
from rules.arena import (
    Act,
    BloodPact,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    EndActivation,
    EndTurn,
    Extinguish,
    RandomTerrain,
    Reroll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
)
from rules.arena.records import ActivationJSON
from rules.arena.view import ArenaView, PromptJSON

from ..base import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, Prompt, PromptContext, clip
from .controls import (
    SQUARE_KINDS,
    Ctx,
    action_def,
    button,
    decline_button,
    row_select,
    seen_of,
    square_picker,
    squares,
    target_select,
)
from .risks import blood_pact_cost, cost_warning, disengage_cost
from .text import (
    COLOUR,
    DATA,
    cap,
    crowd_table_text,
    discipline_embed,
    icon,
    model_line,
    model_name,
    models,
    player,
    pretty,
    seat_name,
    spell_line,
    sq,
    wizard_of,
)

Screen = Callable[[PromptContext, list[ActionModel]], Prompt]

PRIMARY, SECONDARY = discord.ButtonStyle.primary, discord.ButtonStyle.secondary
SUCCESS, DANGER = discord.ButtonStyle.success, discord.ButtonStyle.danger
EDGE_TEXT: dict[str, tuple[str, str]] = {
    "north": ("⬆️", "North"),
    "south": ("⬇️", "South"),
    "west": ("⬅️", "West"),
    "east": ("➡️", "East"),
}
#: Crowd Favour worth spending at most: 6 points (D6 + 5) already make any crowd roll a 6.
USEFUL_FAVOUR = 6
FOREIGN = "That button does not belong to this prompt."


def legal_of(ctx: Ctx) -> list[ActionModel]:
    """What the seat may choose now: the engine's decision (nothing when it is not asked)."""
    return list(ctx.decision.choices) if ctx.decision is not None else []


def _prompt(ctx: Ctx) -> PromptJSON:
    """The prompt the seat answers (its screens are shown only when the decision is a prompt)."""
    p = seen_of(ctx)["prompt"]
    if p is None:
        raise ValueError(FOREIGN)
    return p


def header(ctx: Ctx, title: str, text: str) -> discord.Embed:
    """A screen's embed: "Arena — <title>", the text, and whose move it is in which game turn."""
    e = discord.Embed(title=clip(f"Arena — {title}", 256), description=clip(text, EMBED_DESCRIPTION), colour=COLOUR)
    turn = seen_of(ctx).get("game_turn") or 0
    who = seat_name(ctx.names, ctx.seat)
    e.set_footer(text=f"Match #{ctx.match_id} · {who}'s move · " + (f"game turn {turn}" if turn else "set-up"))
    return e


def new_view() -> discord.ui.View:
    """A screen's components (no timeout: the custom_ids carry the state, see ``prompts``)."""
    return discord.ui.View(timeout=None)


# ------------------------------------------------------------------------------ set-up


def _discipline_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    choices = [DATA.disciplines[a.discipline] for a in legal if isinstance(a, ChooseDiscipline)]
    lines = [f"**{d.name}** — {d.ability}" for d in choices]
    e = header(
        ctx,
        "choose your Discipline",
        "Pick the Magic Discipline your Wizard follows: its card (ability, Discipline Spell, Minion) is "
        "shown before you confirm, and you may name your Wizard.\n\n" + "\n".join(lines),
    )
    options = [
        discord.SelectOption(
            label=d.name, value=d.id, description=clip(f"{d.spell.name} · Minion: {d.minion.name}", 100)
        )
        for d in choices
    ]
    view = new_view()
    view.add_item(discord.ui.Select(custom_id=ctx.cid("dsel"), placeholder="See a Discipline's card…", options=options))
    return Prompt("choose your Wizard's Discipline.", [e], view)


def discipline_card_screen(ctx: Ctx, did: str) -> Prompt:
    """A Discipline's card, to choose it (with or without naming the Wizard) or go back."""
    if did not in {a.discipline for a in legal_of(ctx) if isinstance(a, ChooseDiscipline)}:
        raise ValueError("That Discipline cannot be chosen now.")
    name = DATA.disciplines[did].name
    view = new_view()
    view.add_item(button(ctx, f"Choose {name}", f"dok.{did}", SUCCESS))
    view.add_item(button(ctx, "Choose and name my Wizard…", f"dnm.{did}", PRIMARY, "✍️"))
    view.add_item(button(ctx, "Back to the list", "back"))
    return Prompt(f"the {name} — choose it, or go back.", [discipline_embed(did)], view)


def _terrain_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    seen = seen_of(ctx)
    placed, total = len(seen["terrain"]), seen["terrain_count"]
    text = (
        f"Place the terrain: **{total - placed}** of {total} pieces left. Each piece fills one square and "
        "blocks movement and line of sight. Pick a square by coordinate (column, then row); every board "
        "edge keeps at least 2 free squares."
    )
    view = new_view()
    if any(isinstance(a, RandomTerrain) for a in legal):
        text += "\nOr let the referee lay out all the pieces at random, mirrored about the centre."
        view.add_item(button(ctx, "Random symmetric layout", "rt", PRIMARY, "🎲"))
    if seen["terrain_squares"]:
        text += "\nTerrain so far: " + ", ".join(seen["terrain_squares"]) + "."
    square_picker(ctx, view, "pt", squares(legal, "pt"))
    return Prompt(f"place the terrain ({total - placed} left).", [header(ctx, "terrain", text)], view)


def _edge_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    grid = seen_of(ctx)["grid"]
    n, last = grid["size"], grid["columns"][-1]
    where = {"north": f"row {n}", "south": "row 1", "west": "column A", "east": f"column {last}"}
    view = new_view()
    for a in legal:
        if isinstance(a, ChooseEdge):
            emoji, name = EDGE_TEXT[a.side]
            view.add_item(button(ctx, f"{name} ({where[a.side]})", f"edge.{a.side}", PRIMARY, emoji))
    e = header(
        ctx,
        "choose your edge",
        "Choose the board edge you start on; your opponent gets the opposite one. "
        "You deploy second, on that edge's row.",
    )
    return Prompt("choose your starting edge.", [e], view)


def _deploy_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    p = player(seen_of(ctx), ctx.seat)
    d = DATA.disciplines[p["discipline"] or ""]
    view = new_view()
    for kind, what in (("dw", "Place your Wizard on"), ("dm", f"Place your Minion ({d.minion.name}) on")):
        square_picker(ctx, view, kind, squares(legal, kind), what)
    left = " and ".join(k for k in ("wizard", "minion") if k not in p["deployed"])
    e = header(
        ctx,
        "deploy",
        f"Deploy your {left} on your edge row ({p['edge']}). Only free squares of your edge are offered.",
    )
    return Prompt(f"deploy your {left}.", [e], view)


def row_screen(ctx: Ctx, kind: str, column: str) -> Prompt:
    """A square picker's second step: the legal squares of ``column``."""
    in_column = [s for s in squares(legal_of(ctx), kind) if chr(65 + s[0]) == column]
    if not in_column:
        raise ValueError(f"No legal square in column {column}; choose another column.")
    what = SQUARE_KINDS[kind].what
    e = header(ctx, f"{what.lower()}…", f"Column **{column}**: choose the row.")
    view = new_view()
    view.add_item(row_select(ctx, kind, column, in_column))
    view.add_item(button(ctx, "Back", "back"))
    return Prompt(f"{what.lower()} a square in column {column}.", [e], view)


# ------------------------------------------------------------------------------ the Start Phase


def _crowd_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    points = sorted({a.points for a in legal if isinstance(a, SpendFavour)})
    bound = ctx.decision.bound("points") if ctx.decision is not None else None
    have = bound.high if bound is not None else player(seen_of(ctx), ctx.seat)["crowd_favour"]
    e = header(
        ctx,
        "the crowd",
        f"You have **{have}** Crowd Favour. Spend 1 to roll a D6 on the crowd table; each extra point adds +1 "
        "(above 6 counts as 6).",
    )
    e.add_field(name="Crowd table", value=clip(crowd_table_text(), EMBED_FIELD_VALUE), inline=False)
    view = new_view()
    for k in points:
        if k > USEFUL_FAVOUR:
            break
        if k == 0:
            view.add_item(button(ctx, "Keep my favour", "fav.0"))
        else:
            view.add_item(button(ctx, f"Spend {k}: D6" + (f" + {k - 1}" if k > 1 else ""), f"fav.{k}", PRIMARY))
    return Prompt("Start Phase: spend Crowd Favour on the crowd?", [e], view)


def _spell_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    spell = seen_of(ctx)["spell"]
    options = [a.spell for a in legal if isinstance(a, ChooseSpell)]
    dice = ", ".join(map(str, spell["values"] if spell else []))
    text = f"You rolled **{dice}**." + (" A double: choose any spell!" if spell and spell["any"] else "")
    text += " Choose your spell for this turn (your Wizard casts it as its Action)."
    e = header(ctx, "Spell Selection", text)
    for sid in options:
        e.add_field(name=DATA.spell(sid).name, value=clip(spell_line(sid), EMBED_FIELD_VALUE), inline=False)
    view = new_view()
    for sid in options:
        style = SECONDARY if sid == "arcane_rocket" else PRIMARY
        view.add_item(button(ctx, DATA.spell(sid).name, f"sp.{sid}", style, "📜"))
    return Prompt(f"you rolled {dice}: choose your spell.", [e], view)


def _die_label(text: str, die: int, dice: Sequence[int]) -> str:
    """A button on one die: "<text> <n>" and what it shows (dice are numbered from 1)."""
    return f"{text} {die + 1}" + (f" (shows {dice[die]})" if die < len(dice) else "")


def _reroll_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    p = _prompt(ctx)
    dice = list(p.get("dice") or (seen_of(ctx)["last_roll"] or {}).get("dice", []))
    view = new_view()
    for a in legal:
        if isinstance(a, Reroll):
            view.add_item(button(ctx, _die_label("Re-roll die", a.die, dice), f"rr.{a.die}", PRIMARY, "🎲"))
    decline_button(ctx, view, legal, "Keep the roll")
    purpose = str(p.get("purpose", "")).replace("_", " ")
    e = header(
        ctx,
        "hometown chant",
        f"The crowd chants for you: you may re-roll one die of this {purpose} roll "
        f"(**{', '.join(map(str, dice))}**), once this turn.",
    )
    return Prompt("re-roll a die with the hometown chant?", [e], view)


def _scholar_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    p = _prompt(ctx)
    seen = seen_of(ctx)
    r = seen["last_roll"] or {}
    dice = list(r.get("dice", []))
    view = new_view()
    for a in legal:
        if isinstance(a, ScholarBonus):
            if a.die is None:
                view.add_item(button(ctx, f"+2 to my {p.get('roll', '')} roll", "sb", PRIMARY, "🎓"))
            else:
                view.add_item(button(ctx, _die_label("+2 to die", a.die, dice), f"sb.{a.die}", PRIMARY, "🎓"))
    decline_button(ctx, view, legal, "No thanks")
    what = r.get("label") or str(r.get("purpose", "the roll")).replace("_", " ")
    e = header(
        ctx,
        "Noble Scholar",
        f"Once per game turn your Noble Scholar may add +2 to a roll, even after rolling. Now: "
        f"the roll for {pretty(what, seen, ctx.names)}, **{', '.join(map(str, dice))}**.",
    )
    return Prompt("use the Noble Scholar's +2?", [e], view)


def _blood_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    view = new_view()
    if any(isinstance(a, BloodPact) for a in legal):
        view.add_item(button(ctx, "Take D6 damage for an extra die", "bp", DANGER, "🩸"))
    decline_button(ctx, view, legal, "No sacrifice")
    seen = seen_of(ctx)
    cost = blood_pact_cost(seen, ctx.seat)
    text = "Take the sacrifice's damage to roll one extra die in this Spell Selection?"
    if cost is not None:
        text += "\n\n" + cost_warning(seen, cost, ctx.seat, ctx.names)
    e = header(ctx, "Blood Mage", text)
    return Prompt("the Blood Mage's sacrifice?", [e], view)


# ------------------------------------------------------------------------------ follow-ups in the turn


def _witch_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    view = new_view()
    square_picker(ctx, view, "ws", squares(legal, "ws"))
    decline_button(ctx, view, legal, "Stay where I am")
    wiz = wizard_of(seen_of(ctx), ctx.seat)
    at = f" from **{sq(wiz['pos'])}**" if wiz else ""
    e = header(ctx, "Green Witch", f"Your Wizard may step up to 2 squares{at}, free (no damage from adjacent enemies).")
    return Prompt("make the Green Witch's free step?", [e], view)


def _necro_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    view = new_view()
    square_picker(ctx, view, "pm", squares(legal, "pm"))
    e = header(
        ctx, "Necromancer", "You have no Minion on the board: one rises for free within 2 squares of your Wizard."
    )
    return Prompt("place the Necromancer's free Minion.", [e], view)


def _teleport_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    mid = str(_prompt(ctx).get("model", ""))
    m = models(seen_of(ctx)).get(mid)
    view = new_view()
    square_picker(ctx, view, "tp", squares(legal, "tp"))
    decline_button(ctx, view, legal, "Leave it where it is")
    where = f" (on **{sq(m['pos'])}**)" if m else ""
    e = header(
        ctx,
        "Teleport",
        f"Send {model_name(seen_of(ctx), mid, ctx.names, own=ctx.seat)}{where} up to 4 squares away, over terrain "
        "and models.",
    )
    return Prompt("where does the Teleport send it?", [e], view)


def _dominate_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    seen = seen_of(ctx)
    d = seen["dominate"]
    mid = d["model"] if d else ""
    view = new_view()
    square_picker(ctx, view, "mv", squares(legal, "mv"), "Move it to")
    target_select(ctx, view, legal, mid)
    decline_button(ctx, view, legal, "End the Domination")
    e = header(
        ctx,
        "Dominate",
        f"You control {model_name(seen, mid, ctx.names)}: move it (up to its Move) and make its Action "
        "against a target you choose.",
    )
    m = models(seen).get(mid)
    if m:
        e.add_field(name="Dominated", value=model_line(seen, m, ctx.names), inline=False)
    return Prompt("move and act with the Dominated Minion.", [e], view)


# ------------------------------------------------------------------------------ the Action Phase


def _action_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    """Choose a model to activate (or end the turn); while one is activating, its Move, its Action
    and the end of the activation, and the other models to switch to."""
    seen = seen_of(ctx)
    view = new_view()
    act = seen.get("activation")
    if act is None:
        title, text, content = _choose_model_text(seen)
    else:
        title, text, content = _activation_text(ctx, act)
        _activation_controls(ctx, view, legal, act["model"])
    by_id = models(seen)
    for mid in (a.model for a in legal if isinstance(a, SelectModel)):
        m = by_id[mid]
        verb = "Activate" if act is None else "Switch to"
        caption = f"{verb} {model_name(seen, mid, ctx.names, own=ctx.seat)} ({sq(m['pos'])})"
        view.add_item(button(ctx, caption, f"sel.{mid}", PRIMARY if act is None else SECONDARY, icon(m)))
    if any(isinstance(a, EndTurn) for a in legal):
        view.add_item(button(ctx, "End turn", "et", DANGER, "⏹️"))
    e = header(ctx, title, text)
    mine = [model_line(seen, m, ctx.names, own=ctx.seat) for m in seen["models"] if m["owner"] == ctx.seat]
    e.add_field(name="Your models", value=clip("\n".join(mine) or "—", EMBED_FIELD_VALUE), inline=False)
    return Prompt(content, [e], view)


def _choose_model_text(seen: ArenaView) -> tuple[str, str, str]:
    """Title, text and content of the Action Phase before a model is activated."""
    spell = seen["spell"]
    spell_name = DATA.spell(spell["selected"]).name if spell and spell["selected"] else "—"
    cast_ = " (cast)" if spell and spell["cast"] else ""
    text = (
        f"Your spell this turn: **{spell_name}**{cast_}. Choose a model to activate: it may Move and take "
        "its Action, in either order. Or end your turn."
    )
    return "Action Phase", text, "Action Phase: activate a model or end your turn."


def _activation_text(ctx: Ctx, act: ActivationJSON) -> tuple[str, str, str]:
    """Title, text and content while a model is activating: what it has done, and its Action."""
    seen = seen_of(ctx)
    name = model_name(seen, act["model"], ctx.names, own=ctx.seat)
    adef = action_def(models(seen).get(act["model"]))
    did = [
        "has moved" if act.get("moved") else "may still Move",
        "has taken its Action" if act.get("acted") else "may still take its Action",
    ]
    title = f"activating {name}"
    text = f"{cap(name)} {' and '.join(did)}."
    if adef is not None and not act.get("acted"):
        text += "\nAction: " + (spell_line(adef.id) if adef.is_spell else f"**{adef.name}**: {adef.text}")
    cost = None if act.get("moved") else disengage_cost(seen, act["model"])
    if cost is not None:
        text += f"\nMoving now costs {cost.high} damage: it stands next to an enemy."
    return title, text, f"{title}: move, act, or end the activation."


def _activation_controls(ctx: Ctx, view: discord.ui.View, legal: list[ActionModel], mid: str) -> None:
    """The activating model's controls: Move, the Action's target, a summon, a targetless Action,
    putting out flames, and the end of the activation."""
    square_picker(ctx, view, "mv", squares(legal, "mv"))
    target_select(ctx, view, legal, mid)
    square_picker(ctx, view, "su", squares(legal, "su"))
    if any(isinstance(a, Act) and a.target is None and a.at is None for a in legal):
        adef = action_def(models(seen_of(ctx)).get(mid))
        view.add_item(button(ctx, f"Cast {adef.name if adef else 'the spell'}", "actn", PRIMARY, "🌊"))
    if any(isinstance(a, Extinguish) for a in legal):
        view.add_item(button(ctx, "Put out the flames", "ext", PRIMARY, "🧯"))
    if any(isinstance(a, EndActivation) for a in legal):
        view.add_item(button(ctx, "End activation", "ea", SUCCESS, "✔️"))


def end_turn_confirm(ctx: Ctx) -> Prompt:
    """Ending the turn while models can still move or act: confirm, or go back."""
    e = header(ctx, "end your turn?", "Some of your models can still move or act. End your turn anyway?")
    view = new_view()
    view.add_item(button(ctx, "Yes, end my turn", "etok", DANGER))
    view.add_item(button(ctx, "Back", "back"))
    # the message's whole text when the click edits it (no mention then): it says where we are
    return Prompt("Action Phase: end your turn now, with models that can still move or act?", [e], view)


def fallback_screen(ctx: Ctx, legal: list[ActionModel]) -> Prompt:
    """A choice this UI does not know: one button per legal action (at most 25)."""
    view = new_view()
    for i, a in enumerate(legal[:25]):
        view.add_item(button(ctx, str(a.to_json()), f"any.{i}"))
    return Prompt("your move.", [header(ctx, "your move", "Choose one of the legal actions.")], view)


#: The first screen of each decision kind (``ctx.decision.kind``).
SCREENS: dict[str, Screen] = {
    "discipline": _discipline_screen,
    "terrain": _terrain_screen,
    "edge": _edge_screen,
    "deploy": _deploy_screen,
    "crowd": _crowd_screen,
    "spell": _spell_screen,
    "reroll": _reroll_screen,
    "scholar": _scholar_screen,
    "blood_pact": _blood_screen,
    "witch_step": _witch_screen,
    "necro": _necro_screen,
    "teleport": _teleport_screen,
    "dominate": _dominate_screen,
    "action": _action_screen,
}
