"""Arena's /howto entry: the one-screen summary with its picture's panels, and the tip for a
player's first match."""

from __future__ import annotations

from collections.abc import Mapping

from cogs import howto_art
from rules.text import plural

from ..howto import HowTo, Step


def _numbers() -> Mapping[str, str]:
    """The default match's numbers the captions name (looked up at drawing time)."""
    minions, grid = howto_art.arena_numbers()
    return {"minions": plural(minions, "Minion"), "grid": str(grid)}


HOWTO = HowTo(
    goal="Knock out the enemy Wizard (0 Health) with your Wizard, Minions, spells and the crowd.",
    turn=(
        "**Start:** spend Crowd Favour on the crowd table. **Spells:** roll 2 dice and pick one "
        "spell (or the Arcane Rocket). **Actions:** each model may Move (starting next to an enemy "
        "costs 2 damage) and take 1 Action. Against an enemy: D6 + Skill against D6 + Defence; a "
        "tie explodes (reflected, or double damage)."
    ),
    end="A Wizard at 0 Health is knocked out and the game ends. A Minion at 0 is removed (+1 Crowd Favour).",
    steps=(
        Step("arena-board", "A Wizard and {minions} each, on a {grid} by {grid} board"),
        Step("arena-dice", "Roll 2 dice, pick a spell"),
        Step("arena-attack", "D6 + Skill against D6 + Defence"),
        Step("arena-ko", "Knock out the enemy Wizard"),
    ),
    fill=_numbers,
)

#: the one thing a player must know in their first match (one line)
FIRST_MATCH_TIP = (
    "Knock out the enemy Wizard to win, and mind that a model starting its move next to an enemy "
    "takes 2 damage when it moves."
)
