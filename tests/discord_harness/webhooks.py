"""Interaction callbacks and the interaction token's webhooks (follow-ups, and fetching, editing or
deleting the original response or a follow-up), as Discord answers them through discord.py's
webhook adapter.

Interaction callbacks are not rate limited; the token's webhook routes have their own per-token
bucket and do not count against the bot's global limit (see ratelimits.py).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .errors import ApiError, invalid_form
from .records import EPHEMERAL, LOADING, HarnessMessage, InteractionRecord, RecordedRequest

if TYPE_CHECKING:
    from .server import FakeDiscord, Handler

CALLBACKS_BY_INTERACTION = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}


def _interaction_extras(server: FakeDiscord, rec: InteractionRecord, *, original: bool) -> dict[str, Any]:
    user = server.users[rec.user_id]
    meta: dict[str, Any] = {
        "id": str(rec.id),
        "type": rec.type,
        "user": server.user_payload(user),
        "authorizing_integration_owners": copy.deepcopy(rec.payload.get("authorizing_integration_owners", {})),
    }
    extras: dict[str, Any] = {"webhook_id": str(server.app_id), "application_id": str(server.app_id)}
    data = rec.payload.get("data") or {}
    if rec.type == 2:
        meta["name"] = data.get("name")
        meta["command_type"] = data.get("type", 1)
        if not original and rec.original_message_id:
            meta["original_response_message_id"] = str(rec.original_message_id)
        extras["interaction"] = {
            "id": str(rec.id),
            "type": rec.type,
            "name": data.get("name"),
            "user": server.user_payload(user),
        }
    if rec.type == 3 and rec.message_id:
        meta["interacted_message_id"] = str(rec.message_id)
    meta = {k: v for k, v in meta.items() if v is not None}
    extras["interaction_metadata"] = meta
    return extras


def interaction_callback(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any] | None:
    token = req.params.get("interaction_token") or req.params.get("webhook_token")
    iid = req.params.get("interaction_id") or req.params.get("webhook_id")
    rec = server.interactions.get(token or "")
    if rec is None or str(rec.id) != str(iid):
        raise ApiError(404, 10062, "Unknown interaction", violation=True)
    if rec.acknowledged:
        raise ApiError(400, 40060, "Interaction has already been acknowledged.", violation=True)
    body = req.json or {}
    ctype = body.get("type")
    data = body.get("data") or {}
    allowed = CALLBACKS_BY_INTERACTION.get(rec.type, set())
    if ctype not in allowed or (ctype in (6, 7) and rec.message_id is None):
        raise invalid_form(
            "type",
            "INTERACTION_CALLBACK_TYPE_INVALID",
            f"callback type {ctype} is not valid for interaction type {rec.type}"
            + (" without a message" if ctype in (6, 7) else ""),
        )
    rec.callbacks.append(copy.deepcopy(body))
    channel = server.channels[rec.channel_id]
    info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
    resource: dict[str, Any] | None = {"type": ctype}
    if ctype in (4, 5):
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        msg_body = data if ctype == 4 else {"content": "", "flags": LOADING}
        msg = server.create_message(
            channel,
            msg_body,
            req.files if ctype == 4 else [],
            author=server.bot_user,
            kind="interaction",
            ephemeral=ephemeral,
            recipient_id=rec.user_id if ephemeral else None,
            token=rec.token,
            extra=_interaction_extras(server, rec, original=True),
            msg_type=20 if rec.type == 2 else 0,
        )
        rec.original_message_id = msg.id
        _touch(server, rec, msg)
        info.update(
            response_message_id=str(msg.id),
            response_message_loading=ctype == 5,
            response_message_ephemeral=ephemeral,
        )
        resource = {"type": ctype, "message": copy.deepcopy(msg.payload)}
    elif ctype in (6, 7):
        msg = server.messages[rec.message_id]  # type: ignore[index]
        rec.original_message_id = msg.id
        if ctype == 7:
            server.edit_message(msg, data, req.files)
            _touch(server, rec, msg)
            resource = {"type": 7, "message": copy.deepcopy(msg.payload)}
        info.update(
            response_message_id=str(msg.id),
            response_message_loading=False,
            response_message_ephemeral=msg.ephemeral,
        )
    if str(req.query.get("with_response", "")).lower() in ("1", "true"):
        result: dict[str, Any] = {"interaction": info}
        if resource is not None:
            result["resource"] = resource
        return result
    return None


def _touch(server: FakeDiscord, rec: InteractionRecord, msg: HarnessMessage) -> None:
    if msg.id not in rec.touched_ids:
        rec.touched_ids.append(msg.id)
    server.touched.append(msg.id)


def _webhook_interaction(server: FakeDiscord, req: RecordedRequest) -> InteractionRecord:
    token = req.params.get("webhook_token", "")
    rec = server.interactions.get(token)
    if str(req.params.get("webhook_id")) != str(server.app_id) or rec is None:
        raise ApiError(404, 10015, "Unknown Webhook (the harness only simulates interaction webhooks)", violation=True)
    if not rec.acknowledged:
        raise ApiError(404, 10015, "Unknown Webhook (interaction not acknowledged yet)", violation=True)
    return rec


def _webhook_message(server: FakeDiscord, req: RecordedRequest, rec: InteractionRecord) -> HarnessMessage:
    mid_param = req.params.get("message_id")
    if mid_param == "@original":
        mid = rec.original_message_id
    else:
        mid = int(mid_param) if mid_param and mid_param.isdigit() else None
        if mid is not None and mid not in rec.touched_ids and mid != rec.original_message_id:
            mid = None
    msg = server.messages.get(mid) if mid else None
    if msg is None or msg.deleted:
        raise ApiError(404, 10008, "Unknown Message", violation=True)
    return msg


def execute_webhook(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any] | None:
    rec = _webhook_interaction(server, req)
    body = req.json or {}
    original = server.messages.get(rec.original_message_id) if rec.original_message_id else None
    if original is not None and original.is_loading and rec.callbacks[0].get("type") == 5:
        # the first follow-up after a deferred response replaces the "thinking..." message
        server.edit_message(original, body, req.files)
        msg = original
    else:
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        msg = server.create_message(
            server.channels[rec.channel_id],
            body,
            req.files,
            author=server.bot_user,
            kind="followup",
            ephemeral=ephemeral,
            recipient_id=rec.user_id if ephemeral else None,
            token=rec.token,
            extra=_interaction_extras(server, rec, original=False),
        )
        rec.followup_ids.append(msg.id)
    _touch(server, rec, msg)
    if str(req.query.get("wait", "")).lower() in ("1", "true"):
        return copy.deepcopy(msg.payload)
    return None


def get_webhook_message(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    rec = _webhook_interaction(server, req)
    return copy.deepcopy(_webhook_message(server, req, rec).payload)


def edit_webhook_message(server: FakeDiscord, req: RecordedRequest) -> dict[str, Any]:
    rec = _webhook_interaction(server, req)
    msg = _webhook_message(server, req, rec)
    server.edit_message(msg, req.json or {}, req.files)
    _touch(server, rec, msg)
    return copy.deepcopy(msg.payload)


def delete_webhook_message(server: FakeDiscord, req: RecordedRequest) -> None:
    rec = _webhook_interaction(server, req)
    server.delete_message(_webhook_message(server, req, rec))
    return None


ROUTES: list[tuple[str, str, Handler]] = [
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", interaction_callback),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}", execute_webhook),
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", get_webhook_message),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", edit_webhook_message),
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", delete_webhook_message),
]
