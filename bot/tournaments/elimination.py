"""Single elimination: seeding, the bracket, byes, advancing winners; and Magic Duel table knock-outs.

**Two-player games.** Players are seeded by rating (highest = seed 1; equal ratings by the
tournament's lots). The bracket has ``size`` = the next power of two slots in the standard order
(:func:`bracket_order`: 1 v size, and seeds 1 and 2 can only meet in the final, 1-4 in the
semi-finals, ...). Seeds above the number of players are byes, so the byes fall in round 1 to the
top seeds (seed s meets seed size + 1 - s; with more than size/2 players no match has two byes).
The match at slot k of round r + 1 is fed by slots 2k and 2k + 1 of round r. With the third-place
option the two semi-final losers meet in the last round (``label="third place"``); if a
semi-final had no loser (a walkover), the other semi-final's loser is third without playing.
A match needs a winner: a draw is refused (the service replays the game); if both players time
out, the better seed goes through (adjudicated).

**Magic Duel tables** (ruling, docs/tournaments.md): while more than 5 players remain, they sit at
tables of 3 to 8 (as many of 4 as possible, :func:`bot.tournaments.tables.table_sizes`), dealt by
seed in snake order so the top seeds are spread; the top half of each table (rounded down: 1 of 3,
2 of 4 or 5) goes through, ties at the cut by seed, timed-out players never. With 2 to 5 players
left they play one final table; its winner is the champion (a shared first place: the better
seed). There are no byes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.tournaments.model import Match, PlayerId, Round
from bot.tournaments.tables import table_sizes

FINAL_TABLE_MAX = 5


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return max(size, 2)


def bracket_order(size: int) -> list[int]:
    """Seeds in slot order for a bracket of ``size`` (a power of two): 8 -> 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def rounds_needed(n: int) -> int:
    size = bracket_size(n)
    return size.bit_length() - 1


def round_name(round_number: int, total_rounds: int) -> str:
    left = total_rounds - round_number
    if left == 0:
        return "Final"
    if left == 1:
        return "Semi-finals"
    if left == 2:
        return "Quarter-finals"
    return f"Round {round_number}"


def first_round_pairs(seeded: Sequence[PlayerId]) -> list[tuple[int, PlayerId, PlayerId | None]]:
    """Round 1 as (slot, better seed's player, other player or None for a bye)."""
    n = len(seeded)
    order = bracket_order(bracket_size(n))
    out: list[tuple[int, PlayerId, PlayerId | None]] = []
    for slot in range(len(order) // 2):
        a, b = order[2 * slot], order[2 * slot + 1]
        hi, lo = min(a, b), max(a, b)
        out.append((slot, seeded[hi - 1], seeded[lo - 1] if lo <= n else None))
    return out


def loser(match: Match) -> PlayerId | None:
    if match.result is None or len(match.seats) < 2:
        return None
    win = match.winner()
    return next((p for p in match.seats if p != win), None)


# ---------------------------------------------------------------------------------------------
# the bracket the presentation draws
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketMatch:
    slot: int
    seeds: tuple[int | None, int | None]
    players: tuple[PlayerId | None, PlayerId | None]
    """In seat order once the match exists; before that, the feeder slots' winners (top, bottom)."""
    winner: PlayerId | None
    match_id: str | None
    bye: bool = False
    label: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "slot": self.slot,
            "seeds": list(self.seeds),
            "players": list(self.players),
            "winner": self.winner,
            "match_id": self.match_id,
            "bye": self.bye,
            "label": self.label,
        }


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class Bracket:
    """Rounds of matches with seeds, players and winners, for drawing; ``third_place`` apart."""

    size: int
    rounds: tuple[BracketRound, ...]
    third_place: BracketMatch | None
    champion: PlayerId | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "rounds": [
                {"number": r.number, "name": r.name, "matches": [m.to_dict() for m in r.matches]} for r in self.rounds
            ],
            "third_place": None if self.third_place is None else self.third_place.to_dict(),
            "champion": self.champion,
        }


