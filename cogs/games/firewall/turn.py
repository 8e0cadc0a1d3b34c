"""Firewall's turn prompt: the bet (a select of at most 25 amounts, the -5/-1/+1/+5 steppers and all
in, all within the decision's ``bet`` bound), the spells to cast, Clone's target, then the Cast
confirmation. The screen's state, ``TurnChoice``, is in every payload of the screen (the grammar is
in ``prompts``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import discord

from rules import Bound
from rules.firewall import CLONE, SPELLS, Turn
from rules.text import plural

from ..base import EMBED_DESCRIPTION, SELECT_OPTIONS, Prompt, PromptContext, Submit, clip
from ..pictures import SEAT_EMOJI
from .art import bridge_strip
from .common import (
    Ctx,
    Handler,
    Result,
    bet_bound,
    button,
    check_bet,
    header,
    int_arg,
    mask_of,
    seen,
    spell_option,
    you,
)
from .labels import COLOUR, spell_label, spell_line, spell_list

COMMON_BETS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 18, 20, 25, 30, 35, 40, 45, 50)
BET_STEPS = {"tm5": -5, "tm1": -1, "tp1": 1, "tp5": 5}  # the bet buttons: payload head -> change


def bet_choices(bet: int, bound: Bound) -> list[int]:
    """At most 25 bets within ``bound`` (the rules' limits): every amount when they fit, else the
    current bet and its neighbours, all-in and the common amounts."""
    lo, hi = bound.low, bound.high
    if hi - lo < SELECT_OPTIONS:
        return list(range(lo, hi + 1))
    wanted = [bet, hi, bet - 1, bet + 1, bet - 2, bet + 2, bet - 5, bet + 5, *COMMON_BETS]
    out: list[int] = []
    for v in wanted:
        if v in bound and v not in out:
            out.append(v)
    for v in range(lo, hi + 1):  # top up with the smallest remaining amounts
        if len(out) >= SELECT_OPTIONS:
            break
        if v not in out:
            out.append(v)
    return sorted(out[:SELECT_OPTIONS])


def stepped_bet(bet: int, delta: int, bound: Bound) -> int:
    """The bet after a -5/-1/+1/+5 button, within ``bound``; from no bet yet (0), + counts from
    just below the lowest bet and - gives the lowest."""
    start = bet or (bound.low - 1 if delta > 0 else bound.low)
    return max(bound.low, min(bound.high, start + delta))


def _cards(mask: int) -> list[int]:
    """The spell numbers of a turn's mask."""
    return [n for n in sorted(SPELLS) if mask >> n & 1]


def situation(ctx: Ctx) -> str:
    """The bridge strip, both wizards' mana and what the opponent played last."""
    v = seen(ctx)
    me, opp = v["players"][ctx.seat], v["players"][1 - ctx.seat]
    lines = [
        bridge_strip(v),
        f"{SEAT_EMOJI[ctx.seat]} You: **{me['mana']}** mana · "
        f"{SEAT_EMOJI[1 - ctx.seat]} {ctx.names[1 - ctx.seat]}: **{opp['mana']}** mana, {opp['hand_size']} "
        "cards in hand",
    ]
    if opp["last_played"]:
        lines.append(f"Last turn {ctx.names[1 - ctx.seat]} played {spell_list(opp['last_played'])}.")
    if v["muted"]:
        lines.append("🔇 Muteness silences every spell for the rest of this round.")
    return "\n".join(lines)


class TurnChoice(NamedTuple):
    """A turn prompt's state, carried in every payload of its screen."""

    bet: int  # 0: not chosen yet
    spells: list[int]
    clone: int | None

    def payload(self, head: str) -> str:
        return f"{head}.{self.bet}.{mask_of(self.spells):x}.{'x' if self.clone is None else self.clone}"


def auto_clone(ctx: Ctx, spells: Sequence[int], clone: int | None) -> int | None:
    """Clone's target: kept if still valid; the only possible one when there is just one."""
    options = you(ctx)["clone_options"]
    if CLONE not in spells or not options:
        return None
    if clone in options:
        return clone
    return options[0] if len(options) == 1 else None


def parse_turn(ctx: Ctx, arg: str) -> TurnChoice:
    """The turn screen's state from a payload's arg, checked against the seat's bound and hand."""
    parts = arg.split(".")
    if len(parts) != 3:
        raise ValueError("That button does not belong to this prompt; use your newest prompt.")
    bet = int_arg(parts[0], "bet")
    try:
        spells = _cards(int(parts[1], 16))
    except ValueError:
        raise ValueError("That choice of spells is not valid; use your newest prompt.") from None
    clone = None if parts[2] == "x" else int_arg(parts[2], "Clone target")
    if bet != 0:
        check_bet(bet, bet_bound(ctx))
    missing = [c for c in spells if c not in you(ctx)["hand"]]
    if missing:
        raise ValueError(f"{spell_list(missing)} is not in your hand.")
    return TurnChoice(bet, spells, auto_clone(ctx, spells, clone))


def choice_text(ctx: Ctx, choice: TurnChoice) -> str:
    """The bet, the spells and Clone's target chosen so far."""
    bound = bet_bound(ctx)
    bet, spells, clone = choice
    lines = [
        f"Bet: **{bet}** of your {bound.high} mana" if bet else f"Bet: *not chosen yet* ({bound.low} to {bound.high})"
    ]
    lines.append(f"Spells: {spell_list(spells)}")
    if CLONE in spells:
        options = you(ctx)["clone_options"]
        if not options:
            lines.append("Clone: nothing to copy (it fizzles: a bluff).")
        elif clone is None:
            lines.append("Clone copies: *choose below*")
        else:
            lines.append(f"Clone copies: {spell_label(clone)}")
    return "\n".join(lines)


def _bet_select(ctx: Ctx, choice: TurnChoice, bound: Bound) -> discord.ui.Select[discord.ui.View]:
    bet, mana = choice.bet, bound.high
    return discord.ui.Select(
        custom_id=ctx.cid(choice.payload("tb")),
        placeholder=f"Bet: {bet}" if bet else f"Choose your bet ({bound.low} to {mana} mana)",
        options=[
            discord.SelectOption(
                label=f"Bet {v}" + (" (all in)" if v == mana else ""),
                value=str(v),
                description=f"{mana - v} mana left if you pay it",
                default=v == bet,
            )
            for v in bet_choices(bet or bound.low, bound)
        ],
        row=0,
    )


def _bet_buttons(ctx: Ctx, choice: TurnChoice, bound: Bound) -> list[discord.ui.Button[discord.ui.View]]:
    bet = choice.bet
    steps = [
        button(
            f"{delta:+d}".replace("-", "−"),
            choice.payload(head),
            ctx,
            disabled=stepped_bet(bet, delta, bound) == bet or (bet == 0 and delta < 0),
            row=1,
        )
        for head, delta in BET_STEPS.items()
    ]
    return [*steps, button(f"All in ({bound.high})", choice.payload("ta"), ctx, disabled=bet == bound.high, row=1)]


def _spell_selects(ctx: Ctx, choice: TurnChoice) -> list[discord.ui.Select[discord.ui.View]]:
    """The spells select, and Clone's target select when Clone is chosen and has something to copy."""
    hand, spells, options = you(ctx)["hand"], choice.spells, you(ctx)["clone_options"]
    out: list[discord.ui.Select[discord.ui.View]] = [
        discord.ui.Select(
            custom_id=ctx.cid(choice.payload("ts")),
            placeholder="Spells to cast (toggle; none is fine)",
            min_values=0,
            max_values=len(hand),
            options=[spell_option(c, str(c), default=c in spells) for c in hand],
            row=2,
        )
    ]
    if CLONE in spells and options:
        out.append(
            discord.ui.Select(
                custom_id=ctx.cid(choice.payload("tc")),
                placeholder="Which spell does Clone copy?",
                options=[spell_option(c, str(c), default=c == choice.clone, verb="Copy") for c in options],
                row=3,
            )
        )
    return out


def _review_button(ctx: Ctx, choice: TurnChoice) -> discord.ui.Button[discord.ui.View]:
    need_target = CLONE in choice.spells and bool(you(ctx)["clone_options"]) and choice.clone is None
    ready = choice.bet > 0 and not need_target
    label = "Review and cast" if ready else ("Choose a bet first" if not choice.bet else "Choose Clone's target")
    return button(
        label, choice.payload("tr"), ctx, emoji="🔥", style=discord.ButtonStyle.success, disabled=not ready, row=4
    )


def turn_screen(ctx: Ctx, choice: TurnChoice) -> Prompt:
    """The turn: the situation, the choice so far, the hand, and the bet, spell and Clone controls."""
    mine, bound = you(ctx), bet_bound(ctx)
    e = header(ctx, "your turn", situation(ctx))
    e.add_field(name="Your choice (secret)", value=choice_text(ctx, choice), inline=False)
    hand_embed = discord.Embed(
        title="Your hand",
        description=clip("\n".join(spell_line(c) for c in mine["hand"]), EMBED_DESCRIPTION),
        colour=COLOUR,
    )
    hand_embed.set_footer(text=f"{mine['stock_count']} spells left in your stock")
    view = discord.ui.View(timeout=None)
    items = [
        _bet_select(ctx, choice, bound),
        *_bet_buttons(ctx, choice, bound),
        *_spell_selects(ctx, choice),
        _review_button(ctx, choice),
    ]
    for item in items:
        view.add_item(item)
    return Prompt("", [e, hand_embed], view)


def review_screen(ctx: Ctx, choice: TurnChoice) -> Prompt:
    """The Cast confirmation."""
    bet, spells = choice.bet, choice.spells
    e = header(ctx, "cast?", "Once cast, your choice is final. It stays secret until both are ready.")
    e.add_field(name="You cast", value=choice_text(ctx, choice), inline=False)
    view = discord.ui.View(timeout=None)
    view.add_item(
        button(
            f"Cast: bet {bet}, {plural(len(spells), 'spell')}",
            choice.payload("tk"),
            ctx,
            emoji="🔥",
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(button("Change", choice.payload("tv"), ctx, emoji="✏️"))
    return Prompt("", [e], view)


TurnStep = Callable[[PromptContext, TurnChoice, Bound, Sequence[str]], Result]


def on_turn(step: TurnStep) -> Handler:
    """A turn handler: the screen's state parsed from the payload, then ``step``."""

    def handler(ctx: Ctx, arg: str, values: Sequence[str]) -> Result:
        choice = parse_turn(ctx, arg)
        return step(ctx, choice, bet_bound(ctx), values)

    return handler


def choose_bet(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    if len(values) != 1:
        raise ValueError("Choose one bet.")
    bet = int_arg(values[0], "bet")
    check_bet(bet, bound)
    return turn_screen(ctx, choice._replace(bet=bet))


def step_bet(delta: int) -> TurnStep:
    def step(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
        return turn_screen(ctx, choice._replace(bet=stepped_bet(choice.bet, delta, bound)))

    return step


def all_in(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    return turn_screen(ctx, choice._replace(bet=bound.high))


def choose_spells(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    chosen = sorted({int_arg(v, "spell") for v in values})
    missing = [c for c in chosen if c not in you(ctx)["hand"]]
    if missing:
        raise ValueError(f"{spell_list(missing)} is not in your hand.")
    return turn_screen(ctx, choice._replace(spells=chosen, clone=auto_clone(ctx, chosen, choice.clone)))


def choose_clone(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    options = you(ctx)["clone_options"]
    target = int_arg(values[0], "Clone target") if values else -1
    if target not in options:
        raise ValueError(f"Clone can copy {spell_list(options)} only.")
    return turn_screen(ctx, choice._replace(clone=target))


def check_ready(ctx: Ctx, choice: TurnChoice, bound: Bound) -> None:
    """A turn is complete: a bet within the bound, and Clone's target when it needs one."""
    check_bet(choice.bet, bound)
    if CLONE in choice.spells and you(ctx)["clone_options"] and choice.clone is None:
        raise ValueError("Choose which spell Clone copies first.")


def review(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    check_ready(ctx, choice, bound)
    return review_screen(ctx, choice)


def cast_turn(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    check_ready(ctx, choice, bound)
    return Submit(Turn(bet=choice.bet, spells=tuple(choice.spells), clone=choice.clone))


def change(ctx: Ctx, choice: TurnChoice, bound: Bound, values: Sequence[str]) -> Result:
    return turn_screen(ctx, choice)


def first_screen(ctx: Ctx) -> Prompt:
    """The turn's first screen: no bet, no spell."""
    return turn_screen(ctx, TurnChoice(0, [], None))
