"""Wizards Cup's private prompts: one screen per decision a seat is asked (``ctx.decision.kind``),
and the handlers of their clicks.

Prompts are stateless: every screen's state (the order picked so far, the card to swap out) is in
the components' custom_ids, so a prompt keeps working across restarts.

custom_id grammar
-----------------
Every component's custom_id is ``m:<match>:<seat>:<seat step>:<payload>`` (``CUSTOM_ID_RE`` in
``cogs.games.base``). The payload is ``<head>`` or ``<head>.<arg>``; ``HANDLERS`` routes it on the
head, and a head answers one decision kind only (any other is refused as not belonging to the
prompt). The payloads of this game, all still understood for messages already posted:

=======================  ===========  ===========  ==================================================
payload                  component    decision     meaning
=======================  ===========  ===========  ==================================================
``deck``                 select       choose_deck  values: the 5 card ids chosen to join the random card
``plan.<indices>``       button       plan         the Deck indices (one digit each, 0-5) clicked so far,
                                                   in playing order; ``plan.`` (none) starts over
``planok.<indices>``     button       plan         confirm the order: 5 distinct Deck indices; the
                                                   sixth card becomes the Waiting card
``swaprm``               select       swap         values: ``keep``, or the Deck index of the card to
                                                   take out (no values: keep)
``swapadd.<index>``      select       swap         ``<index>``: the Deck index taken out; values: the
                                                   id of the unused card that replaces it
``swapkeep``             button       swap         keep the Deck
``bot.1`` / ``bot.0``    button       botanist     discard / keep the Waiting card (any other
                                                   argument: keep)
=======================  ===========  ===========  ==================================================

An argument a head does not use is ignored (``deck.x`` is ``deck``), as it always was. The screens
offer only what the seat may pick; the engine judges the submitted action.

Pictures (when ``ctx.images``): the Deck choice shows the set with the random card framed, the
ordering screens the planned order and what is left to order, the swap screens the Deck; each is
named by its content (``art.py``), so a screen edit keeps a picture the message already shows.
A newcomer's explanations come once per match, where the thing is first met: the Magic power
types on the Deck choice (made once), the Waiting card on the first round's ordering, the swap on
the first swap (round 2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import discord

from rules import ActionModel, Decision
from rules.wizards_cup import PLAYED, BotanistChoice, ChooseDeck, Plan, SeatView, Swap

from ..base import SELECT_OPTIONS, Prompt, PromptContext, Submit, clip
from .art import deck_file, order_file, set_file
from .cards import CARDS, COLOUR, ELEMENT_EMOJI, card_line, card_lines, card_option

#: The prompt when the seat is asked nothing.
IDLE = "Nothing to decide right now: the duels are being fought. Watch the channel!"
NOT_THIS_PROMPT = "That button does not belong to this prompt."
#: Explanations for a newcomer, each shown once per match where it is first met (a field name, its text).
POWERS_HELP = (
    "Magic powers",
    "**Immediate**: works once, as the Wizard enters the Duel zone. **Permanent**: works while it "
    "stays in the Duel zone. **Dormant**: works from the top of your discard pile, while visible.",
)
WAITING_HELP = (
    "The Waiting card",
    "The card you leave out waits face down beside your Deck: it is not played, unless The "
    "Detective brings it into a duel or The Botanist discards it.",
)
SWAP_HELP = (
    "Between rounds",
    "Your Deck always holds 6 cards: swap one for a card you left out, or keep it. Then you order "
    "your Wizards again for the new round.",
)


#: a Wizards Cup prompt's context: what the seat sees is Wizards Cup's seat view
Ctx = PromptContext[SeatView]


def _seen(ctx: Ctx) -> SeatView:
    """The seat's view of the rules (a prompt is always for a seat)."""
    return ctx.seen


def _header(ctx: Ctx, title: str, text: str) -> discord.Embed:
    opp = ctx.names[1 - ctx.seat]
    e = discord.Embed(title=f"Wizards Cup vs {opp} — {title}", description=text, colour=COLOUR)
    e.set_footer(text=f"Match #{ctx.match_id} · round {_seen(ctx)['round']}")
    return e


def _button(
    ctx: Ctx, label: str, payload: str, style: discord.ButtonStyle, emoji: str | None = None
) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=label, style=style, custom_id=ctx.cid(payload), emoji=emoji)


def _picture(ctx: Ctx, prompt: Prompt, make: Callable[[], discord.File]) -> Prompt:
    """``prompt`` showing the picture ``make()`` draws as its first embed's image (pictures on)."""
    if ctx.images and prompt.embeds:
        f = make()
        prompt.embeds[0].set_image(url=f"attachment://{f.filename}")
        prompt.files.append(f)
    return prompt


def _explain(e: discord.Embed, help_: tuple[str, str]) -> None:
    e.add_field(name=help_[0], value=help_[1], inline=False)


