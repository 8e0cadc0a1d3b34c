"""How a leaderboard says who it lists and which ratings are provisional (issue 36): shared by the
server's leaderboard (cogs/stats.py) and a season's (cogs/seasons.py)."""

from __future__ import annotations

from bot.rating_time import provisional
from bot.stats import LeaderboardPage, Standing
from rules.text import plural

PROVISIONAL_MARK = "≈"
"""Before a provisional rating (the model is not sure of the player yet: :func:`bot.rating_time.provisional`)."""


def rating_text(standing: Standing) -> str:
    """A standing's number, marked when provisional."""
    return f"{PROVISIONAL_MARK}{standing.display}" if provisional(standing.sigma) else str(standing.display)


def listing_rule(board: LeaderboardPage) -> str:
    """Who the board lists, in words: "at least 3 games, a game in the last 30 days"."""
    parts = [f"at least {plural(board.min_games, 'game')}"]
    if board.window_days is not None:
        parts.append(f"a game in the last {plural(board.window_days, 'day')}")
    return ", ".join(parts)


def league_text(board: LeaderboardPage, standing: Standing) -> str:
    """ " · Adept" after a row when the server has leagues."""
    found = board.leagues.get(standing.user_id)
    return f" · {found}" if found else ""


__all__ = ["PROVISIONAL_MARK", "league_text", "listing_rule", "provisional", "rating_text"]
