"""Points and standings: match points, the Magic: The Gathering tie-breaks, and a logged draw.

Order (Magic Tournament Rules 3.1; definitions in MTR Appendix C):

1. **Match points**: win 3, draw 1, loss 0; a bye (or a walkover when the opponent dropped) is a
   win, 3. A forfeit by time is a loss, 0, whatever the game's placement said.
2. **Opponents' match-win percentage (OMW)**: the mean of each opponent's match-win percentage,
   where a player's match-win percentage (MWP) is match points / (3 x matches played, byes
   included), floored at 0.33. Rounds with a bye contribute no opponent.
3. **Game-win percentage (GWP)**: game points / (3 x games played), floored at 0.33; game points
   are 3 per game won and 1 per game drawn. A match reported without game counts is one game; a
   bye counts as a 2-0 win (6 of 6 game points).
4. **Opponents' game-win percentage (OGW)**: the mean of the opponents' GWP.
5. **A random draw**: each player has a lot, a place in a permutation drawn from the tournament's
   seed; the lower lot ranks higher. The draw is fixed for the whole tournament (so standings do
   not reshuffle between rounds), deterministic for a seed, and every group of players it
   separates is reported in :attr:`Standings.draws` so the standings can be explained.

Magic Duel tables (3 to 8 seats) score by placement on the same scale: a seat gets 3 x (opponents
finished ahead of + 1/3 x opponents tied with) / (seats - 1). At a table of 4: 3, 2, 1, 0; of 3:
3, 1.5, 0; of 5: 3, 2.25, 1.5, 0.75, 0; with 2 seats it is exactly win 3 / draw 1 / loss 0. The
points are exact fractions (:class:`fractions.Fraction`), so equal totals compare equal. Every other
seat of a table is an opponent for OMW and OGW, and a table is one game (its game points equal its
match points).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot.tournaments.model import Match, Player, PlayerId, ResultKind, Round, game_profile
from rules.registry import find

FLOOR = Fraction(33, 100)
"""MTR Appendix C: "If this number is lower than 0.33, use 0.33 instead"."""

_WIN, _DRAW, _LOSS = Fraction(3), Fraction(1), Fraction(0)
BYE_GAME_POINTS = Fraction(6)
BYE_GAMES = 2


def match_points(match: Match) -> dict[PlayerId, Fraction]:
    """Match points of every seat of a finished match (empty while it has no result)."""
    result = match.result
    if result is None:
        return {}
    if match.bye or result.kind in (ResultKind.BYE, ResultKind.WALKOVER) or len(match.seats) == 1:
        return {match.seats[0]: Fraction(3)}
    k = len(match.seats)
    if k == 2:  # the common case, without fraction arithmetic
        (a, b), (pa, pb) = match.seats, result.placements
        ma = _WIN if pa < pb else _DRAW if pa == pb else _LOSS
        mb = _WIN if pb < pa else _DRAW if pa == pb else _LOSS
        return {
            a: _LOSS if a in result.timed_out else ma,
            b: _LOSS if b in result.timed_out else mb,
        }
    out: dict[PlayerId, Fraction] = {}
    for i, player in enumerate(match.seats):
        if player in result.timed_out:
            out[player] = Fraction(0)
            continue
        mine = result.placements[i]
        ahead = sum(1 for j, p in enumerate(result.placements) if j != i and p > mine)
        tied = sum(1 for j, p in enumerate(result.placements) if j != i and p == mine)
        out[player] = Fraction(3) * (ahead + Fraction(tied, 3)) / (k - 1)
    return out


def game_points(match: Match) -> dict[PlayerId, tuple[Fraction, int]]:
    """(game points, games played) of every seat of a finished match."""
    result = match.result
    if result is None:
        return {}
    if match.bye or len(match.seats) == 1:
        return {match.seats[0]: (BYE_GAME_POINTS, BYE_GAMES)}
    if result.games is not None:
        played = sum(result.games) + result.game_draws
        return {
            p: (Fraction(3 * won + result.game_draws), played) for p, won in zip(match.seats, result.games, strict=True)
        }
    return {p: (mp, 1) for p, mp in match_points(match).items()}


@dataclass
class Record:
    """One player's accumulated record (exact fractions)."""

    player: PlayerId
    match_points: Fraction = Fraction(0)
    matches: int = 0
    game_points: Fraction = Fraction(0)
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    opponents: list[PlayerId] = field(default_factory=list)

    @property
    def mwp(self) -> Fraction:
        if self.matches == 0:
            return FLOOR
        return max(FLOOR, self.match_points / (3 * self.matches))

    @property
    def gwp(self) -> Fraction:
        if self.games == 0:
            return FLOOR
        return max(FLOOR, self.game_points / (3 * self.games))


