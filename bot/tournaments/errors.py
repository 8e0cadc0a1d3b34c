"""Typed errors of the tournament core.

Every refusal is a :class:`TournamentError`, a :class:`ValueError` whose message an organizer can
read as it is ("Swiss with 5 players allows 1 to 5 rounds, not 9."). Nothing is changed when one is
raised: every operation validates first and changes the tournament afterwards.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """A request the tournament core refuses. The message is meant for people."""


class UnknownFormat(TournamentError):
    """The format is none of swiss, round_robin, single_elimination."""


class UnknownGame(TournamentError):
    """The game slug is not one of the four games."""


class FormatNotOffered(TournamentError):
    """The format exists but not for this game (reserved: every game offers every format today)."""


class TooFewPlayers(TournamentError):
    """Fewer players than the format (or the game's table rules) needs."""


class BadPlayers(TournamentError):
    """Duplicate or malformed player entries."""


class BadRounds(TournamentError):
    """A number of rounds the format cannot play."""


class BadResult(TournamentError):
    """A result that does not fit its match (unknown match, wrong seats, a draw in elimination...)."""


class WrongState(TournamentError):
    """The tournament is not in a state that allows this (next round before the current ended...)."""


class BadSnapshot(TournamentError):
    """A stored tournament (JSON) that cannot be read."""


# -- the service's refusals (bot/tournaments/service.py) ------------------------------------------


class TournamentNotFound(TournamentError):
    """No tournament has this id."""


class NotOrganizer(TournamentError):
    """Only the organizer (or someone with Manage Server) may do this."""


class SignupClosed(TournamentError):
    """Joining or leaving after the sign-up (started, cancelled, over), or a full tournament."""


class BadSettings(TournamentError):
    """A setting of the tournament out of range (turn time, max players, game options...)."""
