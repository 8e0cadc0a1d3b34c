"""Ratings: every finished match moves its players on two ladders per game, the guild's and the
global one, with openskill's Plackett-Luce model (2 players or a free-for-all of many; ties allowed).

- Ranks come from the stored outcome: ``outcome["ranks"]`` (1 = best, equal = tied) when it has one
  per seat; otherwise winners first, then draws, then losses (so a draw, or several winners, is a tie).
- The tally: a WIN is a win when it is the only one; a shared victory and a DRAW count as draws;
  LOSS is a loss. Abandoned, declined, expired and cancelled matches are never rated; forfeits are
  (they finish the match with an outcome).
- The number shown is ``round(1200 + 20 * (mu - 3 sigma))``: a newcomer shows 1200 and climbs as the
  model gets sure of them; regulars end up around 1500, the best near 2000 (docs/ratings.md).
- Matches are rated in finish order: ``matches.finish_seq``, a number the database gives each match
  when it becomes finished (migration 0006), so it never depends on the clock and a match that
  finishes is always the last one. Finishing a match rates just that match (and any queued before
  it, e.g. after a failed update), so :meth:`RatingService.rebuild` from the matches table gives
  bit-identical numbers. Only if a match already rated comes after a queued one (its queueing
  failed, or rows were edited by hand) are those later matches taken out and rated again.

Rebuild from the command line::

    python -m bot.ratings rebuild [--database PATH] [--game SLUG]
    python -m bot.ratings verify  [--database PATH]     # recompute in memory, compare, exit 1 on a difference
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from openskill.models import PlackettLuce

from bot.rating_time import DISPLAY_BASE, DISPLAY_SCALE, ListRules, display_rating, idle_sigma, settle, soft_reset
from db import (
    Database,
    DatabaseUnavailable,
    IntegrityError,
    StaleWrite,
    UnknownDatabaseURL,
    parse_database_url,
)
from db.ratings import GLOBAL_SCOPE, FinishedMatch, RatingChange, RatingsRepository, Standing, is_season, ordinal
from rules.text import plural

log = logging.getLogger(__name__)

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (sigma grows by tau each game)."""

SETTLE_CHUNK = 2000
"""Standings settled per round trip when a ladder is read (:meth:`RatingService.settle`)."""

INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma
INITIAL_DISPLAY = display_rating(INITIAL_MU, INITIAL_SIGMA)


# ---------------------------------------------------------------------------------------
# from an outcome to ranks and results
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    ranks: tuple[int, ...]
    """Per seat, 1 = best; equal ranks are ties (what the model is told)."""
    results: tuple[str, ...]
    """Per seat, 'win' / 'loss' / 'draw' (what the tally counts)."""


_ORDER = {"win": 1, "draw": 2, "loss": 3}


def placement(outcome: Mapping[str, Any] | None, num_seats: int) -> Placement | None:
    """Ranks and results of a stored outcome (``Outcome.to_json``), or None if it cannot be rated."""
    if not outcome or num_seats < 2:
        return None
    seats = outcome.get("seats")
    if not isinstance(seats, list) or len(seats) != num_seats:
        return None
    raw = [str(s.get("result")) if isinstance(s, Mapping) else "" for s in seats]
    if any(r not in _ORDER for r in raw):
        return None
    ranks = outcome.get("ranks")
    if not (
        isinstance(ranks, list)
        and len(ranks) == num_seats
        and all(isinstance(r, int) and not isinstance(r, bool) and r >= 1 for r in ranks)
    ):
        distinct = sorted({_ORDER[r] for r in raw})
        ranks = [distinct.index(_ORDER[r]) + 1 for r in raw]
    several_winners = raw.count("win") > 1
    results = tuple("draw" if r == "win" and several_winners else r for r in raw)
    return Placement(tuple(int(r) for r in ranks), results)


# ---------------------------------------------------------------------------------------
# the arithmetic, in memory
# ---------------------------------------------------------------------------------------


def _fresh(scope: int, game: str, user_id: int) -> Standing:
    return Standing(
        scope=scope,
        game=game,
        user_id=user_id,
        mu=INITIAL_MU,
        sigma=INITIAL_SIGMA,
        ordinal=ordinal(INITIAL_MU, INITIAL_SIGMA),
        display=INITIAL_DISPLAY,
        wins=0,
        losses=0,
        draws=0,
        games=0,
        last_match_id=0,
        updated_at=0,
    )


