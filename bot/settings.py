"""Configuration from the environment (and a ``.env`` file), read and checked once at start.

``.env.example`` lists every setting. The environment wins over ``.env``. The token is
kept out of ``repr`` so it can never reach a log line. Every value is checked here, so a
bad one stops the bot with one line saying which and why, before anything else happens.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.shards import Shards
from bot.store.url import is_postgres_url, url_problem

DEFAULT_DATABASE = Path("data/bonken.sqlite3")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
MAX_SECONDS = 60.0
"""Upper bound for the pace and the thinking time: longer would stall every table."""
MAX_ID_DIGITS = 20
"""A Discord id (a snowflake) is a 64-bit number: at most 20 digits."""
DEFAULT_WEB_HOST = "127.0.0.1"
MAX_COUNT = 10_000_000
"""The largest whole-number setting (a review's work a batch is 100,000 by default)."""
DISCORD_API = "https://discord.com/api/v10"
"""Discord's API, where the Activity's sign-in code is exchanged (``DISCORD_API_URL``
points elsewhere: the tests' stand-in)."""
TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Create an application at "
    "https://discord.com/developers/applications, add a bot, copy its token and put "
    "DISCORD_TOKEN=... in the environment or in a .env file (see .env.example and README.md)."
)


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class ActivitySettings:
    """The application's OAuth2 client, with which the Activity's sign-in code is
    exchanged for the person's identity (docs/operating.md, The Discord Activity)."""

    client_id: int
    """``DISCORD_CLIENT_ID``: the application's id (the developer portal's OAuth2 page)."""
    client_secret: str = field(repr=False)
    """``DISCORD_CLIENT_SECRET``: never logged."""
    api_url: str = DISCORD_API
    """``DISCORD_API_URL``: Discord's API (only the tests change it)."""


