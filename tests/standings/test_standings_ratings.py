"""Ratings: openskill's Plackett-Luce model, updated after each finished match from its
final ranking, stored per season, shown on the leaderboard and in stats."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.ratings import OpenSkillRater
from bot.render.standings import rating_text
from bot.store import LeaderboardSort, RatedPlayer, Rating, Store
from bot.ui.standings import leaderboard_embed, stats_embed
from tests.standings.standings_helpers import ANN, BOB, CAS, DIRK, GUILD, Tables, make_tables

pytestmark = pytest.mark.service_logic

DEFAULT = Rating(mu=25.0, sigma=25.0 / 3)


def test_new_players_start_at_the_model_default() -> None:
    rater = OpenSkillRater()
    assert rater.default == DEFAULT
    assert rater([RatedPlayer(user_id=ANN, rank=1, previous=None)]) == {ANN: DEFAULT}


def test_a_lone_human_keeps_their_rating() -> None:
    """Computers are not rated, so a ranking of one human says nothing."""
    before = Rating(mu=31.0, sigma=4.0)
    assert OpenSkillRater()([RatedPlayer(user_id=ANN, rank=3, previous=before)]) == {ANN: before}


def test_the_better_ranked_player_gains_and_the_worse_loses() -> None:
    ratings = OpenSkillRater()(
        [
            RatedPlayer(user_id=user, rank=rank, previous=None)
            for user, rank in ((ANN, 1), (BOB, 2), (CAS, 3), (DIRK, 4))
        ]
    )
    mus = [ratings[user].mu for user in (ANN, BOB, CAS, DIRK)]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > DEFAULT.mu > mus[-1]
    assert all(ratings[user].sigma < DEFAULT.sigma for user in ratings)


def test_equal_ranks_share_the_same_new_rating() -> None:
    ratings = OpenSkillRater()(
        [
            RatedPlayer(user_id=ANN, rank=1, previous=None),
            RatedPlayer(user_id=BOB, rank=1, previous=None),
            RatedPlayer(user_id=CAS, rank=3, previous=None),
        ]
    )
    assert ratings[ANN] == ratings[BOB]
    assert ratings[ANN].mu > ratings[CAS].mu


def test_the_order_players_are_listed_in_does_not_matter() -> None:
    players = [
        RatedPlayer(user_id=ANN, rank=2, previous=Rating(mu=27, sigma=5)),
        RatedPlayer(user_id=BOB, rank=1, previous=None),
    ]
    rater = OpenSkillRater()
    assert rater(players) == rater(players[::-1])


def test_it_is_openskills_plackett_luce_update() -> None:
    model = PlackettLuce()
    ann, bob = model.rating(mu=30, sigma=4), model.rating()
    [[new_ann], [new_bob]] = model.rate([[ann], [bob]], ranks=[2, 1])
    ratings = OpenSkillRater()(
        [
            RatedPlayer(user_id=ANN, rank=2, previous=Rating(mu=30, sigma=4)),
            RatedPlayer(user_id=BOB, rank=1, previous=None),
        ]
    )
    assert ratings == {
        ANN: Rating(mu=new_ann.mu, sigma=new_ann.sigma),
        BOB: Rating(mu=new_bob.mu, sigma=new_bob.sigma),
    }


def test_a_player_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        OpenSkillRater()(
            [
                RatedPlayer(user_id=ANN, rank=1, previous=None),
                RatedPlayer(user_id=ANN, rank=2, previous=None),
            ]
        )


async def test_ratings_are_updated_after_each_finished_match(tables: Tables, store: Store) -> None:
    history: list[dict[int, Rating]] = []
    for _ in range(3):
        ended = await tables.play((ANN, BOB, CAS))
        season_id = (await store.matches.get_match(ended.match_id)).season_id
        assert season_id is not None
        page = await store.standings.leaderboard(season_id, LeaderboardSort.RATING)
        ratings = {row.user_id: row.rating for row in page.rows}
        assert None not in ratings.values()
        history.append(ratings)  # type: ignore[arg-type]
        # The update follows the match's ranking among the humans.
        ranks = dict(zip((ANN, BOB, CAS), ended.ranks, strict=False))
        previous = history[-2] if len(history) > 1 else dict.fromkeys(ranks, DEFAULT)
        expected = OpenSkillRater()(
            [
                RatedPlayer(user_id=user, rank=rank, previous=previous[user])
                for user, rank in ranks.items()
            ]
        )
        for user in ranks:
            assert ratings[user] == expected[user]
    sigmas = [[h[user].sigma for h in history] for user in (ANN, BOB, CAS)]
    assert all(s == sorted(s, reverse=True) for s in sigmas)  # more certain each match


async def test_the_rating_board_sorts_by_mu_minus_three_sigma(tables: Tables, store: Store) -> None:
    for _ in range(3):
        await tables.play((ANN, BOB, CAS, DIRK))
    season = await store.seasons.active_season(GUILD)
    assert season is not None
    page = await store.standings.leaderboard(season.season_id, LeaderboardSort.RATING)
    ordinals = [row.rating.ordinal for row in page.rows if row.rating is not None]
    assert len(ordinals) == 4
    assert ordinals == sorted(ordinals, reverse=True)


async def test_ratings_are_shown_on_the_leaderboard_and_in_stats(
    tables: Tables, store: Store
) -> None:
    await tables.play((ANN, BOB))
    season = await store.seasons.active_season(GUILD)
    assert season is not None
    page = await store.standings.leaderboard(season.season_id, LeaderboardSort.RATING, viewer=ANN)
    assert page.viewer is not None and page.viewer.rating is not None
    shown = f"{page.viewer.rating.mu - 3 * page.viewer.rating.sigma:.1f}"
    assert rating_text(page.viewer.rating) == shown
    assert f"**{shown} rating**" in (leaderboard_embed(page, ANN).description or "")
    stats = await store.standings.player_stats(season.season_id, ANN)
    assert stats is not None
    fields = {field.name: field.value for field in stats_embed(stats, "Ann").fields}
    assert fields["Rating"].startswith(shown)


async def test_without_a_rater_players_are_shown_unrated(store: Store) -> None:
    tables = make_tables(store, rated=False)
    try:
        await tables.play((ANN, BOB))
    finally:
        await tables.service.close()
    season = await store.seasons.active_season(GUILD)
    assert season is not None
    page = await store.standings.leaderboard(season.season_id)
    assert all(row.rating is None for row in page.rows)
    assert "— rating" in (leaderboard_embed(page, ANN).description or "")


async def test_ratings_start_afresh_in_a_new_season(tables: Tables, store: Store) -> None:
    await tables.play((ANN, BOB))
    await store.seasons.start_season(GUILD, "Summer")
    ended = await tables.play((ANN, BOB))
    season_id = (await store.matches.get_match(ended.match_id)).season_id
    assert season_id is not None
    page = await store.standings.leaderboard(season_id)
    ratings = {row.user_id: row.rating for row in page.rows}
    ranks = dict(zip((ANN, BOB), ended.ranks, strict=False))
    expected = OpenSkillRater()(
        [RatedPlayer(user_id=u, rank=r, previous=None) for u, r in ranks.items()]
    )
    assert ratings == expected
