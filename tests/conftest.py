"""Fixtures for every test module: the fake Discord (``discord_harness``) and a bot inside it on
an SQLite file (``make``); see tests/discord_flows.py."""

from tests.discord_flows import discord_harness, make  # noqa: F401  (pytest fixtures)
