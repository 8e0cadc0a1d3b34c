"""Settings from env/.env, and the exit codes and messages of ``python -m bot`` (no network)."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
import types
from pathlib import Path

import discord
import pytest
from discord.ext import commands
from pydantic import ValidationError

import bot.__main__ as entry
from bot.settings import Settings, settings_problems

ROOT = Path(__file__).resolve().parents[2]
SETTING_NAMES = [
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DATABASE_PATH",
    "DATABASE_POOL_SIZE",
    "DEV_GUILD_ID",
    "CHALLENGE_TIMEOUT_SECONDS",
    "MOVE_TIMEOUT_SECONDS",
    "REMINDER_BEFORE_SECONDS",
    "TIMER_SECONDS",
    "LOG_LEVEL",
    "RENDER_IMAGES",
    "DOCS_BASE_URL",
    "AI_WORKERS",
    "AI_THINK_SECONDS",
    "AI_PACE_SECONDS",
    "SHARD_COUNT",
    "SHARD_IDS",
    "WEB_ENABLED",
    "WEB_HOST",
    "WEB_PORT",
    "PUBLIC_URL",
    "WEB_SECRET",
]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No bot settings in the environment, and a working directory without a .env."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WEB_PORT", "0")  # a bot these tests start serves its web table on a free port
    monkeypatch.chdir(tmp_path)
    return tmp_path


def problems(monkeypatch: pytest.MonkeyPatch, **env: str) -> list[str]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as info:
        Settings()
    return settings_problems(info.value)


# -- settings --------------------------------------------------------------------------------


def test_defaults() -> None:
    settings = Settings()
    assert settings.discord_token is None and settings.token is None
    assert settings.database_path == "wizard_referee.sqlite3"
    assert settings.dev_guild_id is None
    assert (settings.challenge_timeout_seconds, settings.move_timeout_seconds, settings.reminder_before_seconds) == (
        900,
        3600,
        300,
    )
    assert settings.log_level == "INFO" and settings.render_images is True


def test_env_file_and_environment(monkeypatch: pytest.MonkeyPatch, clean_env: Path) -> None:
    (clean_env / ".env").write_text(
        "DISCORD_TOKEN= abc.def \nDEV_GUILD_ID=1234\nMOVE_TIMEOUT_SECONDS=600\nLOG_LEVEL=debug\n"
        "RENDER_IMAGES=false\nCHALLENGE_TIMEOUT_SECONDS=\n"
    )
    monkeypatch.setenv("MOVE_TIMEOUT_SECONDS", "1200")  # the environment wins over .env
    settings = Settings()
    assert settings.token == "abc.def"
    assert "abc.def" not in repr(settings)
    assert settings.dev_guild_id == 1234
    assert settings.move_timeout_seconds == 1200
    assert settings.challenge_timeout_seconds == 900  # empty value: default
    assert settings.log_level == "DEBUG" and settings.log_level_number == 10
    assert settings.render_images is False


def test_blank_token_counts_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    assert Settings().token is None


def test_validation_names_each_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = problems(monkeypatch, MOVE_TIMEOUT_SECONDS="0", CHALLENGE_TIMEOUT_SECONDS="-5", LOG_LEVEL="loud")
    assert len(lines) == 3
    assert any(line.startswith("Invalid setting MOVE_TIMEOUT_SECONDS:") for line in lines)
    assert any(line.startswith("Invalid setting CHALLENGE_TIMEOUT_SECONDS:") and "'-5'" in line for line in lines)
    assert any(line.startswith("Invalid setting LOG_LEVEL:") and "DEBUG" in line for line in lines)
    monkeypatch.delenv("CHALLENGE_TIMEOUT_SECONDS")
    monkeypatch.delenv("LOG_LEVEL")
    (line,) = problems(monkeypatch, MOVE_TIMEOUT_SECONDS="300", REMINDER_BEFORE_SECONDS="300")
    assert "REMINDER_BEFORE_SECONDS (300) must be less than MOVE_TIMEOUT_SECONDS (300)" in line
    (line,) = problems(monkeypatch, MOVE_TIMEOUT_SECONDS="3600", DEV_GUILD_ID="my server")
    assert line.startswith("Invalid setting DEV_GUILD_ID:")


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    for name in SETTING_NAMES:
        assert f"\n{name}=" in text, name
    assert set(Settings.model_fields) == {n.lower() for n in SETTING_NAMES}


# -- main ------------------------------------------------------------------------------------


def test_missing_token_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert err == entry.MISSING_TOKEN + "\n"
    assert "DISCORD_TOKEN is not set" in err and ".env.example" in err


def test_invalid_settings_exit_2_one_line_each(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("MOVE_TIMEOUT_SECONDS", "abc")
    monkeypatch.setenv("DEV_GUILD_ID", "-1")
    assert entry.main([]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith("Invalid setting ") for line in lines)


def test_help_prints_the_usage_and_logs_in_nowhere(capsys: pytest.CaptureFixture[str], clean_env: Path) -> None:
    """Issue 34, item 6: ``python -m bot --help`` (and ``-h``) prints the usage, exit 0, without a
    token or Discord; an unknown argument prints it on stderr, naming the argument, exit 2."""
    for flag in ("--help", "-h"):
        assert entry.main([flag]) == 0
        out = capsys.readouterr()
        assert out.out == entry.USAGE and out.err == ""
    assert "python -m bot db copy --from URL --to URL" in entry.USAGE and "python -m bot.ratings" in entry.USAGE
    assert entry.main(["--token", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("python -m bot: unknown argument: --token x\n") and err.endswith(entry.USAGE)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        cwd=clean_env,
        env={**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stdout == entry.USAGE
    assert not (clean_env / "wizard_referee.sqlite3").exists()


def run_module(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    base["PYTHONPATH"] = str(ROOT) + os.pathsep + base.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=cwd, env={**base, **env}, capture_output=True, text=True, timeout=60
    )


def test_python_m_bot_without_token(clean_env: Path) -> None:
    result = run_module(clean_env)
    assert result.returncode == 2
    assert result.stderr == entry.MISSING_TOKEN + "\n"
    assert "Traceback" not in result.stderr
    assert not (clean_env / "wizard_referee.sqlite3").exists()  # nothing opened before the check


def test_python_m_bot_with_invalid_settings(clean_env: Path) -> None:
    result = run_module(clean_env, DISCORD_TOKEN="x", REMINDER_BEFORE_SECONDS="0", RENDER_IMAGES="maybe")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert "Traceback" not in result.stderr


def fake_bot_client(monkeypatch: pytest.MonkeyPatch, built: list[object]) -> None:
    """bot.client replaced by one that builds a real discord.py Bot (and records the database)."""

    def build_bot(settings: Settings, db: object) -> commands.Bot:
        built.append(db)
        return commands.Bot(command_prefix="!", intents=discord.Intents.none())

    fake_client = types.ModuleType("bot.client")
    fake_client.build_bot = build_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.client", fake_client)


def test_rejected_token_is_one_line_and_nothing_is_created(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """discord.py's real HTTP client whose login gets a 401: LoginFailure, exactly as with Discord;
    refused before the database is created or the bot built."""
    built: list[object] = []
    fake_bot_client(monkeypatch, built)

    async def static_login(self: object, token: str) -> dict[str, object]:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(clean_env / "data" / "bot.sqlite3"))

    assert entry.main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Discord rejected DISCORD_TOKEN") and err.count("\n") == 1
    assert "not-a-real-token" not in err
    assert built == [] and list(clean_env.iterdir()) == []


def test_a_login_that_succeeds_opens_the_database_then_runs_the_bot(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """The token is accepted: the database is created and migrated, the bot built and started (its
    gateway refused here: one line, exit 2), and the database closed."""
    built: list[object] = []
    fake_bot_client(monkeypatch, built)
    logins: list[str] = []

    async def static_login(self: object, token: str) -> dict[str, object]:
        logins.append(token)
        if len(logins) > 1:  # the bot's own login, after the check
            raise discord.PrivilegedIntentsRequired(None)
        return {"id": "1", "username": "referee", "discriminator": "0", "avatar": None}

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setenv("DISCORD_TOKEN", "good-token")
    monkeypatch.setenv("DATABASE_PATH", str(clean_env / "data" / "bot.sqlite3"))

    assert entry.main([]) == 2
    assert capsys.readouterr().err == entry.MISSING_INTENTS + "\n"
    assert logins == ["good-token", "good-token"]
    assert len(built) == 1 and built[0].closed  # type: ignore[attr-defined]
    conn = sqlite3.connect(clean_env / "data" / "bot.sqlite3")
    try:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] >= 1
    finally:
        conn.close()


@pytest.mark.slow
def test_python_m_bot_without_network_is_one_line_exit_1_and_creates_nothing(clean_env: Path) -> None:
    """``python -m bot`` with Discord's API at an address where nothing listens (as without a
    network, wherever the test runs)."""
    base = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    base["PYTHONPATH"] = str(ROOT) + os.pathsep + base.get("PYTHONPATH", "")
    unreachable = (
        "import runpy, discord.http; discord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'; "
        "runpy.run_module('bot', run_name='__main__', alter_sys=True)"
    )
    result = subprocess.run(
        [sys.executable, "-c", unreachable],
        cwd=clean_env,
        env={**base, "DISCORD_TOKEN": "abc"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("cannot reach Discord: ") and result.stderr.count("\n") == 1, result.stderr
    assert "127.0.0.1:9" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""
    assert list(clean_env.iterdir()) == []  # no database, no journal


async def test_a_login_that_hangs_counts_as_unreachable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    built: list[object] = []
    fake_bot_client(monkeypatch, built)

    async def static_login(self: object, token: str) -> dict[str, object]:
        await asyncio.sleep(3600)
        raise AssertionError("not reached")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setattr(entry, "LOGIN_TIMEOUT", 0.05)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    settings = entry.load_settings(sys.stderr)
    assert settings is not None
    assert await entry.run(settings, sys.stderr) == 1
    assert capsys.readouterr().err == entry.UNREACHABLE.format(reason="the connection timed out") + "\n"
    assert built == [] and list(clean_env.iterdir()) == []


async def test_building_the_bot_says_nothing_of_voice_libraries(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py warns at the first client it builds when PyNaCl or davey is missing; the bot has
    no voice and says nothing of it."""
    from bot.client import build_bot
    from db import Database

    caplog.set_level(logging.DEBUG)
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    db = await Database.open(":memory:")
    try:
        bot = build_bot(Settings(discord_token="t"), db, run_timers=False)
        assert bot.intents.guilds
    finally:
        await db.close()
    assert [r.getMessage() for r in caplog.records if "voice" in r.getMessage().lower()] == []
    # without the bot's switch discord.py does warn (so the check above can fail)
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    commands.Bot(command_prefix="!", intents=discord.Intents.none())
    assert any("voice will NOT be supported" in r.getMessage() for r in caplog.records)


