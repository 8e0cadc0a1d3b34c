"""Magic Duel's public side: the channel post after a resolution, the board (the standing and who
is next), and the reference behind /rules and /card.

Everything here is built from the spectator view (``rules.magic_duel.SpectatorView``) and the public
events only: a face-down spell shows its card count until the reveal; hands, Risk cards and drawn
cards never show.

A post is built event by event: a wizard's cast, pass or draw adds a line (``LINES``, by event kind),
and consecutive lines share one embed; a deal, a trick (its reveal and verdict), a hand's scoring and
the end of the game each get an embed of their own (``BLOCKS``). The footer says who is next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from rules import Event, fill_names
from rules.magic_duel import HAND_SIZE, Phase, SpectatorView
from rules.text import plural, plural_word

from ..base import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, EMBED_TITLE, Lookup, Post, clip
from .art import TrickRow, trick_file
from .cards import BACK, COLOUR, KIND_EMOJI, combo_text, emoji, who

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


#: The extra fields of /rules.
RULES_FIELDS: list[tuple[str, str]] = [
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


def rules_fields() -> list[tuple[str, str]]:
    """The extra fields of /rules."""
    return list(RULES_FIELDS)


def _words(entry: Lookup) -> list[str]:
    """What a /card entry may be found by: its key and each word of its label."""
    return [entry.key, *entry.label.lower().replace("(", " ").split()]


def lookup_choices(current: str) -> list[Lookup]:
    """The /card entries with a word starting with ``current``."""
    cur = current.lower().strip()
    return [e for e in lookup_entries() if any(w.startswith(cur) for w in _words(e))]


def lookup(key: str) -> discord.Embed | None:
    """The /card embed of a combination (by key or the start of its title) or of a topic."""
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


# ---------------------------------------------------------------------------------- the board


def standing(view: SpectatorView, names: Sequence[str]) -> str:
    """A line per wizard: tricks this hand, points, cards in hand; then the decks."""
    lines = []
    for p in view["players"]:
        s = p["seat"]
        if p["removed"]:
            lines.append(f"{emoji(s)} ~~{names[s]}~~ left")
            continue
        lines.append(
            f"{emoji(s)} {names[s]}: {plural(p['tricks'], 'trick')} · {plural(p['points'], 'pt')} · "
            f"{p['hand_size']} cards"
        )
    decks = view["decks"]
    lines.append(
        "Decks closed (the Cursed Spell was drawn)"
        if decks["closed"]
        else f"Deck of Risk {decks['risk']} · Deck of Advantage {decks['advantage']}"
    )
    return "\n".join(lines)


def next_up(view: SpectatorView, names: Sequence[str]) -> str:
    """Who acts next (the post's footer), or "" when the game is over."""
    seat = view["to_act"]
    if view["phase"] == Phase.OVER or seat is None:
        return ""
    if view["phase"] == Phase.DRAW:
        return f"⏳ {names[seat]} is choosing how to draw."
    trick = view["trick"]
    return f"⏳ Next: {names[seat]} casts (trick {trick['number'] if trick else '?'})."


def board_post(seen: SpectatorView, names: Sequence[str]) -> Post:
    """The live board's part of Magic Duel: the standing, and who acts next."""
    embed = discord.Embed(title="Standing", description=standing(seen, names), colour=COLOUR)
    nxt = next_up(seen, names)
    if nxt:
        embed.set_footer(text=nxt)
    return Post([embed])


# ---------------------------------------------------------------------------------- event lines


def _face_down(ev: Event, names: Sequence[str]) -> str:
    d = ev.data
    return f"{who(d['seat'], names)} casts face-down: {BACK * d['count']} ({plural(d['count'], 'card')})"


def _face_up(ev: Event, names: Sequence[str]) -> str:
    return f"{who(ev.data['seat'], names)} risks a card and casts face-up: {combo_text(ev.data['cards'])}"


def _passes(ev: Event, names: Sequence[str]) -> str:
    return f"{who(ev.data['seat'], names)} has no cards and passes."


def _replay(ev: Event, names: Sequence[str]) -> str:
    return f"🔁 Trick {ev.data['trick']} is cast again, {who(ev.data['leader'], names)} first."


def _draw(ev: Event, names: Sequence[str]) -> str:
    d = ev.data
    return (
        f"{who(d['seat'], names)} draws {d['risk']} from Risk + {d['advantage']} from Advantage "
        f"(decks: Risk {d['risk_deck']} · Advantage {d['advantage_deck']})"
    )


def _extra_card(ev: Event, names: Sequence[str]) -> str:
    return f"{who(ev.data['seat'], names)} draws the extra card of advantage and leads."


def _cursed(ev: Event, names: Sequence[str]) -> str:
    return (
        f"☠️ {who(ev.data['seat'], names)} draws **the Cursed Spell**! The decks are closed: one last trick "
        "with the cards in hand."
    )


def _no_trick(ev: Event, names: Sequence[str]) -> str:
    return "Nobody has a card left to cast; the hand ends."


def _forfeit(ev: Event, names: Sequence[str]) -> str:
    return f"🏳️ {fill_names(ev.text, names)}"


#: The events shown as one line of the post, by event kind.
LINES: dict[str, Callable[[Event, Sequence[str]], str]] = {
    "play_face_down": _face_down,
    "play_face_up": _face_up,
    "pass": _passes,
    "replay": _replay,
    "draw": _draw,
    "extra_card": _extra_card,
    "cursed_spell": _cursed,
    "no_trick": _no_trick,
    "forfeit": _forfeit,
}


# ---------------------------------------------------------------------------------- event embeds


def deal_embed(d: Mapping[str, Any], names: Sequence[str]) -> discord.Embed:
    order = " → ".join(names[s] for s in d["turn_order"])
    return discord.Embed(
        title=f"🃏 Hand {d['hand']} is dealt",
        description=(
            f"{HAND_SIZE} cards each · Deck of Risk: {d['risk']} · Deck of Advantage: {d['advantage']} (the Cursed "
            f"Spell is in it).\nTurn order: {order}. {who(d['leader'], names)} leads."
        ),
        colour=COLOUR,
    )


def trick_embed(reveal: Event, verdict: Event, view: SpectatorView, names: Sequence[str]) -> discord.Embed:
    """A trick: every spell, the winner (or the tie) and why; the standing after a win."""
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
    head = f"🏆 {names[winner]} wins the trick" if winner is not None else "🔁 Tied: everyone takes their spell back"
    e = discord.Embed(
        title=clip(f"{title} — {head}", EMBED_TITLE),
        description=clip("\n".join(lines), EMBED_DESCRIPTION),
        colour=COLOUR,
    )
    if won:
        e.add_field(name="Standing", value=clip(standing(view, names), EMBED_FIELD_VALUE), inline=False)
    return e


def trick_picture(reveal: Event, verdict: Event, names: Sequence[str]) -> discord.File:
    """The picture of a trick: a row per spell, the winner framed."""
    r = reveal.data
    winner = verdict.data.get("winner") if verdict.kind == "trick_won" else None
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
    fname = f"trick-{r['hand']}-{r['trick']}-{r.get('replay', 0)}.png"
    return trick_file(f"Trick {r['trick']} · hand {r['hand']}", rows, filename=fname)


def scoring_embed(d: Mapping[str, Any], view: SpectatorView, names: Sequence[str]) -> discord.Embed:
    """A hand's scoring: why the best scored, then a line per wizard."""
    rows = []
    for s in range(len(names)):
        if s in view["removed"]:
            rows.append(f"{who(s, names)}: left the game")
            continue
        got = d["awarded"][s]
        rows.append(
            f"{who(s, names)}: {plural(d['tricks'][s], 'trick')}"
            + (f" · **+{got}**" if got else "")
            + f" → {plural(d['points'][s], 'point')}"
        )
    if d["best"]:
        text = (
            "Most tricks: " + ", ".join(names[s] for s in d["best"]) + f" · 1 + {len(d['zero_tricks'])} for the "
            f"{plural_word(len(d['zero_tricks']), 'wizard')} with no trick"
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


def final_embed(ev: Event, view: SpectatorView, names: Sequence[str]) -> discord.Embed:
    """The end of the game: the result and everyone's points."""
    points = ev.data["points"]
    final = discord.Embed(
        title="🏆 The tournament is over",
        description=fill_names(ev.text, names),
        colour=discord.Colour.gold(),
    )
    lines = [f"{who(s, names)}: {points[s]}" + (" (left)" if s in view["removed"] else "") for s in range(len(names))]
    final.add_field(name="Points", value=clip("\n".join(lines), EMBED_FIELD_VALUE), inline=False)
    return final


# ---------------------------------------------------------------------------------- the post


class _PostBuilder:
    """A channel post being built, one public event at a time (``add``), then ``finish``."""

    def __init__(self, view: SpectatorView, names: Sequence[str], images: bool) -> None:
        self.view = view
        self.names = names
        self.images = images
        self.post = Post()
        self.lines: list[str] = []  # the lines of the embed being gathered
        self.reveal: Event | None = None  # a trick's reveal, until its verdict

    def add(self, ev: Event) -> None:
        line = LINES.get(ev.kind)
        if line is not None:
            self.lines.append(line(ev, self.names))
            return
        block = BLOCKS.get(ev.kind)
        if block is not None:
            block(self, ev)

    def flush(self) -> None:
        """Close the embed of the lines gathered so far, if any."""
        if self.lines:
            self.post.embeds.append(
                discord.Embed(description=clip("\n".join(self.lines), EMBED_DESCRIPTION), colour=COLOUR)
            )
            self.lines.clear()

    def on_deal(self, ev: Event) -> None:
        self.flush()
        self.post.embeds.append(deal_embed(ev.data, self.names))

    def on_reveal(self, ev: Event) -> None:
        self.flush()
        self.reveal = ev

    def on_verdict(self, ev: Event) -> None:
        if self.reveal is None:
            return
        e = trick_embed(self.reveal, ev, self.view, self.names)
        if self.images:
            f = trick_picture(self.reveal, ev, self.names)
            e.set_image(url=f"attachment://{f.filename}")
            self.post.files.append(f)
        self.post.embeds.append(e)
        self.reveal = None

    def on_scored(self, ev: Event) -> None:
        self.flush()
        self.post.embeds.append(scoring_embed(ev.data, self.view, self.names))

    def on_game_end(self, ev: Event) -> None:
        self.flush()
        self.post.embeds.append(final_embed(ev, self.view, self.names))

    def finish(self) -> Post:
        self.flush()
        if not self.post.embeds:
            self.post.embeds.append(discord.Embed(description="…", colour=COLOUR))
        nxt = next_up(self.view, self.names)
        if nxt:
            self.post.embeds[-1].set_footer(text=nxt)
        return self.post


#: The events shown as an embed of their own (or, for a reveal, kept for the verdict), by event kind.
BLOCKS: dict[str, Callable[[_PostBuilder, Event], None]] = {
    "deal": _PostBuilder.on_deal,
    "reveal": _PostBuilder.on_reveal,
    "trick_won": _PostBuilder.on_verdict,
    "trick_tied": _PostBuilder.on_verdict,
    "hand_scored": _PostBuilder.on_scored,
    "game_end": _PostBuilder.on_game_end,
}


def public_post(view: SpectatorView, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
    """The channel post after a resolution, from the spectator view and the public events; with
    ``images`` a trick carries its picture."""
    builder = _PostBuilder(view, names, images)
    for ev in events:
        if ev.visible_to is None:
            builder.add(ev)
    return builder.finish()
