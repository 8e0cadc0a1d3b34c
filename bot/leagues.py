"""League bands (issue 36, part 3): a server may name bands of its ladder, such as Apprentice,
Adept and Archmage, by rating thresholds or by the top share of its listed players. Discord-free.

An admin writes them as one line, lowest band first; each band after the first says how it is
reached::

    Apprentice, Adept 1400, Archmage 1600          (a rating of at least 1400, 1600)
    Apprentice, Adept top 50%, Archmage top 10%    (among the top half, the top tenth of the listed)

A player is in the highest band they reach; everyone else is in the first. A "top" band needs a
place on the leaderboard, so a player not listed is in a rating band at most. Stored as JSON in
``server_settings.leagues`` (:func:`dump` / :func:`load`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

MAX_BANDS = 6
MAX_NAME = 32


class LeagueError(ValueError):
    """Bands the bot cannot read; the message is meant for the server's admin. Nothing changed."""


@dataclass(frozen=True)
class Band:
    """One league: reached with a rating of at least ``rating``, or a place in the top ``top``
    percent of the listed players (neither: the first band, everyone else)."""

    name: str
    rating: int | None = None
    top: float | None = None

    def reached(self, display: int, place: int | None, listed: int) -> bool:
        if self.rating is not None:
            return display >= self.rating
        if self.top is not None:
            return place is not None and listed > 0 and place <= max(1, math.ceil(listed * self.top / 100))
        return True

    def rule(self) -> str:
        """How it is reached, in words."""
        if self.rating is not None:
            return f"a rating of {self.rating} or more"
        if self.top is not None:
            return f"the top {self.top:g}% of the leaderboard"
        return "everyone else"


_BAND = re.compile(r"^(?P<name>.+?)(?:\s+(?:(?P<rating>\d{3,5})|top\s*(?P<top>\d+(?:\.\d+)?)\s*%))?$", re.IGNORECASE)


def parse(text: str) -> tuple[Band, ...]:
    """Bands from an admin's line (see the module's doc); raises :class:`LeagueError`."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not 2 <= len(parts) <= MAX_BANDS:
        raise LeagueError(
            f"Give 2 to {MAX_BANDS} leagues, lowest first, separated by commas, like "
            "'Apprentice, Adept 1400, Archmage 1600' or 'Apprentice, Adept top 50%, Archmage top 10%'. "
            "Nothing was changed."
        )
    bands: list[Band] = []
    for at, part in enumerate(parts):
        found = _BAND.match(part)
        assert found is not None  # (the name takes anything)
        name = found["name"].strip()
        if not name or len(name) > MAX_NAME or any(c in name for c in "@#:`*_~|<>"):
            raise LeagueError(
                f"{name[:40]!r} cannot be a league's name: up to {MAX_NAME} characters, without @ # : ` * _ ~ | < >. "
                "Nothing was changed."
            )
        rating = int(found["rating"]) if found["rating"] else None
        top = float(found["top"]) if found["top"] else None
        if at == 0 and (rating is not None or top is not None):
            raise LeagueError(
                f"The first league ({name}) is everyone else's: give it no threshold. Nothing was changed."
            )
        if at > 0 and rating is None and top is None:
            raise LeagueError(
                f"Say how {name} is reached: a rating ('{name} 1400') or a top share ('{name} top 10%'). "
                "Nothing was changed."
            )
        if top is not None and not 0 < top < 100:
            raise LeagueError(f"{name}'s top share must be above 0% and below 100%. Nothing was changed.")
        bands.append(Band(name, rating, top))
    names = [b.name.casefold() for b in bands]
    if len(set(names)) != len(names):
        raise LeagueError("Two leagues have the same name. Nothing was changed.")
    kinds = {b.rating is not None for b in bands[1:]}
    if len(kinds) > 1:
        raise LeagueError("Use ratings for every league or top shares for every league, not both. Nothing was changed.")
    ratings = [b.rating for b in bands[1:] if b.rating is not None]
    tops = [b.top for b in bands[1:] if b.top is not None]
    if ratings != sorted(set(ratings)) or tops != sorted(set(tops), reverse=True):
        raise LeagueError("List the leagues from the lowest to the highest. Nothing was changed.")
    return tuple(bands)


def dump(bands: Sequence[Band]) -> str:
    return json.dumps([{"name": b.name, "rating": b.rating, "top": b.top} for b in bands], separators=(",", ":"))


def load(text: str | None) -> tuple[Band, ...]:
    """Bands as stored (an unreadable value: none)."""
    if not text:
        return ()
    try:
        raw = json.loads(text)
        return tuple(Band(str(b["name"]), b.get("rating"), b.get("top")) for b in raw)
    except (ValueError, TypeError, KeyError):
        return ()


def describe(bands: Sequence[Band]) -> str:
    """The bands in the admin's own form ("Apprentice, Adept 1400, Archmage 1600")."""
    words = []
    for band in bands:
        if band.rating is not None:
            words.append(f"{band.name} {band.rating}")
        elif band.top is not None:
            words.append(f"{band.name} top {band.top:g}%")
        else:
            words.append(band.name)
    return ", ".join(words)


def league_of(bands: Sequence[Band], display: int, place: int | None, listed: int) -> str | None:
    """The league of a player with this rating and place (None: the server has no leagues)."""
    if not bands:
        return None
    found = bands[0].name
    for band in bands[1:]:
        if band.reached(display, place, listed):
            found = band.name
    return found


__all__ = ["MAX_BANDS", "Band", "LeagueError", "describe", "dump", "league_of", "load", "parse"]
