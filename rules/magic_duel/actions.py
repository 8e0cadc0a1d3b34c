"""Magic Duel actions. Each is a frozen value object with a JSON form (docs/actions/magic-duel.md)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, islice
from math import comb
from typing import Annotated, Literal, overload

from pydantic import Field, TypeAdapter

from ..core import ActionModel
from .cards import combination_groups


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


class PlayChoices(Sequence[PlayCards]):
    """Every legal spell of a hand, in a fixed order, built on demand (a hand of 7 has up to a few
    hundred): for each combination in the hand (``combinations_in`` of the sorted hand), the
    face-down cast, then the face-up casts with each other card of the hand as the Risk card."""

    __slots__ = ("_blocks", "_hand", "_starts")

    def __init__(self, hand: Sequence[str]):
        self._hand = tuple(hand)
        # per block of combinations (group, size): where its choices start; each combination has
        # one face-down cast and one face-up cast per other card of the hand
        self._blocks = combination_groups(self._hand)
        per = len(self._hand) + 1
        starts = [0]
        for group, size in self._blocks:
            starts.append(starts[-1] + comb(len(group), size) * (per - size))
        self._starts = starts

    def __len__(self) -> int:
        return self._starts[-1]

    @overload
    def __getitem__(self, index: int) -> PlayCards: ...

    @overload
    def __getitem__(self, index: slice) -> list[PlayCards]: ...

    def __getitem__(self, index: int | slice) -> PlayCards | list[PlayCards]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = self._starts[-1]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("play choice index out of range")
        b = bisect_right(self._starts, index) - 1
        group, size = self._blocks[b]
        per = len(self._hand) + 1 - size
        nth, k = divmod(index - self._starts[b], per)
        combo = next(islice(combinations(group, size), nth, None))
        if k == 0:
            return play_action(combo, None)
        return play_action(combo, [c for c in self._hand if c not in combo][k - 1])


@lru_cache(maxsize=1 << 16)
def play_action(cards: tuple[str, ...], risk: str | None) -> PlayCards:
    """The action casting ``cards`` (with ``risk`` put on the Deck of Risk first), for values the
    engine took from a seat's hand (valid by construction, so not validated again). Actions are
    immutable, so one object serves every game."""
    return PlayCards.model_construct(type="play", cards=cards, risk=risk)
