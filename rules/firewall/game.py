"""Firewall: the game, its options and its constants.

Rules: the game's rule text and its design note (not part of the repository), as the project rules
them in docs/rulings/firewall.md (each ruling's *Rule:* line says which part it implements). Seat 0
(the challenger, ``{p1}``) stands on the left (flagstone 6 at the start,
docs/rulings/firewall.md#bridge) and pushes the wall toward higher numbers; seat 1 (``{p2}``) stands
on the right.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from ..core import Event, Game, GameOptions, view_int
from ..events import last_public
from .actions import action_adapter
from .spells import SPELLS

BRIDGE = 19  # flagstones 0..18
START_WALL = 9
GAP = 3  # wizards stand three flagstones from the wall
MAX_MANA = 50
START_HAND = 5
DRAW_PER_ROUND = 3
BOOST = 7  # Attack Boost
RESERVE_GAIN = 13  # Reserve Boost
RECYCLE_RANGE = 5  # Recycle changes the bet by at most this much


class FirewallOptions(GameOptions):
    #: "full_hand": each player holds all 14 spells from the start (variant 1); "chosen_order": each
    #: player orders their own stock in secret instead of shuffling (variant 2).
    variant: Literal["standard", "full_hand", "chosen_order"] = "standard"


if TYPE_CHECKING:
    from .view import FirewallView  # noqa: F401 (the view types below are strings: view imports this module)


class Firewall(Game[FirewallOptions, "FirewallView", "FirewallView"]):
    slug: ClassVar[str] = "firewall"
    name: ClassVar[str] = "Firewall"
    summary: ClassVar[str] = (
        "Two wizards on a collapsing bridge over lava push a Fire Wall with secret mana bets and 14 "
        "spells. Whoever is pushed off the bridge loses."
    )
    min_seats = 2
    max_seats = 2
    options_model = FirewallOptions
    action_adapter = action_adapter
    story_kinds = frozenset({"turn_end", "game_end", "forfeit"})  # each resolved turn
    notice_kinds = frozenset({"submitted"})  # "ann has locked in": the reveal tells the bets

    @classmethod
    def chapter(cls, events: Sequence[Event], names: Sequence[str]) -> str | None:
        """ "Round 1, turn 3"."""
        turn = last_public(events, "turn_end", "reveal")
        return f"Round {turn.data.get('round', '?')}, turn {turn.data.get('turn', '?')}" if turn is not None else None

    @classmethod
    def retell(cls, event: Event) -> str | None:
        """Middle when the wall is where the round began: no effect (not "from flagstone 9 to 9");
        "You bet 6 and cast ..." as the prompt's Cast button says it (the engine: "lay down")."""
        if event.kind == "spell":
            d = event.data
            if (
                d.get("wall_from") is None
                or d.get("wall_from") != d.get("wall_to")
                or " sends the wall" not in event.text
            ):
                return None
            head = event.text.split(" sends the wall", 1)[0]
            return f"{head} has no effect: the wall is already on flagstone {d['wall_to']}, where the round began."
        if event.kind == "submitted_private" and " and lay down " in event.text:
            return event.text.replace(" and lay down ", " and cast ")
        return None

    @classmethod
    def position(cls, view: Mapping[str, Any]) -> str:
        """ "Round 1, turn 3" in a turn, else "Round 1"."""
        rnd, turn = view_int(view, "round"), view_int(view, "turn")
        if not rnd:
            return ""
        return f"Round {rnd}, turn {turn + 1}" if turn is not None and view.get("phase") == "turn" else f"Round {rnd}"

    def value_label(self, field: str, value: Any) -> str | None:
        """A spell by its name and number (the turn's spells, its Clone target, Larceny's choice,
        a hand)."""
        if field in ("spells", "clone", "apply", "hand") and isinstance(value, int) and 0 <= value < len(SPELLS):
            return f"{SPELLS[value].name} ({value})"
        return None
