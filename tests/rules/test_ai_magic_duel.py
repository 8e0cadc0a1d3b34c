"""Magic Duel's search knowledge (rules/ai/magic_duel.py) on constructed positions (docs/ai.md,
"Magic Duel")."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.ai.magic_duel import determinize
from rules.core import CHANCE
from rules.magic_duel.actions import play_action
from rules.magic_duel.cards import classify
from rules.magic_duel.state import MagicDuelState
from rules.match import Match


def first_trick(seats: int = 2, seed: int = 1) -> MagicDuelState:
    """A fresh hand, the first trick awaiting its leader (seat 0)."""
    state = Match.new("magic-duel", seed=seed, seats=[f"P{i + 1}" for i in range(seats)]).state
    rng = random.Random(seed)
    while state.awaiting.is_chance:
        state.apply(CHANCE, state.sample_action(CHANCE, rng))
    assert isinstance(state, MagicDuelState) and state.trick is not None and not state.trick.plays
    return state


def give(state: MagicDuelState, seat: int, cards: Sequence[str]) -> None:
    """Swap ``cards`` into ``seat``'s hand (each in place of one of its other cards), wherever
    they lie: the deal stays a deal of the whole deck."""
    hand = state.hands[seat]
    spare = [c for c in hand if c not in cards]
    for card in cards:
        if card in hand:
            continue
        given = spare.pop()
        for pile in [*state.hands, state.risk, state.advantage, state.set_aside]:
            if card in pile:
                pile[pile.index(card)] = given
                break
        hand[hand.index(given)] = card


def cast(state: MagicDuelState, seat: int, cards: Sequence[str]) -> None:
    state.apply(seat, play_action(tuple(cards), None))


def all_cards(state: MagicDuelState) -> list[str]:
    trick = [c for p in state.trick.plays for c in p.cards] if state.trick is not None else []
    gathered = [c for g in state.gathered for t in g for c in t]
    return sorted([*(c for h in state.hands for c in h), *state.risk, *state.advantage, *gathered, *trick])


def test_face_down_raquavs_at_a_table_are_always_sampled() -> None:
    """Four wizards, three face-down spells before the seat: two Raquavs (four of a value) and
    a Codu, most of the deck already gathered (known). The first wizard's sampled hand could
    take cards of the only other four of a value left, and the determinizer failed ("cannot
    happen"; a ValueError that stopped a 4-player game). Now every sample holds spells of the
    sizes cast, the deck stays whole, and the seat's own cards stay where they are."""
    state = first_trick(seats=4, seed=2)
    give(state, 0, ["5D", "5H", "5S", "5C"])
    give(state, 1, ["6D", "6H", "6S", "6C"])
    give(state, 2, ["9D", "9H"])
    cast(state, 0, ["5D", "5H", "5S", "5C"])
    cast(state, 1, ["6D", "6H", "6S", "6C"])
    cast(state, 2, ["9D", "9H"])
    keep = ["CURSE", *[c for c in state.advantage if c != "CURSE"][:3]]
    state.gathered[3] = [[c for c in state.advantage if c not in keep]]
    state.advantage = keep
    whole = all_cards(state)
    for k in range(300):
        sim = determinize(state, 3, random.Random(k))
        assert isinstance(sim, MagicDuelState) and sim.trick is not None
        assert [len(p.cards) for p in sim.trick.plays] == [4, 4, 2]
        assert all(classify(p.cards) is not None and not p.face_up for p in sim.trick.plays)
        assert all_cards(sim) == whole
        assert sim.hands[3] == state.hands[3] and [len(h) for h in sim.hands] == [len(h) for h in state.hands]
