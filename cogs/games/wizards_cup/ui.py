"""Wizards Cup in Discord: the private prompts (deck, order, swap, Botanist) and the channel embeds.

Prompts are stateless: every screen's state (the order picked so far, the card to swap out) is in
the components' custom_ids, so a prompt keeps working across restarts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import discord

from rules import ActionModel, Event, fill_names
from rules.wizards_cup import (
    PLAYED,
    BotanistChoice,
    Card,
    ChooseDeck,
    Plan,
    SeatView,
    SpectatorView,
    Swap,
    load_card_set,
)

from ..base import (
    EMBED_FIELD_VALUE,
    EMBED_FIELDS,
    SELECT_OPTIONS,
    GameUI,
    Lookup,
    Prompt,
    PromptContext,
    Submit,
    clip,
)

CARDS = load_card_set()
ELEMENT_EMOJI = {"Fire": "🔥", "Water": "💧", "Nature": "🌿", "Light": "☀️", "Shadow": "🌑", "Void": "🌀"}
POWER_LABEL = {"immediate": "Immediate", "permanent": "Permanent", "dormant": "Dormant"}
CRITERION = {"power": "Magic power", "element": "Element", "value": "Value"}
COLOUR = discord.Colour.from_rgb(88, 64, 160)
#: The decision kind each payload answers (see ``WizardsCupUI.handle``).
PAYLOAD_KIND = {
    "deck": "choose_deck",
    "plan": "plan",
    "planok": "plan",
    "swaprm": "swap",
    "swapkeep": "swap",
    "swapadd": "swap",
    "bot": "botanist",
}


def card_line(card: Card) -> str:
    power = POWER_LABEL.get(card.power.value, "") if card.power else "No power"
    return f"{ELEMENT_EMOJI[card.element.value]} **{card.name}** · {card.element.value} {card.value} · {power}"


def card_embed(card: Card) -> discord.Embed:
    e = discord.Embed(title=card.name, description=card.text, colour=COLOUR)
    e.add_field(name="Element", value=f"{ELEMENT_EMOJI[card.element.value]} {card.element.value}")
    e.add_field(name="Value", value=str(card.value))
    e.add_field(name="Magic power", value=POWER_LABEL.get(card.power.value, "-") if card.power else "None")
    return e


def _option(card: Card, value: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(
        label=clip(card.name, 100),
        value=value or card.id,
        description=clip(f"{card.element.value} {card.value} · {card.text}", 100),
        emoji=ELEMENT_EMOJI[card.element.value],
    )


def _names(ids: Sequence[str]) -> str:
    return ", ".join(CARDS[c].name for c in ids)


def _seen(ctx: PromptContext) -> SeatView:
    """The seat's view of the rules (a prompt is always for a seat)."""
    return cast(SeatView, ctx.seen)


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


