"""The tournament data model: players, matches (pairings and tables), results, rounds.

Everything here is plain data (dataclasses) with an explicit JSON form, so a tournament survives a
restart: :meth:`Tournament.to_json` / :meth:`Tournament.from_json` in :mod:`bot.tournaments.tournament`
build on the ``to_dict`` / ``from_dict`` pairs below.

JSON stability: every object is written with named keys (never positional tuples of unknown
meaning), enums by their string value, and the tournament carries ``"version": 1``. Readers ignore
keys they do not know and give every key added later a default, so a newer writer's snapshot still
reads and an older one reads in a newer version.

Seats: a match's ``seats`` are player ids in seat order. Seat 0 is the first player ("colour" in
chess terms: Player 1 / the challenger in the four games), so the order matters and the pairing
modules balance it. A bye is a match with one seat and ``bye=True``; its result is set when it is
made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.tournaments.errors import BadSnapshot, UnknownFormat, UnknownGame
from rules.registry import find, game_class, game_slugs

PlayerId = int
"""A Discord user id (snowflake); any int works for tests and computer players."""


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    SINGLE_ELIMINATION = "single_elimination"

    @classmethod
    def parse(cls, value: str | Format) -> Format:
        if isinstance(value, Format):
            return value
        text = str(value).strip().lower().replace("-", "_").replace(" ", "_")
        aliases = {"elimination": "single_elimination", "knockout": "single_elimination", "rr": "round_robin"}
        text = aliases.get(text, text)
        try:
            return cls(text)
        except ValueError:
            known = ", ".join(f.value for f in cls)
            raise UnknownFormat(f"Unknown tournament format {value!r}; the formats are: {known}.") from None


@dataclass(frozen=True)
class GameProfile:
    """What the tournament core needs to know of a game.

    ``tables``: matches are tables of 3 to 8 players ranked by placement (Magic Duel), not
    two-player matches. ``first_seat``: the game has a first player (seat 0), so seats are balanced.
    ``score_event`` / ``score_word``: a match's own score for the game-win tie-break (the event kind
    whose ``winner`` won one, and what one is called: Wizards Cup's duels); None: a match is one game.
    The game's :class:`rules.core.TournamentProfile` says them all.
    """

    slug: str
    tables: bool
    first_seat: bool = True
    score_event: str | None = None
    score_word: str | None = None


def game_profile(slug: str) -> GameProfile:
    """The profile of the registered game ``slug``: its Game's ``tournament`` (``rules/registry.py``)."""
    if find(slug) is None:
        raise UnknownGame(f"Unknown game {slug!r}; the games are: {', '.join(game_slugs())}.")
    profile = game_class(slug).tournament
    return GameProfile(slug, profile.tables, profile.first_seat, profile.score_event, profile.score_word)


class ResultKind(StrEnum):
    PLAYED = "played"  # the game was played to its end (a forfeit by time included: see timed_out)
    BYE = "bye"  # no opponent this round (odd count, a round-robin bye seat, an elimination bye)
    WALKOVER = "walkover"  # the opponent dropped before the match was played: a bye for the other
    ADJUDICATED = "adjudicated"  # decided by the organizer or a round deadline


@dataclass(frozen=True)
class Result:
    """The result of one match, aligned with the match's seats.

    ``placements``: per seat, 1 = best; equal numbers are a tie (a two-player draw is ``(1, 1)``).
    ``games``: per seat, games won inside the match when it was a best-of-N (two-player only);
    ``None`` means a single game. ``game_draws``: drawn games inside the match.
    ``timed_out``: players who forfeited by time or did not show: their match counts as a loss
    (0 match points whatever their placement) and as a missed match (see ``players_to_drop``).
    """

    placements: tuple[int, ...]
    games: tuple[int, ...] | None = None
    game_draws: int = 0
    timed_out: tuple[PlayerId, ...] = ()
    kind: ResultKind = ResultKind.PLAYED

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"placements": list(self.placements), "kind": self.kind.value}
        if self.games is not None:
            out["games"] = list(self.games)
        if self.game_draws:
            out["game_draws"] = self.game_draws
        if self.timed_out:
            out["timed_out"] = list(self.timed_out)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        games = data.get("games")
        return cls(
            placements=tuple(int(p) for p in data["placements"]),
            games=None if games is None else tuple(int(g) for g in games),
            game_draws=int(data.get("game_draws", 0)),
            timed_out=tuple(int(p) for p in data.get("timed_out", ())),
            kind=ResultKind(data.get("kind", ResultKind.PLAYED.value)),
        )


BYE_RESULT = Result(placements=(1,), kind=ResultKind.BYE)
WALKOVER_RESULT = Result(placements=(1,), kind=ResultKind.WALKOVER)


@dataclass
class Match:
    """One pairing (two seats), table (3 to 8 seats) or bye (one seat) of a round.

    ``id`` is stable ("R3-M2": round 3, match 2) so the service can key its game and thread on it.
    ``slot`` is the bracket position in single elimination (the match at ``slot`` k of round r+1 is
    fed by slots 2k and 2k+1 of round r); ``label`` names special matches ("final", "third place").
    ``dropped``: players who dropped out of this match after it was made (tables play on).
    """

    id: str
    round: int
    seats: tuple[PlayerId, ...]
    bye: bool = False
    result: Result | None = None
    slot: int | None = None
    label: str = ""

    @property
    def finished(self) -> bool:
        return self.result is not None

    def placement_of(self, player: PlayerId) -> int | None:
        if self.result is None:
            return None
        return self.result.placements[self.seats.index(player)]

    def winner(self) -> PlayerId | None:
        """The one player placed first alone (None for a draw, a shared first place or no result)."""
        if self.result is None:
            return None
        firsts = [p for p, place in zip(self.seats, self.result.placements, strict=True) if place == 1]
        return firsts[0] if len(firsts) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "round": self.round, "seats": list(self.seats)}
        if self.bye:
            out["bye"] = True
        if self.result is not None:
            out["result"] = self.result.to_dict()
        if self.slot is not None:
            out["slot"] = self.slot
        if self.label:
            out["label"] = self.label
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        result = data.get("result")
        slot = data.get("slot")
        return cls(
            id=str(data["id"]),
            round=int(data["round"]),
            seats=tuple(int(p) for p in data["seats"]),
            bye=bool(data.get("bye", False)),
            result=None if result is None else Result.from_dict(result),
            slot=None if slot is None else int(slot),
            label=str(data.get("label", "")),
        )


@dataclass
class Round:
    number: int
    matches: list[Match] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return all(m.finished for m in self.matches)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "matches": [m.to_dict() for m in self.matches]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Round:
        return cls(number=int(data["number"]), matches=[Match.from_dict(m) for m in data.get("matches", ())])


@dataclass
class Player:
    """A registered player. ``rating`` seeds single elimination (higher first) and orders the
    first round's Swiss and round-robin lists; ``dropped_after`` is the last round they were in
    (0: dropped before the first round)."""

    id: PlayerId
    rating: float = 0.0
    dropped: bool = False
    dropped_after: int | None = None
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "rating": self.rating}
        if self.dropped:
            out["dropped"] = True
            out["dropped_after"] = self.dropped_after
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        dropped_after = data.get("dropped_after")
        seed = data.get("seed")
        return cls(
            id=int(data["id"]),
            rating=float(data.get("rating", 0.0)),
            dropped=bool(data.get("dropped", False)),
            dropped_after=None if dropped_after is None else int(dropped_after),
            seed=None if seed is None else int(seed),
        )


def read_list(data: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BadSnapshot(f"A stored tournament's {key!r} is not a list.")
    return value
