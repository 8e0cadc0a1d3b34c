"""Magic Duel's private prompts: one screen per decision a seat is asked (``ctx.decision.kind``:
cast a spell in a trick, or draw), and the handlers of their clicks.

Prompts are stateless: the screen's state (the hand indices of the chosen spell, the Risk card) is
in the components' custom_ids. Card ids may contain ``#`` (second deck), which a custom_id cannot
hold, so payloads name cards by their index in the seat's sorted hand, one base-36 character each
(``0``-``9``, ``a``-``z``; ``INDEX``). The hand does not change while the seat's step stays the
same, so an index stays valid.

custom_id grammar
-----------------
Every component's custom_id is ``m:<match>:<seat>:<seat step>:<payload>`` (``CUSTOM_ID_RE`` in
``cogs.games.base``). The payload is ``<head>.<arg>``; ``HANDLERS`` routes it on the head, and a
head answers one decision kind only (``not your turn`` otherwise). ``<spell>`` is the hand indices
of the spell's cards (sorted, possibly none), ``<risk>`` the hand index of the Risk card (or none).
The payloads of this game, all still understood for messages already posted:

========================  ========  ========  ========================================================
payload                   component decision  meaning
========================  ========  ========  ========================================================
``c.<risk>``              select    trick     values: the hand indices of the spell's cards (1 to 4);
                                              the Risk card is kept unless it is one of them
``q.<risk>``              select    trick     the quick pick: one value, the hand indices of a
                                              combination in the hand; then as ``c``
``r.<spell>``             select    trick     the Deck of Risk: value ``-`` (no Risk card) or the
                                              hand index of a card outside the spell
``s.<spell>.<risk>``      button    trick     show that screen; the Clear button sends ``s..``
``p.<spell>.<risk>``      button    trick     Cast: submit the spell (face-up with a Risk card);
                                              disabled while the chosen cards are no combination
                                              (the screen says why)
``d.<n>``                 button    draw      draw ``n`` cards from the Deck of Risk, the rest from
                                              the Deck of Advantage (``n`` within the decision's
                                              ``risk`` bound)
========================  ========  ========  ========================================================

Any other head is refused as not belonging to the prompt; an index outside the hand as out of date.
The screens offer only what the seat may pick (the draw's limits are the decision's ``bounds``);
the engine judges the submitted action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import discord

from rules import Bound
from rules.magic_duel import (
    HAND_SIZE,
    Combo,
    Draw,
    Kind,
    Phase,
    PlayCards,
    SeatView,
    classify,
    combinations_in,
    label,
    not_a_combination,
)
from rules.magic_duel.cards import KIND_BY_SIZE, labels
from rules.text import plural, plural_word

from ..base import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, SELECT_OPTIONS, Prompt, PromptContext, Submit, clip
from .art import hand_file
from .cards import BACK, COLOUR, KIND_EMOJI, card_description, cards_text, combo_text, who
from .posts import standing
from .spell import keep_instead, recast_note

INDEX = "0123456789abcdefghijklmnopqrstuvwxyz"
#: The most cards a spell has (a Raquav).
MAX_SPELL = max(KIND_BY_SIZE)
#: Quick-pick order: Badef (beats Cantrips, ties the rest) sits between Codu and Cantrip.
KIND_STRENGTH = {Kind.JOKULME: 6, Kind.RAQUAV: 5, Kind.THRACK: 4, Kind.CODU: 3, Kind.BADEF: 2, Kind.CANTRIP: 1}

NOT_THIS_PROMPT = "That button does not belong to this prompt."
STALE_HAND = "That choice does not match your hand any more; open your newest prompt."
#: The refusal of a click that answers another decision than the one asked, by the decision it answers.
NOT_YOUR_TURN = {
    Phase.TRICK: "It is not your turn to cast a spell; open your newest prompt.",
    Phase.DRAW: "It is not your turn to draw; open your newest prompt.",
}


# ---------------------------------------------------------------------------------- the context


#: a Magic Duel prompt's context: what the seat sees is Magic Duel's seat view
Ctx = PromptContext[SeatView]


def _seen(ctx: Ctx) -> SeatView:
    """What the prompted seat sees (the rules' seat view)."""
    return ctx.seen


def _hand(ctx: Ctx) -> list[str]:
    return _seen(ctx)["you"]["hand"]


def _kind(ctx: Ctx) -> str | None:
    """What the seat is asked now ("trick", "draw"), or None."""
    return ctx.decision.kind if ctx.decision is not None else None


def _draw_bounds(ctx: Ctx) -> tuple[Bound, int]:
    """The draw's limits: how many cards may come from the Deck of Risk, and how many are drawn
    in all (the rest come from the Deck of Advantage)."""
    decision = ctx.decision
    risk = decision.bound("risk") if decision is not None else None
    advantage = decision.bound("advantage") if decision is not None else None
    if risk is None or advantage is None:
        raise ValueError(NOT_YOUR_TURN[Phase.DRAW])
    return risk, risk.low + advantage.high


def _decode(indices: str, hand: Sequence[str]) -> list[int]:
    """Hand indices from a payload part; ValueError if they are not valid for this hand."""
    out: list[int] = []
    for ch in indices:
        i = INDEX.find(ch)
        if i < 0 or i >= len(hand) or i in out:
            raise ValueError(STALE_HAND)
        out.append(i)
    return out


def _encode(indices: Sequence[int]) -> str:
    return "".join(INDEX[i] for i in sorted(indices))


def quick_picks(hand: Sequence[str]) -> list[tuple[list[int], Combo]]:
    """Every combination in the hand as (hand indices, combination), strongest first, at most 25."""
    combos = []
    for ids in combinations_in(hand):
        combo = classify(ids)
        assert combo is not None  # combinations_in lists combinations only
        combos.append(([hand.index(c) for c in ids], combo))
    combos.sort(key=lambda t: (KIND_STRENGTH[t[1].kind], t[1].value, t[1].suits), reverse=True)
    return combos[:SELECT_OPTIONS]


# ---------------------------------------------------------------------------------- common parts


def _header(ctx: Ctx, title: str, text: str) -> discord.Embed:
    v = _seen(ctx)
    e = discord.Embed(title=f"Magic Duel — {title}", description=clip(text, EMBED_DESCRIPTION), colour=COLOUR)
    trick = v["trick"]
    where = f"hand {v['hand']}" + (f" · trick {trick['number']}" if trick else "")
    if trick and trick["last"]:
        where += " (the last one)"
    e.set_footer(text=f"Match #{ctx.match_id} · {where} · {plural(v['points_to_win'], 'point')} to win")
    return e


def _table_field(ctx: Ctx, e: discord.Embed) -> None:
    """The trick so far (public information) and the standing, for the prompt."""
    v, names = _seen(ctx), ctx.names
    trick = v["trick"]
    if trick and (trick["plays"] or trick["passed"]):
        lines = []
        for p in trick["plays"]:
            if p["cards"]:
                lines.append(f"{who(p['seat'], names)}: {combo_text(p['cards'])} (face-up)")
            else:
                lines.append(f"{who(p['seat'], names)}: {BACK * p['count']} face-down ({p['count']})")
        lines += [f"{who(s, names)}: passes (no cards)" for s in trick["passed"]]
        e.add_field(name="This trick so far", value=clip("\n".join(lines), EMBED_FIELD_VALUE), inline=False)
    e.add_field(name="Standing", value=clip(standing(v, names), EMBED_FIELD_VALUE), inline=False)


def _with_hand(ctx: Ctx, prompt: Prompt) -> Prompt:
    """The hand as the first field (numbered), and its picture. The picture shows the hand only
    (the spell and the Risk card chosen are in the text and the selects): it is the same on every
    screen of a decision, so a click keeps the attachment the message already shows."""
    hand = _hand(ctx)
    e = prompt.embeds[0]
    numbered = " ".join(f"**{i + 1}**·`{label(c)}`" for i, c in enumerate(hand)) or "no cards"
    e.insert_field_at(0, name=f"Your hand ({len(hand)})", value=clip(numbered, EMBED_FIELD_VALUE), inline=False)
    if ctx.images and hand:
        picture = hand_file(hand)
        prompt.files.append(picture)
        e.set_image(url=f"attachment://{picture.filename}")
    return prompt


# ---------------------------------------------------------------------------------- screens


def prompt(ctx: Ctx) -> Prompt:
    """The screen of what the seat is asked now; its hand alone when it is asked nothing."""
    asked = _kind(ctx)
    if asked == Phase.TRICK:
        return trick_screen(ctx, [], None)
    if asked == Phase.DRAW:
        return draw_screen(ctx)
    e = _header(ctx, "your hand", "Nothing to decide right now: the others are casting. Watch the channel!")
    return _with_hand(ctx, Prompt("", [e]))


def _spell_text(hand: Sequence[str], sel: Sequence[int], risk: int | None, note: str, again: bool) -> str:
    """The spell screen's text: what to do, the spell so far (or why it is no combination, while
    Cast is disabled) and the Risk card; ``again``: the trick is cast again after a tie."""
    chosen = [hand[i] for i in sel]
    lines = [
        ("🔁 The trick was tied: cast your spell **again** (why: below). " if again else "Your turn to cast a spell. ")
        + "Choose its cards (one combination) below — or take one from **Quick pick** — then press **Cast**.",
        "Optionally put one other card on the **Deck of Risk** first: then your spell is cast face-up "
        "and everyone sees it at once.",
        "",
    ]
    if note:
        lines.append(f"ℹ️ {note}")
    if not chosen:
        lines.append("**Your spell:** nothing chosen yet.")
    elif (why := not_a_combination(chosen)) is not None:
        lines.append(f"**Your spell:** ⚠️ {cards_text(chosen)} is not a combination: {why}. {keep_instead(chosen)}")
        lines.append("**Cast** stays disabled until your cards make one combination.")
    elif (combo := classify(chosen)) is not None:
        lines.append(f"**Your spell:** {combo_text(combo.cards)} ✅")
    if risk is None:
        lines.append("**Deck of Risk:** no card — your spell will be cast **face-down**.")
    else:
        lines.append(f"**Deck of Risk:** `{label(hand[risk])}` — your spell will be cast **face-up**.")
    return "\n".join(lines)


def _cards_select(ctx: Ctx, hand: Sequence[str], sel: Sequence[int], rk: str) -> discord.ui.Select:
    """``c.<risk>``: the spell's cards, chosen from the hand."""
    return discord.ui.Select(
        custom_id=ctx.cid(f"c.{rk}"),
        placeholder="Cards of your spell (one combination)",
        min_values=1,
        max_values=min(MAX_SPELL, len(hand)),
        options=[
            discord.SelectOption(
                label=f"{i + 1}. {label(c)}", value=INDEX[i], description=card_description(c), default=i in sel
            )
            for i, c in enumerate(hand)
        ][:SELECT_OPTIONS],
    )


def _quick_select(ctx: Ctx, hand: Sequence[str], sel: Sequence[int], rk: str) -> discord.ui.Select | None:
    """``q.<risk>``: a combination of the hand in one pick (None if the hand has none)."""
    quick = quick_picks(hand)
    if not quick:
        return None
    return discord.ui.Select(
        custom_id=ctx.cid(f"q.{rk}"),
        placeholder="Quick pick: a combination in your hand",
        options=[
            discord.SelectOption(
                label=clip(f"{combo.kind.title}: {labels(combo.cards)}", 100),
                value=_encode(idx),
                emoji=KIND_EMOJI[combo.kind.title],
                default=sorted(idx) == sorted(sel),
            )
            for idx, combo in quick
        ],
    )


def _risk_select(ctx: Ctx, hand: Sequence[str], sel: Sequence[int], risk: int | None) -> discord.ui.Select:
    """``r.<spell>``: no Risk card, or one card outside the spell."""
    options = [discord.SelectOption(label="No Risk card: cast face-down", value="-", emoji="🂠", default=risk is None)]
    options += [
        discord.SelectOption(
            label=f"Risk {i + 1}. {label(hand[i])}, cast face-up",
            value=INDEX[i],
            description=card_description(hand[i]),
            default=i == risk,
        )
        for i in range(len(hand))
        if i not in sel
    ][: SELECT_OPTIONS - 1]
    return discord.ui.Select(
        custom_id=ctx.cid(f"r.{_encode(sel)}"), placeholder="Deck of Risk (optional)", options=options
    )


def _spell_buttons(ctx: Ctx, hand: Sequence[str], sel: Sequence[int], risk: int | None) -> list[discord.ui.Button]:
    """``p.<spell>.<risk>`` Cast (once the chosen cards make a combination) and ``s..`` Clear (once
    anything is chosen)."""
    rk = "" if risk is None else INDEX[risk]
    castable = classify([hand[i] for i in sel]) is not None
    cast_label = "Cast face-down" if risk is None else clip(f"Risk {label(hand[risk])} and cast face-up", 80)
    return [
        discord.ui.Button(
            label=cast_label,
            emoji="🪄",
            style=discord.ButtonStyle.success,
            custom_id=ctx.cid(f"p.{_encode(sel)}.{rk}"),
            disabled=not castable,
        ),
        discord.ui.Button(
            label="Clear", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("s.."), disabled=not (sel or rk)
        ),
    ]


def trick_screen(ctx: Ctx, sel: list[int], risk: int | None, note: str = "") -> Prompt:
    """The spell screen: the spell ``sel`` (hand indices) and the Risk card ``risk`` chosen so far."""
    hand = _hand(ctx)
    again = recast_note(_seen(ctx), ctx.names)
    title = "cast your spell again" if again else "cast your spell"
    e = _header(ctx, title, _spell_text(hand, sel, risk, note, again is not None))
    if again is not None:
        e.add_field(name=again[0], value=again[1], inline=False)
    _table_field(ctx, e)
    rk = "" if risk is None else INDEX[risk]
    view = discord.ui.View(timeout=None)
    view.add_item(_cards_select(ctx, hand, sel, rk))
    quick = _quick_select(ctx, hand, sel, rk)
    if quick is not None:
        view.add_item(quick)
    if len(hand) >= 2:  # the Risk card is not one of the spell's
        view.add_item(_risk_select(ctx, hand, sel, risk))
    for button in _spell_buttons(ctx, hand, sel, risk):
        view.add_item(button)
    return _with_hand(ctx, Prompt("", [e], view))


def draw_screen(ctx: Ctx) -> Prompt:
    """The draw screen: a button per split of the draw the decision's bounds allow."""
    v = _seen(ctx)
    risk, need = _draw_bounds(ctx)
    risk_n = v["decks"]["risk"]
    draw = v["draw"]
    lines = [
        f"Refill your hand to {HAND_SIZE}: you draw **{need}** {plural_word(need, 'card')}. Choose how many "
        f"come from the **Deck of Risk** ({plural(risk_n, 'card')}, drawn first, from the top); "
        f"the rest come from the **Deck of Advantage** ({v['decks']['advantage']} cards).",
        "The Cursed Spell hides in the Deck of Advantage: whoever draws it stops at once, the decks close "
        "and one last trick is played.",
    ]
    if draw is not None and draw["winner"] == ctx.seat:
        lines.append("You won the trick: after the draws you take one extra card of advantage and lead.")
    e = _header(ctx, "draw", "\n".join(lines))
    e.add_field(name="Standing", value=clip(standing(v, ctx.names), EMBED_FIELD_VALUE), inline=False)
    view = discord.ui.View(timeout=None)
    for k in range(risk.low, risk.high + 1):
        view.add_item(
            discord.ui.Button(
                label=f"{k} Risk + {need - k} Advantage",
                style=discord.ButtonStyle.primary if k == 0 else discord.ButtonStyle.secondary,
                custom_id=ctx.cid(f"d.{k}"),
            )
        )
    return _with_hand(ctx, Prompt("", [e], view))


# ---------------------------------------------------------------------------------- clicks


def _on_cards(ctx: Ctx, arg: str, values: Sequence[str]) -> Prompt:
    """``c.<risk>`` / ``q.<risk>``: the spell's cards were chosen; a Risk card among them is dropped."""
    hand = _hand(ctx)
    risked = _decode(arg, hand)
    sel = _decode("".join(values), hand)
    if not sel:
        raise ValueError("Choose at least one card.")
    note = ""
    if risked and risked[0] in sel:
        note = f"{label(hand[risked[0]])} is now part of your spell, so it is no longer your Risk card."
        risked = []
    return trick_screen(ctx, sel, risked[0] if risked else None, note)


def _on_risk(ctx: Ctx, arg: str, values: Sequence[str]) -> Prompt:
    """``r.<spell>``: the Risk card was chosen (``-``: none)."""
    hand = _hand(ctx)
    sel = _decode(arg, hand)
    choice = values[0] if values else "-"
    risk = None if choice == "-" else _decode(choice, hand)[0]
    if risk is not None and risk in sel:
        raise ValueError("The Risk card cannot also be part of your spell.")
    return trick_screen(ctx, sel, risk)


def _spell_and_risk(arg: str, hand: Sequence[str]) -> tuple[list[int], int | None]:
    """``<spell>.<risk>``: the spell's hand indices and the Risk card's, if any."""
    sp, _, rk = arg.partition(".")
    sel = _decode(sp, hand)
    risk = _decode(rk, hand)
    if len(risk) > 1:
        raise ValueError("Choose at most one Risk card.")
    return sel, risk[0] if risk else None


def _on_screen(ctx: Ctx, arg: str, values: Sequence[str]) -> Prompt:
    """``s.<spell>.<risk>``: show that screen (Clear sends ``s..``)."""
    sel, risk = _spell_and_risk(arg, _hand(ctx))
    return trick_screen(ctx, sel, risk)


def _on_cast(ctx: Ctx, arg: str, values: Sequence[str]) -> Submit:
    """``p.<spell>.<risk>``: cast the spell, face-up if a card goes to the Deck of Risk."""
    hand = _hand(ctx)
    sel, risk = _spell_and_risk(arg, hand)
    chosen = [hand[i] for i in sel]
    if not chosen:
        raise ValueError("Choose the cards of your spell first.")
    why = not_a_combination(chosen)
    if why is not None:
        raise ValueError(f"{labels(chosen)} is not a combination: {why}.")
    if risk is not None and risk in sel:
        raise ValueError("The Risk card cannot also be part of your spell.")
    return Submit(PlayCards(cards=tuple(chosen), risk=None if risk is None else hand[risk]))


def _on_draw(ctx: Ctx, arg: str, values: Sequence[str]) -> Submit:
    """``d.<n>``: draw n cards from the Deck of Risk, within the decision's bound."""
    from_risk, _total = _draw_bounds(ctx)
    if not arg.isdigit() or int(arg) not in from_risk:
        raise ValueError("That draw is not possible; open your newest prompt.")
    return Submit(Draw(risk=int(arg)))


class Route(NamedTuple):
    """Where a payload head goes: the decision it answers, and its handler."""

    asks: Phase
    handler: Callable[[PromptContext, str, Sequence[str]], Submit | Prompt]


#: Every payload head of the game's prompts (see the grammar above).
HANDLERS: dict[str, Route] = {
    "c": Route(Phase.TRICK, _on_cards),
    "q": Route(Phase.TRICK, _on_cards),
    "r": Route(Phase.TRICK, _on_risk),
    "s": Route(Phase.TRICK, _on_screen),
    "p": Route(Phase.TRICK, _on_cast),
    "d": Route(Phase.DRAW, _on_draw),
}


def handle(ctx: Ctx, payload: str, values: Sequence[str]) -> Submit | Prompt:
    """A click on one of the prompts: the next screen, or the action to submit. ValueError, with a
    readable reason, for a click that does not fit the prompt (another decision, an old hand)."""
    head, _, arg = payload.partition(".")
    route = HANDLERS.get(head)
    if route is None:
        raise ValueError(NOT_THIS_PROMPT)
    if _kind(ctx) != route.asks:
        raise ValueError(NOT_YOUR_TURN[route.asks])
    return route.handler(ctx, arg, values)