@dataclass
class Ladders:
    """Standings of one game, keyed by (scope, user id). Rating a match only reads and writes here;
    the caller loads what is needed first and saves :attr:`touched` afterwards."""

    game: str
    standings: dict[tuple[int, int], Standing] = field(default_factory=dict)
    touched: set[tuple[int, int]] = field(default_factory=set)

    def get(self, scope: int, user_id: int) -> Standing:
        found = self.standings.get((scope, user_id))
        return found if found is not None else _fresh(scope, self.game, user_id)

    def rate(self, match: FinishedMatch) -> list[RatingChange] | None:
        """Apply one finished match on each of its ladders. None: the outcome cannot be rated.

        Each player's rating first settles to the match's time (:func:`bot.rating_time.idle_sigma`:
        the uncertainty grown with time away), and a player's first match of a season starts
        their season rating from their server rating as it stood (:func:`~bot.rating_time.soft_reset`)."""
        place = placement(match.outcome, len(match.user_ids))
        if place is None:
            return None
        at = match.finished_at
        server_before = (
            {uid: self._as_of(self.get(int(match.guild_id), uid), at) for uid in match.user_ids}
            if (match.guild_id)
            else {}
        )
        changes: list[RatingChange] = []
        for scope in match.scopes:
            before = [self._start(scope, uid, at, server_before) for uid in match.user_ids]
            teams = [[MODEL.rating(mu=mu, sigma=sigma)] for _, mu, sigma in before]
            after = MODEL.rate(teams, ranks=list(place.ranks))
            rules = ListRules() if scope == GLOBAL_SCOPE else ListRules(match.min_games, match.window_days)
            for seat, ((old, mu0, sigma0), team) in enumerate(zip(before, after, strict=True)):
                mu, sigma = float(team[0].mu), float(team[0].sigma)
                result = place.results[seat]
                games = old.games + 1
                now = settle(mu=mu, sigma=sigma, games=games, updated_at=at, now=at, rules=rules)
                new = replace(
                    old,
                    mu=mu,
                    sigma=sigma,
                    ordinal=now.ordinal,
                    display=now.display,
                    wins=old.wins + (result == "win"),
                    losses=old.losses + (result == "loss"),
                    draws=old.draws + (result == "draw"),
                    games=games,
                    last_match_id=match.match_id,
                    updated_at=at,
                    display_name=None,
                    listed=now.listed,
                    settle_at=now.settle_at,
                )
                self.standings[(scope, old.user_id)] = new
                self.touched.add((scope, old.user_id))
                changes.append(
                    RatingChange(
                        match_id=match.match_id,
                        scope=scope,
                        game=match.game,
                        user_id=old.user_id,
                        seat=seat,
                        rank=place.ranks[seat],
                        result=result,
                        mu_before=mu0,
                        sigma_before=sigma0,
                        mu_after=mu,
                        sigma_after=sigma,
                        display_before=display_rating(mu0, sigma0),
                        display_after=new.display,
                        finished_at=at,
                        finish_seq=match.finish_seq,
                    )
                )
        return changes

    @staticmethod
    def _as_of(standing: Standing, at: int) -> tuple[float, float]:
        """(mu, sigma) of a standing at the time ``at``: its sigma grown with the time away."""
        if standing.games == 0:
            return standing.mu, standing.sigma
        return standing.mu, idle_sigma(standing.sigma, at - standing.updated_at)

    def _start(
        self, scope: int, user_id: int, at: int, server_before: Mapping[int, tuple[float, float]]
    ) -> tuple[Standing, float, float]:
        """(standing, mu, sigma) a player enters a match with on a ladder."""
        found = self.standings.get((scope, user_id))
        if found is not None:
            return (found, *self._as_of(found, at))
        fresh = _fresh(scope, self.game, user_id)
        if is_season(scope):  # a season starts from the server rating, soft-reset
            return (fresh, *soft_reset(*server_before[user_id]))
        return fresh, fresh.mu, fresh.sigma


@dataclass(frozen=True)
class Computed:
    """The result of rating matches in memory."""

    matches: tuple[FinishedMatch, ...]
    counted: dict[int, bool]
    changes: tuple[RatingChange, ...]
    standings: tuple[Standing, ...]


def compute(matches: Iterable[FinishedMatch], start: Ladders | Mapping[str, Ladders] | None = None) -> Computed:
    """Rate ``matches`` in rating order, from ``start`` (fresh ladders if None)."""
    ordered = sorted(matches, key=lambda m: m.key)
    ladders: dict[str, Ladders] = {}
    if isinstance(start, Ladders):
        ladders[start.game] = start
    elif start is not None:
        ladders.update(start)
    counted: dict[int, bool] = {}
    changes: list[RatingChange] = []
    for match in ordered:
        ladder = ladders.setdefault(match.game, Ladders(match.game))
        made = ladder.rate(match)
        counted[match.match_id] = made is not None
        if made:
            changes.extend(made)
        elif made is None:
            log.warning("match %s has no usable outcome; it is not rated", match.match_id)
    touched = [lad.standings[key] for lad in ladders.values() for key in sorted(lad.touched)]
    return Computed(tuple(ordered), counted, tuple(changes), tuple(touched))


