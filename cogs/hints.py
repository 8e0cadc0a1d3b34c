"""The Hint button of a person's prompts in a practice match (its custom_id and where it goes).
Apart from cogs/practice.py so that the notifier, which builds prompts, can add it."""

from __future__ import annotations

from typing import Any

import discord

from bot.matches import Hint, MatchRecord, SeatPrompt

from .games import get_ui
from .games.base import Prompt, clip
from .ids import FIELD

HINT_TEMPLATE = rf"hint:(?P<match>{FIELD}):(?P<seat>{FIELD}):(?P<step>{FIELD})"
#: A hint's "Play this" button: the hinted move of that seat step (the hint itself is kept by the
#: match service, or searched again with the same seed: nothing of it needs to be in the id).
PLAY_HINT_TEMPLATE = rf"hintplay:(?P<match>{FIELD}):(?P<seat>{FIELD}):(?P<step>{FIELD})"


def hint_button(match_id: int, seat: int, seat_step: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Hint", emoji="💡", style=discord.ButtonStyle.secondary, custom_id=f"hint:{match_id}:{seat}:{seat_step}"
    )


def play_hint_button(match_id: int, seat: int, seat_step: int) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label="Play this",
        emoji="▶️",
        style=discord.ButtonStyle.primary,
        custom_id=f"hintplay:{match_id}:{seat}:{seat_step}",
    )


def hint_view(hint: Hint) -> discord.ui.View:
    """Under a hint: its Play this button."""
    view = discord.ui.View(timeout=None)
    view.add_item(play_hint_button(hint.match_id, hint.seat, hint.seat_step))
    return view


def with_hint(prompt: Prompt, record: MatchRecord, sp: SeatPrompt) -> Prompt:
    """A person's prompt in a practice match gets a Hint button (where its view has room)."""
    if not record.practice or record.is_ai(sp.seat) or not sp.awaited:
        return prompt
    view = prompt.view if prompt.view is not None else discord.ui.View(timeout=None)
    if len(view.children) >= 25:
        return prompt
    try:
        view.add_item(hint_button(sp.match_id, sp.seat, sp.seat_step))
    except ValueError:  # every row is full (wide selects): /hint still works
        return prompt
    prompt.view = view
    return prompt


def _words(hint: Hint, text: str, action: dict[str, Any] | None) -> str:
    ui = get_ui(hint.game)
    if text:
        return ui.in_prompt_words(text)
    return ui.in_prompt_words(ui.describe(action or {}))


def _score(hint: Hint, chance: float) -> str:
    """A move's score in the search, in plain words: a win rate with two players; with more, the
    share of the other players it finished ahead of."""
    pct = round(chance * 100)
    return f"won {pct}%" if hint.seats <= 2 else f"finished ahead of {pct}% of the others"


def hint_reason(hint: Hint) -> str:
    """One line on why this move: what the computer's search found (the games it played out from
    here with this move, and with the runner-up). Nothing more is claimed than it computed."""
    if hint.games == 0:
        if hint.choices > 1:
            return "Why: every way of playing this turn the computer weighs starts with this move."
        return "Why: it is the only move you can make here."
    games = "game" if hint.games == 1 else "games"
    if hint.runner_up is None:
        score = _score(hint, hint.chance)
        return f"Why: the only move worth trying; in {hint.games} {games} played out from here it {score}."
    other = _words(hint, hint.runner_up_text, hint.runner_up).rstrip(".")
    other = other[:1].lower() + other[1:]
    if round(hint.runner_up_chance * 100) == round(hint.chance * 100):
        return (
            f"Why: in {hint.games} {games} played out from here it {_score(hint, hint.chance)}; "
            f"the next best ({other}) did about as well, so either is a fine choice."
        )
    if hint.runner_up_chance > hint.chance:  # the search trusts the move it tried most
        return (
            f"Why: it held up best, tried in {hint.tries} of {hint.games} {games} played out from here "
            f"({_score(hint, hint.chance)}); the runner-up ({other}) {_score(hint, hint.runner_up_chance)} "
            f"but in only {hint.runner_up_tries}, a less sure estimate."
        )
    return (
        f"Why: in {hint.games} {games} played out from here it {_score(hint, hint.chance)}; "
        f"the next best ({other}) {_score(hint, hint.runner_up_chance)}."
    )


def chance_line(hint: Hint, chance: int) -> str:
    """The computer's estimate, in what it measures: with two players the chance to win; with
    more, the share of the other players the seat finishes ahead of."""
    if hint.seats <= 2:
        return f"Your chance to win from here, as the computer judges it: **{chance}%**."
    return f"From here, as the computer judges it, you finish ahead of **{chance}%** of the other players."


def hint_text(hint: Hint) -> str:
    chance = round(hint.chance * 100)
    said = _words(hint, hint.text, hint.action)
    reason = hint_reason(hint)
    return (
        f"💡 **Hint** for your move in match #{hint.match_id}: {said}\n"
        f"{clip(reason, 600)}\n"
        f"{chance_line(hint, chance)}\n"
        "-# A hint shows one good move the computer found, not the only one. It sees only what you see. "
        "▶️ Play this makes that move for you."
    )[:2000]


__all__ = [
    "HINT_TEMPLATE",
    "PLAY_HINT_TEMPLATE",
    "hint_button",
    "hint_reason",
    "hint_text",
    "hint_view",
    "play_hint_button",
    "with_hint",
]
