"""Patching discord.py onto the fake Discord, and undoing it.

The bot's ``HTTPClient`` gets a ``request`` (and ``static_login``, ``close``, ``get_from_cdn``) that
hand every call to the fake server; the gateway connection and the aiohttp session are refused
(the gateway's stand-in is in gateway.py). Interaction callbacks, follow-ups and edits go through discord.py's
webhook adapter, which is swapped through its context variable. Errors discord.py logs, and
exceptions the event loop reports, are captured as bot errors.

Both transports retry a 429 as discord.py does (up to 5 tries), after waiting ``retry_after`` on
the harness's clock (moved forward, not slept).
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
import traceback
from collections.abc import Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, cast

import discord
import discord.interactions as dpy_interactions
import discord.webhook.async_ as dpy_webhook
from discord.http import Route

from .errors import ApiError

if TYPE_CHECKING:
    from .harness import DiscordHarness

interactions_module: Any = dpy_interactions  # its async_context is not re-exported (typed Any)
TRIES = 5  # discord.py's HTTPClient and webhook adapter try a request 5 times


class FakeResponse:
    """Enough of aiohttp.ClientResponse for discord.HTTPException (typed Any where passed)."""

    def __init__(self, status: int, method: str, url: str, headers: dict[str, str] | None = None):
        self.status = status
        self.reason = http.HTTPStatus(status).phrase if status in http.HTTPStatus._value2member_map_ else "Error"
        self.method = method
        self.url = url
        self.headers: dict[str, str] = dict(headers or {})


class NoNetworkSession:
    """Stands in for aiohttp.ClientSession: the harness never lets discord.py touch the network."""

    closed = False

    def __bool__(self) -> bool:
        return True

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("network access attempted while running under DiscordHarness")

    request = get = post = put = patch = delete = ws_connect = _refuse

    async def close(self) -> None:
        self.closed = True


class RecordingWebhookAdapter(dpy_webhook.AsyncWebhookAdapter):
    def __init__(self, harness: DiscordHarness):
        super().__init__()
        self._harness = harness

    async def request(
        self,
        route: Route,
        session: Any,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        proxy: Any = None,
        proxy_auth: Any = None,
        files: Sequence[discord.File] | None = None,
        reason: str | None = None,
        auth_token: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Any:
        return await transport(
            self._harness,
            route,
            json_body=payload,
            form=multipart,
            files=files,
            query=params,
            reason=reason,
            via="webhook",
        )


class ErrorLogCapture(logging.Handler):
    def __init__(self, sink: list[str]):
        super().__init__(level=logging.ERROR)
        self.sink = sink
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append(self.format(record))


def discord_error(exc: ApiError, route: Route) -> discord.HTTPException:
    """The exception discord.py raises for this answer."""
    response: Any = FakeResponse(exc.status, route.method, route.url, exc.headers)
    if exc.status == 403:
        return discord.Forbidden(response, exc.body())
    if exc.status == 404:
        return discord.NotFound(response, exc.body())
    if exc.status >= 500:
        return discord.DiscordServerError(response, exc.body())
    return discord.HTTPException(response, exc.body())


async def transport(
    harness: DiscordHarness,
    route: Route,
    *,
    json_body: Any,
    form: Any,
    files: Sequence[discord.File] | None,
    query: Any,
    reason: str | None,
    via: str,
) -> Any:
    """One request of the bot, answered by the fake server; a 429 is waited out and retried."""
    if harness.closed:
        raise RuntimeError(f"{route.method} {route.path} after the harness was closed")
    await asyncio.sleep(0)  # a real request always yields to the loop
    server = harness.server
    for attempt in range(TRIES):
        for f in files or ():
            f.reset(seek=attempt)
        try:
            return server.handle(
                route.method,
                route.url,
                route.path,
                json_body=json_body,
                form=form,
                files=list(files) if files else None,
                query=query,
                reason=reason,
                via=via,
            )
        except ApiError as exc:
            if exc.status != 429 or attempt == TRIES - 1:
                raise discord_error(exc, route) from None
            limited = server.requests[-1]  # handle() is synchronous: nothing came in between
            harness.clock.advance_to(limited.at + float(exc.body()["retry_after"]))
            await asyncio.sleep(0)
    raise AssertionError("unreachable")  # pragma: no cover


class Patches:
    """What :meth:`install` changed in discord.py and the event loop, so :meth:`uninstall` can undo it."""

    def __init__(self, harness: DiscordHarness, capture_loggers: Sequence[str]):
        self.harness = harness
        self.capture_loggers = list(capture_loggers)
        self.log_handler = ErrorLogCapture(harness.bot_errors)
        self.patched_http: list[str] = []
        self.saved_context: tuple[ContextVar[Any], ContextVar[Any]] | None = None
        self.saved_exception_handler: Any = None

    def install(self) -> None:
        harness = self.harness
        loop = asyncio.get_running_loop()
        http_client = harness.bot.http

        async def request(
            route: Route, *, files: Sequence[discord.File] | None = None, form: Any = None, **kwargs: Any
        ) -> Any:
            return await transport(
                harness,
                route,
                json_body=kwargs.get("json"),
                form=form,
                files=files,
                query=kwargs.get("params"),
                reason=kwargs.get("reason"),
                via="http",
            )

        async def static_login(token: str) -> Any:
            http_client.token = token
            http_client._HTTPClient__session = NoNetworkSession()  # type: ignore[attr-defined]
            http_client._global_over = asyncio.Event()
            http_client._global_over.set()
            return await http_client.request(Route("GET", "/users/@me"))

        async def close() -> None:
            return None

        async def get_from_cdn(url: str) -> bytes:
            data = harness.server.cdn.get(url.split("?")[0])
            if data is None:
                raise discord.NotFound(cast(Any, FakeResponse(404, "GET", url)), "asset not found")
            return data

        async def no_network(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("network access attempted while running under DiscordHarness")

        for name, value in {
            "request": request,
            "static_login": static_login,
            "close": close,
            "get_from_cdn": get_from_cdn,
            "ws_connect": no_network,
            "get_bot_gateway": no_network,
            "get_gateway": no_network,
        }.items():
            setattr(http_client, name, value)
            self.patched_http.append(name)

        adapter = RecordingWebhookAdapter(harness)
        context: ContextVar[Any] = ContextVar("async_webhook_context", default=adapter)
        # discord.interactions imports the context variable by name: swap it in both modules
        self.saved_context = (dpy_webhook.async_context, interactions_module.async_context)
        dpy_webhook.async_context = context
        interactions_module.async_context = context

        for name in self.capture_loggers:
            logging.getLogger(name).addHandler(self.log_handler)
        self.saved_exception_handler = loop.get_exception_handler()

        def on_loop_exception(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            exc = context.get("exception")
            text = context.get("message", "unhandled exception in event loop")
            if exc is not None:
                text += "\n" + "".join(traceback.format_exception(exc))
            harness.bot_errors.append(text)

        loop.set_exception_handler(on_loop_exception)

    def uninstall(self) -> None:
        http_client = self.harness.bot.http
        for name in self.patched_http:
            with contextlib.suppress(AttributeError):
                delattr(http_client, name)
        self.patched_http.clear()
        if self.saved_context is not None:
            dpy_webhook.async_context = self.saved_context[0]
            interactions_module.async_context = self.saved_context[1]
            self.saved_context = None
        for name in self.capture_loggers:
            logging.getLogger(name).removeHandler(self.log_handler)
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().set_exception_handler(self.saved_exception_handler)
