"""Magic Duel in Discord: the private prompts (cast a spell, draw) and the channel posts.

Prompts are stateless: the screen's state (the hand indices of the chosen spell, the Risk card) is
in the components' custom_ids. Card ids may contain ``#`` (second deck), which a custom_id cannot
hold, so payloads name cards by their index in the seat's sorted hand (one base-36 character
each). The hand does not change while the seat's step stays the same, so an index stays valid.

Payloads: ``c.<risk>`` the spell's multi-select, ``q.<risk>`` the quick pick of a combination,
``r.<spell>`` the Risk select, ``s.<spell>.<risk>`` a screen (Clear), ``p.<spell>.<risk>`` Cast,
``d.<n>`` a draw with n cards from the Deck of Risk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import discord

from rules import Bound, Event, fill_names
from rules.magic_duel import (
    Combo,
    Draw,
    Kind,
    Phase,
    PlayCards,
    SeatView,
    SpectatorView,
    classify,
    combinations_in,
    label,
    parse_card,
)
from rules.magic_duel.cards import SUIT_NAME, labels

from ..base import (
    EMBED_DESCRIPTION,
    EMBED_FIELD_VALUE,
    EMBED_TITLE,
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
from .art import TrickRow, hand_file, trick_file

COLOUR = discord.Colour.from_rgb(72, 52, 140)
INDEX = "0123456789abcdefghijklmnopqrstuvwxyz"
BACK = "🂠"
KIND_EMOJI = {"Cantrip": "✨", "Codu": "⚡", "Thrack": "🔥", "Raquav": "💥", "Badef": "🛡️", "Jokulme": "🌟"}
COMBINATION_HELP = (
    "Cast one card (Cantrip), 2, 3 or 4 cards of the same value (Codu, Thrack, Raquav), "
    "one Joker (Badef) or both Jokers (Jokulme)."
)


def emoji(seat: int) -> str:
    return SEAT_EMOJI[seat % len(SEAT_EMOJI)]


def who(seat: int, names: Sequence[str]) -> str:
    return f"{emoji(seat)} **{names[seat]}**"


def cards_text(ids: Sequence[str]) -> str:
    return " ".join(f"`{label(c)}`" for c in ids)


def combo_text(ids: Sequence[str]) -> str:
    combo = classify(ids)
    if combo is None:
        return cards_text(ids)
    return f"{KIND_EMOJI.get(combo.kind.title, '')} **{combo.kind.title}** {cards_text(combo.cards)}"


def _card_description(card_id: str) -> str:
    c = parse_card(card_id)
    if c is None:
        return card_id
    base = "Joker" if c.joker else f"{c.rank} of {SUIT_NAME[c.suit or 'D']}"
    return base + (f", deck {c.deck}" if c.deck > 1 else "")


def _decode(indices: str, hand: Sequence[str]) -> list[int]:
    """Hand indices from a payload part; ValueError if they are not valid for this hand."""
    out = []
    for ch in indices:
        i = INDEX.find(ch)
        if i < 0 or i >= len(hand) or i in out:
            raise ValueError("That choice does not match your hand any more; open your newest prompt.")
        out.append(i)
    return out


def _encode(indices: Sequence[int]) -> str:
    return "".join(INDEX[i] for i in sorted(indices))


# ---------------------------------------------------------------------------------- reference

COMBINATIONS: dict[str, tuple[str, str, str]] = {
    # key: (title, what, how it compares)
    "cantrip": (
        "Cantrip",
        "A single card.",
        "Value A < 2 < … < 10 < J < Q < K, except that when an Ace and a King are both cast as Cantrips "
        "in the same trick, the Ace wins it; equal "
        "values: the suit decides ♦ < ♥ < ♠ < ♣. Loses to every other kind, and to a Badef.",
    ),
    "codu": (
        "Codu (the Double)",
        "Two cards of the same value.",
        "Beats any Cantrip. Among Codus: value (Ace over King applies), then the highest suit of each, then "
        "the next suit. Ties against a Badef.",
    ),
    "thrack": (
        "Thrack (breaking attack)",
        "Three cards of the same value.",
        "Beats any Codu or Cantrip; among Thracks the same order as Codus. Ties against a Badef.",
    ),
    "raquav": (
        "Raquav (finishing move)",
        "Four cards of the same value.",
        "Beats every other ordinary combination; among Raquavs the same order. Ties against a Badef.",
    ),
    "badef": (
        "Badef (abjuration magic)",
        "One Joker.",
        "Always beats a Cantrip. Against a Codu, Thrack or Raquav (or another Badef) the trick is tied: "
        "everyone takes their spell back and casts again at once. Loses to a Jokulme.",
    ),
    "jokulme": (
        "Jokulme (ultimate mahou)",
        "Both Jokers.",
        "Wins against any combination. If several are cast (several decks), the first one cast wins.",
    ),
}
TOPICS: dict[str, tuple[str, str]] = {
    "risk": (
        "The Deck of Risk",
        "Before casting you may put one card of your hand face-down on the Deck of Risk; your spell is then "
        "cast face-up (everyone sees it at once). The card cannot be part of the spell. When drawing you "
        "choose how many cards come from the Deck of Risk (taken first, from the top).",
    ),
    "cursed-spell": (
        "The Cursed Spell",
        "A single extra card shuffled into the Deck of Advantage. Whoever draws it stops drawing at once; both "
        "decks close and one last trick is played with the cards in hand, then the hand is scored.",
    ),
    "scoring": (
        "Scoring a hand",
        "The wizard with the most tricks scores 1 point plus 1 per wizard with no trick; doubled if nobody "
        "else gathered a trick. Equal most tricks: each of them scores. The game ends when someone reaches "
        "the points to win.",
    ),
}


def lookup_entries() -> list[Lookup]:
    out = [Lookup(k, v[0]) for k, v in COMBINATIONS.items()]
    out += [Lookup(k, v[0]) for k, v in TOPICS.items()]
    return out


# ---------------------------------------------------------------------------------- the UI


class MagicDuelUI(GameUI):
    slug = "magic-duel"

    # ------------------------------------------------------------------ reference
    def rules_fields(self) -> list[tuple[str, str]]:
        return [
            (
                "Combinations (strongest first)",
                "🌟 **Jokulme** both Jokers: wins everything · 💥 **Raquav** 4 of a value · 🔥 **Thrack** 3 · "
                "⚡ **Codu** 2 · ✨ **Cantrip** 1 card.\n🛡️ **Badef** one Joker: beats every Cantrip, ties "
                "against Codu/Thrack/Raquav/Badef (everyone casts again).",
            ),
            (
                "Same kind",
                "Value A < 2 < … < 10 < J < Q < K, but an **Ace beats a King** cast in the same trick (among "
                "Cantrips the Ace then wins the trick). Equal "
                "values: suits ♦ < ♥ < ♠ < ♣ (highest suit first). Exact duplicates (two decks): first cast wins.",
            ),
            (
                "Your turn",
                "In your private prompt pick your spell's cards (one combination) and, if you like, a card for "
                "the **Deck of Risk**: then your spell is cast face-up at once. Otherwise it stays face-down "
                "until everyone has cast. After each trick everyone refills to 7, choosing how many cards come "
                "from the Deck of Risk; the winner draws one extra card and leads.",
            ),
            (
                "The Cursed Spell and scoring",
                "Drawing the Cursed Spell closes both decks: one last trick, then the hand is scored: most tricks "
                "→ 1 point + 1 per wizard with no trick (doubled if nobody else has a trick).",
            ),
            (
                "Options explained",
                "`points_to_win` tournament points that end the game (default 3; 1 = one hand). "
                "`decks` number of 54-card decks (auto: 1 up to 5 players, 2 from 6).",
            ),
            (
                "Leaving",
                "A wizard who forfeits or runs out of time on a spell is removed; the others play on while at "
                "least two remain. A draw that times out takes every card from the Deck of Advantage.",
            ),
            ("Look-ups", "/card game:Magic Duel name:codu (every combination, the Deck of Risk, the Cursed Spell)."),
        ]

    def lookup_choices(self, current: str) -> list[Lookup]:
        cur = current.lower().strip()
        words = lambda e: [e.key, *e.label.lower().replace("(", " ").split()]  # noqa: E731
        return [e for e in lookup_entries() if any(w.startswith(cur) for w in words(e))]

    def lookup(self, key: str) -> discord.Embed | None:
        key = key.lower().strip()
        if key not in COMBINATIONS:
            key = next((k for k, v in COMBINATIONS.items() if v[0].lower().startswith(key) and key), key)
        if key in COMBINATIONS:
            title, what, how = COMBINATIONS[key]
            e = discord.Embed(title=f"{KIND_EMOJI[title.split()[0]]} {title}", description=what, colour=COLOUR)
            e.add_field(name="How it compares", value=how, inline=False)
            e.add_field(
                name="Order of kinds",
                value="Jokulme > Raquav > Thrack > Codu > Cantrip; Badef beats Cantrips and ties the others.",
                inline=False,
            )
            return e
        if key in TOPICS:
            title, text = TOPICS[key]
            return discord.Embed(title=title, description=text, colour=COLOUR)
        return None

    # ------------------------------------------------------------------ private prompts
    def prompt(self, ctx: PromptContext) -> Prompt:
        asked = _kind(ctx)
        if asked == Phase.TRICK:
            return self._trick_screen(ctx, [], None)
        if asked == Phase.DRAW:
            return self._draw_screen(ctx)
        e = self._header(ctx, "your hand", "Nothing to decide right now: the others are casting. Watch the channel!")
        return self._with_hand(ctx, Prompt("", [e]), [], None)

    def _header(self, ctx: PromptContext, title: str, text: str) -> discord.Embed:
        v = _seen(ctx)
        e = discord.Embed(title=f"Magic Duel — {title}", description=clip(text, EMBED_DESCRIPTION), colour=COLOUR)
        trick = v["trick"]
        where = f"hand {v['hand']}" + (f" · trick {trick['number']}" if trick else "")
        if trick and trick["last"]:
            where += " (the last one)"
        e.set_footer(text=f"Match #{ctx.match_id} · {where} · {v['points_to_win']} point(s) to win")
        return e

    def _table_field(self, ctx: PromptContext, e: discord.Embed) -> None:
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

    def _with_hand(self, ctx: PromptContext, prompt: Prompt, selected: Sequence[int], risk: int | None) -> Prompt:
        hand = _seen(ctx)["you"]["hand"]
        e = prompt.embeds[0]
        numbered = " ".join(f"**{i + 1}**·`{label(c)}`" for i, c in enumerate(hand)) or "no cards"
        e.insert_field_at(0, name=f"Your hand ({len(hand)})", value=clip(numbered, EMBED_FIELD_VALUE), inline=False)
        if ctx.images and hand:
            prompt.files.append(hand_file(hand, selected=selected, risk=risk, filename="hand.png"))
            e.set_image(url="attachment://hand.png")
        return prompt

    def _trick_screen(self, ctx: PromptContext, sel: list[int], risk: int | None, note: str = "") -> Prompt:
        hand = _seen(ctx)["you"]["hand"]
        chosen = [hand[i] for i in sel]
        lines = [
            "Your turn to cast a spell. Choose its cards (one combination) below — or take one from "
            "**Quick pick** — then press **Cast**.",
            "Optionally put one other card on the **Deck of Risk** first: then your spell is cast face-up "
            "and everyone sees it at once.",
            "",
        ]
        if note:
            lines.append(f"ℹ️ {note}")
        if not chosen:
            lines.append("**Your spell:** nothing chosen yet.")
        elif (combo := classify(chosen)) is None:
            lines.append(f"**Your spell:** ⚠️ {cards_text(chosen)} is not a combination. {COMBINATION_HELP}")
        else:
            lines.append(f"**Your spell:** {combo_text(combo.cards)} ✅")
        if risk is None:
            lines.append("**Deck of Risk:** no card — your spell will be cast **face-down**.")
        else:
            lines.append(f"**Deck of Risk:** `{label(hand[risk])}` — your spell will be cast **face-up**.")
        e = self._header(ctx, "cast your spell", "\n".join(lines))
        self._table_field(ctx, e)
        rk = "" if risk is None else INDEX[risk]
        sp = _encode(sel)
        view = discord.ui.View(timeout=None)
        view.add_item(
            discord.ui.Select(
                custom_id=ctx.cid(f"c.{rk}"),
                placeholder="Cards of your spell (one combination)",
                min_values=1,
                max_values=min(4, len(hand)),
                options=[
                    discord.SelectOption(
                        label=f"{i + 1}. {label(c)}",
                        value=INDEX[i],
                        description=_card_description(c),
                        default=i in sel,
                    )
                    for i, c in enumerate(hand)
                ][:SELECT_OPTIONS],
            )
        )
        quick = quick_picks(hand)
        if quick:
            view.add_item(
                discord.ui.Select(
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
            )
        others = [i for i in range(len(hand)) if i not in sel]
        if len(hand) >= 2:
            options = [
                discord.SelectOption(label="No Risk card: cast face-down", value="-", emoji="🂠", default=risk is None)
            ]
            options += [
                discord.SelectOption(
                    label=f"Risk {i + 1}. {label(hand[i])}, cast face-up",
                    value=INDEX[i],
                    description=_card_description(hand[i]),
                    default=i == risk,
                )
                for i in others
            ][: SELECT_OPTIONS - 1]
            view.add_item(
                discord.ui.Select(custom_id=ctx.cid(f"r.{sp}"), placeholder="Deck of Risk (optional)", options=options)
            )
        cast_label = "Cast face-down" if risk is None else clip(f"Risk {label(hand[risk])} and cast face-up", 80)
        view.add_item(
            discord.ui.Button(
                label=cast_label,
                emoji="🪄",
                style=discord.ButtonStyle.success,
                custom_id=ctx.cid(f"p.{sp}.{rk}"),
                disabled=not sel,
            )
        )
        view.add_item(
            discord.ui.Button(
                label="Clear", style=discord.ButtonStyle.secondary, custom_id=ctx.cid("s.."), disabled=not (sel or rk)
            )
        )
        return self._with_hand(ctx, Prompt("", [e], view), sel, risk)

    def _draw_screen(self, ctx: PromptContext) -> Prompt:
        v = _seen(ctx)
        risk, need = _draw_bounds(ctx)
        risk_n = v["decks"]["risk"]
        draw = v["draw"]
        lines = [
            f"Refill your hand to 7: you draw **{need}** card{'s' if need != 1 else ''}. Choose how many come "
            f"from the **Deck of Risk** ({risk_n} card{'s' if risk_n != 1 else ''}, drawn first, from the top); "
            f"the rest come from the **Deck of Advantage** ({v['decks']['advantage']} cards).",
            "The Cursed Spell hides in the Deck of Advantage: whoever draws it stops at once, the decks close "
            "and one last trick is played.",
        ]
        if draw is not None and draw["winner"] == ctx.seat:
            lines.append("You won the trick: after the draws you take one extra card of advantage and lead.")
        e = self._header(ctx, "draw", "\n".join(lines))
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
        return self._with_hand(ctx, Prompt("", [e], view), [], None)

    def handle(self, ctx: PromptContext, payload: str, values: Sequence[str]) -> Submit | Prompt:
        head, _, rest = payload.partition(".")
        hand = _seen(ctx)["you"]["hand"]
        asked = _kind(ctx)
        if head in ("c", "q", "r", "s", "p") and asked != Phase.TRICK:
            raise ValueError("It is not your turn to cast a spell; open your newest prompt.")
        if head == "d":
            if asked != Phase.DRAW:
                raise ValueError("It is not your turn to draw; open your newest prompt.")
            from_risk, _total = _draw_bounds(ctx)
            if not rest.isdigit() or int(rest) not in from_risk:
                raise ValueError("That draw is not possible; open your newest prompt.")
            return Submit(Draw(risk=int(rest)))
        if head in ("c", "q"):
            risked = _decode(rest, hand)
            sel = _decode("".join(values), hand)
            if not sel:
                raise ValueError("Choose at least one card.")
            note = ""
            if risked and risked[0] in sel:
                note = f"{label(hand[risked[0]])} is now part of your spell, so it is no longer your Risk card."
                risked = []
            return self._trick_screen(ctx, sel, risked[0] if risked else None, note)
        if head == "r":
            sel = _decode(rest, hand)
            choice = values[0] if values else "-"
            risk = None if choice == "-" else _decode(choice, hand)[0]
            if risk is not None and risk in sel:
                raise ValueError("The Risk card cannot also be part of your spell.")
            return self._trick_screen(ctx, sel, risk)
        if head in ("s", "p"):
            sp, _, rk = rest.partition(".")
            sel = _decode(sp, hand)
            risk_l = _decode(rk, hand)
            if len(risk_l) > 1:
                raise ValueError("Choose at most one Risk card.")
            risk = risk_l[0] if risk_l else None
            if head == "s":
                return self._trick_screen(ctx, sel, risk)
            chosen = [hand[i] for i in sel]
            if not chosen:
                raise ValueError("Choose the cards of your spell first.")
            if classify(chosen) is None:
                raise ValueError(f"{labels(chosen)} is not a combination. {COMBINATION_HELP}")
            if risk is not None and risk in sel:
                raise ValueError("The Risk card cannot also be part of your spell.")
            return Submit(PlayCards(cards=tuple(chosen), risk=None if risk is None else hand[risk]))
        raise ValueError("That button does not belong to this prompt.")

    # ------------------------------------------------------------------ channel posts
    def public_embeds(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str]
    ) -> list[discord.Embed]:
        return self.public_post(view, events, names, images=False).embeds

    def public_post(
        self, view: Mapping[str, Any], events: Sequence[Event], names: Sequence[str], *, images: bool
    ) -> Post:
        seen = cast(SpectatorView, view)
        public = [e for e in events if e.visible_to is None]
        post = Post()
        lines: list[str] = []

        def flush() -> None:
            if lines:
                post.embeds.append(discord.Embed(description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=COLOUR))
                lines.clear()

        reveal: Event | None = None
        for ev in public:
            d = ev.data
            k = ev.kind
            if k == "deal":
                flush()
                order = " → ".join(names[s] for s in d["turn_order"])
                e = discord.Embed(
                    title=f"🃏 Hand {d['hand']} is dealt",
                    description=(
                        f"7 cards each · Deck of Risk: {d['risk']} · Deck of Advantage: {d['advantage']} (the Cursed "
                        f"Spell is in it).\nTurn order: {order}. {who(d['leader'], names)} leads."
                    ),
                    colour=COLOUR,
                )
                post.embeds.append(e)
            elif k == "play_face_down":
                lines.append(
                    f"{who(d['seat'], names)} casts face-down: {BACK * d['count']} ({d['count']} card"
                    f"{'s' if d['count'] != 1 else ''})"
                )
            elif k == "play_face_up":
                lines.append(f"{who(d['seat'], names)} risks a card and casts face-up: {combo_text(d['cards'])}")
            elif k == "pass":
                lines.append(f"{who(d['seat'], names)} has no cards and passes.")
            elif k == "reveal":
                flush()
                reveal = ev
            elif k in ("trick_won", "trick_tied") and reveal is not None:
                e, f = self._trick_embed(reveal, ev, seen, names, images)
                post.embeds.append(e)
                if f is not None:
                    post.files.append(f)
                reveal = None
            elif k == "replay":
                lines.append(f"🔁 Trick {d['trick']} is cast again, {who(d['leader'], names)} first.")
            elif k == "draw":
                lines.append(
                    f"{who(d['seat'], names)} draws {d['risk']} from Risk + {d['advantage']} from Advantage "
                    f"(decks: Risk {d['risk_deck']} · Advantage {d['advantage_deck']})"
                )
            elif k == "extra_card":
                lines.append(f"{who(d['seat'], names)} draws the extra card of advantage and leads.")
            elif k == "cursed_spell":
                lines.append(
                    f"☠️ {who(d['seat'], names)} draws **the Cursed Spell**! The decks are closed: one last trick "
                    "with the cards in hand."
                )
            elif k == "no_trick":
                lines.append("Nobody has a card left to cast; the hand ends.")
            elif k == "forfeit":
                lines.append(f"🏳️ {fill_names(ev.text, names)}")
            elif k == "hand_scored":
                flush()
                post.embeds.append(self._scoring_embed(d, seen, names))
            elif k == "game_end":
                flush()
                final = discord.Embed(
                    title="🏆 The tournament is over",
                    description=fill_names(ev.text, names),
                    colour=discord.Colour.gold(),
                )
                final.add_field(
                    name="Points",
                    value=clip(
                        "\n".join(
                            f"{who(s, names)}: {d['points'][s]}" + (" (left)" if s in seen["removed"] else "")
                            for s in range(len(names))
                        ),
                        EMBED_FIELD_VALUE,
                    ),
                    inline=False,
                )
                post.embeds.append(final)
        flush()
        if not post.embeds:
            post.embeds.append(discord.Embed(description="…", colour=COLOUR))
        nxt = next_up(seen, names)
        if nxt:
            post.embeds[-1].set_footer(text=nxt)
        return post

    def _trick_embed(
        self, reveal: Event, verdict: Event, view: SpectatorView, names: Sequence[str], images: bool
    ) -> tuple[discord.Embed, discord.File | None]:
        r, v = reveal.data, verdict.data
        won = verdict.kind == "trick_won"
        winner = v.get("winner") if won else None
        title = f"Trick {r['trick']}" + (" (the last)" if r.get("last") else "") + f" · hand {r['hand']}"
        if r.get("replay"):
            title += f" · cast again ×{r['replay']}"
        lines = []
        for p in r["plays"]:
            mark = "🏆 " if p["seat"] == winner else ""
            lines.append(
                f"{mark}{who(p['seat'], names)}: {combo_text(p['cards'])}" + (" · face-up" if p["face_up"] else "")
            )
        lines += ["", f"**Why:** {fill_names(v.get('reason', ''), names)}"]
        head = (
            f"🏆 {names[winner]} wins the trick" if winner is not None else "🔁 Tied: everyone takes their spell back"
        )
        e = discord.Embed(
            title=clip(f"{title} — {head}", EMBED_TITLE),
            description=clip("\n".join(lines), EMBED_DESCRIPTION),
            colour=COLOUR,
        )
        if won:
            e.add_field(name="Standing", value=clip(standing(view, names), EMBED_FIELD_VALUE), inline=False)
        f = None
        if images:
            fname = f"trick-{r['hand']}-{r['trick']}-{r.get('replay', 0)}.png"
            rows = [
                TrickRow(
                    seat=p["seat"],
                    name=names[p["seat"]],
                    cards=tuple(p["cards"]),
                    count=len(p["cards"]),
                    note=p["combination"] + (", face-up" if p["face_up"] else ""),
                    winner=p["seat"] == winner,
                )
                for p in r["plays"]
            ]
            f = trick_file(f"Trick {r['trick']} · hand {r['hand']}", rows, filename=fname)
            e.set_image(url=f"attachment://{fname}")
        return e, f

    def _scoring_embed(self, d: Mapping[str, Any], view: SpectatorView, names: Sequence[str]) -> discord.Embed:
        rows = []
        for s in range(len(names)):
            if s in view["removed"]:
                rows.append(f"{who(s, names)}: left the game")
                continue
            got = d["awarded"][s]
            rows.append(
                f"{who(s, names)}: {d['tricks'][s]} trick{'s' if d['tricks'][s] != 1 else ''}"
                + (f" · **+{got}**" if got else "")
                + f" → {d['points'][s]} point{'s' if d['points'][s] != 1 else ''}"
            )
        if d["best"]:
            text = (
                "Most tricks: " + ", ".join(names[s] for s in d["best"]) + f" · 1 + {len(d['zero_tricks'])} for the "
                f"wizard{'s' if len(d['zero_tricks']) != 1 else ''} with no trick"
                + (" · doubled: nobody else gathered a trick" if d["doubled"] else "")
                + "\n"
            )
        else:
            text = "No trick was gathered: nobody scores.\n"
        return discord.Embed(
            title=f"📜 Hand {d['hand']} is scored",
            description=clip(text + "\n".join(rows), EMBED_DESCRIPTION),
            colour=COLOUR,
        )


#: Quick-pick order: Badef (beats Cantrips, ties the rest) sits between Codu and Cantrip.
KIND_STRENGTH = {Kind.JOKULME: 6, Kind.RAQUAV: 5, Kind.THRACK: 4, Kind.CODU: 3, Kind.BADEF: 2, Kind.CANTRIP: 1}


def quick_picks(hand: Sequence[str]) -> list[tuple[list[int], Combo]]:
    """Every combination in the hand as (hand indices, combination), strongest first, at most 25."""
    combos = []
    for ids in combinations_in(hand):
        combo = classify(ids)
        assert combo is not None  # combinations_in lists combinations only
        combos.append(([hand.index(c) for c in ids], combo))
    combos.sort(key=lambda t: (KIND_STRENGTH[t[1].kind], t[1].value, t[1].suits), reverse=True)
    return combos[:SELECT_OPTIONS]


def standing(view: SpectatorView, names: Sequence[str]) -> str:
    """A line per wizard: tricks this hand, points, cards in hand; then the decks."""
    lines = []
    for p in view["players"]:
        s = p["seat"]
        if p["removed"]:
            lines.append(f"{emoji(s)} ~~{names[s]}~~ left")
            continue
        lines.append(
            f"{emoji(s)} {names[s]}: {p['tricks']} trick{'s' if p['tricks'] != 1 else ''} · "
            f"{p['points']} pt{'s' if p['points'] != 1 else ''} · {p['hand_size']} cards"
        )
    decks = view["decks"]
    lines.append(
        "Decks closed (the Cursed Spell was drawn)"
        if decks["closed"]
        else f"Deck of Risk {decks['risk']} · Deck of Advantage {decks['advantage']}"
    )
    return "\n".join(lines)


def next_up(view: SpectatorView, names: Sequence[str]) -> str:
    seat = view["to_act"]
    if view["phase"] == Phase.OVER or seat is None:
        return ""
    if view["phase"] == Phase.DRAW:
        return f"⏳ {names[seat]} is choosing how to draw."
    trick = view["trick"]
    return f"⏳ Next: {names[seat]} casts (trick {trick['number'] if trick else '?'})."


def _seen(ctx: PromptContext) -> SeatView:
    """What the prompted seat sees (the rules' seat view)."""
    return cast(SeatView, ctx.seen)


def _kind(ctx: PromptContext) -> str | None:
    """What the seat is asked now ("trick", "draw"), or None."""
    return ctx.decision.kind if ctx.decision is not None else None


def _draw_bounds(ctx: PromptContext) -> tuple[Bound, int]:
    """The draw's limits: how many cards may come from the Deck of Risk, and how many are drawn
    in all (the rest come from the Deck of Advantage)."""
    decision = ctx.decision
    risk = decision.bound("risk") if decision is not None else None
    advantage = decision.bound("advantage") if decision is not None else None
    if risk is None or advantage is None:
        raise ValueError("It is not your turn to draw; open your newest prompt.")
    return risk, risk.low + advantage.high


UI = MagicDuelUI()
