"""Pure game engines: no Discord, no database, no event loop."""

from .core import (
    CHANCE,
    ActionModel,
    Awaiting,
    AwaitKind,
    Event,
    Forfeit,
    Game,
    GameOptions,
    LogEntry,
    Match,
    MatchLog,
    Outcome,
    ReplayError,
    Result,
    SeatResult,
    State,
)
from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, RulesError
from .registry import game_slugs, get_game

__all__ = [
    "CHANCE",
    "ActionModel",
    "AwaitKind",
    "Awaiting",
    "Event",
    "Forfeit",
    "Game",
    "GameOptions",
    "GameOver",
    "IllegalAction",
    "LogEntry",
    "MalformedAction",
    "Match",
    "MatchLog",
    "NotYourTurn",
    "Outcome",
    "ReplayError",
    "Result",
    "RulesError",
    "SeatResult",
    "State",
    "game_slugs",
    "get_game",
]
