"""The tournament service's engine: reconcile a tournament with its matches (record results, make
the round's matches, advance or finish), the match-end observer and the round deadline.
"""

from __future__ import annotations

from typing import Any

from bot.ratings import placement
from db import Batch, MatchRecord, MatchStatus
from db.tournaments import TournamentMatchRecord, TournamentRecord, TournamentsRepository, TournamentStatus
from rules.core import Outcome

from .errors import BadResult
from .model import Format, Match, Result, ResultKind
from .service_base import DEAD, MAX_KNOCKOUT_GAMES, OVER, ServiceCore, TournamentView, log
from .tournament import Tournament

#: Games whose matches have a score of their own, counted as the "games" of the game-win
#: tie-break (MTG's games inside a match): the event kind whose ``winner`` names the seat that
#: won one. Wizards Cup: its duels (a duel both Wizards lose is won by nobody and not counted).
#: The other games' matches count as one game each.
SCORED_EVENTS = {"wizards-cup": "duel"}  # named by standings.GAME_SCORES


class Rounds(ServiceCore):
    """Rounds: from a paired round to its results and the next round. Every method but
    :meth:`reconcile` and :meth:`match_ended` runs with the tournament's lock held."""

    async def reconcile(self, tournament_id: int) -> None:
        """Record what ended, make missing matches, advance rounds (the timer's tick, the
        start-up's recovery and the background task call it). When the tournament is busy (its
        lock held, by this task or another) it is only marked dirty: the engine goes round again,
        or the holder schedules it in the background when it lets go. So nobody waits here for a
        tournament (which could wait for a match's delivery)."""
        lock = self._locks.get(tournament_id)
        if lock is not None and lock.locked():
            self._dirty.add(tournament_id)
            return
        async with self._lock(tournament_id):
            await self._reconcile(tournament_id)

    async def match_ended(self, record: MatchRecord, outcome: Outcome | None) -> None:
        """The match service's end observer: a linked match ended, so record it (and go on) in
        the background (:meth:`schedule`). The match service calls its observers inline, while it
        delivers the end of the match to the player whose move ended it; when that was a round's
        last match, the next round's matches start here, and the player must not wait for them."""
        link = await self.repo.link_of(record.id)
        if link is None:
            return
        self.schedule(link.tournament_id)

    async def _deadline(self, tournament_id: int, at: int) -> None:
        """The round deadline passed: adjudicate every match of the round still being played."""
        async with self._lock(tournament_id):
            view = await self.view(tournament_id)
            rec = view.record
            if (
                rec.status is not TournamentStatus.RUNNING
                or rec.round_deadline_at is None
                or rec.round_deadline_at > at
            ):
                return
            await self._write(rec, at, [("round_deadline", {"passed": True})], round_deadline_at=None)
            for link in view.current_links().values():
                if link.recorded:
                    continue
                found = await self.matches.get(link.match_id)
                if found.status is MatchStatus.PENDING:
                    await self.matches.start_arranged(link.match_id)
                    found = await self.matches.get(link.match_id)
                if found.status is not MatchStatus.ACTIVE:
                    continue
                awaited = []
                for s in found.seats:
                    try:
                        if (await self.matches.prompt(link.match_id, s.seat)).awaited:
                            awaited.append(s.seat)
                    except Exception:
                        continue
                fault = [found.seats[s].user_id for s in awaited]
                await self.repo.write(TournamentsRepository.set_at_fault(Batch(), link.match_id, fault))
                # the game waits on everyone (nobody waits on anybody): nobody to favour, abandoned
                await self.matches.adjudicate(link.match_id, awaited if len(awaited) < len(found.seats) else [])
            await self._record_and_pair(tournament_id)  # the next round's matches: background

    # -----------------------------------------------------------------------------------------
    # the engine: record results, make matches, advance rounds (lock held)
    # -----------------------------------------------------------------------------------------

    async def _reconcile(self, tournament_id: int) -> None:
        """Bring the tournament up to date with its matches. Called with the lock held; a match
        that ends meanwhile (inside a call below) marks the tournament dirty and it runs again."""
        for _ in range(1000):  # bounded: each pass records a result, makes matches or advances
            self._dirty.discard(tournament_id)
            await self._step(tournament_id)
            if tournament_id not in self._dirty:
                return
        log.error("Tournament %s: reconciling did not settle", tournament_id)

    async def _step(self, tournament_id: int) -> None:
        if await self._record_and_advance(tournament_id):
            await self._play_round(tournament_id)

    async def _record_and_pair(self, tournament_id: int) -> None:
        """What an organizer's call (and a round deadline) does before it returns (lock held):
        the results recorded and the next round paired if due, all committed; the round's matches
        (the slow part: threads, boards, DMs) start in the background, as the lock's release sees
        the tournament dirty."""
        await self._record_and_advance(tournament_id)
        self._dirty.add(tournament_id)

    async def _record_and_advance(self, tournament_id: int) -> bool:
        """Record the ended matches' results and, when the round is over (or none has started),
        advance: pair the next round or finish. True when a round is being played (its matches
        may still need making or starting: :meth:`_play_round`)."""
        view = await self.view(tournament_id)
        rec, t = view.record, view.tournament
        if rec.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED) or t is None:
            return False
        rec, t = await self._record_results(view)
        if rec.status is not TournamentStatus.RUNNING:
            return False
        if t.current_round is None or t.round_complete:
            await self._advance(rec, t)
            return False
        return True

    async def _record_results(self, view: TournamentView) -> tuple[TournamentRecord, Tournament]:
        rec, t = view.record, view.tournament
        assert t is not None
        current = t.current_round
        batch = Batch()
        events: list[tuple[str, dict[str, Any]]] = []
        recorded_any = False
        statuses = await self._statuses([link.match_id for link in view.links if not link.recorded])
        for link in view.links:
            status = statuses.get(link.match_id)
            if link.recorded or status is None:
                continue
            if status in DEAD:
                TournamentsRepository.mark_recorded(batch, link.match_id)  # made again below
                continue
            if status not in OVER:
                continue
            found = await self.matches.get(link.match_id)
            TournamentsRepository.mark_recorded(batch, link.match_id)
            m = t.match(link.pairing)
            if current is None or link.round != current.number or m.result is not None:
                continue  # a walkover after a drop, or an old round: nothing to record
            result = await self._result_of(found, m, link)
            try:
                t.report(m.id, result)
            except BadResult as exc:
                drawn = sum(1 for other in view.links if other.round == link.round and other.pairing == m.id)
                if drawn < MAX_KNOCKOUT_GAMES:
                    # a knock-out game drawn: played again (a new match for the pairing, below)
                    events.append(("match_result", {**self._result_payload(m, link, result), "replay": str(exc)}))
                    continue
                # drawn again: the better seed goes through (adjudicated)
                better = min(m.seats, key=lambda p: t.player(p).seed or 10**9)
                placements = tuple(1 if p == better else 2 for p in m.seats)
                t.report(m.id, Result(placements, timed_out=result.timed_out, kind=ResultKind.ADJUDICATED))
            recorded_any = True
            events.append(("match_result", self._result_payload(m, link, t.match(m.id).result)))
        if not len(batch):
            return rec, t
        if recorded_any and t.round_complete:  # published once a round is over (its tie-breaks with it)
            events.append(("standings_changed", self._standings(t)))
        rec = await self._write(rec, self.now(), events, batch=batch, tournament=t)
        return rec, t

    async def _result_of(self, found: MatchRecord, m: Match, link: TournamentMatchRecord) -> Result:
        """The core's result (aligned with the core match's seats) of a match that is over."""
        k = len(m.seats)
        if found.status is MatchStatus.ABANDONED:
            fault = [p for p in (link.at_fault or ()) if p in m.seats]
            if fault and len(fault) < k:
                return Result(tuple(k if p in fault else 1 for p in m.seats), timed_out=tuple(fault))
            return Result(tuple(1 for _ in m.seats), timed_out=tuple(m.seats))
        placed = placement(found.outcome, len(found.seats))
        timed = {
            found.seats[a.seat].user_id
            for a in await self.db.actions.for_match(found.id)
            if a.seat is not None and a.action.get("type") == "forfeit" and a.action.get("reason") == "timeout"
        }
        if placed is None:  # an outcome the ratings cannot read: everyone shares the place
            return Result(tuple(1 for _ in m.seats), timed_out=tuple(p for p in m.seats if p in timed))
        rank = {found.seats[s].user_id: placed.ranks[s] for s in range(len(found.seats))}
        placements = tuple(rank.get(p, k) for p in m.seats)
        games = await self._games_of(found, m)
        return Result(placements, games, timed_out=tuple(p for p in m.seats if p in timed))

    async def _games_of(self, found: MatchRecord, m: Match) -> tuple[int, ...] | None:
        """What each seat of a finished two-player match won of its game's own score
        (:data:`SCORED_EVENTS`), aligned with the core match's seats; None: the game has none,
        or nobody won any (the match then counts as one game)."""
        kind = SCORED_EVENTS.get(found.game)
        if kind is None or len(m.seats) != 2 or found.status is not MatchStatus.FINISHED:
            return None
        try:
            events = (await self.matches.ending(found.id)).events
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

    async def _advance(self, rec: TournamentRecord, t: Tournament) -> None:
        """The round is over (or none started): drop who missed too many, then finish or pair."""
        events: list[tuple[str, dict[str, Any]]] = []
        miss = rec.settings.get("miss_limit")
        if miss and not t.finished:
            for pid in t.players_to_drop(int(miss)):
                t.drop(pid)
                events.append(("player_dropped", {"player": pid, "reason": f"missed {miss} matches in a row"}))
        now = self.now()
        if t.finished or (t.started and len(t.active()) < 2 and t.format is not Format.SINGLE_ELIMINATION):
            ranking = t.ranking()
            champion = ranking[0][1] if ranking else None
            ranked = [[place, pid] for place, pid in ranking]
            events.append(("finished", {"champion": champion, "ranking": ranked, **self._standings(t)}))
            await self._write(
                rec,
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
        await self._write(rec, now, events, tournament=t, round_deadline_at=deadline)
        log.info("Tournament %s: round %s paired (%s matches)", rec.id, rnd.number, len(rnd.matches))
        self._dirty.add(rec.id)  # make its matches in the next pass

    async def _play_round(self, tournament_id: int) -> None:
        """Make every match of the current round that has none in play, announce the round (once:
        its pairings with their match ids, and its deadline), let the presentation show the
        announcement (:meth:`~bot.tournaments.service_base.ServiceCore.add_announcer`), and only
        then start the matches: the round is told before its matches open their threads. A
        restart finds the matches made but not started (pending) and starts them the same way,
        after the announcement (still pending delivery, if the crash came before it went out)."""
        view = await self.view(tournament_id)
        rec, t = view.record, view.tournament
        assert t is not None and t.current_round is not None
        rnd = t.current_round
        links = view.current_links()
        names = {e.user_id: e.display_name for e in rec.entrants}
        statuses = await self._statuses([link.match_id for link in links.values() if not link.recorded])
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
            made = await self.matches.arrange(
                rec.game, rec.options, rec.guild_id, rec.channel_id, players, turn_time=rec.turn_time_seconds
            )
            await self.repo.write(
                TournamentsRepository.add_link(Batch(), rec.id, made.id, rnd.number, m.id, self.now())
            )
            match_ids[m.id] = made.id
            to_start.append(made.id)
        rec = await self.record(tournament_id)
        if rec.announced_round < rnd.number:
            payload = {
                "round": rnd.number,
                "of": t.rounds_planned,
                "deadline": rec.round_deadline_at,
                "matches": [
                    {
                        "pairing": m.id,
                        "seats": list(m.seats),
                        "bye": m.bye,
                        "label": m.label,
                        "match_id": match_ids.get(m.id),
                    }
                    for m in rnd.matches
                ],
            }
            await self._write(rec, self.now(), [("round_started", payload)], announced_round=rnd.number)
        if to_start:
            await self._announce(tournament_id)
        for match_id in to_start:
            await self.matches.start_arranged(match_id)


__all__ = ["Rounds"]
