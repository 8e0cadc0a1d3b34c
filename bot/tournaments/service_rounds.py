"""The tournament service's engine: reconcile a tournament with its matches (record results, make
the round's matches, advance or finish), the match-end observer and the round deadline.

A reconcile is one locked operation: it reads the tournament's row once (:meth:`ServiceCore.hold`)
and passes the held tournament through every step (each write brings it up to date), re-reading
only the matches' links and statuses, which the matches change. Of a finished match it reads the
record (its stored outcome gives the placements) and the few log entries that may be a forfeit by
time, never the whole log; a game with a score of its own (its tournament profile's ``score_event``) is the exception,
read from the match's ending (its events replayed once, shared with the end-of-match card).
"""

from __future__ import annotations

from bot.ratings import placement
from db import Batch, MatchRecord, MatchStatus
from db.tournaments import TournamentMatchRecord, TournamentsRepository, TournamentStatus
from rules.core import Outcome

from .errors import BadResult
from .events import (
    EventData,
    Finished,
    MatchResult,
    Pairing,
    PlayerDropped,
    RoundDeadline,
    RoundStarted,
    StandingsChanged,
)
from .model import Format, Match, Result, ResultKind, game_profile
from .service_background import Background
from .service_core import DEAD, MAX_KNOCKOUT_GAMES, OVER, Held, ServiceCore, log


