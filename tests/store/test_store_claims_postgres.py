"""Claims between real bot processes on one PostgreSQL database: a live owner's tables
cannot be taken, a process killed with SIGKILL is seen as gone at once, and a process
whose lock connection drops takes its lock again."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap

import asyncpg  # type: ignore[import-untyped]

from bot.store import open_store

CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from bot.store import open_store

    async def main():
        store = await open_store(sys.argv[1])
        table = await store.tables.create_table(1, 10, host_id=1)
        print(table.table_id, store.claims.owner, flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


async def test_a_live_process_keeps_its_claims_until_it_closes(postgres_url: str) -> None:
    first = await open_store(postgres_url)
    second = await open_store(postgres_url)
    try:
        table = await first.tables.create_table(1, 10, host_id=1)
        assert not await second.claims.claim(table.table_id)
        await first.close()  # its lock goes with its connection, claims or no claims
        assert await second.claims.holder(table.table_id) == first.claims.owner
        assert await second.claims.claim(table.table_id)
    finally:
        await second.close()


async def test_a_process_killed_with_sigkill_loses_its_tables_at_once(postgres_url: str) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, postgres_url, stdout=asyncio.subprocess.PIPE
    )
    assert child.stdout is not None
    try:
        line = await asyncio.wait_for(child.stdout.readline(), 60)
        table_id, owner = map(int, line.split())
        async with await open_store(postgres_url) as store:
            assert await store.claims.holder(table_id) == owner
            assert not await store.claims.claim(table_id)  # it lives
            os.kill(child.pid, signal.SIGKILL)
            await child.wait()
            # The server notices the dropped connection within moments, never a lease.
            for _ in range(100):
                if await store.claims.claim(table_id):
                    break
                await asyncio.sleep(0.05)
            assert await store.claims.holder(table_id) == store.claims.owner
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()


async def _lock_holders(url: str, owner: int) -> list[int]:
    """The server processes holding the advisory lock ``owner`` (a bigint key: its high
    and low halves are ``classid`` and ``objid``)."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 1",
            (owner >> 32) & 0xFFFFFFFF,
            owner & 0xFFFFFFFF,
        )
        return [row["pid"] for row in rows]
    finally:
        await conn.close()


async def test_a_process_whose_lock_connection_drops_takes_its_lock_again(
    postgres_url: str,
) -> None:
    """A server-side end of the lock's connection (a restart, an operator) while the bot
    lives: the bot takes its lock again, so its tables stay its own."""
    async with await open_store(postgres_url) as first:
        table = await first.tables.create_table(1, 10, host_id=1)
        owner = first.claims.owner
        (old_pid,) = await _lock_holders(postgres_url, owner)
        admin = await asyncpg.connect(postgres_url)
        try:
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", old_pid)
        finally:
            await admin.close()
        for _ in range(200):
            holders = await _lock_holders(postgres_url, owner)
            if holders and holders != [old_pid]:
                break
            await asyncio.sleep(0.05)
        assert holders and old_pid not in holders
        async with await open_store(postgres_url) as second:
            assert not await second.claims.claim(table.table_id)  # the first lives
        assert await first.claims.holder(table.table_id) == owner
