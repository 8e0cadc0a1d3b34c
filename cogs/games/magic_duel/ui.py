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

from ..base import ModularUI, Post
from . import posts, prompts


class MagicDuelUI(ModularUI):
    slug = "magic-duel"
    story_kinds = frozenset(
        {"trick_won", "trick_tied", "hand_scored", "deal", "hand_dealt", "game_end", "forfeit"}
    )  # each resolved trick is told
    quiet_kinds = frozenset({"draw", "extra_card"})  # the deck counts move with the next play

    def board_post(self, view: Mapping[str, Any], names: Sequence[str], *, images: bool) -> Post:
        return posts.board_post(view, names)  # the standing and who is next (no picture)

    def describe(self, action: Mapping[str, Any]) -> str:
        if action.get("type") == "draw":  # the draw's split, as its buttons say it
            risk = int(action.get("risk") or 0)
            return f"Draw {risk} from the Deck of Risk, the rest from the Deck of Advantage."
        return super().describe(action)


UI = MagicDuelUI(prompts, posts)
