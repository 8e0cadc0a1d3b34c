"""What a move or the Blood Mage's sacrifice would cost, for the confirm screens' warnings.

The amounts come from the rules (``rules.arena.costs``, which the engine applies); this module finds
who pays them in the view:

- leaving an enemy's side: a model that starts its Move orthogonally next to an enemy model takes
  ``DISENGAGE_DAMAGE`` (a Dominated Minion's move and the Green Witch's step are free);
- the Blood Mage's sacrifice: ``BLOOD_PACT_DAMAGE`` to one's own Wizard.

Both are checked against the engine itself by tests/cogs/test_arena_ui.py (an engine move next to an enemy
deals exactly this damage; a sacrifice of the highest roll knocks out a Wizard with that much Health).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.arena import manhattan
from rules.arena.costs import BLOOD_PACT_DAMAGE, DISENGAGE_DAMAGE, damage_range
from rules.arena.data import Damage
from rules.arena.view import ArenaView, ModelView

from .text import cap, model_name, models, sq


@dataclass(frozen=True)
class Cost:
    """Damage a choice would deal to one's own model: how much (at most ``high``), why, the model
    and its Health, and whether it can knock the model out (a Wizard: the match is lost)."""

    low: int
    high: int
    model: ModelView
    why: str
    enemies: tuple[ModelView, ...] = ()

    @property
    def can_knock_out(self) -> bool:
        return self.high >= self.model["health"]

    @property
    def surely_knocks_out(self) -> bool:
        return self.low >= self.model["health"]


def disengage_cost(view: ArenaView, model_id: str) -> Cost | None:
    """The damage the activating model takes if it Moves now (None: no enemy next to it)."""
    m = models(view).get(model_id)
    if m is None:
        return None
    here = (m["pos"][0], m["pos"][1])
    enemies = tuple(
        o for o in view["models"] if o["owner"] != m["owner"] and manhattan((o["pos"][0], o["pos"][1]), here) == 1
    )
    if not enemies:
        return None
    return Cost(DISENGAGE_DAMAGE, DISENGAGE_DAMAGE, m, "it starts its Move next to an enemy", enemies)


def blood_pact_damage() -> Damage:
    """The sacrifice's damage ("D6")."""
    return BLOOD_PACT_DAMAGE


def blood_pact_cost(view: ArenaView, seat: int) -> Cost | None:
    """What the Blood Mage's sacrifice can cost the seat's Wizard (None: no Wizard on the board)."""
    wiz = next((m for m in view["models"] if m["owner"] == seat and m["kind"] == "wizard"), None)
    if wiz is None:
        return None
    d = blood_pact_damage()
    low, high = damage_range(d)
    return Cost(low, high, wiz, f"the sacrifice deals {d} damage")


def cost_warning(seen: ArenaView, cost: Cost, seat: int, names: Sequence[str]) -> str:
    """The warning of a cost: "⚠️ ... takes 2 damage: 3 → 1 Health." and what a knock-out means."""
    m = cost.model
    who = model_name(seen, m["id"], names, own=seat)
    amount = str(cost.low) if cost.low == cost.high else f"{cost.low} to {cost.high}"
    hp = m["health"]
    after = max(0, hp - cost.high) if cost.low == cost.high else f"{max(0, hp - cost.high)}–{max(0, hp - cost.low)}"
    text = f"⚠️ **{cap(who)} takes {amount} damage** ({cost.why}): {hp} → {after} Health."
    if cost.enemies:
        text += " Next to it: " + ", ".join(
            f"{model_name(seen, o['id'], names)} ({sq(o['pos'])})" for o in cost.enemies
        )
        text += "."
    if cost.can_knock_out:
        sure = "This knocks" if cost.surely_knocks_out else "This can knock"
        if m["kind"] == "wizard":
            text += f"\n☠️ **{sure} out your Wizard: you would lose the match.**"
        else:
            text += f"\n💀 **{sure} out {who}: it would be removed from the Arena.**"
    return text


__all__ = ["DISENGAGE_DAMAGE", "Cost", "blood_pact_cost", "blood_pact_damage", "cost_warning", "disengage_cost"]