def build_bracket(seeded: Sequence[PlayerId], rounds: Sequence[Round], *, third_place: bool) -> Bracket:
    """The whole bracket, future rounds included (players known so far filled in)."""
    n = len(seeded)
    size = bracket_size(n)
    total = rounds_needed(n)
    seed_of = {p: i + 1 for i, p in enumerate(seeded)}
    by_slot: dict[tuple[int, int], Match] = {}
    third: Match | None = None
    for rnd in rounds:
        for m in rnd.matches:
            if m.label == "third place":
                third = m
            elif m.slot is not None:
                by_slot[(rnd.number, m.slot)] = m
    out_rounds: list[BracketRound] = []
    winners: dict[int, PlayerId | None] = {}
    for r in range(1, total + 1):
        matches: list[BracketMatch] = []
        new_winners: dict[int, PlayerId | None] = {}
        for slot in range(size >> r):
            existing = by_slot.get((r, slot))
            if existing is not None:
                players: tuple[PlayerId | None, PlayerId | None] = (
                    existing.seats[0],
                    existing.seats[1] if len(existing.seats) > 1 else None,
                )
                win = existing.winner()
                bm = BracketMatch(
                    slot,
                    (
                        seed_of.get(players[0]) if players[0] is not None else None,
                        seed_of.get(players[1]) if players[1] is not None else None,
                    ),
                    players,
                    win,
                    existing.id,
                    existing.bye,
                    existing.label,
                )
            else:
                if r == 1:
                    top, bottom = None, None
                else:
                    top, bottom = winners.get(2 * slot), winners.get(2 * slot + 1)
                players = (top, bottom)
                bm = BracketMatch(
                    slot,
                    (
                        seed_of.get(top) if top is not None else None,
                        seed_of.get(bottom) if bottom is not None else None,
                    ),
                    players,
                    None,
                    None,
                    label="final" if r == total else "",
                )
            new_winners[slot] = bm.winner
            matches.append(bm)
        winners = new_winners
        out_rounds.append(BracketRound(r, round_name(r, total), tuple(matches)))
    third_bm: BracketMatch | None = None
    if third is not None:
        a = third.seats[0]
        b = third.seats[1] if len(third.seats) > 1 else None
        third_bm = BracketMatch(
            1,
            (seed_of.get(a), seed_of.get(b) if b is not None else None),
            (a, b),
            third.winner(),
            third.id,
            third.bye,
            third.label,
        )
    elif third_place and total >= 2:
        semis = [by_slot.get((total - 1, s)) for s in (0, 1)]
        losers = tuple(loser(m) if m is not None else None for m in semis)
        third_bm = BracketMatch(
            1,
            tuple(seed_of.get(p) if p is not None else None for p in losers),  # type: ignore[arg-type]
            (losers[0], losers[1]),
            None,
            None,
            label="third place",
        )
    champion = out_rounds[-1].matches[0].winner if out_rounds else None
    return Bracket(size, tuple(out_rounds), third_bm, champion)


# ---------------------------------------------------------------------------------------------
# Magic Duel table knock-out
# ---------------------------------------------------------------------------------------------


def deal_tables(seeded: Sequence[PlayerId]) -> list[list[PlayerId]]:
    """Tables for a knock-out round: one final table for 2 to 5 players, else snake by seed."""
    n = len(seeded)
    if n <= FINAL_TABLE_MAX:
        return [list(seeded)]
    sizes = table_sizes(n)
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    t, step = 0, 1
    for p in seeded:
        while len(tables[t]) >= sizes[t]:
            t, step = _next_table(t, step, len(sizes))
        tables[t].append(p)
        t, step = _next_table(t, step, len(sizes))
    return tables


def _next_table(t: int, step: int, count: int) -> tuple[int, int]:
    nxt = t + step
    if 0 <= nxt < count:
        return nxt, step
    return t, -step  # snake: the end table gets two in a row


def table_advancers(match: Match, seed_of: Mapping[PlayerId, int]) -> list[PlayerId]:
    """Who goes through from a finished knock-out table: the top half (rounded down, at least 1),
    by placement then seed; timed-out players never go through (unless no one else can)."""
    assert match.result is not None
    result = match.result
    keep = max(1, len(match.seats) // 2)
    ranked = sorted(
        match.seats,
        key=lambda p: (
            p in result.timed_out,
            result.placements[match.seats.index(p)],
            seed_of.get(p, 10**9),
        ),
    )
    present = [p for p in ranked if p not in result.timed_out]
    return (present or ranked)[:keep]