# ------------------------------------------------------------------ screens
def deck_prompt(ctx: Ctx) -> Prompt:
    """``choose_deck``: a select of the 5 cards joining the random one (the set's other cards)."""
    you = _seen(ctx)["you"]
    pick = _seen(ctx)["players"][ctx.seat]["random_pick"]
    assert pick is not None  # drawn before the Deck is chosen
    pool = you["unused"]  # the set but the Deck, which holds only the random card yet
    assert len(pool) <= SELECT_OPTIONS
    e = _header(
        ctx,
        "choose your Deck",
        f"{ctx.names[1 - ctx.seat]} drew **{CARDS[pick].name}** at random from your set: it is in your "
        f"Deck.\nChoose **{PLAYED} more** cards below (your choice stays secret).",
    )
    e.add_field(name="Your random card", value=card_line(CARDS[pick]), inline=False)
    _explain(e, POWERS_HELP)  # a Deck is chosen once per match
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=ctx.cid("deck"),
            placeholder=f"Choose {PLAYED} cards for your Deck",
            min_values=PLAYED,
            max_values=PLAYED,
            options=[card_option(CARDS[c]) for c in pool],
        )
    )
    return _picture(ctx, Prompt("", [e], view), lambda: set_file(pick, pool))


def plan_screen(ctx: Ctx, picked: str) -> Prompt:
    """``plan``: one button per Deck card not yet ordered (``picked``: the indices clicked so far),
    then Confirm once five are ordered; Start over once one is."""
    deck = _seen(ctx)["you"]["deck"]
    order = [deck[int(i)] for i in picked]
    view = discord.ui.View(timeout=None)
    if len(order) < PLAYED:
        text = (
            f"Click your Wizards in playing order: pick card **{len(order) + 1} of {PLAYED}**. "
            "The card left over becomes your face-down Waiting card."
        )
        for i, cid in enumerate(deck):
            if str(i) not in picked:
                card = CARDS[cid]
                label = clip(f"{card.name} ({card.element.value} {card.value})", 80)
                emoji = ELEMENT_EMOJI[card.element.value]
                view.add_item(_button(ctx, label, f"plan.{picked}{i}", discord.ButtonStyle.primary, emoji))
    else:
        text = f"Your order is ready. Waiting card: **{CARDS[_waiting(deck, picked)].name}**. Confirm to lock it in."
        view.add_item(_button(ctx, "Confirm", f"planok.{picked}", discord.ButtonStyle.success))
    if picked:
        view.add_item(_button(ctx, "Start over", "plan.", discord.ButtonStyle.secondary))
    e = _header(ctx, "order your Wizards", text)
    if order:
        so_far = "\n".join(f"{n}. {card_line(CARDS[c])}" for n, c in enumerate(order, 1))
        e.add_field(name="Order so far", value=so_far, inline=False)
    e.add_field(name="Your Deck", value=card_lines(deck), inline=False)
    if _seen(ctx)["round"] == 1:  # the first ordering of the match
        _explain(e, WAITING_HELP)
    indices = [int(i) for i in picked]
    return _picture(ctx, Prompt("", [e], view), lambda: order_file(deck, indices, PLAYED))


def swap_prompt(ctx: Ctx) -> Prompt:
    """``swap``: a select of the Deck card to take out, or keep the Deck."""
    you = _seen(ctx)["you"]
    e = _header(
        ctx,
        "prepare the next round",
        f"You may swap one card of your Deck for one of your {len(you['unused'])} unused cards. "
        "Pick the card to take out, or keep your Deck.",
    )
    e.add_field(name="Your Deck", value=card_lines(you["deck"]), inline=False)
    if _seen(ctx)["round"] == 2:  # the first swap of the match
        _explain(e, SWAP_HELP)
    view = discord.ui.View(timeout=None)
    options = [discord.SelectOption(label="Keep my Deck", value="keep", emoji="✅")]
    options += [card_option(CARDS[c], str(i)) for i, c in enumerate(you["deck"])]
    view.add_item(discord.ui.Select(custom_id=ctx.cid("swaprm"), placeholder="Card to take out", options=options))
    return _picture(ctx, Prompt("", [e], view), lambda: deck_file(you["deck"]))


def swap_add_screen(ctx: Ctx, index: int) -> Prompt:
    """``swap``, second screen: a select of the unused card replacing the Deck card ``index``."""
    you = _seen(ctx)["you"]
    out = CARDS[you["deck"][index]]
    e = _header(ctx, "prepare the next round", f"Taking out **{out.name}**. Choose the card that replaces it.")
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Select(
            custom_id=ctx.cid(f"swapadd.{index}"),
            placeholder="Card to bring in",
            options=[card_option(CARDS[c]) for c in you["unused"]],
        )
    )
    view.add_item(discord.ui.Button(label="Keep my Deck instead", custom_id=ctx.cid("swapkeep")))
    return _picture(ctx, Prompt("", [e], view), lambda: deck_file(you["deck"]))


