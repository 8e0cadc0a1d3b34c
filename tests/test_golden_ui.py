"""The Discord UI shows the same as before the rules-core rework: for the first recorded games of
every game (tests/golden), each awaited seat's prompt, what every component of its first screen
leads to, and the channel post after every move, compared by digest."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import Match
from rules.registry import game_slugs
from tests.golden.corpus import changed, load, replay_steps
from tests.golden.record import post_json, ui_step


@pytest.mark.parametrize("slug", game_slugs())
def test_prompts_and_posts_match_the_recording(slug: str) -> None:
    skip = changed(slug)
    checked = 0
    for record in load(slug):
        if "ui" not in record or record["seed"] in skip:
            continue
        steps = [0] * len(record["log"]["seats"])
        seen: list[list[str]] = []

        def after(match: Match, events: list[Any]) -> None:
            if seen:
                last = match.log[-1]
                mover = next(e.seat for e in reversed(match.log) if e.seat != "chance") if last else None
                assert mover is not None
                steps[mover] += 1
            seen.append([ui_step(slug, match, steps), post_json(slug, match, events) if seen else ""])

        replay_steps(record, after)
        for i, (got, want) in enumerate(zip(seen, record["ui"], strict=True)):
            assert got == want, f"{slug} seed {record['seed']}: UI at step {i} differs"
        checked += 1
    assert checked >= 5
