"""Arena data: the eleven Disciplines, the spell table, the crowd table and the generic spells.

The numbers live in ``arena_data.json`` (from the design note's unit tables, summarised in docs/rulings/arena.md:
docs/rulings/arena.md#model-stats, the eleven Disciplines from docs/rulings/arena.md#artful-trickster on,
docs/rulings/arena.md#generic-spells, #spell-selection-dice and #crowd-table); this module loads them
into frozen records. Damage is written as dice: ``"2"`` (fixed), ``"D6"``, ``"2D6"``, ``"2D3"``, ``"D3"``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

#: Who an Action may target. ``friendly`` includes the acting model itself; ``any`` too.
TARGET_KINDS = ("enemy", "enemy_minion", "enemy_wizard", "friendly", "friendly_minion", "any", "square", "none")


@dataclass(frozen=True)
class Damage:
    """``count`` dice of ``sides`` (0 dice: a fixed amount ``flat``)."""

    count: int
    sides: int
    flat: int

    @classmethod
    def parse(cls, text: str | None) -> Damage | None:
        if text is None:
            return None
        if "D" not in text:
            return cls(0, 0, int(text))
        n, sides = text.split("D")
        return cls(int(n or 1), int(sides), 0)

    def __str__(self) -> str:
        if not self.count:
            return str(self.flat)
        return f"{'' if self.count == 1 else self.count}D{self.sides}"


@dataclass(frozen=True)
class ActionDef:
    """A spell or a Minion action."""

    id: str
    name: str
    range: int | None
    damage: Damage | None
    target: str
    effect: str | None
    text: str
    is_spell: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "range": self.range,
            "damage": str(self.damage) if self.damage else None,
            "target": self.target,
            "text": self.text,
        }


@dataclass(frozen=True)
class MinionDef:
    name: str
    move: int
    skill: int
    defence: int
    health: int
    action: ActionDef


@dataclass(frozen=True)
class Discipline:
    id: str
    name: str
    ability: str
    spell: ActionDef
    minion: MinionDef

    def to_json(self) -> dict[str, Any]:
        m = self.minion
        return {
            "id": self.id,
            "name": self.name,
            "ability": self.ability,
            "spell": self.spell.to_json(),
            "minion": {
                "name": m.name,
                "move": m.move,
                "skill": m.skill,
                "defence": m.defence,
                "health": m.health,
                "action": m.action.to_json(),
            },
        }


@dataclass(frozen=True)
class CrowdResult:
    value: int
    id: str
    name: str
    text: str


@dataclass(frozen=True)
class ArenaData:
    wizard: dict[str, int]
    max_minions: int
    generic: dict[str, ActionDef]
    spell_table: dict[int, str]  # die -> spell id ("discipline" = the Discipline Spell)
    crowd: dict[int, CrowdResult]
    disciplines: dict[str, Discipline]
    fates: dict[str, str]
    #: Every spell by id (the generic ones first, then the Disciplines' in order: the first wins).
    spells: dict[str, ActionDef] = field(init=False, repr=False, compare=False)
    #: Every Minion action by id (the first Discipline's wins).
    minion_actions: dict[str, ActionDef] = field(init=False, repr=False, compare=False)
    #: Every spell and Minion action by id (a spell wins).
    actions: dict[str, ActionDef] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        spells = dict(self.generic)
        minion_actions: dict[str, ActionDef] = {}
        for d in self.disciplines.values():
            spells.setdefault(d.spell.id, d.spell)
            minion_actions.setdefault(d.minion.action.id, d.minion.action)
        object.__setattr__(self, "spells", spells)
        object.__setattr__(self, "minion_actions", minion_actions)
        object.__setattr__(self, "actions", {**minion_actions, **spells})

    def spell(self, spell_id: str) -> ActionDef:
        return self.spells[spell_id]

    def minion_action(self, action_id: str) -> ActionDef:
        return self.minion_actions[action_id]

    def action(self, action_id: str) -> ActionDef:
        """A spell or a Minion action, by id."""
        return self.actions[action_id]


def _action(raw: dict[str, Any], action_id: str, is_spell: bool) -> ActionDef:
    return ActionDef(
        id=action_id,
        name=raw["name"],
        range=raw.get("range"),
        damage=Damage.parse(raw.get("damage")),
        target=raw["target"],
        effect=raw.get("effect"),
        text=raw.get("text", ""),
        is_spell=is_spell,
    )


@cache
def load_data() -> ArenaData:
    raw = json.loads(resources.files(__package__).joinpath("arena_data.json").read_text(encoding="utf-8"))
    generic = {sid: _action(s, sid, True) for sid, s in raw["generic_spells"].items()}
    disciplines: dict[str, Discipline] = {}
    for did, d in raw["disciplines"].items():
        m = d["minion"]
        disciplines[did] = Discipline(
            id=did,
            name=d["name"],
            ability=d["ability"],
            spell=_action(d["spell"], d["spell"]["id"], True),
            minion=MinionDef(
                name=m["name"],
                move=m["move"],
                skill=m["skill"],
                defence=m["defence"],
                health=m["health"],
                action=_action(m["action"], m["action"]["id"], False),
            ),
        )
    for t in [
        *generic.values(),
        *(d.spell for d in disciplines.values()),
        *(d.minion.action for d in disciplines.values()),
    ]:
        assert t.target in TARGET_KINDS, t
    return ArenaData(
        wizard=dict(raw["wizard"]),
        max_minions=raw["max_minions"],
        generic=generic,
        spell_table={int(k): v for k, v in raw["spell_table"].items()},
        crowd={int(k): CrowdResult(int(k), v["id"], v["name"], v["text"]) for k, v in raw["crowd_table"].items()},
        disciplines=disciplines,
        fates=dict(raw["fates"]),
    )


DISCIPLINE_IDS: tuple[str, ...] = tuple(load_data().disciplines)
