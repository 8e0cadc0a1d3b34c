"""Interactions as Discord's client creates them: the INTERACTION_CREATE payload of a user in a
channel (guild, thread or DM: member or user data, permissions, context), registered with the fake
server so the bot's answers can be matched to it, dispatched, and waited for."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from . import payloads as P
from .records import HarnessError, InteractionRecord, InteractionResult, SimChannel, SimUser
from .world import DM_APP_PERMISSIONS

if TYPE_CHECKING:
    from .harness import DiscordHarness

KINDS = {2: "application command", 3: "component", 4: "autocomplete", 5: "modal submit"}


class NoResponse(HarnessError):
    """The bot never answered an interaction (Discord would show "This interaction failed")."""


class Interactions:
    def __init__(self, harness: DiscordHarness):
        self.harness = harness
        self.results: list[InteractionResult] = []

    def base(
        self, itype: int, user: SimUser, channel: SimChannel, data: dict[str, Any], *, locale: str | None = None
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload of ``user`` in ``channel`` (without type-specific parts)."""
        server = self.harness.server
        payload: dict[str, Any] = {
            "id": str(server.new_id()),
            "application_id": str(self.harness.app_id),
            "type": itype,
            "data": data,
            "token": P.new_token(),
            "version": 1,
            "locale": locale or user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
        }
        hidden = self.harness.world.can_see(user, channel)
        if hidden is not None:
            raise HarnessError(hidden + ": use add_member first" if "not a member" in hidden else hidden)
        if channel.guild_id is not None:
            guild = server.guilds[channel.guild_id]
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                    "guild_locale": guild.locale,
                    "member": server.member_payload(guild, user, with_permissions=True),
                    "channel": P.interaction_channel_payload(channel.payload, server.permissions(guild, user.id)),
                    "app_permissions": str(server.permissions(guild, self.harness.bot_user.id)),
                    "context": 0,
                    "authorizing_integration_owners": {"0": str(guild.id)},
                }
            )
        else:
            payload.update(
                {
                    "user": server.user_payload(user),
                    "channel": P.interaction_channel_payload(channel.payload, None),
                    "app_permissions": str(DM_APP_PERMISSIONS),
                    "context": 1,
                    "authorizing_integration_owners": {"0": "0"},
                }
            )
        return payload

    async def dispatch(
        self, payload: dict[str, Any], *, message_id: int | None = None, wait: bool = True, expect_response: bool = True
    ) -> InteractionResult:
        """Register and dispatch a raw INTERACTION_CREATE payload (the lower-level entry point).

        A user action (anything but autocomplete) first moves the clock by ``think_time``."""
        user_data: dict[str, Any] = payload.get("member", {}).get("user") or payload["user"]
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=payload["type"],
            user_id=int(user_data["id"]),
            channel_id=int(payload["channel_id"]),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            payload=copy.deepcopy(payload),
            message_id=message_id,
        )
        if record.type != 4:
            self.harness.clock.advance(self.harness.think_time)
        self.harness.server.interactions[record.token] = record
        result = InteractionResult(self.harness, record)
        self.results.append(result)
        self.harness.dispatch_gateway("INTERACTION_CREATE", copy.deepcopy(payload))
        if wait:
            await self.harness.settle()
            if expect_response and not record.acknowledged and not self.harness.expecting:
                kind = KINDS[record.type]
                raise NoResponse(
                    f"the bot never answered the {kind} interaction {describe_interaction(payload)}; "
                    "Discord would show 'This interaction failed' "
                    "(pass expect_response=False if that is intended)"
                )
        return result


def describe_interaction(payload: dict[str, Any]) -> str:
    data = payload.get("data") or {}
    if payload.get("type") in (2, 4):
        return f"/{data.get('name')}"
    return repr(data.get("custom_id"))