def records(players: Iterable[Player], rounds: Sequence[Round]) -> dict[PlayerId, Record]:
    """Every player's record over the finished matches of ``rounds``."""
    out = {p.id: Record(p.id) for p in players}
    for rnd in rounds:
        for match in rnd.matches:
            if match.result is None:
                continue
            mps = match_points(match)
            gps = game_points(match)
            solo = len(match.seats) == 1
            for player in match.seats:
                rec = out.setdefault(player, Record(player))
                mp = mps[player]
                rec.match_points += mp
                rec.matches += 1
                gp, games = gps[player]
                rec.game_points += gp
                rec.games += games
                if solo:
                    rec.byes += 1
                    continue
                rec.opponents.extend(p for p in match.seats if p != player)
                if mp == 3:
                    rec.wins += 1
                elif mp == 0:
                    rec.losses += 1
                else:
                    rec.draws += 1
    return out


@dataclass(frozen=True)
class Standing:
    """One row of the standings. Percentages are exact; :meth:`to_dict` rounds them for display."""

    rank: int
    player: PlayerId
    match_points: Fraction
    wins: int
    losses: int
    draws: int
    byes: int
    omw: Fraction
    gwp: Fraction
    ogw: Fraction
    lot: int
    by_lot: bool
    dropped: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "match_points": float(self.match_points),
            "record": f"{self.wins}-{self.losses}-{self.draws}",
            "byes": self.byes,
            "omw": round(float(self.omw), 4),
            "gwp": round(float(self.gwp), 4),
            "ogw": round(float(self.ogw), 4),
            "lot": self.lot,
            "by_lot": self.by_lot,
            "dropped": self.dropped,
        }


@dataclass(frozen=True)
class LotDraw:
    """Players equal on every tie-break, ordered by their lots (the logged random draw)."""

    players: tuple[PlayerId, ...]
    lots: tuple[int, ...]

    def explain(self) -> str:
        who = ", ".join(f"{p} (lot {lot})" for p, lot in zip(self.players, self.lots, strict=True))
        return f"tied on every tie-break, ordered by the random draw: {who}"


@dataclass(frozen=True)
class Standings:
    rows: tuple[Standing, ...]
    draws: tuple[LotDraw, ...]

    def order(self) -> list[PlayerId]:
        return [row.player for row in self.rows]

    def row(self, player: PlayerId) -> Standing:
        for row in self.rows:
            if row.player == player:
                return row
        raise KeyError(player)

    @property
    def played(self) -> bool:
        """Whether anyone has a result yet (a game finished, or a bye): before that there are
        no places to show, everyone is on 0 points."""
        return any(r.wins + r.losses + r.draws + r.byes for r in self.rows)

    def places(self) -> dict[PlayerId, str]:
        """Each player's place as players are shown it: "1", "2", ...; players tied on every
        tie-break share the place of the first of them, marked "=2" (the random draw orders the
        rows and picks the champion, but it is luck, not a better result); every place "" while
        nobody has a result (:attr:`played`)."""
        if not self.played:
            return {row.player: "" for row in self.rows}
        shared = {p: d.players[0] for d in self.draws for p in d.players}
        first = {row.player: row.rank for row in self.rows}
        return {
            row.player: f"={first[shared[row.player]]}" if row.player in shared else str(row.rank) for row in self.rows
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [r.to_dict() for r in self.rows],
            "draws": [{"players": list(d.players), "lots": list(d.lots)} for d in self.draws],
        }


@dataclass(frozen=True)
class TieBreakName:
    """A tie-break as players read it: a short column heading and what it means, in plain words."""

    short: str
    words: str


def score_word(game: str | None) -> str | None:
    """What one game of a match's own score is called (the game's tournament profile's
    ``score_word``: Wizards Cup's "duel"), None for a game whose match is one game."""
    if game is None or find(game) is None:
        return None
    return game_profile(game).score_word


