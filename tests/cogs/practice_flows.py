"""Practice matches against the computer through the fake Discord (tests/cogs/test_discord_practice.py,
tests/cogs/test_discord_review.py; the ``practice_bot`` fixture is in tests/conftest.py): the /practice
arguments, what the bot answered, and :class:`Learner`, the people at the table clicking their
prompts while the computers move by themselves."""

from __future__ import annotations

from typing import Any

from tests.discord_flows import SEED
from tests.discord_harness.traffic import Monkey


def said(result: Any) -> str:
    """Everything the bot answered an interaction with (a deferred reply edits its first message)."""
    return "\n".join(m.content or "" for m in result.messages)


OPTIONS = {"arena": "grid_size=8 terrain_count=4 game_turn_limit=4", "magic-duel": "points_to_win=1"}


class Learner(Monkey):
    """The people at a practice table click their prompts (as in bench traffic); the computers
    move by themselves meanwhile."""

    def __init__(self, h: Any, bot: Any, match_id: int, people: dict[int, Any]) -> None:
        super().__init__(h, bot.service, match_id, list(people.values()), think=1.0, click_time=0.0, seed=SEED)
        self.people = people
        self.bot = bot

    async def play(self) -> Any:
        with self.monitor.installed():
            for _ in range(2000):
                await self.bot.service.computers_settle()
                await self.harness.settle()
                if not await self.active():
                    return self.tally
                moved = False
                for seat, user in self.people.items():
                    sp = await self.service.prompt(self.match_id, seat)
                    if sp.awaited:
                        await self.move(seat, user, sp.seat_step)
                        moved = True
                        break
                if not moved and not self.bot.service.computer.thinking():
                    awaiting = (await self.bot.service.prompt(self.match_id, 0)).view
                    raise AssertionError(f"nobody moves in match #{self.match_id}: {awaiting}")
        raise AssertionError("the practice match did not end")


def practice_args(slug: str, **more: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"game": slug, "level": "easy", **more}
    if slug in OPTIONS:
        args["options"] = OPTIONS[slug]
    return args
