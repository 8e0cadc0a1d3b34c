"""What every Firewall prompt screen shares: the typed view and decision of the prompted seat, the
header embed, spell select options, buttons, and the parsing of payload numbers and masks.

The seat's view is ``rules.firewall.FirewallView`` (with its ``you`` block, ``SeatView``) and what it
is asked is ``ctx.decision``: its kind names the screen, its ``bet`` bound limits every bet."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import discord

from rules import Bound
from rules.firewall import SPELLS, FirewallView, SeatView

from ..base import Prompt, PromptContext, Submit, clip
from .labels import COLOUR, SPELL_EMOJI, spell_label

OUT_OF_DATE = "That prompt is out of date: use your newest prompt."

Result = Submit | Prompt
Handler = Callable[[PromptContext, str, Sequence[str]], Result]  # (ctx, the payload's arg, select values)


def spell_option(card: int, value: str, *, default: bool = False, verb: str = "") -> discord.SelectOption:
    """A select option for a spell: its number and name (after ``verb``), its text as the description."""
    return discord.SelectOption(
        label=f"{verb} {spell_label(card)}" if verb else spell_label(card),
        value=value,
        description=clip(SPELLS[card].text, 100),
        emoji=SPELL_EMOJI.get(card),
        default=default,
    )


def mask_of(bits: Iterable[int]) -> int:
    """The bit mask of spell numbers (turn) or of indices into the stolen spells (Larceny)."""
    m = 0
    for b in bits:
        m |= 1 << b
    return m


def int_arg(text: str, what: str) -> int:
    """A number from a payload or a select value, or a readable refusal naming ``what``."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"That {what} is not valid; use your newest prompt.") from None


#: a Firewall prompt's context: what the seat sees is Firewall's view
Ctx = PromptContext[FirewallView]


def seen(ctx: Ctx) -> FirewallView:
    """The rules' view of the seat."""
    return ctx.seen


def you(ctx: Ctx) -> SeatView:
    """What only the prompted seat sees."""
    return seen(ctx)["you"]


def asked(ctx: Ctx) -> str | None:
    """The kind of what the seat is asked now: order, turn, larceny or recycle."""
    return ctx.decision.kind if ctx.decision is not None else None


def bet_bound(ctx: Ctx) -> Bound:
    """The rules' limits of the bet the seat is asked for (the turn's, or Recycle's new bet)."""
    bound = ctx.decision.bound("bet") if ctx.decision is not None else None
    if bound is None:
        raise ValueError(OUT_OF_DATE)
    return bound


def check_bet(bet: int, bound: Bound) -> None:
    """Refuses a bet outside the rules' bound, saying why."""
    if bet not in bound:
        raise ValueError(f"You cannot bet {bet}: bet at least {bound.low} and at most your {bound.high} mana.")


def header(ctx: Ctx, title: str, text: str = "") -> discord.Embed:
    """The prompt's first embed: who the seat plays, the screen's title, the match and the turn."""
    v = seen(ctx)
    opp = ctx.names[1 - ctx.seat]
    e = discord.Embed(title=clip(f"Firewall vs {opp} — {title}", 256), description=text, colour=COLOUR)
    kind = asked(ctx)
    when = "before the first round" if kind == "order" else f"round {v['round']}, turn {v['turn'] + (kind == 'turn')}"
    e.set_footer(text=f"Match #{ctx.match_id} · {when}")
    return e


def button(label: str, payload: str, ctx: Ctx, **kwargs: Any) -> discord.ui.Button[discord.ui.View]:
    """A button of the prompt (secondary unless ``style`` says otherwise)."""
    kwargs.setdefault("style", discord.ButtonStyle.secondary)
    return discord.ui.Button(label=label, custom_id=ctx.cid(payload), **kwargs)
