"""Fixtures for running the store's tests on both backends.

``database`` is where a test's store lives: a fresh SQLite file (id ``sqlite``, copied
from one migrated once: ``sqlite_template.py``) or a fresh PostgreSQL database (id
``postgres``) in a server the session starts from the installed binaries (see
``postgres_server.py``): one server per pytest-xdist worker, each in its own temporary
folder with its own socket. Tests marked ``sqlite_only`` (a full disk, pragmas, the file
lock, damaged files) run on SQLite alone, and so do those marked ``service_logic`` (see
``pytest_generate_tests``) but the ones marked ``both_backends``. Without server binaries
the PostgreSQL cases fail, saying what to install: a test never skips what it cannot find.
"""

from __future__ import annotations

import compileall
import gc
import importlib
import itertools
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from hypothesis import settings

from bot.store import open_store
from tests.postgres_server import PostgresServer, TemplateCopies, find_bindir
from tests.sqlite_template import fresh_sqlite

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ("bot", "cogs", "tests")
"""The project's packages, compiled once before the tests run (see ``pytest_configure``)."""
TEMPLATE = "bonken_template"
"""A database migrated once per session, copied for each test (faster than migrating),
the copies made ahead (see :class:`TemplateCopies`)."""
_numbers = itertools.count()

# No time limit on a property test's example (Hypothesis's default is 200 ms): a test's
# speed is not what it checks (the benchmarks in bench/ do), and a busy machine or the
# other test workers must not fail it. Every property test but three said so already.
settings.register_profile("bonken", deadline=None)
settings.load_profile("bonken")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # once, before pytest-xdist starts its workers
        # The project's modules, compiled to bytecode once (as pip compiles an installed
        # package; an editable install is not compiled): every worker, and each Python
        # process a test starts (the crash test's children, the command lines'), then
        # reads the bytecode instead of compiling the bot again, also where
        # PYTHONDONTWRITEBYTECODE is set: up to half a second of CPU per process. Only
        # changed files are compiled again.
        for package in COMPILED:
            compileall.compile_dir(ROOT / package, quiet=1)
    # And pytest keeps the test modules as it rewrote their asserts (it skips that where
    # PYTHONDONTWRITEBYTECODE is set): each worker of the next run reads them instead of
    # rewriting some 250 modules again, about 5 s of CPU a worker.
    sys.dont_write_bytecode = False
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        # Before the workers start, rewrite them once here: on a fresh clone every
        # worker would otherwise rewrite all of them at once, side by side (some 40 s of
        # CPU on 2 cores, where once is 10).
        for path in sorted((ROOT / "tests").rglob("test_*.py")):
            importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    config.addinivalue_line(
        "markers", "sqlite_only: the behaviour is SQLite's own; not run on PostgreSQL"
    )
    config.addinivalue_line(
        "markers",
        "service_logic: checks a service's own logic, not the store's: on SQLite alone, since"
        " the store's tests run every query it makes on both backends",
    )
    config.addinivalue_line(
        "markers",
        "both_backends: on both backends even in a service_logic module (writes at once,"
        " which PostgreSQL's locks order and SQLite's one writer takes in turn)",
    )
    config.addinivalue_line(
        "markers",
        "long: many seconds, mostly waiting (a whole match in a browser or at the default"
        " pace, a crash loop of processes); run first, spread over the workers",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """No PostgreSQL case for a test about SQLite's own behaviour (``sqlite_only``), nor
    for one about a service's own logic (``service_logic``: whether a lobby refuses a
    second join, how a season ranks): every query such a test makes reaches PostgreSQL
    in the store's own tests (``tests/store``, and the ``*_store`` tests of the daily and
    tally), which is where the backends may differ. A test marked ``both_backends`` keeps
    both: writes at once, which each backend orders its own way."""
    if "database" not in metafunc.fixturenames:
        return
    definition = metafunc.definition
    alone = definition.get_closest_marker("sqlite_only") is not None or (
        definition.get_closest_marker("service_logic") is not None
        and definition.get_closest_marker("both_backends") is None
    )
    if alone:  # as a mark, which pytest then applies instead of the fixture's own params
        definition.add_marker(pytest.mark.parametrize("database", ["sqlite"], indirect=True))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start each worker with its share of the tests marked ``long``: most of a long
    test's time is spent waiting (on a browser, on the bot's clocks, on processes), so the
    workers (more of them than cores, see ``addopts``) run every other test beside them
    instead of after them, and none is left running one alone at the end."""
    long = [item for item in items if item.get_closest_marker("long") is not None]
    rest = [item for item in items if item.get_closest_marker("long") is None]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = [item for share in _shares(long, rest, workers) for item in share]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What every test of this worker shares (the modules, the collected tests, the
    catalogues), kept out of the cyclic collector from now on: its full passes then walk
    only what the tests made, a few per cent of the suite's CPU otherwise. The bot keeps
    this as it is (see ``bot/heap.py``)."""
    gc.collect()
    gc.freeze()


def _shares(
    long: list[pytest.Item], rest: list[pytest.Item], workers: int
) -> list[list[pytest.Item]]:
    """The order in which pytest-xdist's ``worksteal`` hands each of ``workers`` its
    first share (the collection cut into as many runs as there are workers, in order),
    with the ``long`` tests dealt round to the heads of the shares, the ``rest`` after
    them in their order. Every worker collects the same order (xdist checks)."""
    sizes, left = [], len(long) + len(rest)
    for worker in range(workers):
        sizes.append(left // (workers - worker))
        left -= sizes[-1]
    shares = [long[worker::workers] for worker in range(workers)]
    others = iter(rest)
    for share, size in zip(shares, sizes, strict=True):
        share.extend(itertools.islice(others, max(size - len(share), 0)))
    shares[-1].extend(others)
    return shares


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        pytest.fail("no PostgreSQL server binaries (initdb, pg_ctl): install postgresql-15")
    server = PostgresServer(bindir).start()
    try:
        yield server
    finally:
        server.stop()


async def _admin(server: PostgresServer, *statements: str) -> None:
    conn = await asyncpg.connect(server.url())
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


@pytest.fixture
async def postgres_empty(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    name = f"test_{next(_numbers)}"
    await _admin(postgres_server, f"CREATE DATABASE {name} TEMPLATE template0")
    yield postgres_server.url(name)
    await _admin(postgres_server, f"DROP DATABASE {name} WITH (FORCE)")


async def _migrate(url: str) -> None:
    await (await open_store(url)).close()


@pytest.fixture(scope="session")
def postgres_copies(postgres_server: PostgresServer) -> Iterator[TemplateCopies]:
    copies = TemplateCopies(postgres_server, TEMPLATE, _migrate)
    try:
        yield copies
    finally:
        copies.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer, postgres_copies: TemplateCopies) -> Iterator[str]:
    """The URL of a new PostgreSQL database at this bot's schema, dropped after the test."""
    name = postgres_copies.take()
    yield postgres_server.url(name)
    postgres_copies.give_back(name)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where the test's store lives: a new SQLite file or a new PostgreSQL database, each
    at this bot's schema (copied from one migrated once)."""
    if request.param == "sqlite":
        return fresh_sqlite(tmp_path / "bonken.sqlite3")
    return str(request.getfixturevalue("postgres_url"))
