"""``BONKEN_DATABASE`` names a SQLite file by its path or a PostgreSQL database by its URL.

Checked once at start (by :mod:`bot.settings`), so a malformed URL stops the bot with one
line before it tries to connect. A URL's password never reaches a message or a log line:
:func:`redacted` is what the store calls the database.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

SCHEMES = ("postgresql", "postgres")


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.strip().lower().startswith(
        tuple(f"{scheme}://" for scheme in SCHEMES)
    )


def redacted(url: str) -> str:
    """The URL without its password (``postgresql://bonken:***@db/bonken``)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{parts.username or ''}:***@{host}").geturl()


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot name a PostgreSQL database, or None if it can."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (reading it raises for a port that is not a number in range)
    except ValueError as error:
        return f"{redacted(url)} is not a valid URL ({error})"
    if parts.scheme.lower() not in SCHEMES:
        return f"{redacted(url)} is not a postgresql:// URL"
    if not parts.path.strip("/"):
        return f"{redacted(url)} names no database: write postgresql://HOST/DATABASE"
    if "/" in parts.path.strip("/"):
        return f"{redacted(url)}: a database name cannot contain '/'"
    if not (parts.hostname or parse_qs(parts.query).get("host")):
        return f"{redacted(url)} names no server: write postgresql://HOST/DATABASE"
    return None
