"""The dice of an Arena game as chance actions: checking a roll given for the one the state awaits,
and applying it (the roll's record, the hometown chant's re-roll of one die, and the window for
re-rolls and bonuses after a roll). Functions of an :class:`~.state.ArenaState`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import ActionModel, seat_ref
from ..errors import IllegalAction
from .actions import Roll
from .game import CHANT_PURPOSES
from .records import RollRecord
from .steps import step
from .table import emit, push, record_roll

if TYPE_CHECKING:
    from .state import ArenaState


def check_roll(st: ArenaState, action: ActionModel) -> None:
    """Raise ``IllegalAction`` unless ``action`` is a roll of the dice the state awaits."""
    spec = st.pending_roll
    assert spec is not None
    if not isinstance(action, Roll):
        raise IllegalAction(f"The game is waiting for a roll ({spec.purpose}), not {action.to_json()['type']}.")
    if len(action.dice) != len(spec.sides):
        raise IllegalAction(f"The {spec.purpose} roll has {len(spec.sides)} dice, not {len(action.dice)}.")
    for d, s in zip(action.dice, spec.sides, strict=True):
        if not 1 <= d <= s:
            raise IllegalAction(f"A die of the {spec.purpose} roll shows 1 to {s}, not {d}.")


def apply_roll(st: ArenaState, action: Roll) -> None:
    spec = st.pending_roll
    assert spec is not None
    st.pending_roll = None
    dice = list(action.dice)
    record_roll(st, spec, dice)
    if spec.purpose == "reroll":
        rec = st.roll
        assert rec is not None
        i = spec.info["die"]
        old = rec.dice[i]
        rec.dice[i] = dice[0]
        if not st.narrate:
            return
        if st.narrate:
            emit(
                st,
                "reroll",
                f"Hometown chant: {seat_ref(st.active)} re-rolls die {i + 1} of the "
                f"{rec.purpose.replace('_', ' ')} roll: {old} becomes {dice[0]}.",
                purpose=rec.purpose,
                die=i,
                old=old,
                new=dice[0],
                dice=list(rec.dice),
            )
        return
    st.roll = RollRecord(spec.purpose, dice, spec.sides, dict(spec.info))
    if st.narrate:
        emit(
            st,
            "roll",
            f"Roll for {spec.info.get('label', spec.purpose.replace('_', ' '))}: {', '.join(map(str, dice))}.",
            purpose=spec.purpose,
            dice=dice,
            sides=list(spec.sides),
            **spec.info,
        )
    if spec.purpose in CHANT_PURPOSES:
        push(st, step("window"))


__all__ = ["apply_roll", "check_roll"]
