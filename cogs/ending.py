"""The end-of-match card: what players see when a match ends (docs/players.md).

One card, in two places and without an extra message: the thread's last post (the final story post
with the card under it; the old live board becomes a link to it) and the channel's match message
(the challenge message, edited into the result). It shows:

- the winner and every player's place ("🥇 1st of 4", "2nd of 2"; never "Loss" beside a gain),
- each player's rating before -> after with the change, on the server's ladder (computed just after
  the finish: the card waits a moment for it, else says "being computed" and is edited once when
  it is ready); an abandoned match, or one without a rateable outcome, says "unrated",
- a few key figures per game and every secret revealed (per game: ``bot/endings/<game>.py``),
- the buttons Rematch, Replay and Download the match; on a practice match's card also Review
  (:mod:`cogs.review`: ``review:<match>``, the player's moves that cost most).

Custom ids (DynamicItems: they keep working after a restart, nothing kept in memory):

- ``end:rematch:<match>``: a player of ``<match>`` challenges its other players again (same game
  and options, seats rotated by one); posted as a new challenge the others must accept. Refused,
  changing nothing, for non-players and while a rematch of it is pending or being played.
- ``end:log:<match>`` (the button "Download the match"): an ephemeral reply with the match as a
  story to read (``match-<id>-<game>.txt``: title, players, dates, result, then every step by
  name, "Round 2" or "Turn 12 · ann", told in the players' words, every secret named with its
  owner as the end card reveals them) and its log file (JSON, which the offline table's
  ``python -m rules replay`` reads); only once the match is over.
- the Replay button: :func:`cogs.replay.replay_button` (its grammar is documented there).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

import discord

from bot.matches import Ending, MatchRecord, MatchService, Placed, ordinal
from bot.matches.isolation import match_here
from rules import get_game

from .card import web_button
from .errors import guarded
from .games import get_ui, has_ui
from .games.base import EMBED_FIELD_VALUE, EMBED_TITLE, clip, embed_size
from .ids import FIELD, read_id, require
from .lobby import lobby_embed, lobby_view
from .placement import channel_by_id
from .review import review_button

#: Seconds the card waits for the ratings before it is posted without them.
RATING_WAIT = 3.0
#: Seconds a card posted without its ratings waits for them in the background.
LATE_RATING_WAIT = 120.0
#: Embed characters each of the card's two embeds may use (two of them fit one message: 6,000).
CARD_EMBED_CHARS = 2900
NAME_CHARS = 64
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
WHY_FORFEIT = {
    "resign": "🏳️ {name} resigned.",
    "left": "🚪 {name} left the match.",
    "timeout": "⌛ {name} ran out of time and forfeited.",
}


def service_of(interaction: discord.Interaction[Any]) -> MatchService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, MatchService):
        raise RuntimeError("this client has no match service")
    return service


# ------------------------------------------------------------------------------ the words


def place_text(place: Placed | None) -> str:
    """ "🏆 Winner", "2nd of 2", "🥇 1st of 4", "=2nd of 4" (tied), "Draw"."""
    if place is None:
        return "No result"
    if place.tied and place.of == 2:
        return "🤝 Draw"
    if place.of == 2:
        return "🏆 Winner" if place.rank == 1 else "2nd of 2"
    medal = MEDALS.get(place.rank, "▫️")
    return f"{medal} {'=' if place.tied else ''}{ordinal(place.rank)} of {place.of}"


def rating_text(ending: Ending, seat: int) -> str:
    if ending.abandoned:
        return "Unrated (abandoned)"
    if ending.record.practice:
        return "Computer player" if ending.record.is_ai(seat) else "Practice: unrated"
    change = ending.change(seat)
    if change is not None:
        why = rating_why(ending, seat)
        return f"Rating {change.display_before} → {change.display_after} ({change.delta:+d})" + (
            f"\n-# {why}" if why else ""
        )
    return "Rating: being computed…" if ending.ratings_pending else "Unrated"


def expected_place(ending: Ending, seat: int) -> int | None:
    """The place the ratings before the match expected of ``seat``: 1 + the players rated higher
    (equal ratings share a place); None when a player's rating change is not known."""
    before = {c.seat: c.mu_before for c in ending.changes}
    if seat not in before or len(before) != len(ending.names):
        return None
    return 1 + sum(1 for s, mu in before.items() if s != seat and mu > before[seat])


