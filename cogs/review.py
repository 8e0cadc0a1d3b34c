"""The Review button of a practice match's end card, and the review it answers with.

``review:<match>`` (a DynamicItem: it keeps working after a restart) sits on the end card of a
practice match (one with a computer player; cogs/ending.py adds it). A person who played the match
clicks it and gets, privately, the moves where their chance to win dropped most as the computer
judges it from what they could see (never the computers' hidden cards): "Round 1, turn 2: you
played X (chance 65% → 42%); the computer would have played Y". The review takes a while to work
out (the match service runs it in its process pool: bot/matches/review.py), so the click is
deferred ("thinking") first; it is worked out once per player and match, then kept.

Refused privately, with nothing changed: someone who did not play the match, a match of another
server (the words a missing id gets), a match without a computer, a damaged id.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import MatchReview, MatchService, NoReview, NotAPlayer, ReviewMoment
from bot.matches.isolation import match_here
from rules import get_game

from .errors import guarded
from .games import get_ui
from .games.base import EMBED_FIELD_VALUE, EMBED_TITLE, clip
from .ids import FIELD, read_id, require

REVIEW_TEMPLATE = rf"review:(?P<match>{FIELD})"


def review_button(match_id: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Review", emoji="🔎", style=discord.ButtonStyle.secondary, custom_id=f"review:{match_id}"
    )


def _service(interaction: discord.Interaction[Any]) -> MatchService:
    service = getattr(interaction.client, "service", None)
    if not isinstance(service, MatchService):
        raise RuntimeError("this client has no match service")
    return service


def _words(review: MatchReview, text: str, action: dict[str, Any]) -> str:
    """A move as the player's prompts word it: its account, else the action described."""
    ui = get_ui(review.game)
    said = ui.in_prompt_words(text) if text else ui.describe(action)
    said = said.strip().rstrip(".")
    return said[:1].lower() + said[1:] if said.startswith(("You ", "Your ")) else said


def _pct(chance: float) -> str:
    return f"{round(chance * 100)}%"


def moment_text(review: MatchReview, moment: ReviewMoment) -> str:
    """ "You played: you bet 6 and cast Clone (2) (chance 65% → 42%). The computer would have
    played: you bet 19 and cast no spell." With more than two players the figure is the share of
    the other players the computer expects you to finish ahead of."""
    change = f"{_pct(moment.before)} → {_pct(moment.after)}"
    figure = f"chance {change}" if review.seats <= 2 else f"ahead of {change} of the others"
    played = _words(review, moment.played_text, moment.played)
    best = _words(review, moment.best_text, moment.best)
    return f"You played: **{played}** ({figure}).\nThe computer would have played: **{best}**."


def review_embed(review: MatchReview) -> discord.Embed:
    """The review: one field per moment, in the order they were played."""
    game = get_game(review.game)
    measure = "your chance to win" if review.seats <= 2 else "the share of the other players you would finish ahead of"
    if review.moments:
        count = len(review.moments)
        moves = "The move" if count == 1 else f"The {count} moves"
        head = (
            f"{moves} where {measure} dropped most, as the computer judges it "
            "from what you could see at the time (before → after your move):"
        )
    else:
        head = (
            f"The computer found no move of yours where {measure} dropped by 5 points or more. "
            "Well played, or a match with few choices."
        )
    embed = discord.Embed(
        title=clip(f"🔎 Review of match #{review.match_id} · {game.name}", EMBED_TITLE),
        description=head,
        colour=discord.Colour.blurple(),
    )
    for n, moment in enumerate(review.moments, 1):
        label = moment.label or f"Move {n}"
        embed.add_field(
            name=clip(f"{n}. {label}", 256), value=clip(moment_text(review, moment), EMBED_FIELD_VALUE), inline=False
        )
    decisions = "decision" if review.decisions == 1 else "decisions"
    embed.set_footer(
        text=f"{review.decisions} {decisions} of yours reviewed. The computer sees only what you saw; "
        "its estimates are its own judgement, not certainties."
    )
    return embed


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REVIEW_TEMPLATE):
    """The player's review of a practice match, ephemerally (see the module docstring)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(review_button(match_id))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> ReviewButton:
        return cls(read_id(match["match"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        require(self.match_id)
        service = _service(interaction)
        record = await match_here(service, self.match_id, interaction.guild_id, interaction.user.id)
        if record.seat_of(interaction.user.id) is None:  # refused before the work, at once
            raise NotAPlayer(f"Only the players of match #{self.match_id} can review it.")
        if not record.practice:
            raise NoReview("Reviews are for practice matches (against the computer) only.")
        await interaction.response.defer(ephemeral=True, thinking=True)  # the review takes a while
        found = await service.review(self.match_id, interaction.user.id, interaction.guild_id)
        await interaction.followup.send(embed=review_embed(found), ephemeral=True)


__all__ = ["REVIEW_TEMPLATE", "ReviewButton", "moment_text", "review_button", "review_embed"]
