"""``python -m bot --shards 0-3 --shard-count 8``: which shards a process runs, and so
which guilds' tables it drives; a malformed choice is one ``Cannot start:`` line."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot.__main__ import main
from bot.app import BonkenBot, make_bot
from bot.settings import Settings
from bot.shards import Shards, ShardsError

# A guild id with a known shard: Discord's formula is (guild_id >> 22) % shard_count.
GUILD_ON_SHARD_5_OF_8 = (13 << 22) | 12345


def test_shards_are_ranges_lists_or_one_and_must_exist() -> None:
    assert Shards.parse("0-3", 8) == Shards((0, 1, 2, 3), 8)
    assert Shards.parse("6, 0,2-3,2", 8) == Shards((0, 2, 3, 6), 8)
    assert Shards.parse(None, 4) == Shards((0, 1, 2, 3), 4)  # a count alone: all of them
    assert Shards.parse(None, None) == Shards()
    assert Shards.parse("0-3,6", 8).describe() == "shards 0-3,6 of 8"


@pytest.mark.parametrize(
    ("ids", "count", "message"),
    [
        ("0-3", None, "--shards needs --shard-count"),
        ("4-8", 8, "names shard 8, but shards are 0-7 with --shard-count 8"),
        ("a-b", 8, "--shards must be shard numbers such as 0-3 or 0,2,5, not 'a-b'"),
        ("3-1", 8, "'3-1' is not a range of shards"),
        ("-1", 8, "--shards must be shard numbers such as 0-3 or 0,2,5, not '-1'"),
        ("0", 0, "--shard-count must be 1-4096, not 0"),
        ("0-99999999999", 9, "shards are below 4096"),
    ],
)
def test_a_malformed_choice_of_shards_is_refused(ids: str, count: int | None, message: str) -> None:
    with pytest.raises(ShardsError, match=message):
        Shards.parse(ids, count)


def test_a_process_owns_the_guilds_of_its_shards_by_discord_s_formula() -> None:
    assert Shards.parse("4-7", 8).owns(GUILD_ON_SHARD_5_OF_8)
    assert not Shards.parse("0-3", 8).owns(GUILD_ON_SHARD_5_OF_8)
    assert Shards().owns(GUILD_ON_SHARD_5_OF_8)  # not sharded: every guild
    # every guild belongs to exactly one of the processes that split the shards
    halves = Shards.parse("0-3", 8), Shards.parse("4-7", 8)
    for guild in range(0, 40 << 22, 1 << 21):
        assert sum(half.owns(guild) for half in halves) == 1


def test_bad_shards_stop_the_bot_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")
    monkeypatch.chdir(tmp_path)  # type: ignore[arg-type]
    assert main(["--shards", "0-3"]) == 2
    assert capsys.readouterr().err == (
        "Cannot start: --shards needs --shard-count (how many shards in all)\n"
    )


def test_a_sharded_process_runs_only_its_shards() -> None:
    sharded = make_bot(Settings(shards=Shards.parse("4-7", 8)))
    assert isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([4, 5, 6, 7], 8)
    plain = make_bot(Settings())
    assert type(plain) is BonkenBot and not isinstance(plain, commands.AutoShardedBot)
