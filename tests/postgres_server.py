"""A throwaway PostgreSQL server for the tests and the benchmark, from the installed binaries.

``initdb`` a cluster in a temporary folder, start it with ``pg_ctl`` on a unix socket in
that folder (no TCP port to collide on), hand out databases, stop it and delete the folder.
As root (containers, CI) the server runs as the ``postgres`` user, since PostgreSQL refuses
to run as root. For the tests durability is switched off (``fsync=off``): a test server
that loses its data in a power cut loses nothing of value, and it is several times faster
so; the benchmark keeps PostgreSQL's defaults (``durable=True``), as a real server has.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

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
