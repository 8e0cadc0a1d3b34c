"""What the harness records: requests, simulated users/channels, messages and interactions."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .harness import DiscordHarness

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

CALLBACK_NAMES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
    12: "LAUNCH_ACTIVITY",
}


class HarnessError(AssertionError):
    """The test asked the harness for something Discord would not let a user do, or the bot broke a rule."""


@dataclass
class RecordedFile:
    field: str
    filename: str
    data: bytes
    description: str | None = None
    spoiler: bool = False


@dataclass
class RecordedRequest:
    """One REST call the bot made (through discord.py's HTTPClient or its webhook adapter)."""

    method: str
    path: str  # concrete path without the /api/v10 prefix, e.g. /channels/123/messages
    route: str  # OpenAPI template when known (e.g. /channels/{channel_id}/messages), else discord.py's
    dpy_route: str  # discord.py's Route.path template
    params: dict[str, str]  # path parameters, named as in ``route``
    query: dict[str, Any]
    json: Any  # JSON body, or the parsed payload_json part of a multipart body
    files: list[RecordedFile] = field(default_factory=list)
    multipart: bool = False
    reason: str | None = None
    via: str = "http"  # "http" (HTTPClient) or "webhook" (interaction callbacks, follow-ups)
    schema: str | None = None  # name of the schema the body was validated against
    status: int = 0
    response: Any = None
    error: str | None = None
    headers: dict[str, str] = field(default_factory=dict)  # the answer's headers (X-RateLimit-*...)
    at: float = 0.0  # when it was made, on the harness's clock (seconds)

    def __repr__(self) -> str:
        return f"<RecordedRequest {self.method} {self.path} -> {self.status}>"


@dataclass
class SimUser:
    """A simulated Discord user (or member, once added to guilds)."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.name

    def __hash__(self) -> int:
        return hash(("user", self.id))


@dataclass
class SimChannel:
    """A channel the fake Discord knows (guild text channel, thread or DM)."""

    id: int
    type: int
    payload: dict[str, Any]
    guild_id: int | None = None
    recipient_id: int | None = None  # DMs
    member_ids: set[int] = field(default_factory=set)  # threads: who joined (private: who can see it)

    @property
    def name(self) -> str | None:
        return self.payload.get("name")

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    @property
    def parent_id(self) -> int | None:
        parent = self.payload.get("parent_id")
        return int(parent) if parent else None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def __hash__(self) -> int:
        return hash(("channel", self.id))


@dataclass
class SimRole:
    id: int
    guild_id: int
    name: str
    permissions: int
    payload: dict[str, Any]

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    @property
    def position(self) -> int:
        """Its place in the guild's hierarchy (@everyone 0; higher is above)."""
        return int(self.payload.get("position", 0))


@dataclass
class SimGuild:
    id: int
    name: str
    owner_id: int
    everyone_permissions: int
    bot_role_id: int
    roles: dict[int, SimRole] = field(default_factory=dict)
    members: dict[int, dict[str, Any]] = field(default_factory=dict)  # user id -> {joined_at, roles, nick}
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"


def _walk(components: list[Any]) -> Iterator[dict[str, Any]]:
    for comp in components or []:
        if not isinstance(comp, dict):
            continue
        yield comp
        if isinstance(comp.get("components"), list):
            yield from _walk(comp["components"])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from _walk([comp[key]])


@dataclass
class HarnessMessage:
    """A message as the fake Discord stores it. ``payload`` is the Message object Discord would return."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    payload: dict[str, Any]
    kind: str  # "channel", "dm", "interaction" (callback), "followup", "system" (made by Discord)
    ephemeral: bool = False
    recipient_id: int | None = None  # who can see it: ephemeral owner, or the DM recipient
    interaction_token: str | None = None
    files: list[RecordedFile] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)  # earlier versions, oldest first
    deleted: bool = False
    changed: int = 0  # when it was last created or edited, in the server's order of changes

    # -- convenience accessors ------------------------------------------------------------------
    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.payload.get("embeds") or []

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.payload.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def is_loading(self) -> bool:
        """A deferred ("thinking...") response that has not been filled in yet."""
        return bool(self.flags & LOADING)

    @property
    def edited(self) -> bool:
        return bool(self.history)

    @property
    def attachments(self) -> list[dict[str, Any]]:
        return self.payload.get("attachments") or []

    def walk_components(self) -> Iterator[dict[str, Any]]:
        return _walk(self.components)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.walk_components() if isinstance(c.get("custom_id"), str)]

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict[str, Any]:
        """The interactive component with this custom_id (or label); HarnessError if absent."""
        for comp in self.walk_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label and comp.get("type") == 2:
                return comp
        wanted = f"custom_id {custom_id!r}" if custom_id is not None else f"label {label!r}"
        available = [(c.get("custom_id"), c.get("label")) for c in self.walk_components() if c.get("type") != 1]
        raise HarnessError(f"message {self.id} has no component with {wanted}; it has {available}")

    def text(self) -> str:
        """Content plus every embed's visible text, handy for ``assert "x" in msg.text()``."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name')}\n{f.get('value')}" for f in e.get("fields") or []]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        for c in self.walk_components():
            if c.get("type") == 10:
                parts.append(c.get("content") or "")
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.payload)

    def __repr__(self) -> str:
        bits = [f"id={self.id}", f"kind={self.kind}"]
        if self.ephemeral:
            bits.append("ephemeral")
        if self.deleted:
            bits.append("deleted")
        text = json.dumps(self.content)[:60]
        return f"<HarnessMessage {' '.join(bits)} content={text}>"


