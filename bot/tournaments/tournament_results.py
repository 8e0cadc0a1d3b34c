"""Results, drops and no-shows: reporting a match (two-player wins, draws, time-outs, table
placements; knock-out rules), dropping a player (a pending pair becomes a walkover) and the players
who missed too many matches in a row. A mixin over
:class:`~bot.tournaments.tournament_state.TournamentState`. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.tournaments.errors import BadResult, TournamentError, WrongState
from bot.tournaments.model import WALKOVER_RESULT, Format, Match, PlayerId, Result, ResultKind
from bot.tournaments.tournament_state import TournamentState


class ResultKeeper(TournamentState):
    """Records results and drops in the current round."""

    # -----------------------------------------------------------------------------------------
    # results
    # -----------------------------------------------------------------------------------------

    def report(self, match_id: str, result: Result) -> Match:
        """Record (or correct, while its round is current) a match's result."""
        m = self.match(match_id)
        if m.bye:
            raise BadResult(f"{match_id} is a bye: it has no result to report.")
        current = self.current_round
        if current is None or m.round != current.number:
            raise WrongState(
                f"{match_id} belongs to round {m.round}, which is over; results can change only in the current round."
            )
        k = len(m.seats)
        if len(result.placements) != k:
            raise BadResult(f"{match_id} has {k} seats; the result gives {len(result.placements)} placements.")
        if any(not 1 <= p <= k for p in result.placements):
            raise BadResult(f"Placements in {match_id} go from 1 to {k}: {list(result.placements)}.")
        if result.games is not None:
            if k != 2:
                raise BadResult("Game counts are for two-player matches only.")
            if len(result.games) != 2 or any(g < 0 for g in result.games) or result.game_draws < 0:
                raise BadResult(f"Games won in {match_id} must be two counts of 0 or more.")
            if sum(result.games) + result.game_draws == 0:
                raise BadResult(f"{match_id}: a match reported with game counts needs at least one game.")
        strangers = [p for p in result.timed_out if p not in m.seats]
        if strangers:
            raise BadResult(f"{', '.join(map(str, strangers))} did not play {match_id}.")
        if self.format is Format.SINGLE_ELIMINATION and not self.uses_tables:
            result = self._knockout_result(m, result)
        m.result = result
        return m

    def _knockout_result(self, m: Match, result: Result) -> Result:
        firsts = [p for p, place in zip(m.seats, result.placements, strict=True) if place == 1]
        if len(firsts) == 1 and not (set(m.seats) <= set(result.timed_out)):
            return result
        if set(m.seats) <= set(result.timed_out):
            seed = self._seed_of()
            better = min(m.seats, key=lambda p: seed.get(p, 10**9))
            placements = tuple(1 if p == better else 2 for p in m.seats)
            return Result(placements, result.games, result.game_draws, result.timed_out, ResultKind.ADJUDICATED)
        raise BadResult(f"{m.id} is a knock-out match: it needs a winner (replay a drawn game).")

    def report_win(
        self,
        match_id: str,
        winner: PlayerId,
        *,
        games: Mapping[PlayerId, int] | None = None,
        game_draws: int = 0,
        timed_out: Iterable[PlayerId] = (),
    ) -> Match:
        """A two-player win; ``games``: games won by each player when the match was a best-of-N."""
        m = self.match(match_id)
        if winner not in m.seats:
            raise BadResult(f"{winner} did not play {match_id}.")
        if len(m.seats) != 2:
            raise BadResult(f"{match_id} is not a two-player match: report its placements.")
        placements = tuple(1 if p == winner else 2 for p in m.seats)
        return self.report(match_id, Result(placements, self._games(m, games), game_draws, tuple(timed_out)))

    def report_draw(self, match_id: str, *, games: Mapping[PlayerId, int] | None = None, game_draws: int = 0) -> Match:
        m = self.match(match_id)
        if len(m.seats) != 2:
            raise BadResult(f"{match_id} is not a two-player match: report its placements.")
        return self.report(match_id, Result((1, 1), self._games(m, games), game_draws))

    def report_timeout(self, match_id: str, timed_out: Iterable[PlayerId]) -> Match:
        """A forfeit by time (or a no-show) in a two-player match: it is a loss for each player
        who timed out (both: both lose), a win for the other."""
        m = self.match(match_id)
        out = tuple(timed_out)
        if len(m.seats) != 2:
            raise BadResult(f"{match_id} is a table: report its placements with timed_out.")
        if not out:
            raise BadResult("Name who ran out of time: one player, or both.")
        placements = tuple(2 if p in out else 1 for p in m.seats)
        return self.report(match_id, Result(placements, timed_out=out))

    def report_placements(
        self, match_id: str, placements: Mapping[PlayerId, int], *, timed_out: Iterable[PlayerId] = ()
    ) -> Match:
        """A table's (or any match's) result by placement: ``{player: place}``, 1 = best, ties equal."""
        m = self.match(match_id)
        if set(placements) != set(m.seats):
            raise BadResult(f"Placements for {match_id} must name exactly its players: {list(m.seats)}.")
        return self.report(match_id, Result(tuple(placements[p] for p in m.seats), timed_out=tuple(timed_out)))

    @staticmethod
    def _games(m: Match, games: Mapping[PlayerId, int] | None) -> tuple[int, ...] | None:
        if games is None:
            return None
        if set(games) - set(m.seats):
            raise BadResult(f"Game counts name players who did not play {m.id}.")
        return tuple(int(games.get(p, 0)) for p in m.seats)

    # -----------------------------------------------------------------------------------------
    # drops and no-shows
    # -----------------------------------------------------------------------------------------

    def drop(self, pid: PlayerId) -> list[Match]:
        """Drop a player: never paired or seated again. Their unfinished two-player match of the
        current round becomes a walkover (a bye: a win) for the opponent; a table plays on (its
        result, reported later, places them as the game did). Returns the matches changed."""
        player = self.player(pid)
        if player.dropped:
            raise WrongState(f"Player {pid} has already dropped.")
        if self.finished:
            raise WrongState("The tournament is over: no one can drop.")
        player.dropped = True
        player.dropped_after = len(self.rounds)
        changed: list[Match] = []
        current = self.current_round
        if current is not None:
            for m in current.matches:
                if m.result is None and pid in m.seats and len(m.seats) == 2:
                    other = m.seats[0] if m.seats[1] == pid else m.seats[1]
                    m.seats = (other,)
                    m.bye = True
                    m.result = WALKOVER_RESULT
                    changed.append(m)
        return changed

    def missed_in_a_row(self, pid: PlayerId) -> int:
        """Matches this player forfeited by time (or missed) in a row, latest first; byes skipped."""
        count = 0
        for m in reversed(self.matches_of(pid)):
            if m.result is None or len(m.seats) == 1:
                continue
            if pid in m.result.timed_out:
                count += 1
            else:
                break
        return count

    def players_to_drop(self, limit: int | None = None) -> list[PlayerId]:
        """Players (not yet dropped) who missed ``limit`` (default: the tournament's setting)
        matches in a row: the service drops them before the next round."""
        n = self.miss_limit if limit is None else limit
        if n < 1:
            raise TournamentError(f"Missed matches before a drop must be at least 1, not {n}.")
        return [p.id for p in self.active() if self.missed_in_a_row(p.id) >= n]


__all__ = ["ResultKeeper"]
