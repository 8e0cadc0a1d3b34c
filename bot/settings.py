"""Settings from the environment and ``.env`` (see ``.env.example`` for every variable)."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DOCS_BASE_URL_CHARS = 500
"""The longest ``DOCS_BASE_URL`` (the /howto link must fit an embed field of 1,024 characters)."""

SHOWN_CHARS = 80
"""A bad value is echoed in its error at most this long."""


class Settings(BaseSettings):
    """The bot's configuration. Each field is read from the upper-case environment variable of
    the same name (``discord_token`` ← ``DISCORD_TOKEN``), then from ``.env``; empty values count
    as unset."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
        case_sensitive=False,
    )

    discord_token: SecretStr | None = None
    """The bot token; optional here so that a missing token gets a clear message, not a traceback."""
    database_url: str | None = None
    """Which database: an SQLite file path (or ``sqlite:///path``), or ``postgresql://user:password@host:port/db``
    (``postgres://`` too). None: ``database_path``."""
    database_path: str = "wizard_referee.sqlite3"
    """The SQLite file when ``DATABASE_URL`` is not set (the older setting; still honoured)."""
    database_pool_size: int = Field(default=5, ge=1, le=100)
    """PostgreSQL: the most connections this process opens to the server (reads and transactions
    of different tasks run on different ones). SQLite: unused (one connection)."""
    dev_guild_id: int | None = Field(default=None, gt=0)
    """Sync application commands to this guild instantly (development); None: global sync."""
    challenge_timeout_seconds: int = Field(default=900, gt=0)
    move_timeout_seconds: int = Field(default=3600, gt=0)
    reminder_before_seconds: int = Field(default=300, gt=0)
    timer_seconds: float = Field(default=5.0, ge=0.05, le=60)
    """Seconds between two runs of the timer loop: deadlines, reminders, expired challenges, the
    notices a crash left undelivered (a restarted player has their prompt within two runs) and
    computer players a restart left waiting."""
    log_level: str = "INFO"
    render_images: bool = True
    docs_base_url: str | None = None
    """Where the project's files are browsed (e.g. ``https://github.com/you/wizard-referee/blob/main``):
    ``/howto`` links to ``<base>/docs/rulings/<game>.md``. None: ``/howto`` attaches the page."""
    ai_workers: int = Field(default=1, ge=1, le=64)
    """Worker processes computer players think in (practice matches); each runs one search."""
    ai_think_seconds: float = Field(default=20.0, gt=0, le=600)
    """The longest a computer's decision (or a hint) may take; past it the computer plays a default."""
    ai_pace_seconds: float = Field(default=1.2, ge=0, le=30)
    """The pause before a computer plays, so players can follow its moves."""
    shard_count: int | None = Field(default=None, gt=0, le=100_000)
    """Discord shards the whole bot runs (all processes together). None: one process, one
    connection (discord.py's plain Bot). Set: this process is a discord.py AutoShardedBot."""
    shard_ids: str | None = None
    """The shards this process runs, e.g. ``0,1`` (each below ``SHARD_COUNT``). None with
    ``SHARD_COUNT`` set: all of them."""
    web_enabled: bool = True
    """The web table (docs/web.md): a page for every match, served by the bot's process."""
    web_host: str = "127.0.0.1"
    """The address the web table listens on (``0.0.0.0``: every interface, e.g. in a container)."""
    web_port: int = Field(default=8080, ge=0, le=65535)
    """Its port (0: any free one, as the tests use)."""
    public_url: str | None = None
    """The web table's address as players reach it (e.g. ``https://referee.example.org``); pages'
    link previews use it. None: pages are served, but nothing links to them."""
    web_secret: SecretStr | None = None
    """Signs the pages' addresses (at least 16 characters). None: a random one at each start, so
    the links of an earlier run stop working."""

    @field_validator("discord_token")
    @classmethod
    def _blank_token_is_missing(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        return SecretStr(value.get_secret_value().strip())

    @field_validator("database_path")
    @classmethod
    def _path_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()

    @field_validator("database_url")
    @classmethod
    def _url_or_unset(cls, value: str | None) -> str | None:
        return None if value is None or not value.strip() else value.strip()

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG"):
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @field_validator("docs_base_url")
    @classmethod
    def _http_address(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        url = value.strip()
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc or any(c.isspace() for c in url):
            raise ValueError(
                "must be a web address starting with http:// or https://, "
                "e.g. https://github.com/you/wizard-referee/blob/main"
            )
        if len(url) > DOCS_BASE_URL_CHARS:
            raise ValueError(f"must be at most {DOCS_BASE_URL_CHARS} characters long")
        return url

    @field_validator("public_url")
    @classmethod
    def _public_address(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        url = value.strip().rstrip("/")
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.netloc or any(c.isspace() for c in url):
            raise ValueError(
                "must be a web address starting with http:// or https://, e.g. https://referee.example.org"
            )
        if parts.query or parts.fragment:
            raise ValueError("must be a plain address, without ? or #")
        return url

    @field_validator("web_secret")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        if len(value.get_secret_value().strip()) < 16:
            raise ValueError(
                "must be at least 16 characters long (python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return SecretStr(value.get_secret_value().strip())

    @field_validator("web_host")
    @classmethod
    def _host_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be blank")
        return value.strip()

    @field_validator("shard_ids")
    @classmethod
    def _shard_list(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parts = [p.strip() for p in value.split(",")]
        if not all(p.isdigit() for p in parts):
            raise ValueError("must be shard numbers separated by commas, e.g. 0,1")
        ids = [int(p) for p in parts]
        if len(set(ids)) != len(ids):
            raise ValueError("names a shard twice")
        return ",".join(str(i) for i in ids)

    @model_validator(mode="after")
    def _shards_in_range(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT (the shards of all processes together)")
            too_big = [i for i in self.shard_id_list or () if i >= self.shard_count]
            if too_big:
                raise ValueError(
                    f"SHARD_IDS ({self.shard_ids}) names shard {too_big[0]}, but shards are numbered "
                    f"0 to {self.shard_count - 1} (SHARD_COUNT={self.shard_count})"
                )
        return self

    @property
    def shard_id_list(self) -> list[int] | None:
        """``SHARD_IDS`` as numbers (None: not set)."""
        return None if self.shard_ids is None else [int(p) for p in self.shard_ids.split(",")]

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @model_validator(mode="after")
    def _reminder_before_deadline(self) -> Settings:
        if self.reminder_before_seconds >= self.move_timeout_seconds:
            raise ValueError(
                f"REMINDER_BEFORE_SECONDS ({self.reminder_before_seconds}) must be less than "
                f"MOVE_TIMEOUT_SECONDS ({self.move_timeout_seconds})"
            )
        return self

    @property
    def token(self) -> str | None:
        """The token as plain text (None when not set)."""
        return None if self.discord_token is None else self.discord_token.get_secret_value()

    @property
    def database(self) -> str:
        """What the bot opens: ``DATABASE_URL`` if set, else ``DATABASE_PATH`` (an SQLite file)."""
        return self.database_url if self.database_url is not None else self.database_path

    @property
    def log_level_number(self) -> int:
        return int(logging.getLevelName(self.log_level))


def settings_problems(exc: ValidationError) -> list[str]:
    """One readable line per problem, naming the environment variable."""
    lines = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        message = str(err["msg"]).removeprefix("Value error, ")
        if loc and loc[0] in ("discord_token", "database_url", "web_secret"):  # never echo a secret
            lines.append(f"Invalid setting {loc[0].upper()}: {message}.")
        elif loc:
            lines.append(f"Invalid setting {loc[0].upper()}: {message} (got {_shown(err)}).")
        else:
            lines.append(f"Invalid settings: {message}.")
    return lines


def _shown(err: Any) -> str:
    value = err.get("input")
    if value is None:
        return "nothing"
    shown = repr(value)
    return shown if len(shown) <= SHOWN_CHARS else shown[: SHOWN_CHARS - 1] + "…"


__all__ = ["Settings", "settings_problems"]
