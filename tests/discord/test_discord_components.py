"""Every button and menu the bot builds is one Discord accepts: each emoji on a button or
a select option is a real emoji (Discord refuses the whole message otherwise, with
``400 Invalid Form Body ... BUTTON_COMPONENT_INVALID_EMOJI``). The harness refuses such
messages too, so every Discord test checks what it sends; this test goes through every
component kind directly, in every phase of a deal."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import discord
import emoji
import pytest

from bot.engine import Card, Double, Match, MatchPhase, seat_view
from bot.engine.simulate import random_match
from bot.review import Address, DealReview, PlayerReview, Replay, ReviewSettings
from bot.store import LeaderboardPage, LeaderboardSort, Season
from bot.tables import SeatInfo
from bot.ui import components as c
from bot.ui.daily_message import ButtonRows, card_button, move_button, toggle_button
from bot.ui.hand import doubling_items, hand_message, trump_choices
from bot.ui.replay import replay_view
from bot.ui.review import deal_view
from bot.ui.standings import leaderboard_view

SEATS = [
    SeatInfo(name, 1 + i, None, False, False)
    for i, name in enumerate(["Ann", "Bob", "Cas", "Dirk"])
]
NAMES = [seat.name for seat in SEATS]


def _items(view: discord.ui.View) -> list[dict[str, Any]]:
    """Every button and select of a view, as the payload Discord receives."""
    return [item for row in view.to_components() for item in row["components"]]


def _emojis(view: discord.ui.View) -> list[str]:
    """The unicode emoji names on the view's buttons and select options."""
    found = []
    for item in _items(view):
        for carrier in [item, *item.get("options", [])]:
            given = carrier.get("emoji")
            if given and not given.get("id"):
                found.append(given["name"])
    return found


def _hand_views() -> list[discord.ui.View]:
    """The hand message in every phase of a deal, from every seat, with the trump menu
    and every doubling toggle state."""
    views = []
    match = Match(NAMES)
    match.deal_random(random.Random(7))
    turn = 0
    while match.phase is not MatchPhase.PLAYING or len(match.deal.plays) < 8:
        for seat in range(4):
            view = seat_view(match, seat)
            views.append(hand_message(1, turn, view, SEATS)[1])
            if view.my_turn and view.phase is MatchPhase.CHOOSING:
                trumps = discord.ui.View()
                trumps.add_item(c.ContractSelect(1, turn, trump_choices(view), kind="trump"))
                views.append(trumps)
            if view.my_turn and view.phase is MatchPhase.DOUBLING:
                for chosen in (frozenset(), frozenset({(seat + 1) % 4})):
                    doubling = discord.ui.View()
                    for item in doubling_items(1, turn, view, NAMES, chosen):
                        doubling.add_item(item)
                    views.append(doubling)
        match.apply(match.legal_actions()[0])
        turn += 1
    return views


def _leaderboard_views() -> list[discord.ui.View]:
    season = Season(
        season_id=1, guild_id=2, name="Spring", started_at=datetime.now(UTC), ended_at=None
    )
    views = []
    for offset in (0, 10, 20):
        page = LeaderboardPage(
            season=season,
            sort=LeaderboardSort.POINTS,
            offset=offset,
            players=25,
            rows=(),
            viewer=None,
        )
        view = leaderboard_view(2, page, 3)
        assert view is not None
        views.append(view)
    return views


def _daily_views() -> list[discord.ui.View]:
    """A daily attempt's cards, and a doubling turn with nothing and something toggled."""
    cards = [
        card_button(1, 4, Card.parse(code), enabled=code != "2C") for code in ("QS", "TH", "2C")
    ]
    views: list[discord.ui.View] = [ButtonRows([cards])]
    for chosen in (frozenset(), frozenset({1, 3})):
        doubling = [toggle_button(1, 4, chosen, seat, f"Double {NAMES[seat]}") for seat in (1, 3)]
        doubling.append(move_button(1, 4, Double(chosen).code, confirm=True))
        doubling.append(move_button(1, 4, "D:-"))
        views.append(ButtonRows([doubling]))
    return views


def _review_view() -> discord.ui.View:
    """A review's deal menu, for a twelve-deal match (its longest)."""
    deals = tuple(DealReview(d, 0, "queens", 0.0, ()) for d in range(12))
    return deal_view(PlayerReview(0, "Ann", ReviewSettings(), deals), 2**60)


