"""``python -m bot.store copy SQLITE_FILE postgresql://...``: move a SQLite database to
PostgreSQL, every row of every table, with its ids, in one transaction, then check it.

The target must be empty (it is created, or migrated, to this bot's schema first); the
source must be at this bot's schema (``check --upgrade`` upgrades it) and is only read.
Stop the bot first: rows it wrote during the copy would be left behind.

Rows go across in primary-key order, a batch at a time (``COPY`` on PostgreSQL), parents
before children. The append-only triggers refuse a deal or an action for a match not in
play, which is every finished match: they are switched off for the copy's transaction
only (``ALTER TABLE ... DISABLE TRIGGER USER``), and the checks after it stand in for them.
Then: every table's row count equal on both sides, every match's rebuilt record identical,
and the target's own integrity checks clean.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .database import Session
from .errors import StoreError
from .store import Store, open_store

BATCH = 20_000


class CopyFailed(StoreError):
    """The copy was refused (a non-empty target) or its check found a difference."""


@dataclass(frozen=True, kw_only=True)
class SourceTable:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    """The primary key, the order the rows are read in (a batch after the last key)."""
    parents: frozenset[str]


@dataclass(frozen=True, kw_only=True)
class Copied:
    rows: dict[str, int]
    matches: int


async def copy_database(source: Path, target: str) -> Copied:
    """Copy the SQLite file ``source`` into the empty PostgreSQL database ``target``."""
    async with await open_store(source, read_only=True) as sqlite:
        async with sqlite.db.reading() as reading:
            tables = _in_order(await _source_tables(reading))
        async with await open_store(target) as postgres:
            await _refuse_non_empty(postgres, tables)
            async with sqlite.db.reading() as reading, postgres.db.writing() as writing:
                for table in tables:
                    await writing.execute(f"ALTER TABLE {table.name} DISABLE TRIGGER USER")
                rows = {table.name: await _copy_table(reading, writing, table) for table in tables}
                for table in tables:
                    await writing.execute(f"ALTER TABLE {table.name} ENABLE TRIGGER USER")
                    if len(table.key) == 1:
                        await writing.ids_taken(table.name, table.key[0])
                await _same_counts(writing, rows)
            matches = await _same_records(sqlite, postgres)
            problems = await postgres.integrity_problems()
            if problems:
                raise CopyFailed(f"the copy in {postgres.db.label} has problems: {problems[0]}")
    return Copied(rows=rows, matches=matches)


async def _source_tables(session: Session) -> list[SourceTable]:
    names = [
        row["name"]
        for row in await session.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite_%' AND name <> 'schema_version' ORDER BY name"
        )
    ]
    tables = []
    for name in names:
        # A column's ``pk`` is its place in the primary key (1, 2, ...), 0 outside it.
        info = await session.fetchall(f"PRAGMA table_info({name})")
        keyed = sorted((column["pk"], column["name"]) for column in info if column["pk"])
        references = await session.fetchall(f"PRAGMA foreign_key_list({name})")
        parents = {reference["table"] for reference in references}
        tables.append(
            SourceTable(
                name=name,
                columns=tuple(column["name"] for column in info),
                key=tuple(column for _, column in keyed),
                parents=frozenset(parents - {name}),
            )
        )
    return tables


def _in_order(tables: list[SourceTable]) -> list[SourceTable]:
    """Parents before the tables that refer to them."""
    ordered: list[SourceTable] = []
    waiting = list(tables)
    while waiting:
        done = {table.name for table in ordered}
        ready = [table for table in waiting if table.parents <= done]
        if not ready:
            raise CopyFailed(f"the tables {[t.name for t in waiting]} refer to each other")
        ordered.extend(ready)
        waiting = [table for table in waiting if table not in ready]
    return ordered


async def _refuse_non_empty(store: Store, tables: list[SourceTable]) -> None:
    async with store.db.reading() as session:
        for table in tables:
            if await session.scalar(f"SELECT 1 FROM {table.name} LIMIT 1") is not None:
                raise CopyFailed(
                    f"{store.db.label} is not empty (its {table.name} table has rows); copy "
                    "only into a new database"
                )


async def _copy_table(reading: Session, writing: Session, table: SourceTable) -> int:
    columns = ", ".join(table.columns)
    key = ", ".join(table.key)
    after = f"({key}) > ({', '.join('?' * len(table.key))})"
    copied, last = 0, None
    while True:
        where = "" if last is None else f"WHERE {after}"
        rows = await reading.fetchall(
            f"SELECT {columns} FROM {table.name} {where} ORDER BY {key} LIMIT {BATCH}",
            last or (),
        )
        if not rows:
            return copied
        await writing.copy_rows(
            table.name, table.columns, [tuple(row[c] for c in table.columns) for row in rows]
        )
        copied += len(rows)
        last = tuple(rows[-1][column] for column in table.key)


async def _same_counts(session: Session, rows: dict[str, int]) -> None:
    for table, count in rows.items():
        there = await session.scalar(f"SELECT count(*) FROM {table}")
        if there != count:
            raise CopyFailed(f"{table}: {count} rows read but {there} in the copy")


async def _same_records(source: Store, target: Store) -> int:
    """Every match's record rebuilt on both sides, compared; how many matches."""
    async with source.db.reading() as session:
        ids = [row["match_id"] for row in await session.fetchall("SELECT match_id FROM matches")]
    for match_id in ids:
        if await source.matches.load_record(match_id) != await target.matches.load_record(match_id):
            raise CopyFailed(
                f"match {match_id}'s record differs in the copy {target.db.label}, which is "
                "committed: drop that database and report a bug"
            )
    return len(ids)
