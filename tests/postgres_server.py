"""A throwaway PostgreSQL server for the tests and the benchmark, from the installed binaries.

``initdb`` a cluster in a temporary folder, start it with ``pg_ctl`` on a unix socket in
that folder (no TCP port to collide on), hand out databases, stop it and delete the folder.
As root (containers, CI) the server runs as the ``postgres`` user, since PostgreSQL refuses
to run as root. For the tests durability is switched off (``fsync=off``): a test server
that loses its data in a power cut loses nothing of value, and it is several times faster
so; the benchmark keeps PostgreSQL's defaults (``durable=True``), as a real server has.
:class:`TemplateCopies` hands the tests copies of a template database, made ahead.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import queue
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

VERSION = 15
SETTINGS = "-c listen_addresses='' -c max_connections=300"
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"


def find_bindir() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``: ``pg_config``'s, Debian's, or None."""
    candidates = []
    if shutil.which("pg_config"):
        found = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=False
        )
        candidates.append(Path(found.stdout.strip()))
    candidates.append(Path(f"/usr/lib/postgresql/{VERSION}/bin"))
    runs = (c for c in candidates if (c / "initdb").exists() and (c / "pg_ctl").exists())
    return next(runs, None)


class PostgresServer:
    """One running cluster; :meth:`url` names a database in it."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        self.settings = SETTINGS if durable else f"{SETTINGS} {FAST}"
        self.root = Path(tempfile.mkdtemp(prefix="bonken-pg-"))
        self.data = self.root / "data"
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)

    def _run(self, *command: str) -> None:
        argv = [str(self.bindir / command[0]), *command[1:]]
        if self._as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=True, capture_output=True, cwd=self.root)

    def start(self) -> PostgresServer:
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust",
            "--locale=C", "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-s",
            "-o", f"{self.settings} -k {self.root}", "start",
        )  # fmt: skip
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-s", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = "postgres") -> str:
        return f"postgresql://{user}@/{database}?host={self.root}"


class TemplateCopies:
    """New databases copied from a template, made ahead of the tests by a thread of their own.

    A copy takes a checkpoint and tens of milliseconds of the server's time (hundreds on
    a busy machine); made while the test before runs, it is ready when the next one asks.
    The thread drops the copies given back too, so no test waits for that either.
    ``prepare(url)`` makes the (empty) template what every copy starts as."""

    WAIT = 60.0
    """Seconds :meth:`take` waits for a copy before it fails."""

    def __init__(
        self,
        server: PostgresServer,
        template: str,
        prepare: Callable[[str], Awaitable[None]],
        *,
        ahead: int = 2,
    ) -> None:
        self.server = server
        self.template = template
        self._names = (f"{template}_{n}" for n in itertools.count())
        self._jobs: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._ready: queue.Queue[str | BaseException] = queue.Queue()
        for _ in range(ahead):
            self._jobs.put(("create", next(self._names)))
        self._thread = threading.Thread(
            target=asyncio.run, args=(self._serve(prepare),), name="template-copies", daemon=True
        )
        self._thread.start()

    def take(self) -> str:
        """The name of a new copy, for one test (the next one is started at once)."""
        self._jobs.put(("create", next(self._names)))
        try:
            made = self._ready.get(timeout=self.WAIT)
        except queue.Empty:
            raise TimeoutError(f"no copy of {self.template} within {self.WAIT} s") from None
        if isinstance(made, BaseException):
            self._ready.put(made)  # every later test fails with it too
            raise made
        return made

    def give_back(self, name: str) -> None:
        """The test is done with the copy: drop it (and whoever is still connected)."""
        self._jobs.put(("drop", name))

    def close(self) -> None:
        self._jobs.put(None)
        self._thread.join(timeout=self.WAIT)

    async def _serve(self, prepare: Callable[[str], Awaitable[None]]) -> None:
        """The thread: the template, then each job in turn (waiting for the next job blocks
        this thread's own event loop, which has nothing else to do)."""
        try:
            conn = await asyncpg.connect(self.server.url())
        except BaseException as error:
            self._ready.put(error)
            raise
        try:
            await conn.execute(f"CREATE DATABASE {self.template} TEMPLATE template0")
            await prepare(self.server.url(self.template))
            while (job := self._jobs.get()) is not None:
                what, name = job
                if what == "create":
                    await conn.execute(
                        f"CREATE DATABASE {name} TEMPLATE {self.template} STRATEGY FILE_COPY"
                    )
                    self._ready.put(name)
                else:
                    await conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
        except BaseException as error:
            self._ready.put(error)
            raise
        finally:
            await conn.close()
