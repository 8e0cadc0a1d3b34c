"""Wizards Cup card data: the card set is data (default_set.json), loaded into frozen records."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any


class Element(StrEnum):
    FIRE = "Fire"
    WATER = "Water"
    NATURE = "Nature"
    LIGHT = "Light"
    SHADOW = "Shadow"
    VOID = "Void"


class PowerKind(StrEnum):
    IMMEDIATE = "immediate"
    PERMANENT = "permanent"
    DORMANT = "dormant"


#: (winner, loser) pairs of the Element compatibility diagram. Every other pairing (same Element,
#: Void on either side, Shadow against Fire...) does not decide the duel.
ELEMENT_BEATS: frozenset[tuple[Element, Element]] = frozenset(
    {
        (Element.WATER, Element.FIRE),  # "Fire loses against Water"
        (Element.NATURE, Element.WATER),  # "Water loses against Nature"
        (Element.FIRE, Element.NATURE),  # "Nature loses against Fire"
        (Element.LIGHT, Element.SHADOW),  # "Shadow loses against Light"
        (Element.WATER, Element.LIGHT),  # "Light loses against any of these Elements: Water / Fire / Nature"
        (Element.FIRE, Element.LIGHT),
        (Element.NATURE, Element.LIGHT),
    }
)
#: The same pairs by Element name (``Card.element_name``), for the duel's hot path.
ELEMENT_NAME_BEATS: frozenset[tuple[str, str]] = frozenset((win.value, lose.value) for win, lose in ELEMENT_BEATS)


#: The Dormant effects that change a Wizard's Value from the top of a discard pile (duel._value).
VALUE_EFFECTS = frozenset({"own_value_bonus", "own_value_per_discard", "opponent_value_bonus"})


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    element: Element
    value: int
    power: PowerKind | None
    effect: str | None
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    text: str = ""
    # Derived once, for the engine's hot loops (plain values: no Enum lookups or hashing there).
    element_name: str = field(init=False, repr=False, compare=False)  # ``element.value``
    active: bool = field(init=False, repr=False, compare=False)  # an Immediate or Permanent power
    permanent: bool = field(init=False, repr=False, compare=False)  # a Permanent power
    value_effect: bool = field(init=False, repr=False, compare=False)  # changes Values from a discard pile

    def __post_init__(self) -> None:
        object.__setattr__(self, "element_name", self.element.value)
        object.__setattr__(self, "active", self.power in (PowerKind.IMMEDIATE, PowerKind.PERMANENT))
        object.__setattr__(self, "permanent", self.power is PowerKind.PERMANENT)
        object.__setattr__(self, "value_effect", self.effect in VALUE_EFFECTS)


@dataclass(frozen=True)
class CardSet:
    name: str
    cards: tuple[Card, ...]
    #: The cards by id (read-only; a plain attribute: the engine reads it in its hot loops).
    by_id: Mapping[str, Card] = field(init=False, repr=False, compare=False)
    _ids: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = tuple(c.id for c in self.cards)
        if len(set(ids)) != len(ids):
            raise ValueError(f"card set {self.name!r} has duplicate ids")
        object.__setattr__(self, "by_id", {c.id: c for c in self.cards})
        object.__setattr__(self, "_ids", ids)

    def __getitem__(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.by_id

    @property
    def ids(self) -> list[str]:
        return list(self._ids)

    @property
    def id_tuple(self) -> tuple[str, ...]:
        """The card ids in set order (no copy)."""
        return self._ids

    def find(self, text: str) -> Card | None:
        """A card by id or by name, case-insensitive (for commands such as /card)."""
        key = text.strip().lower()
        for c in self.cards:
            if key in (c.id, c.name.lower()):
                return c
        return None


def parse_card_set(data: dict[str, Any]) -> CardSet:
    cards = tuple(
        Card(
            id=c["id"],
            name=c["name"],
            element=Element(c["element"]),
            value=int(c["value"]),
            power=PowerKind(c["power"]) if c.get("power") else None,
            effect=c.get("effect"),
            params=dict(c.get("params") or {}),
            text=c.get("text", ""),
        )
        for c in data["cards"]
    )
    return CardSet(data["name"], cards)


@cache
def load_card_set(name: str = "default") -> CardSet:
    raw = resources.files("rules.wizards_cup").joinpath(f"{name}_set.json").read_text(encoding="utf-8")
    return parse_card_set(json.loads(raw))
