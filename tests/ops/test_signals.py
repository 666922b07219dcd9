"""``docker stop`` (SIGTERM) and Ctrl-C (SIGINT) close the bot cleanly: the gateway gets
a close frame, the store is closed (SQLite folds its WAL back into the
file) and the process exits 0 at once, not after Docker's 10 s and a SIGKILL."""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from tests.ops.fake_discord import TOKEN, FakeDiscord, bot_env, launch


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_closes_discord_and_the_store_and_exits_0(tmp_path, number):
    env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN)
    database = tmp_path / "data" / "bonken.sqlite3"
    async with FakeDiscord() as fake:
        process = await launch(fake.url, fake.ws_url(), env, tmp_path)
        try:
            await asyncio.wait_for(fake.identified.wait(), 30)
            assert database.exists() and process.returncode is None
            sent = time.monotonic()
            process.send_signal(number)
            _, stderr = await asyncio.wait_for(process.communicate(), 10)
            took = time.monotonic() - sent
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        log = stderr.decode()
        assert process.returncode == 0, log
        assert took < 3, took
        assert f"{number.name}: closing" in log and log.rstrip().endswith("closed cleanly"), log
        assert "Traceback" not in log, log
        # A close frame, not a dropped connection. (discord.py's close sends 1000, but its
        # reader answers the closing socket with 4000 first; either is a proper close.)
        assert len(fake.close_codes) == 1 and fake.close_codes[0] in (1000, 4000)
    assert not database.with_name(database.name + "-wal").exists()  # the store was closed


async def test_a_signal_while_still_starting_closes_as_cleanly(tmp_path):
    # The bot is in setup_hook (its store open, the command sync under way) when told to stop.
    env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN)
    async with FakeDiscord(sync_delay=30) as fake:
        process = await launch(fake.url, fake.ws_url(), env, tmp_path)
        try:
            await asyncio.wait_for(fake.syncing.wait(), 30)
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 5)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    log = stderr.decode()
    assert process.returncode == 0 and "Traceback" not in log, log
    assert log.rstrip().endswith("closed cleanly") and not fake.identified.is_set(), log
