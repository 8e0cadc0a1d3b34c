"""The Discord UI shows the same as before the rules-core rework: for the first recorded games of
every game (tests/golden), each awaited seat's prompt, what every component of its first screen
leads to, and the channel post after every move, compared by digest."""

from __future__ import annotations

import pytest

from tests.golden.corpus import changed, load
from tests.golden.record import SLUGS, ui_steps


@pytest.mark.slow
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
