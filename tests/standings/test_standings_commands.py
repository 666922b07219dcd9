"""The standings commands through real discord.py objects: ``/bonken leaderboard``,
``stats`` and ``/bonken-admin season start|end`` fed as gateway interactions to the real
bot, answered through the stand-in Discord of ``tests/discord/discord_harness.py``."""

from __future__ import annotations

import datetime
import itertools
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.engine import Match
from bot.ratings import OpenSkillRater
from bot.store import Computer, Human, SeatResult, Store
from bot.store.bulk import add_finished_matches
from tests.discord.discord_harness import (
    CHANNEL_ID,
    FAST_PACING,
    GUILD_ID,
    Harness,
    Interaction,
    User,
    custom_ids,
)
from tests.standings.standings_helpers import actions_taken

NO_MENTIONS = {"parse": []}


@pytest.fixture
async def h(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    """The real bot behind the stand-in Discord (the pattern of tests/discord/conftest.py);
    afterwards, Discord must have refused nothing as malformed (such as an invalid emoji
    on the page buttons)."""
    harness = await Harness(tmp_path, pacing=FAST_PACING).start()
    try:
        yield harness
    finally:
        await harness.stop()
    assert harness.fake.refused() == []


# -- driving the commands ----------------------------------------------------------------


def command_data(
    h: Harness, path: tuple[str, ...], options: dict[str, Any], top: str = "bonken"
) -> dict[str, Any]:
    """The ``data`` of ``/<top> <path...> option=value``, typed as the synced commands say
    (``path`` is one subcommand, or a subcommand group and its subcommand)."""
    group = next(c for c in h.fake.commands if c["name"] == top)
    specs = [group]
    for name in path:
        specs.append(next(o for o in specs[-1]["options"] if o["name"] == name))
    types = {o["name"]: o["type"] for o in specs[-1].get("options", [])}
    inner: list[dict[str, Any]] = [
        {"name": k, "type": types[k], "value": v} for k, v in options.items()
    ]
    for spec in reversed(specs[1:]):
        inner = [{"name": spec["name"], "type": spec["type"], "options": inner}]
    return {"id": group["id"], "name": top, "type": 1, "options": inner}


async def season_command(h: Harness, user: User, sub: str, **options: Any) -> Interaction:
    """``/bonken-admin season <sub> option=value``: a subcommand group, one level deeper."""
    data = command_data(h, ("season", sub), options, top="bonken-admin")
    return await h.dispatch(h.fake.interaction_payload(2, user, data))


async def stats_of(h: Harness, caller: User, player: User | None = None, **options: Any):
    """``/bonken stats [player]``, with the user option resolved as Discord sends it."""
    if player is None:
        return await h.slash(caller, "stats", **options)
    data = command_data(h, ("stats",), {"player": str(player.id), **options})
    data["resolved"] = {
        "users": {str(player.id): player.payload()},
        "members": {
            str(player.id): {
                "roles": [],
                "joined_at": datetime.datetime.now(datetime.UTC).isoformat(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "nick": None,
                "avatar": None,
                "permissions": "0",
            }
        },
    }
    return await h.dispatch(h.fake.interaction_payload(2, caller, data))


def embed(answer: Interaction) -> dict[str, Any]:
    (only,) = answer.reply["embeds"]
    return only


def board_lines(message_or_embed: dict[str, Any]) -> list[str]:
    data = message_or_embed.get("embeds", [message_or_embed])[0]
    return [line for line in data["description"].splitlines() if line.strip()]


def ranked(lines: list[str]) -> list[tuple[int, int]]:
    """(rank, user id) of each leaderboard line."""
    out = []
    for line in lines:
        if "<@" not in line or ".**" not in line:
            continue
        rank = int(line.split("**")[1].rstrip("."))
        user = int(line.split("<@")[1].split(">")[0])
        out.append((rank, user))
    return out


# -- filling the standings -----------------------------------------------------------------


async def crafted_season(h: Harness, players: int = 25) -> list[User]:
    """``players`` people, player i with i+1 matches and 10*i points (so P0 is last),
    each match shared with a computer seat; returned best first."""
    store = h.parts.store
    users = [h.user(f"P{i}") for i in range(players)]
    table = await store.tables.create_table(GUILD_ID, CHANNEL_ID + 99, users[0].id)
    season = await store.seasons.start_season(GUILD_ID, "Crafted")
    matches = []
    for i, user in enumerate(users):
        for m in range(i + 1):
            points = 10 * i if m == 0 else 0
            seats = (
                (user.name, Human(user.id), points, 1 if m == 0 else 2),
                ("North", Computer("easy"), 10_000, 1),
                ("East", Computer("easy"), -5, 3),
                ("South", Computer("easy"), -5, 3),
            )
            matches.append(
                [
                    SeatResult(
                        seat=seat,
                        name=name,
                        occupant=occupant,
                        points=scored,
                        rank=rank,
                        deal_points=(),
                        takeovers=0,
                    )
                    for seat, (name, occupant, scored, rank) in enumerate(seats)
                ]
            )
    await add_finished_matches(store.db, table.table_id, season.season_id, matches)
    return users[::-1]


async def stored_match(
    store: Store, users: tuple[int, ...], seed: int, *, channel: int = CHANNEL_ID + 50
) -> Match:
    """A random legal match of four humans, stored and finished with the real rater."""
    rng = random.Random(seed)
    table = await store.tables.create_table(GUILD_ID, channel, users[0])
    await store.tables.update_table(
        table.table_id, seats={seat: Human(user) for seat, user in enumerate(users)}
    )
    match = Match(["Ann", "Bob", "Cid", "Dee"])
    info = await store.matches.create_match(table.table_id, list(match.players), first_dealer=0)
    while not match.is_over:
        if match.to_act is None:
            deal = match.deal_random(rng)
            await store.matches.append_deal(info.match_id, len(match.deals) - 1, deal.hands)
            continue
        action = rng.choice(match.legal_actions())
        await store.matches.append_action(info.match_id, actions_taken(match), match.to_act, action)
        match.apply(action)
    await store.matches.finish_match(info.match_id, rater=OpenSkillRater())
    return match


# -- the leaderboard -----------------------------------------------------------------------


async def test_leaderboard_shows_the_top_10_and_the_callers_own_line_outside_it(h) -> None:
    users = await crafted_season(h)
    caller = users[19]
    answer = await h.slash(caller, "leaderboard")
    assert answer.callback_type == 4 and not answer.ephemeral
    assert answer.reply["allowed_mentions"] == NO_MENTIONS
    lines = board_lines(embed(answer))
    assert ranked(lines) == [(rank, users[rank - 1].id) for rank in range(1, 11)] + [
        (20, caller.id)
    ]
    assert lines[-2] == "⋯" and lines[-1].startswith("▸ **20.**")
    assert "Crafted" in embed(answer)["title"] and "total points" in embed(answer)["title"]
    assert "Players 1–10 of 25" in embed(answer)["footer"]["text"]
    first = users[0]
    assert f"<@{first.id}> · 25 played · 1 won · **240 pts** · 9.6 avg · — rating" in lines[0]


async def test_the_callers_line_is_marked_inside_the_top_10_and_not_repeated(h) -> None:
    users = await crafted_season(h)
    lines = board_lines(embed(await h.slash(users[2], "leaderboard")))
    assert len(lines) == 10
    assert lines[2].startswith(f"▸ **3.** <@{users[2].id}>")


async def test_someone_without_a_match_is_told_under_the_board(h) -> None:
    await crafted_season(h)
    newcomer = h.user("Newcomer")
    lines = board_lines(embed(await h.slash(newcomer, "leaderboard")))
    assert lines[-1] == f"<@{newcomer.id}> has not finished a match in this season."


async def test_previous_and_next_page_through_by_editing_the_message(h) -> None:
    users = await crafted_season(h)
    caller = users[19]
    answer = await h.slash(caller, "leaderboard")
    message = h.hand_message(answer)
    prefix = f"bonken:lb:{GUILD_ID}:"
    ids = custom_ids(message)
    assert [i.split(":")[-1] for i in ids] == ["prev", "next"]
    assert all(i.startswith(prefix) for i in ids)
    assert custom_ids(message, enabled_only=True) == [ids[1]]

    second = await h.click(users[0], ids[1], message=message)  # anyone may turn the page
    assert second.callback_type == 7  # the message itself is edited
    assert second.reply["allowed_mentions"] == NO_MENTIONS
    assert h.fake.messages[int(message["id"])]["edits"] == 1
    lines = board_lines(message)
    assert ranked(lines) == [(rank, users[rank - 1].id) for rank in range(11, 21)]
    assert lines[9].startswith("▸ **20.**")  # still the caller's line, marked in place
    assert len(custom_ids(message, enabled_only=True)) == 2

    third = await h.click(caller, custom_ids(message)[1], message=message)
    assert third.callback_type == 7
    assert ranked(board_lines(message))[:5] == [(r, users[r - 1].id) for r in range(21, 26)]
    assert "Players 21–25 of 25" in message["embeds"][0]["footer"]["text"]
    assert [i.split(":")[-1] for i in custom_ids(message, enabled_only=True)] == ["prev"]

    back = await h.click(caller, custom_ids(message)[0], message=message)
    assert back.callback_type == 7
    assert ranked(board_lines(message))[0] == (11, users[10].id)


async def test_page_buttons_work_after_a_restart_from_their_custom_id_alone(h) -> None:
    users = await crafted_season(h)
    season = await h.parts.store.seasons.season_named(GUILD_ID, "Crafted")
    assert season is not None
    custom_id = f"bonken:lb:{GUILD_ID}:{season.season_id}:points:10:{users[0].id}:next"
    message = {
        **h.hand_message(await h.slash(users[0], "leaderboard")),
        "components": [
            {"type": 1, "components": [{"type": 2, "style": 2, "custom_id": custom_id}]}
        ],
    }
    h.fake.messages[int(message["id"])] = message
    clicked = await h.click(users[1], custom_id, message=message)
    assert clicked.callback_type == 7
    assert ranked(board_lines(message))[0] == (11, users[10].id)


@pytest.mark.parametrize(
    ("sort", "column"),
    [("wins", "won"), ("average", "avg"), ("rating", "rating"), ("points", "pts")],
)
async def test_each_sort_ranks_by_its_column_and_bolds_it(h, sort: str, column: str) -> None:
    users = await crafted_season(h, players=12)
    await stored_match(h.parts.store, tuple(u.id for u in users[:4]), seed=5)
    answer = await h.slash(users[0], "leaderboard", sort=sort)
    assert "by " in embed(answer)["title"]
    lines = board_lines(embed(answer))
    values = []
    for line in lines[:10]:
        cell = next(part for part in line.split(" · ") if part.endswith(f"{column}**"))
        text = cell.strip("*").split()[0]
        values.append(float("-inf") if text == "—" else float(text))
    assert values == sorted(values, reverse=True)
    ranks = [rank for rank, _ in ranked(lines[:10])]
    pairs = zip(itertools.pairwise(values), itertools.pairwise(ranks), strict=True)
    for (a, b), (ra, rb) in pairs:
        assert (ra == rb) == (a == b)  # equal values share a rank


async def test_computers_never_take_a_place_on_the_board(h) -> None:
    users = await crafted_season(h, players=3)
    lines = board_lines(embed(await h.slash(users[0], "leaderboard")))
    assert ranked(lines) == [(1, users[0].id), (2, users[1].id), (3, users[2].id)]
    assert "10000" not in json.dumps(lines)


async def test_a_past_season_is_shown_by_name_and_offered_by_autocomplete(h) -> None:
    users = await crafted_season(h, players=3)
    admin = h.user("Admin", admin=True)
    await season_command(h, admin, "start", name="Summer")
    choices = await h.autocomplete(users[0], "leaderboard", "season")
    assert choices == [
        {"name": "Summer (active)", "value": "Summer"},
        {"name": "Crafted", "value": "Crafted"},
    ]
    assert await h.autocomplete(users[0], "leaderboard", "season", season="craf") == [
        {"name": "Crafted", "value": "Crafted"}
    ]
    active = await h.slash(users[0], "leaderboard")
    assert "Summer" in embed(active)["title"]
    assert embed(active)["description"] == "No match has been finished in this season yet."
    assert "components" not in active.reply or not active.reply["components"]
    past = await h.slash(users[0], "leaderboard", season="Crafted")
    assert len(ranked(board_lines(embed(past)))) == 3
    assert "archived" in embed(past)["footer"]["text"]


async def test_an_unknown_season_is_refused_privately(h) -> None:
    await crafted_season(h, players=2)
    answer = await h.slash(h.user("P0"), "leaderboard", season="Winter")
    assert answer.ephemeral
    assert "there is no season named 'Winter' in this server" in answer.text


async def test_a_server_without_matches_is_told_so_privately(h) -> None:
    answer = await h.slash(h.user("Ann"), "leaderboard")
    assert answer.ephemeral
    assert "no Bonken match has been finished in this server yet" in answer.text


# -- stats ---------------------------------------------------------------------------------


async def test_stats_show_the_callers_season_figures(h) -> None:
    ann, bob, cid, dee = (h.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    match = await stored_match(h.parts.store, (ann.id, bob.id, cid.id, dee.id), seed=11)
    season = await h.parts.store.seasons.active_season(GUILD_ID)
    assert season is not None
    stats = await h.parts.store.standings.player_stats(season.season_id, ann.id)
    assert stats is not None and stats.rating is not None

    answer = await stats_of(h, ann)
    assert answer.callback_type == 4 and not answer.ephemeral
    assert answer.reply["allowed_mentions"] == NO_MENTIONS
    shown = embed(answer)
    fields = {f["name"]: f["value"] for f in shown["fields"]}
    total = match.totals()[0]
    assert fields["Matches"] == "1"
    assert fields["Wins"] == str(int(match.ranking()[0] == 1))
    assert fields["Points"] == f"{total} ({total:.1f} a match)"
    assert fields["Rating"].startswith(f"{stats.rating.ordinal:.1f} (μ ")
    best, worst = stats.best_contract, stats.worst_contract
    assert best is not None and worst is not None
    assert fields["Best contract"].endswith(f"{best.average:+.1f} a deal ({best.deals} deal)")
    assert fields["Worst contract"].endswith(f"{worst.average:+.1f} a deal ({worst.deals} deal)")
    assert fields["Doubling"] == (
        f"made {stats.doubles_made}, received {stats.doubles_received}; "
        f"won {stats.doubling_won:+d}, lost {stats.doubling_lost:+d} points through doubling"
    )
    assert fields["Computer took over"] == "0 times"
    assert "Ann" in shown["title"] and season.name in shown["title"]


async def test_stats_of_another_player(h) -> None:
    ann, bob, cid, dee = (h.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    await stored_match(h.parts.store, (ann.id, bob.id, cid.id, dee.id), seed=12)
    answer = await stats_of(h, ann, bob)
    shown = embed(answer)
    assert "Bob" in shown["title"] and shown["description"] == f"<@{bob.id}>"


async def test_stats_of_someone_without_matches_answer_privately(h) -> None:
    ann, bob, cid, dee = (h.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    await stored_match(h.parts.store, (ann.id, bob.id, cid.id, dee.id), seed=13)
    eve = h.user("Eve")
    mine = await stats_of(h, eve)
    assert mine.ephemeral and "You have not finished a match in Season 1 yet." in mine.text
    theirs = await stats_of(h, ann, eve)
    assert theirs.ephemeral and f"<@{eve.id}> has not finished a match" in theirs.text


async def test_a_match_played_at_a_table_counts_with_takeovers_and_a_rating(h) -> None:
    """End to end: /bonken new and start; Ann lets her turns run out, so computers play
    her seat; the finished match is in her stats, rated by the bot's own rater."""
    ann = h.user("Ann")
    await h.slash(ann, "new")
    await h.slash(ann, "start")
    service = h.parts.service
    while (view := service.table_in_channel(CHANNEL_ID)) is not None:
        await service.settle()
        view = service.table_in_channel(CHANNEL_ID)
        if view is None:
            break
        await service.expire_turn(view.table_id, view.turn)
    await h.idle()
    fields = {f["name"]: f["value"] for f in embed(await stats_of(h, ann))["fields"]}
    assert fields["Matches"] == "1"
    assert fields["Computer took over"] == "1 time"
    assert fields["Rating"] == "0.0 (μ 25.0, σ 8.33)"  # a lone human: the default
    board = await h.slash(ann, "leaderboard", sort="rating")
    assert ranked(board_lines(embed(board))) == [(1, ann.id)]


# -- seasons -------------------------------------------------------------------------------


async def test_the_admin_commands_are_hidden_from_members_without_manage_server(h) -> None:
    """Discord shows a command with ``default_member_permissions`` only to members with
    those permissions; it works on top-level commands only, hence ``/bonken-admin``."""
    synced = {command["name"]: command for command in h.fake.commands}
    admin = synced["bonken-admin"]
    manage_guild = discord.Permissions(manage_guild=True).value
    assert int(admin["default_member_permissions"]) == manage_guild
    assert admin["contexts"] == [0]  # servers only
    options = {option["name"]: option for option in admin["options"]}
    assert set(options) == {"season", "settings"}
    season = options["season"]
    assert season["type"] == 2  # a subcommand group
    assert {sub["name"] for sub in season["options"]} == {"start", "end"}
    # Everyone else still sees /bonken, without the season commands.
    assert synced["bonken"]["default_member_permissions"] is None
    assert "season" not in {option["name"] for option in synced["bonken"]["options"]}


async def test_starting_or_ending_a_season_needs_manage_server(h) -> None:
    """Hidden is not forbidden (an admin can show the commands to anyone under
    Integrations): each command checks the permission when it runs."""
    member = h.user("Member")
    for answer in (
        await season_command(h, member, "start", name="Spring"),
        await season_command(h, member, "end"),
    ):
        assert answer.ephemeral
        assert "only members with the Manage Server permission can" in answer.text
    assert await h.parts.store.seasons.seasons(GUILD_ID) == []


async def test_season_end_archives_the_standings_and_they_stay_queryable_by_name(h) -> None:
    admin = h.user("Admin", admin=True)
    ann, bob, cid, dee = (h.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    started = await season_command(h, admin, "start", name="Spring")
    assert not started.ephemeral and "Season **Spring** has started" in started.text
    await stored_match(h.parts.store, (ann.id, bob.id, cid.id, dee.id), seed=21)
    before = board_lines(embed(await h.slash(ann, "leaderboard")))

    ended = await season_command(h, admin, "end")
    assert not ended.ephemeral
    assert "**Spring** has ended and is archived" in ended.reply["content"]
    assert ended.reply["allowed_mentions"] == NO_MENTIONS
    assert len(ranked(board_lines(embed(ended)))) == 4

    again = await season_command(h, admin, "end")
    assert again.ephemeral and "there is no active season to end" in again.text

    # A later match goes to a new default season; Spring keeps its final standings.
    await stored_match(h.parts.store, (ann.id, bob.id, cid.id, dee.id), seed=22, channel=7)
    current = await h.slash(ann, "leaderboard")
    assert "Season 2" in embed(current)["title"]
    archived = await h.slash(ann, "leaderboard", season="Spring")
    assert board_lines(embed(archived)) == before
    assert "archived" in embed(archived)["footer"]["text"]


async def test_a_new_season_archives_the_active_one_and_names_are_unique(h) -> None:
    admin = h.user("Admin", admin=True)
    await season_command(h, admin, "start", name="Spring")
    summer = await season_command(h, admin, "start", name="Summer")
    assert "**Spring** is archived" in summer.text
    duplicate = await season_command(h, admin, "start", name="Spring")
    assert duplicate.ephemeral and "there is already a season named 'Spring'" in duplicate.text
    names = [s.name for s in await h.parts.store.seasons.seasons(GUILD_ID)]
    assert names == ["Summer", "Spring"]
