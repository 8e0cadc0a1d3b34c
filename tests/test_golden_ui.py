"""The Discord UI shows the same as before the rules-core rework: for the first recorded games of
every game (tests/golden), each awaited seat's prompt, what every component of its first screen
leads to, and the channel post after every move, compared by digest."""

from __future__ import annotations

from typing import Any

import pytest

from rules.match import Match
from tests.golden.corpus import changed, load, replay_steps
from tests.golden.record import SLUGS, post_json, ui_step


def ui_steps(slug: str, record: dict[str, Any]) -> list[list[str]]:
    """The UI digests of a recorded game, replayed move by move."""
    steps = [0] * len(record["log"]["seats"])
    seen: list[list[str]] = []

    def after(match: Match, events: list[Any]) -> None:
        if seen:
            mover = next(e.seat for e in reversed(match.log) if e.seat != "chance")
            assert mover != "chance"
            steps[mover] += 1
        seen.append([ui_step(slug, match, steps), post_json(slug, match, events) if seen else ""])

    replay_steps(record, after)
    return seen


@pytest.mark.parametrize("slug", SLUGS)
def test_prompts_and_posts_match_the_recording(slug: str) -> None:
    skip = changed(slug)
    checked = 0
    for record in load(slug):
        if "ui" not in record or record["seed"] in skip:
            continue
        seen = ui_steps(slug, record)
        for i, (got, want) in enumerate(zip(seen, record["ui"], strict=True)):
            assert got == want, f"{slug} seed {record['seed']}: UI at step {i} differs"
        checked += 1
    assert checked >= 5
