"""Discord's rate limits, as the fake Discord enforces them, on the harness's own clock.

Discord limits a bot in two ways (https://discord.com/developers/docs/topics/rate-limits):

- **per-route buckets**: a route (method + path template) plus its *major parameter* (the channel,
  the guild, or the webhook id + token) has a fixed window: so many requests, then the window must
  end. Every answer carries the bucket's state in ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``
  (epoch seconds), ``-Reset-After`` (seconds) and ``-Bucket`` (an opaque id);
- **the global limit**: 50 requests per second for the whole bot. Interaction endpoints (the
  callback, and the follow-ups and edits made with the interaction token) are not bound by it.

A request over a limit is answered ``429 Too Many Requests`` with ``{"message": "You are being
rate limited.", "retry_after": <seconds>, "global": <bool>}``, ``Retry-After`` and
``X-RateLimit-Scope`` (``user`` for a route's bucket, ``global``). Discord says not to hard-code its
limits; :data:`BUCKETS` holds the ones this fake answers with (the published or commonly observed
values where there are any, marked below) and is what a test's ``RecordedRequest.headers`` show.

Time is the harness's :class:`Clock`: the event loop's clock plus simulated time, which moves when
a simulated player acts (their think time), when a test calls ``harness.advance(seconds)``, and when
a 429 makes the bot wait ``retry_after`` (so a run never really sleeps).
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class Clock:
    """The harness's time in seconds: ``base()`` (the event loop's clock) plus simulated time."""

    def __init__(self, base: Callable[[], float] = time.monotonic):
        self._base = base
        self.simulated = 0.0

    def now(self) -> float:
        return self._base() + self.simulated

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass at once (a player thinking, a test skipping ahead)."""
        if seconds > 0:
            self.simulated += seconds

    def advance_to(self, moment: float) -> None:
        """Let time pass until ``moment`` (no-op if it has passed: concurrent waiters share it)."""
        self.advance(moment - self.now())

    def epoch(self, moment: float) -> float:
        """``moment`` as Unix time (for ``X-RateLimit-Reset``)."""
        return time.time() + (moment - self.now())


@dataclass(frozen=True)
class Limit:
    """``requests`` per ``per`` seconds, for each value of the ``major`` path parameters."""

    name: str
    requests: int
    per: float
    major: tuple[str, ...] = ()
    source: str = ""  # where the number comes from

    def describe(self) -> str:
        names = {"channel_id": "channel", "guild_id": "guild", "webhook_id": "webhook", "webhook_token": "token"}
        scope = f" per {' + '.join(names.get(m, m) for m in self.major)}" if self.major else ""
        return f"{self.requests} requests per {self.per:g} s{scope}"


@dataclass(frozen=True)
class BucketRule:
    method: str
    pattern: re.Pattern[str]
    limit: Limit | None  # None: not rate limited at all (interaction callbacks)
    global_limit: bool = True  # counts against the bot's 50 requests per second


