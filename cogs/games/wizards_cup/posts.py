"""Wizards Cup's public side in Discord: the channel post after a resolution (the round's duels,
who has submitted, the board), the /rules fields and the /card lookups.

Everything here reads the spectator view (``SpectatorView``) and public events only, so nothing
secret (a Deck, an order) can reach the channel. The post is built by ``Narration``: one method per
public event kind (``EVENT_HANDLERS``); events of other kinds are not shown. Each duel is told in
full (``story.py``): the Wizards named with their owners, every Value modifier written out (whose
card, on which Wizard, and why) and how the duel was decided; with pictures on, the post's duels
are also drawn, one row each (``duel_rows.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import discord

from rules import Event, fill_names, public_events
from rules.text import plural
from rules.wizards_cup import Card, Phase, PlayerView, SpectatorView

from ..base import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, EMBED_FIELDS, Lookup, Post, clip
from .cards import CARDS, COLOUR, ELEMENT_EMOJI, POWER_LABEL, card_line, card_names
from .duel_rows import duels_file
from .story import CRITERION, DuelStory, Zone, duel_stories

FIELD_NAME = 256  # Discord's limit of an embed field's name
#: The board's line for what a player is asked now (``PlayerView.asked``).
ASKED_TEXT = {
    "choose_deck": "⏳ choosing a Deck",
    "plan": "⏳ ordering Wizards",
    "swap": "⏳ preparing (swap)",
    "botanist": "⏳ deciding (Botanist)",
    "done": "✅ ready",
}
RULES_FIELDS = [
    (
        "How a duel is decided",
        "A. Magic power, B. Element (Fire < Water < Nature < Fire; Shadow < Light; Light loses to "
        "Water, Fire, Nature; Void has no weakness), C. Value (equal: both lose).",
    ),
    ("Cards", "Look any card up with /card."),
]


# ------------------------------------------------------------------ /rules and /card
def rules_fields() -> list[tuple[str, str]]:
    return list(RULES_FIELDS)


def lookup_choices(current: str) -> list[Lookup]:
    cur = current.lower()
    return [Lookup(c.id, c.name) for c in CARDS.cards if cur in c.name.lower() or cur in c.id]


def lookup(key: str) -> discord.Embed | None:
    card = CARDS.find(key)
    return None if card is None else card_embed(card)


def card_embed(card: Card) -> discord.Embed:
    e = discord.Embed(title=card.name, description=card.text, colour=COLOUR)
    e.add_field(name="Element", value=f"{ELEMENT_EMOJI[card.element.value]} {card.element.value}")
    e.add_field(name="Value", value=str(card.value))
    e.add_field(name="Magic power", value=POWER_LABEL.get(card.power.value, "-") if card.power else "None")
    return e


# ------------------------------------------------------------------ the channel post
@dataclass
class Narration:
    """The embeds of one channel post, built event by event: a round embed with one field per
    duel (its start, powers and choices, then the result), notes, and who has submitted (``news``,
    never what), which becomes the board's description."""

    names: Sequence[str]
    stories: Mapping[int, DuelStory] = field(default_factory=dict)  # by id() of the duel event
    embeds: list[discord.Embed] = field(default_factory=list)
    round_embed: discord.Embed | None = None
    news: list[str] = field(default_factory=list)
    title: str = ""  # the duel being told ("" between duels)
    block: list[str] = field(default_factory=list)  # its lines so far
    zone: Zone = field(default_factory=lambda: Zone([None, None]))  # the Duel zone as told
    drawn: list[DuelStory] = field(default_factory=list)  # the duels for the picture
    pictured: discord.Embed | None = None  # the embed showing the picture (its first duel's)
    told: tuple[discord.Embed, int] | None = None  # the field of the duel just decided (its aftermath)

    def round_start(self, ev: Event, text: str) -> None:
        self.round_embed = discord.Embed(title=f"Round {ev.data['round']}", colour=COLOUR)
        self.embeds.append(self.round_embed)
        self.told = None

    def duel_start(self, ev: Event, text: str) -> None:
        a, b = (CARDS[c] for c in ev.data["cards"])
        self.title = f"Duel {ev.data['duel']}: {a.name} vs {b.name}"
        self.block = [text.split(": ", 1)[1] if ": " in text else text]
        self.zone = Zone(ev.data["cards"])
        self.told = None

    def power(self, ev: Event, text: str) -> None:
        """A power or a choice, its Wizards named with their owners: in the duel being told, or
        after the duel just decided (The Revolutionary's discard), or before the rest of a duel
        begun in an earlier post (a Botanist's decision)."""
        line = f"✨ {fill_names(self.zone.owned(ev.text), self.names)}"
        self.zone.follow(ev)
        if self.title or self.told is None:
            self.block.append(line)
            return
        embed, index = self.told
        f = embed.fields[index]
        value = clip(f"{f.value}\n{line}", EMBED_FIELD_VALUE)
        embed.set_field_at(index, name=f.name or "", value=value, inline=False)

    def duel(self, ev: Event, text: str) -> None:
        d = ev.data
        if not self.title:  # its start was told in an earlier post (a Botanist's decision came between)
            a, b = (CARDS[c] for c in d["cards"])
            self.title = f"Duel {d['duel']} (continued): {a.name} vs {b.name}"
        story = self.stories.get(id(ev))
        if story is None:  # not expected: the rules' own wording
            how = f"{CRITERION[d['criterion']]}: {d['reason']}"
        else:
            self.block += [f"🔸 {fill_names(m.text(), self.names)}" for m in story.modifiers]
            how = f"{CRITERION[d['criterion']]}: {fill_names(story.verdict, self.names)}"
        if d["winner"] is None:
            self.block.append(f"💥 Both Wizards lose — {how}")
        else:
            self.block.append(f"🏆 **{self.names[d['winner']]}** wins — {how}")
        if self.round_embed is None or len(self.round_embed.fields) >= EMBED_FIELDS:
            self.round_embed = discord.Embed(title="Duels (continued)", colour=COLOUR)
            self.embeds.append(self.round_embed)
        self._add_duel_field(self.round_embed)
        self.told = (self.round_embed, len(self.round_embed.fields) - 1)
        if story is not None:
            self.drawn.append(story)
            self.pictured = self.pictured or self.round_embed
        self.title, self.block = "", []

    def submitted(self, ev: Event, text: str) -> None:
        self.news.append(f"✅ {text}")

    def note(self, ev: Event, text: str) -> None:
        self.embeds.append(discord.Embed(description=clip(text, EMBED_DESCRIPTION), colour=COLOUR))

    def game_end(self, ev: Event, text: str) -> None:
        self.embeds.append(
            discord.Embed(title="🏆 The Wizards Cup is decided", description=text, colour=discord.Colour.gold())
        )

    def finish(self, board: discord.Embed) -> list[discord.Embed]:
        """The embeds, ending with ``board`` (described by the news): a duel still waiting for a
        decision (the Botanist) is shown as far as it went."""
        if self.block and self.round_embed is not None:
            self.title = self.title or "Duel (continued)"
            self._add_duel_field(self.round_embed)
        if self.news:
            board.description = clip("\n".join(self.news), EMBED_DESCRIPTION)
        return [*self.embeds, board]

    def picture(self) -> list[discord.File]:
        """The post's duels drawn one row each, shown by the embed of the first of them."""
        if not self.drawn or self.pictured is None:
            return []
        f = duels_file(self.drawn, self.names)
        self.pictured.set_image(url=f"attachment://{f.filename}")
        return [f]

    def _add_duel_field(self, embed: discord.Embed) -> None:
        embed.add_field(
            name=clip(self.title, FIELD_NAME), value=clip("\n".join(self.block), EMBED_FIELD_VALUE), inline=False
        )


