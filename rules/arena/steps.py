"""The steps of Arena's rules machine: their names and how one is scheduled.

``ArenaState.stack`` holds the steps still to run; ``STEPS`` in state.py maps each name to its function.
"""

from __future__ import annotations

from typing import Any, Literal

#: The steps of the machine (see ``STEPS`` in state.py, which maps each to its function).
StepName = Literal[
    "first_player",
    "deploy_progress",
    "rolloff",
    "mutation",
    "turn_start",
    "burning",
    "trickster",
    "necro",
    "witch",
    "blood",
    "crowd",
    "spell_roll",
    "spell_prompt",
    "end_turn",
    "activity_done",
    "blood_damage",
    "window",
    "crowd_result",
    "gremlin_model",
    "gremlin_damage",
    "shard_damage",
    "opposed",
    "explosion",
    "effect",
    "damage",
    "heal",
    "dominate_end",
    "fate",
]
#: A scheduled step: its name and its arguments.
Step = tuple[StepName, tuple[Any, ...]]


def step(name: StepName, *args: Any) -> Step:
    return (name, args)
