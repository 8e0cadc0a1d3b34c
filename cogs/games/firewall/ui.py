"""Firewall in Discord: the private turn prompt (bet + spells + Clone's target, then a Cast
confirmation), the Larceny and Recycle follow-ups, the chosen-order variant's stock ordering, and
the channel post after each turn (the bridge as a picture or an emoji strip, the reveal and what
each spell did, in order).

Every screen's state lives in its components' custom_id payloads (nothing in memory), so a prompt
keeps working across restarts:

- turn: ``<head>.<bet>.<spells mask, hex>.<clone target or x>`` (bet 0 = not chosen yet; bit n of
  the mask = spell n chosen);
- stock order: ``<head>.<order so far>`` (one hex digit per spell, top first);
- Larceny: ``<head>.<mask of the stolen spells applied, hex>``; Recycle: ``<head>.<new bet>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import discord

from rules import Bound, Event, fill_names
from rules.firewall import (
    CLONE,
    DECK,
    MAX_MANA,
    SPELLS,
    FirewallView,
    LarcenyChoice,
    Order,
    RecycleChoice,
    SeatView,
    Turn,
    spell_name,
)

from ..base import (
    EMBED_DESCRIPTION,
    EMBED_FIELD_VALUE,
    SELECT_OPTIONS,
    GameUI,
    Lookup,
    Post,
    Prompt,
    PromptContext,
    Submit,
    clip,
)
from ..pictures import SEAT_EMOJI
from .art import bridge_file, bridge_strip, mana_bar

COLOUR = discord.Colour.from_rgb(226, 88, 34)
SPELL_EMOJI = {
    0: "🃏",
    1: "🔇",
    2: "🪞",
    3: "🦝",
    4: "⏹️",
    5: "↩️",
    6: "♻️",
    7: "⚔️",
    8: "✖️",
    9: "🔄",
    10: "🌋",
    11: "🛡️",
    12: "😤",
    13: "🔋",
    14: "🌀",
}
RESULT_ICON = {"applied": "✨", "no_effect": "💨", "muted": "🔇", "lost": "❌"}
EVENT_ICON = {
    "cancel": "⚔️",
    "choice": "⏳",
    "larceny": "🦝",
    "recycle": "♻️",
    "attack": "⚖️",
    "wall": "🔥",
    "turn_end": "💰",
    "out_of_mana": "🪫",
    "round_end": "🏁",
    "round_start": "🌅",
    "fall": "🌋",
    "forfeit": "🏳️",
    "shuffle": "🔀",
}
NEWS = ("submitted", "stock_ordered")
VARIANTS = {
    "standard": "standard (5 spells drawn at the start, 3 more each round)",
    "full_hand": "full hand (all 14 spells in hand from the start)",
    "chosen_order": "chosen order (each wizard orders their own stock)",
}
COMMON_BETS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 18, 20, 25, 30, 35, 40, 45, 50)
BET_STEPS = {"tm5": -5, "tm1": -1, "tp1": 1, "tp5": 5}  # the bet buttons: payload head -> change


# ---------------------------------------------------------------------------------- helpers
def spell_label(n: int) -> str:
    return f"{spell_name(n)} ({n})"


def spell_option(card: int, value: str, *, default: bool = False, verb: str = "") -> discord.SelectOption:
    """A select option for a spell: its number and name (after ``verb``), its text as the description."""
    return discord.SelectOption(
        label=f"{verb} {spell_label(card)}" if verb else spell_label(card),
        value=value,
        description=clip(SPELLS[card].text, 100),
        emoji=SPELL_EMOJI.get(card),
        default=default,
    )


def spell_list(cards: Sequence[int]) -> str:
    return ", ".join(spell_label(c) for c in cards) if cards else "no spell"


def spell_line(n: int) -> str:
    return f"{SPELL_EMOJI.get(n, '•')} `{n:>2}` **{spell_name(n)}** — {SPELLS[n].text}"


def spell_embed(n: int) -> discord.Embed:
    s = SPELLS[n]
    e = discord.Embed(title=f"{SPELL_EMOJI.get(n, '')} {s.name} ({n})", description=s.text, colour=COLOUR)
    if n == 0:
        e.add_field(name="Number", value="0: it is never discarded and never applies.")
    else:
        e.add_field(name="Priority", value=f"{n}: the spells of a turn apply in ascending number.")
    if s.selfish:
        e.add_field(name="Stolen by Larceny", value="Applied for the thief if they run out of time.")
    return e


def _mask(bits: Iterable[int]) -> int:
    """The bit mask of spell numbers (turn) or of indices into the stolen spells (Larceny)."""
    m = 0
    for b in bits:
        m |= 1 << b
    return m


def _cards(mask: int) -> list[int]:
    return [n for n in range(15) if mask >> n & 1]


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"That {what} is not valid; use your newest prompt.") from None


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


def seen(ctx: PromptContext) -> FirewallView:
    """The rules' view of the seat, typed."""
    return cast(FirewallView, ctx.seen)


