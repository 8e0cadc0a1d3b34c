"""Helpers shared by test modules about the bot (match service, ratings, stats, tournaments)."""
