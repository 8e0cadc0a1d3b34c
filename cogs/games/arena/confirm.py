"""Arena's confirm screens: a move, an Action on a target and a risky Blood Mage's sacrifice are
shown (what happens, and what it costs) before they commit, with Confirm and Back.

- a move (``sq.mv``): the model, from where to where; a warning when it starts next to an enemy
  (the damage, the Health it leaves, and whether it knocks the model out);
- an Action on a target (``act``): the Action, its target, its damage and what the dice compare;
- the Blood Mage's sacrifice (``bp``), only when it can knock out the player's own Wizard.

Confirm carries the choice in its payload (``okm.<square>``, ``oka.<model>``, ``bpok``), Back is
``back`` (the prompt's first screen). The screens belong to the same prompt step as the screen that
led to them, so a Confirm clicked after the move was made (a double click, an old copy) is refused
as out of date by the platform, like any other stale click.
"""

from __future__ import annotations

import discord

from rules.arena import label
from rules.arena.records import DominationJSON

from ..base import Prompt
from .controls import Ctx, action_def, button, seen_of
from .risks import blood_pact_cost, cost_warning, disengage_cost
from .screens import DANGER, SUCCESS, header, new_view
from .text import DATA, cap, model_name, models, sq

Square = tuple[int, int]


def _buttons(ctx: Ctx, confirm: str, payload: str, *, risky: bool) -> discord.ui.View:
    view = new_view()
    view.add_item(button(ctx, confirm, payload, DANGER if risky else SUCCESS, "⚠️" if risky else "✅"))
    view.add_item(button(ctx, "Back", "back", emoji="↩️"))
    return view


def _dominated(ctx: Ctx) -> DominationJSON | None:
    """The Domination the seat is answering (its Minion moves and acts), if that is the question;
    else the activating model moves and acts (the Wizard's activation goes on during a Domination)."""
    dom = seen_of(ctx)["dominate"]
    return dom if dom is not None and ctx.decision is not None and ctx.decision.kind == "dominate" else None


def move_confirm(ctx: Ctx, to: Square) -> Prompt:
    """Confirm a move of the activating (or Dominated) model to ``to``."""
    seen = seen_of(ctx)
    dom = _dominated(ctx)
    act = None if dom else seen["activation"]
    mid = dom["model"] if dom else act["model"] if act else ""
    m = models(seen).get(mid)
    if m is None:
        raise ValueError("That choice is out of date.")
    who = model_name(seen, mid, ctx.names, own=ctx.seat)
    text = f"Move **{who}** from **{sq(m['pos'])}** to **{label(to)}**?"
    cost = disengage_cost(seen, mid) if act is not None else None  # a Dominated move is a spell's: free
    if cost is not None:
        text += "\n\n" + cost_warning(seen, cost, ctx.seat, list(ctx.names))
    view = _buttons(ctx, f"Move to {label(to)}", f"okm.{label(to)}", risky=cost is not None)
    return Prompt(f"move to {label(to)}? Confirm or go back.", [header(ctx, "confirm the move", text)], view)


def act_confirm(ctx: Ctx, target: str) -> Prompt:
    """Confirm the activating (or Dominated) model's Action on ``target``."""
    seen = seen_of(ctx)
    dom = _dominated(ctx)
    act = None if dom else seen["activation"]
    by_id = models(seen)
    actor = by_id.get(dom["model"] if dom else act["model"] if act else "")
    t = by_id.get(target)
    if actor is None or t is None:
        raise ValueError("That target is out of range, obscured or not allowed; choose another.")
    adef = action_def(actor) if act else None
    if dom is not None:  # a Dominated Minion makes its own Action
        adef = DATA.disciplines[actor["discipline"]].minion.action
    name = adef.name if adef else "its Action"
    damage = str(adef.damage) if adef and adef.damage else None
    who = model_name(seen, actor["id"], ctx.names, own=ctx.seat)
    whom = "itself" if t["id"] == actor["id"] else model_name(seen, target, ctx.names, own=ctx.seat)
    text = f"**{cap(who)}** uses **{name}** on **{whom}** ({sq(t['pos'])}, {t['health']}/{t['max_health']} Health)?"
    own = dom["seat"] if dom else ctx.seat
    if t["owner"] != own:
        text += (
            f"\nSkill {actor['stats']['skill']} against Defence {t['stats']['defence']}, each side adding its dice: "
            "a higher total succeeds, a tie is a magical explosion."
        )
        if damage:
            text += f" Damage on a success: {damage}."
    else:
        text += "\nAn ally: it simply happens."
    view = _buttons(ctx, f"{name} on {whom}", f"oka.{target}", risky=False)
    return Prompt(f"{name} on {whom}? Confirm or go back.", [header(ctx, "confirm the Action", text)], view)


def pact_warning(ctx: Ctx) -> str | None:
    """The warning of the Blood Mage's sacrifice when it can knock out the player's own Wizard."""
    seen = seen_of(ctx)
    cost = blood_pact_cost(seen, ctx.seat)
    if cost is None or not cost.can_knock_out:
        return None
    return cost_warning(seen, cost, ctx.seat, list(ctx.names))


def pact_confirm(ctx: Ctx) -> Prompt:
    """Confirm the Blood Mage's sacrifice that can knock out the player's own Wizard."""
    warning = pact_warning(ctx)
    if warning is None:
        raise ValueError("That choice is out of date.")
    text = f"Take the sacrifice's damage to roll one extra die in this Spell Selection?\n\n{warning}"
    view = _buttons(ctx, "Sacrifice anyway", "bpok", risky=True)
    return Prompt("the Blood Mage's sacrifice: confirm or go back.", [header(ctx, "confirm the sacrifice", text)], view)


__all__ = ["act_confirm", "move_confirm", "pact_confirm", "pact_warning"]