@dataclass
class InteractionRecord:
    """Server-side bookkeeping for one interaction token."""

    id: int
    token: str
    type: int  # 2 application command, 3 component, 4 autocomplete, 5 modal submit
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    message_id: int | None = None  # the message a component / modal-from-component came from
    callbacks: list[dict[str, Any]] = field(default_factory=list)  # callback bodies, in order
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    touched_ids: list[int] = field(default_factory=list)  # messages created or edited via the token
    request_indexes: list[int] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        return bool(self.callbacks)


class InteractionResult:
    """What the bot did with one simulated interaction (a live view: later follow-ups show up too)."""

    def __init__(self, harness: DiscordHarness, record: InteractionRecord):
        self._harness = harness
        self.record = record

    # -- raw ----------------------------------------------------------------------------------------
    @property
    def id(self) -> int:
        return self.record.id

    @property
    def token(self) -> str:
        return self.record.token

    @property
    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload that was dispatched."""
        return self.record.payload

    @property
    def callbacks(self) -> list[dict[str, Any]]:
        return self.record.callbacks

    @property
    def requests(self) -> list[RecordedRequest]:
        """Requests made with this interaction's token (callback, follow-ups, edits)."""
        return [self._harness.requests[i] for i in self.record.request_indexes]

    # -- response ----------------------------------------------------------------------------------
    @property
    def responded(self) -> bool:
        return self.record.acknowledged

    @property
    def response_type(self) -> int | None:
        return self.record.callbacks[0]["type"] if self.record.callbacks else None

    @property
    def response_name(self) -> str | None:
        t = self.response_type
        return CALLBACK_NAMES.get(t, str(t)) if t is not None else None

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def message(self) -> HarnessMessage | None:
        """The original response message (for components answered with 6/7: the clicked message)."""
        mid = self.record.original_message_id
        return self._harness.server.messages.get(mid) if mid else None

    @property
    def followups(self) -> list[HarnessMessage]:
        return [self._harness.server.messages[i] for i in self.record.followup_ids]

    @property
    def messages(self) -> list[HarnessMessage]:
        """Every message created or edited through this interaction, original first."""
        return [self._harness.server.messages[i] for i in self.record.touched_ids]

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return bool(msg and msg.ephemeral)

    @property
    def content(self) -> str:
        msg = self.message
        return msg.content if msg else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        msg = self.message
        return msg.embeds if msg else []

    @property
    def embed(self) -> dict[str, Any] | None:
        msg = self.message
        return msg.embed if msg else None

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9 data), if any."""
        for cb in self.record.callbacks:
            if cb.get("type") == 9:
                return cb.get("data")
        return None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices (callback type 8), if any."""
        for cb in self.record.callbacks:
            if cb.get("type") == 8:
                return list((cb.get("data") or {}).get("choices") or [])
        return None

    def __repr__(self) -> str:
        count = len(self.record.touched_ids)
        return f"<InteractionResult type={self.record.type} response={self.response_name} messages={count}>"
