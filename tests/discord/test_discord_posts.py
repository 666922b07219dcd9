"""What a table's channel post says, without Discord: each post is a pure function of the
event and the table's view (:mod:`bot.ui.posts`); the feed only sends it."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.engine import Card, Phase
from bot.i18n import N_
from bot.render.chart import ChartData
from bot.tables import events as ev
from bot.ui import posts
from bot.ui.pictures import ChartPicture, TablePicture
from bot.ui.posts import Post, RecordAttachment
from tests.discord.fakes import ANN, BOB, CHANNEL_ID, TABLE_ID, table_view

TABLE, CHANNEL = TABLE_ID, CHANNEL_ID


def cards(*codes: str) -> tuple[tuple[int, Card], ...]:
    return tuple((seat, Card.parse(code)) for seat, code in enumerate(codes))


def scored(deal: int) -> ev.DealScored:
    zero = (0, 0, 0, 0)
    return ev.DealScored(TABLE, CHANNEL, deal, "queens", zero, zero, (zero,) * 4, zero, ())


def test_a_deals_end_names_each_tricks_cards_in_play_order_and_who_took_it_then_scores():
    trick = ev.TrickTaken(TABLE, CHANNEL, 3, cards("9C", "KC", "2C", "7D"), 2, -30, False)
    first, score = posts.deal_end(scored(1), [trick], table_view())
    assert first == (
        "Trick 3: **Ann\\_** 9♣, **East bot** 🤖 K♣, **Bob** 2♣, **West bot** 🤖 7♦. "
        "**Bob** takes it (-30)."
    )
    assert score.startswith("Deal 1 (Queens) scores:")


def test_a_deals_lines_name_the_seats_compass_names_without_a_table():
    trick = ev.TrickTaken(TABLE, CHANNEL, 1, cards("9C", "KC", "2C", "7D"), 0, 0, False)
    first, _score = posts.deal_end(scored(1), [trick], None)
    assert first.startswith("Trick 1: North 9♣, East K♣, South 2♣, West 7♦.")


def test_a_deals_end_rides_above_the_next_deals_message_and_the_final_standings():
    trick = ev.TrickTaken(TABLE, CHANNEL, 1, cards("9C", "KC", "2C", "7D"), 0, 0, False)
    said = posts.deal_end(scored(1), [trick], table_view())
    message = posts.deal_message(table_view())
    (post,) = posts.carrying(said, message)
    assert post.content == "\n".join(said)
    assert (post.embed, post.buttons, post.picture) == (
        message.embed,
        message.buttons,
        message.picture,
    )
    standings = posts.Post("**The match is over.** Final standings:")
    (post,) = posts.carrying(said, standings)
    assert post.content == "\n".join([*said, "**The match is over.** Final standings:"])
    assert posts.carrying([], message) == [message]


def test_a_deals_end_too_long_for_one_message_is_split_between_lines_losing_none(
    monkeypatch,
):
    """Four 32-character names on thirteen trick lines do not fit in one message: the
    first part goes alone, the rest rides on the next deal's message."""
    monkeypatch.setattr(posts, "labels", lambda view: [f"{seat}" * 32 for seat in "NESW"])
    plays = cards("9C", "KC", "2C", "7D")
    tricks = [ev.TrickTaken(TABLE, CHANNEL, n, plays, 2, -30, False) for n in range(1, 14)]
    said = posts.deal_end(scored(1), tricks, table_view())
    for host in (None, posts.deal_message(table_view())):
        parts = posts.carrying(said, host)
        words = [p.content or "" for p in parts]
        assert len(parts) == 2 and all(len(part) <= posts.CONTENT_LIMIT for part in words)
        lines = "\n".join(words).split("\n")
        assert [line.split(":")[0] for line in lines[:13]] == [f"Trick {n}" for n in range(1, 14)]
        assert lines[13].startswith("Deal 1 (Queens) scores:")
        assert parts[-1].embed is (None if host is None else host.embed)


def test_a_reminder_pings_and_says_how_to_get_a_hand_that_stopped_updating():
    reminder = ev.Reminder(TABLE, CHANNEL, 0, ANN, 29.6)
    live = posts.line(reminder, table_view(), hand_live=True)
    stale = posts.line(reminder, table_view(), hand_live=False)
    ping = f"<@{ANN}>, it is your turn: 30 seconds left before a computer plays for you."
    assert live == Post(ping, pings=True)
    assert stale == Post(f"{ping} Press **Show my hand** for your cards.", pings=True)
    # Every other line is quiet.
    back = posts.line(ev.SeatBack(TABLE, CHANNEL, 2, BOB), table_view())
    assert back == Post("**Bob** is back.") and not back.pings


