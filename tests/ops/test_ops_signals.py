"""``docker stop`` (SIGTERM) and Ctrl-C (SIGINT) close the bot cleanly: the gateway gets
a close frame, the store is closed (SQLite folds its WAL back into the
file) and the process exits 0 at once, not after Docker's 10 s and a SIGKILL: also in
the middle of a match, while discord.py waits for a rate limit or a computer thinks."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import pytest

from tests.ops.fake_discord import TOKEN, FakeDiscord, bot_env, launch
from tests.ops.stop_clock import time_stop
from tests.ops.wire_discord import (
    BotProcess,
    Call,
    User,
    WireDiscord,
    custom_ids,
    my_turn,
    play_seat,
    snowflake,
    table_message,
)

# aiohttp's own multipart reader, which the fake Discord reads the bot's uploads with,
# calls a deprecated method of itself.
pytestmark = pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning")

FAST = {"BONKEN_PACE": "0", "BONKEN_THINK_SECONDS": "0.01"}
STOP_LIMIT = 1.0
"""Seconds from the signal to the exit with nothing to send (the README: at once), less
the time the bot stood ready to run while a loaded machine ran other work: what the bot
waits for counts, the machine's queue does not (``tests/ops/stop_clock.py``)."""


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_closes_discord_and_the_store_and_exits_0(tmp_path, number):
    env = bot_env(tmp_path, DISCORD_TOKEN=TOKEN)
    database = tmp_path / "data" / "bonken.sqlite3"
    async with FakeDiscord() as fake:
        process = await launch(fake.url, fake.ws_url(), env, tmp_path)
        try:
            await asyncio.wait_for(fake.identified.wait(), 30)
            assert database.exists() and process.returncode is None
            took, (_, stderr) = await time_stop(
                process.pid,
                lambda: process.send_signal(number),
                asyncio.wait_for(process.communicate(), 10),
            )
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        log = stderr.decode()
        assert process.returncode == 0, log
        assert took < STOP_LIMIT, took
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
            took, (_, stderr) = await time_stop(
                process.pid,
                lambda: process.send_signal(signal.SIGTERM),
                asyncio.wait_for(process.communicate(), 5),
            )
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    log = stderr.decode()
    assert process.returncode == 0 and "Traceback" not in log, log
    assert log.rstrip().endswith("closed cleanly") and not fake.identified.is_set(), log
    assert took < STOP_LIMIT, took


def deal_message(wire: WireDiscord) -> str:
    """The table message's text as shown now (its embed, in JSON)."""
    table = table_message(wire)
    return "" if table is None else json.dumps(table["embeds"], ensure_ascii=False)


async def test_a_stop_with_nothing_to_send_does_not_wait_for_the_rate_limit(tmp_path):
    """Discord's real timing. The first deal's message uses the thread's bucket up for
    30 s, so discord.py sleeps before returning it (the table message's edits wait
    behind it); the computers play until it is Ann's turn, and nothing else is to be
    posted. SIGINT: exit 0 at once (the post is out)."""
    ann = User(snowflake(), "Ann")
    async with WireDiscord(time_scale=1.0) as wire:
        wire.state.last_in_window = lambda call: 30.0 if first_deal(call) else 0.0
        async with BotProcess(wire, tmp_path, **FAST) as bot:
            await wire.slash(ann, "new")
            await wire.slash(ann, "start")
            table = await wire.state.wait_for(lambda: table_message(wire))
            button = next(c for c in custom_ids(table) if c.startswith("bonken:hand:"))
            await wire.click(ann, button, table)  # Show my hand: it lights up on her turn
            await wire.state.wait_for(lambda: my_turn(wire, ann))
            took = await bot.stop(signal.SIGINT)
        log = bot.text()
        assert bot.process.returncode == 0, log
        assert took < STOP_LIMIT, (took, log)
        assert log.endswith("closed cleanly") and "not presented" not in log, log


def first_deal(call: Call) -> bool:
    """The post of the first deal's message."""
    embeds = (call.body or {}).get("embeds") or [{}]
    return call.method == "POST" and str(embeds[0].get("title")).startswith("Deal 1 of")


async def test_ctrl_c_while_a_computer_thinks_does_not_wait_for_it(tmp_path):
    """Hard computers with 30 s to think: Ctrl-C (SIGINT to every process of the group,
    the computers' worker too) while one searches closes the bot cleanly and at once;
    the search is dropped (nothing of it was stored), and the worker's own SIGINT is not
    taken for a second one ("stop at once")."""
    ann = User(snowflake(), "Ann")
    settings = {**FAST, "BONKEN_THINK_SECONDS": "30"}
    async with WireDiscord() as wire:
        async with BotProcess(wire, tmp_path, **settings) as bot:
            await wire.slash(ann, "new", computer_level="hard")
            await wire.slash(ann, "start")
            await play_seat(wire, ann, lambda: "bot** 🤖 is thinking" in deal_message(wire))
            took = await bot.stop(signal.SIGINT, group=True)
        log = bot.text()
        assert bot.process.returncode == 0, log
        assert took < STOP_LIMIT, (took, log)
        assert log.endswith("closed cleanly") and "Traceback" not in log, log
        assert "again" not in log, log


async def test_kill_9_while_a_computer_thinks_leaves_no_process_behind(tmp_path):
    """SIGKILL ends the bot and nothing else: its computers' worker, in the middle of a
    30 s search, notices it has lost the bot and ends too (it held the bot's log pipe
    open, and lived on, before)."""
    ann = User(snowflake(), "Ann")
    settings = {**FAST, "BONKEN_THINK_SECONDS": "30"}
    async with WireDiscord() as wire:
        async with BotProcess(wire, tmp_path, **settings) as bot:
            await wire.slash(ann, "new", computer_level="hard")
            await wire.slash(ann, "start")
            await play_seat(wire, ann, lambda: "bot** 🤖 is thinking" in deal_message(wire))
            group = bot.process.pid  # (the bot leads a process group of its own)
            await bot.kill()  # returns once every holder of its log pipe has ended
        async with asyncio.timeout(5):  # and the system has taken the last of them away
            while group_lives(group):
                await asyncio.sleep(0.05)


def group_lives(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
