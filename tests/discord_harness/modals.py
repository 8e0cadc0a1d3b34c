"""Modals: the ones the bot showed a user, filled in and submitted as a Discord client would.

The submission mirrors the modal's layout (action rows, or labels wrapping a component) with the
values typed or picked; required fields, lengths and select options are checked. A submitted
modal is closed: it cannot be submitted twice.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .components import select_values
from .records import HarnessError, InteractionRecord, InteractionResult

if TYPE_CHECKING:
    from .harness import DiscordHarness

MODAL = 9  # interaction callback type


class Modals:
    def __init__(self, harness: DiscordHarness):
        self.harness = harness
        self.server = harness.server
        self.world = harness.world
        self.submitted: set[str] = set()  # tokens of the interactions whose modal was submitted

    def shown(self) -> list[tuple[InteractionRecord, dict[str, Any]]]:
        return [
            (record, cb.get("data") or {})
            for record in self.server.interactions.values()
            for cb in record.callbacks
            if cb.get("type") == MODAL
        ]

    def shown_to(self, user: Any) -> list[dict[str, Any]]:
        uid = self.world.user(user).id
        return [modal for record, modal in self.shown() if record.user_id == uid]

    async def submit(
        self,
        user: Any,
        values: dict[str, Any],
        *,
        custom_id: str | None = None,
        channel: Any = None,
        message: Any = None,
        wait: bool = True,
        expect_response: bool = True,
    ) -> InteractionResult:
        sim_user = self.world.user(user)
        open_modals = [
            (r, m)
            for r, m in self.shown()
            if r.user_id == sim_user.id
            and r.token not in self.submitted
            and (custom_id is None or m.get("custom_id") == custom_id)
        ]
        if open_modals:
            origin, modal = open_modals[-1]
            sim_channel = self.server.channels[origin.channel_id]
            origin_message = origin.message_id
        elif custom_id is not None and channel is not None:
            origin, sim_channel, origin_message = None, self.world.channel(channel), None
            modal = {
                "custom_id": custom_id,
                "title": "",
                "components": [
                    {"type": 1, "components": [{"type": 4, "custom_id": k, "style": 1, "label": k}]} for k in values
                ],
            }
        else:
            raise HarnessError(
                f"the bot has not shown {sim_user.name} a modal"
                + (f" with custom_id {custom_id!r}" if custom_id else "")
            )
        if channel is not None:
            sim_channel = self.world.channel(channel)
        if message is not None:
            origin_message = self.world.message(message).id
        remaining = dict(values)
        components = [fill(c, remaining) for c in modal.get("components", [])]
        if remaining:
            raise HarnessError(f"modal {modal.get('custom_id')!r} has no fields {sorted(remaining)}")
        data: dict[str, Any] = {"custom_id": modal["custom_id"], "components": components}
        payload = self.harness.base_interaction(5, sim_user, sim_channel, data)
        if origin is not None:
            self.submitted.add(origin.token)
        if origin_message is not None:
            payload["message"] = copy.deepcopy(self.server.messages[origin_message].payload)
        return await self.harness.dispatch_interaction(
            payload, message_id=origin_message, wait=wait, expect_response=expect_response
        )


def fill(comp: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The submitted form of one modal component, taking its value out of ``values``."""
    ctype = comp.get("type")
    out: dict[str, Any] = {"type": ctype}
    if comp.get("id") is not None:
        out["id"] = comp["id"]
    if ctype == 1:
        out["components"] = [fill(c, values) for c in comp.get("components", [])]
    elif ctype == 18:  # a label around one component
        out["component"] = fill(comp["component"], values)
    elif ctype == 4:
        cid = comp["custom_id"]
        value = values.pop(cid, comp.get("value") or "")
        if not isinstance(value, str):
            raise HarnessError(f"text input {cid!r} takes a string, got {value!r}")
        if comp.get("required", True) and not value:
            raise HarnessError(f"text input {cid!r} is required")
        if value and not comp.get("min_length", 0) <= len(value) <= comp.get("max_length", 4000):
            raise HarnessError(f"text input {cid!r}: length {len(value)} outside the allowed range")
        out.update(custom_id=cid, value=value)
    elif ctype == 3:
        cid = comp["custom_id"]
        chosen = list(values.pop(cid, []))
        required = comp.get("required", True)
        if required and len(chosen) < max(1, comp.get("min_values", 1)):
            raise HarnessError(f"select {cid!r} in the modal is required")
        out.update(custom_id=cid, values=select_values(comp, chosen) if chosen or required else [])
    elif ctype in (5, 6, 7, 8, 19):
        raise HarnessError(f"modal component type {ctype} is not simulated (the bot uses text inputs and selects)")
    return out  # e.g. a text display: echoed with its type and id
