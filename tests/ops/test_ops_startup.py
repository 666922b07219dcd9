"""Starting ``python -m bot`` for real: whatever stops it from starting is one
``Cannot start: ...`` line on standard error and exit code 2, never a traceback.

Every bot process here talks to 127.0.0.1 only (a local fake or a closed port).
"""

from __future__ import annotations

import asyncio
import socket

import pytest

from bot.__main__ import why_it_stopped
from bot.settings import DEFAULT_DATABASE, DISCORD_API, Settings, SettingsError
from tests.ops.fake_discord import TOKEN, FakeDiscord, bot_env, launch

TIMEOUT = 30


_held: list[socket.socket] = []


def _closed_port() -> int:
    """A port of 127.0.0.1 that refuses every connection: bound by this process and never
    listening, so no other process (another test worker) can take it meanwhile."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    _held.append(sock)
    return sock.getsockname()[1]


async def _run(rest_url: str, gateway_url: str, env: dict[str, str], cwd) -> tuple[int, str]:
    process = await launch(rest_url, gateway_url, env, cwd)
    _, stderr = await asyncio.wait_for(process.communicate(), TIMEOUT)
    return process.returncode, stderr.decode()


def _the_one_line(stderr: str) -> str:
    assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
    assert stderr.startswith("Cannot start: "), stderr
    return stderr.strip()


NOWHERE = f"http://127.0.0.1:{_closed_port()}"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("LOG_LEVEL", "verbose", "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR"),
        ("BONKEN_PACE", "inf", "BONKEN_PACE must be a number of seconds, not 'inf'"),
        ("BONKEN_PACE", "nan", "BONKEN_PACE must be a number of seconds, not 'nan'"),
        ("BONKEN_PACE", "61", "BONKEN_PACE can be at most 60 seconds"),
        ("BONKEN_THINK_SECONDS", "Infinity", "BONKEN_THINK_SECONDS must be a number"),
        ("BONKEN_THINK_SECONDS", "1e9", "BONKEN_THINK_SECONDS can be at most 60 seconds"),
        ("DEV_GUILD_ID", "1" * 5000, "DEV_GUILD_ID must be a number (a Discord id)"),
        ("DEV_GUILD_ID", "١٢٣", "DEV_GUILD_ID must be a number (a Discord id)"),
        ("BONKEN_DATABASE", "postgresql://db:port/bonken", "BONKEN_DATABASE: postgresql://"),
        ("BONKEN_DATABASE", "postgres://u:hunter2@db/", "u:***@db/ names no database"),
        ("BONKEN_DATABASE", "mysql://db/bonken", "must be a file path or a postgresql:// URL"),
        ("DISCORD_CLIENT_ID", "1234", "DISCORD_CLIENT_SECRET is not set: the Discord Activity"),
        ("DISCORD_CLIENT_SECRET", "hunter2", "DISCORD_CLIENT_ID is not set: the Discord Activity"),
        ("DISCORD_CLIENT_ID", "12ab", "DISCORD_CLIENT_ID must be a number (a Discord id)"),
    ],
)
async def test_a_bad_setting_is_one_line_and_exit_2(tmp_path, key, value, message):
    env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN, **{key: value})
    code, stderr = await _run(NOWHERE, NOWHERE, env, tmp_path)
    assert code == 2 and message in _the_one_line(stderr)
    assert "hunter2" not in stderr
    assert not (tmp_path / "data").exists()  # stopped before anything was created


async def test_a_postgresql_server_out_of_reach_is_one_line_and_exit_2(tmp_path):
    async with FakeDiscord() as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN, LOG_LEVEL="WARNING")
        env["BONKEN_DATABASE"] = f"postgresql://bonken:hunter2@127.0.0.1:{_closed_port()}/bonken"
        code, stderr = await _run(fake.url, fake.ws_url(), env, tmp_path)
    line = _the_one_line(stderr)
    assert code == 2 and line.startswith("Cannot start: cannot reach the PostgreSQL server of ")
    assert "bonken:***@127.0.0.1" in line and "hunter2" not in line


async def test_a_token_discord_refuses_is_one_line_and_exit_2(tmp_path):
    async with FakeDiscord() as fake:
        for level in ("WARNING", "INFO"):
            env = bot_env(tmp_path, DISCORD_TOKEN="revoked-token", LOG_LEVEL=level)
            code, stderr = await _run(fake.url, fake.ws_url(), env, tmp_path)
            assert code == 2 and "Traceback" not in stderr, stderr
            last = stderr.strip().splitlines()[-1]
            assert last.startswith("Cannot start: Discord refused the token (DISCORD_TOKEN)")
            if level == "WARNING":
                _the_one_line(stderr)
    assert fake.calls.count("GET /api/v10/users/@me") == 2


async def test_no_network_is_one_line_and_exit_2(tmp_path):
    env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN, LOG_LEVEL="WARNING")
    code, stderr = await _run(NOWHERE, NOWHERE, env, tmp_path)
    assert code == 2
    assert _the_one_line(stderr).startswith("Cannot start: cannot reach Discord (")


@pytest.mark.parametrize("where", ["parent is a file", "path is a folder"])
async def test_a_database_that_cannot_be_opened_is_one_line_and_exit_2(tmp_path, where):
    blocker = tmp_path / "blocker"
    if where == "parent is a file":
        blocker.write_text("not a folder", encoding="utf-8")
        database = blocker / "bonken.sqlite3"
    else:
        blocker.mkdir()
        database = blocker
    async with FakeDiscord() as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN, LOG_LEVEL="WARNING")
        env["BONKEN_DATABASE"] = str(database)
        code, stderr = await _run(fake.url, fake.ws_url(), env, tmp_path)
    assert code == 2 and _the_one_line(stderr), stderr
    assert "GET /api/v10/users/@me" in fake.calls  # the store opens after login


def test_a_folder_the_bot_may_not_write_is_named():
    # Root (as in CI) may write anywhere, so this is the message alone.
    reason = why_it_stopped(PermissionError(13, "Permission denied", "data"))
    assert reason is not None and reason.startswith("no permission to write data: ")
    assert why_it_stopped(ValueError("a bug")) is None  # a bug keeps its traceback


async def test_a_token_reset_while_running_stops_with_one_line_and_exit_1(tmp_path):
    # Ready first (discord.py waits 2 s for guilds), then Discord closes with 4004.
    async with FakeDiscord(close_after_ready=(2.5, 4004)) as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN, LOG_LEVEL="WARNING")
        code, stderr = await _run(fake.url, fake.ws_url(), env, tmp_path)
    assert code == 1 and "Traceback" not in stderr, stderr
    assert stderr.count("\n") == 1 and stderr.startswith("Stopped: Discord refused the token")


# -- .env -----------------------------------------------------------------------------------


def test_dotenv_reads_like_a_shell_comments_quotes_and_export(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "DISCORD_TOKEN=abc.def  # the token from the portal\n"
        "export DEV_GUILD_ID=123 # my test server\n"
        "BONKEN_DATABASE='/srv/bonken #1/db.sqlite3'\n"
        'BONKEN_PACE="0.5"\n'
        "LOG_LEVEL=warning#no space: part of the value, as in a shell\n",
        encoding="utf-8",
    )
    settings = Settings.from_env({"LOG_LEVEL": "error"}, dotenv)
    assert settings.token == "abc.def"
    assert settings.dev_guild_id == 123
    assert str(settings.database_path) == "/srv/bonken #1/db.sqlite3"
    assert settings.pace == 0.5
    assert settings.log_level == "ERROR"  # the environment wins


def test_dotenv_values_are_not_expanded_and_empty_means_default(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "DISCORD_TOKEN=a$HOME${PATH}b\nBONKEN_DATABASE=\nBONKEN_THINK_SECONDS=  \n",
        encoding="utf-8",
    )
    settings = Settings.from_env({}, dotenv)
    assert settings.token == "a$HOME${PATH}b"
    assert settings.database_path == DEFAULT_DATABASE and settings.think_seconds == 1.0


def test_the_activity_needs_both_halves_of_its_client_and_the_pages():
    client = {"DISCORD_CLIENT_ID": "1234", "DISCORD_CLIENT_SECRET": "s3cret"}
    with pytest.raises(SettingsError, match="set BONKEN_WEB_PORT too"):
        Settings.from_env(client)
    settings = Settings.from_env({**client, "BONKEN_WEB_PORT": "8080"})
    assert settings.activity is not None
    assert (settings.activity.client_id, settings.activity.api_url) == (1234, DISCORD_API)
    assert "s3cret" not in repr(settings)
    assert Settings.from_env({}).activity is None
