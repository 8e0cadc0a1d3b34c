"""The crowd table of an Arena game: the result of a roll on it (its die and the Crowd Favour
points spent) and the rolls some results ask for (the Fire Gremlin's victim and damage, the crystal
shard). Step functions of an :class:`~.state.ArenaState` (see ``STEPS`` in state.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .casualties import damage
from .pieces import Effect
from .queries import mname, ordered_models, wizard
from .steps import step
from .table import add_effect, emit, gain_favour, request_roll

if TYPE_CHECKING:
    from .state import ArenaState


def crowd_result(st: ArenaState, points: int) -> None:
    assert st.roll is not None
    a = st.active
    die = st.roll.dice[0]
    total = min(6, die + points - 1)
    res = st.data.crowd[total]
    if st.narrate:
        emit(
            st,
            "crowd",
            f"The crowd: {die}{f' + {points - 1}' if points > 1 else ''} = {total}: {res.name}. {res.text}",
            seat=a,
            points=points,
            die=die,
            bonus=points - 1,
            total=total,
            result=res.id,
        )
    wiz = wizard(st, a)
    if res.id == "insult" and wiz is not None:
        add_effect(
            st, wiz, Effect("insult", ends_after_turn=st.turn_no), f"{mname(st, wiz.id)} has -1 Skill this turn."
        )
    elif res.id == "fire_gremlin":
        ids = [m.id for m in ordered_models(st)]
        request_roll(
            st,
            "gremlin_model",
            [len(ids)],
            step("gremlin_model", ids),
            models=ids,
            label=f"the Fire Gremlin's victim (1-{len(ids)})",
        )
    elif res.id == "brawl":
        st.brawl_until = st.turn_no + 2
    elif res.id == "wild":
        gain_favour(st, a, 2, "the crowd goes wild")
    elif res.id == "chant":
        st.players[a].chant = True
    elif res.id == "crystal_shard":
        request_roll(st, "shard_damage", [6], step("shard_damage"), label="the crystal shard (D6 damage)")


def gremlin_model(st: ArenaState, ids: list[str]) -> None:
    assert st.roll is not None
    mid = ids[st.roll.dice[0] - 1]
    if st.narrate:
        emit(st, "gremlin", f"The Fire Gremlin explodes next to {mname(st, mid)}!", model=mid, models=ids)
    request_roll(
        st, "gremlin_damage", [6], step("gremlin_damage", mid), model=mid, label="the Fire Gremlin (D6 damage)"
    )


def gremlin_damage(st: ArenaState, mid: str) -> None:
    assert st.roll is not None
    damage(st, mid, st.roll.dice[0], cause="crowd")


def shard_damage(st: ArenaState) -> None:
    assert st.roll is not None
    damage(st, f"p{2 - st.active}-wizard", st.roll.dice[0], cause="crowd")
