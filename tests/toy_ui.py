"""The toy game's Discord UI (``tests.toy_game.TOY``'s ``ui`` part): a guess typed in a modal, a
Double/Keep choice, a one-embed channel post, its /howto entry, first-match tip and end card.
``PUBLIC_UI``: the same with its prompts posted in the channel (an open-information game)."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from PIL import Image, ImageDraw

from bot.matches import Ending
from cogs.games.base import AskText, GameUI, Prompt, PromptContext, Submit
from cogs.games.howto import HowTo, Step
from rules import Event
from tests.toy_game import SLUG, Double, Guess, ToyView


def _number_icon(image: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """A question mark in a circle: the secret number."""
    left, top, right, bottom = box
    size = min(right - left, bottom - top) * 0.6
    cx, cy = (left + right) / 2, (top + bottom) / 2
    draw.ellipse([cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2], outline=(240, 196, 64), width=4)


class ToyEnding:
    """The toy's end card: each seat's score; no secrets to reveal but the last secret."""

    NOTE: str | None = None

    def figures(self, ending: Ending) -> dict[int, list[str]]:
        scores = ending.public_view.get("scores", [])
        return {seat: [f"{score} points"] for seat, score in enumerate(scores)}

    def secrets(self, ending: Ending) -> dict[int, list[str]]:
        return {}


class ToyUI(GameUI[ToyView, ToyView]):
    slug = SLUG
    howto = HowTo(
        goal="Guess the secret number: the closest guess scores.",
        turn="Each round chance picks a number; everyone guesses it in secret at once.",
        end="After the last round the highest score wins.",
        steps=(Step(_number_icon, "A secret number from 1 to {high}"), Step("fw-bet", "Guess in secret")),
        fill=lambda: {"high": "3"},
    )
    first_match_tip = "Guesses are secret until everyone has guessed."
    ending = ToyEnding()

    def __init__(self, public: bool = False) -> None:
        self.public_prompts = public

    def prompt(self, ctx: PromptContext[ToyView]) -> Prompt:
        view = discord.ui.View(timeout=None)
        if all(isinstance(a, Double) for a in ctx.legal):
            view.add_item(discord.ui.Button(label="Double", custom_id=ctx.cid("d1")))
            view.add_item(discord.ui.Button(label="Keep", custom_id=ctx.cid("d0")))
            return Prompt("Double this round's points?", view=view)
        numbers = sorted({a.number for a in ctx.legal if isinstance(a, Guess)})
        view.add_item(discord.ui.Button(label="Type your guess", custom_id=ctx.cid("ask")))
        return Prompt(f"Round {ctx.seen['round']}: guess a number: {numbers[0]} to {numbers[-1]}.", view=view)

    def handle(self, ctx: PromptContext[ToyView], payload: str, values: Sequence[str]) -> Submit | Prompt | AskText:
        if payload in ("d0", "d1"):
            return Submit(Double(double=payload == "d1"))
        if payload == "ask":
            return AskText("Your guess", "A whole number", "typed", placeholder="e.g. 2", max_length=3)
        text = values[0].strip()
        if not text.isdigit():
            raise ValueError(f"{text!r} is not a whole number.")
        return Submit(Guess(number=int(text)))

    def public_embeds(self, view: ToyView, events: Sequence[Event], names: Sequence[str]) -> list[discord.Embed]:
        told = "\n".join(e.render(names) for e in events)[:4000]
        return [discord.Embed(title="Toy Guess", description=told or f"Scores: {view['scores']}")]


UI = ToyUI()
PUBLIC_UI = ToyUI(public=True)