# ---------------------------------------------------------------------------------------
# the service
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RebuildReport:
    matches: int
    counted: int
    changes: int
    standings: int


class RatingService:
    """Ratings kept in step with the matches table."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.repo = RatingsRepository(db)

    async def record_match(self, match_id: int) -> list[RatingChange]:
        """Queue a finished match (if not rated yet) and rate every queued match of its game.
        Returns the new changes. Idempotent; raises on failure. (The match service queues a match in
        the transaction that finishes it and rates it right after; see bot.matches.moves.Rater.)"""
        game = await self.repo.finished_game(match_id)
        if game is None:
            return []
        async with self.db.transaction():
            await self.repo.enqueue(match_id)
            return await self.catch_up(game)

    async def catch_up(self, game: str) -> list[RatingChange]:
        """Rate every queued match of ``game`` in rating order (the finish sequence). A match that
        has just finished is the last in that order, so normally this rates the queue and nothing
        else. If an already rated match comes after the first queued one (its own queueing failed,
        or the rating tables were edited), it is taken out and rated again after it, so the numbers
        are always those a rebuild gives.

        First without a lock: the queue and the standings are read (two round trips), the ratings
        computed, and the result written in one batch that holds only if nothing it was computed
        from changed meanwhile (:meth:`RatingsRepository.save_checked`); with the match service
        that batch shares the moves' group commit, so rating a finish never holds the database's
        write lock across round trips. If it does not hold (another process rated the same players
        or matches), or if a rated match comes after a queued one, the game's queue is rated under
        its lock as below."""
        quick = await self._catch_up_unlocked(game)
        if quick is not None:
            return quick
        return await self._catch_up_locked(game)

    async def _catch_up_unlocked(self, game: str) -> list[RatingChange] | None:
        """:meth:`catch_up` optimistically; None when it must be done under the lock."""
        pending = await self.repo.unrated(game)
        if not pending:
            return []
        first = min(m.key for m in pending)
        pairs = {(scope, uid) for m in pending for scope in m.scopes for uid in m.user_ids}
        read, later = await self.repo.standings_and_later(game, pairs, after_seq=first)
        if later:
            return None
        done = compute(pending, Ladders(game, dict(read)))
        try:
            await self.repo.save_checked(done.matches, done.counted, done.changes, done.standings, read)
        except (StaleWrite, IntegrityError):
            log.debug("the ratings of %s changed while they were computed; rating again under the lock", game)
            return None
        return list(done.changes)

    async def _catch_up_locked(self, game: str) -> list[RatingChange]:
        async with self.db.transaction():
            await self.repo.lock(game)  # processes rating this game take turns (no lost update)
            pending = await self.repo.unrated(game)
            if not pending:
                return []
            first = min(m.key for m in pending)
            later = await self.repo.rated_after(game, first)
            if later:
                log.info("re-rating %d %s match(es) finished after finish_seq %d", len(later), game, first)
                await self.repo.forget(game, [m.match_id for m in later])
                pending = pending + later
            pairs = {(scope, uid) for m in pending for scope in m.scopes for uid in m.user_ids}
            ladders = Ladders(game, await self.repo.standings(game, pairs))
            done = compute(pending, ladders)
            await self.repo.save(done.matches, done.counted, done.changes, done.standings)
            return list(done.changes)

    async def list_rules(self, scope: int) -> ListRules:
        """Who the ladder ``scope`` lists (its server's minimum and window; a season's end)."""
        return ListRules(*await self.repo.list_rules(scope))

    async def settle(self, scope: int, game: str, now: int, rules: ListRules | None = None) -> int:
        """Settle the ladder's standings that are due at ``now`` (time away, the window's end: see
        :mod:`bot.rating_time`) before it is read. Usually an index probe that finds nothing; returns
        how many were settled. Settling is computed from each standing's last match alone, so two
        processes settling the same standing write the same values."""
        done = 0
        while True:
            due = await self.repo.due(scope, game, now, limit=SETTLE_CHUNK)
            if not due:
                return done
            rules = rules or await self.list_rules(scope)
            settled = []
            for s in due:
                v = settle(mu=s.mu, sigma=s.sigma, games=s.games, updated_at=s.updated_at, now=now, rules=rules)
                settled.append(replace(s, ordinal=v.ordinal, display=v.display, listed=v.listed, settle_at=v.settle_at))
            await self.repo.settle(settled, {(s.scope, s.user_id): s for s in due})
            done += len(due)
            if len(due) < SETTLE_CHUNK:  # (a standing written meanwhile waits for the next read)
                return done

    async def compute_all(self, game: str | None = None) -> Computed:
        """Every finished match rated from scratch, in memory (nothing written)."""
        return compute(await self.repo.finished_matches(game))

    async def rebuild(self, game: str | None = None) -> RebuildReport:
        """Delete the ratings (of one game) and rate every finished match again, in one transaction."""
        async with self.db.transaction():
            await self.repo.lock(game)
            done = await self.compute_all(game)
            await self.repo.clear(game)
            await self.repo.save(done.matches, done.counted, done.changes, done.standings)
        return RebuildReport(
            matches=len(done.matches),
            counted=sum(done.counted.values()),
            changes=len(done.changes),
            standings=len(done.standings),
        )

    async def verify(self, game: str | None = None) -> list[str]:
        """Differences between the stored ratings and a rebuild in memory (empty: identical)."""
        done = await self.compute_all(game)
        problems: list[str] = []
        stored_changes = await self.repo.all_changes(game)
        want_changes = sorted(done.changes, key=_change_key)
        if sorted(stored_changes, key=_change_key) != want_changes:
            have = {_change_key(c): c for c in stored_changes}
            want = {_change_key(c): c for c in want_changes}
            for key in sorted(set(have) | set(want)):
                if have.get(key) != want.get(key):
                    problems.append(f"change {key}: stored {have.get(key)} != rebuilt {want.get(key)}")
        stored = {(s.scope, s.game, s.user_id): s for s in await self.repo.all_standings(game)}
        rebuilt = {(s.scope, s.game, s.user_id): s for s in done.standings}
        for where in sorted(set(stored) | set(rebuilt)):
            found, wanted = stored.get(where), rebuilt.get(where)
            if (found and found.facts()) != (wanted and wanted.facts()):  # what time settles is not compared
                problems.append(f"standing {where}: stored {found} != rebuilt {wanted}")
        return problems


def _change_key(change: RatingChange) -> tuple[int, int, int]:
    return (change.match_id, change.scope, change.user_id)


# ---------------------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m bot.ratings", description="Rebuild or verify the ratings.")
    parser.add_argument("command", choices=["rebuild", "verify"])
    parser.add_argument(
        "--database", help="an SQLite file or a postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)"
    )
    parser.add_argument("--game", help="only this game (default: every game)")
    args = parser.parse_args(argv)
    path = args.database
    if path is None:
        from bot.settings import Settings

        path = Settings().database
    return asyncio.run(_run(args.command, path, args.game, out))


async def _run(command: str, path: str, game: str | None, out: TextIO) -> int:
    try:
        backend, target = parse_database_url(path)
    except UnknownDatabaseURL as exc:
        print(f"cannot open the database: {exc}", file=sys.stderr)
        return 1
    if backend == "sqlite" and target != ":memory:" and not Path(target).is_file():
        # opening would create an empty database, with nothing to rebuild or verify in it
        print(f"cannot open the database: there is no SQLite file at {target}", file=sys.stderr)
        return 1
    try:
        db = await Database.open(path)
    except (DatabaseUnavailable, UnknownDatabaseURL) as exc:
        print(f"cannot open the database: {exc}", file=sys.stderr)
        return 1
    try:
        service = RatingService(db)
        if command == "rebuild":
            report = await service.rebuild(game)
            print(
                f"Rebuilt the ratings from {report.matches} finished match(es) ({report.counted} rated): "
                f"{plural(report.changes, 'rating change')}, {plural(report.standings, 'standing')}.",
                file=out,
            )
            return 0
        problems = await service.verify(game)
        for line in problems[:50]:
            print(line, file=out)
        print(
            "The stored ratings match a rebuild." if not problems else f"{plural(len(problems), 'difference')}.",
            file=out,
        )
        return 0 if not problems else 1
    finally:
        await db.close()


__all__ = [
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "GLOBAL_SCOPE",
    "INITIAL_DISPLAY",
    "MODEL",
    "Computed",
    "Ladders",
    "Placement",
    "RatingService",
    "RebuildReport",
    "compute",
    "display_rating",
    "main",
    "placement",
]


if __name__ == "__main__":
    raise SystemExit(main())
