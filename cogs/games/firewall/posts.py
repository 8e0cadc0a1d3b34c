"""Firewall in the channel: the post after each resolution (the reveal and what each spell did, in
order, then the board: both wizards' mana and flagstone, and the bridge as a picture or an emoji
strip), and the reference for /rules and /card.

Everything here reads the spectator view (``rules.firewall.FirewallView``) and public events only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import discord

from rules import Event, fill_names, public_events
from rules.firewall import MAX_MANA, SPELLS, FirewallView, PlayerView

from ..base import EMBED_DESCRIPTION, Lookup, Post, clip
from ..pictures import SEAT_EMOJI
from .art import bridge_file, bridge_strip, mana_bar
from .labels import COLOUR, SPELL_EMOJI, played

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
NEWS = ("submitted", "stock_ordered")  # "X is ready": told in one short line
VARIANTS = {
    "standard": "standard (5 spells drawn at the start, 3 more each round)",
    "full_hand": "full hand (all 14 spells in hand from the start)",
    "chosen_order": "chosen order (each wizard orders their own stock)",
}


# ---------------------------------------------------------------------------------- the post
@dataclass
class Story:
    """The post's story, told event by event: its title, its lines, and the end of the match."""

    names: Sequence[str]
    title: str = ""
    lines: list[str] = field(default_factory=list)
    shuffles: int = 0
    end: discord.Embed | None = None

    def tell(self, ev: Event) -> None:
        text = fill_names(ev.text, self.names)
        teller = TELLERS.get(ev.kind)
        if teller is None:
            self.lines.append(f"{EVENT_ICON.get(ev.kind, '•')} {text}")
        else:
            teller(self, ev, text)

    def reveal(self, ev: Event, text: str) -> None:
        d = ev.data
        self.title = f"Round {d['round']}, turn {d['turn']}"
        self.lines += [f"{SEAT_EMOJI[s]} **{self.names[s]}** bets {played(d, s)}" for s in (0, 1)]

    def spell(self, ev: Event, text: str) -> None:
        d, result = ev.data, ev.data.get("result", "")
        if d.get("wall_from") is not None and d.get("wall_from") == d.get("wall_to") and " sends the wall" in text:
            # Middle when the wall is where the round began: nothing moves (not "from 9 to 9")
            text = (
                text.split(" sends the wall", 1)[0]
                + f" has no effect: the wall is already on flagstone {d['wall_to']}, where the round began."
            )
            result = "no_effect"
        self.lines.append(f"{RESULT_ICON.get(result, '•')} {text}")

    def shuffle(self, ev: Event, text: str) -> None:
        self.shuffles += 1  # both wizards shuffle at once: told once, first

    def round_start(self, ev: Event, text: str) -> None:
        self.title = self.title or f"Round {ev.data['round']} begins"
        self.lines.append(f"{EVENT_ICON['round_start']} {text}")

    def game_end(self, ev: Event, text: str) -> None:
        self.end = discord.Embed(title="🏆 Firewall is decided", description=clip(text, EMBED_DESCRIPTION))
        self.end.colour = discord.Colour.gold()


#: event kind -> how the story tells it (any other kind: its icon and text)
TELLERS: dict[str, Callable[[Story, Event, str], None]] = {
    "reveal": Story.reveal,
    "spell": Story.spell,
    "shuffle": Story.shuffle,
    "round_start": Story.round_start,
    "game_end": Story.game_end,
}


