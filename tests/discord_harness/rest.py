"""The REST routes the bot calls through discord.py's HTTPClient: who it is, DMs, channel messages,
threads and command sync. Each handler takes the :class:`~.server.FakeDiscord` and the recorded
request and returns the payload Discord would (or raises the error Discord would answer).

Permission checks are simulated where a bot must check before it acts: posting in a channel
(Send Messages, or Send Messages in Threads in a thread; Attach Files with files) and creating
threads (Create Public/Private Threads). They use the guild-level permissions of the bot's roles
(no channel overwrites) and answer 403 / 50013 without counting as a violation: a server's
permissions are a fact the bot must handle, like a closed DM.
"""

from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING, Any

from . import payloads as P
from .errors import ApiError, invalid_form, missing_permissions
from .records import EPHEMERAL, RecordedRequest, SimChannel

#: Seconds a message's nonce is remembered for ``enforce_nonce`` ("the past few minutes").
NONCE_WINDOW = 300

if TYPE_CHECKING:
    from .server import FakeDiscord, Handler

VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
THREAD_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
MAX_ACTIVE_THREADS = 1000
HAS_THREAD = 1 << 5  # message flag: a thread was started from this message


def api_error(status: int, code: int, message: str, *, violation: bool = False) -> ApiError:
    return ApiError(status, code, message, violation=violation)


def require(server: FakeDiscord, channel: SimChannel, *needed: tuple[int, str]) -> None:
    have = server.bot_permissions(channel)
    for bit, name in needed:
        if not have & bit:
            raise missing_permissions(name)


