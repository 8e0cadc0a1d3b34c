"""Unguessable page addresses: a resource's number with an HMAC of it (issue 35, part 4).

A match page is ``/m/<token>``, where the token is the match's id in base 36, a dot, and the first
16 bytes of ``HMAC-SHA256(secret, "<kind>:<id>")`` in URL-safe base64 (22 characters). Without the
secret nobody can make the token of another id, so a server's matches cannot be enumerated by
counting; the id inside keeps the address short and lets the page find its match with one read.
The kind is signed with the id: a match's token opens no player's or tournament's page.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

TOKEN = re.compile(r"^([0-9a-z]{1,13})\.([A-Za-z0-9_-]{22})$")
KINDS = frozenset({"match", "player", "tournament", "seat"})


def _b36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


class Signer:
    """Makes and reads the tokens of one secret (``WEB_SECRET``)."""

    def __init__(self, secret: bytes | str) -> None:
        key = secret.encode() if isinstance(secret, str) else bytes(secret)
        if len(key) < 16:
            raise ValueError("the web secret must be at least 16 bytes long")
        self._key = key

    @classmethod
    def random(cls) -> Signer:
        """A signer of a fresh random secret (its links end with the process)."""
        return cls(secrets.token_bytes(32))

    def _mac(self, kind: str, ident: int) -> str:
        if kind not in KINDS:
            raise ValueError(f"no such kind of page: {kind!r}")
        digest = hmac.new(self._key, f"{kind}:{ident}".encode(), hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def token(self, kind: str, ident: int) -> str:
        """The token of resource ``ident`` of ``kind``."""
        if ident < 0:
            raise ValueError("an id is not negative")
        return f"{_b36(ident)}.{self._mac(kind, ident)}"

    def read(self, kind: str, token: str) -> int | None:
        """The id ``token`` signs for ``kind``; None for a token this secret did not make (or
        one of another kind, or malformed)."""
        found = TOKEN.match(token)
        if found is None:
            return None
        ident = int(found.group(1), 36)
        if not hmac.compare_digest(found.group(2), self._mac(kind, ident)):
            return None
        return ident
