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

The class is split by responsibility: :class:`~bot.tournaments.tournament_state.TournamentState`
(the data, state queries, standings and ranking), :class:`~bot.tournaments.tournament_rounds.RoundMaker`
(round making per format) and :class:`~bot.tournaments.tournament_results.ResultKeeper` (results,
drops, no-shows) are mixins; this module adds creation and the JSON snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from bot.tournaments.errors import BadPlayers, BadRounds, BadSnapshot, TooFewPlayers, TournamentError
from bot.tournaments.model import Format, Player, PlayerId, Round, game_profile
from bot.tournaments.tournament_results import ResultKeeper
from bot.tournaments.tournament_rounds import RoundMaker
from bot.tournaments.tournament_state import (
    DEFAULT_MISS_LIMIT,
    MAX_TABLE_SWISS_ROUNDS,
    SNAPSHOT_VERSION,
    max_swiss_rounds,
    recommended_rounds,
)

_T = TypeVar("_T")


def _shallow(obj: _T) -> _T:
    """A shallow copy of a plain dataclass instance (its fields' values shared), a few times
    quicker than :func:`copy.copy`: a 64-player round robin's 2,016 matches copy in about 2 ms."""
    out = object.__new__(type(obj))
    out.__dict__.update(obj.__dict__)
    return out


class Tournament(RoundMaker, ResultKeeper):
    """A tournament (the fields are :class:`~bot.tournaments.tournament_state.TournamentState`'s)."""

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

    def copy(self) -> Tournament:
        """An independent copy, several times cheaper than reading the JSON again (the service
        keeps each tournament parsed and hands out copies). Players, rounds and matches (what
        results, drops and new rounds change) are copied; results, seats and settings are
        immutable and shared."""
        out = _shallow(self)
        out.players = [_shallow(p) for p in self.players]
        out.rounds = [Round(r.number, [_shallow(m) for m in r.matches]) for r in self.rounds]
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


__all__ = [
    "DEFAULT_MISS_LIMIT",
    "MAX_TABLE_SWISS_ROUNDS",
    "SNAPSHOT_VERSION",
    "Tournament",
    "max_swiss_rounds",
    "recommended_rounds",
]
