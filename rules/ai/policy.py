"""Per-game search knowledge: playout policies, cut-offs, evaluation functions and pruning.

The search (:mod:`rules.ai.ismcts`) is one algorithm for every game; what it knows of a game is
a :class:`Tuning`, registered by slug (``rules/ai/<game>.py`` defines ``TUNING``):

- ``policy``: ``(sim, seat, rng) -> action``, the playout policy, played with probability
  ``1 - epsilon`` (a uniformly random legal action otherwise: epsilon-greedy keeps the playouts
  varied). It only ever sees a *determinized* sample: everything in it is a sample of what the
  root seat knows, so reading any seat's cards there leaks nothing;
- ``horizon``: at most this many playout actions (chance included), then ``evaluate``;
- ``stop``: ``sim -> bool``, a natural place to end a playout early (Magic Duel: a hand is over)
  and ``evaluate``;
- ``evaluate``: ``sim -> rewards``, each seat's estimated reward (0..1) in a position that is not
  over (the game's own outcome is used when it is);
- ``prune``: ``(sim, seat, legal) -> legal'``, the actions the tree considers (obviously bad ones
  left out; never empty, and a function of ``seat``'s information only: at a node the same
  actions must be found in every determinization);
- ``prior``: ``(sim, seat) -> action or None``, what a sound player would play at the root,
  reading only what ``seat`` may know (it is given a determinized sample too): the search plays it
  unless another action earns :data:`rules.ai.ismcts.PRIOR_SHARE` of the iterations more visits (a
  margin, like progressive bias: where a few hundred noisy playouts cannot tell the casts apart,
  the sound one is played);
- ``model``: ``(sim, seat, rng) -> action or None``, an *opponent model*: in the tree, a seat other
  than the root seat plays the action it draws (as chance: no node, no edge) rather than choosing
  by UCT; None leaves that step to the tree. It may read only what is public of ``seat``'s play
  (the revealed bets, for Firewall) and the determinized sample, never the true hidden state. The
  tree then searches the root seat's replies to the opponent as it has been seen to play, where
  an opponent's node that few iterations reach makes it a near-random player;
- ``search``: a game's own search for the levels named in ``search_levels``, replacing the tree
  there (same arguments and result as :func:`rules.ai.ismcts.search`; Arena's normal and hard
  levels search over rule-based scripts: :mod:`rules.ai.arena_portfolio`);
- ``uct_c``: the UCT exploration constant;
- ``scale``: the share of a level's iterations (:data:`rules.ai.ismcts.LEVELS`) the game searches,
  so that every game keeps within the levels' time limits (docs/ai.md); ``level_scale``: per level
  name, a share that replaces ``scale`` for that level. Each game's budget lives in its own module,
  so tuning one game changes no other game's play (nor the code digest of its benchmark logs).

A game without a registered tuning plays uniformly random playouts to the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import ActionModel
from ..core import State

Policy = Callable[[State, int, random.Random], ActionModel]
Evaluator = Callable[[State], list[float]]
Pruner = Callable[[State, int, Sequence[ActionModel]], Sequence[ActionModel]]
Prior = Callable[[State, int], ActionModel | None]
Model = Callable[[State, int, random.Random], ActionModel | None]
#: (state, seat, budget, seed, time_limit, root_actions) -> a SearchResult (rules.ai.ismcts)
Searcher = Callable[..., Any]


@dataclass(frozen=True)
class Tuning:
    """What the search knows of one game (see the module docstring)."""

    policy: Policy | None = None
    epsilon: float = 0.1
    horizon: int | None = None
    stop: Callable[[State], bool] | None = None
    evaluate: Evaluator | None = None
    prune: Pruner | None = None
    uct_c: float = 0.7
    prior: Prior | None = None
    scale: float = 1.0
    level_scale: dict[str, float] = field(default_factory=dict, hash=False)
    model: Model | None = None
    #: a game's own search for the levels it names, replacing the tree (``search(state, seat,
    #: budget, seed, time_limit, root_actions) -> SearchResult``: Arena's script portfolio)
    search: Searcher | None = None
    search_levels: frozenset[str] = frozenset()


DEFAULT = Tuning()


def tuning(slug: str) -> Tuning:
    """The tuning of the game ``slug``: its AI kit's (:data:`DEFAULT` for a game without one)."""
    from .kit import kit  # the kit module imports this one

    return kit(slug).tuning


def greedy(actions: Sequence[ActionModel], score: Callable[[ActionModel], float], rng: random.Random) -> ActionModel:
    """The best-scoring action of ``actions`` (ties broken by ``rng``)."""
    best: list[ActionModel] = []
    top = float("-inf")
    for action in actions:
        s = score(action)
        if s > top:
            top, best = s, [action]
        elif s == top:
            best.append(action)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