def _replay_views() -> list[discord.ui.View]:
    """The replay message at a deal's start, in its middle and at the match's end, and
    the final standings' buttons."""
    replay = Replay(random_match(random.Random(3), NAMES, first_dealer=0))
    middle = Address(4, 9)
    points = (replay.start(0), middle, replay.end(replay.deals - 1))
    return [c.rematch_view(1, 2), *(replay_view(replay, 2, point) for point in points)]


def _every_view() -> list[discord.ui.View]:
    return [
        c.lobby_view(1, activity=True),
        c.table_view(1),
        *_hand_views(),
        *_leaderboard_views(),
        *_daily_views(),
        *_replay_views(),
        _review_view(),
    ]


async def test_every_emoji_on_a_component_is_a_real_emoji():
    views = _every_view()
    kinds = {item["custom_id"].split(":")[1] for view in views for item in _items(view)}
    assert kinds == {
        "lobby",
        "activity",
        "hand",
        "play",
        "choose",
        "trump",
        "dbl",
        "dblok",
        "lb",
    } | {
        *("daily", "dailydbl"),
        *("again", "replay", "rp", "rpa", "rpd"),
        *("review", "rvdeal"),
    }
    for view in views:  # Discord refuses a message with two components of one custom_id
        ids = [item["custom_id"] for item in _items(view)]
        assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids), ids
    names = [name for view in views for name in _emojis(view)]
    assert names  # the Show my hand and the page buttons carry one
    for name in names:
        assert emoji.is_emoji(name), f"{name!r} ({name!a}) is not an emoji"


async def test_the_show_hand_button_has_a_real_emoji():
    """The one that was not: 🂠 (U+1F0A0, a playing card back) is a symbol, no emoji."""
    assert _emojis(c.table_view(1)) == ["🃏"]
    assert not emoji.is_emoji("🂠")


async def test_the_harness_refuses_an_invalid_emoji_as_discord_does():
    from tests.discord.discord_harness import _invalid_emoji

    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x", emoji="🂠", custom_id="x"))
    refusal = _invalid_emoji({"components": view.to_components()})
    assert refusal is not None and refusal["code"] == 50035
    inner = refusal["errors"]["components"]["0"]["components"]["0"]["emoji"]["name"]
    assert inner["_errors"][0]["code"] == "BUTTON_COMPONENT_INVALID_EMOJI"
    good = discord.ui.View()
    good.add_item(discord.ui.Button(label="x", emoji="🃏", custom_id="x"))
    assert _invalid_emoji({"type": 4, "data": {"components": good.to_components()}}) is None


async def test_buttons_reach_the_bot_only_through_its_front_and_refuse_another_client():
    """A button discord.py rebuilt from a click reaches the bot through the one accessor
    that checks the client is the Bonken bot, and the bot offers every part each
    feature's ``Protocol`` names."""
    from types import SimpleNamespace

    from bot.app import BonkenBot
    from bot.ui import components, daily_message, daily_replay, review, standings
    from bot.ui import replay as replays
    from bot.ui import tally_components as tally
    from bot.ui.front import Front, front_of

    stranger = SimpleNamespace(client=discord.Client(intents=discord.Intents.none()))
    with pytest.raises(TypeError, match="Client is not the Bonken bot"):
        front_of(stranger)  # type: ignore[arg-type]
    fronts = (
        Front,
        components.TableFront,
        daily_message.DailyFront,
        daily_replay.DailyReplayFront,
        review.ReviewFront,
        replays.ReplayFront,
        standings.BoardsFront,
        tally.TallyFront,
    )
    named = {name for front in fronts for name in dir(front) if not name.startswith("_")}
    assert named == {
        *("boards", "guard", "hands", "lobby", "rematch", "tally"),
        *("daily", "daily_replays", "replays", "reviews"),
    }
    assert all(isinstance(getattr(BonkenBot, name), property) for name in named)


def test_the_daily_buttons_written_as_data_are_what_discord_py_would_send():
    """The daily message's buttons are written as Discord's data, not as discord.py's
    items: each is the dict a ``discord.ui.Button`` with the same fields would give."""
    for button in (item for view in _daily_views() for item in _items(view)):
        made = discord.ui.Button(
            label=button["label"],
            style=discord.ButtonStyle(button["style"]),
            custom_id=button["custom_id"],
            disabled=button["disabled"],
        )
        assert button == made.to_component_dict()
