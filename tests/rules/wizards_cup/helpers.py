"""Helpers for Wizards Cup tests: play scenarios through the public API, or arrange a round."""

from __future__ import annotations

from typing import Any

from rules.core import CHANCE, Event
from rules.match import Match
from rules.wizards_cup import ChooseDeck, Phase, Plan, RandomPick, Step, WizardsCup, WizardsCupState


def start(order0: list[str], waiting0: str, order1: list[str], waiting1: str, *, seed: int = 0) -> Match:
    """A match where each seat's random card is the first of its order, then both plan."""
    m = Match(WizardsCup(), seed, ["Ann", "Bob"])
    for seat, order in enumerate((order0, order1)):
        m.apply(CHANCE, RandomPick(seat=seat, card=order[0]))
    for seat, (order, waiting) in enumerate(((order0, waiting0), (order1, waiting1))):
        rest = [c for c in [*order, waiting] if c != order[0]]
        m.apply(seat, ChooseDeck(cards=tuple(rest)))
        m.apply(seat, Plan(order=tuple(order), waiting=waiting))
    return m


def arrange(p0: dict[str, Any], p1: dict[str, Any]) -> tuple[WizardsCupState, list[Event]]:
    """A state in the middle of a round: each dict may give pile (top first), waiting, discard
    (bottom..top), duel (a Wizard that stayed in the Duel zone), tokens and team (the 6-card
    Deck; by default the cards given). Then the duels run."""
    st = WizardsCup().new_state()
    assert isinstance(st, WizardsCupState)
    for seat, spec in enumerate((p0, p1)):
        pl = st.players[seat]
        pl.pile = list(spec.get("pile", []))
        pl.waiting = spec.get("waiting")
        pl.discard = list(spec.get("discard", []))
        pl.duel = spec.get("duel")
        pl.tokens = spec.get("tokens", 0)
        pl.team = list(spec.get("team") or [c for c in [*pl.pile, pl.waiting, *pl.discard, pl.duel] if c])
        pl.random_pick = pl.team[0] if pl.team else None
        pl.step = Step.DONE
    st.phase = Phase.PREPARE
    events = st._start_round()
    return st, events


def duels(events: list[Event]) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == "duel"]


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def discards(events: list[Event]) -> list[list[str]]:
    """The discard piles at the end of the (last) round, from the public round_end event."""
    end = [e for e in events if e.kind == "round_end"][-1]
    return [list(d) for d in end.data["discards"]]
