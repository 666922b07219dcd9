"""The words that go with the standings, wherever they are shown (a Discord embed, a
web page): the leaderboard's sorts, the notes under it, a rating and a season's state."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.store import LeaderboardSort, Rating, Season

SORT_NAMES = {
    LeaderboardSort.POINTS: N_("by total points"),
    LeaderboardSort.WINS: N_("by wins"),
    LeaderboardSort.AVERAGE: N_("by average points per match"),
    LeaderboardSort.RATING: N_("by rating"),
}
RATING_NOTE = N_("rating = μ − 3σ (openskill, Plackett-Luce)")
POINTS_NOTE = N_("points in standard points (a twelve match counts half)")


def rating_text(rating: Rating | None) -> str:
    """The conservative rating, one decimal, or a dash for a player not rated yet."""
    return "—" if rating is None else f"{rating.ordinal:.1f}"


def season_status(season: Season) -> str:
    started = f"{season.started_at:%Y-%m-%d}"
    if season.ended_at is None:
        return _("active since {date}", date=started)
    return _("archived: {start} to {end}", start=started, end=f"{season.ended_at:%Y-%m-%d}")
