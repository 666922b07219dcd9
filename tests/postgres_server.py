"""A throwaway PostgreSQL server for the tests and the benchmark, from the installed binaries.

``initdb`` a cluster in a temporary folder, start it with ``pg_ctl`` on a unix socket in
that folder (no TCP port to collide on), hand out databases, stop it and delete the folder.
As root (containers, CI) the server runs as the ``postgres`` user, since PostgreSQL refuses
to run as root. For the tests durability is switched off (``fsync=off``): a test server
that loses its data in a power cut loses nothing of value, and it is several times faster
so; the benchmark keeps PostgreSQL's defaults (``durable=True``), as a real server has.
:class:`TemplateCopies` hands the tests copies of a template database, made ahead and
emptied to be used again.
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


FINGERPRINT = """
SELECT md5(string_agg(item, ',' ORDER BY item)) FROM (
    SELECT 'n:' || nspname AS item FROM pg_namespace
    UNION ALL
    SELECT 'c:' || c.oid::regclass || ':' || c.relkind::text
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
    UNION ALL
    SELECT 'a:' || a.attrelid::regclass || '.' || a.attname || ':'
        || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
        AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT 'd:' || adrelid::regclass || '.' || adnum || ':' || pg_get_expr(adbin, adrelid)
    FROM pg_attrdef
    UNION ALL
    SELECT 'k:' || conrelid::regclass || '.' || conname || ':' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace <> 'pg_catalog'::regnamespace
    UNION ALL
    SELECT 'i:' || indexdef FROM pg_indexes WHERE schemaname <> 'pg_catalog'
    UNION ALL
    SELECT 't:' || tgrelid::regclass || '.' || tgname || ':' || tgenabled::text
    FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL
    SELECT 'f:' || p.oid::regprocedure || ':' || md5(p.prosrc)
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
    UNION ALL
    SELECT 'g:' || c.oid::regclass || ':' || coalesce(c.relacl::text, '')
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
) items
"""
"""What a database is made of besides its rows: schemas, tables, columns, defaults,
constraints, indexes, triggers (and whether they are enabled), functions and grants. A
copy given back with the template's is emptied and used again (see :class:`TemplateCopies`)."""


class TemplateCopies:
    """New databases copied from a template, made ahead of the tests by a thread of their own.

    A copy takes two checkpoints and some 150-300 ms of the server's CPU (more on a busy
    machine), a fifth of a core for every PostgreSQL case of the suite: so a copy given
    back is emptied and used again, which costs a few milliseconds. Emptied means its
    connections ended, then every table the template had empty truncated and its
    sequences restarted (triggers off, as the store's forbid emptying its logs), once its
    :data:`FINGERPRINT` and its non-empty tables' rows (the schema's version) are still
    the template's; a copy whose test changed its schema (a broken migration, a dropped
    table) is dropped instead. Made while the test before runs, a copy is ready when the
    next one asks. ``prepare(url)`` makes the (empty) template what every copy starts as.
    """

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
        self.made = 0
        """Copies made (the others taken were emptied ones given back)."""
        self._names = (f"{template}_{n}" for n in itertools.count())
        self._jobs: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._ready: queue.Queue[str | BaseException] = queue.Queue()
        self._spare: list[str] = []
        for _ in range(ahead):
            self._jobs.put(("create", next(self._names)))
        self._thread = threading.Thread(
            target=asyncio.run, args=(self._serve(prepare),), name="template-copies", daemon=True
        )
        self._thread.start()

    def take(self) -> str:
        """The name of a copy for one test (and the next one is readied at once)."""
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
        """The test is done with the copy: empty it for another test, or drop it."""
        self._jobs.put(("give back", name))

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
            template = await _Contents.of(self.server.url(self.template))
            while (job := self._jobs.get()) is not None:
                what, name = job
                if what == "create":
                    if self._spare:
                        self._ready.put(self._spare.pop())
                        continue
                    await conn.execute(
                        f"CREATE DATABASE {name} TEMPLATE {self.template} STRATEGY FILE_COPY"
                    )
                    self.made += 1
                    self._ready.put(name)
                elif await template.emptied(self.server.url(name)):
                    self._spare.append(name)
                else:
                    await conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
        except BaseException as error:
            self._ready.put(error)
            raise
        finally:
            await conn.close()


class _Contents:
    """What the template is made of (:data:`FINGERPRINT`), its tables without rows, and
    the rows of the others; :meth:`emptied` makes a copy so again, where it can."""

    def __init__(self, fingerprint: str, empty: list[str], kept: dict[str, str]) -> None:
        self.fingerprint = fingerprint
        self.empty = empty
        self.kept = kept

    @classmethod
    async def of(cls, url: str) -> _Contents:
        conn = await asyncpg.connect(url)
        try:
            tables = await conn.fetch(
                "SELECT c.oid::regclass::text AS name FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY 1"
            )
            empty, kept = [], {}
            for (table,) in tables:
                if await conn.fetchval(f"SELECT EXISTS (SELECT FROM {table})"):
                    kept[table] = await _rows(conn, table)
                else:
                    empty.append(table)
            return cls(await conn.fetchval(FINGERPRINT), empty, kept)
        finally:
            await conn.close()

    async def emptied(self, url: str) -> bool:
        """Whether the copy at ``url`` was made the template's again (False: its test
        changed more than its rows, or it could not be emptied; then drop it)."""
        try:
            conn = await asyncpg.connect(url)
        except (OSError, asyncpg.PostgresError):
            return False
        try:
            await conn.execute(
                "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if await conn.fetchval(FINGERPRINT) != self.fingerprint:
                return False
            for table, rows in self.kept.items():
                if await _rows(conn, table) != rows:
                    return False
            async with conn.transaction():
                await conn.execute("SET LOCAL session_replication_role = replica")
                await conn.execute(f"TRUNCATE {', '.join(self.empty)} RESTART IDENTITY")
            return True
        except asyncpg.PostgresError:
            return False
        finally:
            await conn.close()


async def _rows(conn: asyncpg.Connection, table: str) -> str:
    return str(
        await conn.fetchval(f"SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM {table} t")
    )
