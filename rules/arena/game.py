"""Arena, the game: its options, its phases and the constants the engine and the UI share.

Rules: the game's rule text and its design note (data and gaps), neither part of this repository,
as docs/rulings/arena.md states them with this project's rulings; each ruling's *Rule:* line says
which part of the game's rules it implements.

Player 1 and Player 2 are roles, not seats: a roll-off at the start (a chance action) decides
which seat is Player 1, unless the option ``first_player`` is ``"challenger"`` (seat 0, the
challenger, is Player 1; logs stored before the roll-off existed replay that way).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from ..core import Event, Game, GameOptions, view_int
from ..events import last_public
from .actions import action_adapter

_MODEL_ID = re.compile(r"p(\d)-(wizard|m\d+)")


class Phase(StrEnum):
    """The phase of the game. The values are the view's ``phase`` strings."""

    DISCIPLINE = "discipline"
    TERRAIN = "terrain"
    EDGE = "edge"
    DEPLOY = "deploy"
    ROLLOFF = "rolloff"
    START = "start"
    SPELL = "spell"
    ACTION = "action"
    OVER = "over"


#: The set-up phases: each awaits one kind of set-up action.
SETUP_PHASES = frozenset({Phase.DISCIPLINE, Phase.TERRAIN, Phase.EDGE, Phase.DEPLOY})

#: Rolls after which the hometown chant's re-roll is offered.
CHANT_PURPOSES = frozenset({"spell_selection", "opposed", "explosion", "damage", "heal", "mutation"})

#: The board edges a Player 2 may choose, in the order the choices are listed.
EDGE_CHOICES: tuple[Literal["south", "north", "west", "east"], ...] = ("south", "north", "west", "east")


class ArenaOptions(GameOptions):
    grid_size: int = Field(10, ge=8, le=12, description="the board is grid_size x grid_size squares")
    terrain_count: int = Field(6, ge=4, le=8, description="single-square terrain pieces")
    terrain_setup: Literal["player1", "random"] = Field(
        "player1",
        description="player1: Player 1 places the terrain (or asks for a random layout); random: always random",
    )
    game_turn_limit: int = Field(
        30, ge=0, le=200, description="after this many game turns without a knock-out the match is a draw; 0 = none"
    )
    first_player: Literal["roll_off", "challenger"] = Field(
        "roll_off",
        description="roll_off: a roll-off at the start decides who is Player 1; challenger: the challenger "
        "(seat 0) is Player 1",
        json_schema_extra={"legacy": "challenger"},
    )


if TYPE_CHECKING:
    from .view import ArenaView  # noqa: F401 (the view types below are strings: view imports this module)


class Arena(Game[ArenaOptions, "ArenaView", "ArenaView"]):
    slug: ClassVar[str] = "arena"
    name: ClassVar[str] = "Arena"
    summary: ClassVar[str] = (
        "Two Wizards of rival Magic Disciplines and their Minions fight on a square grid with terrain: "
        "roll for your spell, move, cast, win the crowd, and knock out the enemy Wizard."
    )
    min_seats = 2
    max_seats = 2
    options_model = ArenaOptions
    action_adapter = action_adapter
    story_kinds = frozenset({"turn_end", "game_end", "forfeit"})  # one per player-turn
    # Player 1 is a roll-off by default; with first_player=challenger seat 0 is Player 1: the
    # tournament profile's default (a first seat to balance) holds

    @classmethod
    def chapter(cls, events: Sequence[Event], names: Sequence[str]) -> str | None:
        """ "Turn 12 · ann" (the game turn and whose turn it was), "Set-up", or "Set-up, then turn 1 · ann"."""
        turn = last_public(events, "turn_end")
        setup = last_public(events, "discipline_chosen", "deployed", "terrain_placed") is not None
        if turn is None:
            return "Set-up" if setup else None
        seat = turn.data.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
        title = f"Turn {turn.data.get('game_turn', '?')} · {who}"
        return f"Set-up, then {title[:1].lower()}{title[1:]}" if setup else title

    @classmethod
    def retell(cls, event: Event) -> str | None:
        """ "{p1} activates their Astral Warlock." (the engine names the model with its owner again);
        a roll-off with whose die is whose: "The roll-off for Player 1: 5 for {p1}, 6 for {p2}." (the
        engine: "Roll for the roll-off for Player 1 ({p1}, {p2}): 5, 6.")."""
        if event.kind == "select":
            found = re.fullmatch(r"(\{p\d\}) activates \1's (.+)", event.text)
            return f"{found[1]} activates their {found[2]}" if found else None
        if event.kind != "roll":
            return None
        purpose = str(event.data.get("purpose"))
        owners = {"first_player": ("{p1}", "{p2}"), "rolloff": ("Player 1", "Player 2")}.get(purpose)
        dice, label = event.data.get("dice"), str(event.data.get("label", ""))
        if owners is None or not isinstance(dice, list) or len(dice) != 2 or not label.startswith("the "):
            return None
        name = label.rsplit(" (", 1)[0]
        return f"{name[:1].upper()}{name[1:]}: {dice[0]} for {owners[0]}, {dice[1]} for {owners[1]}."

    @classmethod
    def position(cls, view: Mapping[str, Any]) -> str:
        """ "Turn 5", or "Set-up"."""
        turn = view_int(view, "game_turn")
        return f"Turn {turn}" if turn else "Set-up"

    def value_label(self, field: str, value: Any) -> str | None:
        """A square by its label ("C4"), a model by its owner and kind ("P1 Wizard", "P2 Minion 1")."""
        if field in ("to", "at") and isinstance(value, tuple | list) and len(value) == 2:
            x, y = value
            if isinstance(x, int) and isinstance(y, int):
                return f"{chr(ord('A') + x)}{y + 1}"
        if field in ("model", "target") and isinstance(value, str):
            found = _MODEL_ID.fullmatch(value)
            if found:
                kind = "Wizard" if found.group(2) == "wizard" else f"Minion {found.group(2)[1:]}"
                return f"P{found.group(1)} {kind}"
        return None


__all__ = ["CHANT_PURPOSES", "EDGE_CHOICES", "SETUP_PHASES", "Arena", "ArenaOptions", "Phase"]
