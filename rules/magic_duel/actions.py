"""Magic Duel actions. Each is a frozen value object with a JSON form (docs/actions/magic-duel.md)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Annotated, Literal, overload

from pydantic import Field, TypeAdapter

from ..core import ActionModel
from ..memo import bounded
from .cards import SORT_POS, VALUE, combination_groups, sorted_cards


class Deal(ActionModel):
    """Chance, at the start of every hand: the shuffled cards as dealt.

    ``hands[seat]`` is the 7 cards dealt to each seat still playing (``[]`` for a removed seat),
    ``risk`` the Deck of Risk (top first, one card per player), ``advantage`` the Deck of
    Advantage (top first) with the Cursed Spell ``"CURSE"`` shuffled in.
    """

    type: Literal["deal"] = "deal"
    hands: tuple[tuple[str, ...], ...]
    risk: tuple[str, ...]
    advantage: tuple[str, ...]


class PlayCards(ActionModel):
    """A seat's spell for the trick: the cards of one combination. ``risk`` names a card put on the
    Deck of Risk first (face-down); the spell is then cast face-up."""

    type: Literal["play"] = "play"
    cards: tuple[str, ...] = Field(min_length=1, max_length=4)
    risk: str | None = None


class Draw(ActionModel):
    """Refilling the hand to 7: ``risk`` cards from the Deck of Risk, the rest from the Deck of
    Advantage (Risk cards are drawn first). ``advantage`` may be given; it must then be the rest."""

    type: Literal["draw"] = "draw"
    risk: int = Field(default=0, ge=0, le=8)
    advantage: int | None = Field(default=None, ge=0, le=8)


MagicDuelAction = Annotated[Deal | PlayCards | Draw, Field(discriminator="type")]
action_adapter: TypeAdapter[MagicDuelAction] = TypeAdapter(MagicDuelAction)


#: Every draw a seat can be offered (``risk`` 0 to 8), built once: actions are immutable values.
DRAWS: tuple[Draw, ...] = tuple(Draw(risk=k) for k in range(9))


_sort_pos = SORT_POS.__getitem__
_value = VALUE.__getitem__

#: A spell of a hand by positions in the sorted hand: the cards' positions, and the Risk card's
#: position (None: cast face-down).
Choice = tuple[tuple[int, ...], int | None]


class PlayChoices(Sequence[PlayCards]):
    """Every legal spell of a hand, in a fixed order, built on demand (a hand of 7 has up to a few
    hundred): for each combination in the sorted hand (``combinations_in``), the face-down cast,
    then the face-up casts with each other card of the hand as the Risk card.

    The order depends only on the hand's shape (how many cards of each value, in order), so each
    shape's list of choices (as positions in the sorted hand) is built once and shared."""

    __slots__ = ("_hand", "_table")

    def __init__(self, hand: Sequence[str]):
        try:
            ordered = sorted(hand, key=_sort_pos)
            table = _table_of_values(map(_value, ordered))
        except KeyError:  # an id no deck holds
            ordered = sorted_cards(hand)
            table = _generic_table(tuple(ordered))
        self._hand = ordered
        self._table = table

    def __len__(self) -> int:
        return len(self._table)

    @overload
    def __getitem__(self, index: int) -> PlayCards: ...

    @overload
    def __getitem__(self, index: slice) -> list[PlayCards]: ...

    def __getitem__(self, index: int | slice) -> PlayCards | list[PlayCards]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        try:
            cards, risk = self._table[index]
        except IndexError:
            raise IndexError("play choice index out of range") from None
        hand = self._hand
        return play_action(tuple(map(hand.__getitem__, cards)), None if risk is None else hand[risk])

    def __iter__(self) -> Iterator[PlayCards]:
        hand = self._hand
        for cards, risk in self._table:
            yield play_action(tuple(map(hand.__getitem__, cards)), None if risk is None else hand[risk])


def sample_play(hand: Sequence[str], rng: random.Random) -> PlayCards | None:
    """``PlayChoices(hand)[randbelow(rng, len(...))]`` (None if the hand is empty), with the same
    draw from ``rng``, without building the sequence."""
    try:
        ordered = sorted(hand, key=_sort_pos)
        table = _table_of_values(map(_value, ordered))
    except KeyError:
        ordered = sorted_cards(hand)
        table = _generic_table(tuple(ordered))
    n = len(table)
    if not n:
        return None
    if type(rng) is random.Random:  # randbelow(rng, n), inlined
        getrandbits = rng.getrandbits
        k = n.bit_length()
        index = getrandbits(k)
        while index >= n:
            index = getrandbits(k)
    else:
        index = rng.randrange(n)
    cards, risk = table[index]
    return play_action(tuple(map(ordered.__getitem__, cards)), None if risk is None else ordered[risk])


def _choices(n: int, blocks: Sequence[tuple[tuple[int, ...], int]]) -> tuple[Choice, ...]:
    """The choices of a hand of ``n`` cards whose combinations are every ``size``-subset of each
    block's positions: each combination face-down, then face-up with each other card as Risk."""
    out: list[Choice] = []
    for group, size in blocks:
        for combo in combinations(group, size):
            out.append((combo, None))
            out += [(combo, p) for p in range(n) if p not in combo]
    return tuple(out)


@bounded(1024)
def _table_of_shape(runs: tuple[int, ...], jokers: int) -> tuple[Choice, ...]:
    """The choices of a sorted hand: runs of equal values (lowest first), then the Jokers."""
    blocks: list[tuple[tuple[int, ...], int]] = []
    start = 0
    for length in runs:
        group = tuple(range(start, start + length))
        blocks += [(group, size) for size in range(1, min(4, length) + 1)]
        start += length
    if jokers:
        group = tuple(range(start, start + jokers))
        blocks[:0] = [(group, 1)] + ([(group, 2)] if jokers >= 2 else [])
    return _choices(start + jokers, blocks)


def _table_of_values(values: Iterable[int]) -> tuple[Choice, ...]:
    """The choices of a sorted hand with these card values (Jokers, 0, last)."""
    runs: list[int] = []
    prev = -1
    run = jokers = 0
    for v in values:
        if v == prev:
            run += 1
        elif v:
            if run:
                runs.append(run)
            run = 1
            prev = v
        else:  # the Jokers come last
            jokers += 1
    if run:
        runs.append(run)
    return _table_of_shape(tuple(runs), jokers)


def _generic_table(hand: tuple[str, ...]) -> tuple[Choice, ...]:
    """The choices of any hand (also with ids no deck holds), as ``combination_groups`` gives them."""
    where = {c: i for i, c in reversed(list(enumerate(hand)))}
    out: list[Choice] = []
    for group, size in combination_groups(hand):
        for combo in combinations(group, size):
            pos = tuple(where[c] for c in combo)
            out.append((pos, None))
            out += [(pos, i) for i, c in enumerate(hand) if c not in combo]
    return tuple(out)


@bounded(4096)
def play_action(cards: tuple[str, ...], risk: str | None) -> PlayCards:
    """The action casting ``cards`` (with ``risk`` put on the Deck of Risk first), for values the
    engine took from a seat's hand (valid by construction, so not validated again). Actions are
    immutable, so one object serves every game."""
    return PlayCards.known(cards=cards, risk=risk)


def deal_action(hands: tuple[tuple[str, ...], ...], risk: tuple[str, ...], advantage: tuple[str, ...]) -> Deal:
    """A deal the engine built from the deck itself (valid by construction, so not validated again)."""
    return Deal.known(hands=hands, risk=risk, advantage=advantage)
