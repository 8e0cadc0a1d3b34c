"""The small changes every part of Arena's rules makes to the table: events, scheduling steps,
asking for a roll or a seat's choice, placing and moving models, Crowd Favour, healing, effects,
the end of an activation. Functions of an :class:`~.state.ArenaState`, called by the steps
(setup.py, turn.py, resolve.py, casualties.py, crowd.py) and by the state's hooks.

The flow is a small machine: ``stack`` holds the steps still to run (LIFO; ``push(st, a, b)`` runs
a then b), ``pending_roll`` a die roll the state waits for (a chance action), ``prompt`` a choice a
seat owes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Event, seat_ref
from .board import Square, label
from .pieces import Effect, Model
from .queries import discipline, mname
from .records import LastRoll, Prompt, RollSpec
from .steps import Step, step

if TYPE_CHECKING:
    from .state import ArenaState


# ------------------------------------------------------------------------------ plumbing
def emit(st: ArenaState, kind: str, text: str, /, **data: Any) -> None:
    if st.narrate:
        st._ev.append(Event(kind, text, data))


def take_events(st: ArenaState) -> list[Event]:
    out, st._ev = st._ev, []
    return out


def push(st: ArenaState, *steps: Step) -> None:
    """Schedule steps: the first given runs first. After a knock-out only its fate roll."""
    if st.ko is not None:
        steps = tuple(s for s in steps if s[0] == "fate")
    if len(steps) == 1:
        st.stack.append(steps[0])
    else:
        st.stack.extend(reversed(steps))


def request_roll(st: ArenaState, purpose: str, sides: list[int], then: Step | None = None, **info: Any) -> None:
    if st.ko is not None and purpose != "knockout":
        return
    if then is not None:
        push(st, then)
    st.pending_roll = RollSpec(purpose, tuple(sides), info)


def ask(st: ArenaState, seat: int, kind: Any, **details: Any) -> None:
    """Make ``seat`` owe a choice (see :class:`~.records.Prompt`)."""
    st.prompt = Prompt(seat, kind, **details)


# ------------------------------------------------------------------------------ small changes
def place_wizard(st: ArenaState, seat: int, sq: Square) -> None:
    w = st.data.wizard
    d = discipline(st, seat)
    p = st.players[seat]
    mid = f"p{seat + 1}-wizard"
    name = p.wizard_name or "Wizard"
    st.models[mid] = Model(
        mid, seat, "wizard", d.id, name, sq, w["health"], w["health"], w["move"], w["skill"], w["defence"]
    )
    st.names[mid] = f"{seat_ref(seat)}'s {p.wizard_name + ' the ' if p.wizard_name else ''}{d.name}"
    if st.narrate:
        emit(
            st,
            "deployed",
            f"{st.names[mid]} takes the field on {label(sq)}.",
            seat=seat,
            model=mid,
            kind="wizard",
            at=list(sq),
            square=label(sq),
        )


def place_minion(st: ArenaState, seat: int, sq: Square, why: str) -> str:
    d = discipline(st, seat)
    p = st.players[seat]
    p.minion_count += 1
    mid = f"p{seat + 1}-m{p.minion_count}"
    mn = d.minion
    st.models[mid] = Model(mid, seat, "minion", d.id, mn.name, sq, mn.health, mn.health, mn.move, mn.skill, mn.defence)
    st.names[mid] = f"{seat_ref(seat)}'s {mn.name} {mid}"
    verb = {"deployed": "takes the field", "summoned": "is summoned", "necromancer": "rises from the ground"}[why]
    if st.narrate:
        emit(
            st,
            "deployed" if why == "deployed" else "summon",
            f"{st.names[mid]} {verb} on {label(sq)}.",
            seat=seat,
            model=mid,
            kind="minion",
            at=list(sq),
            square=label(sq),
            cause=why,
        )
    if d.id == "flesh_transmuter":
        request_roll(st, "mutation", [3], step("mutation", mid), model=mid, label=f"the mutation of {mid} (D3)")
    return mid


def relocate(st: ArenaState, m: Model, to: Square, cause: str, path: list[Square]) -> None:
    frm = m.pos
    m.pos = to
    if not st.narrate:
        return
    verbs = {
        "move": "moves",
        "witch_step": "steps (Green Witch, free)",
        "dominate": "is moved by its new master",
        "teleport": "is teleported",
        "tidal_wave": "is swept back by the Tidal Wave",
    }
    if st.narrate:
        emit(
            st,
            "move",
            f"{mname(st, m.id)} {verbs.get(cause, 'moves')} from {label(frm)} to {label(to)}.",
            model=m.id,
            to=list(to),
            path=[list(p) for p in path],
            squares=[label(frm), label(to)],
            cause=cause,
            **{"from": list(frm)},
        )


def gain_favour(st: ArenaState, seat: int, n: int, reason: str) -> None:
    if st.brawl_until is not None:
        if st.narrate:
            emit(
                st,
                "favour_blocked",
                f"A brawl in the stands: {seat_ref(seat)} gains no Crowd Favour ({reason}).",
                seat=seat,
                reason=reason,
            )
        return
    p = st.players[seat]
    p.favour += n
    if st.narrate:
        emit(
            st,
            "favour",
            f"{seat_ref(seat)} gains {n} Crowd Favour ({reason}): {p.favour}.",
            seat=seat,
            change=n,
            total=p.favour,
            reason=reason,
        )


def heal(st: ArenaState, m: Model, amount: int, why: str) -> None:
    gained = min(amount, m.max_health - m.health)
    m.health += gained
    if st.narrate:
        emit(
            st,
            "heal",
            f"{mname(st, m.id)} regains {gained} Health ({why}): {m.health}/{m.max_health}.",
            model=m.id,
            amount=gained,
            rolled=amount,
            health=m.health,
            max_health=m.max_health,
            why=why,
        )


def add_effect(st: ArenaState, m: Model, e: Effect, text: str) -> None:
    """Effects do not stack: a new one replaces the old one of the same kind."""
    m.effects = [x for x in m.effects if x.kind != e.kind]
    m.effects.append(e)
    if st.narrate:
        emit(st, "effect", text, model=m.id, effect=e.kind, **{k: v for k, v in e.to_json().items() if k != "kind"})


def finish_activation(st: ArenaState) -> None:
    a = st.activation
    if a is None:
        return
    st.activation = None
    if a.model not in st.activated:
        st.activated.append(a.model)
    if st.narrate:
        emit(st, "activation_end", f"{mname(st, a.model)} is done for this turn.", model=a.model)


def record_roll(st: ArenaState, spec: RollSpec, dice: list[int]) -> None:
    st.last_roll = LastRoll(spec.purpose, tuple(dice), spec.sides, spec.info)


__all__ = [
    "add_effect",
    "ask",
    "emit",
    "finish_activation",
    "gain_favour",
    "heal",
    "place_minion",
    "place_wizard",
    "push",
    "record_roll",
    "relocate",
    "request_roll",
    "take_events",
]
