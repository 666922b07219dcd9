"""A real ``python -m bot`` killed (SIGKILL) at the worst moments, started again on the
same Discord: every post of the match is in its thread exactly once, in order, and the
thread is the match's from its first post (the channel keeps only the lobby)."""

from __future__ import annotations

import re

import pytest

from tests.ops.wire_discord import (
    CHANNEL_ID,
    BotProcess,
    User,
    WireDiscord,
    custom_ids,
    lines,
    play_seat,
    snowflake,
)

# aiohttp's own multipart reader, which the fake Discord reads the bot's uploads with,
# calls a deprecated method of itself.
# Each test plays a match through real bot processes, killed and started again: long.
pytestmark = [pytest.mark.filterwarnings("ignore:unread_data:DeprecationWarning"), pytest.mark.long]

FAST = {"BONKEN_PACE": "0", "BONKEN_THINK_SECONDS": "0.01"}
PACED = {"BONKEN_PACE": "0.05", "BONKEN_THINK_SECONDS": "0.01"}
DEAL = re.compile(r"Deal (\d+) of 11")
TRICK = re.compile(r"Trick (\d+):")
SCORE = re.compile(r"Deal (\d+) \(")


def thread_lines(wire: WireDiscord) -> list[str]:
    thread = wire.thread()
    return [] if thread is None else lines(wire.posts(thread))


def posted(wire: WireDiscord, pattern: re.Pattern[str]) -> int:
    return sum(bool(pattern.match(line)) for line in thread_lines(wire))


def in_order_once(said: list[str]) -> list[tuple[int, int]]:
    """Check the thread's deal messages, trick lines and score lines: each deal's message,
    then its tricks 1, 2, 3, ... once each, then its score line (above the next deal's
    message); (deal, tricks) seen."""
    seen: list[tuple[int, int]] = []
    for line in said:
        if found := DEAL.match(line):
            assert not seen or int(found[1]) == seen[-1][0] + 1, said
            seen.append((int(found[1]), 0))
        elif found := TRICK.match(line):
            deal, tricks = seen[-1]
            assert int(found[1]) == tricks + 1, (line, said)
            seen[-1] = (deal, tricks + 1)
        elif found := SCORE.match(line):
            assert int(found[1]) == seen[-1][0], (line, said)
    return seen


def deal_of(said: list[str], line: str) -> int:
    """The deal under whose message ``line`` stands in the thread's lines ``said``."""
    deal = 0
    for said_line in said:
        if found := DEAL.match(said_line):
            deal = int(found[1])
        elif said_line == line:
            return deal
    raise AssertionError(f"{line!r} is not in the thread: {said}")


def the_channel_keeps_the_lobby_alone(wire: WireDiscord) -> None:
    thread = wire.thread()
    assert thread is not None, "the match never got its thread"
    assert [int(m["id"]) for m in wire.posts(CHANNEL_ID)] == [thread]  # on the lobby


async def test_a_post_out_but_not_recorded_when_killed_is_posted_once(tmp_path):
    ann = User(snowflake(), "Ann")
    async with WireDiscord() as wire:
        # Discord makes the first deal's end (above the second deal's message); its
        # answer never reaches the bot.
        wire.hold = lambda call: (
            call.method == "POST" and "Trick 3:" in str((call.body or {}).get("content"))
        )
        # Paced, so the thread keeps up with the match: the post is held while the
        # deal it rides on is in play.
        async with BotProcess(wire, tmp_path, **PACED) as first:
            await wire.slash(ann, "new")
            await wire.slash(ann, "start")
            await play_seat(wire, ann, lambda: wire.held is not None)
            await first.kill()
        held = wire.held
        assert held is not None
        deals_posted = posted(wire, DEAL)
        wire.hold = None

        async with BotProcess(wire, tmp_path, **FAST) as second:
            await play_seat(wire, ann, lambda: posted(wire, SCORE) >= deals_posted)
            await second.stop()
        # The restart posted the line again by its name, and Discord answered with the
        # one there: the thread has it once, under its deal, with that deal's tricks in
        # order (which post held a third trick depends on how lines were merged).
        assert [c.body["nonce"] for c in wire.state.deduplicated] == [held.body["nonce"]]
        said = thread_lines(wire)
        deal = deal_of(said, held.body["content"].splitlines()[0])
        assert in_order_once(said)[deal - 1][1] >= 3
        assert [m["content"] for m in wire.posts(wire.thread())].count(held.body["content"]) == 1
        the_channel_keeps_the_lobby_alone(wire)


async def test_a_match_started_at_once_and_killed_at_once_plays_in_its_thread(tmp_path):
    """**Start** pressed the moment the lobby appears (while the bot still waits for
    Discord's copy of it, so its id is not stored yet), the bot killed a moment into the
    match, started again: the thread is opened on the lobby by the first run, every post
    of the match is in it, and the channel keeps the lobby alone."""
    ann = User(snowflake(), "Ann")
    async with WireDiscord() as wire:
        wire.delay = lambda call: 0.5 if call.path.endswith("/messages/@original") else 0.0
        async with BotProcess(wire, tmp_path, **FAST) as first:
            opened = await wire.slash(ann, "new")
            lobby = wire.state.messages[opened.original_id or 0]
            start = next(c for c in custom_ids(lobby) if c.endswith(":start"))
            await wire.click(ann, start, lobby)
            await play_seat(wire, ann, lambda: posted(wire, DEAL) >= 1)
            await first.kill()
        wire.delay = None
        async with BotProcess(wire, tmp_path, **FAST) as second:
            await play_seat(wire, ann, lambda: posted(wire, SCORE) >= 1)
            await second.stop()
        the_channel_keeps_the_lobby_alone(wire)
        said = thread_lines(wire)
        assert DEAL.match(said[0]), said  # the first post of the match is in the thread
        in_order_once(said)


def standings(content: object) -> bool:
    return "Final standings" in str(content)


def standings_posted(wire: WireDiscord) -> int:
    thread = wire.thread()
    return 0 if thread is None else sum(standings(m["content"]) for m in wire.posts(thread))


async def test_killed_between_the_results_stored_and_the_standings_posted(tmp_path):
    """The match's results are stored (the table is finished) but its final standings
    never reach Discord before the kill: the next start posts them, once, after the
    match's last lines; the start after that posts nothing more."""
    ann = User(snowflake(), "Ann")
    async with WireDiscord() as wire:
        wire.lose = lambda call: (
            call.method == "POST" and standings((call.body or {}).get("content"))
        )
        async with BotProcess(wire, tmp_path, **FAST) as first:
            await wire.slash(ann, "new")
            await wire.slash(ann, "start")
            await play_seat(wire, ann, lambda: wire.lost is not None)
            await first.kill()
        assert standings_posted(wire) == 0
        wire.lose = None

        async with BotProcess(wire, tmp_path, **FAST) as second:
            await wire.state.wait_for(lambda: standings_posted(wire) > 0)
            await second.stop()
        thread = wire.thread()
        assert thread is not None
        posts = wire.posts(thread)
        assert standings_posted(wire) == 1 and standings(posts[-1]["content"])
        assert [deal for deal, _ in in_order_once(lines(posts))] == list(range(1, 12))
        the_channel_keeps_the_lobby_alone(wire)

        async with BotProcess(wire, tmp_path, **FAST) as third:
            await third.stop()
        assert len(wire.posts(thread)) == len(posts)
