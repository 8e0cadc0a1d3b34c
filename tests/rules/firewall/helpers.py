"""Helpers for Firewall tests: start a match with a forced deal, arrange a position, play turns."""

from __future__ import annotations

import random
from typing import Any

from rules.core import CHANCE, Event
from rules.firewall import DECK, Firewall, FirewallState, LarcenyChoice, Order, RecycleChoice, Shuffle, Turn
from rules.match import Match

SEATS = ["Ann", "Bob"]


def start(stock0: list[int] | None = None, stock1: list[int] | None = None, *, variant: str = "standard") -> Match:
    """A match whose stocks are ``stock0``/``stock1`` (top first; missing cards follow in number order).
    Standard: the shuffles are forced chance actions; chosen_order: both seats order their stock."""
    m = Match(Firewall({"variant": variant}), 0, SEATS)
    stocks = [_complete(stock0), _complete(stock1)]
    if variant == "standard":
        for seat in (0, 1):
            m.apply(CHANCE, Shuffle(seat=seat, order=tuple(stocks[seat])))
    elif variant == "chosen_order":
        for seat in (0, 1):
            m.apply(seat, Order(stock=tuple(stocks[seat])))
    return m


def _complete(top: list[int] | None) -> list[int]:
    top = list(top or [])
    return top + [c for c in DECK if c not in top]


def arrange(
    hands: tuple[list[int], list[int]] = ([], []),
    *,
    mana: tuple[int, int] = (50, 50),
    wall: int = 9,
    wizards: tuple[int, int] | None = None,
    broken: int = 0,
    round_start_wall: int | None = None,
    last_played: tuple[list[int], list[int]] = ([], []),
    muted: bool = False,
    round_: int = 1,
) -> FirewallState:
    """A standard-variant state at the start of a turn: each hand holds the false card plus the
    given spells; the rest of each player's spells are split between the discard pile (the
    ``last_played`` ones, on top) and the stock."""
    st = Firewall().new_state()
    assert isinstance(st, FirewallState)
    for seat in (0, 1):
        st.apply(CHANCE, Shuffle(seat=seat, order=tuple(DECK)))
    for seat, p in enumerate(st.players):
        p.hand = sorted({0, *hands[seat]})
        p.discard = [c for c in last_played[seat] if c not in hands[seat]]
        p.stock = [c for c in DECK if c not in p.hand and c not in p.discard]
        p.last_played = list(last_played[seat])
        p.mana = mana[seat]
    st.wall = wall
    st.round_start_wall = wall if round_start_wall is None else round_start_wall
    ws = wizards or (wall - 3, wall + 3)
    st.players[0].wizard, st.players[1].wizard = ws
    st.broken_depth = broken
    st.muted = muted
    st.round = round_
    return st


def turn(
    st: FirewallState | Match,
    a: tuple[Any, ...] | Turn | dict[str, Any],
    b: tuple[Any, ...] | Turn | dict[str, Any],
) -> list[Event]:
    """Both seats submit (seat 0 first). A tuple is (bet, spells[, clone])."""
    events: list[Event] = []
    for seat, act in ((0, a), (1, b)):
        events += st.apply(seat, _turn(act))
    return events


def _turn(act: tuple[Any, ...] | Turn | dict[str, Any]) -> Turn | dict[str, Any]:
    if isinstance(act, tuple):
        bet, spells, *rest = act
        return Turn(bet=bet, spells=tuple(spells), clone=rest[0] if rest else None)
    return act


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def one(events: list[Event], kind: str) -> dict[str, Any]:
    (d,) = of(events, kind)
    return d


def spell(events: list[Event], card: int) -> list[dict[str, Any]]:
    return [d for d in of(events, "spell") if d["card"] == card]


def results(events: list[Event]) -> list[tuple[int, str]]:
    """(card, result) of every spell event, in application order."""
    return [(d["card"], d["result"]) for d in of(events, "spell")]


def public(events: list[Event]) -> list[Event]:
    return [e for e in events if e.visible_to is None]