def _rule(method: str, path: str, limit: Limit | None, *, global_limit: bool = True) -> BucketRule:
    """``path`` is a template: ``{name}`` matches one segment and names it."""
    parts = re.split(r"(\{[a-z_]+\})", path)
    regex = "".join(f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") else re.escape(p) for p in parts)
    return BucketRule(method, re.compile(f"^{regex}$"), limit, global_limit)


GLOBAL = Limit("global", 50, 1.0, source="Discord's documented global limit for a bot")
MESSAGES = Limit(
    "create message", 5, 5.0, ("channel_id",), "Discord: 5 messages per 5 s per channel (design/discord.md)"
)
EDITS = Limit("edit message", 5, 5.0, ("channel_id",), "observed: shares the message window of its channel")
DELETES = Limit("delete message", 5, 1.0, ("channel_id",), "observed: 5 per second per channel")
THREADS = Limit("create thread", 5, 5.0, ("channel_id",), "modelled like messages: none published")
THREAD_MEMBERS = Limit("thread member", 5, 5.0, ("channel_id",), "modelled: none published")
INTERACTION_WEBHOOK = Limit(
    "interaction webhook",
    5,
    2.0,
    ("webhook_id", "webhook_token"),
    "observed webhook window (5 per 2 s) per interaction token; not bound by the global limit",
)
OTHER = Limit("route", 50, 1.0, ("channel_id", "guild_id"), "modelled: only the global limit binds in practice")

BUCKETS: list[BucketRule] = [
    # interaction callbacks are neither rate limited nor counted (one answer per interaction anyway)
    _rule("POST", "/interactions/{interaction_id}/{interaction_token}/callback", None, global_limit=False),
    # follow-ups, edits and deletes with the interaction token: per-token bucket, no global limit
    _rule("*", "/webhooks/{webhook_id}/{webhook_token}", INTERACTION_WEBHOOK, global_limit=False),
    _rule("*", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", INTERACTION_WEBHOOK, global_limit=False),
    _rule("POST", "/channels/{channel_id}/messages", MESSAGES),
    _rule("PATCH", "/channels/{channel_id}/messages/{message_id}", EDITS),
    _rule("DELETE", "/channels/{channel_id}/messages/{message_id}", DELETES),
    _rule("POST", "/channels/{channel_id}/threads", THREADS),
    _rule("POST", "/channels/{channel_id}/messages/{message_id}/threads", THREADS),
    _rule("PUT", "/channels/{channel_id}/thread-members/{user_id}", THREAD_MEMBERS),
    _rule("DELETE", "/channels/{channel_id}/thread-members/{user_id}", THREAD_MEMBERS),
]


def rule_for(method: str, path: str) -> tuple[BucketRule | None, dict[str, str]]:
    """The bucket rule of a concrete path (None: the default per-route bucket)."""
    for rule in BUCKETS:
        if rule.method in ("*", method):
            m = rule.pattern.match(path)
            if m:
                return rule, m.groupdict()
    return None, {}


@dataclass
class Window:
    """One fixed window of one bucket (Discord's windows start at the first request)."""

    limit: Limit
    bucket: str  # the route (or "global"): one X-RateLimit-Bucket
    params: dict[str, str]  # the major parameters this window counts for
    start: float = -math.inf
    used: int = 0

    def roll(self, now: float) -> None:
        if now >= self.start + self.limit.per:
            self.start, self.used = now, 0

    def full(self) -> bool:
        return self.used >= self.limit.requests

    def reset_after(self, now: float) -> float:
        return max(0.0, self.start + self.limit.per - now)


@dataclass
class RateLimitHit:
    """One request Discord answered 429."""

    request_index: int
    method: str
    route: str
    limit: Limit
    params: dict[str, str]  # the major parameters of the exhausted bucket (none: global)
    retry_after: float
    is_global: bool
    used: int  # requests already admitted in the window

    def describe(self, where: str = "") -> str:
        """``where``: the bucket's resource in words (e.g. "channel #duels (123)")."""
        if self.is_global:
            bucket = "the bot's global limit"
        else:
            resource = where or ", ".join(f"{k} {v}" for k, v in self.params.items())
            bucket = f"the {self.limit.name!r} bucket" + (f" of {resource}" if resource else "")
        return (
            f"429 Too Many Requests: {bucket} allows {self.limit.describe()}, and {self.used} requests were "
            f"already made in this window; retry_after {self.retry_after:.2f} s "
            "(discord.py waits and retries: the players see the bot stall)"
        )


class RateLimited(Exception):
    """Raised by :meth:`RateLimiter.admit`: the request must be answered 429."""

    def __init__(self, hit: RateLimitHit, headers: dict[str, str]):
        super().__init__(hit.describe())
        self.hit = hit
        self.headers = headers

    def body(self) -> dict[str, Any]:
        return {
            "message": "You are being rate limited.",
            "retry_after": math.ceil(self.hit.retry_after * 1000) / 1000,  # waiting it always suffices
            "global": self.hit.is_global,
        }


def bucket_id(name: str) -> str:
    """An opaque X-RateLimit-Bucket value, stable per route."""
    return hashlib.sha1(name.encode()).hexdigest()[:32]


_MAJOR = re.compile(r"^/(channels|guilds)/(\d+)")


@dataclass
class RateLimiter:
    """Counts requests in fixed windows per bucket and globally; decides 200 or 429."""

    clock: Clock
    windows: dict[tuple[str, tuple[tuple[str, str], ...]], Window] = field(default_factory=dict)
    hits: list[RateLimitHit] = field(default_factory=list)

    def _window(self, limit: Limit, bucket: str, params: dict[str, str]) -> Window:
        key = (bucket, tuple(sorted(params.items())))
        window = self.windows.get(key)
        if window is None:
            window = self.windows[key] = Window(limit, bucket, params)
        return window

    def admit(self, index: int, method: str, path: str, route: str, now: float) -> dict[str, str]:
        """Count one request made at ``now``; return the rate-limit headers of its answer, or raise
        RateLimited (the request then counts against nothing)."""
        rule, found = rule_for(method, path)
        if rule is not None and rule.limit is None:
            return {}
        if rule is not None and rule.limit is not None:
            limit, bucket = rule.limit, f"{rule.method} {rule.pattern.pattern}"
        else:
            limit, bucket = OTHER, f"{method} {route}"
            m = _MAJOR.match(path)
            found = {("channel_id" if m.group(1) == "channels" else "guild_id"): m.group(2)} if m else {}
        params = {name: found[name] for name in limit.major if name in found}
        window = self._window(limit, bucket, params)
        window.roll(now)
        glob = self._window(GLOBAL, "global", {}) if rule is None or rule.global_limit else None
        if glob is not None:
            glob.roll(now)
            if glob.full():
                hit = RateLimitHit(index, method, route, GLOBAL, {}, glob.reset_after(now), True, glob.used)
                self.hits.append(hit)
                raise RateLimited(hit, self._headers(glob, now, scope="global"))
        if window.full():
            hit = RateLimitHit(index, method, route, limit, params, window.reset_after(now), False, window.used)
            self.hits.append(hit)
            raise RateLimited(hit, self._headers(window, now, scope="user"))
        window.used += 1
        if glob is not None:
            glob.used += 1
        return self._headers(window, now)

    def _headers(self, window: Window, now: float, *, scope: str | None = None) -> dict[str, str]:
        reset_after = window.reset_after(now)
        headers = {
            "X-RateLimit-Limit": str(window.limit.requests),
            "X-RateLimit-Remaining": str(max(0, window.limit.requests - window.used)),
            "X-RateLimit-Reset": f"{self.clock.epoch(window.start + window.limit.per):.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_id(window.bucket),
        }
        if scope is not None:
            headers["X-RateLimit-Scope"] = scope
            headers["Retry-After"] = str(max(1, math.ceil(reset_after)))
            if scope == "global":
                headers["X-RateLimit-Global"] = "true"
        return headers


__all__ = [
    "BUCKETS",
    "GLOBAL",
    "BucketRule",
    "Clock",
    "Limit",
    "RateLimitHit",
    "RateLimited",
    "RateLimiter",
    "Window",
    "bucket_id",
    "rule_for",
]
