"""The order of a deal's posts and the name of each, without Discord (:mod:`bot.ui.lines`):
after a restart exactly the lines after the last one recorded are posted again, in
order, and each post is named the same as before. A deal's lines are its message and
its end (its tricks and scores), which rides on the next deal's message."""

from __future__ import annotations

import pytest

from bot.engine import Card, Phase
from bot.tables import events as ev
from bot.ui.lines import (
    DEAL_MESSAGE,
    NOTHING_POSTED,
    SCORE_STEP,
    line_of,
    message_line,
    notice_name,
    tricks_of,
    unposted,
)

TABLE, CHANNEL = 7, 10
PLAYS = tuple((seat, Card.parse(code)) for seat, code in enumerate(("2C", "3C", "4C", "5C")))


def started(deal: int) -> ev.DealStarted:
    return ev.DealStarted(TABLE, CHANNEL, deal, 0, 1)


def trick(number: int) -> ev.TrickTaken:
    return ev.TrickTaken(TABLE, CHANNEL, number, PLAYS, 3, 0, False)


def scored(deal: int) -> ev.DealScored:
    zero = (0, 0, 0, 0)
    return ev.DealScored(TABLE, CHANNEL, deal, "queens", zero, zero, (zero,) * 4, zero, ())


def last_two_deals() -> tuple[ev.Event, ...]:
    """What a restored table publishes: deal 2 played out, deal 3 at its second trick."""
    return (
        started(2),
        *(trick(n) for n in range(1, 14)),
        scored(2),
        started(3),
        trick(1),
        trick(2),
    )


def test_a_deals_lines_come_in_the_order_they_are_posted():
    lines = [message_line(2), line_of(scored(2)), line_of(started(3)), line_of(scored(3))]
    assert lines == sorted(lines) and len(set(lines)) == len(lines)
    assert lines[0] == (2, DEAL_MESSAGE) and lines[1] == (2, SCORE_STEP)
    assert message_line(1) > NOTHING_POSTED


def test_after_a_restart_only_the_lines_after_the_last_recorded_are_posted_in_order():
    wanted = unposted(last_two_deals(), last=(2, DEAL_MESSAGE))
    assert [line for line, _event in wanted] == [(2, SCORE_STEP), (3, DEAL_MESSAGE)]
    assert isinstance(wanted[0][1], ev.DealScored) and wanted[0][1].deal_number == 2
    assert isinstance(wanted[1][1], ev.DealStarted) and wanted[1][1].deal_number == 3


def test_a_table_stored_at_a_trick_line_of_old_posts_that_deals_score_line():
    """Before a deal's tricks went out with its score, each had a line (steps 1-13)."""
    wanted = unposted(last_two_deals(), last=(2, 11))
    assert [line for line, _event in wanted] == [(2, SCORE_STEP), (3, DEAL_MESSAGE)]


def test_a_past_deals_message_is_listed_for_the_end_that_rode_on_it():
    """Its table is gone: the feed posts only what rode on it, under its name."""
    wanted = unposted(last_two_deals(), last=NOTHING_POSTED)
    assert [line for line, _event in wanted] == [
        (2, DEAL_MESSAGE),
        (2, SCORE_STEP),
        (3, DEAL_MESSAGE),
    ]


def test_nothing_is_posted_again_when_everything_was_recorded():
    assert unposted(last_two_deals(), last=(3, DEAL_MESSAGE)) == []


def test_a_deals_tricks_are_found_for_its_message_and_its_score_line():
    assert tricks_of(last_two_deals(), 3) == [trick(1), trick(2)]
    assert [t.number for t in tricks_of(last_two_deals(), 2)] == list(range(1, 14))


def test_a_notice_is_named_by_what_it_is_and_the_turn_it_came_at():
    reminder = ev.Reminder(TABLE, CHANNEL, 0, 101, 30.0)
    assert notice_name(reminder, 12, 0) == notice_name(reminder, 12, 5)  # a restart: the same
    assert notice_name(reminder, 12, 0) != notice_name(reminder, 13, 0)
    away, back = ev.SeatAway(TABLE, CHANNEL, 1, 102), ev.SeatBack(TABLE, CHANNEL, 1, 102)
    assert notice_name(away, 12, 0) != notice_name(back, 12, 0)
    left = ev.LobbyChanged(TABLE, CHANNEL, "Bob left")
    assert notice_name(left, 12, 1) != notice_name(left, 12, 2)  # two in one turn


def test_an_event_that_posts_nothing_has_no_name():
    turn = ev.TurnStarted(TABLE, CHANNEL, 0, Phase.PLAYING, 4, 60.0)
    with pytest.raises(ValueError, match="TurnStarted posts nothing"):
        notice_name(turn, 4, 0)
