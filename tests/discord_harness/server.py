"""The fake Discord "server": remembers the world, records requests and answers them.

Both of discord.py's transports end up in :meth:`FakeDiscord.handle`: the bot's ``HTTPClient.request``
(REST calls such as ``channel.send``) and the webhook adapter (interaction callbacks, follow-ups and
edits of interaction messages). Each request is recorded, counted against Discord's rate limits
(``ratelimits.py``, when enabled), its JSON body (or the ``payload_json`` part of a multipart body)
is validated against Discord's published schema, and a realistic payload is returned so that
discord.py builds its real objects from it. The routes themselves are in ``rest.py`` (users,
channels, messages, threads, commands), ``roles.py`` (guild roles and members) and ``webhooks.py``
(interaction callbacks and the interaction token's webhooks).
"""

from __future__ import annotations

import copy
import json
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import payloads as P
from . import rest, roles, webhooks
from .errors import ApiError
from .ratelimits import Clock, RateLimited, RateLimiter, RateLimitHit
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
V2 = 1 << 15
ALL_PERMISSIONS = (1 << 53) - 1


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


def template_regex(template: str) -> re.Pattern[str]:
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


Handler = Callable[["FakeDiscord", RecordedRequest], Any]


class FakeDiscord:
    def __init__(
        self,
        *,
        app_id: int,
        bot_user: SimUser,
        schema: DiscordSchema | None,
        discord_rules: bool = True,
        clock: Clock | None = None,
        rate_limits: bool = False,
    ):
        self.ids: Any = P.Snowflakes(after=app_id)  # anything with next() -> int (tests swap in recorders)
        self.app_id = app_id
        self.bot_user = bot_user
        self.schema = schema
        self.discord_rules = discord_rules
        self.clock = clock or Clock()
        self.limiter: RateLimiter | None = RateLimiter(self.clock) if rate_limits else None
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
        self.busy_seconds = 0.0  # time spent answering requests (the harness's own work, not the bot's)
        #: (channel, author, nonce) -> message id: a create with ``enforce_nonce`` and a nonce seen
        #: before returns that message instead of posting another (as Discord does)
        self.nonces: dict[tuple[int, int, str], int] = {}
        self.journal: Any = None  # persist.Journal when the world outlives the process
        self._routes: list[tuple[str, str, re.Pattern[str], Handler]] = [
            (method, template, template_regex(template), handler)
            for method, template, handler in rest.ROUTES + roles.ROUTES + webhooks.ROUTES
        ]

    # ------------------------------------------------------------------------------------------------
    # the world

    def new_id(self) -> int:
        value: int = self.ids.next()
        return value

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
        """Guild-level permissions (the harness simulates no channel overwrites)."""
        if user_id == guild.owner_id:
            return ALL_PERMISSIONS
        value = guild.everyone_permissions
        for role_id in guild.members.get(user_id, {}).get("roles", []):
            role = guild.roles.get(role_id)
            if role:
                value |= role.permissions
        if value & 8:  # administrator
            return ALL_PERMISSIONS
        return value

    def bot_permissions(self, channel: SimChannel) -> int:
        if channel.guild_id is None:
            return ALL_PERMISSIONS
        return self.bot_guild_permissions(self.guilds[channel.guild_id])

    def bot_guild_permissions(self, guild: SimGuild) -> int:
        """The bot's guild-level permissions: @everyone's and its roles' (all as owner or administrator)."""
        return self.permissions(guild, self.bot_user.id)

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

    def describe_channel(self, channel_id: int | str) -> str:
        channel = self.channels.get(int(channel_id))
        if channel is None:
            return f"channel {channel_id}"
        if channel.is_dm:
            user = self.users.get(channel.recipient_id or 0)
            return f"the DM channel with {user.name if user else channel.recipient_id} ({channel.id})"
        kind = "thread" if channel.is_thread else "channel"
        return f"{kind} #{channel.name} ({channel.id})"

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
            payload = P.attachment_payload(
                self.new_id(),
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

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        return [self.user_payload(self.users[u]) for u in P.mentioned_user_ids(content) if u in self.users]

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
        content = body.get("content") or ""
        flags = int(body.get("flags") or 0) & KEPT_FLAGS
        flags = flags | EPHEMERAL if ephemeral else flags & ~EPHEMERAL
        payload: dict[str, Any] = {
            "type": msg_type,
            "content": content,
            "mentions": self._mentions(P.displayed_text(body) if flags & V2 else content),
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
            changed=self.next_change(),
        )
        self.messages[mid] = msg
        if body.get("nonce") is not None and not ephemeral:
            self.nonces[(channel.id, author.id, str(body["nonce"]))] = mid
        if not ephemeral:
            channel.payload["last_message_id"] = str(mid)
            if channel.is_thread:
                rest.count_thread_message(channel)
            self.echo("MESSAGE_CREATE", self.gateway_message(msg))
        return msg

    def next_change(self) -> int:
        """The next number in the order in which messages are created and edited."""
        self._changes = getattr(self, "_changes", 0) + 1
        return self._changes

    def edit_message(self, msg: HarnessMessage, body: dict[str, Any], files: list[RecordedFile]) -> None:
        was_loading = msg.is_loading
        msg.history.append(copy.deepcopy(msg.payload))
        msg.changed = self.next_change()
        p = msg.payload
        if "content" in body:
            p["content"] = body["content"] or ""
            p["mentions"] = self._mentions(p["content"])
            p["mention_roles"] = P.mentioned_role_ids(p["content"])
        if "embeds" in body:
            p["embeds"] = [P.normalise_embed(e) for e in body["embeds"] or [] if isinstance(e, dict)]
        if "components" in body:
            p["components"] = P.number_components(body["components"] or [])
        if body.get("flags") is not None:
            # IS_COMPONENTS_V2 can be set on an edit but never removed (Discord keeps it)
            p["flags"] = (p["flags"] & ~EDITABLE_FLAGS) | (int(body["flags"]) & EDITABLE_FLAGS) | (p["flags"] & V2)
        if p["flags"] & V2 and ("components" in body or "content" in body):
            p["mentions"] = self._mentions(P.displayed_text(p))
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
        msg.changed = self.next_change()
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
        started = time.perf_counter()
        try:
            return self._handle(method, url, dpy_route, json_body, form, files, query, reason, via)
        finally:
            if self.journal is not None:  # saved before the bot hears the answer
                self.journal.save()
            self.busy_seconds += time.perf_counter() - started

    def _handle(
        self,
        method: str,
        url: str,
        dpy_route: str,
        json_body: Any,
        form: list[dict[str, Any]] | None,
        files: list[Any] | None,
        query: dict[str, Any] | None,
        reason: str | None,
        via: str,
    ) -> Any:
        path, url_query = self.parse_path(url)
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
            m = template_regex(dpy_route).match(path)
            if m:
                params = {k: urllib.parse.unquote(v) for k, v in m.groupdict().items()}
        req = RecordedRequest(
            method=method,
            path=path,
            route=route,
            dpy_route=dpy_route,
            params=params,
            query={**url_query, **(query or {})},
            json=copy.deepcopy(body),
            files=recorded_files,
            multipart=multipart,
            reason=reason,
            via=via,
            at=self.clock.now(),
        )
        self.requests.append(req)
        index = len(self.requests) - 1
        token = req.params.get("webhook_token") or req.params.get("interaction_token")
        if token and token in self.interactions:
            self.interactions[token].request_indexes.append(index)
        try:
            if self.limiter is not None:
                req.headers = self._admit(req, index)
            self._validate(req)
            result = self._dispatch(req)
        except ApiError as exc:
            req.status = exc.status
            req.error = str(exc)
            req.response = exc.body()
            req.headers = {**req.headers, **exc.headers}
            if exc.violation:
                details = f": {exc.details()}" if exc.errors else ""
                self.violations.append(f"{req.method} {req.route}: Discord would answer {exc}{details}")
            raise
        req.status = 204 if result is None else 200
        req.response = copy.deepcopy(result)
        return copy.deepcopy(result)

    def _admit(self, req: RecordedRequest, index: int) -> dict[str, str]:
        assert self.limiter is not None
        try:
            return self.limiter.admit(index, req.method, req.path, req.route, req.at)
        except RateLimited as limited:
            raise ApiError(
                429,
                0,
                self.describe_hit(limited.hit),
                violation=True,
                headers=limited.headers,
                body=limited.body(),
            ) from None

    def describe_hit(self, hit: RateLimitHit) -> str:
        """A 429 in words, naming the channel of a per-channel bucket."""
        return hit.describe(self.describe_channel(hit.params["channel_id"]) if "channel_id" in hit.params else "")

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

    def _dispatch(self, req: RecordedRequest) -> Any:
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
                return handler(self, req)
        raise ApiError(
            404,
            0,
            f"the Discord harness has no canned response for {req.method} {req.dpy_route}; "
            "register one with harness.on(method, route, payload)",
            violation=True,
        )
