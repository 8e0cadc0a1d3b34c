"""Typed rule errors. All are ValueErrors whose message a player can read: what was wrong and
what is allowed. A state that raises one of them is unchanged."""


class RulesError(ValueError):
    """Base of every error the rules raise for bad input."""


class MalformedAction(RulesError):
    """The input is not an action of this game (wrong shape, unknown type, bad field)."""


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now."""


class NotYourTurn(RulesError):
    """The seat is not one the game is waiting for."""


class GameOver(RulesError):
    """The game has ended; nothing more is accepted."""