#: What each public event kind adds to the post.
EVENT_HANDLERS: dict[str, Callable[[Narration, Event, str], None]] = {
    "round_start": Narration.round_start,
    "duel_start": Narration.duel_start,
    "power": Narration.power,
    "choice": Narration.power,
    "duel": Narration.duel,
    "deck_chosen": Narration.submitted,
    "planned": Narration.submitted,
    "prepared": Narration.submitted,
    "round_end": Narration.note,
    "tiebreak": Narration.note,
    "random_pick": Narration.note,
    "forfeit": Narration.note,
    "game_end": Narration.game_end,
}


def public_post(view: SpectatorView, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
    """The channel post after a resolution: the duels told (and drawn, with ``images``), the board."""
    story = narrate(view, events, names)
    embeds = story.finish(board_embed(view, names))
    return Post(embeds, story.picture() if images else [])


def public_embeds(view: SpectatorView, events: Sequence[Event], names: Sequence[str]) -> list[discord.Embed]:
    """The channel embeds after a resolution, from the spectator view and the public events."""
    return public_post(view, events, names, images=False).embeds


def narrate(view: SpectatorView, events: Sequence[Event], names: Sequence[str]) -> Narration:
    """The public ``events`` told, each duel in full."""
    public = public_events(events)
    stories = {id(public[i]): s for i, s in duel_stories(view, public).items()}
    story = Narration(names, stories)
    for ev in public:
        handler = EVENT_HANDLERS.get(ev.kind)
        if handler is not None:
            handler(story, ev, fill_names(ev.text, names))
    return story


def board_embed(seen: SpectatorView, names: Sequence[str]) -> discord.Embed:
    """The board: each player's tokens, cards in view and what they are asked now."""
    e = discord.Embed(title=f"Board — round {seen['round']}", colour=COLOUR)
    for p in seen["players"]:
        lines = "\n".join(_player_lines(seen, p))
        e.add_field(name=clip(names[p["seat"]], FIELD_NAME), value=clip(lines, EMBED_FIELD_VALUE), inline=True)
    return e


def _player_lines(seen: SpectatorView, p: PlayerView) -> list[str]:
    lines = [f"Victory tokens: {'🏆' * p['tokens'] or '—'}"]
    if p["random_pick"]:
        lines.append(f"Random card: {CARDS[p['random_pick']].name}")
    if p["duel"]:
        lines.append(f"Duel zone: {card_line(CARDS[p['duel']])}")
    if seen["phase"] == Phase.DUELS or p["deck_count"]:
        hidden = "revealed on the end card" if seen["phase"] == Phase.OVER else "face down"  # the match is over
        waiting = CARDS[p["waiting"]].name if p["waiting"] else (hidden if p["has_waiting"] else "none")
        lines.append(f"Deck: {plural(p['deck_count'], 'card')} · Waiting: {waiting}")
    if p["discard"]:
        lines.append("Discard (top last): " + card_names(p["discard"]))
    if seen["phase"] != Phase.OVER:
        lines.append(ASKED_TEXT.get(p["asked"], ""))
    return lines
