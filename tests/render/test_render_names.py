"""A seat's name as shown: a computer's named after its seat in the reader's language,
anyone else's as written."""

from __future__ import annotations

from bot import i18n
from bot.render.text import compass, player_name
from bot.tables.table import SEAT_NAMES, computer_name


def test_a_computer_is_named_after_its_seat_in_each_language() -> None:
    for language, south in (("en", "South bot"), ("nl", "Zuid-bot")):
        with i18n.using(language):
            for seat in range(len(SEAT_NAMES)):
                expected = i18n._("{seat} bot", seat=compass(seat))
                assert player_name(computer_name(seat)) == expected
            assert player_name(computer_name(2)) == south


def test_a_persons_name_is_kept_as_written_even_when_it_looks_like_a_computers() -> None:
    with i18n.using("nl"):
        for name in ("Ann", "south bot", "South bot ", "South", "Zuid-bot", ""):
            assert player_name(name) == name
