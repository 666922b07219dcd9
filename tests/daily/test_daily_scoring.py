"""Matchpoints by the formula, on hand-made fields: one point per player beaten, half per
tie, as a percentage of the field; the day is the mean of its deals."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.daily.board import MIN_DAYS, daily_board
from bot.daily.scoring import day_percentages, day_standing, deal_percentages, ranks


def test_each_player_beaten_is_a_point_of_the_others_in_the_field() -> None:
    # Four players: the best beats three (100%), the worst none (0%).
    result = deal_percentages({"ann": 30, "bob": 10, "cas": -10, "dirk": -50})
    assert result == {"ann": 100, "bob": Fraction(200, 3), "cas": Fraction(100, 3), "dirk": 0}


def test_a_tie_is_half_a_point() -> None:
    result = deal_percentages({"ann": 0, "bob": 0, "cas": -20})
    # ann: beats cas (1) and ties bob (1/2) -> 1.5 of 2 = 75%.
    assert result == {"ann": 75, "bob": 75, "cas": 0}


def test_a_player_alone_on_a_deal_scores_fifty() -> None:
    assert deal_percentages({"ann": -65}) == {"ann": 50}
    assert day_percentages({"ann": (-65, 10, None)}, 3) == {"ann": 50}


def test_everyone_equal_scores_fifty() -> None:
    assert deal_percentages(dict.fromkeys("abcde", -10)) == dict.fromkeys("abcde", 50)


def test_an_unfinished_deal_ranks_last_level_with_the_other_unfinished() -> None:
    result = deal_percentages({"ann": -50, "bob": None, "cas": None, "dirk": -30})
    # ann beats both unfinished (2 of 3); the unfinished tie each other (0.5 of 3).
    assert result == {
        "ann": Fraction(200, 3),
        "bob": Fraction(50, 3),
        "cas": Fraction(50, 3),
        "dirk": 100,
    }


def test_the_day_is_the_mean_of_its_deals() -> None:
    attempts = {"ann": (10, -20), "bob": (0, -20), "cas": (0, -30)}
    # Deal 1: ann 100, bob 25, cas 25. Deal 2: ann 75, bob 75, cas 0.
    assert day_percentages(attempts, 2) == {
        "ann": Fraction(175, 2),
        "bob": 50,
        "cas": Fraction(25, 2),
    }
    assert day_percentages({}, 4) == {}


def test_equal_results_share_a_place() -> None:
    results = {"ann": Fraction(1, 3), "bob": Fraction(2, 6), "cas": Fraction(1, 4)}
    assert ranks(results) == {"ann": 1, "bob": 1, "cas": 3}


def pairwise_day(attempts: dict[int, tuple[int | None, ...]], deals: int) -> dict[int, Fraction]:
    """The module docstring's definition, pair by pair: each deal's percentage is the
    matchpoints against every other player, the day their mean."""

    def halves(mine: int | None, theirs: int | None) -> int:
        if mine is None:
            return 1 if theirs is None else 0
        return 2 if theirs is None or mine > theirs else 1 if mine == theirs else 0

    field = len(attempts)
    totals = dict.fromkeys(attempts, Fraction(0))
    for index in range(deals):
        for player, scores in attempts.items():
            if field == 1:
                totals[player] += 50
                continue
            points = sum(
                halves(scores[index], theirs[index])
                for other, theirs in attempts.items()
                if other != player
            )
            totals[player] += Fraction(100 * points, 2 * (field - 1))
    return {player: total / deals for player, total in totals.items()}


DAYS = st.integers(1, 5).flatmap(
    lambda deals: st.tuples(
        st.just(deals),
        st.lists(
            st.tuples(*[st.sampled_from([None, -60, -20, 0, 10, 30])] * deals),
            min_size=1,
            max_size=12,
        ),
    )
)
"""A day's number of deals, and each attempt's score per deal (None: left unfinished)."""


@given(DAYS)
def test_counted_in_order_the_results_are_the_pairwise_definition(
    case: tuple[int, list[tuple[int | None, ...]]],
) -> None:
    deals, rows = case
    attempts = dict(enumerate(rows))
    expected = pairwise_day(attempts, deals)
    assert day_percentages(attempts, deals) == expected
    assert deal_percentages({p: s[0] for p, s in attempts.items()}) == pairwise_day(
        {p: s[:1] for p, s in attempts.items()}, 1
    )
    assert ranks(expected) == {
        p: 1 + sum(1 for other in expected.values() if other > mine) for p, mine in expected.items()
    }


@given(DAYS)
def test_one_players_standing_is_their_result_and_place_among_all(
    case: tuple[int, list[tuple[int | None, ...]]],
) -> None:
    """What a finishing player is shown (their result and place) is what the whole
    field's results and places say of them, ties and unfinished deals included."""
    deals, rows = case
    attempts = dict(enumerate(rows))
    results = pairwise_day(attempts, deals)
    places = ranks(results)
    for player in attempts:
        assert day_standing(attempts, deals, player) == (results[player], places[player])


def test_the_board_ranks_players_with_enough_days_best_first() -> None:
    tallies = {
        1: (MIN_DAYS, 150.0),  # 50%
        2: (MIN_DAYS + 2, 300.0),  # 60%
        3: (MIN_DAYS - 1, 190.0),  # 95%, too few days to be ranked
        4: (MIN_DAYS, 150.0),  # 50%, level with 1
    }
    rows = daily_board(tallies, {1: "Ann", 2: "Bob", 3: "Cas", 4: "Dirk"})
    assert [(r.rank, r.name, r.days, r.percent) for r in rows] == [
        (1, "Bob", MIN_DAYS + 2, 60.0),
        (2, "Ann", MIN_DAYS, 50.0),
        (2, "Dirk", MIN_DAYS, 50.0),
        (None, "Cas", MIN_DAYS - 1, 95.0),
    ]
