"""What an action costs the model that takes it, as the engine applies it (one source for the engine
and for whoever asks before acting, such as a confirm screen's warning).

- A model that starts its Move orthogonally next to an enemy model takes ``DISENGAGE_DAMAGE``
  (rules text: "starting next to an enemy costs 2 damage"; a Move caused by a Spell is free).
- The Blood Mage's sacrifice deals ``BLOOD_PACT_DAMAGE`` to its own Wizard (the card: "May take D6
  damage").
"""

from __future__ import annotations

from .data import Damage

DISENGAGE_DAMAGE = 2
BLOOD_PACT_DAMAGE = Damage(1, 6, 0)


def damage_range(d: Damage) -> tuple[int, int]:
    """The least and the most ``d`` can deal."""
    return (d.count, d.count * d.sides) if d.count else (d.flat, d.flat)


__all__ = ["BLOOD_PACT_DAMAGE", "DISENGAGE_DAMAGE", "damage_range"]
