"""Unguessable web addresses: a resource's number with an HMAC of it (issue 35, part 4). Here, in
bot/, because both presentations need them: the web table reads them (web/), and the Discord
cards link to them (cogs/: "Watch on the web").

A match page is ``/m/<token>``, where the token is the match's id in base 36, a dot, and the first
16 bytes of ``HMAC-SHA256(secret, "<kind>:<id>")`` in URL-safe base64 (22 characters). Without the
secret nobody can make the token of another id, so a server's matches cannot be enumerated by
counting; the id inside keeps the address short and lets the page find its match with one read.
The kind is signed with the id: a match's token opens no player's or tournament's page. A page
named by two numbers (a player's page in a server: ``/u/<server>.<player>.<mac>``) signs both.

A seat's page (``/p/<token>``: play that seat in the browser) signs ``match id * SEATS + seat``
as kind "seat": only the player it was sent to has it (their private prompt), and it opens
nothing once the match is over.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import secrets
from typing import Any

log = logging.getLogger(__name__)

TOKEN = re.compile(r"^([0-9a-z]{1,13})\.([A-Za-z0-9_-]{22})$")
PAIR = re.compile(r"^([0-9a-z]{1,13})\.([0-9a-z]{1,13})\.([A-Za-z0-9_-]{22})$")
KINDS = frozenset({"match", "player", "tournament", "seat", "server"})
SEATS = 8  # a match has at most this many seats (a seat token signs match id * SEATS + seat)


def seat_ident(match_id: int, seat: int) -> int:
    """The number a seat's token signs."""
    if not 0 <= seat < SEATS:
        raise ValueError(f"no seat {seat}")
    return match_id * SEATS + seat


def seat_of_ident(ident: int) -> tuple[int, int]:
    """(match id, seat) of a seat token's number."""
    return divmod(ident, SEATS)


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

    def _mac(self, kind: str, ident: int | str) -> str:
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

    def pair_token(self, kind: str, first: int, second: int) -> str:
        """The token of a resource named by two numbers (a player's page in a server: the server's
        id and the player's)."""
        if first < 0 or second < 0:
            raise ValueError("an id is not negative")
        return f"{_b36(first)}.{_b36(second)}.{self._mac(kind, f'{first}:{second}')}"

    def read_pair(self, kind: str, token: str) -> tuple[int, int] | None:
        """The two numbers ``token`` signs for ``kind``; None for any other token."""
        found = PAIR.match(token)
        if found is None:
            return None
        first, second = int(found.group(1), 36), int(found.group(2), 36)
        if not hmac.compare_digest(found.group(3), self._mac(kind, f"{first}:{second}")):
            return None
        return first, second


def signer_of(settings: Any) -> Signer:
    """The signer of ``WEB_SECRET`` (a random one when it is not set: one warning says the links
    then change at each restart)."""
    secret = settings.web_secret.get_secret_value() if settings.web_secret is not None else None
    if secret:
        return Signer(secret)
    log.warning("WEB_SECRET is not set: the web pages' links change at each restart (docs/web.md)")
    return Signer.random()


class WebLinks:
    """The web table's addresses as players reach them (``PUBLIC_URL``), for the Discord cards;
    None everywhere when the site has no public address or is off."""

    def __init__(self, signer: Signer, public_url: str | None) -> None:
        self.signer = signer
        self.base = public_url.rstrip("/") if public_url else None

    def match(self, match_id: int) -> str | None:
        """The page of match ``match_id`` (None: nothing to link to)."""
        return None if self.base is None else f"{self.base}/m/{self.signer.token('match', match_id)}"

    def tournament(self, tournament_id: int) -> str | None:
        """The page of a tournament (its standings and rounds, each match linked)."""
        return None if self.base is None else f"{self.base}/t/{self.signer.token('tournament', tournament_id)}"

    def seat(self, match_id: int, seat: int) -> str | None:
        """The page where the player of ``seat`` plays it in the browser (private: only their
        prompt carries it); None: nothing to link to."""
        if self.base is None:
            return None
        return f"{self.base}/p/{self.signer.token('seat', seat_ident(match_id, seat))}"
