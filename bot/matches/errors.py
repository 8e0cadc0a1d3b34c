"""The requests the match service refuses: ValueErrors whose message a player can read."""

from __future__ import annotations


class MatchError(ValueError):
    """A request the service refuses. The message is meant for the player."""


class MatchNotFound(MatchError):
    pass


class NotAPlayer(MatchError):
    """The user has no seat in the match (or was not challenged)."""


class InvalidChallenge(MatchError):
    """A challenge that cannot be made or answered this way."""


class WrongStatus(MatchError):
    """The match is not in the status the request needs (e.g. a move in a finished match)."""


class StalePrompt(MatchError):
    """The prompt the action came from is out of date (double click, second submission, old DM)."""


class NoHint(MatchError):
    """No hint now: not a practice match, not the player's move, one already being worked out."""


class NoReview(MatchError):
    """No review: not a practice match, or it could not be worked out in time."""


class NotSaved(MatchError):
    """The database refused the write, so the move (or start) did not happen."""


class Conflict(NotSaved):
    """Another process changed the match first (its version moved on): nothing was written; the
    service reloads the match and tries the request again (see ``moves``)."""


__all__ = [
    "Conflict",
    "InvalidChallenge",
    "MatchError",
    "MatchNotFound",
    "NoHint",
    "NoReview",
    "NotAPlayer",
    "NotSaved",
    "StalePrompt",
    "WrongStatus",
]
