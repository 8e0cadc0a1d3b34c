"""Firewall's private prompts and the handlers of their clicks: the turn (bet, spells and Clone's
target, then a Cast confirmation: its screens and steps are in ``turn``), the Larceny and Recycle
follow-ups, and the chosen-order variant's stock ordering. ``prompt`` gives the first screen of what
the seat is asked; ``handle`` looks a click's payload head up in ``HANDLERS``, the one table from
head to handler. The parts every screen shares are in ``screen``.

What the seat is asked comes from the rules' typed decision (``ctx.decision``: its kind, and the
``bet`` bound that limits the bet select, the steppers and Recycle's range) and its typed view
(``rules.firewall.FirewallView``: the hand, Clone's options, the stolen spells, the bet Recycle
changes). Nothing here restates a rule; the engine refuses what is not legal.

custom_id grammar
-----------------

Every component's custom_id is ``m:<match>:<seat>:<step>:<payload>`` (``cogs.games.base``); the
payload is ``<head>`` or ``<head>.<arg>``. The head's first letter names the decision it answers
(``t`` turn, ``o`` order, ``l`` larceny, ``r`` recycle); a head of another decision is refused as
out of date, an unknown head as foreign. A screen's whole state is in its payloads (nothing in
memory), so a prompt keeps working across restarts. These strings are in messages already posted:
change none of them.

- turn: ``<head>.<bet>.<spells mask, hex>.<clone target or x>`` (bet 0 = not chosen yet; bit n of
  the mask = spell n chosen), with the heads

  - ``tb`` the bet select (its value: the bet);
  - ``tm5``, ``tm1``, ``tp1``, ``tp5`` the bet steppers (-5, -1, +1, +5, within the bet bound);
  - ``ta`` all in (the bound's high end);
  - ``ts`` the spells select (its values: the spell numbers chosen);
  - ``tc`` Clone's target select (its value: the spell copied);
  - ``tr`` review (the Cast confirmation screen); ``tv`` change (back from the review);
  - ``tk`` cast (submits the turn).

- stock order: ``<head>.<order so far>`` (one hex digit per spell, top first; empty at first),
  with ``os`` the select of the next spell, ``of`` the rest in number order, ``ou`` undo, ``or``
  start over (no arg) and ``ok`` confirm (submits the order).
- Larceny: ``<head>.<mask of the stolen spells applied, hex>`` (bit i = the i-th stolen spell),
  with ``ls`` the select (its values: indices into the stolen spells), ``lk`` apply the mask
  (submits) and ``ln`` discard them all (no arg, submits).
- Recycle: ``<head>.<new bet>``, with ``rs`` the select (its value: the new bet), ``rk`` fight
  with that bet (submits) and ``rn`` keep the old bet (no arg, submits).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from rules import Bound
from rules.firewall import DECK, SPELLS, LarcenyChoice, Order, RecycleChoice

from ..base import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, Prompt, PromptContext, Submit, clip
from ..pictures import SEAT_EMOJI
from . import turn
from .common import (
    OUT_OF_DATE,
    Ctx,
    Handler,
    Result,
    asked,
    bet_bound,
    button,
    header,
    int_arg,
    mask_of,
    seen,
    spell_option,
    you,
)
from .labels import SPELL_EMOJI, played, spell_label, spell_line, spell_list

GROUPS = {"turn": "t", "order": "o", "larceny": "l", "recycle": "r"}  # decision kind -> first letter of its heads
FOREIGN = "That button does not belong to this prompt."


# ---------------------------------------------------------------------------------- the stock order
def parse_order(arg: str) -> list[int]:
    """The stock order so far from a payload's arg: one hex digit per spell, top first."""
    try:
        order = [int(ch, 16) for ch in arg]
    except ValueError:
        raise ValueError("That order is not valid; start over.") from None
    if len(set(order)) != len(order) or any(c not in DECK for c in order):
        raise ValueError("That order is not valid; start over.")
    return order