class WizardsCupUI(GameUI):
    slug = "wizards-cup"

    # ------------------------------------------------------------------ reference
    def rules_fields(self) -> list[tuple[str, str]]:
        return [
            (
                "How a duel is decided",
                "A. Magic power, B. Element (Fire < Water < Nature < Fire; Shadow < Light; Light loses to "
                "Water, Fire, Nature; Void has no weakness), C. Value (equal: both lose).",
            ),
            ("Cards", "Look any card up with /card."),
        ]

    def lookup_choices(self, current: str) -> list[Lookup]:
        cur = current.lower()
        return [Lookup(c.id, c.name) for c in CARDS.cards if cur in c.name.lower() or cur in c.id]

    def lookup(self, key: str) -> discord.Embed | None:
        card = CARDS.find(key)
        return None if card is None else card_embed(card)

    # ------------------------------------------------------------------ private prompts
    def prompt(self, ctx: PromptContext) -> Prompt:
        asked = ctx.decision.kind if ctx.decision is not None else "done"
        if asked == "choose_deck":
            return self._deck_prompt(ctx)
        if asked == "plan":
            return self._plan_screen(ctx, "")
        if asked == "swap":
            return self._swap_prompt(ctx)
        if asked == "botanist":
            return self._botanist_prompt(ctx)
        return Prompt("Nothing to decide right now: the duels are being fought. Watch the channel!")

    def _header(self, ctx: PromptContext, title: str, text: str) -> discord.Embed:
        opp = ctx.names[1 - ctx.seat]
        e = discord.Embed(title=f"Wizards Cup vs {opp} — {title}", description=text, colour=COLOUR)
        e.set_footer(text=f"Match #{ctx.match_id} · round {_seen(ctx)['round']}")
        return e

    def _deck_prompt(self, ctx: PromptContext) -> Prompt:
        pick = _seen(ctx)["players"][ctx.seat]["random_pick"]
        assert pick is not None  # drawn before the Deck is chosen
        pool = [c for c in CARDS.cards if c.id != pick]
        assert len(pool) <= SELECT_OPTIONS
        e = self._header(
            ctx,
            "choose your Deck",
            f"{ctx.names[1 - ctx.seat]} drew **{CARDS[pick].name}** at random from your set: it is in your "
            "Deck.\nChoose **5 more** cards below (your choice stays secret).",
        )
        e.add_field(name="Your random card", value=card_line(CARDS[pick]), inline=False)
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid("deck"),
                placeholder="Choose 5 cards for your Deck",
                min_values=5,
                max_values=5,
                options=[_option(c) for c in pool],
            )
        )
        return Prompt("", [e], view)

    def _plan_screen(self, ctx: PromptContext, picked: str) -> Prompt:
        deck = _seen(ctx)["you"]["deck"]
        order = [deck[int(i)] for i in picked]
        view = discord.ui.View(timeout=None)
        if len(order) < 5:
            text = (
                f"Click your Wizards in playing order: pick card **{len(order) + 1} of 5**. "
                "The card left over becomes your face-down Waiting card."
            )
            for i, cid in enumerate(deck):
                if str(i) in picked:
                    continue
                card = CARDS[cid]
                view.add_item(
                    discord.ui.Button(
                        label=clip(f"{card.name} ({card.element.value} {card.value})", 80),
                        emoji=ELEMENT_EMOJI[card.element.value],
                        style=discord.ButtonStyle.primary,
                        custom_id=ctx.cid(f"plan.{picked}{i}"),
                    )
                )
        else:
            waiting = next(c for i, c in enumerate(deck) if str(i) not in picked)
            text = f"Your order is ready. Waiting card: **{CARDS[waiting].name}**. Confirm to lock it in."
            view.add_item(
                discord.ui.Button(
                    label="Confirm", style=discord.ButtonStyle.success, custom_id=ctx.cid(f"planok.{picked}")
                )
            )
        if picked:
            view.add_item(
                discord.ui.Button(label="Start over", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("plan."))
            )
        e = self._header(ctx, "order your Wizards", text)
        if order:
            e.add_field(
                name="Order so far",
                value="\n".join(f"{n}. {card_line(CARDS[c])}" for n, c in enumerate(order, 1)),
                inline=False,
            )
        e.add_field(name="Your Deck", value="\n".join(card_line(CARDS[c]) for c in deck), inline=False)
        return Prompt("", [e], view)

    def _swap_prompt(self, ctx: PromptContext) -> Prompt:
        you = _seen(ctx)["you"]
        e = self._header(
            ctx,
            "prepare the next round",
            "You may swap one card of your Deck for one of your 12 unused cards. Pick the card to take out, "
            "or keep your Deck.",
        )
        e.add_field(name="Your Deck", value="\n".join(card_line(CARDS[c]) for c in you["deck"]), inline=False)
        view = discord.ui.View(timeout=None)
        options = [discord.SelectOption(label="Keep my Deck", value="keep", emoji="✅")]
        options += [_option(CARDS[c], str(i)) for i, c in enumerate(you["deck"])]
        view.add_item(discord.ui.Select(custom_id=ctx.cid("swaprm"), placeholder="Card to take out", options=options))
        return Prompt("", [e], view)

    def _swap_add_screen(self, ctx: PromptContext, index: int) -> Prompt:
        you = _seen(ctx)["you"]
        out = CARDS[you["deck"][index]]
        e = self._header(ctx, "prepare the next round", f"Taking out **{out.name}**. Choose the card that replaces it.")
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"swapadd.{index}"),
                placeholder="Card to bring in",
                options=[_option(CARDS[c]) for c in you["unused"]],
            )
        )
        view.add_item(discord.ui.Button(label="Keep my Deck instead", custom_id=ctx.cid("swapkeep")))
        return Prompt("", [e], view)

    def _botanist_prompt(self, ctx: PromptContext) -> Prompt:
        waiting = _seen(ctx)["you"]["waiting"]
        assert waiting is not None  # the Botanist asks only when there is a Waiting card
        e = self._header(
            ctx,
            "The Botanist",
            f"Your Botanist may discard your Waiting card, **{CARDS[waiting].name}** "
            "(it goes face up on top of your discard pile, where a Dormant power works).",
        )
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=clip(f"Discard {CARDS[waiting].name}", 80),
                style=discord.ButtonStyle.danger,
                custom_id=ctx.cid("bot.1"),
            )
        )
        view.add_item(
            discord.ui.Button(label="Keep it", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("bot.0"))
        )
        return Prompt("", [e], view)

    def handle(self, ctx: PromptContext, payload: str, values: Sequence[str]) -> Submit | Prompt:
        """Payloads: ``deck`` (select of 5 cards), ``plan.<indices>`` (the Deck indices clicked so
        far, in order), ``planok.<indices>`` (confirm), ``swaprm`` (select: "keep" or a Deck index),
        ``swapadd.<index>`` (select: the card to bring in), ``swapkeep``, ``bot.1`` / ``bot.0``.
        The engine judges the submitted action; the screens offer only what the seat may pick."""
        head, _, arg = payload.partition(".")
        decision = ctx.decision
        if head not in PAYLOAD_KIND or decision is None or decision.kind != PAYLOAD_KIND[head]:
            raise ValueError("That button does not belong to this prompt.")
        deck = _seen(ctx)["you"]["deck"]
        if head == "deck":
            if len(values) != PLAYED:
                raise ValueError(f"Choose {PLAYED} cards.")
            return Submit(ChooseDeck(cards=(values[0], values[1], values[2], values[3], values[4])))
        if head in ("plan", "planok"):
            if not _valid_order(arg, len(deck)):
                raise ValueError("That order is not valid; start over.")
            if head == "plan":
                return self._plan_screen(ctx, arg)
            if len(arg) != PLAYED:
                raise ValueError("That order is not complete; pick all five Wizards.")
            o = [deck[int(i)] for i in arg]
            waiting = next(c for i, c in enumerate(deck) if str(i) not in arg)
            return Submit(Plan(order=(o[0], o[1], o[2], o[3], o[4]), waiting=waiting))
        if head == "swaprm":
            choice = values[0] if values else "keep"
            if choice == "keep":
                return Submit(_choice(decision.choices, Swap()))
            if not choice.isdigit() or int(choice) >= len(deck):
                raise ValueError("That card is not in your Deck.")
            return self._swap_add_screen(ctx, int(choice))
        if head == "swapkeep":
            return Submit(_choice(decision.choices, Swap()))
        if head == "swapadd":
            if not arg.isdigit() or int(arg) >= len(deck) or len(values) != 1:
                raise ValueError("That swap is not valid; start over.")
            return Submit(Swap(remove=deck[int(arg)], add=values[0]))
        return Submit(_choice(decision.choices, BotanistChoice(discard=arg == "1")))

    # ------------------------------------------------------------------ channel embeds
    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        public = [e for e in events if e.visible_to is None]
        embeds: list[discord.Embed] = []
        round_embed: discord.Embed | None = None
        news: list[str] = []  # who has submitted (never what)
        block: list[str] = []
        title = ""
        for ev in public:
            text = fill_names(ev.text, names)
            if ev.kind == "round_start":
                round_embed = discord.Embed(title=f"Round {ev.data['round']}", colour=COLOUR)
                embeds.append(round_embed)
            elif ev.kind == "duel_start":
                block = []
                a, b = (CARDS[c] for c in ev.data["cards"])
                title = f"Duel {ev.data['duel']}: {a.name} vs {b.name}"
                block.append(text.split(": ", 1)[1] if ": " in text else text)
            elif ev.kind in ("power", "choice") and title:
                block.append(f"✨ {text}")
            elif ev.kind == "duel":
                d = ev.data
                if d["winner"] is None:
                    result = f"💥 Both Wizards lose — {CRITERION[d['criterion']]}: {d['reason']}"
                else:
                    result = f"🏆 **{names[d['winner']]}** wins — {CRITERION[d['criterion']]}: {d['reason']}"
                block.append(result)
                if round_embed is None or len(round_embed.fields) >= EMBED_FIELDS:
                    round_embed = discord.Embed(title="Duels (continued)", colour=COLOUR)
                    embeds.append(round_embed)
                round_embed.add_field(
                    name=clip(title, 256), value=clip("\n".join(block), EMBED_FIELD_VALUE), inline=False
                )
                title, block = "", []
            elif ev.kind in ("deck_chosen", "planned", "prepared"):
                news.append(f"✅ {text}")
            elif ev.kind in ("round_end", "tiebreak", "random_pick", "forfeit"):
                embeds.append(discord.Embed(description=clip(text, 4096), colour=COLOUR))
            elif ev.kind == "game_end":
                embeds.append(
                    discord.Embed(title="🏆 The Wizards Cup is decided", description=text, colour=discord.Colour.gold())
                )
        if title and round_embed is not None:  # a duel waiting for a decision
            round_embed.add_field(name=clip(title, 256), value=clip("\n".join(block), EMBED_FIELD_VALUE), inline=False)
        board = self.board_embed(view, names)
        if news:
            board.description = clip("\n".join(news), 4096)
        embeds.append(board)
        return embeds

    def board_embed(self, view: Mapping[str, Any], names: Sequence[str]) -> discord.Embed:
        seen = cast(SpectatorView, view)
        e = discord.Embed(title=f"Board — round {seen['round']}", colour=COLOUR)
        asked_text = {
            "choose_deck": "⏳ choosing a Deck",
            "plan": "⏳ ordering Wizards",
            "swap": "⏳ preparing (swap)",
            "botanist": "⏳ deciding (Botanist)",
            "done": "✅ ready",
        }
        for p in seen["players"]:
            lines = [f"Victory tokens: {'🏆' * p['tokens'] or '—'}"]
            if p["random_pick"]:
                lines.append(f"Random card: {CARDS[p['random_pick']].name}")
            if p["duel"]:
                lines.append(f"Duel zone: {card_line(CARDS[p['duel']])}")
            if seen["phase"] == "duels" or p["deck_count"]:
                lines.append(
                    f"Deck: {p['deck_count']} card(s) · Waiting: "
                    + (CARDS[p["waiting"]].name if p["waiting"] else ("face down" if p["has_waiting"] else "none"))
                )
            if p["discard"]:
                lines.append("Discard (top last): " + _names(p["discard"]))
            if seen["phase"] != "over":
                lines.append(asked_text.get(p["asked"], ""))
            e.add_field(name=clip(names[p["seat"]], 256), value=clip("\n".join(lines), EMBED_FIELD_VALUE), inline=True)
        return e


UI = WizardsCupUI()
