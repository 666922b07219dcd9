"""Commands are synced when they changed, not at every start: the hash of the command
tree and of the sync target (global or the dev guild) is kept in the database, so
restarts do not spend Discord's daily limit on command creations."""

from __future__ import annotations

import logging

from discord import app_commands

from bot.app import BonkenBot
from tests.discord.discord_harness import APP_ID, GUILD_ID, Harness


async def _run(tmp_path, **kwargs) -> Harness:
    """Start the bot and stop it again; the harness keeps what Discord received."""
    h = Harness(tmp_path, **kwargs)
    try:
        await h.start()
    finally:
        await h.stop()
    return h


async def test_a_restart_with_the_same_commands_does_not_sync(tmp_path, caplog):
    first = await _run(tmp_path)
    assert len(first.fake.syncs()) == 1
    with caplog.at_level(logging.INFO, logger="bot.app"):
        second = await Harness(tmp_path, fake=first.fake).start()
    try:
        assert len(first.fake.syncs()) == 1  # no second sync
        assert "commands unchanged since the last sync" in caplog.text
        ann = second.user("Ann")
        opened = await second.slash(ann, "new")  # the commands Discord has still work
        assert second.table() is not None and opened.latency is not None
    finally:
        await second.stop()


async def test_a_changed_command_tree_syncs(tmp_path, monkeypatch):
    first = await _run(tmp_path)
    original = BonkenBot._sync_commands

    async def with_a_new_command(self: BonkenBot) -> None:
        async def hello(interaction) -> None:  # pragma: no cover - never invoked
            pass

        self.tree.add_command(app_commands.Command(name="hello", description="Hi", callback=hello))
        await original(self)

    monkeypatch.setattr(BonkenBot, "_sync_commands", with_a_new_command)
    await _run(tmp_path, fake=first.fake)
    syncs = first.fake.syncs()
    assert len(syncs) == 2
    assert "hello" in {command["name"] for command in syncs[-1].body}
    await _run(tmp_path, fake=first.fake)
    assert len(first.fake.syncs()) == 2  # and only once


async def test_a_changed_dev_guild_syncs_there(tmp_path):
    first = await _run(tmp_path)
    await _run(tmp_path, fake=first.fake, dev_guild_id=GUILD_ID)
    syncs = first.fake.syncs()
    assert [call.path.endswith(f"/guilds/{GUILD_ID}/commands") for call in syncs] == [False, True]
    await _run(tmp_path, fake=first.fake, dev_guild_id=GUILD_ID)
    assert len(first.fake.syncs()) == 2
    await _run(tmp_path, fake=first.fake)  # back to global: synced again
    syncs = first.fake.syncs()
    assert len(syncs) == 3 and syncs[-1].path == f"/applications/{APP_ID}/commands"


async def test_a_failed_sync_is_retried_at_the_next_start(tmp_path, monkeypatch, caplog):
    import discord

    async def refused(self, *, guild=None):
        raise discord.HTTPException(_Response(429), "You are being rate limited.")

    monkeypatch.setattr(app_commands.CommandTree, "sync", refused)
    with caplog.at_level(logging.ERROR, logger="bot.app"):
        first = await _run(tmp_path)  # the bot still starts
    assert "syncing the commands failed" in caplog.text
    monkeypatch.undo()
    await _run(tmp_path, fake=first.fake)
    assert len(first.fake.syncs()) == 1


class _Response:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "Too Many Requests"
