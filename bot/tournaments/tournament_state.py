"""What a tournament is and what can be read from it: its fields (players, rounds, settings), the
state queries (current round, players still in, seeds, finished, champion), the standings and the
final ranking. :class:`TournamentState` is the base of :class:`~bot.tournaments.tournament.Tournament`,
whose round making (:mod:`bot.tournaments.tournament_rounds`) and results and drops
(:mod:`bot.tournaments.tournament_results`) are mixins over it. Pure: no Discord, database or asyncio.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from bot.tournaments import elimination, round_robin, tables
from bot.tournaments.errors import BadPlayers, BadResult
from bot.tournaments.model import Format, GameProfile, Match, Player, PlayerId, Round, game_profile
from bot.tournaments.standings import Standings, compute_standings

SNAPSHOT_VERSION = 1
MAX_TABLE_SWISS_ROUNDS = 20
DEFAULT_MISS_LIMIT = 2


def max_swiss_rounds(n: int, *, tables_: bool) -> int:
    """Two-player Swiss: n - 1 rounds (even n) or n (odd n, a bye a round) before a repeat is
    forced; tables repeat from the start with few players, so a fixed cap."""
    if tables_:
        return MAX_TABLE_SWISS_ROUNDS
    return n - 1 if n % 2 == 0 else n


def recommended_rounds(n: int, format: str | Format = Format.SWISS, game: str = "firewall") -> int:
    """Rounds a format plays with ``n`` players. Swiss: ceil(log2 n) for pairings (at least 1);
    Magic Duel tables of 4 separate players faster: ceil(log4 n) + 1."""
    fmt = Format.parse(format)
    uses_tables = game_profile(game).tables
    if fmt is Format.ROUND_ROBIN:
        return round_robin.rounds_needed(n)
    if fmt is Format.SINGLE_ELIMINATION:
        if uses_tables:
            return _table_knockout_rounds(n)
        return elimination.rounds_needed(n)
    if uses_tables:
        return max(1, math.ceil(math.log(max(n, 2), 4)) + 1) if n > 2 else 1
    return max(1, math.ceil(math.log2(max(n, 2))))


def _table_knockout_rounds(n: int) -> int:
    rounds = 1
    while n > elimination.FINAL_TABLE_MAX:
        n = sum(max(1, size // 2) for size in tables.table_sizes(n))
        rounds += 1
    return rounds


@dataclass
class TournamentState:
    """A tournament's data and its read-only queries (see :class:`~bot.tournaments.tournament.Tournament`)."""

    game: str
    format: Format
    players: list[Player]
    rounds_planned: int
    seed: int = 0
    third_place: bool = False
    miss_limit: int = DEFAULT_MISS_LIMIT
    rounds: list[Round] = field(default_factory=list)

    # -----------------------------------------------------------------------------------------
    # state
    # -----------------------------------------------------------------------------------------

    @property
    def profile(self) -> GameProfile:
        return game_profile(self.game)

    @property
    def uses_tables(self) -> bool:
        """Matches are Magic Duel tables ranked by placement (Swiss and knock-out)."""
        return self.profile.tables and self.format is not Format.ROUND_ROBIN

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def round_complete(self) -> bool:
        return self.current_round is None or self.current_round.complete

    def player(self, pid: PlayerId) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise BadPlayers(f"Player {pid} is not in this tournament.")

    def active(self) -> list[Player]:
        return [p for p in self.players if not p.dropped]

    def seeded(self) -> list[PlayerId]:
        """Players still in, by seed."""
        return [p.id for p in sorted(self.active(), key=lambda p: p.seed or 10**9)]

    def match(self, match_id: str) -> Match:
        for rnd in reversed(self.rounds):  # the latest first: it is nearly always asked for
            for m in rnd.matches:
                if m.id == match_id:
                    return m
        raise BadResult(f"There is no match {match_id!r} in this tournament.")

    def matches_of(self, pid: PlayerId) -> list[Match]:
        return [m for rnd in self.rounds for m in rnd.matches if pid in m.seats]

    @property
    def finished(self) -> bool:
        if not self.rounds or not self.round_complete:
            return False
        if self.format is Format.SINGLE_ELIMINATION:
            return self._knockout_over()
        if len(self.rounds) >= self.rounds_planned:
            return True
        return len(self.active()) < 2

    def _knockout_over(self) -> bool:
        last = self.rounds[-1]
        if self.uses_tables:
            return any(m.label == "final" for m in last.matches) or len(self._table_advancers()) < 2
        return len(self.rounds) >= self.rounds_planned

    @property
    def champion(self) -> PlayerId | None:
        if not self.finished:
            return None
        return self.ranking()[0][1]

    def standings(self) -> Standings:
        """Standings over the finished matches: match points, OMW, GWP, OGW, the seeded draw."""
        return compute_standings(self.players, self.rounds, self.seed)

    def _seed_of(self) -> dict[PlayerId, int]:
        return {p.id: p.seed for p in self.players if p.seed is not None}

    def _table_advancers(self) -> list[PlayerId]:
        seed = self._seed_of()
        out: list[PlayerId] = []
        for m in self.rounds[-1].matches:
            if m.result is not None:
                out.extend(elimination.table_advancers(m, seed))
        return sorted((p for p in out if not self.player(p).dropped), key=lambda p: seed.get(p, 10**9))

    # -----------------------------------------------------------------------------------------
    # final ranking
    # -----------------------------------------------------------------------------------------

    def ranking(self, standings: Standings | None = None) -> list[tuple[int, PlayerId]]:
        """(place, player) for everyone, best first; equal places are shared (knock-outs: the
        players out in the same round at the same placement). Swiss and round robin: standings
        (``standings``: already computed ones, to save computing them again)."""
        if self.format is not Format.SINGLE_ELIMINATION:
            return [(row.rank, row.player) for row in (standings or self.standings()).rows]
        seed = self._seed_of()
        # (stage reached, placement where they went out) for every player: stage = the round of
        # their last match, plus one if they won it (or went through from its table)
        reached: dict[PlayerId, tuple[int, int]] = {}
        third: dict[PlayerId, int] = {}
        for rnd in self.rounds:
            for m in rnd.matches:
                if m.label == "third place":
                    if m.result is not None:
                        for p in m.seats:
                            third[p] = m.placement_of(p) or 2
                    continue
                through = (
                    elimination.table_advancers(m, seed)
                    if self.uses_tables and m.result is not None and m.label != "final"
                    else []
                )
                for p in m.seats:
                    won = m.result is not None and m.winner() == p
                    advanced = p in through if self.uses_tables else won
                    place = 0 if advanced else (m.placement_of(p) or 0)
                    reached[p] = (rnd.number + (1 if advanced else 0), place)
        for entrant in self.players:
            reached.setdefault(entrant.id, (0, 0))

        def sort_key(pid: PlayerId) -> tuple[int, int, int, int]:
            stage, place = reached[pid]
            # a player who dropped ranks after everyone who went out at the same stage
            place = 99 if self.player(pid).dropped and place == 0 else place
            return (-stage, third.get(pid, 0), place, seed.get(pid, 10**9))

        order = sorted((p.id for p in self.players), key=sort_key)
        out: list[tuple[int, PlayerId]] = []
        for i, pid in enumerate(order):
            if i and sort_key(pid)[:3] == sort_key(order[i - 1])[:3]:
                out.append((out[-1][0], pid))
            else:
                out.append((i + 1, pid))
        return out


__all__ = [
    "DEFAULT_MISS_LIMIT",
    "MAX_TABLE_SWISS_ROUNDS",
    "SNAPSHOT_VERSION",
    "TournamentState",
    "max_swiss_rounds",
    "recommended_rounds",
]
