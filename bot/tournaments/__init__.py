"""Tournaments: the pure core (pairing, seating, brackets, results, standings), no Discord,
database or asyncio. See docs/tournaments.md for the rulings and :mod:`bot.tournaments.tournament`
for the API; the service and the Discord layer build on :class:`Tournament`.
"""

from bot.tournaments.errors import (
    BadPlayers,
    BadResult,
    BadRounds,
    BadSnapshot,
    FormatNotOffered,
    TooFewPlayers,
    TournamentError,
    UnknownFormat,
    UnknownGame,
    WrongState,
)
from bot.tournaments.model import Format, GameProfile, Match, Player, Result, ResultKind, Round, game_profile
from bot.tournaments.standings import LotDraw, Standing, Standings
from bot.tournaments.tournament import Tournament, recommended_rounds

__all__ = [
    "BadPlayers",
    "BadResult",
    "BadRounds",
    "BadSnapshot",
    "Format",
    "GameProfile",
    "FormatNotOffered",
    "LotDraw",
    "Match",
    "Player",
    "Result",
    "ResultKind",
    "Round",
    "Standing",
    "Standings",
    "TooFewPlayers",
    "Tournament",
    "TournamentError",
    "UnknownFormat",
    "UnknownGame",
    "WrongState",
    "game_profile",
    "recommended_rounds",
]
