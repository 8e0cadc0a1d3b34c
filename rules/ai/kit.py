"""A game's AI kit: what the computer players know of it, in one object (``KIT`` in
``rules/ai/<game>.py``, named by the game's registry entry).

- ``tuning``: the search's knowledge of the game (:class:`rules.ai.policy.Tuning`: rollout policy,
  evaluation, pruning, priors, levels), including the opponent model (``tuning.model``);
- ``determinize``: how a seat samples what it cannot see (None: nothing is hidden).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..registry import find, resolve
from .determinize import Determinizer
from .policy import DEFAULT, Model, Tuning


@dataclass(frozen=True)
class AIKit:
    tuning: Tuning = DEFAULT
    determinize: Determinizer | None = None

    @property
    def model(self) -> Model | None:
        """The opponent model: what the search expects a rival to play (``tuning.model``)."""
        return self.tuning.model


NO_KIT = AIKit()
_loaded: dict[str, AIKit] = {}


def kit(slug: str) -> AIKit:
    """The AI kit of the registered game ``slug`` (an empty kit for a game not registered)."""
    registered = find(slug)
    if registered is None:
        return NO_KIT
    path = registered.ai
    found = _loaded.get(path)
    if found is None:
        value = resolve(path)
        if not isinstance(value, AIKit):
            raise TypeError(f"{path} is not an AIKit")
        found = _loaded[path] = value
    return found


__all__ = ["NO_KIT", "AIKit", "kit"]
