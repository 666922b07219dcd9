"""Configuration from the environment (and a ``.env`` file), read and checked once at start.

``.env.example`` lists every setting. The environment wins over ``.env``. The token is
kept out of ``repr`` so it can never reach a log line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATABASE = Path("data/bonken.sqlite3")
TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at "
    "https://discord.com/developers/applications, add a bot, copy its token and put "
    "DISCORD_TOKEN=... in the environment or in a .env file (see .env.example and README.md)."
)


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str = field(default="", repr=False)
    """The bot token (``DISCORD_TOKEN``); required to run the bot, never logged."""
    database_path: Path = DEFAULT_DATABASE
    """The SQLite file (``BONKEN_DATABASE``); its folder and the file are created at start."""
    dev_guild_id: int | None = None
    """``DEV_GUILD_ID``: sync the commands to this guild at once (development)."""
    pace: float = 1.0
    """``BONKEN_PACE``: seconds a computer waits before each move, so people can follow."""
    think_seconds: float = 1.0
    """``BONKEN_THINK_SECONDS``: the hard computer's time budget per decision."""
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Settings:
        values = dict(read_dotenv(dotenv or Path(".env")))
        values.update(os.environ if env is None else env)
        path = values.get("BONKEN_DATABASE", "").strip()
        return cls(
            token=values.get("DISCORD_TOKEN", "").strip(),
            database_path=Path(path) if path else DEFAULT_DATABASE,
            dev_guild_id=_optional_int(values, "DEV_GUILD_ID"),
            pace=_float(values, "BONKEN_PACE", 1.0),
            think_seconds=_float(values, "BONKEN_THINK_SECONDS", 1.0),
            log_level=values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
        )

    def require_token(self) -> str:
        if not self.token:
            raise SettingsError(TOKEN_HELP)
        return self.token


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines; blank lines and ``#`` comments are skipped, quotes stripped."""
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def _optional_int(values: Mapping[str, str], key: str) -> int | None:
    raw = values.get(key, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise SettingsError(f"{key} must be a number (a Discord id), not {raw!r}")
    return int(raw)


def _float(values: Mapping[str, str], key: str, default: float) -> float:
    raw = values.get(key, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{key} must be a number of seconds, not {raw!r}") from None
    if value < 0:
        raise SettingsError(f"{key} cannot be negative")
    return value