def rating_why(ending: Ending, seat: int) -> str | None:
    """Why a change that surprises happened, in words: a rating up for a place below 1st among
    more than two ("the ratings expected you to finish 4th")."""
    places, change = ending.placements(), ending.change(seat)
    if places is None or change is None or len(places) <= 2 or change.delta == 0:
        return None
    place, expected = places[seat], expected_place(ending, seat)
    if place is None or expected is None:
        return None
    if change.delta > 0 and place.rank > 1:
        if place.rank < expected:
            return f"Up for {ordinal(place.rank)}: the ratings expected you to finish {ordinal(expected)}."
        return (
            f"Up although {ordinal(place.rank)}: a new rating rises as each game makes the bot surer of you"
            " (it starts low on purpose)."
        )
    return None


def headline(ending: Ending) -> str:
    """How the match ended, in its own words."""
    record = ending.record
    if ending.abandoned:
        return "⌛ Abandoned: nobody moved in time. Nobody wins, and the match is unrated."
    lines = ["🏁 " + (record.summary or "The match is over.")]
    for seat, why in ending.forfeits().items():
        if 0 <= seat < len(record.names):
            lines.append(WHY_FORFEIT.get(why, WHY_FORFEIT["resign"]).format(name=record.names[seat]))
    return "\n".join(lines)


def order(ending: Ending) -> list[tuple[int, Placed | None]]:
    """Seats best first (by seat when there are no placements)."""
    places = ending.placements()
    seats = range(len(ending.names))
    if places is None:
        return [(s, None) for s in seats]
    return sorted(((s, places[s]) for s in seats), key=lambda p: (p[1].rank if p[1] else 0, p[0]))


