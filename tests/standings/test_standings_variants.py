"""A season mixes variants: every match counts whatever its rules, the season's points
are standard points (a twelve match counts half), and stats show each variant as played."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine import STANDARD, TWELVE, rules_for
from bot.store import LeaderboardSort, Store
from bot.store.results import standard_scale
from tests.standings.standings_helpers import ANN, BOB, GUILD, Tables

pytestmark = pytest.mark.service_logic


def test_a_twelve_point_is_half_a_standard_point() -> None:
    assert standard_scale(STANDARD) == 1.0
    assert standard_scale(TWELVE) == 0.5
    assert standard_scale(rules_for("twelve", {"heart_lead": "broken"})) == 0.5


async def test_a_match_counts_in_its_season_whatever_its_rules_in_standard_points(
    tables: Tables, store: Store
) -> None:
    season = await store.seasons.start_season(GUILD, "Mixed")
    standard = await tables.play((ANN, BOB))
    twelve = await tables.play((ANN, BOB), rules=rules_for("twelve", {"first_lead": "dealer"}))
    assert len(twelve.record["deals"]) == 12 and twelve.record["variant"] == "twelve"
    page = await store.standings.leaderboard(season.season_id, LeaderboardSort.POINTS)
    rows = {row.user_id: row for row in page.rows}
    for seat, user in enumerate((ANN, BOB)):
        assert rows[user].matches == 2
        expected = standard.totals[seat] + round(twelve.totals[seat] / 2)
        assert rows[user].points == expected
        assert rows[user].wins == (standard.ranks[seat] == 1) + (twelve.ranks[seat] == 1)


async def test_stats_show_each_variant_with_its_points_as_played(
    tables: Tables, store: Store
) -> None:
    season = await store.seasons.start_season(GUILD, "Mixed")
    standard = await tables.play((ANN, BOB))
    twelve = await tables.play((ANN, BOB), rules=TWELVE)
    stats = await store.standings.player_stats(season.season_id, BOB)
    assert stats is not None
    lines = {line.variant: line for line in stats.variants}
    assert set(lines) == {"standard", "twelve"}
    assert lines["standard"].points == standard.totals[1]
    assert lines["twelve"].points == twelve.totals[1]
    assert lines["twelve"].matches == lines["standard"].matches == 1
    assert lines["twelve"].wins == (twelve.ranks[1] == 1)
    assert stats.points == standard.totals[1] + round(twelve.totals[1] / 2)
    # A reader who does not show the variants (the web's player page) may leave them out:
    # everything else is the same.
    without = await store.standings.player_stats(season.season_id, BOB, variants=False)
    assert without is not None and without.variants == ()
    assert dataclasses.replace(without, variants=stats.variants) == stats
