"""The components Arena's screens share: buttons, the square pickers and the target select.

Every control is built from the decision's choices (the seat's legal actions), so only legal squares
and targets are offered. A square is picked with one select when there are at most 25, else with a
column select (payload ``col.<kind>``) and then, on the next screen, a row select (``sq.<kind>``).
The square kinds name the action a square stands for (``SQUARE_KINDS``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

from rules import ActionModel
from rules.arena import Act, Decline, Deploy, Move, PlaceMinion, PlaceTerrain, Teleport, WitchStep, label
from rules.arena.data import ActionDef
from rules.arena.view import ArenaView, ModelView

from ..base import SELECT_OPTIONS, PromptContext, clip
from .text import DATA, icon, model_name, models, sq

Square = tuple[int, int]


@dataclass(frozen=True)
class SquareKind:
    """What a square stands for: the placeholder's verb, the square of a legal action of this kind
    (or None), and the action for a square."""

    what: str
    square_of: Callable[[ActionModel], Square | None]
    action: Callable[[Square], ActionModel]


def _to(kind: type[Move | WitchStep | Teleport]) -> Callable[[ActionModel], Square | None]:
    return lambda a: a.to if isinstance(a, kind) else None


def _deploy(model: str) -> Callable[[ActionModel], Square | None]:
    return lambda a: a.at if isinstance(a, Deploy) and a.model == model else None


#: The square kinds of the payloads ``sq.<kind>`` and ``col.<kind>``.
SQUARE_KINDS: dict[str, SquareKind] = {
    "mv": SquareKind("Move to", _to(Move), lambda s: Move(to=s)),
    "ws": SquareKind("Step to", _to(WitchStep), lambda s: WitchStep(to=s)),
    "tp": SquareKind("Teleport to", _to(Teleport), lambda s: Teleport(to=s)),
    "pm": SquareKind(
        "Raise the Minion on", lambda a: a.at if isinstance(a, PlaceMinion) else None, lambda s: PlaceMinion(at=s)
    ),
    "pt": SquareKind(
        "Put terrain on", lambda a: a.at if isinstance(a, PlaceTerrain) else None, lambda s: PlaceTerrain(at=s)
    ),
    "dw": SquareKind("Place your Wizard on", _deploy("wizard"), lambda s: Deploy(model="wizard", at=s)),
    "dm": SquareKind("Place your Minion on", _deploy("minion"), lambda s: Deploy(model="minion", at=s)),
    "su": SquareKind("Summon a Minion on", lambda a: a.at if isinstance(a, Act) else None, lambda s: Act(at=s)),
}


#: an Arena prompt's context: what the seat sees is Arena's view
Ctx = PromptContext[ArenaView]


def seen_of(ctx: Ctx) -> ArenaView:
    """The rules' view of the seat."""
    return ctx.seen


def squares(legal: Sequence[ActionModel], kind: str) -> list[Square]:
    """The squares of the legal actions of ``kind``, sorted by column then row."""
    square_of = SQUARE_KINDS[kind].square_of
    return sorted({s for a in legal if (s := square_of(a)) is not None})


def button(
    ctx: Ctx,
    text: str,
    payload: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
) -> discord.ui.Button[discord.ui.View]:
    """A button of the prompt (its label clipped to Discord's 80 characters)."""
    return discord.ui.Button(label=clip(text, 80), emoji=emoji, style=style, custom_id=ctx.cid(payload))


def decline_button(ctx: Ctx, view: discord.ui.View, legal: Sequence[ActionModel], text: str) -> None:
    """The Decline button, when declining is a choice."""
    if any(isinstance(a, Decline) for a in legal):
        view.add_item(button(ctx, text, "decl"))


def square_picker(ctx: Ctx, view: discord.ui.View, kind: str, squares: Sequence[Square], what: str = "") -> None:
    """One select for ≤ 25 squares; else a column select (then a row select on the next screen)."""
    if not squares:
        return
    what = what or SQUARE_KINDS[kind].what
    if len(squares) <= SELECT_OPTIONS:
        options = [discord.SelectOption(label=label(s), value=label(s)) for s in squares]
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


def row_select(ctx: Ctx, kind: str, column: str, squares: Sequence[Square]) -> discord.ui.Select[discord.ui.View]:
    """The second step of a square picker: the rows of ``column``."""
    return discord.ui.Select(
        custom_id=ctx.cid(f"sq.{kind}"),
        placeholder=f"{SQUARE_KINDS[kind].what}… (2: choose the row in column {column})",
        options=[
            discord.SelectOption(label=label(s), value=label(s), description=f"row {s[1] + 1}")
            for s in sorted(squares, key=lambda s: s[1])
        ],
    )


def action_def(actor: ModelView | None) -> ActionDef | None:
    """The Action the model may take now (the view's ``action``: its Minion action, or the
    Wizard's selected spell until it is cast)."""
    return DATA.action(actor["action"]) if actor and actor["action"] else None


def _target_option(ctx: Ctx, seen: ArenaView, m: ModelView, actor: ModelView | None) -> discord.SelectOption:
    """A target of the actor's Action: name and square, Health, and Defence and distance (an enemy)
    or "ally" (an ally simply gets the effect) or "itself"."""
    t = m["id"]
    actor_id = actor["id"] if actor else None
    dist = abs(m["pos"][0] - actor["pos"][0]) + abs(m["pos"][1] - actor["pos"][1]) if actor else 0
    dom = seen["dominate"]
    ally = m["owner"] == (dom["seat"] if dom else ctx.seat) and t != actor_id
    hp = f"{m['health']}/{m['max_health']} HP"
    desc = f"{hp} · Defence {m['stats']['defence']} · {dist} away" if not ally else f"{hp} · ally: it simply happens"
    if t == actor_id:
        desc = "itself"
    return discord.SelectOption(
        label=clip(f"{model_name(seen, t, ctx.names, own=ctx.seat)} on {sq(m['pos'])}", 100),
        value=t,
        description=clip(desc, 100),
        emoji=icon(m),
    )


def target_select(ctx: Ctx, view: discord.ui.View, legal: Sequence[ActionModel], actor_id: str) -> None:
    """The select of the legal targets of the actor's Action (payload ``act``, the target as value)."""
    targets = [a.target for a in legal if isinstance(a, Act) and a.target is not None]
    if not targets:
        return
    seen = seen_of(ctx)
    by_id = models(seen)
    actor = by_id.get(actor_id)
    adef = action_def(actor)
    what = f"{adef.name} on" if adef else "Target"
    options = [_target_option(ctx, seen, by_id[t], actor) for t in targets if t in by_id]
    view.add_item(
        discord.ui.Select(custom_id=ctx.cid("act"), placeholder=clip(f"{what}…", 150), options=options[:SELECT_OPTIONS])
    )