def test_a_table_closing_before_its_end_says_why_in_the_tables_language():
    closed = ev.TableClosed(TABLE, CHANNEL, N_("the table was cancelled"))
    assert posts.line(closed, table_view()) == Post("The table is closed: the table was cancelled.")
    with i18n.using("nl"):
        assert posts.line(closed, table_view()) == Post(
            "De tafel is gesloten: de tafel is opgeheven."
        )
    finished = ev.TableClosed(TABLE, CHANNEL, N_("the match is over"), finished=True)
    assert posts.line(finished, table_view()) is None  # the final standings said it


def test_a_lobby_change_quotes_the_name_someone_chose_as_plain_text():
    words = (N_("{name} left"), (("name", "**@everyone**"),))
    left = ev.LobbyChanged(TABLE, CHANNEL, "**@everyone** left", words)
    post = posts.line(left, table_view())
    assert post == Post("\\*\\*@\u200beveryone\\*\\* left.")


@pytest.mark.parametrize(
    "event",
    [
        ev.DealStarted(TABLE, CHANNEL, 1, 0, 1),
        ev.CardPlayed(TABLE, CHANNEL, 0, Card.parse("9C"), False),
        ev.TurnStarted(TABLE, CHANNEL, 0, Phase.PLAYING, 4, 60.0),
    ],
    ids=["deal started", "card played", "turn started"],
)
def test_what_only_changes_the_table_message_posts_no_line(event):
    assert posts.line(event, table_view()) is None


def test_the_restart_notice_says_to_fetch_a_hand_once_the_match_is_on():
    assert "Press **Show my hand**" in (posts.restored(table_view()).content or "")
    assert posts.restored(table_view(started=False)) == Post(
        "The bot restarted; the table is restored."
    )


def test_the_result_has_the_standings_by_rank_the_record_play_again_and_review():
    record = {"format": "bonken-record/1", "deals": []}
    ended = ev.MatchEnded(
        TABLE, CHANNEL, 5, ("Ann_", "Bob", "S", "W"), (10, -20, 40, -30), (2, 3, 1, 4), record
    )
    chart = ChartData(("Ann", "Bob", "S", "W"), ("queens",), ((10, 40, -30, -20),), 11, "en")
    post = posts.result(table_view(), ended, chart)
    assert post.content == (
        "**The match is over.** Final standings:\n"
        "1. **Bob** +40\n2. **Ann\\_** +10\n3. **East bot** 🤖 -20\n4. **West bot** 🤖 -30\n"
        "The match record is attached (`python -m bot.engine verify` checks it)."
    )
    assert post.files == (RecordAttachment("bonken-match-5.json", record),)
    assert post.buttons is not None
    assert [item.custom_id for item in post.buttons.children] == [
        f"bonken:again:{TABLE}",
        "bonken:replay:5",
        "bonken:review:5",
    ]
    assert post.picture == ChartPicture(chart, "The match, deal by deal")
    assert posts.result(table_view(), ended, None).picture is None  # no chart: no picture


def test_a_deal_message_shows_the_hand_button_and_the_picture_while_it_is_played():
    view = table_view()
    post = posts.deal_message(view, deadline=1_800_000_000.0, tricks=["1. 9♣ K♣ 2♣ 7♦ · Bob"])
    assert post.picture == TablePicture(over=False)
    assert post.buttons is not None
    assert [item.custom_id for item in post.buttons.children] == [f"bonken:hand:{TABLE}"]
    assert post.embed is not None and post.embed.title == "Deal 1 of 11 · being chosen"
    fields = {field.name: field.value for field in post.embed.fields}
    assert fields["Tricks"] == "1. 9♣ K♣ 2♣ 7♦ · Bob"
    turn = "▶ **Bob**, your turn to choose the contract (time runs out <t:1800000000:R>)."
    assert (post.embed.description or "").endswith(turn)
    assert "time runs out" not in str(posts.deal_message(view).embed.description)


def test_a_deal_message_as_it_ended_or_closed_has_no_buttons():
    view = table_view()
    over = posts.deal_message(view, final=True)
    assert over.buttons is None and over.picture == TablePicture(over=True)
    assert over.embed is not None and (over.embed.description or "").endswith("**Deal over.**")
    closed = posts.deal_message(view, closed=N_("the table was cancelled"))
    assert closed.buttons is None
    assert (closed.embed.description or "").endswith("**the table was cancelled**")


def test_the_lobby_message_has_its_buttons_only_while_the_table_waits():
    waiting = posts.lobby_message(table_view(started=False))
    assert waiting.buttons is not None and len(waiting.buttons.children) == 4
    assert posts.lobby_message(table_view(started=False), closed=True).buttons is None
    assert posts.lobby_message(table_view()).buttons is None  # the match started
    assert waiting.embed is not None and waiting.embed.title == "Bonken table"
