"""Magic Duel in Discord: the ``GameUI`` wiring the game's modules together.

- ``prompts.py``: the private prompts (cast a spell, draw), their click handlers and the game's
  custom_id grammar;
- ``posts.py``: the channel post after a resolution, the board (standing, who is next), /rules and
  /card;
- ``cards.py``: how seats, cards and spells are shown as text (shared by both);
- ``spell.py``: what the spell screen explains (why the chosen cards are no combination, why a
  tied trick is cast again);
- ``art.py``: the pictures (a hand, a trick).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.endings import magic_duel as end_card
from rules.magic_duel.game import MagicDuel
from rules.magic_duel.view import SeatView, SpectatorView

from ..base import ModularUI, Post
from . import howto as guide
from . import posts, prompts
from .art import TrickRow, trick_file


class MagicDuelUI(ModularUI[SeatView, SpectatorView]):
    slug = "magic-duel"
    howto = guide.HOWTO
    first_match_tip = guide.FIRST_MATCH_TIP
    ending = end_card
    story_kinds = MagicDuel.story_kinds  # the game says what closes a resolution
    quiet_kinds = frozenset({"draw", "extra_card"})  # the deck counts move with the next play

    def board_post(self, view: SpectatorView, names: Sequence[str], *, images: bool) -> Post:
        return posts.board_post(view, names)  # the standing and who is next (no picture)

    def standing_picture(
        self, view: SpectatorView, names: Sequence[str], title: str, filename: str
    ) -> discord.File | None:
        """Each wizard's hand face down, with cards and points (a replay's deal step)."""
        rows = [
            TrickRow(
                seat=p["seat"],
                name=names[p["seat"]] if 0 <= p["seat"] < len(names) else "?",
                cards=None,
                count=0 if p.get("removed") else min(int(p.get("hand_size", 0)), 4),
                note="left" if p.get("removed") else f"{p.get('hand_size', 0)} cards · {p.get('points', 0)} pts",
            )
            for p in view.get("players", [])
            if isinstance(p, dict) and isinstance(p.get("seat"), int)
        ]
        return trick_file(title, rows, filename=filename)

    def describe(self, action: Mapping[str, Any]) -> str:
        if action.get("type") == "draw":  # the draw's split, as its buttons say it
            risk = int(action.get("risk") or 0)
            return f"Draw {risk} from the Deck of Risk, the rest from the Deck of Advantage."
        return super().describe(action)


UI = MagicDuelUI(prompts, posts)
