"""Damage, a Minion's removal, a Wizard's knock-out and its fate roll (which ends the game): what
every source of harm in an Arena game (Actions, terrain, the crowd, burning) comes to. Functions of an
:class:`~.state.ArenaState`; ``fate`` is a step (see ``STEPS`` in state.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Outcome, seat_ref
from .game import Phase
from .pieces import Model
from .queries import mname
from .records import KnockOut, Resolution
from .steps import step
from .table import emit, gain_favour, request_roll

if TYPE_CHECKING:
    from .state import ArenaState


def damage(
    st: ArenaState,
    mid: str,
    amount: int,
    cause: str,
    res: Resolution | None = None,
    parts: list[dict[str, Any]] | None = None,
) -> None:
    if st.ko is not None:
        return
    m = st.models.get(mid)
    if m is None:
        return
    before = m.health
    m.health = max(0, m.health - max(0, amount))
    data: dict[str, Any] = {
        "model": mid,
        "amount": amount,
        "health": m.health,
        "max_health": m.max_health,
        "cause": cause,
    }
    if res is not None:
        data.update(source=res.actor, action=res.action, ctx=res.id, reflected=res.reflected)
    if parts:
        data["parts"] = parts
    if st.narrate:
        emit(st, "damage", f"{mname(st, mid)} takes {amount} damage: {m.health}/{m.max_health} Health.", **data)
    if m.health == 0 and before > 0:
        if m.is_wizard:
            knockout(st, m, cause, res)
        else:
            remove_minion(st, mid, by=cause)


def remove_minion(st: ArenaState, mid: str, by: str) -> None:
    m = st.models.pop(mid)
    m.health = 0
    for o in st.models.values():
        o.effects = [e for e in o.effects if not (e.kind == "hypnotic" and e.source == mid)]
    if st.narrate:
        emit(
            st,
            "minion_removed",
            f"{mname(st, mid)} falls and is removed from the Arena.",
            model=mid,
            seat=m.owner,
            by=by,
        )
    gain_favour(st, st.active, 1, "a Minion fell")


def knockout(st: ArenaState, m: Model, cause: str, res: Resolution | None) -> None:
    by_wizard = res is not None and res.by_wizard and cause in ("action", "storm", "tidal_wave")
    if res is not None and cause in ("action", "storm", "tidal_wave"):
        line_key = st.players[owner_of(res.actor)].discipline or "default"
    else:
        line_key = {"burning": "burning", "crowd": "crowd", "move": "move", "blood_pact": "blood_mage"}.get(
            cause, "default"
        )
    st.ko = KnockOut(m.id, m.owner, by_wizard, cause, line_key)
    st.stack.clear()
    st.prompt = None
    st.dominate = None
    if st.narrate:
        emit(
            st,
            "knockout",
            f"{mname(st, m.id)} is knocked out! The fight is over."
            + (" (by a Wizard: +2 to the fate roll)" if by_wizard else ""),
            model=m.id,
            seat=m.owner,
            by_wizard=by_wizard,
            cause=cause,
        )
    request_roll(st, "knockout", [6], step("fate"), seat=m.owner, label="the knocked-out Wizard's fate")


def owner_of(mid: str) -> int:
    """The seat of a model, from its id (``p2-m1``: seat 1), even after it left the board."""
    return int(mid[1]) - 1


def fate(st: ArenaState) -> None:
    assert st.ko is not None and st.roll is not None
    ko = st.ko
    die = st.roll.dice[0]
    bonus = 2 if ko.by_wizard else 0
    total = die + bonus
    destroyed = total >= 6
    loser = ko.seat
    winner = 1 - loser
    who = mname(st, ko.model)
    line = st.data.fates.get(ko.line, st.data.fates["default"])
    fate = f"{who} {line}" if destroyed else f"{who} is merely unconscious and is carried out of the Arena."
    if st.narrate:
        emit(
            st,
            "fate",
            f"Fate roll {die}{' + 2' if bonus else ''} = {total}: {fate}",
            die=die,
            bonus=bonus,
            total=total,
            destroyed=destroyed,
            line=fate,
            model=ko.model,
        )
    why = (
        f"{who} was knocked out"
        + (" and destroyed" if destroyed else "")
        + f"; {seat_ref(winner)} is showered in fame and glory."
    )
    st.final = Outcome.single_winner(2, winner, why)
    st.phase = Phase.OVER
    if st.narrate:
        emit(st, "game_end", why, outcome=st.final.to_json(), winner=winner, destroyed=destroyed)