def _order_controls(ctx: Ctx, order: list[int]) -> tuple[str, list[discord.ui.Item[discord.ui.View]]]:
    """The screen's text and its components: pick the next place, or confirm; undo and start over."""
    seq = "".join(f"{c:x}" for c in order)
    rest = [c for c in DECK if c not in order]
    items: list[discord.ui.Item[discord.ui.View]] = []
    if rest:
        text = (
            f"Put your {len(DECK)} spells in the order you will draw them (top first): you draw 5 at the start, then "
            f"3 each round. Pick the spell for place **{len(order) + 1} of {len(DECK)}**."
        )
        items.append(
            discord.ui.Select(
                custom_id=ctx.cid(f"os.{seq}"),
                placeholder=f"Spell for place {len(order) + 1}",
                options=[spell_option(c, str(c)) for c in rest],
            )
        )
        items.append(button("The rest in number order", f"of.{seq}", ctx, style=discord.ButtonStyle.primary))
    else:
        text = "Your order is complete. Confirm to lock it in (it stays secret)."
        items.append(button("Confirm this order", f"ok.{seq}", ctx, emoji="✅", style=discord.ButtonStyle.success))
    if order:
        items += [button("Undo", f"ou.{seq}", ctx), button("Start over", "or", ctx)]
    return text, items


def order_screen(ctx: Ctx, order: list[int]) -> Prompt:
    """The stock order (variant chosen_order): the places chosen so far and the next pick."""
    text, items = _order_controls(ctx, order)
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    e = header(ctx, "order your stock", text)
    if order:
        first = [f"{i}. {SPELL_EMOJI.get(c, '')} {spell_label(c)}" for i, c in enumerate(order, 1)]
        e.add_field(name="Your stock, top first", value="\n".join(first), inline=False)
    return Prompt("", [e], view)


OrderStep = Callable[[PromptContext, list[int], Sequence[str]], Result]


def on_order(step: OrderStep) -> Handler:
    """A stock-order handler: the order so far parsed from the payload, then ``step``."""

    def handler(ctx: Ctx, arg: str, values: Sequence[str]) -> Result:
        return step(ctx, parse_order(arg), values)

    return handler


def place(ctx: Ctx, order: list[int], values: Sequence[str]) -> Result:
    card = int_arg(values[0], "spell") if values else -1
    if card not in DECK or card in order:
        raise ValueError("Pick one of the spells not placed yet.")
    return order_screen(ctx, [*order, card])


def place_rest(ctx: Ctx, order: list[int], values: Sequence[str]) -> Result:
    return order_screen(ctx, order + [c for c in DECK if c not in order])


def undo(ctx: Ctx, order: list[int], values: Sequence[str]) -> Result:
    return order_screen(ctx, order[:-1])


def start_over(ctx: Ctx, order: list[int], values: Sequence[str]) -> Result:
    return order_screen(ctx, [])


def confirm_order(ctx: Ctx, order: list[int], values: Sequence[str]) -> Result:
    if len(order) != len(DECK):
        raise ValueError(f"Place all {len(DECK)} spells first.")
    return Submit(Order(stock=tuple(order)))


# ---------------------------------------------------------------------------------- Larceny and Recycle
def resolving_text(ctx: Ctx) -> str:
    """Both seats' revealed bets and spells of the turn a follow-up interrupts."""
    r = seen(ctx)["resolving"]
    if not r:
        return ""
    return "\n".join(f"{SEAT_EMOJI[s]} {ctx.names[s]} bet {played(r, s)}" for s in (0, 1))


def stolen_spells(ctx: Ctx) -> list[int]:
    """The spells the seat's Larceny stole (the pending follow-up's)."""
    pending = seen(ctx)["pending_choice"]
    return list(pending.get("stolen", [])) if pending is not None else []


