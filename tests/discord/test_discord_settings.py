"""Starting the bot: settings from the environment and ``.env``, and a clear message
(not a traceback) when the token is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import DEFAULT_DATABASE, Settings, SettingsError, read_dotenv

ROOT = Path(__file__).resolve().parents[2]


def test_without_a_token_the_bot_exits_saying_how_to_get_one(tmp_path):
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "DISCORD_TOKEN" in done.stderr
    assert "https://discord.com/developers/applications" in done.stderr
    assert not (tmp_path / "data").exists()  # nothing was created


def test_dotenv_lines_comments_quotes_and_export(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# a comment\n"
        "\n"
        "DISCORD_TOKEN='abc.def'\n"
        'export DEV_GUILD_ID="123"\n'
        "BONKEN_PACE = 0.5\n"
        "not a setting line\n"
        "BONKEN_DATABASE=\n",
        encoding="utf-8",
    )
    assert read_dotenv(dotenv) == {
        "DISCORD_TOKEN": "abc.def",
        "DEV_GUILD_ID": "123",
        "BONKEN_PACE": "0.5",
        "BONKEN_DATABASE": "",
    }
    settings = Settings.from_env({}, dotenv)
    assert settings.token == "abc.def"
    assert settings.dev_guild_id == 123
    assert settings.pace == 0.5
    assert settings.database_path == DEFAULT_DATABASE
    assert settings.think_seconds == 1.0 and settings.log_level == "INFO"


def test_the_environment_wins_over_dotenv(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=debug\n", encoding="utf-8")
    settings = Settings.from_env({"DISCORD_TOKEN": "from-env"}, dotenv)
    assert settings.token == "from-env" and settings.log_level == "DEBUG"
    assert Settings.from_env({}, tmp_path / "missing.env").token == ""


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("DEV_GUILD_ID", "my-server", "DEV_GUILD_ID must be a number"),
        ("BONKEN_PACE", "fast", "BONKEN_PACE must be a number of seconds"),
        ("BONKEN_THINK_SECONDS", "-1", "BONKEN_THINK_SECONDS cannot be negative"),
        ("BONKEN_REVIEW_WORK", "0", "BONKEN_REVIEW_WORK must be a whole number from 1"),
        ("BONKEN_REVIEW_WORK", "1e5", "BONKEN_REVIEW_WORK must be a whole number from 1"),
        ("BONKEN_REVIEWS_PER_SERVER", "9" * 50, "BONKEN_REVIEWS_PER_SERVER must be a whole"),
        (
            "BONKEN_DRAWING_PROCESSES",
            "-1",
            "BONKEN_DRAWING_PROCESSES must be a whole number from 0",
        ),
        (
            "BONKEN_DRAWING_PROCESSES",
            "65",
            "BONKEN_DRAWING_PROCESSES must be a whole number from 0",
        ),
    ],
)
def test_a_malformed_setting_says_which_and_why(tmp_path, key, value, message):
    with pytest.raises(SettingsError, match=message):
        Settings.from_env({key: value}, tmp_path / ".env")


def test_the_review_settings_default_and_read_whole_numbers(tmp_path):
    default = Settings.from_env({}, tmp_path / ".env")
    assert (default.review_work, default.reviews_per_server) == (100_000, 1)
    given = {"BONKEN_REVIEW_WORK": "20000", "BONKEN_REVIEWS_PER_SERVER": "2"}
    settings = Settings.from_env(given, tmp_path / ".env")
    assert (settings.review_work, settings.reviews_per_server) == (20_000, 2)


def test_the_daily_pictures_are_drawn_by_one_process_unless_set(tmp_path):
    assert Settings.from_env({}, tmp_path / ".env").drawing_processes == 1
    for value, processes in (("0", 0), ("3", 3), (" 2 ", 2)):
        given = {"BONKEN_DRAWING_PROCESSES": value}
        assert Settings.from_env(given, tmp_path / ".env").drawing_processes == processes


def test_the_token_is_required_to_run_and_kept_out_of_repr():
    with pytest.raises(SettingsError, match="developers/applications"):
        Settings().require_token()
    settings = Settings(token="secret-token")
    assert settings.require_token() == "secret-token"
    assert "secret-token" not in repr(settings) and "secret-token" not in str(settings)