def tiebreak_names(tables: bool = False, game: str | None = None) -> tuple[TieBreakName, TieBreakName, TieBreakName]:
    """The three tie-breaks after match points (OMW, GWP, OGW), named for what they count here.

    MTG's "games" are what a game reports of its own score (:func:`score_word`: Wizards Cup's
    duels won); the other games report none, so a match is one game and the "game-win
    percentage" is the player's own win rate over their matches. A bye counts as two games won;
    the opponents' percentages are averages over the players met; every percentage counts as at
    least 33%. At Magic Duel tables a player's points are their share of the table (3 for first,
    0 for last), so the words say points, not wins."""
    unit = score_word(game)
    if tables:
        return (
            TieBreakName("Opp.", "how well your opponents did (their average share of the points)"),
            TieBreakName("Own", "your own share of the points (a bye counts as two tables won)"),
            TieBreakName("Opp. own", "your opponents' average of that"),
        )
    if unit is not None:
        return (
            TieBreakName("Opp.", "how well your opponents did (their average win rate)"),
            TieBreakName(
                f"{unit.title()}s",
                f"the share of {unit}s you won in your matches (a bye counts as two {unit}s won)",
            ),
            TieBreakName(f"Opp. {unit}s", "your opponents' average of that"),
        )
    return (
        TieBreakName("Opp.", "how well your opponents did (their average win rate)"),
        TieBreakName("Won", "your own win rate (a bye counts as two wins)"),
        TieBreakName("Opp. won", "your opponents' average of that"),
    )


def tiebreak_legend(tables: bool = False, game: str | None = None) -> str:
    """The tie-break order in plain words, one line: what decides between players on equal points."""
    a, b, c = tiebreak_names(tables, game)
    return (
        f"Equal points? Then {a.short}: {a.words}; then {b.short}: {b.words}; then {c.short}: {c.words}; "
        "then a random draw made at the start. Percentages count as at least 33%."
    )


def lots(player_ids: Iterable[PlayerId], seed: int) -> dict[PlayerId, int]:
    """Each player's lot (0 = best), a seeded permutation of the sorted ids, fixed for a tournament.

    ``random.Random`` with an int seed gives the same sequence on every platform and Python 3
    version that keeps the Mersenne Twister, so the draw is reproducible from the stored seed.
    """
    ids = sorted(set(player_ids))
    rng = random.Random(seed * 7919 + 104729)
    rng.shuffle(ids)
    return {p: i for i, p in enumerate(ids)}


def tiebreak_key(
    rec: Record, mwp: Mapping[PlayerId, Fraction], gwp: Mapping[PlayerId, Fraction]
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(match points, OMW, GWP, OGW); ``mwp`` / ``gwp``: every player's percentages."""
    opp = [o for o in rec.opponents if o in mwp]
    omw = sum((mwp[o] for o in opp), Fraction(0)) / len(opp) if opp else Fraction(0)
    ogw = sum((gwp[o] for o in opp), Fraction(0)) / len(opp) if opp else Fraction(0)
    return (rec.match_points, omw, gwp[rec.player], ogw)


def compute_standings(players: Sequence[Player], rounds: Sequence[Round], seed: int) -> Standings:
    """Standings over every finished match, in the MTG tie-break order, then the seeded draw."""
    recs = records(players, rounds)
    lot = lots((p.id for p in players), seed)
    mwp = {pid: rec.mwp for pid, rec in recs.items()}
    gwp = {pid: rec.gwp for pid, rec in recs.items()}
    keys = {p.id: tiebreak_key(recs[p.id], mwp, gwp) for p in players}
    order = sorted((p.id for p in players), key=lambda pid: (tuple(-x for x in keys[pid]), lot[pid]))
    dropped = {p.id for p in players if p.dropped}
    groups: dict[tuple[Fraction, ...], list[PlayerId]] = {}
    for pid in order:
        groups.setdefault(keys[pid], []).append(pid)
    draws = tuple(LotDraw(tuple(g), tuple(lot[p] for p in g)) for g in groups.values() if len(g) > 1)
    tied = {p for d in draws for p in d.players}
    rows = []
    for rank, pid in enumerate(order, start=1):
        rec = recs[pid]
        mp, omw, own_gwp, ogw = keys[pid]
        rows.append(
            Standing(
                rank=rank,
                player=pid,
                match_points=mp,
                wins=rec.wins,
                losses=rec.losses,
                draws=rec.draws,
                byes=rec.byes,
                omw=omw,
                gwp=own_gwp,
                ogw=ogw,
                lot=lot[pid],
                by_lot=pid in tied,
                dropped=pid in dropped,
            )
        )
    return Standings(tuple(rows), draws)
