"""What the games' script searches share (Arena's :mod:`rules.ai.arena_portfolio`, Wizards Cup's
:mod:`rules.ai.wizards_cup_portfolio`, Firewall's :mod:`rules.ai.firewall_portfolio`): every
candidate answer played out on the same samples, the best mean played."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from ..actions import ActionModel

if TYPE_CHECKING:
    from .ismcts import SearchResult

T = TypeVar("T")


def compare(
    candidates: Mapping[ActionModel, T],
    seeds: Sequence[int],
    score: Callable[[ActionModel, T, int, int], float],
    time_limit: float | None = None,
) -> SearchResult:
    """``score(answer, its script, k, seeds[k])`` for every candidate on every sample ``k`` (all
    candidates on sample ``k`` before sample ``k + 1``; ``time_limit`` seconds stop it after a whole
    sample): the best mean (the first of equal means, in the candidates' order) as a search result,
    each candidate with its (samples, mean)."""
    from .ismcts import SearchResult

    started = time.perf_counter()
    totals = dict.fromkeys(candidates, 0.0)
    done = 0
    for k, seed in enumerate(seeds):
        for action, script in candidates.items():
            totals[action] += score(action, script, k, seed)
        done += 1
        if time_limit is not None and time.perf_counter() - started > time_limit:
            break
    means = {a: t / done for a, t in totals.items()}
    best = max(candidates, key=lambda a: means[a])
    return SearchResult(best, means[best], done * len(candidates), {a: (done, means[a]) for a in candidates})
