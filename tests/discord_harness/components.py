"""Buttons and select menus on the bot's messages, pressed and picked as a Discord client would.

The user must be able to see the message (its channel, their DM, their own ephemeral message, a
private thread they were added to); the component must exist and be enabled; select values must
be options of the select, within its min/max. The bot uses string selects only, and those are
what the harness simulates.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .records import HarnessError, HarnessMessage, InteractionResult, SimUser

if TYPE_CHECKING:
    from .harness import DiscordHarness

STRING_SELECT = 3


class Components:
    def __init__(self, harness: DiscordHarness):
        self.harness = harness
        self.server = harness.server
        self.world = harness.world

    def visible_message(self, user: SimUser, message: Any) -> HarnessMessage:
        """The message, if ``user`` can see it (else HarnessError saying why not)."""
        msg = self.world.message(message)
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.recipient_id != user.id:
            raise HarnessError(
                f"{user.name} cannot see ephemeral message {msg.id} (it was for user {msg.recipient_id})"
            )
        channel = self.server.channels.get(msg.channel_id)
        if channel is None:
            raise HarnessError(f"the channel of message {msg.id} no longer exists")
        hidden = self.world.can_see(user, channel)
        if hidden is not None:
            raise HarnessError(hidden)
        return msg

    async def click(
        self,
        user: Any,
        message: Any,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        sim_user = self.world.user(user)
        msg = self.visible_message(sim_user, message)
        if custom_id is None and label is None:
            raise HarnessError("click() needs a custom_id or a label")
        component = msg.component(custom_id, label=label)
        if component.get("type") != 2:
            raise HarnessError(f"{custom_id!r} is not a button (type {component.get('type')})")
        if component.get("disabled"):
            raise HarnessError(f"button {component.get('custom_id')!r} is disabled")
        if component.get("style") in (5, 6) or "custom_id" not in component:
            raise HarnessError("link/premium buttons do not send interactions")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        return await self.dispatch(sim_user, msg, data, wait=wait, expect_response=expect_response)

    async def select(
        self,
        user: Any,
        message: Any,
        custom_id: str,
        values: Sequence[Any],
        *,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        sim_user = self.world.user(user)
        msg = self.visible_message(sim_user, message)
        component = msg.component(custom_id)
        if component.get("disabled"):
            raise HarnessError(f"select {custom_id!r} is disabled")
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": component.get("type"),
            "values": select_values(component, list(values)),
        }
        return await self.dispatch(sim_user, msg, data, wait=wait, expect_response=expect_response)

    async def dispatch(
        self, user: SimUser, msg: HarnessMessage, data: dict[str, Any], *, wait: bool, expect_response: bool
    ) -> InteractionResult:
        channel = self.server.channels[msg.channel_id]
        payload = self.harness.base_interaction(3, user, channel, data)
        payload["message"] = copy.deepcopy(msg.payload)
        return await self.harness.dispatch_interaction(
            payload, message_id=msg.id, wait=wait, expect_response=expect_response
        )


def select_values(component: dict[str, Any], values: list[Any]) -> list[str]:
    """The values a user may pick in a string select (a message's, or a modal's)."""
    custom_id = component.get("custom_id")
    if component.get("type") != STRING_SELECT:
        raise HarnessError(
            f"{custom_id!r} is not a string select (type {component.get('type')}); "
            "the harness simulates string selects only"
        )
    lo, hi = component.get("min_values", 1), component.get("max_values", 1)
    if not lo <= len(values) <= hi:
        raise HarnessError(f"select {custom_id!r} takes between {lo} and {hi} values, got {len(values)}")
    options = [o["value"] for o in component.get("options", [])]
    for v in values:
        if v not in options:
            raise HarnessError(f"{v!r} is not an option of select {custom_id!r}: {options}")
    return [str(v) for v in values]
