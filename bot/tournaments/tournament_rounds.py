"""Round making per format: Swiss pairs (a weighted matching) or Magic Duel tables, round robin,
two-player knock-out brackets and Magic Duel table knock-outs, and the seeding they rely on. A mixin
over :class:`~bot.tournaments.tournament_state.TournamentState`; results and drops are in
:mod:`bot.tournaments.tournament_results`. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments import elimination, round_robin, swiss, tables
from bot.tournaments.errors import TooFewPlayers, WrongState
from bot.tournaments.model import BYE_RESULT, WALKOVER_RESULT, Format, Match, PlayerId, ResultKind, Round
from bot.tournaments.standings import lots
from bot.tournaments.tournament_state import TournamentState, max_swiss_rounds, recommended_rounds


class RoundMaker(TournamentState):
    """Pairs (seats) the next round from the results and drops so far."""

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


__all__ = ["RoundMaker"]
