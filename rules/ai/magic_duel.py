"""Magic Duel's determinizer: what a seat cannot see, resampled from what it knows.

Hidden from ``seat``: the other wizards' hands (their sizes are public), the Deck of Risk and the
Deck of Advantage (their counts are public; the Cursed Spell is somewhere in the Deck of
Advantage), the cards set aside from removed wizards, the cards of the other wizards' face-down
spells of the current trick (their counts are public: they were cast before the seat, in secret)
and the cards they put on the Deck of Risk. Kept: the seat's own hand, its own spell and the card
it risked for it (where it lies in the Deck of Risk), face-up spells, gathered tricks, points.

The unknown cards are pooled, sorted (canonical: the true deal does not show through) and
shuffled with the seeded rng. Each other wizard's face-down spell of ``k`` cards takes the first
``k``-card combination found in that order (``k`` of one value, or one or two Jokers: a spell is
always a combination), then the hands, the Deck of Risk's unknown places, the Deck of Advantage
and the set-aside cards are dealt from the rest in that order, at their true sizes. Spells are
cast in turn order, so no committed choice of a simultaneous step needs taking back (``reopen``
changes nothing here).
"""

from __future__ import annotations

import random

from ..core import State
from ..magic_duel.cards import CURSE, card_value, classify
from ..magic_duel.state import MagicDuelState
from ..magic_duel.trick import TrickPlay


def _take_combination(pool: list[str], size: int) -> list[str] | None:
    """The first ``size``-card combination in ``pool``'s order (removed from it), if any."""
    groups: dict[int, list[str]] = {}
    for card in pool:
        if card == CURSE:
            continue
        value = card_value(card)
        if value is None or (value == 0 and size > 2):
            continue
        group = groups.setdefault(value, [])
        group.append(card)
        if len(group) == size:
            for c in group:
                pool.remove(c)
            return group
    return None


def determinize(state: State, seat: int, rng: random.Random, reopen: bool = False) -> State:
    assert isinstance(state, MagicDuelState)
    sim = state.clone(narrate=False)
    trick = sim.trick
    mine = next((p for p in trick.plays if p.seat == seat), None) if trick is not None else None
    own_risk = mine.risk if mine is not None else None
    others = [s for s in range(sim.num_seats) if s != seat]
    hidden_plays = (
        [i for i, p in enumerate(trick.plays) if p.seat != seat and not p.face_up] if trick is not None else []
    )
    risk_slots = [i for i, c in enumerate(sim.risk) if c != own_risk]
    pool = [c for s in others for c in sim.hands[s]]
    cursed = CURSE in sim.advantage  # it stays in the Deck of Advantage, at a random place
    pool += [sim.risk[i] for i in risk_slots] + [c for c in sim.advantage if c != CURSE] + sim.set_aside
    assert trick is not None or not hidden_plays
    for i in hidden_plays:
        pool += trick.plays[i].cards  # type: ignore[union-attr]
    pool.sort()
    rng.shuffle(pool)
    if trick is not None and hidden_plays:
        plays = list(trick.plays)
        for i in hidden_plays:
            cards = _take_combination(pool, len(plays[i].cards))
            combo = classify(cards) if cards is not None else None
            if combo is None:  # cannot happen: the true spell's cards are in the pool
                for c in plays[i].cards:
                    pool.remove(c)
                continue
            plays[i] = TrickPlay(plays[i].seat, combo, None)
        trick.plays = plays
    at = 0
    for s in others:
        n = len(sim.hands[s])
        sim.hands[s] = pool[at : at + n]
        at += n
    for i in risk_slots:
        sim.risk[i] = pool[at]
        at += 1
    n = len(sim.advantage) - cursed
    sim.advantage = pool[at : at + n]
    at += n
    if cursed:
        sim.advantage.insert(rng.randrange(n + 1), CURSE)
    sim.set_aside = pool[at : at + len(sim.set_aside)]
    return sim