def you(ctx: PromptContext) -> SeatView:
    """What only the prompted seat sees."""
    return seen(ctx)["you"]


def asked(ctx: PromptContext) -> str | None:
    """The kind of what the seat is asked now: order, turn, larceny or recycle."""
    return ctx.decision.kind if ctx.decision is not None else None


def bet_bound(ctx: PromptContext) -> Bound:
    """The rules' limits of the bet the seat is asked for (the turn's, or Recycle's new bet)."""
    bound = ctx.decision.bound("bet") if ctx.decision is not None else None
    if bound is None:
        raise ValueError("That prompt is out of date: use your newest prompt.")
    return bound


def played(d: Mapping[str, Any], seat: int) -> str:
    """A seat's revealed bet and spells from a reveal event or a turn record: "**5** · Attack Boost (7)"."""
    clone = d["clone"][seat]
    return f"**{d['bets'][seat]}** · {spell_list(d['spells'][seat])}" + (
        f" (cloning {spell_label(clone)})" if clone is not None else ""
    )


class FirewallUI(GameUI):
    slug = "firewall"

    # ------------------------------------------------------------------ reference
    def rules_fields(self) -> list[tuple[str, str]]:
        spells = ", ".join(f"{n} {SPELLS[n].name}" for n in sorted(SPELLS))
        return [
            (
                "The bridge",
                "19 flagstones (0-18) over lava. The Fire Wall starts on 9, the wizards on 6 and 12. A round ends "
                "when the wall reaches a wizard, End of Round is cast or the mana runs out; then the wizards step "
                "three flagstones from the wall and one more flagstone collapses at each end. A wizard left on "
                "lava falls and loses (both fall: a draw).",
            ),
            (
                "A turn",
                "Both wizards secretly choose a bet (1 to their mana) and lay spells face down (the False Card "
                "bluffs). Reveal: identical spells cancel, the others apply in number order. The higher attack "
                "(bet + spells) pushes the wall one flagstone toward the other wizard; both pay their bets. Mana "
                "resets to 50 each round. Out of mana: the other's remaining mana pushes the wall.",
            ),
            ("Spells", spells + ". Look each one up with /card game:Firewall."),
            ("Variants (options: variant=…)", "\n".join(f"`{k}`: {v}" for k, v in VARIANTS.items())),
            (
                "Playing here",
                "Each turn you get a private prompt: pick your bet, toggle your spells, then Cast. Larceny and "
                "Recycle ask a follow-up. The channel shows the bridge and everything revealed.",
            ),
        ]

    def lookup_choices(self, current: str) -> list[Lookup]:
        cur = current.strip().lower()
        return [
            Lookup(str(n), f"{n} · {s.name}")
            for n, s in sorted(SPELLS.items())
            if not cur or cur in s.name.lower() or cur == str(n) or cur in s.text.lower()
        ]

    def lookup(self, key: str) -> discord.Embed | None:
        k = key.strip().lower()
        for n, s in SPELLS.items():
            if k in (str(n), s.name.lower(), f"{n} · {s.name}".lower()):
                return spell_embed(n)
        return None

    # ------------------------------------------------------------------ private prompts
    def prompt(self, ctx: PromptContext) -> Prompt:
        kind = asked(ctx)
        if kind == "turn":
            return self._turn_screen(ctx, 0, [], None)
        if kind == "order":
            return self._order_screen(ctx, [])
        if kind == "larceny":
            stolen = self._stolen(ctx)
            return self._larceny_screen(ctx, _mask(i for i, c in enumerate(stolen) if SPELLS[c].selfish))
        if kind == "recycle":
            return self._recycle_screen(ctx, self._old_bet(ctx))
        return Prompt("Nothing to decide right now: watch the channel!")

    def _header(self, ctx: PromptContext, title: str, text: str = "") -> discord.Embed:
        v = seen(ctx)
        opp = ctx.names[1 - ctx.seat]
        e = discord.Embed(title=clip(f"Firewall vs {opp} — {title}", 256), description=text, colour=COLOUR)
        kind = asked(ctx)
        when = (
            "before the first round" if kind == "order" else f"round {v['round']}, turn {v['turn'] + (kind == 'turn')}"
        )
        e.set_footer(text=f"Match #{ctx.match_id} · {when}")
        return e

    def _situation(self, ctx: PromptContext) -> str:
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

    # -- the turn -------------------------------------------------------------------------
    @staticmethod
    def _auto_clone(ctx: PromptContext, spells: Sequence[int], clone: int | None) -> int | None:
        """Clone's target: kept if still valid; the only possible one when there is just one."""
        options = you(ctx)["clone_options"]
        if CLONE not in spells or not options:
            return None
        if clone in options:
            return clone
        return options[0] if len(options) == 1 else None

    def _parse_turn(self, ctx: PromptContext, arg: str) -> tuple[int, list[int], int | None]:
        parts = arg.split(".")
        if len(parts) != 3:
            raise ValueError("That button does not belong to this prompt; use your newest prompt.")
        bet = _int(parts[0], "bet")
        try:
            spells = _cards(int(parts[1], 16))
        except ValueError:
            raise ValueError("That choice of spells is not valid; use your newest prompt.") from None
        clone = None if parts[2] == "x" else _int(parts[2], "Clone target")
        if bet != 0:
            self._check_bet(bet, bet_bound(ctx))
        missing = [c for c in spells if c not in you(ctx)["hand"]]
        if missing:
            raise ValueError(f"{spell_list(missing)} is not in your hand.")
        return bet, spells, self._auto_clone(ctx, spells, clone)

    @staticmethod
    def _check_bet(bet: int, bound: Bound) -> None:
        if bet not in bound:
            raise ValueError(f"You cannot bet {bet}: bet at least {bound.low} and at most your {bound.high} mana.")

    @staticmethod
    def _state(bet: int, spells: Sequence[int], clone: int | None) -> str:
        return f"{bet}.{_mask(spells):x}.{'x' if clone is None else clone}"

    def _choice_text(self, ctx: PromptContext, bet: int, spells: Sequence[int], clone: int | None) -> str:
        bound = bet_bound(ctx)
        lines = [
            f"Bet: **{bet}** of your {bound.high} mana"
            if bet
            else f"Bet: *not chosen yet* ({bound.low} to {bound.high})"
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

    def _turn_screen(self, ctx: PromptContext, bet: int, spells: list[int], clone: int | None) -> Prompt:
        mine = you(ctx)
        bound = bet_bound(ctx)
        mana = bound.high
        hand = mine["hand"]
        state = self._state(bet, spells, clone)
        e = self._header(ctx, "your turn", self._situation(ctx))
        e.add_field(name="Your choice (secret)", value=self._choice_text(ctx, bet, spells, clone), inline=False)
        hand_embed = discord.Embed(
            title="Your hand",
            description=clip("\n".join(spell_line(c) for c in hand), EMBED_DESCRIPTION),
            colour=COLOUR,
        )
        hand_embed.set_footer(text=f"{mine['stock_count']} spells left in your stock")
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"tb.{state}"),
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
        )
        for head, delta in BET_STEPS.items():
            view.add_item(
                discord.ui.Button(
                    label=f"{delta:+d}".replace("-", "−"),
                    style=discord.ButtonStyle.secondary,
                    custom_id=ctx.cid(f"{head}.{state}"),
                    disabled=stepped_bet(bet, delta, bound) == bet or (bet == 0 and delta < 0),
                    row=1,
                )
            )
        view.add_item(
            discord.ui.Button(
                label=f"All in ({mana})",
                style=discord.ButtonStyle.secondary,
                custom_id=ctx.cid(f"ta.{state}"),
                disabled=bet == mana,
                row=1,
            )
        )
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"ts.{state}"),
                placeholder="Spells to cast (toggle; none is fine)",
                min_values=0,
                max_values=len(hand),
                options=[spell_option(c, str(c), default=c in spells) for c in hand],
                row=2,
            )
        )
        options = mine["clone_options"]
        need_target = CLONE in spells and bool(options) and clone is None
        if CLONE in spells and options:
            view.add_item(
                discord.ui.Select(
                    custom_id=ctx.cid(f"tc.{state}"),
                    placeholder="Which spell does Clone copy?",
                    options=[spell_option(c, str(c), default=c == clone, verb="Copy") for c in options],
                    row=3,
                )
            )
        ready = bet > 0 and not need_target
        view.add_item(
            discord.ui.Button(
                label="Review and cast" if ready else ("Choose a bet first" if not bet else "Choose Clone's target"),
                emoji="🔥",
                style=discord.ButtonStyle.success,
                custom_id=ctx.cid(f"tr.{state}"),
                disabled=not ready,
                row=4,
            )
        )
        return Prompt("", [e, hand_embed], view)

    def _review_screen(self, ctx: PromptContext, bet: int, spells: list[int], clone: int | None) -> Prompt:
        state = self._state(bet, spells, clone)
        e = self._header(ctx, "cast?", "Once cast, your choice is final. It stays secret until both are ready.")
        e.add_field(name="You cast", value=self._choice_text(ctx, bet, spells, clone), inline=False)
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Button(
                label=f"Cast: bet {bet}, {len(spells)} spell{'s' if len(spells) != 1 else ''}",
                emoji="🔥",
                style=discord.ButtonStyle.danger,
                custom_id=ctx.cid(f"tk.{state}"),
            )
        )
        view.add_item(
            discord.ui.Button(
                label="Change", emoji="✏️", style=discord.ButtonStyle.secondary, custom_id=ctx.cid(f"tv.{state}")
            )
        )
        return Prompt("", [e], view)

    def _handle_turn(self, ctx: PromptContext, head: str, arg: str, values: Sequence[str]) -> Submit | Prompt:
        bet, spells, clone = self._parse_turn(ctx, arg)
        bound = bet_bound(ctx)
        hand = you(ctx)["hand"]
        if head == "tb":
            if len(values) != 1:
                raise ValueError("Choose one bet.")
            bet = _int(values[0], "bet")
            self._check_bet(bet, bound)
        elif head in BET_STEPS:
            bet = stepped_bet(bet, BET_STEPS[head], bound)
        elif head == "ta":
            bet = bound.high
        elif head == "ts":
            chosen = sorted({_int(v, "spell") for v in values})
            missing = [c for c in chosen if c not in hand]
            if missing:
                raise ValueError(f"{spell_list(missing)} is not in your hand.")
            spells = chosen
            clone = self._auto_clone(ctx, spells, clone)
        elif head == "tc":
            options = you(ctx)["clone_options"]
            target = _int(values[0], "Clone target") if values else -1
            if target not in options:
                raise ValueError(f"Clone can copy {spell_list(options)} only.")
            clone = target
        elif head in ("tr", "tk"):
            self._check_bet(bet, bound)
            if CLONE in spells and you(ctx)["clone_options"] and clone is None:
                raise ValueError("Choose which spell Clone copies first.")
            if head == "tr":
                return self._review_screen(ctx, bet, spells, clone)
            return Submit(Turn(bet=bet, spells=tuple(spells), clone=clone))
        elif head != "tv":
            raise ValueError("That button does not belong to this prompt.")
        return self._turn_screen(ctx, bet, spells, clone)

    # -- the stock order (variant chosen_order) ----------------------------------------------
    @staticmethod
    def _parse_order(arg: str) -> list[int]:
        try:
            order = [int(ch, 16) for ch in arg]
        except ValueError:
            raise ValueError("That order is not valid; start over.") from None
        if len(set(order)) != len(order) or any(c not in DECK for c in order):
            raise ValueError("That order is not valid; start over.")
        return order

    def _order_screen(self, ctx: PromptContext, order: list[int]) -> Prompt:
        seq = "".join(f"{c:x}" for c in order)
        rest = [c for c in DECK if c not in order]
        view = discord.ui.View(timeout=None)
        if rest:
            text = (
                f"Put your 14 spells in the order you will draw them (top first): you draw 5 at the start, then 3 "
                f"each round. Pick the spell for place **{len(order) + 1} of 14**."
            )
            view.add_item(
                discord.ui.Select(
                    custom_id=ctx.cid(f"os.{seq}"),
                    placeholder=f"Spell for place {len(order) + 1}",
                    options=[spell_option(c, str(c)) for c in rest],
                )
            )
            view.add_item(
                discord.ui.Button(
                    label="The rest in number order", style=discord.ButtonStyle.primary, custom_id=ctx.cid(f"of.{seq}")
                )
            )
        else:
            text = "Your order is complete. Confirm to lock it in (it stays secret)."
            view.add_item(
                discord.ui.Button(
                    label="Confirm this order",
                    emoji="✅",
                    style=discord.ButtonStyle.success,
                    custom_id=ctx.cid(f"ok.{seq}"),
                )
            )
        if order:
            view.add_item(
                discord.ui.Button(label="Undo", style=discord.ButtonStyle.secondary, custom_id=ctx.cid(f"ou.{seq}"))
            )
            view.add_item(
                discord.ui.Button(label="Start over", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("or"))
            )
        e = self._header(ctx, "order your stock", text)
        if order:
            first = [f"{i}. {SPELL_EMOJI.get(c, '')} {spell_label(c)}" for i, c in enumerate(order, 1)]
            e.add_field(name="Your stock, top first", value="\n".join(first), inline=False)
        return Prompt("", [e], view)

    def _handle_order(self, ctx: PromptContext, head: str, arg: str, values: Sequence[str]) -> Submit | Prompt:
        order = self._parse_order(arg)
        if head == "os":
            card = _int(values[0], "spell") if values else -1
            if card not in DECK or card in order:
                raise ValueError("Pick one of the spells not placed yet.")
            order.append(card)
        elif head == "of":
            order += [c for c in DECK if c not in order]
        elif head == "ou":
            order = order[:-1]
        elif head == "or":
            order = []
        elif head == "ok":
            if len(order) != len(DECK):
                raise ValueError("Place all 14 spells first.")
            return Submit(Order(stock=tuple(order)))
        return self._order_screen(ctx, order)

    # -- Larceny -------------------------------------------------------------------------
    @staticmethod
    def _stolen(ctx: PromptContext) -> list[int]:
        pending = seen(ctx)["pending_choice"]
        return list(pending.get("stolen", [])) if pending is not None else []

    def _resolving_text(self, ctx: PromptContext) -> str:
        r = seen(ctx)["resolving"]
        if not r:
            return ""
        return "\n".join(f"{SEAT_EMOJI[s]} {ctx.names[s]} bet {played(r, s)}" for s in (0, 1))

    def _larceny_screen(self, ctx: PromptContext, mask: int) -> Prompt:
        stolen = self._stolen(ctx)
        applied = [c for i, c in enumerate(stolen) if mask >> i & 1]
        dropped = [c for i, c in enumerate(stolen) if not mask >> i & 1]
        text = (
            f"Your Larceny stole {spell_list(stolen)}. Choose the ones that apply **for you**; the others are "
            "discarded.\n\n"
            + self._resolving_text(ctx)
            + "\n\n"
            + "\n".join(spell_line(c) for c in dict.fromkeys(stolen))
        )
        e = self._header(ctx, "Larceny", clip(text, EMBED_DESCRIPTION))
        e.add_field(
            name="Your choice",
            value=clip(f"Apply: {spell_list(applied)}\nDiscard: {spell_list(dropped)}", EMBED_FIELD_VALUE),
            inline=False,
        )
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
            discord.ui.Button(
                label=clip(f"Apply {len(applied)}, discard {len(dropped)}", 80),
                emoji="🦝",
                style=discord.ButtonStyle.success,
                custom_id=ctx.cid(f"lk.{mask:x}"),
            )
        )
        if mask:
            view.add_item(
                discord.ui.Button(
                    label="Discard them all", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("ln")
                )
            )
        return Prompt("", [e], view)

    def _handle_larceny(self, ctx: PromptContext, head: str, arg: str, values: Sequence[str]) -> Submit | Prompt:
        stolen = self._stolen(ctx)
        if head == "ln":
            return Submit(LarcenyChoice(apply=()))
        try:
            mask = int(arg or "0", 16)
        except ValueError:
            raise ValueError("That choice is not valid; use your newest prompt.") from None
        if head == "ls":
            idx = {_int(v, "spell") for v in values}
            if any(not 0 <= i < len(stolen) for i in idx):
                raise ValueError("Choose among the stolen spells.")
            return self._larceny_screen(ctx, _mask(idx))
        if mask >> len(stolen):
            raise ValueError("Choose among the stolen spells.")
        return Submit(LarcenyChoice(apply=tuple(sorted(c for i, c in enumerate(stolen) if mask >> i & 1))))

    # -- Recycle -------------------------------------------------------------------------
    @staticmethod
    def _old_bet(ctx: PromptContext) -> int:
        """The bet Recycle changes."""
        rc = you(ctx).get("recycle")
        if rc is None:
            raise ValueError("That prompt is out of date: use your newest prompt.")
        return rc["bet"]

    def _recycle_screen(self, ctx: PromptContext, bet: int) -> Prompt:
        old, bound = self._old_bet(ctx), bet_bound(ctx)
        lo, hi = bound.low, bound.high
        e = self._header(
            ctx,
            "Recycle",
            f"Recycle lets you change your bet of **{old}** to anything from **{lo}** to **{hi}**: you fight and "
            f"pay with the new bet.\n\n" + self._resolving_text(ctx),
        )
        e.add_field(name="New bet", value=f"**{bet}**" + (" (unchanged)" if bet == old else f" (was {old})"))
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"rs.{bet}"),
                placeholder=f"New bet ({lo} to {hi})",
                options=[
                    discord.SelectOption(
                        label=f"Bet {v}" + (" (keep)" if v == old else f" ({v - old:+d})"),
                        value=str(v),
                        default=v == bet,
                    )
                    for v in range(lo, hi + 1)
                ],
            )
        )
        view.add_item(
            discord.ui.Button(
                label=f"Fight with {bet}", emoji="♻️", style=discord.ButtonStyle.success, custom_id=ctx.cid(f"rk.{bet}")
            )
        )
        if bet != old:
            view.add_item(
                discord.ui.Button(label=f"Keep {old}", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("rn"))
            )
        return Prompt("", [e], view)

    def _handle_recycle(self, ctx: PromptContext, head: str, arg: str, values: Sequence[str]) -> Submit | Prompt:
        old, bound = self._old_bet(ctx), bet_bound(ctx)
        if head == "rn":
            return Submit(RecycleChoice(bet=old))
        bet = _int(values[0], "bet") if head == "rs" and values else _int(arg, "bet")
        if bet not in bound:
            raise ValueError(f"Recycle can change your bet of {old} to {bound.low} to {bound.high} only, not {bet}.")
        if head == "rs":
            return self._recycle_screen(ctx, bet)
        return Submit(RecycleChoice(bet=bet))

    # -- dispatch ------------------------------------------------------------------------
    def handle(self, ctx: PromptContext, payload: str, values: Sequence[str]) -> Submit | Prompt:
        head, _, arg = payload.partition(".")
        kind = asked(ctx)
        groups = {"turn": "t", "order": "o", "larceny": "l", "recycle": "r"}
        if not head or kind is None or groups.get(kind) != head[0]:
            raise ValueError("That prompt is out of date: use your newest prompt.")
        if kind == "turn":
            return self._handle_turn(ctx, head, arg, values)
        if kind == "order":
            return self._handle_order(ctx, head, arg, values)
        if kind == "larceny":
            return self._handle_larceny(ctx, head, arg, values)
        return self._handle_recycle(ctx, head, arg, values)

    # ------------------------------------------------------------------ channel post
    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        return self.public_post(view, events, names, images=False).embeds

    def public_post(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str], *, images: bool
    ) -> Post:
        return _public_post(cast(FirewallView, view), events, names, images=images)


