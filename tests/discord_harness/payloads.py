"""Builders for raw Discord payloads, shaped like what Discord sends (API v10).

Everything here returns plain dicts; discord.py turns them into objects through its own parsers.
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
import mimetypes
import re
import secrets
import time
from typing import Any

DISCORD_EPOCH_MS = 1420070400000


class Snowflakes:
    """Monotonic snowflakes whose timestamp part is "now" (so ``created_at`` is realistic)."""

    def __init__(self, after: int = 0) -> None:
        self._counter = itertools.count(1)
        self._last = after  # every id is greater (e.g. than the application id made before)

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


def snowflake_time(snowflake: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=dt.UTC)


def iso(moment: dt.datetime | None = None) -> str:
    moment = moment or dt.datetime.now(dt.UTC)
    return moment.isoformat(timespec="microseconds")


def new_token() -> str:
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


def user_payload(user_id: int, username: str, *, global_name: str | None = None, bot: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(user_id),
        "username": username,
        "discriminator": "0",
        "global_name": global_name,
        "avatar": None,
        "avatar_decoration_data": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "collectibles": None,
        "primary_guild": None,
    }
    if bot:
        data["bot"] = True
        data["global_name"] = None
    return data


def client_user_payload(user_id: int, username: str) -> dict[str, Any]:
    data = user_payload(user_id, username, bot=True)
    data.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US", "bio": ""})
    return data


def member_payload(
    user: dict[str, Any] | None,
    *,
    joined_at: str,
    roles: list[int] | None = None,
    nick: str | None = None,
    permissions: int | None = None,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "avatar": None,
        "banner": None,
        "communication_disabled_until": None,
        "deaf": False,
        "flags": 0,
        "joined_at": joined_at,
        "mute": False,
        "nick": nick,
        "pending": False,
        "premium_since": None,
        "roles": [str(r) for r in roles or []],
        "unusual_dm_activity_until": None,
    }
    if user is not None:
        data["user"] = user
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role_id: int, name: str, permissions: int, position: int = 0) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "description": None,
        "permissions": str(permissions),
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def text_channel_payload(
    channel_id: int,
    guild_id: int,
    name: str,
    *,
    position: int = 0,
    topic: str | None = None,
    parent_id: int | None = None,
    nsfw: bool = False,
) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "parent_id": str(parent_id) if parent_id else None,
        "topic": topic,
        "nsfw": nsfw,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "default_thread_rate_limit_per_user": 0,
        "flags": 0,
    }


def thread_payload(
    thread_id: int,
    guild_id: int,
    parent_id: int,
    owner_id: int,
    name: str,
    *,
    private: bool = False,
    auto_archive_duration: int = 1440,
) -> dict[str, Any]:
    now = iso()
    return {
        "id": str(thread_id),
        "type": 12 if private else 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "rate_limit_per_user": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": now,
            "locked": False,
            "create_timestamp": now,
            **({"invitable": True} if private else {}),
        },
    }


def dm_channel_payload(
    channel_id: int, recipient: dict[str, Any], last_message_id: int | None = None
) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 1,
        "last_message_id": str(last_message_id) if last_message_id else None,
        "flags": 0,
        "recipients": [recipient],
    }


def guild_payload(
    guild_id: int,
    name: str,
    *,
    owner_id: int,
    roles: list[dict[str, Any]],
    channels: list[dict[str, Any]],
    members: list[dict[str, Any]],
    joined_at: str,
    features: list[str] | None = None,
    locale: str = "en-US",
) -> dict[str, Any]:
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": locale,
        "features": features or [],
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "application_id": None,
        "widget_enabled": False,
        "widget_channel_id": None,
        "incidents_data": None,
        "joined_at": joined_at,
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(members),
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "embedded_activities": [],
        "activity_instances": [],
    }


def app_info_payload(app_id: int, name: str, owner: dict[str, Any], bot: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(app_id),
        "name": name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": secrets.token_hex(32),
        "owner": owner,
        "team": None,
        "flags": 0,
        "bot": bot,
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "tags": [],
        "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
        "integration_types_config": {"0": {}},
        "approximate_guild_count": 1,
        "is_monetized": False,
        "is_verified": False,
        "is_discoverable": False,
    }


def app_command_response(
    command: dict[str, Any], *, command_id: int, app_id: int, version: int, guild_id: int | None
) -> dict[str, Any]:
    """What Discord echoes for a registered command (PUT/POST/GET .../commands)."""
    data = copy.deepcopy(command)
    data.setdefault("type", 1)
    data.setdefault("description", "")
    data.setdefault("options", [])
    data.setdefault("default_member_permissions", None)
    data.setdefault("nsfw", False)
    data.setdefault("name_localizations", None)
    data.setdefault("description_localizations", None)
    if guild_id is None:
        data.setdefault("contexts", None)
        data.setdefault("integration_types", [0])
        data.setdefault("dm_permission", True)
    else:
        data["guild_id"] = str(guild_id)
    data["id"] = str(command_id)
    data["application_id"] = str(app_id)
    data["version"] = str(version)
    return data


def normalise_embed(embed: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in embed.items() if v is not None}
    out.setdefault("type", "rich")
    out["content_scan_version"] = 0
    for key in ("image", "thumbnail"):
        if isinstance(out.get(key), dict):
            media = dict(out[key])
            media.setdefault("proxy_url", media.get("url"))
            media.setdefault("width", 0)
            media.setdefault("height", 0)
            out[key] = media
    return out


def number_components(components: list[Any]) -> list[Any]:
    """Echo components as Discord does: same structure, with a numeric ``id`` on each one."""
    counter = itertools.count(1)
    components = copy.deepcopy(components)

    def visit(items: list[Any]) -> None:
        for comp in items:
            if not isinstance(comp, dict):
                continue
            if comp.get("id") in (None, 0):
                comp["id"] = next(counter)
            else:
                next(counter)
            if isinstance(comp.get("components"), list):
                visit(comp["components"])
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    visit([comp[key]])

    visit(components)
    return components


_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def mentioned_user_ids(content: str) -> list[int]:
    seen: list[int] = []
    for m in _MENTION.finditer(content or ""):
        uid = int(m.group(1))
        if uid not in seen:
            seen.append(uid)
    return seen


def displayed_text(payload: dict[str, Any]) -> str:
    """A message's content and, for a components-v2 message, its text displays (where mentions
    ping as in content)."""
    parts = [payload.get("content") or ""]

    def visit(items: list[Any]) -> None:
        for comp in items or []:
            if not isinstance(comp, dict):
                continue
            if comp.get("type") == 10:
                parts.append(comp.get("content") or "")
            if isinstance(comp.get("components"), list):
                visit(comp["components"])
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    visit([comp[key]])

    visit(payload.get("components") or [])
    return "\n".join(p for p in parts if p)


def mentioned_role_ids(content: str) -> list[str]:
    return sorted({m.group(1) for m in _ROLE_MENTION.finditer(content or "")})


def attachment_payload(
    attachment_id: int,
    channel_id: int,
    filename: str,
    data: bytes,
    *,
    description: str | None = None,
    ephemeral: bool = False,
    spoiler: bool = False,
) -> dict[str, Any]:
    content_type = mimetypes.guess_type(filename)[0]
    url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{filename}"
    payload: dict[str, Any] = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": url,
        "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
    }
    if content_type:
        payload["content_type"] = content_type
    if content_type and content_type.startswith("image/"):
        payload["width"] = 1
        payload["height"] = 1
    if description:
        payload["description"] = description
    if ephemeral:
        payload["ephemeral"] = True
    if spoiler:
        payload["flags"] = 8
    return payload


def interaction_channel_payload(channel: dict[str, Any], permissions: int | None) -> dict[str, Any]:
    data = copy.deepcopy(channel)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data
