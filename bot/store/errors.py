"""The store's errors: one base class, so the bot can catch "storage said no" in one place."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store refuses; the message says what and why."""


class DatabaseRefused(StoreError):
    """The database file cannot be used (corrupt, not ours, newer than this bot knows).

    Raised by :func:`bot.store.open_store` before anything is written, so the file is left
    exactly as it was for a person to inspect or restore.
    """


class NotFound(StoreError, LookupError):
    """No table, match or season with that id (or name)."""


class Conflict(StoreError):
    """The write does not fit what is stored: out of order, not in play, name taken..."""


class AlreadyStored(Conflict):
    """This deal or action number is already stored: a stale or repeated request.

    The database's primary key refuses it, so a double click can never be stored twice;
    the caller can treat it as "someone else already did this".
    """