class Rounds:
    """Rounds: from a paired round to its results and the next round. Every method but
    :meth:`reconcile`, :meth:`match_ended` and :meth:`deadline` runs with the tournament's lock
    held, on the :class:`Held` tournament of the operation."""

    def __init__(self, core: ServiceCore, background: Background) -> None:
        self.core = core
        self.background = background

    async def reconcile(self, tournament_id: int) -> None:
        """Record what ended, make missing matches, advance rounds (the timer's tick, the
        start-up's recovery and the background task call it). When the tournament is busy (its
        lock held, by this task or another) it is only marked dirty: the engine goes round again,
        or the holder schedules it in the background when it lets go. So nobody waits here for a
        tournament (which could wait for a match's delivery)."""
        if self.core.busy(tournament_id):
            self.core.dirty.add(tournament_id)
            return
        async with self.core.lock(tournament_id):
            await self._reconcile(tournament_id)

    async def match_ended(self, record: MatchRecord, outcome: Outcome | None) -> None:
        """The match service's end observer: a linked match ended, so record it (and go on) in
        the background (:meth:`Background.schedule`). The match service calls its observers
        inline, while it delivers the end of the match to the player whose move ended it; when
        that was a round's last match, the next round's matches start here, and the player must
        not wait for them."""
        link = await self.core.repo.link_of(record.id)
        if link is None:
            return
        self.background.schedule(link.tournament_id)

    async def deadline(self, tournament_id: int, at: int) -> None:
        """The round deadline passed: adjudicate every match of the round still being played."""
        core, matches = self.core, self.core.matches
        async with core.lock(tournament_id):
            held = await core.hold(tournament_id)
            rec = held.record
            if (
                rec.status is not TournamentStatus.RUNNING
                or rec.round_deadline_at is None
                or rec.round_deadline_at > at
            ):
                return
            view = await core.view_of(held)
            await core.write(held, at, [RoundDeadline(passed=True)], round_deadline_at=None)
            for link in view.current_links().values():
                if link.recorded:
                    continue
                found = await matches.get(link.match_id)
                if found.status is MatchStatus.PENDING:
                    await matches.start_arranged(link.match_id)
                    found = await matches.get(link.match_id)
                if found.status is not MatchStatus.ACTIVE:
                    continue
                awaited = []
                for s in found.seats:
                    try:
                        if (await matches.prompt(link.match_id, s.seat)).awaited:
                            awaited.append(s.seat)
                    except Exception:
                        continue
                fault = [found.seats[s].user_id for s in awaited]
                await core.repo.write(TournamentsRepository.set_at_fault(Batch(), link.match_id, fault))
                # the game waits on everyone (nobody waits on anybody): nobody to favour, abandoned
                await matches.adjudicate(link.match_id, awaited if len(awaited) < len(found.seats) else [])
            await self.record_and_pair(held)  # the next round's matches: background

    # -----------------------------------------------------------------------------------------
    # the engine: record results, make matches, advance rounds (lock held)
    # -----------------------------------------------------------------------------------------

    async def _reconcile(self, tournament_id: int) -> None:
        """Bring the tournament up to date with its matches. Called with the lock held; a match
        that ends meanwhile (inside a call below) marks the tournament dirty and it runs again,
        on the tournament as held (read once for the whole reconcile)."""
        dirty = self.core.dirty
        held = await self.core.hold(tournament_id)
        for _ in range(1000):  # bounded: each pass records a result, makes matches or advances
            dirty.discard(tournament_id)
            await self._step(held)
            if tournament_id not in dirty:
                return
        log.error("Tournament %s: reconciling did not settle", tournament_id)

    async def _step(self, held: Held) -> None:
        if await self._record_and_advance(held):
            await self._play_round(held)

    async def record_and_pair(self, held: Held) -> None:
        """What an organizer's call (and a round deadline) does before it returns (lock held):
        the results recorded and the next round paired if due, all committed; the round's matches
        (the slow part: threads, boards, DMs) start in the background, as the lock's release sees
        the tournament dirty."""
        await self._record_and_advance(held)
        self.core.dirty.add(held.id)

    async def _record_and_advance(self, held: Held) -> bool:
        """Record the ended matches' results and, when the round is over (or none has started),
        advance: pair the next round or finish. True when a round is being played (its matches
        may still need making or starting: :meth:`_play_round`)."""
        if held.record.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED) or held.tournament is None:
            return False
        await self._record_results(held)
        t = held.tournament
        if held.record.status is not TournamentStatus.RUNNING:
            return False
        if t.current_round is None or t.round_complete:
            await self._advance(held)
            return False
        return True

    async def _record_results(self, held: Held) -> None:
        core = self.core
        t = held.tournament
        assert t is not None
        links = (await core.view_of(held)).links
        current = t.current_round
        batch = Batch()
        events: list[EventData] = []
        recorded_any = False
        statuses = await core.statuses([link.match_id for link in links if not link.recorded])
        for link in links:
            status = statuses.get(link.match_id)
            if link.recorded or status is None:
                continue
            if status in DEAD:
                TournamentsRepository.mark_recorded(batch, link.match_id)  # made again below
                continue
            if status not in OVER:
                continue
            found = await core.matches.get(link.match_id)
            TournamentsRepository.mark_recorded(batch, link.match_id)
            m = t.match(link.pairing)
            if current is None or link.round != current.number or m.result is not None:
                continue  # a walkover after a drop, or an old round: nothing to record
            result = await self._result_of(found, m, link)
            try:
                t.report(m.id, result)
            except BadResult as exc:
                drawn = sum(1 for other in links if other.round == link.round and other.pairing == m.id)
                if drawn < MAX_KNOCKOUT_GAMES:
                    # a knock-out game drawn: played again (a new match for the pairing, below)
                    events.append(MatchResult.of(m, link, result, replay=str(exc)))
                    continue
                # drawn again: the better seed goes through (adjudicated)
                better = min(m.seats, key=lambda p: t.player(p).seed or 10**9)
                placements = tuple(1 if p == better else 2 for p in m.seats)
                t.report(m.id, Result(placements, timed_out=result.timed_out, kind=ResultKind.ADJUDICATED))
            recorded_any = True
            events.append(MatchResult.of(m, link, t.match(m.id).result))
        if not len(batch):
            return
        if recorded_any and t.round_complete:  # published once a round is over (its tie-breaks with it)
            events.append(StandingsChanged.of(t))
        await core.write(held, core.now(), events, batch=batch, tournament=t)

    async def _result_of(self, found: MatchRecord, m: Match, link: TournamentMatchRecord) -> Result:
        """The core's result (aligned with the core match's seats) of a match that is over: the
        placements from its stored outcome, who timed out from its forfeits by time."""
        k = len(m.seats)
        if found.status is MatchStatus.ABANDONED:
            fault = [p for p in (link.at_fault or ()) if p in m.seats]
            if fault and len(fault) < k:
                return Result(tuple(k if p in fault else 1 for p in m.seats), timed_out=tuple(fault))
            return Result(tuple(1 for _ in m.seats), timed_out=tuple(m.seats))
        placed = placement(found.outcome, len(found.seats))
        timed = {
            found.seats[seat].user_id
            for seat, action in await self.core.repo.timeout_actions(found.id)
            if action.get("type") == "forfeit" and action.get("reason") == "timeout"
        }
        if placed is None:  # an outcome the ratings cannot read: everyone shares the place
            return Result(tuple(1 for _ in m.seats), timed_out=tuple(p for p in m.seats if p in timed))
        rank = {found.seats[s].user_id: placed.ranks[s] for s in range(len(found.seats))}
        placements = tuple(rank.get(p, k) for p in m.seats)
        games = await self._games_of(found, m)
        return Result(placements, games, timed_out=tuple(p for p in m.seats if p in timed))

    async def _games_of(self, found: MatchRecord, m: Match) -> tuple[int, ...] | None:
        """What each seat of a finished two-player match won of its game's own score
        (its tournament profile's ``score_event``), aligned with the core match's seats; None: the game has none,
        or nobody won any (the match then counts as one game)."""
        kind = game_profile(found.game).score_event
        if kind is None or len(m.seats) != 2 or found.status is not MatchStatus.FINISHED:
            return None
        try:
            events = (await self.core.matches.ending(found.id)).events
        except Exception:  # noqa: BLE001 - a log that cannot be replayed: one game, as before
            log.warning("Match %s: its score could not be read; counted as one game", found.id, exc_info=True)
            return None
        won = [0] * len(found.seats)
        for event in events:
            winner = event.data.get("winner") if event.kind == kind else None
            if isinstance(winner, int) and 0 <= winner < len(won):
                won[winner] += 1
        by_player = {found.seats[s].user_id: won[s] for s in range(len(found.seats))}
        games = tuple(by_player.get(p, 0) for p in m.seats)
        return games if sum(games) else None

    async def _advance(self, held: Held) -> None:
        """The round is over (or none started): drop who missed too many, then finish or pair."""
        core = self.core
        rec, t = held.record, held.tournament
        assert t is not None
        events: list[EventData] = []
        miss = rec.settings.get("miss_limit")
        if miss and not t.finished:
            for pid in t.players_to_drop(int(miss)):
                t.drop(pid)
                events.append(PlayerDropped(pid, f"missed {miss} matches in a row"))
        now = core.now()
        if t.finished or (t.started and len(t.active()) < 2 and t.format is not Format.SINGLE_ELIMINATION):
            events.append(Finished.of(t))
            await core.write(
                held,
                now,
                events,
                tournament=t,
                status=TournamentStatus.FINISHED,
                finished_at=now,
                round_deadline_at=None,
            )
            return
        rnd = t.next_round()
        deadline = now + rec.round_seconds if rec.round_seconds else None
        await core.write(held, now, events, tournament=t, round_deadline_at=deadline)
        log.info("Tournament %s: round %s paired (%s matches)", rec.id, rnd.number, len(rnd.matches))
        core.dirty.add(rec.id)  # make its matches in the next pass

    async def _play_round(self, held: Held) -> None:
        """Make every match of the current round that has none in play, announce the round (once:
        its pairings with their match ids, and its deadline), let the presentation show the
        announcement (:meth:`Background.add_announcer`), and only then start the matches: the
        round is told before its matches open their threads. A restart finds the matches made but
        not started (pending) and starts them the same way, after the announcement (still pending
        delivery, if the crash came before it went out)."""
        core, matches = self.core, self.core.matches
        view = await core.view_of(held)
        rec, t = view.record, view.tournament
        assert t is not None and t.current_round is not None
        rnd = t.current_round
        links = view.current_links()
        names = {e.user_id: e.display_name for e in rec.entrants}
        statuses = await core.statuses([link.match_id for link in links.values() if not link.recorded])
        match_ids = {pairing: link.match_id for pairing, link in links.items()}  # the latest of each
        to_start: list[int] = []
        for m in rnd.matches:
            if m.result is not None or len(m.seats) < 2:
                continue
            link = links.get(m.id)
            if link is not None and not link.recorded:
                if statuses.get(link.match_id) is MatchStatus.PENDING:
                    to_start.append(link.match_id)
                continue
            players = [(pid, names.get(pid, f"Player {pid}")) for pid in m.seats]
            made = await matches.arrange(
                rec.game, rec.options, rec.guild_id, rec.channel_id, players, turn_time=rec.turn_time_seconds
            )
            await core.repo.write(
                TournamentsRepository.add_link(Batch(), rec.id, made.id, rnd.number, m.id, core.now())
            )
            match_ids[m.id] = made.id
            to_start.append(made.id)
        rec = held.record
        if rec.announced_round < rnd.number:
            announced = RoundStarted(
                rnd.number,
                t.rounds_planned,
                rec.round_deadline_at,
                tuple(Pairing(m.id, tuple(m.seats), m.bye, m.label, match_ids.get(m.id)) for m in rnd.matches),
            )
            await core.write(held, core.now(), [announced], announced_round=rnd.number)
        if to_start:
            await self.background.announce(rec.id)
        for match_id in to_start:
            await matches.start_arranged(match_id)


__all__ = ["Rounds"]
