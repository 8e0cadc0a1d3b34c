"""A fake Discord that outlives the bot process: the world written to a journal file as it changes,
read back by the next process (a bot killed with SIGKILL and started again finds Discord as it left
it, as a real bot does).

    harness = await DiscordHarness.create(bot, persist="world.journal")

The journal is append-only: each record is a length-prefixed pickle of what changed (the users,
guilds, channels and DM channels when any of them changed; every message created, edited or deleted
since the last record), written with one ``os.write`` before the fake Discord answers the request
that made the change. So a process killed at any moment leaves every change Discord confirmed to
the bot, and a torn last record (killed inside the write) is the change of a request the bot never
got an answer to: it is dropped on reading. Reading replays the records in order (the latest
version of each message wins; a message read back keeps its first version and its current one,
not the edits between).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import struct
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .records import HarnessMessage, SimChannel, SimGuild, SimUser

if TYPE_CHECKING:
    from .server import FakeDiscord

_HEADER = struct.Struct("<I")


@dataclass
class SavedWorld:
    """What a journal holds: the application (bot user) id and the world."""

    app_id: int | None = None
    bot_name: str | None = None
    users: dict[int, SimUser] = field(default_factory=dict)
    guilds: dict[int, SimGuild] = field(default_factory=dict)
    channels: dict[int, SimChannel] = field(default_factory=dict)
    dm_by_user: dict[int, int] = field(default_factory=dict)
    messages: dict[int, HarnessMessage] = field(default_factory=dict)

    @property
    def max_id(self) -> int:
        ids = [0, self.app_id or 0, *self.users, *self.guilds, *self.channels, *self.messages]
        for guild in self.guilds.values():
            ids += list(guild.roles)
        return max(ids)


def read(path: str | Path) -> SavedWorld:
    """The world a journal holds (an empty world for a missing file); a torn last record is
    dropped."""
    saved = SavedWorld()
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return saved
    at = 0
    while at + _HEADER.size <= len(data):
        (size,) = _HEADER.unpack_from(data, at)
        start = at + _HEADER.size
        if start + size > len(data):
            break  # torn: the process died inside this write
        record = pickle.loads(data[start : start + size])
        at = start + size
        if "app_id" in record:
            saved.app_id, saved.bot_name = record["app_id"], record["bot_name"]
        if "world" in record:
            saved.users, saved.guilds, saved.dm_by_user = record["world"]
        for channel in record.get("channels", ()):
            saved.channels[channel.id] = channel
        for msg in record.get("messages", ()):
            saved.messages[msg.id] = msg
    return saved


def _digest(value: Any) -> bytes:
    return hashlib.sha1(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)).digest()


class Journal:
    """Appends the fake Discord's changes to its file (see the module docstring)."""

    def __init__(self, path: str | Path, server: FakeDiscord, *, bot_name: str) -> None:
        self.path = Path(path)
        self.server = server
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self._world_digest = b""
        self._channel_digests: dict[int, bytes] = {}
        self._mark = server.next_change()  # messages changed after this are written next
        self._append({"app_id": server.app_id, "bot_name": bot_name})

    def restore(self, saved: SavedWorld) -> None:
        """Put a saved world into the (new, empty) server."""
        server = self.server
        server.users.update(saved.users)
        server.guilds.update(saved.guilds)
        server.channels.update(saved.channels)
        server.dm_by_user.update(saved.dm_by_user)
        server.messages.update(saved.messages)
        server._changes = max([getattr(server, "_changes", 0), *(m.changed for m in saved.messages.values())])
        for msg in saved.messages.values():
            nonce = msg.payload.get("nonce")
            if nonce is not None and not msg.ephemeral:
                server.nonces[(msg.channel_id, msg.author_id, str(nonce))] = msg.id
        self._mark = server.next_change()
        self._world_digest = _digest(self._world(server))
        self._channel_digests = {c.id: _digest(c) for c in server.channels.values()}

    @staticmethod
    def _world(server: FakeDiscord) -> tuple[Any, ...]:
        return (server.users, server.guilds, server.dm_by_user)

    def save(self) -> None:
        """Write what changed since the last call (nothing if nothing did)."""
        server = self.server
        record: dict[str, Any] = {}
        digest = _digest(self._world(server))
        if digest != self._world_digest:
            record["world"] = self._world(server)
            self._world_digest = digest
        channels = []
        for channel in server.channels.values():
            digest = _digest(channel)
            if self._channel_digests.get(channel.id) != digest:
                channels.append(channel)
                self._channel_digests[channel.id] = digest
        if channels:
            record["channels"] = channels
        mark = self._mark
        changed = [m for m in server.messages.values() if m.changed > mark]
        if changed:
            # each written with its first version and its current one (not every edit between:
            # the journal grows with the changes, not with their square)
            record["messages"] = [replace(m, history=m.history[:1]) for m in changed]
            self._mark = max(m.changed for m in changed)
        if record:
            self._append(record)

    def _append(self, record: dict[str, Any]) -> None:
        blob = pickle.dumps(record, pickle.HIGHEST_PROTOCOL)
        os.write(self._fd, _HEADER.pack(len(blob)) + blob)  # one write: whole, or torn and dropped

    def close(self) -> None:
        try:
            self.save()
        finally:
            os.close(self._fd)


__all__ = ["Journal", "SavedWorld", "read"]
