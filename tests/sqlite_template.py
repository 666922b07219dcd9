"""New SQLite stores for the tests, copied from one the bot migrated once per process.

Opening a path where no file is yet makes the bot create and migrate the database, about
a tenth of a second; hundreds of tests each starting from a new store spent most of their
set-up there. A copy of a file the bot made and closed is that same database: the bot
opens it as it opens its own file after a restart, in a few milliseconds. Tests about
creating or upgrading a file make their own.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.store import open_store

_template: Path | None = None


async def _create(path: Path) -> None:
    await (await open_store(path)).close()


def _made_template() -> Path:
    """The file the bot creates at a new path, made once in this process (on its own
    event loop in a thread: a test's loop may be running)."""
    global _template
    if _template is None:
        folder = Path(tempfile.mkdtemp(prefix="bonken-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        with ThreadPoolExecutor(max_workers=1) as thread:
            thread.submit(asyncio.run, _create(folder / "bonken.sqlite3")).result()
        _template = folder / "bonken.sqlite3"
    return _template


def fresh_sqlite(path: Path) -> Path:
    """Put a new store at this bot's schema at ``path`` (where no file is) and return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "xb") as made:  # "x": never overwrite a test's own file
        made.write(_made_template().read_bytes())
    return path