# -- DOCS_BASE_URL (where /howto links the rulings pages) --------------------------------------


def test_docs_base_url_is_unset_by_default_and_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    assert Settings().docs_base_url is None  # /howto attaches the rulings page instead
    (clean_env / ".env").write_text("DOCS_BASE_URL=http://docs.example.org/referee\n")
    assert Settings().docs_base_url == "http://docs.example.org/referee"
    monkeypatch.setenv("DOCS_BASE_URL", "  https://github.com/you/wizard-referee/blob/main/ ")
    assert Settings().docs_base_url == "https://github.com/you/wizard-referee/blob/main/"
    monkeypatch.setenv("DOCS_BASE_URL", "   ")  # blank counts as unset
    (clean_env / ".env").unlink()
    assert Settings().docs_base_url is None


@pytest.mark.parametrize(
    "value", ["github.com/you/wizard-referee", "ftp://example.org/docs", "https://", "https://example.org/my docs"]
)
def test_a_docs_base_url_that_is_not_a_web_address_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    (line,) = problems(monkeypatch, DOCS_BASE_URL=value)
    assert line == (
        "Invalid setting DOCS_BASE_URL: must be a web address starting with http:// or https://, "
        f"e.g. https://github.com/you/wizard-referee/blob/main (got {value!r})."
    )


