"""The fake Discord "server": remembers the world, records requests and answers them.

Both of discord.py's transports end up in :meth:`FakeDiscord.handle`: the bot's ``HTTPClient.request``
(REST calls such as ``channel.send``) and the webhook adapter (interaction callbacks, follow-ups and
edits of interaction messages).  Each request is recorded, its JSON body (or the ``payload_json``
part of a multipart body) is validated against Discord's published schema, and a realistic payload
is returned so that discord.py builds its real objects from it.
"""

from __future__ import annotations

import copy
import json
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import payloads as P
from .records import (
    EPHEMERAL,
    LOADING,
    HarnessMessage,
    InteractionRecord,
    RecordedFile,
    RecordedRequest,
    SimChannel,
    SimGuild,
    SimUser,
)
from .schema import DiscordSchema, SchemaProblem, discord_rule_errors

API_PREFIX = re.compile(r"^/api(?:/v\d+)?")
KEPT_FLAGS = 4 | EPHEMERAL | LOADING | 4096 | 8192 | (1 << 15)  # suppress embeds/notifications, v2...
EDITABLE_FLAGS = 4 | (1 << 15)


class ApiError(Exception):
    """An error response from the fake Discord (converted to discord.HTTPException subclasses)."""

    def __init__(
        self, status: int, code: int, message: str, *, errors: dict[str, Any] | None = None, violation: bool = False
    ):
        super().__init__(f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation  # the bot did something Discord rejects: fails the test

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


@dataclass
class Override:
    method: str
    route: str  # OpenAPI template, discord.py template or concrete path
    respond: Any  # payload or callable(request) -> payload
    status: int = 200
    code: int = 0
    message: str = ""
    times: int | None = None  # None = forever

    def matches(self, req: RecordedRequest) -> bool:
        return self.method in ("*", req.method) and self.route in (req.route, req.dpy_route, req.path)


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[a-z_]+\})", template)
    out = "".join(f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(f"^{out}$")


def _errors_tree(problems: list[SchemaProblem]) -> dict[str, Any]:
    """Discord-style nested ``errors`` object for a 50035 Invalid Form Body."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for part in re.findall(r"\.([^.\[]+)|\[(\d+)\]", problem.location):
            key = part[0] or part[1]
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": "HARNESS_SCHEMA_VIOLATION", "message": problem.message})
    return tree


class FakeDiscord:
    def __init__(self, *, app_id: int, bot_user: SimUser, schema: DiscordSchema | None, discord_rules: bool = True):
        self.ids = P.Snowflakes()
        self.app_id = app_id
        self.bot_user = bot_user
        self.schema = schema
        self.discord_rules = discord_rules
        self.users: dict[int, SimUser] = {bot_user.id: bot_user}
        self.guilds: dict[int, SimGuild] = {}
        self.channels: dict[int, SimChannel] = {}
        self.dm_by_user: dict[int, int] = {}
        self.messages: dict[int, HarnessMessage] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self.requests: list[RecordedRequest] = []
        self.violations: list[str] = []
        self.overrides: list[Override] = []
        self.cdn: dict[str, bytes] = {}
        self.touched: list[int] = []  # message ids created/edited through interactions, in order
        self.echo: Callable[[str, dict[str, Any]], None] = lambda event, data: None
        self.owner: SimUser | None = None
        self._routes: list[tuple[str, str, re.Pattern[str], Callable[[RecordedRequest], Any]]] = []
        self._register_routes()

    # ------------------------------------------------------------------------------------------------
    # helpers for the world

    def new_id(self) -> int:
        return self.ids.next()

    def user_payload(self, user: SimUser) -> dict[str, Any]:
        if user.id == self.bot_user.id:
            return P.user_payload(user.id, user.name, bot=True)
        return P.user_payload(user.id, user.name, global_name=user.global_name, bot=user.bot)

    def member_payload(
        self, guild: SimGuild, user: SimUser, *, with_user: bool = True, with_permissions: bool = False
    ) -> dict[str, Any]:
        info = guild.members[user.id]
        return P.member_payload(
            self.user_payload(user) if with_user else None,
            joined_at=info["joined_at"],
            roles=info["roles"],
            nick=info.get("nick"),
            permissions=self.permissions(guild, user.id) if with_permissions else None,
        )

    def permissions(self, guild: SimGuild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return (1 << 53) - 1
        value = guild.everyone_permissions
        for role_id in guild.members.get(user_id, {}).get("roles", []):
            role = guild.roles.get(role_id)
            if role:
                value |= role.permissions
        if value & 8:  # administrator
            return (1 << 53) - 1
        return value

    def channel_or_404(self, channel_id: int | str) -> SimChannel:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel", violation=True)
        return channel

    def message_or_404(self, channel_id: int | str, message_id: int | str) -> HarnessMessage:
        msg = self.messages.get(int(message_id))
        if msg is None or msg.deleted or msg.channel_id != int(channel_id) or msg.ephemeral:
            # ephemeral messages cannot be reached through channel routes
            raise ApiError(404, 10008, "Unknown Message", violation=True)
        return msg

    def dm_channel_for(self, user: SimUser) -> SimChannel:
        cid = self.dm_by_user.get(user.id)
        if cid is None:
            cid = self.new_id()
            self.dm_by_user[user.id] = cid
            self.channels[cid] = SimChannel(
                id=cid, type=1, payload=P.dm_channel_payload(cid, self.user_payload(user)), recipient_id=user.id
            )
        return self.channels[cid]

    # ------------------------------------------------------------------------------------------------
    # messages

    def _files_to_attachments(
        self, channel_id: int, body: dict[str, Any], files: list[RecordedFile], ephemeral: bool
    ) -> list[dict[str, Any]]:
        described = {}
        for att in body.get("attachments") or []:
            if isinstance(att, dict):
                described[str(att.get("id"))] = att
        out = []
        for index, f in enumerate(files):
            meta = described.get(str(index), {})
            att_id = self.new_id()
            payload = P.attachment_payload(
                att_id,
                channel_id,
                meta.get("filename") or f.filename,
                f.data,
                description=meta.get("description") or f.description,
                ephemeral=ephemeral,
                spoiler=f.spoiler,
            )
            self.cdn[payload["url"]] = f.data
            self.cdn[payload["proxy_url"]] = f.data
            out.append(payload)
        return out

    def _message_payload(
        self,
        mid: int,
        channel: SimChannel,
        author: SimUser,
        body: dict[str, Any],
        files: list[RecordedFile],
        *,
        ephemeral: bool,
        msg_type: int = 0,
    ) -> dict[str, Any]:
        content = body.get("content") or ""
        flags = int(body.get("flags") or 0) & KEPT_FLAGS
        if ephemeral:
            flags |= EPHEMERAL
        else:
            flags &= ~EPHEMERAL
        mentions = [self.user_payload(self.users[u]) for u in P.mentioned_user_ids(content) if u in self.users]
        payload: dict[str, Any] = {
            "type": msg_type,
            "content": content,
            "mentions": mentions,
            "mention_roles": P.mentioned_role_ids(content),
            "attachments": self._files_to_attachments(channel.id, body, files, ephemeral),
            "embeds": [P.normalise_embed(e) for e in body.get("embeds") or [] if isinstance(e, dict)],
            "timestamp": P.iso(P.snowflake_time(mid)),
            "edited_timestamp": None,
            "flags": flags,
            "components": P.number_components(body.get("components") or []),
            "id": str(mid),
            "channel_id": str(channel.id),
            "author": self.user_payload(author),
            "pinned": False,
            "mention_everyone": "@everyone" in content or "@here" in content,
            "tts": bool(body.get("tts")),
        }
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
        if body.get("poll"):
            payload["poll"] = copy.deepcopy(body["poll"])
        ref = body.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id") is not None:
            payload["type"] = 19
            payload["message_reference"] = {
                "type": ref.get("type") or 0,
                "channel_id": str(ref.get("channel_id") or channel.id),
                "message_id": str(ref["message_id"]),
                **({"guild_id": str(channel.guild_id)} if channel.guild_id else {}),
            }
            referenced = self.messages.get(int(ref["message_id"]))
            if referenced is None and ref.get("fail_if_not_exists", True):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={
                        "message_reference": {
                            "_errors": [{"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}]
                        }
                    },
                    violation=True,
                )
            if referenced is not None:
                ref_payload = copy.deepcopy(referenced.payload)
                ref_payload.pop("referenced_message", None)
                payload["referenced_message"] = ref_payload
        return payload

    def create_message(
        self,
        channel: SimChannel,
        body: dict[str, Any],
        files: list[RecordedFile],
        *,
        author: SimUser,
        kind: str,
        ephemeral: bool = False,
        recipient_id: int | None = None,
        token: str | None = None,
        extra: dict[str, Any] | None = None,
        msg_type: int = 0,
    ) -> HarnessMessage:
        mid = self.new_id()
        payload = self._message_payload(mid, channel, author, body, files, ephemeral=ephemeral, msg_type=msg_type)
        if extra:
            payload.update(copy.deepcopy(extra))
        if channel.is_dm and recipient_id is None:
            recipient_id = channel.recipient_id
        msg = HarnessMessage(
            id=mid,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author.id,
            payload=payload,
            kind=kind,
            ephemeral=ephemeral,
            recipient_id=recipient_id,
            interaction_token=token,
            files=list(files),
        )
        self.messages[mid] = msg
        if not ephemeral:
            channel.payload["last_message_id"] = str(mid)
            self.echo("MESSAGE_CREATE", self.gateway_message(msg))
        return msg

    def edit_message(self, msg: HarnessMessage, body: dict[str, Any], files: list[RecordedFile]) -> None:
        was_loading = msg.is_loading
        msg.history.append(copy.deepcopy(msg.payload))
        p = msg.payload
        if "content" in body:
            p["content"] = body["content"] or ""
            p["mentions"] = [
                self.user_payload(self.users[u]) for u in P.mentioned_user_ids(p["content"]) if u in self.users
            ]
            p["mention_roles"] = P.mentioned_role_ids(p["content"])
        if "embeds" in body:
            p["embeds"] = [P.normalise_embed(e) for e in body["embeds"] or [] if isinstance(e, dict)]
        if "components" in body:
            p["components"] = P.number_components(body["components"] or [])
        if body.get("flags") is not None:
            p["flags"] = (p["flags"] & ~EDITABLE_FLAGS) | (int(body["flags"]) & EDITABLE_FLAGS)
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or [] if isinstance(a, dict)}
            kept = [a for a in p["attachments"] if a["id"] in keep]
            p["attachments"] = kept + self._files_to_attachments(msg.channel_id, body, files, msg.ephemeral)
        elif files:
            p["attachments"] = p["attachments"] + self._files_to_attachments(msg.channel_id, body, files, msg.ephemeral)
        if files:
            msg.files = msg.files + list(files)
        if was_loading:
            p["flags"] &= ~LOADING
        else:
            p["edited_timestamp"] = P.iso()
        if not msg.ephemeral:
            self.echo("MESSAGE_UPDATE", self.gateway_message(msg))

    def delete_message(self, msg: HarnessMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self.echo("MESSAGE_DELETE", data)

    def gateway_message(self, msg: HarnessMessage) -> dict[str, Any]:
        data = copy.deepcopy(msg.payload)
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
            guild = self.guilds.get(msg.guild_id)
            author = self.users.get(msg.author_id)
            if guild and author and author.id in guild.members:
                data["member"] = self.member_payload(guild, author, with_user=False)
        return data

    def _interaction_extras(self, rec: InteractionRecord, *, original: bool) -> dict[str, Any]:
        user = self.users[rec.user_id]
        meta: dict[str, Any] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": self.user_payload(user),
            "authorizing_integration_owners": copy.deepcopy(rec.payload.get("authorizing_integration_owners", {})),
        }
        extras: dict[str, Any] = {"webhook_id": str(self.app_id), "application_id": str(self.app_id)}
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
                "user": self.user_payload(user),
            }
        if rec.type == 3 and rec.message_id:
            meta["interacted_message_id"] = str(rec.message_id)
        meta = {k: v for k, v in meta.items() if v is not None}
        extras["interaction_metadata"] = meta
        return extras

    # ------------------------------------------------------------------------------------------------
    # request entry point

    def parse_path(self, url: str) -> tuple[str, dict[str, Any]]:
        parts = urllib.parse.urlsplit(url)
        path = API_PREFIX.sub("", parts.path)
        query = dict(urllib.parse.parse_qsl(parts.query))
        return path, query

    def handle(
        self,
        method: str,
        url: str,
        dpy_route: str,
        *,
        json_body: Any = None,
        form: list[dict[str, Any]] | None = None,
        files: list[Any] | None = None,
        query: dict[str, Any] | None = None,
        reason: str | None = None,
        via: str = "http",
    ) -> Any:
        path, url_query = self.parse_path(url)
        all_query = {**url_query, **{k: v for k, v in (query or {}).items()}}
        body = json_body
        multipart = False
        if form:
            multipart = True
            for part in form:
                if part.get("name") == "payload_json":
                    value = part.get("value")
                    body = json.loads(value) if isinstance(value, (str, bytes)) else value
        recorded_files = []
        for index, f in enumerate(files or []):
            try:
                data = f.fp.read()
            except Exception:  # pragma: no cover - exotic file objects
                data = b""
            recorded_files.append(
                RecordedFile(
                    field=f"files[{index}]",
                    filename=f.filename,
                    data=data,
                    description=getattr(f, "description", None),
                    spoiler=bool(getattr(f, "spoiler", False)),
                )
            )
        params: dict[str, str] = {}
        route = dpy_route
        if self.schema is not None:
            template, found = self.schema.match_template(path)
            if template is not None:
                route, params = template, {k: urllib.parse.unquote(v) for k, v in found.items()}
        if not params:
            m = _template_regex(dpy_route).match(path)
            if m:
                params = {k: urllib.parse.unquote(v) for k, v in m.groupdict().items()}
        req = RecordedRequest(
            method=method,
            path=path,
            route=route,
            dpy_route=dpy_route,
            params=params,
            query=all_query,
            json=copy.deepcopy(body),
            files=recorded_files,
            multipart=multipart,
            reason=reason,
            via=via,
        )
        self.requests.append(req)
        index = len(self.requests) - 1
        try:
            self._validate(req)
            result = self._dispatch(req, index)
        except ApiError as exc:
            req.status = exc.status
            req.error = str(exc)
            req.response = exc.body()
            if exc.violation:
                self.violations.append(f"{req.method} {req.route}: Discord would answer {exc}")
            raise
        req.status = 204 if result is None else 200
        req.response = copy.deepcopy(result)
        return copy.deepcopy(result)

    def _validate(self, req: RecordedRequest) -> None:
        if self.schema is None or req.json is None:
            return
        op, _ = self.schema.match(req.method, req.path)
        if op is None:
            return
        req.schema = op.schema_name
        problems = self.schema.problems(op, req.json)
        if self.discord_rules:
            problems += discord_rule_errors(op.template, req.method, req.json)
        if problems:
            lines = "\n".join(f"    {p}" for p in problems)
            kind = "payload_json of a multipart body" if req.multipart else "JSON body"
            self.violations.append(f"{req.method} {op.template}: {kind} does not match {op.short_name}:\n{lines}")
            raise ApiError(400, 50035, "Invalid Form Body", errors=_errors_tree(problems))

    def _dispatch(self, req: RecordedRequest, index: int) -> Any:
        token = req.params.get("webhook_token") or req.params.get("interaction_token")
        if token and token in self.interactions:
            self.interactions[token].request_indexes.append(index)
        for override in list(self.overrides):
            if override.matches(req):
                if override.times is not None:
                    override.times -= 1
                    if override.times <= 0:
                        self.overrides.remove(override)
                if override.status >= 400:
                    raise ApiError(override.status, override.code, override.message or "Injected error")
                respond = override.respond
                return respond(req) if callable(respond) else copy.deepcopy(respond)
        candidates = [r for r in self._routes if r[0] == req.method and r[1] == req.dpy_route]
        candidates += [r for r in self._routes if r[0] == req.method and r[1] != req.dpy_route]
        for _method, _template, regex, handler in candidates:
            m = regex.match(req.path)
            if m:
                req.params = {**{k: urllib.parse.unquote(v) for k, v in m.groupdict().items()}, **req.params}
                return handler(req)
        raise ApiError(
            404,
            0,
            f"the Discord harness has no canned response for {req.method} {req.dpy_route}; "
            "register one with harness.on(method, route, payload)",
            violation=True,
        )

    # ------------------------------------------------------------------------------------------------
    # routes

    def _route(self, method: str, template: str, handler: Callable[[RecordedRequest], Any]) -> None:
        self._routes.append((method, template, _template_regex(template), handler))

    def _register_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", lambda req: P.client_user_payload(self.bot_user.id, self.bot_user.name))
        r("GET", "/oauth2/applications/@me", self._app_info)
        r("GET", "/applications/@me", self._app_info)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._create_dm)
        # channels & messages
        r(
            "GET",
            "/channels/{channel_id}",
            lambda req: copy.deepcopy(self.channel_or_404(req.params["channel_id"]).payload),
        )
        r("PATCH", "/channels/{channel_id}", self._edit_channel)
        r("DELETE", "/channels/{channel_id}", self._delete_channel)
        r("POST", "/channels/{channel_id}/messages", self._create_channel_message)
        r("GET", "/channels/{channel_id}/messages", self._history)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_channel_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_channel_message)
        r("POST", "/channels/{channel_id}/typing", lambda req: None)
        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._add_reaction)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", lambda req: None)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/{member_id}", lambda req: None)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions", lambda req: None)
        r("PUT", "/channels/{channel_id}/pins/{message_id}", lambda req: None)
        r("DELETE", "/channels/{channel_id}/pins/{message_id}", lambda req: None)
        r("PUT", "/channels/{channel_id}/messages/pins/{message_id}", lambda req: None)
        r("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", lambda req: None)
        r("POST", "/channels/{channel_id}/threads", self._create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._create_thread)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", lambda req: None)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", lambda req: None)
        # guilds
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._guild_channels)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("GET", "/guilds/{guild_id}/roles", self._guild_roles)
        # application commands
        r("PUT", "/applications/{application_id}/commands", self._put_commands)
        r("GET", "/applications/{application_id}/commands", self._get_commands)
        r("POST", "/applications/{application_id}/commands", self._upsert_command)
        r("PATCH", "/applications/{application_id}/commands/{command_id}", self._edit_command)
        r("DELETE", "/applications/{application_id}/commands/{command_id}", self._delete_command)
        r("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._put_commands)
        r("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._get_commands)
        r("POST", "/applications/{application_id}/guilds/{guild_id}/commands", self._upsert_command)
        r("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", self._edit_command)
        r("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}", self._delete_command)
        # interactions (webhook adapter)
        r("POST", "/interactions/{webhook_id}/{webhook_token}/callback", self._interaction_callback)
        r("POST", "/webhooks/{webhook_id}/{webhook_token}", self._execute_webhook)
        r("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._get_webhook_message)
        r("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._edit_webhook_message)
        r("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", self._delete_webhook_message)

    # -- users / app ---------------------------------------------------------------------------------
    def _app_info(self, req: RecordedRequest) -> dict[str, Any]:
        owner = self.owner or self.bot_user
        return P.app_info_payload(
            self.app_id, self.bot_user.name, self.user_payload(owner), self.user_payload(self.bot_user)
        )

    def _get_user(self, req: RecordedRequest) -> dict[str, Any]:
        user = self.users.get(int(req.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return self.user_payload(user)

    def _create_dm(self, req: RecordedRequest) -> dict[str, Any]:
        body = req.json or {}
        recipient = body.get("recipient_id")
        user = self.users.get(int(recipient)) if recipient is not None else None
        if user is None or user.id == self.bot_user.id:
            raise ApiError(400, 50033, "Invalid Recipient(s)", violation=True)
        return copy.deepcopy(self.dm_channel_for(user).payload)

    # -- channels ------------------------------------------------------------------------------------
    def _edit_channel(self, req: RecordedRequest) -> dict[str, Any]:
        channel = self.channel_or_404(req.params["channel_id"])
        body = req.json or {}
        for key in ("name", "topic", "nsfw", "rate_limit_per_user", "position"):
            if key in body:
                channel.payload[key] = body[key]
        meta = channel.payload.get("thread_metadata")
        if isinstance(meta, dict):
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
            self.echo("THREAD_UPDATE", copy.deepcopy(channel.payload))
        elif channel.guild_id:
            self.echo("CHANNEL_UPDATE", copy.deepcopy(channel.payload))
        return copy.deepcopy(channel.payload)

    def _delete_channel(self, req: RecordedRequest) -> dict[str, Any]:
        channel = self.channel_or_404(req.params["channel_id"])
        self.channels.pop(channel.id, None)
        event = "THREAD_DELETE" if channel.type in (10, 11, 12) else "CHANNEL_DELETE"
        if channel.guild_id:
            self.echo(event, copy.deepcopy(channel.payload))
        return copy.deepcopy(channel.payload)

    def _create_channel_message(self, req: RecordedRequest) -> dict[str, Any]:
        channel = self.channel_or_404(req.params["channel_id"])
        body = req.json or {}
        if channel.is_dm:
            recipient = self.users[channel.recipient_id]  # type: ignore[index]
            if not recipient.dms_open or recipient.bot:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            kind = "dm"
        else:
            kind = "channel"
        if int(body.get("flags") or 0) & EPHEMERAL:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "flags": {
                        "_errors": [
                            {
                                "code": "MESSAGE_FLAGS_INVALID",
                                "message": "ephemeral is only valid for interaction responses",
                            }
                        ]
                    }
                },
                violation=True,
            )
        msg = self.create_message(channel, body, req.files, author=self.bot_user, kind=kind)
        return copy.deepcopy(msg.payload)

    def _history(self, req: RecordedRequest) -> list[dict[str, Any]]:
        channel = self.channel_or_404(req.params["channel_id"])
        limit = int(req.query.get("limit", 50))
        items = [m for m in self.messages.values() if m.channel_id == channel.id and not m.deleted and not m.ephemeral]
        if "before" in req.query:
            items = [m for m in items if m.id < int(req.query["before"])]
        if "after" in req.query:
            items = [m for m in items if m.id > int(req.query["after"])]
        items.sort(key=lambda m: m.id, reverse=True)
        if "after" in req.query:
            items = items[-limit:]
        return [copy.deepcopy(m.payload) for m in items[:limit]]

    def _get_message(self, req: RecordedRequest) -> dict[str, Any]:
        return copy.deepcopy(self.message_or_404(req.params["channel_id"], req.params["message_id"]).payload)

    def _edit_channel_message(self, req: RecordedRequest) -> dict[str, Any]:
        msg = self.message_or_404(req.params["channel_id"], req.params["message_id"])
        if msg.author_id != self.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user", violation=True)
        self.edit_message(msg, req.json or {}, req.files)
        return copy.deepcopy(msg.payload)

    def _delete_channel_message(self, req: RecordedRequest) -> None:
        msg = self.message_or_404(req.params["channel_id"], req.params["message_id"])
        self.delete_message(msg)
        return None

    def _add_reaction(self, req: RecordedRequest) -> None:
        msg = self.message_or_404(req.params["channel_id"], req.params["message_id"])
        emoji = urllib.parse.unquote(req.params["emoji"])
        reactions = msg.payload.setdefault("reactions", [])
        for reaction in reactions:
            if reaction["emoji"].get("name") == emoji and not reaction["me"]:
                reaction["me"] = True
                reaction["count"] += 1
                break
        else:
            reactions.append(
                {
                    "emoji": {"id": None, "name": emoji},
                    "count": 1,
                    "me": True,
                    "count_details": {"burst": 0, "normal": 1},
                    "burst_colors": [],
                    "me_burst": False,
                    "burst_me": False,
                    "burst_count": 0,
                }
            )
        return None

    def _create_thread(self, req: RecordedRequest) -> dict[str, Any]:
        parent = self.channel_or_404(req.params["channel_id"])
        if parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type", violation=True)
        body = req.json or {}
        from_message = "message_id" in req.params
        thread_id = int(req.params["message_id"]) if from_message else self.new_id()
        private = not from_message and body.get("type", 12) == 12
        payload = P.thread_payload(
            thread_id,
            parent.guild_id,
            parent.id,
            self.bot_user.id,
            body.get("name", "thread"),
            private=private,
            auto_archive_duration=body.get("auto_archive_duration") or 1440,
        )
        self.channels[thread_id] = SimChannel(
            id=thread_id, type=payload["type"], payload=payload, guild_id=parent.guild_id
        )
        self.guilds[parent.guild_id].channel_ids.append(thread_id)
        self.echo("THREAD_CREATE", {**copy.deepcopy(payload), "newly_created": True})
        return copy.deepcopy(payload)

    # -- guilds --------------------------------------------------------------------------------------
    def _guild_or_404(self, guild_id: str) -> SimGuild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _get_guild(self, req: RecordedRequest) -> dict[str, Any]:
        guild = self._guild_or_404(req.params["guild_id"])
        data = P.guild_payload(
            guild.id,
            guild.name,
            owner_id=guild.owner_id,
            roles=[copy.deepcopy(r.payload) for r in guild.roles.values()],
            channels=[],
            members=[],
            joined_at=P.iso(),
            locale=guild.locale,
        )
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
            "unavailable",
            "lazy",
        ):
            data.pop(key, None)
        return data

    def _guild_channels(self, req: RecordedRequest) -> list[dict[str, Any]]:
        guild = self._guild_or_404(req.params["guild_id"])
        return [
            copy.deepcopy(self.channels[c].payload)
            for c in guild.channel_ids
            if c in self.channels and self.channels[c].type not in (10, 11, 12)
        ]

    def _guild_roles(self, req: RecordedRequest) -> list[dict[str, Any]]:
        guild = self._guild_or_404(req.params["guild_id"])
        return [copy.deepcopy(r.payload) for r in guild.roles.values()]

    def _get_member(self, req: RecordedRequest) -> dict[str, Any]:
        guild = self._guild_or_404(req.params["guild_id"])
        user = self.users.get(int(req.params["user_id"]))
        if user is None or user.id not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return self.member_payload(guild, user)

    # -- application commands ------------------------------------------------------------------------
    def _check_app(self, req: RecordedRequest) -> int | None:
        if int(req.params["application_id"]) != self.app_id:
            raise ApiError(404, 10002, "Unknown Application", violation=True)
        gid = req.params.get("guild_id")
        return int(gid) if gid else None

    def _register_command(self, guild_id: int | None, command: dict[str, Any]) -> dict[str, Any]:
        key = (guild_id, command["name"], int(command.get("type", 1)))
        cid = self.command_ids.setdefault(key, self.new_id())
        return P.app_command_response(
            command, command_id=cid, app_id=self.app_id, version=self.new_id(), guild_id=guild_id
        )

    def _put_commands(self, req: RecordedRequest) -> list[dict[str, Any]]:
        guild_id = self._check_app(req)
        body = req.json or []
        seen = set()
        for cmd in body:
            key = (cmd.get("name"), int(cmd.get("type", 1)))
            if key in seen:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={
                        "_errors": [
                            {"code": "APPLICATION_COMMANDS_DUPLICATE_NAME", "message": f"duplicate command {key[0]!r}"}
                        ]
                    },
                    violation=True,
                )
            seen.add(key)
        self.commands[guild_id] = [self._register_command(guild_id, cmd) for cmd in body]
        return copy.deepcopy(self.commands[guild_id])

    def _get_commands(self, req: RecordedRequest) -> list[dict[str, Any]]:
        guild_id = self._check_app(req)
        return copy.deepcopy(self.commands.get(guild_id, []))

    def _upsert_command(self, req: RecordedRequest) -> dict[str, Any]:
        guild_id = self._check_app(req)
        registered = self._register_command(guild_id, req.json or {})
        current = [c for c in self.commands.get(guild_id, []) if c["id"] != registered["id"]]
        self.commands[guild_id] = current + [registered]
        return copy.deepcopy(registered)

    def _find_command(self, req: RecordedRequest) -> tuple[int | None, dict[str, Any]]:
        guild_id = self._check_app(req)
        for cmd in self.commands.get(guild_id, []):
            if cmd["id"] == req.params["command_id"]:
                return guild_id, cmd
        raise ApiError(404, 10063, "Unknown application command", violation=True)

    def _edit_command(self, req: RecordedRequest) -> dict[str, Any]:
        _, cmd = self._find_command(req)
        cmd.update(copy.deepcopy(req.json or {}))
        return copy.deepcopy(cmd)

    def _delete_command(self, req: RecordedRequest) -> None:
        guild_id, cmd = self._find_command(req)
        self.commands[guild_id].remove(cmd)
        return None

    # -- interactions --------------------------------------------------------------------------------
    def _interaction_callback(self, req: RecordedRequest) -> dict[str, Any] | None:
        token = req.params.get("interaction_token") or req.params.get("webhook_token")
        iid = req.params.get("interaction_id") or req.params.get("webhook_id")
        rec = self.interactions.get(token or "")
        if rec is None or str(rec.id) != str(iid):
            raise ApiError(404, 10062, "Unknown interaction", violation=True)
        if rec.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.", violation=True)
        body = req.json or {}
        ctype = body.get("type")
        data = body.get("data") or {}
        allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}.get(rec.type, set())
        if ctype not in allowed or (ctype in (6, 7) and rec.message_id is None):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_CALLBACK_TYPE_INVALID",
                                "message": f"callback type {ctype} is not valid for interaction type {rec.type}"
                                + (" without a message" if ctype in (6, 7) else ""),
                            }
                        ]
                    }
                },
                violation=True,
            )
        rec.callbacks.append(copy.deepcopy(body))
        channel = self.channels[rec.channel_id]
        info: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        resource: dict[str, Any] | None = {"type": ctype}
        if ctype in (4, 5):
            ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            msg_body = data if ctype == 4 else {"content": "", "flags": LOADING}
            msg = self.create_message(
                channel,
                msg_body,
                req.files if ctype == 4 else [],
                author=self.bot_user,
                kind="interaction",
                ephemeral=ephemeral,
                recipient_id=rec.user_id if ephemeral else None,
                token=rec.token,
                extra=self._interaction_extras(rec, original=True),
                msg_type=20 if rec.type == 2 else 0,
            )
            rec.original_message_id = msg.id
            self._touch(rec, msg)
            info.update(
                response_message_id=str(msg.id),
                response_message_loading=ctype == 5,
                response_message_ephemeral=ephemeral,
            )
            resource = {"type": ctype, "message": copy.deepcopy(msg.payload)}
        elif ctype in (6, 7):
            msg = self.messages[rec.message_id]  # type: ignore[index]
            rec.original_message_id = msg.id
            if ctype == 7:
                self.edit_message(msg, data, req.files)
                self._touch(rec, msg)
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

    def _touch(self, rec: InteractionRecord, msg: HarnessMessage) -> None:
        if msg.id not in rec.touched_ids:
            rec.touched_ids.append(msg.id)
        self.touched.append(msg.id)

    def _webhook_interaction(self, req: RecordedRequest) -> InteractionRecord:
        token = req.params.get("webhook_token", "")
        rec = self.interactions.get(token)
        if str(req.params.get("webhook_id")) != str(self.app_id) or rec is None:
            raise ApiError(
                404, 10015, "Unknown Webhook (the harness only simulates interaction webhooks)", violation=True
            )
        if not rec.acknowledged:
            raise ApiError(404, 10015, "Unknown Webhook (interaction not acknowledged yet)", violation=True)
        return rec

    def _webhook_message(self, req: RecordedRequest, rec: InteractionRecord) -> HarnessMessage:
        mid_param = req.params.get("message_id")
        if mid_param == "@original":
            mid = rec.original_message_id
        else:
            mid = int(mid_param) if mid_param and mid_param.isdigit() else None
            if mid is not None and mid not in rec.touched_ids and mid != rec.original_message_id:
                mid = None
        msg = self.messages.get(mid) if mid else None
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message", violation=True)
        return msg

    def _execute_webhook(self, req: RecordedRequest) -> dict[str, Any] | None:
        rec = self._webhook_interaction(req)
        body = req.json or {}
        original = self.messages.get(rec.original_message_id) if rec.original_message_id else None
        if original is not None and original.is_loading and rec.callbacks[0].get("type") == 5:
            # the first follow-up after a deferred response replaces the "thinking..." message
            self.edit_message(original, body, req.files)
            msg = original
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            msg = self.create_message(
                self.channels[rec.channel_id],
                body,
                req.files,
                author=self.bot_user,
                kind="followup",
                ephemeral=ephemeral,
                recipient_id=rec.user_id if ephemeral else None,
                token=rec.token,
                extra=self._interaction_extras(rec, original=False),
            )
            rec.followup_ids.append(msg.id)
        self._touch(rec, msg)
        if str(req.query.get("wait", "")).lower() in ("1", "true"):
            return copy.deepcopy(msg.payload)
        return None

    def _get_webhook_message(self, req: RecordedRequest) -> dict[str, Any]:
        rec = self._webhook_interaction(req)
        return copy.deepcopy(self._webhook_message(req, rec).payload)

    def _edit_webhook_message(self, req: RecordedRequest) -> dict[str, Any]:
        rec = self._webhook_interaction(req)
        msg = self._webhook_message(req, rec)
        self.edit_message(msg, req.json or {}, req.files)
        self._touch(rec, msg)
        return copy.deepcopy(msg.payload)

    def _delete_webhook_message(self, req: RecordedRequest) -> None:
        rec = self._webhook_interaction(req)
        self.delete_message(self._webhook_message(req, rec))
        return None
