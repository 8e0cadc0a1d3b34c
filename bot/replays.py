"""Replays: a match rebuilt from its stored log, step by step, for spectators or for a seat.

Discord-free, like :mod:`bot.stats`. A **step** is one resolution of the game: the events from the
end of the previous step up to and including the action whose public events contain one of the
``closing`` kinds the caller names (the Discord layer passes each game's story kinds: a Wizards Cup
duel, a Firewall turn, a Magic Duel trick, an Arena player-turn, the end of the game). A step keeps
the spectator view after it, from which the board picture is drawn.

Who sees what:

- a **live** match is shown as a spectator sees it (public events, the spectator view), or as
  ``seat`` sees it (its own secrets too) when the caller asks for a seat;
- a match that is **over** (finished, or abandoned with a log) is shown with every secret
  revealed, each named with its owner (:func:`rules.story.told`);
- notices that only say a seat submitted ("ann is ready") are left out (each game's
  ``notice_kinds``, :func:`rules.story.notice_kinds`).

Which matches: in a server, that server's; in a DM, those the asking user played (servers are
kept apart, :mod:`bot.matches.isolation`); live, finished, or abandoned ones (matches that never
started have no log). The service never writes; a replay is rebuilt off the event loop and kept
in a small cache keyed by the number of stored actions, so a live match is rebuilt only when it has moved.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from db import Database, MatchRecord, MatchStatus
from rules.core import CHANCE, Event, Outcome
from rules.events import fill_names, public_events
from rules.match import Match, MatchLog
from rules.registry import get_game
from rules.story import StoryLine, chapter_title, story_document, story_lines

from .matches.ending import match_log, ordinal
from .matches.isolation import MAX_MATCH_ID, not_here, visible_here
from .stats import StatsError

log = logging.getLogger(__name__)

REPLAY_CACHE = 32
"""How many rebuilt replays a service keeps."""

#: Statuses whose matches have a log to replay, and whether their secrets are revealed.
REPLAYABLE: Mapping[MatchStatus, bool] = {
    MatchStatus.ACTIVE: False,
    MatchStatus.FINISHED: True,
    MatchStatus.ABANDONED: True,
}

_NO_LOG = {
    MatchStatus.PENDING: "has not started",
    MatchStatus.DECLINED: "was declined",
    MatchStatus.EXPIRED: "expired before it started",
    MatchStatus.CANCELLED: "was withdrawn",
}


class ReplayRefused(StatsError):
    """A replay that cannot be shown; the message is meant for the player."""


@dataclass(frozen=True)
class Step:
    """One resolution: its events (all of them; :meth:`MatchReplay.lines` picks what is shown)
    and the spectator view after it."""

    number: int  # 0-based
    events: tuple[Event, ...]
    view: Mapping[str, Any]
    first_event: int  # index of the step's first event in the match's events
    complete: bool  # False: the step the live match is in the middle of

    def public_events(self) -> list[Event]:
        return public_events(self.events)


@dataclass(frozen=True)
class MatchReplay:
    """A match told step by step, for ``seat`` (None: spectators)."""

    record: MatchRecord
    steps: tuple[Step, ...]
    revealed: bool  # the match is over: every secret is told, with its owner
    seat: int | None
    outcome: Outcome | None

    @property
    def live(self) -> bool:
        return self.record.status is MatchStatus.ACTIVE

    @property
    def names(self) -> list[str]:
        return self.record.names

    def step(self, number: int) -> Step:
        """The step ``number``, clamped to the steps there are (an old button still gets one)."""
        return self.steps[min(max(number, 0), len(self.steps) - 1)]

    def lines(self, step: Step) -> list[StoryLine]:
        """What the step tells: public events without notices, plus the secrets the viewer may
        see (all of them once the match is over, named with their owners)."""
        return story_lines(
            step.events,
            self.names,
            game=self.record.game,
            revealed=self.revealed,
            start=step.first_event,
            seat=self.seat,
        )

    def chapter(self, step: Step) -> str:
        """What the step is called as the players count the game ("Round 2", "Hand 1 · trick 3",
        "Turn 12 · ann": :func:`rules.story.chapter_title`), else "Step <n>"."""
        return chapter_title(step.events, self.names, game=self.record.game) or f"Step {step.number + 1}"

    def then(self, step: Step) -> str | None:
        """What was played after ``step``, in one line (the next step's first public line, else
        its first line); None for the last step."""
        if step.number + 1 >= len(self.steps):
            return None
        told_ = self.lines(self.steps[step.number + 1])
        first = next((line for line in told_ if not line.secret), told_[0] if told_ else None)
        return first.text if first is not None else None

    def result_lines(self) -> list[str]:
        """How the match ended, in words: the summary, then each player's place and why."""
        record, names = self.record, self.names
        if self.live:
            return ["The match is still being played."]
        lines = [fill_names(record.summary or (self.outcome.summary if self.outcome else ""), names)]
        if record.status is MatchStatus.ABANDONED and self.outcome is None:
            lines = ["Abandoned: nobody moved in time. Nobody wins, and the match is unrated."]
        if self.outcome is not None:
            for name, seat, rank in zip(names, self.outcome.seats, self.outcome.ranks, strict=False):
                reason = fill_names(seat.reason, names)
                words = _RESULT_WORDS.get(seat.result.value, seat.result.value)
                lines.append(f"{name}: {ordinal(rank)}, {words}" + ("" if reason in lines else f" - {reason}"))
        return [line for line in lines if line]

    def document(self, game_name: str) -> str:
        """The whole match as a text to read (the "Download" button's ``.txt``): the title, the
        players, the dates, the result, then every step under its name ("Round 2", "Turn 12 · ann")
        with its lines as :meth:`lines` tells them (over: every secret named with its owner; live:
        what a spectator saw), then how it ended."""
        record = self.record
        header = ["Players: " + ", ".join(self.names)]
        if record.started_at:
            header.append("Started: " + _when(record.started_at))
        if record.finished_at and not self.live:
            header.append("Ended: " + _when(record.finished_at))
        result = self.result_lines()
        header.append("Result: " + (result[0] if result else f"the match is {record.status.value}."))
        if self.revealed:
            header.append("Secrets are told once the match is over, marked (secret, name).")
        chapters = [(self.chapter(step), self.lines(step)) for step in self.steps]
        return story_document(
            chapters, title=f"{game_name} · match #{record.id}", header=header, result=result if not self.live else ()
        )

    def step_of_public_event(self, index: int) -> int:
        """The step holding the ``index``-th public event of the match (0-based; clamped)."""
        seen = 0
        for step in self.steps:
            seen += len(step.public_events())
            if index < seen:
                return step.number
        return self.steps[-1].number


_RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "shared"}


def _when(seconds: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def build_steps(log_: MatchLog, closing: Collection[str], *, over: bool) -> tuple[list[Step], Outcome | None]:
    """Replay ``log_`` action by action, cutting a step after each action whose public events
    contain a ``closing`` kind (``over``: the match ended, its last step is complete even if the
    rules did not end it: an abandoned match). Raises :class:`~rules.errors.RulesError` for a log
    the rules refuse."""
    game_cls = get_game(log_.game)
    options = game_cls.options_model.upgrade_stored(log_.options)
    match = Match(game_cls(options, num_seats=len(log_.seats)), log_.seed, log_.seats)
    steps: list[Step] = []
    start = 0

    def cut(complete: bool) -> None:
        nonlocal start
        steps.append(Step(len(steps), tuple(match.events[start:]), match.state.view(None), start, complete))
        start = len(match.events)

    for entry in log_.actions:
        if entry.seat != CHANCE:
            match.resolve_chance()
        match.apply(entry.seat, entry.action)
        if any(e.visible_to is None and e.kind in closing for e in match.events[start:]):
            cut(True)
    match.resolve_chance()  # chance the stored log leaves out is drawn from the seed
    if len(match.events) > start or not steps:
        cut(match.awaiting.is_terminal or over)
    return steps, match.outcome


class ReplayService:
    """Matches rebuilt from their stored logs, step by step. Read-only."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: OrderedDict[tuple[Any, ...], MatchReplay] = OrderedDict()

    async def replayable(self, match_id: int, *, guild_id: int | None, user_id: int) -> MatchRecord:
        """The match, if it has a log and may be named here (:func:`bot.matches.isolation.visible_here`:
        in a server, a match of that server; in a DM, one ``user_id`` played). Raises
        :class:`ReplayRefused` (unknown here, with the words a missing id gets, or never started)."""
        record = await self.db.matches.get(match_id) if 0 < match_id <= MAX_MATCH_ID else None
        if record is None or not visible_here(record, guild_id, user_id):
            raise ReplayRefused(str(not_here(match_id, guild_id)))
        if record.status not in REPLAYABLE or record.seed is None:
            why = _NO_LOG.get(record.status, "has no moves")
            raise ReplayRefused(f"Match #{match_id} {why}: there is nothing to replay.")
        return record

    async def on_the_web(self, match_id: int) -> MatchRecord | None:
        """The match a web page shows (issue 35, web/): one that has a log, live or over; None for
        any other id. No server is checked: the page's signed address (bot/signing.py) is what
        names it, and only the bot hands those out."""
        record = await self.db.matches.get(match_id) if 0 < match_id <= MAX_MATCH_ID else None
        if record is None or record.status not in REPLAYABLE or record.seed is None:
            return None
        return record

    async def replay(self, record: MatchRecord, closing: Collection[str], *, seat: int | None = None) -> MatchReplay:
        """The steps of ``record`` (see :meth:`replayable`) for spectators, or for ``seat`` while it
        is live. Raises :class:`ReplayRefused` when the current rules cannot replay it."""
        fresh = await self.db.matches.get(record.id)
        record = fresh or record
        rows = await self.db.actions.for_match(record.id)
        revealed = REPLAYABLE.get(record.status, True)
        key = (record.id, record.status, len(rows), None if revealed else seat, frozenset(closing))
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        log_ = match_log(record, rows)
        try:
            # off the event loop: a long Arena match takes tens of milliseconds to rebuild
            steps, outcome = await asyncio.to_thread(build_steps, log_, closing, over=revealed)
        except Exception as exc:  # noqa: BLE001 - an unknown game, or a log the rules now refuse
            log.warning("replaying match %s failed", record.id, exc_info=True)
            raise ReplayRefused(f"Match #{record.id} cannot be replayed with the current rules ({exc}).") from None
        if outcome is None and record.outcome is not None:  # abandoned: the referee's verdict
            outcome = Outcome.from_json(record.outcome)
        replay = MatchReplay(record, tuple(steps), revealed, None if revealed else seat, outcome)
        self._cache[key] = replay
        while len(self._cache) > REPLAY_CACHE:
            self._cache.popitem(last=False)
        return replay


__all__ = ["REPLAYABLE", "REPLAY_CACHE", "MatchReplay", "ReplayRefused", "ReplayService", "Step", "build_steps"]
