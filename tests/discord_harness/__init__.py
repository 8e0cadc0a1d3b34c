"""Test harness that runs a real discord.py bot against an in-memory fake of Discord.

See docs/testing-discord.md. Main entry point: :class:`DiscordHarness`.
"""

from .harness import (
    BotErrors,
    DiscordHarness,
    Expected,
    FakeGateway,
    NoResponse,
    ProtocolViolation,
    SettleTimeout,
)
from .ratelimits import Clock, Limit, RateLimitHit
from .records import (
    HarnessError,
    HarnessMessage,
    InteractionResult,
    RecordedFile,
    RecordedRequest,
    SimChannel,
    SimRole,
    SimUser,
)
from .schema import DiscordSchema

__all__ = [
    "BotErrors",
    "Clock",
    "DiscordHarness",
    "DiscordSchema",
    "Expected",
    "FakeGateway",
    "HarnessError",
    "HarnessMessage",
    "InteractionResult",
    "Limit",
    "NoResponse",
    "ProtocolViolation",
    "RateLimitHit",
    "RecordedFile",
    "RecordedRequest",
    "SettleTimeout",
    "SimChannel",
    "SimRole",
    "SimUser",
]
