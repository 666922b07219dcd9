"""The store's errors: one base class, so the bot can catch "storage said no" in one place."""

from __future__ import annotations


class StoreError(Exception):
    """Anything the store refuses; the message says what and why."""


class DatabaseRefused(StoreError):
    """The database file cannot be used (corrupt, not ours, newer than this bot knows, in
    use by another bot process, or not writable).

    Raised by :func:`bot.store.open_store` before anything is written, so the file is left
    exactly as it was for a person to inspect or restore. The message is one line for the
    operator: the path, what is wrong and what to do.
    """


class StorageFailed(StoreError):
    """The database could not carry out a read or write: the disk is full, an I/O error,
    the file went read-only. Nothing of the failed call is stored; the same call can
    succeed once the cause is gone, so callers retry or refuse politely.
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


class ConstraintFailed(Conflict):
    """A write broke one of the schema's constraints (a key, a check, a trigger).

    The store's modules turn it into what it means for them (:class:`AlreadyStored`,
    :class:`Conflict`); one that reaches a caller is a refusal like any other. ``kind``
    says which constraint, the same on every database: ``unique``, ``not null``,
    ``check``, ``foreign key``, or ``refused`` (a trigger's own message); ``where`` names
    the column(s) when the database says, as ``table.column``.
    """

    def __init__(self, message: str, kind: str = "refused", where: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.where = where