def _public_post(view: FirewallView, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
    public = [e for e in events if e.visible_to is None]
    news = [e for e in public if e.kind in NEWS]
    story = [e for e in public if e.kind not in NEWS]
    ready = " ".join(f"✅ {fill_names(e.text, names)}" for e in news)
    if news and not story:  # only "X is ready": one short line, no picture
        return Post([discord.Embed(description=clip(ready, EMBED_DESCRIPTION), colour=COLOUR)])
    lines: list[str] = []
    title = ""
    end: discord.Embed | None = None
    shuffles = 0
    for ev in story:
        text = fill_names(ev.text, names)
        if ev.kind == "reveal":
            d = ev.data
            title = f"Round {d['round']}, turn {d['turn']}"
            lines += [f"{SEAT_EMOJI[s]} **{names[s]}** bets {played(d, s)}" for s in (0, 1)]
        elif ev.kind == "spell":
            lines.append(f"{RESULT_ICON.get(ev.data.get('result', ''), '•')} {text}")
        elif ev.kind == "shuffle":
            shuffles += 1
        elif ev.kind == "round_start":
            title = title or f"Round {ev.data['round']} begins"
            lines.append(f"{EVENT_ICON['round_start']} {text}")
        elif ev.kind == "game_end":
            end = discord.Embed(title="🏆 Firewall is decided", description=clip(text, EMBED_DESCRIPTION))
            end.colour = discord.Colour.gold()
        else:
            lines.append(f"{EVENT_ICON.get(ev.kind, '•')} {text}")
    if shuffles:
        lines.insert(0, f"{EVENT_ICON['shuffle']} Both wizards shuffle their 14 spells into their stock.")
    if not title:
        last = view["resolving"] or view["last_turn"]
        title = f"Round {last['round']}, turn {last['turn']} (continued)" if last else f"Round {view['round']}"
    if news:
        lines.insert(0, ready)
    embeds = _line_embeds(f"🔥 Firewall — {title}", lines)
    board = embeds[-1]
    files: list[discord.File] = []
    for p in view["players"]:
        s = p["seat"]
        value = [f"Mana **{p['mana']}**/{MAX_MANA}"]
        if not images:
            value.append(mana_bar(s, p["mana"]))
        value.append(f"Flagstone {p['wizard']} · hand {p['hand_size']} · stock {p['stock_count']}")
        board.add_field(name=clip(f"{SEAT_EMOJI[s]} {names[s]}", 256), value="\n".join(value), inline=True)
    b = view["bridge"]
    where = f"🔥 Wall on flagstone {b['wall']} (round began on {b['round_start_wall']})"
    if view["muted"]:
        where += " · 🔇 muted"
    if images:
        filename = f"firewall-r{view['round']}-t{view['turns_total']}.png"
        files.append(bridge_file(view, names, filename))
        board.set_image(url=f"attachment://{filename}")
        board.add_field(name="Bridge", value=where, inline=False)
    else:
        board.add_field(name="Bridge", value=f"{bridge_strip(view)}\n{where}", inline=False)
    board.set_footer(text=_next(view, names))
    if end is not None:
        embeds.append(end)
    return Post(embeds, files)


def _line_embeds(title: str, lines: list[str]) -> list[discord.Embed]:
    """The story lines in as many embeds as they need (4,096 characters of description each)."""
    embeds = [discord.Embed(title=clip(title, 256), colour=COLOUR)]
    cur: list[str] = []
    size = 0
    for line in lines:
        line = clip(line, 1000)
        if cur and size + len(line) + 1 > EMBED_DESCRIPTION:
            embeds[-1].description = "\n".join(cur)
            embeds.append(discord.Embed(colour=COLOUR))
            cur, size = [], 0
        cur.append(line)
        size += len(line) + 1
    embeds[-1].description = "\n".join(cur) or None
    return embeds


def _next(view: FirewallView, names: Sequence[str]) -> str:
    if view["phase"] == "over":
        return "The match is over."
    pending = view["pending_choice"]
    if pending:
        what = "which stolen spells to apply" if pending["kind"] == "larceny" else "a new bet (Recycle)"
        return f"Waiting for {names[pending['seat']]} to choose {what}."
    if view["phase"] == "order":
        return "Both wizards are ordering their stock in secret."
    return "Next: both wizards choose a bet and spells in secret."


UI = FirewallUI()
