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


def test_the_last_to_cast_puts_a_loose_card_on_the_deck_of_risk() -> None:
    """docs/rulings/magic-duel.md#cast-a-spell and #risk-card: a wizard may first put one card
    face-down on the Deck of Risk, and then casts face-up. The last wizard to cast in a trick shows
    its spell to nobody who still casts, so the AI (its prior, playouts and the tree's pruning)
    casts face-up there, putting its lowest loose card (in no combination, never a Joker) on the
    Deck of Risk; leading, in the hand's last trick, or with no loose card it casts face-down."""
    from rules.ai.magic_duel import policy, prior, prune
    from rules.magic_duel.actions import PlayCards

    state = first_trick()
    give(state, 0, ["9S", "2D"])
    give(state, 1, ["KC", "KD", "QH", "3S", "3D", "5H", "JK2"])
    assert sorted(state.hands[1]) == sorted(["KC", "KD", "QH", "3S", "3D", "5H", "JK2"])
    lead = prior(state, 0)
    assert isinstance(lead, PlayCards) and lead.risk is None  # the leader still has a caster after it
    cast(state, 0, ["9S"])
    answer = prior(state, 1)
    assert isinstance(answer, PlayCards)
    assert answer.cards == ("3D", "3S") and answer.risk == "5H"  # the cheapest sure winner; 5H: the lowest loose card
    assert state.is_legal(1, answer)
    assert {a.risk for a in (policy(state, 1, random.Random(k)) for k in range(20))} == {"5H"}
    kept = prune(state, 1, state.legal_actions(1))
    assert answer in kept
    assert [a for a in kept if isinstance(a, PlayCards) and a.risk is not None] == [answer]  # no other face-up cast
    last = state.clone()
    assert last.trick is not None
    last.trick.last = True  # the hand's last trick: no draw follows, nothing to gain
    assert (a := prior(last, 1)) is not None and isinstance(a, PlayCards) and a.risk is None
    paired = state.clone()
    paired.hands[1] = ["KC", "KD", "3S", "3D", "JK2"]  # no loose card: face-down
    assert (a := prior(paired, 1)) is not None and isinstance(a, PlayCards) and a.risk is None


def test_the_ai_refills_from_the_deck_of_advantage() -> None:
    """docs/rulings/magic-duel.md#draw-action: a wizard refills from either deck. The Deck of Risk
    holds the loose cards wizards put there (the seat's own among them), the Deck of Advantage
    fresh cards: the prior draws every card from the Deck of Advantage, and so the search does
    (it plays the prior unless another draw earns the margin; its noisy playouts chose Risk
    draws before)."""
    from rules.ai import choose
    from rules.ai.magic_duel import prior
    from rules.magic_duel.actions import Draw
    from rules.magic_duel.game import Phase

    state = first_trick()
    give(state, 0, ["9S"])
    give(state, 1, ["3S", "3D"])
    cast(state, 0, ["9S"])
    cast(state, 1, ["3D", "3S"])
    assert state.phase is Phase.DRAW and state.risk  # the Deck of Risk offers cards
    seat = state.draw_queue[0]
    assert len(state.legal_actions(seat)) > 1
    assert prior(state, seat) == Draw(risk=0)
    assert [choose(state, seat, level=level, seed=k) for level in ("normal", "hard") for k in range(2)] == [
        Draw(risk=0)
    ] * 4
