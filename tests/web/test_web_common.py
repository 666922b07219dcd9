"""The small pieces the pages share: a moment is written as ``strftime`` writes it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.web.pages.common import when


def test_a_moment_is_written_as_strftime_writes_it_to_the_minute() -> None:
    moments = [
        datetime(2026, 12, 7, 5, 9, 59, 999999, tzinfo=UTC),
        datetime(2026, 1, 1, 0, 0, tzinfo=UTC),
        datetime(1970, 1, 1, 23, 59),
        datetime(1000, 10, 10, 10, 10, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, tzinfo=UTC),
    ]
    moments += [moments[0] + timedelta(minutes=37 * n) for n in range(1, 200)]
    for moment in moments:
        assert when(moment) == moment.strftime("%Y-%m-%d %H:%M UTC")
    assert when(None) == ""