def test_a_docs_base_url_too_long_for_the_howto_embed_is_refused_and_echoed_clipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (line,) = problems(monkeypatch, DOCS_BASE_URL="https://example.org/" + "a" * 600)
    assert line.startswith("Invalid setting DOCS_BASE_URL: must be at most 500 characters long (got 'https://")
    assert line.endswith("…).") and len(line) < 200


# -- DATABASE_URL ------------------------------------------------------------------------------


def test_database_url_chooses_the_database_and_database_path_stays_an_alias(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings().database == "wizard_referee.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", "data/old.sqlite3")
    assert Settings().database == "data/old.sqlite3"  # the older setting still works
    monkeypatch.setenv("DATABASE_URL", "  ")
    assert Settings().database == "data/old.sqlite3"  # empty counts as unset
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db:5432/referee")
    assert Settings().database == "postgresql://bot:secret@db:5432/referee"  # the URL wins


def login_ok(monkeypatch: pytest.MonkeyPatch, built: list[object]) -> list[str]:
    fake_bot_client(monkeypatch, built)
    logins: list[str] = []

    async def static_login(self: object, token: str) -> dict[str, object]:
        logins.append(token)
        if len(logins) > 1:
            raise discord.PrivilegedIntentsRequired(None)
        return {"id": "1", "username": "referee", "discriminator": "0", "avatar": None}

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    monkeypatch.setenv("DISCORD_TOKEN", "good-token")
    return logins