# ------------------------------------------------------------------ example logs (examples/firewall)


def random_match(seed: int, variant: str = "standard") -> Match:
    """Random legal play to the end, as ``python -m rules play-random`` does."""
    m = Match.new("firewall", {"variant": variant}, seed=seed, seats=["Player 1", "Player 2"])
    rng = random.Random(seed)
    while not m.awaiting.is_terminal:
        seat = min(m.awaiting.seats)
        m.act(seat, m.state.sample_action(seat, rng))
    return m


def scripted_spells_match() -> Match:
    """A played match: the false card, Attack Boost, Double Dose, Recycle (follow-up), Inferno, Suction
    capped at 50, Larceny (follow-up) of Middle and Resistance, Bad Loser, Winner Loses; then random play."""
    m = start([7, 3, 6, 9, 12, 1, 8, 2, 4, 5, 10, 11, 13, 14], [8, 10, 11, 14, 5, 2, 13, 6, 7, 12, 1, 3, 4, 9])
    # Ann 3 6 7 9 12 | Bob 5 8 10 11 14
    m.act(0, Turn(bet=5, spells=(0, 7)))  # a bluff with the false card plus Attack Boost
    m.act(1, Turn(bet=8, spells=(8,)))  # Double Dose: 16 against 12
    m.act(0, Turn(bet=6, spells=(6,)))  # Recycle
    m.act(1, Turn(bet=4, spells=(10, 14)))  # Inferno, Suction
    m.act(0, RecycleChoice(bet=11))  # Ann raises her bet by 5: 11 against 4, Inferno pushes two
    m.act(0, Turn(bet=3, spells=(3, 12)))  # Larceny, Bad Loser
    m.act(1, Turn(bet=9, spells=(5, 11)))  # Middle, Resistance
    m.act(0, LarcenyChoice(apply=(11,)))  # keeps Resistance, throws Middle away
    m.act(0, Turn(bet=10, spells=(9,)))  # Winner Loses
    m.act(1, Turn(bet=2, spells=()))
    return finish(m, 1)


def scripted_out_of_mana_match() -> Match:
    """Full-hand variant: End of Round, Muteness for a round, Clone of a Double Dose, mana run out."""
    m = Match(Firewall({"variant": "full_hand"}), 11, ["Player 1", "Player 2"])
    m.act(0, Turn(bet=10, spells=(4,)))  # End of Round at once: no bets paid
    m.act(1, Turn(bet=20, spells=(8, 13)))
    m.act(0, Turn(bet=1, spells=(2,), clone=8))  # round 2: clone Bob's Double Dose... and Muteness
    m.act(1, Turn(bet=1, spells=(1,)))  # Muteness: nothing works this round
    m.act(0, Turn(bet=30, spells=(7,)))  # lost: Muteness still in effect
    m.act(1, Turn(bet=40, spells=()))
    m.act(0, Turn(bet=19, spells=()))
    m.act(1, Turn(bet=5, spells=()))  # Ann is out of mana; Bob's 4 mana push the wall on
    return finish(m, 2)


def finish(m: Match, seed: int) -> Match:
    """Random legal play from here to the end of the match."""
    rng = random.Random(seed)
    while not m.awaiting.is_terminal:
        seat = min(m.awaiting.seats)
        m.act(seat, m.state.sample_action(seat, rng))
    return m


EXAMPLES = {
    "random-seed-3.json": lambda: random_match(3),
    "random-full-hand-seed-5.json": lambda: random_match(5, "full_hand"),
    "random-chosen-order-seed-8.json": lambda: random_match(8, "chosen_order"),
    "scripted-spells.json": scripted_spells_match,
    "scripted-mute-and-out-of-mana.json": scripted_out_of_mana_match,
}


def example_log(make: Any) -> dict[str, Any]:
    m = make()
    out = m.to_log().model_dump(mode="json")
    out["outcome"] = m.outcome.to_json(m.seats) if m.outcome else None
    return out
