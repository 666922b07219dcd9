"""One bot process per database file: an exclusive lock on ``<database>.lock`` beside it.

Two bots on one file would both restore the same tables and fight over every action
number, one of them failing forever. SQLite's own locks cannot prevent that (each
transaction is fine by itself), so the bot takes ``flock(LOCK_EX | LOCK_NB)`` on a lock
file before it writes anything and holds it for the life of the process. The kernel
drops the lock when the process ends, however it ends, so a killed bot never leaves a
stale lock behind; the file itself stays (deleting it would race a starting bot) and
holds the pid of the last bot that took it, for the refusal's message.

The read-only operator tools (``python -m bot.store check`` and ``record``) do not take
it: they may inspect a live database.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from .errors import DatabaseRefused


def lock_path(database: Path) -> Path:
    return database.with_name(f"{database.name}.lock")


class ProcessLock:
    """The held lock; :meth:`release` (or the process ending) lets the next bot in."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    @classmethod
    def take(cls, database: Path) -> ProcessLock:
        """Lock ``database`` for this process, or raise :class:`DatabaseRefused`."""
        path = lock_path(database)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise DatabaseRefused(
                f"cannot create the lock file {path}: {error.strerror}; the bot must be able "
                f"to create files in {path.parent}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseRefused(
                f"{database} is in use by another bot process (pid {holder}); stop that bot "
                "first, or point BONKEN_DATABASE at another file"
            ) from None
        except OSError as error:
            os.close(fd)
            raise DatabaseRefused(f"cannot lock {path}: {error.strerror}") from None
        with contextlib.suppress(OSError):  # the pid only informs; a full disk may refuse it
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None
