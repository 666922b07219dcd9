"""Claims between real bot processes on one PostgreSQL database: a live owner's tables
cannot be taken, and a process killed with SIGKILL is seen as gone at once."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap

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
