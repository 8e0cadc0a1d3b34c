"""Swiss pairing of two-player games by a maximum-weight matching (networkx).

One round is one call to :func:`pair_round`. Every pair of active players is an edge of a complete
graph (plus a ``BYE`` vertex when the count is odd) and ``networkx.max_weight_matching(G,
maxcardinality=True)`` picks the round. The weights are integers in five tiers, each tier worth
more than everything below it can add up to over a whole round, so the matching optimises them
lexicographically:

0. **At most one bye each**: a bye edge to a player who already had a bye lacks the top bonus,
   so a second bye is given only when every active player has had one.
1. **No repeats**: an edge between players who have met lacks the next bonus. The matching
   therefore has the fewest repeats possible: none whenever a pairing without one exists, which
   is exactly "no repeat pairing while avoidable".
2. **The bye** goes to the lowest-ranked player (in the current standings) who has not had one:
   the bye edge's bonus grows with the player's rank from the top.
3. **Equal scores**: ``(score_a - score_b) ** 2`` (capped at three wins apart) is subtracted, so
   players meet their own score group, a group with an odd count floats one player to the
   nearest group, and a float across two groups costs more than two floats across one.
4. **Seats**: a pair whose players both had the first seat more often (or both the second) costs
   a little (up to 2), so the seat assignment below can balance everyone.

Speed: the complete graph of 256 players has 32,640 edges. The matching is first solved on a
sparse graph: the players sorted by score (in seeded random order within a score), each linked
to the next 8 (then 32) of that list, so a score group's players can meet one another and the
groups next to it. A sparse result is kept only when it has no repeat and gives the bye where it
is due (all the complete graph could achieve in tiers 0 to 2); otherwise the complete graph
decides. In tiers 3 and 4 a sparse result can be slightly worse than the complete graph's (a
float across a group boundary, or a seat clash, that the window cannot avoid).

Within those tiers the matching is free; the vertices are inserted in a seeded random order, so
who meets whom inside a score group is random (as MTG pairs) yet the same for the same seed. The
weights take few distinct values on purpose: the blossom algorithm is several times faster so
(256 players in well under a second, see ``bench/tournament.py``). They are whole numbers passed
as floats: every sum stays far below 2**53, so the arithmetic is exact, and networkx skips the
optimality self-check it runs on int weights (``verifyOptimum``, which alone took 2 s at 256
players; the tests check the repeats and the bye against brute force instead).

Seats: in each pair the first seat goes to the player who has had it less often (firsts minus
seconds); if equal, to the one who was second in their latest match; if still equal, by a seeded
coin.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx

from bot.tournaments.model import PlayerId

BYE = -1
"""The bye vertex (player ids are Discord snowflakes, never negative)."""

SPARSE_WINDOWS = (8, 32)
"""How many following players in score order each player is linked to in the sparse tries."""


@dataclass
class SeatHistory:
    """How often a player had the first seat, the second, and which they had last (0 / 1)."""

    firsts: int = 0
    seconds: int = 0
    last: int | None = None


@dataclass
class SwissHistory:
    """What pairing needs to know of the rounds so far."""

    met: set[frozenset[PlayerId]] = field(default_factory=set)
    byes: dict[PlayerId, int] = field(default_factory=dict)
    seats: dict[PlayerId, SeatHistory] = field(default_factory=dict)

    def have_met(self, a: PlayerId, b: PlayerId) -> bool:
        return frozenset((a, b)) in self.met


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    """Seat order: (first seat, second seat); ordered by the better-ranked player of each pair."""
    bye: PlayerId | None
    repeats: int
    """Pairs that repeat an earlier meeting: 0 unless unavoidable."""
    second_bye: bool = False
    """The bye went to a player who had one (only when everyone had one)."""


def pair_round(
    ranked: Sequence[PlayerId],
    scores: Mapping[PlayerId, Fraction],
    history: SwissHistory,
    *,
    seed: int,
    round_number: int,
) -> SwissRound:
    """Pair ``ranked`` (active players, best first in the current standings) for one round."""
    players = list(ranked)
    n = len(players)
    if n < 2:
        return SwissRound((), players[0] if players else None, 0)
    rank = {p: i for i, p in enumerate(players)}
    odd = n % 2 == 1
    # scores in thirds of a match point: whole numbers (table points are thirds of integers)
    thirds = {p: int(round(scores[p] * 3)) for p in players}
    # tier 4 (seats): a pair whose players both want the same seat costs up to SEAT_CLASH
    lean = {p: _lean(history.seats.get(p)) for p in players}
    tier3 = (SEAT_CLASH + 1) * (n // 2 + 2)
    # tier 3 per edge is in [0, max_cost] x tier3; a round has at most n // 2 + 1 edges
    spread = max(thirds.values()) - min(thirds.values())
    max_cost = min(spread**2, GAP_CAP) * tier3 + SEAT_CLASH
    tier2 = (max_cost + 1) * (n // 2 + 2)
    tier1 = tier2 * (n + 2) + tier2
    tier0 = tier1 * (n // 2 + 2)
    # floats are exact (and spare networkx's int-only self-check) while every sum is below 2**53
    as_weight: type[float] | type[int] = float if tier0 * (n + 2) < 2**53 else int
    rng = random.Random(seed * 1_000_003 + round_number)
    order = players[:]
    rng.shuffle(order)
    # the players by score, in random order within a score: the sparse graphs' lanes
    lane = sorted(order, key=lambda p: -thirds[p])
    eligible = [p for p in players if history.byes.get(p, 0) == 0]
    due_bye = (eligible[-1] if eligible else players[-1]) if odd else None

    def edge(graph: nx.Graph, a: PlayerId, b: PlayerId) -> None:
        gap = min((thirds[a] - thirds[b]) ** 2, GAP_CAP)
        weight = max_cost - gap * tier3 - _clash(lean[a], lean[b])
        if not history.have_met(a, b):
            weight += tier1
        graph.add_edge(a, b, weight=as_weight(weight))

    def solve(window: int | None) -> tuple[dict[PlayerId, PlayerId], PlayerId | None, int] | None:
        """Match on the pairs at most ``window`` places apart in ``lane`` (None: every pair)."""
        graph = nx.Graph()
        graph.add_nodes_from(order)
        if window is None:
            for i, a in enumerate(order):
                for b in order[i + 1 :]:
                    edge(graph, a, b)
        else:
            for i, a in enumerate(lane):
                for b in lane[i + 1 : i + 1 + window]:
                    edge(graph, a, b)
        if odd:
            graph.add_node(BYE)
            for a in order:
                weight = max_cost + tier2 * rank[a]
                if history.byes.get(a, 0) == 0:
                    weight += tier0
                graph.add_edge(a, BYE, weight=as_weight(weight))
        matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
        if 2 * len(matching) != n + (1 if odd else 0):
            return None
        partner: dict[PlayerId, PlayerId] = {}
        bye: PlayerId | None = None
        repeats = 0
        for a, b in matching:
            if BYE in (a, b):
                bye = b if a == BYE else a
                continue
            repeats += 1 if history.have_met(a, b) else 0
            partner[a], partner[b] = b, a
        return partner, bye, repeats

    # First sparse graphs: each player linked to the next players in ``lane`` (their own score
    # group in random order, then the neighbouring groups). A result is taken only when it is as
    # good as the complete graph can be in tiers 0 to 2 (no repeat, the bye where it is due);
    # otherwise a wider window, and at last the complete graph, decides.
    solved = None
    for window in SPARSE_WINDOWS:
        if 2 * window >= n:
            break
        solved = solve(window)
        if solved is not None and solved[2] == 0 and solved[1] == due_bye:
            break
        solved = None
    if solved is None:
        solved = solve(None)
    assert solved is not None  # the complete graph always has a perfect matching
    partner, bye, repeats = solved
    pairs: list[tuple[PlayerId, PlayerId]] = []
    for a in order:
        b = partner.get(a)
        if b is not None and rank[a] < rank[b]:
            pairs.append(seat_pair(a, b, history.seats, rank, rng))
    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    second_bye = bye is not None and history.byes.get(bye, 0) > 0
    return SwissRound(tuple(pairs), bye, repeats, second_bye)


SEAT_CLASH = 2
GAP_CAP = 27**2
"""Score gaps beyond 9 match points (three wins, in thirds: 27) all cost the same: the weights
stay small (exact as floats) however long the event."""


def _lean(seats: SeatHistory | None) -> int:
    """Firsts minus seconds, capped at +-2: > 0 wants the second seat, < 0 the first."""
    if seats is None:
        return 0
    return max(-2, min(2, seats.firsts - seats.seconds))


def _clash(a: int, b: int) -> int:
    """How badly two players want the same seat (0: one of them is happy either way)."""
    if a > 0 and b > 0 or a < 0 and b < 0:
        return min(abs(a), abs(b), SEAT_CLASH)
    return 0


def seat_pair(
    a: PlayerId,
    b: PlayerId,
    seats: Mapping[PlayerId, SeatHistory],
    rank: Mapping[PlayerId, int],
    rng: random.Random,
) -> tuple[PlayerId, PlayerId]:
    """Order a pair: the first seat to whoever had it less often (see the module docstring)."""
    sa, sb = seats.get(a, SeatHistory()), seats.get(b, SeatHistory())
    da, db = sa.firsts - sa.seconds, sb.firsts - sb.seconds
    if da != db:
        return (a, b) if da < db else (b, a)
    if sa.last != sb.last and sa.last is not None and sb.last is not None:
        return (a, b) if sa.last == 1 else (b, a)
    if sa.last is None and sb.last == 0:
        return (a, b)
    if sb.last is None and sa.last == 0:
        return (b, a)
    first, second = sorted((a, b), key=lambda p: rank.get(p, 0))
    return (first, second) if rng.random() < 0.5 else (second, first)
