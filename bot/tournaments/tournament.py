"""The tournament: creation and validation, rounds, results, drops, standings, JSON.

:class:`Tournament` is the one object the service stores (``to_json`` / ``from_json``) and asks::

    t = Tournament.create("firewall", "swiss", [Player(1, 1500), Player(2, 1400), Player(3)], seed=7)
    rnd = t.next_round()                    # pairs round 1 (byes come with their result)
    t.report_win(rnd.matches[0].id, winner=1, games=(2, 1))
    t.drop(3)                               # never paired again; a pending match: a walkover
    t.next_round()                          # refused until every match of the round has a result
    t.standings()                           # MTG tie-breaks, then the seeded draw (logged)
    t.bracket()                             # single elimination: rounds of matches for drawing

Formats per game (rulings in docs/tournaments.md): every game plays every format. Two-player games
(Wizards Cup, Firewall, Arena) play pairings in all three. Magic Duel plays Swiss as tables of 3
to 8 (:mod:`bot.tournaments.tables`), single elimination as table knock-outs (top half of each
table advances, :mod:`bot.tournaments.elimination`), and round robin as two-player Magic Duel
matches (the game allows 2 seats; "everyone meets everyone once" is a property of pairs).

Nothing here knows Discord, the database or asyncio; every refusal is a
:class:`~bot.tournaments.errors.TournamentError` raised before anything changes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.tournaments import elimination, round_robin, swiss, tables
from bot.tournaments.errors import (
    BadPlayers,
    BadResult,
    BadRounds,
    BadSnapshot,
    TooFewPlayers,
    TournamentError,
    WrongState,
)
from bot.tournaments.model import (
    BYE_RESULT,
    WALKOVER_RESULT,
    Format,
    GameProfile,
    Match,
    Player,
    PlayerId,
    Result,
    ResultKind,
    Round,
    game_profile,
)
from bot.tournaments.standings import Standings, compute_standings, lots

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
class Tournament:
    game: str
    format: Format
    players: list[Player]
    rounds_planned: int
    seed: int = 0
    third_place: bool = False
    miss_limit: int = DEFAULT_MISS_LIMIT
    rounds: list[Round] = field(default_factory=list)

    # -----------------------------------------------------------------------------------------
    # creation
    # -----------------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game: str,
        format: str | Format,
        players: Iterable[Player | PlayerId],
        *,
        rounds: int | None = None,
        seed: int = 0,
        third_place: bool = False,
        miss_limit: int = DEFAULT_MISS_LIMIT,
    ) -> Tournament:
        """A tournament ready for its first round; every argument validated (typed errors)."""
        fmt = Format.parse(format)
        profile = game_profile(game)
        roster = [p if isinstance(p, Player) else Player(int(p)) for p in players]
        ids = [p.id for p in roster]
        if len(set(ids)) != len(ids):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            raise BadPlayers(f"Players may enter only once: {', '.join(map(str, dupes))} entered twice.")
        n = len(roster)
        if n < 2:
            raise TooFewPlayers(f"A {fmt.value.replace('_', ' ')} tournament needs at least 2 players; it has {n}.")
        if not isinstance(seed, int):
            raise TournamentError(f"The seed must be a whole number, not {seed!r}.")
        if not isinstance(miss_limit, int) or miss_limit < 1:
            raise TournamentError(f"Missed matches before a drop must be at least 1, not {miss_limit!r}.")
        uses_tables = profile.tables and fmt is not Format.ROUND_ROBIN
        if third_place and fmt is not Format.SINGLE_ELIMINATION:
            raise TournamentError("A third-place match exists only in single elimination.")
        if third_place and uses_tables:
            raise TournamentError(
                "Magic Duel knock-outs end with one final table that places everyone: no third-place match."
            )
        needed = recommended_rounds(n, fmt, game)
        if fmt is Format.SWISS:
            most = max_swiss_rounds(n, tables_=uses_tables)
            planned = needed if rounds is None else rounds
            if not isinstance(planned, int) or not 1 <= planned <= most:
                raise BadRounds(f"Swiss with {n} players allows 1 to {most} rounds, not {rounds!r}.")
        else:
            if rounds is not None and rounds != needed:
                raise BadRounds(
                    f"A {fmt.value.replace('_', ' ')} of {n} players has {needed} rounds; "
                    f"leave the number of rounds out (asked for {rounds!r})."
                )
            planned = needed
        t = cls(game, fmt, roster, planned, seed, third_place, miss_limit)
        t._assign_seeds()
        return t

    def _assign_seeds(self) -> None:
        """Seeds 1..n among the players still in: rating (high first), equal ratings by lot."""
        lot = lots((p.id for p in self.players), self.seed)
        ordered = sorted((p for p in self.players if not p.dropped), key=lambda p: (-p.rating, lot[p.id]))
        for p in self.players:
            p.seed = None
        for i, p in enumerate(ordered, start=1):
            p.seed = i

    def _replan(self, n: int) -> None:
        """At the start: players who dropped during sign-up change the rounds of a round robin or
        a knock-out, and may lower the most a Swiss can play."""
        if self.format is Format.SWISS:
            self.rounds_planned = min(self.rounds_planned, max_swiss_rounds(n, tables_=self.uses_tables))
        else:
            self.rounds_planned = recommended_rounds(n, self.format, self.game)

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
        for rnd in self.rounds:
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

    # -----------------------------------------------------------------------------------------
    # rounds
    # -----------------------------------------------------------------------------------------

    def next_round(self) -> Round:
        """Pair (seat) the next round. Byes and walkovers come with their result."""
        if self.finished:
            raise WrongState("The tournament is over: there is no next round.")
        current = self.current_round
        if current is not None and not current.complete:
            left = sum(1 for m in current.matches if not m.finished)
            raise WrongState(
                f"Round {current.number} is not over: "
                f"{left} match{'es are' if left != 1 else ' is'} still being played."
            )
        if not self.rounds:
            if len(self.active()) < 2:
                raise TooFewPlayers("Fewer than 2 players are left: the tournament cannot start.")
            self._assign_seeds()
            self._replan(len(self.active()))
        number = len(self.rounds) + 1
        if self.format is Format.SWISS:
            matches = self._swiss_tables(number) if self.uses_tables else self._swiss_pairs(number)
        elif self.format is Format.ROUND_ROBIN:
            matches = self._round_robin(number)
        elif self.uses_tables:
            matches = self._knockout_tables(number)
        else:
            matches = self._knockout_pairs(number)
        rnd = Round(number, matches)
        self.rounds.append(rnd)
        return rnd

    def _numbered(self, number: int, seats: Sequence[tuple[tuple[PlayerId, ...], bool]]) -> list[Match]:
        out = []
        for k, (seats_, bye) in enumerate(seats, start=1):
            out.append(Match(f"R{number}-M{k}", number, seats_, bye=bye, result=BYE_RESULT if bye else None))
        return out

    def standings(self) -> Standings:
        """Standings over the finished matches: match points, OMW, GWP, OGW, the seeded draw."""
        return compute_standings(self.players, self.rounds, self.seed)

    def _swiss_history(self) -> swiss.SwissHistory:
        hist = swiss.SwissHistory()
        for rnd in self.rounds:
            for m in rnd.matches:
                if len(m.seats) == 1:
                    if m.result is not None and m.result.kind is ResultKind.BYE:
                        hist.byes[m.seats[0]] = hist.byes.get(m.seats[0], 0) + 1
                    continue
                for i, a in enumerate(m.seats):
                    for b in m.seats[i + 1 :]:
                        hist.met.add(frozenset((a, b)))
                if len(m.seats) == 2:
                    first, second = m.seats
                    s1 = hist.seats.setdefault(first, swiss.SeatHistory())
                    s2 = hist.seats.setdefault(second, swiss.SeatHistory())
                    s1.firsts += 1
                    s1.last = 0
                    s2.seconds += 1
                    s2.last = 1
        return hist

    def _swiss_pairs(self, number: int) -> list[Match]:
        standing = self.standings()
        active = {p.id for p in self.active()}
        ranked = [pid for pid in standing.order() if pid in active]
        scores = {row.player: row.match_points for row in standing.rows}
        result = swiss.pair_round(ranked, scores, self._swiss_history(), seed=self.seed, round_number=number)
        seats: list[tuple[tuple[PlayerId, ...], bool]] = [(pair, False) for pair in result.pairs]
        if result.bye is not None:
            seats.append(((result.bye,), True))
        return self._numbered(number, seats)

    def _met_counts(self) -> dict[PlayerId, dict[PlayerId, int]]:
        met: dict[PlayerId, dict[PlayerId, int]] = {}
        for rnd in self.rounds:
            for m in rnd.matches:
                for a in m.seats:
                    for b in m.seats:
                        if a != b:
                            row = met.setdefault(a, {})
                            row[b] = row.get(b, 0) + 1
        return met

    def _leads(self) -> dict[PlayerId, int]:
        leads: dict[PlayerId, int] = {}
        for rnd in self.rounds:
            for m in rnd.matches:
                if len(m.seats) > 1:
                    leads[m.seats[0]] = leads.get(m.seats[0], 0) + 1
        return leads

    def _swiss_tables(self, number: int) -> list[Match]:
        active = {p.id for p in self.active()}
        ranked = [pid for pid in self.standings().order() if pid in active]
        seated = tables.seat_tables(ranked, self._met_counts(), self._leads())
        return self._numbered(number, [(table, False) for table in seated])

    def _round_robin(self, number: int) -> list[Match]:
        order = [p.id for p in sorted(self.players, key=lambda p: p.seed or 10**9) if p.seed is not None]
        pairs = round_robin.schedule(order)[number - 1]
        out: list[Match] = []
        for a, b in pairs:
            k = len(out) + 1
            mid = f"R{number}-M{k}"
            if b is None:
                if not self.player(a).dropped:
                    out.append(Match(mid, number, (a,), bye=True, result=BYE_RESULT))
                continue
            da, db = self.player(a).dropped, self.player(b).dropped
            if da and db:
                continue
            if da or db:
                out.append(Match(mid, number, (b if da else a,), bye=True, result=WALKOVER_RESULT))
            else:
                out.append(Match(mid, number, (a, b)))
        return out

    # single elimination, two-player ----------------------------------------------------------

    def _seed_of(self) -> dict[PlayerId, int]:
        return {p.id: p.seed for p in self.players if p.seed is not None}

    def _seat_two(self, a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId]:
        """Seat order for a knock-out pair: fewer first seats first, then the better seed."""
        hist = self._swiss_history().seats
        seed = self._seed_of()
        sa, sb = hist.get(a, swiss.SeatHistory()), hist.get(b, swiss.SeatHistory())
        key_a = (sa.firsts - sa.seconds, seed.get(a, 10**9))
        key_b = (sb.firsts - sb.seconds, seed.get(b, 10**9))
        return (a, b) if key_a <= key_b else (b, a)

    def _knockout_match(
        self, number: int, k: int, slot: int | None, a: PlayerId, b: PlayerId | None, label: str
    ) -> Match:
        mid = f"R{number}-M{k}"
        if b is None:
            return Match(mid, number, (a,), bye=True, result=BYE_RESULT, slot=slot, label=label)
        da, db = self.player(a).dropped, self.player(b).dropped
        if da or db:
            seed = self._seed_of()
            better = a if seed.get(a, 10**9) <= seed.get(b, 10**9) else b
            stay = better if da and db else (b if da else a)
            return Match(mid, number, (stay,), bye=True, result=WALKOVER_RESULT, slot=slot, label=label)
        return Match(mid, number, self._seat_two(a, b), slot=slot, label=label)

    def _knockout_pairs(self, number: int) -> list[Match]:
        total = self.rounds_planned
        label = "final" if number == total else ""
        if number == 1:
            seeded = self.seeded()
            return [
                self._knockout_match(number, k, slot, a, b, label)
                for k, (slot, a, b) in enumerate(elimination.first_round_pairs(seeded), start=1)
            ]
        prev = {m.slot: m for m in self.rounds[-1].matches if m.slot is not None}
        out: list[Match] = []
        for slot in range(len(prev) // 2):
            wa, wb = prev[2 * slot].winner(), prev[2 * slot + 1].winner()
            assert wa is not None and wb is not None
            out.append(self._knockout_match(number, len(out) + 1, slot, wa, wb, label))
        if number == total and self.third_place:
            losers = [elimination.loser(prev[s]) for s in (0, 1)]
            if losers[0] is not None and losers[1] is not None:
                out.append(self._knockout_match(number, len(out) + 1, None, losers[0], losers[1], "third place"))
        return out

    # single elimination, Magic Duel tables -----------------------------------------------------

    def _table_advancers(self) -> list[PlayerId]:
        seed = self._seed_of()
        out: list[PlayerId] = []
        for m in self.rounds[-1].matches:
            if m.result is not None:
                out.extend(elimination.table_advancers(m, seed))
        return sorted((p for p in out if not self.player(p).dropped), key=lambda p: seed.get(p, 10**9))

    def _knockout_tables(self, number: int) -> list[Match]:
        seeded = self.seeded() if number == 1 else self._table_advancers()
        dealt = elimination.deal_tables(seeded)
        final = len(dealt) == 1
        leads, seed = self._leads(), self._seed_of()
        out = []
        for k, table in enumerate(dealt, start=1):
            seats = tuple(sorted(table, key=lambda p: (leads.get(p, 0), seed.get(p, 10**9))))
            out.append(Match(f"R{number}-M{k}", number, seats, label="final" if final else ""))
        return out

    def bracket(self) -> elimination.Bracket:
        """The two-player single-elimination bracket (rounds of matches with seeds and winners)."""
        if self.format is not Format.SINGLE_ELIMINATION or self.uses_tables:
            raise WrongState("Only a two-player single elimination has a bracket.")
        if self.rounds:
            seeded = [pid for pid, _ in sorted(self._seed_of().items(), key=lambda kv: kv[1])]
        else:
            seeded = self.seeded()
        return elimination.build_bracket(seeded, self.rounds, third_place=self.third_place)

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
            raise BadResult("Name the player(s) who ran out of time.")
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

    # -----------------------------------------------------------------------------------------
    # final ranking
    # -----------------------------------------------------------------------------------------

    def ranking(self) -> list[tuple[int, PlayerId]]:
        """(place, player) for everyone, best first; equal places are shared (knock-outs: the
        players out in the same round at the same placement). Swiss and round robin: standings."""
        if self.format is not Format.SINGLE_ELIMINATION:
            return [(row.rank, row.player) for row in self.standings().rows]
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

    # -----------------------------------------------------------------------------------------
    # JSON
    # -----------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": SNAPSHOT_VERSION,
            "game": self.game,
            "format": self.format.value,
            "rounds_planned": self.rounds_planned,
            "seed": self.seed,
            "third_place": self.third_place,
            "miss_limit": self.miss_limit,
            "players": [p.to_dict() for p in self.players],
            "rounds": [r.to_dict() for r in self.rounds],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        try:
            game_profile(str(data["game"]))
            return cls(
                game=str(data["game"]),
                format=Format.parse(str(data["format"])),
                players=[Player.from_dict(p) for p in data["players"]],
                rounds_planned=int(data["rounds_planned"]),
                seed=int(data.get("seed", 0)),
                third_place=bool(data.get("third_place", False)),
                miss_limit=int(data.get("miss_limit", DEFAULT_MISS_LIMIT)),
                rounds=[Round.from_dict(r) for r in data.get("rounds", [])],
            )
        except TournamentError as exc:
            raise BadSnapshot(f"A stored tournament cannot be read: {exc}") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise BadSnapshot(f"A stored tournament cannot be read: {exc!r}") from exc

    @classmethod
    def from_json(cls, text: str | bytes) -> Tournament:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise BadSnapshot(f"A stored tournament is not JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise BadSnapshot("A stored tournament is a JSON object.")
        return cls.from_dict(data)