# -- the bot itself ----------------------------------------------------------------------------------
def get_me(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    return P.client_user_payload(server.bot_user.id, server.bot_user.name)


def app_info(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    owner = server.owner or server.bot_user
    return P.app_info_payload(
        server.app_id, server.bot_user.name, server.user_payload(owner), server.user_payload(server.bot_user)
    )


def get_user(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    user = server.users.get(int(req.params["user_id"]))
    if user is None:
        raise api_error(404, 10013, "Unknown User")
    return server.user_payload(user)


def create_dm(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    body = req.json or {}
    recipient = body.get("recipient_id")
    user = server.users.get(int(recipient)) if recipient is not None else None
    if user is None or user.id == server.bot_user.id:
        raise api_error(400, 50033, "Invalid Recipient(s)", violation=True)
    return copy.deepcopy(server.dm_channel_for(user).payload)


# -- channels and messages -------------------------------------------------------------------------
def get_channel(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    return copy.deepcopy(server.channel_or_404(req.params["channel_id"]).payload)


def create_channel_message(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    channel = server.channel_or_404(req.params["channel_id"])
    body = req.json or {}
    if channel.is_dm:
        recipient = server.users[channel.recipient_id]  # type: ignore[index]
        if not recipient.dms_open or recipient.bot:
            raise api_error(403, 50007, "Cannot send messages to this user")
        kind = "dm"
    else:
        kind = "channel"
        if channel.is_thread:
            require(
                server, channel, (VIEW_CHANNEL, "View Channel"), (SEND_MESSAGES_IN_THREADS, "Send Messages in Threads")
            )
            if channel.payload["thread_metadata"].get("locked"):
                raise api_error(403, 50083, "Thread is archived")
        else:
            require(server, channel, (VIEW_CHANNEL, "View Channel"), (SEND_MESSAGES, "Send Messages"))
        if req.files:
            require(server, channel, (ATTACH_FILES, "Attach Files"))
    if int(body.get("flags") or 0) & EPHEMERAL:
        raise invalid_form("flags", "MESSAGE_FLAGS_INVALID", "ephemeral is only valid for interaction responses")
    if body.get("enforce_nonce") and body.get("nonce") is not None:
        # Discord: a nonce this author used in this channel in the past few minutes returns that
        # message instead of creating another
        earlier = server.messages.get(server.nonces.get((channel.id, server.bot_user.id, str(body["nonce"])), 0))
        if (
            earlier is not None
            and not earlier.deleted
            and time.time() - P.snowflake_time(earlier.id).timestamp() < NONCE_WINDOW
        ):
            return copy.deepcopy(earlier.payload)
    if channel.is_thread:
        channel.payload["thread_metadata"]["archived"] = False  # a message unarchives an unlocked thread
    msg = server.create_message(channel, body, req.files, author=server.bot_user, kind=kind)
    return copy.deepcopy(msg.payload)


def list_channel_messages(server: FakeDiscord, req: RecordedRequest) -> list[dict[str, Any]]:
    """A channel's history, newest first (``limit`` 1-100, default 50; ``before`` / ``after`` a
    message id), as Discord answers it; ephemeral and deleted messages are not in it."""
    channel = server.channel_or_404(req.params["channel_id"])
    limit = max(1, min(100, int(req.query.get("limit") or 50)))
    before, after = req.query.get("before"), req.query.get("after")
    found = sorted(
        (m for m in server.messages.values() if m.channel_id == channel.id and not m.deleted and not m.ephemeral),
        key=lambda m: m.id,
        reverse=True,
    )
    if before:
        found = [m for m in found if m.id < int(before)]
    if after:
        found = [m for m in found if m.id > int(after)][-limit:]
    return [copy.deepcopy(m.payload) for m in found[:limit]]


def get_message(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    return copy.deepcopy(server.message_or_404(req.params["channel_id"], req.params["message_id"]).payload)


def edit_channel_message(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    msg = server.message_or_404(req.params["channel_id"], req.params["message_id"])
    if msg.author_id != server.bot_user.id:
        raise api_error(403, 50005, "Cannot edit a message authored by another user", violation=True)
    server.edit_message(msg, req.json or {}, req.files)
    return copy.deepcopy(msg.payload)


def delete_channel_message(server: FakeDiscord, req: RecordedRequest) -> None:
    server.delete_message(server.message_or_404(req.params["channel_id"], req.params["message_id"]))
    return None


# -- threads -----------------------------------------------------------------------------------------
def count_thread_message(thread: SimChannel) -> None:
    thread.payload["message_count"] = thread.payload.get("message_count", 0) + 1
    thread.payload["total_message_sent"] = thread.payload.get("total_message_sent", 0) + 1


def _thread_body_problems(body: dict[str, Any], *, from_message: bool) -> None:
    name = body.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise invalid_form("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in THREAD_ARCHIVE_MINUTES:
        raise invalid_form(
            "auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {THREAD_ARCHIVE_MINUTES}."
        )
    if not from_message and body.get("type") not in (None, 10, 11, 12):
        raise invalid_form("type", "BASE_TYPE_CHOICES", "Value must be one of (10, 11, 12).")


def create_thread(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    """A thread from a message (public, its id is the message's) or without one (``type`` 11 public,
    12 private; Discord's default is private). A public thread without a message leaves a "thread
    created" system message in the parent channel, as on Discord."""
    parent = server.channel_or_404(req.params["channel_id"])
    if parent.guild_id is None or parent.is_thread:
        raise api_error(400, 50024, "Cannot execute action on this channel type", violation=True)
    body = req.json or {}
    from_message = "message_id" in req.params
    _thread_body_problems(body, from_message=from_message)
    private = not from_message and body.get("type", 12) == 12
    if private:
        require(server, parent, (CREATE_PRIVATE_THREADS, "Create Private Threads"))
    else:
        require(server, parent, (CREATE_PUBLIC_THREADS, "Create Public Threads"))
    guild = server.guilds[parent.guild_id]
    active = [
        c
        for c in (server.channels.get(i) for i in guild.channel_ids)
        if c is not None and c.is_thread and not c.payload["thread_metadata"].get("archived")
    ]
    if len(active) >= MAX_ACTIVE_THREADS:
        raise api_error(400, 160006, "Maximum number of active threads reached")
    starter = None
    if from_message:
        starter = server.message_or_404(parent.id, req.params["message_id"])
        if starter.payload.get("thread") is not None:
            raise api_error(400, 160004, "A thread has already been created for this message", violation=True)
        thread_id = starter.id
    else:
        thread_id = server.new_id()
    payload = P.thread_payload(
        thread_id,
        parent.guild_id,
        parent.id,
        server.bot_user.id,
        body["name"],
        private=private,
        auto_archive_duration=body.get("auto_archive_duration") or 1440,
    )
    thread = SimChannel(
        id=thread_id, type=payload["type"], payload=payload, guild_id=parent.guild_id, member_ids={server.bot_user.id}
    )
    server.channels[thread_id] = thread
    guild.channel_ids.append(thread_id)
    server.echo("THREAD_CREATE", {**copy.deepcopy(payload), "newly_created": True})
    if starter is not None:
        starter.payload["thread"] = copy.deepcopy(payload)
        starter.payload["flags"] = starter.flags | HAS_THREAD
        starter.changed = server.next_change()
    elif not private:
        server.create_message(
            parent,
            {"content": payload["name"]},
            [],
            author=server.bot_user,
            kind="system",
            msg_type=18,  # THREAD_CREATED
            extra={"message_reference": {"channel_id": str(thread_id), "guild_id": str(parent.guild_id)}},
        )
    return copy.deepcopy(payload)


def join_thread_member(server: FakeDiscord, req: RecordedRequest) -> None:
    thread = server.channel_or_404(req.params["channel_id"])
    if not thread.is_thread:
        raise api_error(400, 50024, "Cannot execute action on this channel type", violation=True)
    user_id = int(req.params["user_id"])
    guild = server.guilds[thread.guild_id]  # type: ignore[index]
    if user_id not in guild.members:
        raise api_error(404, 10007, "Unknown Member", violation=True)
    thread.member_ids.add(user_id)
    thread.payload["member_count"] = len(thread.member_ids)
    return None


def leave_thread_member(server: FakeDiscord, req: RecordedRequest) -> None:
    thread = server.channel_or_404(req.params["channel_id"])
    thread.member_ids.discard(int(req.params["user_id"]))
    thread.payload["member_count"] = len(thread.member_ids)
    return None


# -- application commands (the bot syncs with a bulk overwrite) -----------------------------------
def put_commands(server: FakeDiscord, req: RecordedRequest) -> list[dict[str, Any]]:
    if int(req.params["application_id"]) != server.app_id:
        raise api_error(404, 10002, "Unknown Application", violation=True)
    gid = req.params.get("guild_id")
    guild_id = int(gid) if gid else None
    body = req.json or []
    seen = set()
    for cmd in body:
        key = (cmd.get("name"), int(cmd.get("type", 1)))
        if key in seen:
            raise invalid_form("_errors", "APPLICATION_COMMANDS_DUPLICATE_NAME", f"duplicate command {key[0]!r}")
        seen.add(key)
    registered = []
    for cmd in body:
        cid = server.command_ids.setdefault((guild_id, cmd["name"], int(cmd.get("type", 1))), server.new_id())
        registered.append(
            P.app_command_response(
                cmd, command_id=cid, app_id=server.app_id, version=server.new_id(), guild_id=guild_id
            )
        )
    server.commands[guild_id] = registered
    return copy.deepcopy(registered)


ROUTES: list[tuple[str, str, Handler]] = [
    ("GET", "/users/@me", get_me),
    ("GET", "/oauth2/applications/@me", app_info),
    ("GET", "/applications/@me", app_info),
    ("GET", "/users/{user_id}", get_user),
    ("POST", "/users/@me/channels", create_dm),
    ("GET", "/channels/{channel_id}", get_channel),
    ("POST", "/channels/{channel_id}/messages", create_channel_message),
    ("GET", "/channels/{channel_id}/messages", list_channel_messages),
    ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", edit_channel_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_channel_message),
    ("POST", "/channels/{channel_id}/threads", create_thread),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", create_thread),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", join_thread_member),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", leave_thread_member),
    ("PUT", "/applications/{application_id}/commands", put_commands),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", put_commands),
]