@dataclass(frozen=True)
class Settings:
    token: str = field(default="", repr=False)
    """The bot token (``DISCORD_TOKEN``); required to run the bot, never logged."""
    database_path: Path = DEFAULT_DATABASE
    """The SQLite file (``BONKEN_DATABASE``); its folder and the file are created at start."""
    database_url: str | None = field(default=None, repr=False)
    """``BONKEN_DATABASE=postgresql://...``: the PostgreSQL database instead of a file
    (kept out of ``repr``: a URL may hold a password)."""
    dev_guild_id: int | None = None
    """``DEV_GUILD_ID``: sync the commands to this guild at once (development)."""
    pace: float = 1.0
    """``BONKEN_PACE``: seconds a computer waits before each move, so people can follow."""
    think_seconds: float = 1.0
    """``BONKEN_THINK_SECONDS``: the hard computer's time budget per decision."""
    review_work: int = 100_000
    """``BONKEN_REVIEW_WORK``: simulated cards a batch of a review's search; less is
    quicker and noisier (docs/benchmarks.md measures the default)."""
    reviews_per_server: int = 1
    """``BONKEN_REVIEWS_PER_SERVER``: a server's reviews computed at once; more wait."""
    drawing_processes: int = 1
    """``BONKEN_DRAWING_PROCESSES``: processes that draw the daily deals' pictures beside
    the bot's (:mod:`bot.ui.drawing`); 0: the bot's picture thread draws them."""
    log_level: str = "INFO"
    web_port: int | None = None
    """``BONKEN_WEB_PORT``: the port the pages are served on; None: no pages."""
    web_host: str = DEFAULT_WEB_HOST
    """``BONKEN_WEB_HOST``: the address the pages listen on (the machine itself by default:
    a reverse proxy in front gives them HTTPS, docs/operating.md)."""
    web_url: str | None = None
    """``BONKEN_WEB_URL``: the public address links point at; None: ``http://HOST:PORT``."""
    activity: ActivitySettings | None = None
    """The Discord Activity's OAuth2 client; None: no Activity."""
    shards: Shards = field(default_factory=Shards)
    """``--shards`` / ``--shard-count``: the Discord shards this process runs."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, dotenv: Path | None = None) -> Settings:
        values = dict(read_dotenv(dotenv or Path(".env")))
        values.update(os.environ if env is None else env)
        path = values.get("BONKEN_DATABASE", "").strip()
        url = _database_url(path)
        return cls(
            token=values.get("DISCORD_TOKEN", "").strip(),
            database_path=Path(path) if path and url is None else DEFAULT_DATABASE,
            database_url=url,
            dev_guild_id=_optional_int(values, "DEV_GUILD_ID"),
            pace=_float(values, "BONKEN_PACE", 1.0),
            think_seconds=_float(values, "BONKEN_THINK_SECONDS", 1.0),
            review_work=_count(values, "BONKEN_REVIEW_WORK", 100_000),
            reviews_per_server=_count(values, "BONKEN_REVIEWS_PER_SERVER", 1),
            drawing_processes=_processes(values),
            log_level=_log_level(values),
            web_port=_port(values),
            web_host=_host(values),
            web_url=_web_url(values),
            activity=_activity(values),
        )

    @property
    def database(self) -> Path | str:
        """What :func:`bot.store.open_store` opens: the PostgreSQL URL, or the file."""
        return self.database_url or self.database_path

    @property
    def web_address(self) -> str | None:
        """The public address of the pages, without a trailing slash: what links use.
        None when neither ``BONKEN_WEB_URL`` nor ``BONKEN_WEB_PORT`` is set (no links);
        a bot beside a separate ``python -m bot web`` sets only the URL."""
        if self.web_url is not None:
            return self.web_url
        return None if self.web_port is None else f"http://{self.web_host}:{self.web_port}"

    def require_token(self) -> str:
        if not self.token:
            raise SettingsError(TOKEN_HELP)
        return self.token


def read_dotenv(path: Path) -> dict[str, str]:
    """The ``.env`` file as python-dotenv reads it: ``export``, quotes, ``# comments``
    (also after a value) and multi-line quoted values behave as in a shell. ``${VAR}`` is
    not expanded, so a value is exactly what is written. A key without ``=`` is skipped."""
    if not path.is_file():
        return {}
    try:
        values = dotenv_values(path, interpolate=False, encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"cannot read {path}: {error}") from None
    return {key: value for key, value in values.items() if value is not None}


def _database_url(value: str) -> str | None:
    """A PostgreSQL URL, checked; None for a path (a SQLite file)."""
    if not is_postgres_url(value):
        if "://" in value:
            raise SettingsError(
                "BONKEN_DATABASE must be a file path or a postgresql:// URL, not "
                f"{_cut(value.split('://')[0] + '://...')}"
            )
        return None
    problem = url_problem(value)
    if problem is not None:
        raise SettingsError(f"BONKEN_DATABASE: {problem}")
    return value


def _optional_int(values: Mapping[str, str], key: str) -> int | None:
    raw = values.get(key, "").strip()
    if not raw:
        return None
    # isdigit() alone would let "²" or a 5,000-digit string through to int(), which raises.
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_ID_DIGITS):
        raise SettingsError(f"{key} must be a number (a Discord id), not {_cut(raw)}")
    return int(raw)


def _log_level(values: Mapping[str, str]) -> str:
    level = values.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {_cut(level)}")
    return level


def _cut(raw: str) -> str:
    """A bad value quoted for the error line, cut short."""
    return repr(raw if len(raw) <= 40 else raw[:37] + "...")


def _count(values: Mapping[str, str], key: str, default: int) -> int:
    """A whole number of at least 1, of at most :data:`MAX_COUNT`."""
    raw = values.get(key, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 8 and 1 <= int(raw) <= MAX_COUNT):
        raise SettingsError(
            f"{key} must be a whole number from 1 to {MAX_COUNT:,}, not {_cut(raw)}"
        )
    return int(raw)


MAX_DRAWING_PROCESSES = 64


def _processes(values: Mapping[str, str]) -> int:
    """``BONKEN_DRAWING_PROCESSES``: 0 (the bot's thread draws) to 64; 1 if unset."""
    raw = values.get("BONKEN_DRAWING_PROCESSES", "").strip()
    if not raw:
        return 1
    if not (
        raw.isascii() and raw.isdigit() and len(raw) <= 2 and int(raw) <= MAX_DRAWING_PROCESSES
    ):
        raise SettingsError(
            f"BONKEN_DRAWING_PROCESSES must be a whole number from 0 to "
            f"{MAX_DRAWING_PROCESSES}, not {_cut(raw)}"
        )
    return int(raw)


def _float(values: Mapping[str, str], key: str, default: float) -> float:
    raw = values.get(key, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{key} must be a number of seconds, not {_cut(raw)}") from None
    # float() also reads "inf" and "nan": with either a computer would never move.
    if not math.isfinite(value):
        raise SettingsError(f"{key} must be a number of seconds, not {_cut(raw)}")
    if value < 0:
        raise SettingsError(f"{key} cannot be negative")
    if value > MAX_SECONDS:
        raise SettingsError(f"{key} can be at most {MAX_SECONDS:g} seconds, not {value:g}")
    return value


def _port(values: Mapping[str, str]) -> int | None:
    """``BONKEN_WEB_PORT``: a TCP port from 1 to 65535, or unset (no pages)."""
    raw = values.get("BONKEN_WEB_PORT", "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 5 and 1 <= int(raw) <= 65535):
        raise SettingsError(f"BONKEN_WEB_PORT must be a port from 1 to 65535, not {_cut(raw)}")
    return int(raw)


def _host(values: Mapping[str, str]) -> str:
    """``BONKEN_WEB_HOST``: an address or host name to listen on (``0.0.0.0`` in Docker)."""
    raw = values.get("BONKEN_WEB_HOST", "").strip()
    if not raw:
        return DEFAULT_WEB_HOST
    if not (raw.isascii() and all(c.isalnum() or c in ".-:[]" for c in raw) and len(raw) <= 253):
        raise SettingsError(
            f"BONKEN_WEB_HOST must be an address such as 127.0.0.1 or 0.0.0.0, not {_cut(raw)}"
        )
    return raw


def _web_url(values: Mapping[str, str]) -> str | None:
    """``BONKEN_WEB_URL``: an http:// or https:// address with no query or fragment."""
    raw = values.get("BONKEN_WEB_URL", "").strip()
    if not raw:
        return None
    try:
        parts = urlsplit(raw)
        valid = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != 0
    except ValueError:
        valid = False
    if not valid or parts.query or parts.fragment or not raw.isascii() or " " in raw:
        raise SettingsError(
            "BONKEN_WEB_URL must be the pages' public address, such as "
            f"https://bonken.example.org, not {_cut(raw)}"
        )
    return raw.rstrip("/")


def _activity(values: Mapping[str, str]) -> ActivitySettings | None:
    """``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``, both or neither; the Activity
    is served by this process's own pages, so it needs ``BONKEN_WEB_PORT``."""
    client_id = _optional_int(values, "DISCORD_CLIENT_ID")
    secret = values.get("DISCORD_CLIENT_SECRET", "").strip()
    if client_id is None and not secret:
        return None
    if client_id is None or not secret:
        missing = "DISCORD_CLIENT_SECRET" if client_id is not None else "DISCORD_CLIENT_ID"
        raise SettingsError(
            f"{missing} is not set: the Discord Activity needs both DISCORD_CLIENT_ID and "
            "DISCORD_CLIENT_SECRET (the developer portal's OAuth2 page), or neither"
        )
    if not (secret.isascii() and secret.isprintable() and " " not in secret and len(secret) <= 200):
        raise SettingsError("DISCORD_CLIENT_SECRET must be the secret the developer portal shows")
    if _port(values) is None:
        raise SettingsError(
            "the Discord Activity (DISCORD_CLIENT_ID) is served by the bot's own web pages: "
            "set BONKEN_WEB_PORT too (see docs/operating.md)"
        )
    return ActivitySettings(client_id, secret, _api_url(values))


def _api_url(values: Mapping[str, str]) -> str:
    raw = values.get("DISCORD_API_URL", "").strip()
    if not raw:
        return DISCORD_API
    try:
        valid = urlsplit(raw).scheme in ("http", "https") and bool(urlsplit(raw).hostname)
    except ValueError:
        valid = False
    if not valid or not raw.isascii() or " " in raw:
        raise SettingsError(f"DISCORD_API_URL must be an http(s) address, not {_cut(raw)}")
    return raw.rstrip("/")
