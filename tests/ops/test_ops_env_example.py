"""``.env.example`` is read the same by the bot (python-dotenv) and by
``docker run --env-file`` (one ``KEY=value`` a line, taken literally), and leaves the
database where each of them keeps it: ``data/`` here, the ``/data`` volume in Docker."""

from __future__ import annotations

from bot.settings import DEFAULT_DATABASE, Settings, read_dotenv
from tests.ops.fake_discord import ROOT

EXAMPLE = ROOT / ".env.example"


def _as_docker_reads_it() -> dict[str, str]:
    """Docker's env-file rules: skip blank and ``#`` lines, split at the first ``=``,
    keep the rest as it is (quotes and a trailing ``# ...`` included)."""
    values = {}
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            values[key] = value
    return values


def test_docker_and_the_bot_read_the_example_alike():
    assert _as_docker_reads_it() == read_dotenv(EXAMPLE)


def test_the_example_leaves_the_database_to_the_default_and_the_image():
    # A relative BONKEN_DATABASE here would override the image's /data/bonken.sqlite3 and
    # point at /app/data, which the image's user may not create.
    assert "BONKEN_DATABASE" not in _as_docker_reads_it()
    assert "# BONKEN_DATABASE=" in EXAMPLE.read_text(encoding="utf-8")
    settings = Settings.from_env({}, EXAMPLE)
    assert settings.database_path == DEFAULT_DATABASE
    assert (settings.pace, settings.think_seconds, settings.log_level) == (1.0, 1.0, "INFO")
