"""Helpers for Arena tests: set up a duel through the public API with forced dice, then arrange
positions directly on the state."""

from __future__ import annotations

from typing import Any

from rules.arena import (
    Act,
    Arena,
    ArenaState,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    Decline,
    Deploy,
    EndTurn,
    Move,
    PlaceTerrain,
    Roll,
    SelectModel,
    SpendFavour,
    parse_label,
)
from rules.arena.pieces import Model
from rules.core import CHANCE, Event
from rules.match import Match

W1, W2 = "p1-wizard", "p2-wizard"
M1, M2 = "p1-m1", "p2-m1"


sq = parse_label  # "C4" -> (2, 3)


def duel(
    d1: str = "draconic_magus",
    d2: str = "necromancer",
    *,
    terrain: tuple[str, ...] = (),
    pos: dict[str, str] | None = None,
    favour: tuple[int, int] = (0, 0),
    options: dict[str, Any] | None = None,
    mutation: int = 1,
    player_one: int = 0,
) -> Match:
    """A 10x10 duel: Player 2 takes the north edge, Player 1 the south. Wizards on E1 (Player 1) /
    E10, Minions on F1 / F10 (then moved to ``pos``), Player 1 wins the roll-off (then Crowd Favour is
    set to ``favour``). Terrain is set to exactly ``terrain``. Stops at the start of Player 1's
    first turn, before its Start Phase prompts are answered. With the roll-off for Player 1 (the
    default), seat ``player_one`` wins it."""
    m = Match(Arena(options or {}), 0, ["Ann", "Bob"])
    if m.state.awaiting.is_chance:
        m.apply(CHANCE, Roll(dice=(6, 1) if player_one == 0 else (1, 6)))
    m.apply(0, ChooseDiscipline(discipline=d1))
    m.apply(1, ChooseDiscipline(discipline=d2))
    if not m.state.pending_layout:
        for t in ("C5", "D5", "E5", "F5", "G5", "H5", "B5", "I5")[: m.state.terrain_count]:
            m.apply(player_one, PlaceTerrain(at=sq(t)))
    else:
        m.resolve_chance()
    m.apply(1 - player_one, ChooseEdge(side="north"))
    rows = {player_one: ("E1", "F1"), 1 - player_one: ("E10", "F10")}
    for seat in (player_one, 1 - player_one):
        w, mn = rows[seat]
        m.apply(seat, Deploy(model="wizard", at=sq(w)))
        m.apply(seat, Deploy(model="minion", at=sq(mn)))
        if m.state.pending_roll is not None and m.state.pending_roll.purpose == "mutation":
            m.apply(CHANCE, Roll(dice=(mutation,)))
    st = state(m)
    st.terrain = sorted(sq(t) for t in terrain)
    for mid, where in (pos or {}).items():
        st.models[mid].pos = sq(where)
    m.apply(CHANCE, Roll(dice=(6, 1)))
    for seat in (0, 1):
        st.players[seat].favour = favour[seat]
    return m


def state(m: Match) -> ArenaState:
    assert isinstance(m.state, ArenaState)
    return m.state


def roll(m: Match, *dice: int) -> list[Event]:
    return m.apply(CHANCE, Roll(dice=tuple(dice)))


def purpose(m: Match) -> str | None:
    pr = state(m).pending_roll
    return pr.purpose if pr else None


def prompt(m: Match) -> str | None:
    p = state(m).prompt
    return p.kind if p else None


def to_action(m: Match, spell: str = "arcane_rocket", dice: tuple[int, ...] = (1, 1), spend: int = 0) -> list[Event]:
    """Answer the Start Phase (decline optional abilities, spend ``spend`` favour) and choose
    ``spell`` after rolling ``dice`` (a double: any spell)."""
    st = state(m)
    events: list[Event] = []
    for _ in range(50):
        if st.phase == "action" and st.prompt is None:
            return events
        if st.pending_roll is not None:
            assert st.pending_roll.purpose == "spell_selection", st.pending_roll
            events += roll(m, *dice[: len(st.pending_roll.sides)])
            continue
        kind = prompt(m)
        assert st.prompt is not None
        seat = st.prompt.seat
        if kind == "crowd":
            events += m.apply(seat, SpendFavour(points=spend))
            if st.pending_roll is not None and st.pending_roll.purpose == "crowd":
                return events  # the test rolls the crowd die
        elif kind == "spell":
            events += m.apply(seat, ChooseSpell(spell=spell))
        elif kind == "necro":
            events += m.apply(seat, st.legal_actions(seat)[0])
        else:
            events += m.apply(seat, Decline())
    raise AssertionError("did not reach the Action Phase")


def act(m: Match, model: str, target: str | None = None, at: str | None = None) -> list[Event]:
    st = state(m)
    seat = st.models[model].owner
    ev: list[Event] = []
    if st.activation is None or st.activation.model != model:
        ev += m.apply(seat, SelectModel(model=model))
    return ev + m.apply(seat, Act(target=target, at=sq(at) if at else None))


def move(m: Match, model: str, to: str) -> list[Event]:
    st = state(m)
    seat = st.models[model].owner
    ev: list[Event] = []
    if st.activation is None or st.activation.model != model:
        ev += m.apply(seat, SelectModel(model=model))
    return ev + m.apply(seat, Move(to=sq(to)))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def health(m: Match, mid: str) -> int:
    mo = state(m).models.get(mid)
    return mo.health if mo else 0


def add_minion(m: Match, seat: int, at: str) -> str:
    """Put one more Minion of ``seat`` on ``at`` (no mutation roll is asked for)."""
    st = state(m)
    d = st.discipline(seat)
    pl = st.players[seat]
    pl.minion_count += 1
    mid = f"p{seat + 1}-m{pl.minion_count}"
    mn = d.minion
    st.models[mid] = Model(
        mid, seat, "minion", d.id, mn.name, sq(at), mn.health, mn.health, mn.move, mn.skill, mn.defence
    )
    st.names[mid] = f"{{p{seat + 1}}}'s {mn.name} {mid}"
    return mid


def end_turn(m: Match) -> list[Event]:
    return m.apply(state(m).active, EndTurn())