def _fit(embed: discord.Embed, fields: list[tuple[str, str]]) -> discord.Embed:
    """Add fields, each value clipped to its share of the embed's character budget."""
    room = CARD_EMBED_CHARS - embed_size(embed) - sum(len(name) for name, _ in fields)
    share = max(40, min(EMBED_FIELD_VALUE, room // max(1, len(fields))))
    for name, value in fields:
        embed.add_field(name=name, value=clip(value or "—", share), inline=False)
    return embed


def card_embeds(ending: Ending) -> list[discord.Embed]:
    """The card: the result (places, ratings, figures) and, when there is any, what was hidden."""
    record = ending.record
    game = get_game(record.game)
    per_game = get_ui(record.game).ending if has_ui(record.game) else None
    names = [clip(n, NAME_CHARS) for n in record.names]
    result = discord.Embed(
        title=clip(f"{game.name} · match #{record.id}: " + " vs ".join(names), EMBED_TITLE),
        description=clip(headline(ending), 1000),
        colour=discord.Colour.gold() if not ending.abandoned else discord.Colour.dark_grey(),
    )
    figures = per_game.figures(ending) if per_game is not None else {}
    fields = [
        (f"{place_text(place)} · {names[s]}", "\n".join([rating_text(ending, s), *figures.get(s, [])]))
        for s, place in order(ending)
    ]
    result.set_footer(text=f"Match #{record.id} is over · 🔁 Rematch: same options, seats rotated")
    embeds = [_fit(result, fields)]
    secrets = per_game.secrets(ending) if per_game is not None else {}
    note = per_game.NOTE if per_game is not None else None
    revealed = [(f"🔓 {names[s]}", "\n".join(secrets[s])) for s in range(len(names)) if secrets.get(s)]
    if revealed or note:
        shown = discord.Embed(title="🔓 Everything revealed", colour=discord.Colour.dark_gold())
        if note:
            shown.description = note
        embeds.append(_fit(shown, revealed))
    return embeds


def card_view(match_id: int, *, practice: bool = False, web_url: str | None = None) -> discord.ui.View:
    """The card's buttons: Rematch, Replay, Download the match; Review for a practice match; and a
    link to the match's web page when there is one (``web_url``)."""
    from .replay import replay_button  # cogs.replay imports the match cogs, which import this one

    view = discord.ui.View(timeout=None)
    view.add_item(rematch_button(match_id))
    view.add_item(replay_button(match_id))
    view.add_item(log_button(match_id))
    if practice:
        view.add_item(review_button(match_id))
    if web_url:
        view.add_item(web_button("Replay on the web", web_url))
    return view


def result_message(
    record: MatchRecord, ending: Ending, thread_id: int | None, web_url: str | None = None
) -> dict[str, Any]:
    """The channel's match message as the result: one line (with the thread), the card, buttons."""
    g = get_game(record.game)
    if ending.abandoned:
        text = f"⌛ Match #{record.id} of {g.name} was abandoned: nobody moved in time."
    else:
        text = f"🏁 Match #{record.id} of {g.name} is over: " + (record.summary or " vs ".join(record.names) + ".")
    if thread_id is not None:
        text += f" The whole match: <#{thread_id}>."
    return {
        "content": clip(text, 2000),
        "embeds": card_embeds(ending),
        "view": card_view(record.id, practice=record.practice, web_url=web_url),
    }


# ------------------------------------------------------------------------------ the buttons


def rematch_button(match_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Rematch", emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"end:rematch:{match_id}"
    )


def log_button(match_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Download the match", emoji="📄", style=discord.ButtonStyle.secondary, custom_id=f"end:log:{match_id}"
    )


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"end:rematch:(?P<match>{FIELD})"):
    """Challenge the same players again: a new challenge message in the match's channel."""

    def __init__(self, match_id: int) -> None:
        super().__init__(rematch_button(match_id))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> RematchButton:
        return cls(read_id(match["match"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id)
        service = service_of(interaction)
        await match_here(service, self.match_id, interaction.guild_id, interaction.user.id)  # this server's only
        record = await service.rematch(self.match_id, interaction.user.id)  # refusals: a direct reply
        await interaction.response.defer(ephemeral=True, thinking=True)
        others = [s.user_id for s in record.seats if s.user_id != interaction.user.id and s.ai is None]
        channel = await channel_by_id(interaction.client, record.channel_id)
        if channel is None:  # the channel is gone: the challenge stands, /status links it
            await interaction.followup.send(f"🔁 Rematch: match #{record.id} (its channel is gone).", ephemeral=True)
            return
        msg = await channel.send(
            content=" ".join(f"<@{u}>" for u in others) + f" 🔁 a rematch of match #{self.match_id}",
            embed=lobby_embed(record),
            view=lobby_view(record),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in others]),
        )
        await service.set_message_id(record.id, msg.id)
        if (await service.start_if_ready(record.id)).started:  # only computers to wait for: at once
            await interaction.followup.send(f"🔁 Rematch started (match #{record.id}): {msg.jump_url}.", ephemeral=True)
            return
        await interaction.followup.send(
            f"🔁 Rematch offered (match #{record.id}): {msg.jump_url}. It starts once the others accept.",
            ephemeral=True,
        )


class LogButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"end:log:(?P<match>{FIELD})"):
    """The match as a story to read and its log file, ephemerally (only once the match is over)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(log_button(match_id))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> LogButton:
        return cls(read_id(match["match"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from .replay import match_story  # cogs.replay imports the match cogs, which import this one

        require(self.match_id)
        service = service_of(interaction)
        record = await match_here(service, self.match_id, interaction.guild_id, interaction.user.id)
        data = await service.match_log(self.match_id)  # refused while the match is being played
        await interaction.response.defer(ephemeral=True, thinking=True)  # telling it may take a moment
        story = await match_story(interaction.client, record)
        files = [log_file(self.match_id, data)]
        if story is not None:
            files.insert(0, story_file(self.match_id, data, story))
        await interaction.followup.send(
            log_text(self.match_id, data, story=story is not None), files=files, ephemeral=True
        )


def log_name(match_id: int, data: Mapping[str, Any], suffix: str = "json") -> str:
    return f"match-{match_id}-{data.get('game', 'log')}.{suffix}"


def log_text(match_id: int, data: Mapping[str, Any], *, story: bool = True) -> str:
    """The download's message, in the players' words (the offline table's command last)."""
    command = f"python -m rules replay {log_name(match_id, data)}"
    offline = f"-# The `.json` file is the match's log, for the offline table: `{command}`."
    if not story:
        return f"📄 Match #{match_id}: its log file.\n{offline}"
    return f"📄 Match #{match_id} as a story you can read, turn by turn, with every secret revealed.\n{offline}"


def story_file(match_id: int, data: Mapping[str, Any], story: str) -> discord.File:
    return discord.File(io.BytesIO(story.encode()), filename=log_name(match_id, data, "txt"))


def log_file(match_id: int, data: Mapping[str, Any]) -> discord.File:
    raw = json.dumps(data, ensure_ascii=False, indent=1).encode()
    return discord.File(io.BytesIO(raw), filename=log_name(match_id, data))


__all__ = [
    "LATE_RATING_WAIT",
    "RATING_WAIT",
    "LogButton",
    "RematchButton",
    "card_embeds",
    "card_view",
    "headline",
    "place_text",
    "rating_text",
    "result_message",
]