def test_an_unknown_database_scheme_is_one_line_exit_1_before_discord_is_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    built: list[object] = []
    logins = login_ok(monkeypatch, built)
    monkeypatch.setenv("DATABASE_URL", "mysql://bot:secret@localhost/referee")
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown scheme 'mysql'" in err and "postgresql://" in err, err
    assert "secret" not in err
    assert logins == [] and built == [] and list(clean_env.iterdir()) == []


def test_an_unreachable_postgresql_server_is_one_line_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """Nothing listens on port 9: the server cannot be reached; nothing is built or written."""
    built: list[object] = []
    logins = login_ok(monkeypatch, built)
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@127.0.0.1:9/referee")
    assert entry.main([]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cannot open the database: cannot reach the PostgreSQL server"), err
    assert "127.0.0.1:9" in err and "secret" not in err and "Traceback" not in err
    assert logins == ["good-token"] and built == [] and list(clean_env.iterdir()) == []


@pytest.mark.slow
def test_python_m_bot_with_an_unreachable_database_is_one_line_exit_1(clean_env: Path) -> None:
    """The whole program: Discord takes the token (a stub), the PostgreSQL server is not there."""
    base = {k: v for k, v in os.environ.items() if k not in SETTING_NAMES}
    base["PYTHONPATH"] = str(ROOT) + os.pathsep + base.get("PYTHONPATH", "")
    stub = (
        "import runpy, discord.http\n"
        "async def ok(self, token): return {'id': '1', 'username': 'r', 'discriminator': '0', 'avatar': None}\n"
        "discord.http.HTTPClient.static_login = ok\n"
        "runpy.run_module('bot', run_name='__main__', alter_sys=True)"
    )
    result = subprocess.run(
        [sys.executable, "-c", stub],
        cwd=clean_env,
        env={**base, "DISCORD_TOKEN": "abc", "DATABASE_URL": "postgres://u:pw@127.0.0.1:9/x"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "cannot reach the PostgreSQL server" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and ":pw@" not in result.stderr
    assert list(clean_env.iterdir()) == []


def test_a_database_url_with_sqlite_scheme_opens_that_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    built: list[object] = []
    login_ok(monkeypatch, built)
    monkeypatch.setenv("DATABASE_PATH", "ignored.sqlite3")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///data/bot.sqlite3")
    assert entry.main([]) == 2  # (the stub's gateway refuses the intents)
    capsys.readouterr()
    assert len(built) == 1
    assert (clean_env / "data" / "bot.sqlite3").exists() and not (clean_env / "ignored.sqlite3").exists()


# -- shards (several processes, docs/deploy.md) -------------------------------------------------


async def test_without_shard_settings_the_bot_is_one_plain_client() -> None:
    from bot.client import RefereeBot, build_bot
    from db import Database

    settings = Settings(discord_token="t")
    assert settings.shard_count is None and settings.shard_id_list is None and not settings.sharded
    db = await Database.open(":memory:")
    try:
        bot = build_bot(settings, db, run_timers=False)
        assert type(bot) is RefereeBot and not isinstance(bot, commands.AutoShardedBot)
    finally:
        await db.close()


async def test_shard_settings_make_an_auto_sharded_bot_running_those_shards(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.client import build_bot
    from db import Database

    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 2, 3 ")
    settings = Settings(discord_token="t")
    assert settings.shard_count == 4 and settings.shard_id_list == [2, 3]
    db = await Database.open(":memory:")
    try:
        bot = build_bot(settings, db, run_timers=False)
        assert isinstance(bot, commands.AutoShardedBot)
        assert bot.shard_count == 4 and bot.shard_ids == [2, 3]
        monkeypatch.delenv("SHARD_IDS")
        every = build_bot(Settings(discord_token="t"), db, run_timers=False)
        assert isinstance(every, commands.AutoShardedBot) and every.shard_count == 4 and every.shard_ids is None
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "names shard 2, but shards are numbered 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "zero"}, "Invalid setting SHARD_IDS: must be shard numbers"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "names a shard twice"),
        ({"SHARD_COUNT": "0"}, "Invalid setting SHARD_COUNT"),
    ],
)
def test_bad_shard_settings_are_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], words: str
) -> None:
    found = problems(monkeypatch, DISCORD_TOKEN="t", **env)
    assert len(found) == 1 and words in found[0], found