def _larceny_view(ctx: Ctx, stolen: list[int], mask: int, applied: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=ctx.cid(f"ls.{mask:x}"),
            placeholder="Spells to apply for you",
            min_values=0,
            max_values=len(stolen),
            options=[spell_option(c, str(i), default=bool(mask >> i & 1)) for i, c in enumerate(stolen)],
        )
    )
    view.add_item(
        button(
            clip(f"Apply {applied}, discard {len(stolen) - applied}", 80),
            f"lk.{mask:x}",
            ctx,
            emoji="🦝",
            style=discord.ButtonStyle.success,
        )
    )
    if mask:
        view.add_item(button("Discard them all", "ln", ctx))
    return view


def larceny_screen(ctx: Ctx, mask: int) -> Prompt:
    """Which stolen spells apply for the thief (bit i of ``mask``: the i-th stolen spell)."""
    stolen = stolen_spells(ctx)
    applied = [c for i, c in enumerate(stolen) if mask >> i & 1]
    dropped = [c for i, c in enumerate(stolen) if not mask >> i & 1]
    text = (
        f"Your Larceny stole {spell_list(stolen)}. Choose the ones that apply **for you**; the others are "
        "discarded.\n\n" + resolving_text(ctx) + "\n\n" + "\n".join(spell_line(c) for c in dict.fromkeys(stolen))
    )
    e = header(ctx, "Larceny", clip(text, EMBED_DESCRIPTION))
    e.add_field(
        name="Your choice",
        value=clip(f"Apply: {spell_list(applied)}\nDiscard: {spell_list(dropped)}", EMBED_FIELD_VALUE),
        inline=False,
    )
    return Prompt("", [e], _larceny_view(ctx, stolen, mask, len(applied)))


def larceny_first_screen(ctx: Ctx) -> Prompt:
    """Larceny's first screen: the selfish spells (those Larceny applies on a time-out) chosen."""
    return larceny_screen(ctx, mask_of(i for i, c in enumerate(stolen_spells(ctx)) if SPELLS[c].selfish))


def larceny_mask(arg: str) -> int:
    """The mask of a Larceny payload (bit i: the i-th stolen spell applies)."""
    try:
        return int(arg or "0", 16)
    except ValueError:
        raise ValueError("That choice is not valid; use your newest prompt.") from None


def larceny_select(ctx: Ctx, arg: str, values: Sequence[str]) -> Result:
    larceny_mask(arg)  # a forged payload is refused even though the select's values replace it
    idx = {int_arg(v, "spell") for v in values}
    if any(not 0 <= i < len(stolen_spells(ctx)) for i in idx):
        raise ValueError("Choose among the stolen spells.")
    return larceny_screen(ctx, mask_of(idx))


def larceny_apply(ctx: Ctx, arg: str, values: Sequence[str]) -> Result:
    mask, stolen = larceny_mask(arg), stolen_spells(ctx)
    if mask >> len(stolen):
        raise ValueError("Choose among the stolen spells.")
    return Submit(LarcenyChoice(apply=tuple(sorted(c for i, c in enumerate(stolen) if mask >> i & 1))))


def larceny_none(ctx: Ctx, arg: str, values: Sequence[str]) -> Result:
    return Submit(LarcenyChoice(apply=()))


def old_bet(ctx: Ctx) -> int:
    """The bet Recycle changes."""
    rc = you(ctx).get("recycle")
    if rc is None:
        raise ValueError(OUT_OF_DATE)
    return rc["bet"]


def recycle_screen(ctx: Ctx, bet: int) -> Prompt:
    """Recycle's new bet, within the decision's bound."""
    old, bound = old_bet(ctx), bet_bound(ctx)
    lo, hi = bound.low, bound.high
    e = header(
        ctx,
        "Recycle",
        f"Recycle lets you change your bet of **{old}** to anything from **{lo}** to **{hi}**: you fight and "
        f"pay with the new bet.\n\n" + resolving_text(ctx),
    )
    e.add_field(name="New bet", value=f"**{bet}**" + (" (unchanged)" if bet == old else f" (was {old})"))
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=ctx.cid(f"rs.{bet}"),
            placeholder=f"New bet ({lo} to {hi})",
            options=[
                discord.SelectOption(
                    label=f"Bet {v}" + (" (keep)" if v == old else f" ({v - old:+d})"), value=str(v), default=v == bet
                )
                for v in range(lo, hi + 1)
            ],
        )
    )
    view.add_item(button(f"Fight with {bet}", f"rk.{bet}", ctx, emoji="♻️", style=discord.ButtonStyle.success))
    if bet != old:
        view.add_item(button(f"Keep {old}", "rn", ctx))
    return Prompt("", [e], view)