def public_post(view: FirewallView, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
    """The channel post after a resolution, from the spectator view and public events only."""
    public = public_events(events)
    news = [e for e in public if e.kind in NEWS]
    told = [e for e in public if e.kind not in NEWS]
    ready = " ".join(f"✅ {fill_names(e.text, names)}" for e in news)
    if news and not told:  # only "X is ready": one short line, no picture
        return Post([discord.Embed(description=clip(ready, EMBED_DESCRIPTION), colour=COLOUR)])
    story = Story(names)
    for ev in told:
        story.tell(ev)
    lines = story.lines
    if story.shuffles:
        lines.insert(0, f"{EVENT_ICON['shuffle']} Both wizards shuffle their 14 spells into their stock.")
    if news:
        lines.insert(0, ready)
    embeds = _line_embeds(f"🔥 Firewall — {story.title or _continued(view)}", lines)
    files = _board(embeds[-1], view, names, images=images)
    if story.end is not None:
        embeds.append(story.end)
    return Post(embeds, files)


def _continued(view: FirewallView) -> str:
    """The title of a post with no reveal and no new round: the turn it continues, or the round."""
    last = view["resolving"] or view["last_turn"]
    return f"Round {last['round']}, turn {last['turn']} (continued)" if last else f"Round {view['round']}"


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


def _player_field(p: PlayerView, *, images: bool) -> str:
    """A wizard's mana (with a gauge when there is no picture), flagstone, hand and stock."""
    value = [f"Mana **{p['mana']}**/{MAX_MANA}"]
    if not images:
        value.append(mana_bar(p["seat"], p["mana"]))
    value.append(f"Flagstone {p['wizard']} · hand {p['hand_size']} · stock {p['stock_count']}")
    return "\n".join(value)


def _board(board: discord.Embed, view: FirewallView, names: Sequence[str], *, images: bool) -> list[discord.File]:
    """Adds both wizards, the bridge (picture or emoji strip) and what comes next to ``board``;
    returns the picture's file, if any."""
    for p in view["players"]:
        s = p["seat"]
        board.add_field(
            name=clip(f"{SEAT_EMOJI[s]} {names[s]}", 256), value=_player_field(p, images=images), inline=True
        )
    b = view["bridge"]
    where = f"🔥 Wall on flagstone {b['wall']} (round began on {b['round_start_wall']})"
    if view["muted"]:
        where += " · 🔇 muted"
    files: list[discord.File] = []
    if images:
        filename = f"firewall-r{view['round']}-t{view['turns_total']}.png"
        files.append(bridge_file(view, names, filename))
        board.set_image(url=f"attachment://{filename}")
        board.add_field(name="Bridge", value=where, inline=False)
    else:
        board.add_field(name="Bridge", value=f"{bridge_strip(view)}\n{where}", inline=False)
    board.set_footer(text=_next(view, names))
    return files


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


# ---------------------------------------------------------------------------------- /rules and /card
def rules_fields() -> list[tuple[str, str]]:
    """The fields /rules adds for Firewall."""
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


def spell_embed(n: int) -> discord.Embed:
    """The /card embed of spell ``n``."""
    s = SPELLS[n]
    e = discord.Embed(title=f"{SPELL_EMOJI.get(n, '')} {s.name} ({n})", description=s.text, colour=COLOUR)
    if n == 0:
        e.add_field(name="Number", value="0: it is never discarded and never applies.")
    else:
        e.add_field(name="Priority", value=f"{n}: the spells of a turn apply in ascending number.")
    if s.selfish:
        e.add_field(name="Stolen by Larceny", value="Applied for the thief if they run out of time.")
    return e


def lookup_choices(current: str) -> list[Lookup]:
    """The spells matching ``current`` (number, name or text) for /card's autocomplete."""
    cur = current.strip().lower()
    return [
        Lookup(str(n), f"{n} · {s.name}")
        for n, s in sorted(SPELLS.items())
        if not cur or cur in s.name.lower() or cur == str(n) or cur in s.text.lower()
    ]


def lookup(key: str) -> discord.Embed | None:
    """The /card embed of the spell named by ``key`` (its number, name or autocomplete label)."""
    k = key.strip().lower()
    for n, s in SPELLS.items():
        if k in (str(n), s.name.lower(), f"{n} · {s.name}".lower()):
            return spell_embed(n)
    return None