def botanist_prompt(ctx: Ctx) -> Prompt:
    """``botanist``: discard the Waiting card or keep it."""
    waiting = _seen(ctx)["you"]["waiting"]
    assert waiting is not None  # the Botanist asks only when there is a Waiting card
    e = _header(
        ctx,
        "The Botanist",
        f"Your Botanist may discard your Waiting card, **{CARDS[waiting].name}** "
        "(it goes face up on top of your discard pile, where a Dormant power works).",
    )
    view = discord.ui.View(timeout=None)
    view.add_item(_button(ctx, clip(f"Discard {CARDS[waiting].name}", 80), "bot.1", discord.ButtonStyle.danger))
    view.add_item(_button(ctx, "Keep it", "bot.0", discord.ButtonStyle.secondary))
    return Prompt("", [e], view)


#: The first screen of each decision kind.
SCREENS: dict[str, Callable[[PromptContext], Prompt]] = {
    "choose_deck": deck_prompt,
    "plan": lambda ctx: plan_screen(ctx, ""),
    "swap": swap_prompt,
    "botanist": botanist_prompt,
}


def prompt(ctx: Ctx) -> Prompt:
    """The seat's prompt for what it is asked now (``ctx.decision``)."""
    screen = SCREENS.get(ctx.decision.kind) if ctx.decision is not None else None
    return screen(ctx) if screen is not None else Prompt(IDLE)


# ------------------------------------------------------------------ click handlers
def _waiting(deck: Sequence[str], picked: str) -> str:
    """The Deck card not in the order ``picked`` (the Waiting card)."""
    return next(c for i, c in enumerate(deck) if str(i) not in picked)


def _valid_order(picked: str, deck_size: int) -> bool:
    """``picked`` is distinct Deck indices, in click order (possibly none yet)."""
    return (
        (picked == "" or picked.isdigit())
        and len(set(picked)) == len(picked)
        and all(int(i) < deck_size for i in picked)
    )


def _choice(choices: Sequence[ActionModel], action: ActionModel) -> ActionModel:
    """``action`` if the decision offers it (the engine's choices are the legal moves)."""
    if action not in choices:
        raise ValueError("That choice is not open to you now.")
    return action


def _deck(ctx: Ctx) -> list[str]:
    return _seen(ctx)["you"]["deck"]


def on_deck(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    if len(values) != PLAYED:
        raise ValueError(f"Choose {PLAYED} cards.")
    return Submit(ChooseDeck(cards=(values[0], values[1], values[2], values[3], values[4])))


def on_plan(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    if not _valid_order(arg, len(_deck(ctx))):
        raise ValueError("That order is not valid; start over.")
    return plan_screen(ctx, arg)


def on_plan_ok(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    deck = _deck(ctx)
    if not _valid_order(arg, len(deck)):
        raise ValueError("That order is not valid; start over.")
    if len(arg) != PLAYED:
        raise ValueError("That order is not complete; pick all five Wizards.")
    o = [deck[int(i)] for i in arg]
    return Submit(Plan(order=(o[0], o[1], o[2], o[3], o[4]), waiting=_waiting(deck, arg)))


def on_swap_remove(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    choice = values[0] if values else "keep"
    if choice == "keep":
        return Submit(_choice(decision.choices, Swap()))
    if not choice.isdigit() or int(choice) >= len(_deck(ctx)):
        raise ValueError("That card is not in your Deck.")
    return swap_add_screen(ctx, int(choice))


def on_swap_keep(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    return Submit(_choice(decision.choices, Swap()))


def on_swap_add(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    deck = _deck(ctx)
    if not arg.isdigit() or int(arg) >= len(deck) or len(values) != 1:
        raise ValueError("That swap is not valid; start over.")
    return Submit(Swap(remove=deck[int(arg)], add=values[0]))


def on_botanist(ctx: Ctx, decision: Decision, arg: str, values: Sequence[str]) -> Submit | Prompt:
    return Submit(_choice(decision.choices, BotanistChoice(discard=arg == "1")))


Handler = Callable[[PromptContext, Decision, str, Sequence[str]], Submit | Prompt]


class Route(NamedTuple):
    kind: str  # the decision kind the payload answers
    handler: Handler


#: Payload head -> the decision it answers and its handler (the grammar is in the module docstring).
HANDLERS: dict[str, Route] = {
    "deck": Route("choose_deck", on_deck),
    "plan": Route("plan", on_plan),
    "planok": Route("plan", on_plan_ok),
    "swaprm": Route("swap", on_swap_remove),
    "swapkeep": Route("swap", on_swap_keep),
    "swapadd": Route("swap", on_swap_add),
    "bot": Route("botanist", on_botanist),
}


def handle(ctx: Ctx, payload: str, values: Sequence[str]) -> Submit | Prompt:
    """A click (``payload`` from the custom_id, ``values`` of a select): the next screen or the
    action to submit. Raises ValueError with a readable message, e.g. for a payload that does not
    answer what the seat is asked now."""
    head, _, arg = payload.partition(".")
    route = HANDLERS.get(head)
    decision = ctx.decision
    if route is None or decision is None or decision.kind != route.kind:
        raise ValueError(NOT_THIS_PROMPT)
    return route.handler(ctx, decision, arg, values)