RecycleStep = Callable[[PromptContext, int, Bound, str, Sequence[str]], Result]


def on_recycle(step: RecycleStep) -> Handler:
    """A Recycle handler: the old bet and the bound (both refused as out of date when missing), then ``step``."""

    def handler(ctx: Ctx, arg: str, values: Sequence[str]) -> Result:
        old, bound = old_bet(ctx), bet_bound(ctx)
        return step(ctx, old, bound, arg, values)

    return handler


def new_bet(bet: int, old: int, bound: Bound) -> int:
    if bet not in bound:
        raise ValueError(f"Recycle can change your bet of {old} to {bound.low} to {bound.high} only, not {bet}.")
    return bet


def recycle_select(ctx: Ctx, old: int, bound: Bound, arg: str, values: Sequence[str]) -> Result:
    bet = int_arg(values[0], "bet") if values else int_arg(arg, "bet")
    return recycle_screen(ctx, new_bet(bet, old, bound))


def recycle_fight(ctx: Ctx, old: int, bound: Bound, arg: str, values: Sequence[str]) -> Result:
    return Submit(RecycleChoice(bet=new_bet(int_arg(arg, "bet"), old, bound)))


def recycle_keep(ctx: Ctx, old: int, bound: Bound, arg: str, values: Sequence[str]) -> Result:
    return Submit(RecycleChoice(bet=old))


# ---------------------------------------------------------------------------------- entry points
FIRST_SCREENS: dict[str, Callable[[PromptContext], Prompt]] = {
    "turn": turn.first_screen,
    "order": lambda ctx: order_screen(ctx, []),
    "larceny": larceny_first_screen,
    "recycle": lambda ctx: recycle_screen(ctx, old_bet(ctx)),
}

#: payload head -> its handler (the grammar is in the module docstring)
HANDLERS: dict[str, Handler] = {
    "tb": turn.on_turn(turn.choose_bet),
    **{head: turn.on_turn(turn.step_bet(delta)) for head, delta in turn.BET_STEPS.items()},
    "ta": turn.on_turn(turn.all_in),
    "ts": turn.on_turn(turn.choose_spells),
    "tc": turn.on_turn(turn.choose_clone),
    "tr": turn.on_turn(turn.review),
    "tk": turn.on_turn(turn.cast_turn),
    "tv": turn.on_turn(turn.change),
    "os": on_order(place),
    "of": on_order(place_rest),
    "ou": on_order(undo),
    "or": on_order(start_over),
    "ok": on_order(confirm_order),
    "ls": larceny_select,
    "lk": larceny_apply,
    "ln": larceny_none,
    "rs": on_recycle(recycle_select),
    "rk": on_recycle(recycle_fight),
    "rn": on_recycle(recycle_keep),
}


def prompt(ctx: Ctx) -> Prompt:
    """The first screen of what the seat is asked now."""
    first = FIRST_SCREENS.get(asked(ctx) or "")
    return first(ctx) if first is not None else Prompt("Nothing to decide right now: watch the channel!")


def handle(ctx: Ctx, payload: str, values: Sequence[str]) -> Result:
    """A click: its head picks the handler, which gets the payload's arg and the select's values."""
    head, _, arg = payload.partition(".")
    kind = asked(ctx)
    if not head or kind is None or GROUPS.get(kind) != head[0]:
        raise ValueError(OUT_OF_DATE)
    handler = HANDLERS.get(head)
    if handler is None:
        raise ValueError(FOREIGN)
    return handler(ctx, arg, values)
