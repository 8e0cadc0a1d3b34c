"""Test harness that runs a real discord.py bot against an in-memory fake of Discord.

See docs/testing-discord.md. Main entry point: :class:`DiscordHarness`.
"""

from .harness import (
    Attachment,
    BotErrors,
    DiscordHarness,
    Expected,
    FakeGateway,
    NoResponse,
    ProtocolViolation,
    SettleTimeout,
)
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
    "Attachment",
    "BotErrors",
    "DiscordHarness",
    "DiscordSchema",
    "Expected",
    "FakeGateway",
    "HarnessError",
    "HarnessMessage",
    "InteractionResult",
    "NoResponse",
    "ProtocolViolation",
    "RecordedFile",
    "RecordedRequest",
    "SettleTimeout",
    "SimChannel",
    "SimRole",
    "SimUser",
]
