"""The review of a practice match: the player's three moves whose chance dropped most.

After a practice match (one with a computer player) a person who played it may ask for a review
(the end card's Review button): :func:`rules.ai.review` replays the match and, at each of the
player's decisions, the AI judges the position as that player knew it (its determinizer: never
the computers' hidden cards) at the review level: its chance with the AI's best move (before) and
with the move played (after). The moments are the largest drops, with the move the AI would have
made.

Where it runs: in the match service's process pool (the computers' one), never on the event loop,
as a sequence of small jobs (the decisions to review, then a few screenings per job, then one
examination per job), so a review never holds up a computer's move for long: their decisions
queue between the jobs. A review is a function of the match's log and the seat (seeded searches),
so it is worked out once per (match, seat) and kept (:data:`MAX_KEPT_REVIEWS`, the newest); a
second request while it is being worked out waits for the same work (no double computation).

Refused, changing nothing: a match that is not to be found from where it is asked (another
server's: the words a missing id gets), a person without a seat in it, a match without a computer
(:class:`NoReview`), a match not over yet (:class:`WrongStatus`).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from db import MatchRecord
from rules.ai.review import CANDIDATES, Moment, Screened, decisions, examine, moments, pick, screen
from rules.core import fill_names

from .computer import Computer
from .context import Context, log
from .ending import OVER, Endings
from .errors import MatchNotFound, NoReview, NotAPlayer, WrongStatus
from .isolation import not_here, visible_here

#: Reviews kept in memory (the newest): asked again, the same review without new work.
MAX_KEPT_REVIEWS = 2000
#: Decisions screened per job in the process pool (a job stays within a few seconds).
SCREEN_PER_JOB = 8
#: Seconds one job may wait and run in the pool before the review gives up.
JOB_LIMIT = 120.0


#: One moment of a review: the rules' :class:`rules.ai.review.Moment`, its accounts with the players'
#: names filled (empty when the account would depend on what the player could not see: the UI
#: then describes the action).
ReviewMoment = Moment


@dataclass(frozen=True)
class MatchReview:
    """A player's review of a practice match: their seat, the number of players (a chance is the
    chance of winning with two; with more, the share of the others finished ahead of), the
    decisions reviewed and the moments (at most three, in the order they were played; none when
    the computer found no move that cost much)."""

    match_id: int
    game: str
    seat: int
    seats: int
    decisions: int
    moments: tuple[ReviewMoment, ...]


def _moment(found: Moment, names: Sequence[str]) -> ReviewMoment:
    return replace(
        found,
        played_text=fill_names(found.played_text, names) if found.played_text else "",
        best_text=fill_names(found.best_text, names) if found.best_text else "",
    )


class Reviews:
    """Works out and keeps the reviews of practice matches (see the module docstring)."""

    def __init__(self, ctx: Context, computer: Computer, endings: Endings) -> None:
        self.ctx = ctx
        self.computer = computer
        self.endings = endings
        self._kept: OrderedDict[tuple[int, int], MatchReview] = OrderedDict()
        self._working: dict[tuple[int, int], asyncio.Task[MatchReview]] = {}
        self.worked = 0  # reviews worked out (for tests and the log)

    async def review(self, match_id: int, user_id: int, guild_id: int | None) -> MatchReview:
        """The review of ``user_id``'s play in the practice match ``match_id``, asked from the
        server ``guild_id`` (None: the user's DM). Refusals: see the module docstring."""
        try:
            record = await self.ctx.store.record(match_id)
        except MatchNotFound:
            raise not_here(match_id, guild_id) from None
        if not visible_here(record, guild_id, user_id):
            raise not_here(match_id, guild_id)
        seat = record.seat_of(user_id)
        if seat is None or record.is_ai(seat):
            raise NotAPlayer(f"Only the players of match #{match_id} can review it.")
        if not record.practice:
            raise NoReview("Reviews are for practice matches (against the computer) only.")
        if record.status not in OVER:
            raise WrongStatus(f"Match #{match_id} is not over yet: its review comes once it ends.")
        key = (match_id, seat)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        task = self._working.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._work(record, seat), name=f"review-{key}")
            self._working[key] = task
            task.add_done_callback(lambda done: self._finished(key, done))
        return await asyncio.shield(task)

    def _finished(self, key: tuple[int, int], task: asyncio.Task[MatchReview]) -> None:
        if self._working.get(key) is task:
            del self._working[key]
        if task.cancelled() or task.exception() is not None:
            return  # not kept: asked again, it is worked out again
        self._kept[key] = task.result()
        while len(self._kept) > MAX_KEPT_REVIEWS:
            self._kept.popitem(last=False)

    async def _work(self, record: MatchRecord, seat: int) -> MatchReview:
        data = await self.endings.log_of(record.id)
        try:
            steps: list[int] = await self._job(decisions, data, seat)
            screened: list[Screened] = []
            for start in range(0, len(steps), SCREEN_PER_JOB):
                screened += await self._job(screen, data, seat, steps[start : start + SCREEN_PER_JOB])
            examined: list[Moment] = []
            for step in pick(screened, CANDIDATES):
                examined += await self._job(examine, data, seat, [step])
        except TimeoutError as exc:
            raise NoReview("The review took too long to work out; please try again in a while.") from exc
        except Exception as exc:
            log.exception("The review of match %s seat %s failed", record.id, seat)
            raise NoReview("The review could not be worked out; please try again in a while.") from exc
        self.worked += 1
        names = list(record.names)
        found = tuple(_moment(m, names) for m in moments(examined))
        return MatchReview(record.id, record.game, seat, len(record.seats), len(steps), found)

    async def _job(self, fn: Any, *args: Any) -> Any:
        return await self.computer._run(JOB_LIMIT, fn, *args)

    async def close(self) -> None:
        for task in list(self._working.values()):
            task.cancel()
        await asyncio.gather(*list(self._working.values()), return_exceptions=True)
        self._working.clear()


__all__ = ["MatchReview", "ReviewMoment", "Reviews"]
