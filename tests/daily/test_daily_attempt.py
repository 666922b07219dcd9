"""An attempt keeps where it stands as it goes (the person's scores, whether it is over):
after every move that is what its deals themselves say, and a replay of its moves
stands in the same place."""

from __future__ import annotations

import random
from datetime import date

import pytest

from bot.daily.attempt import Attempt
from bot.daily.program import MAX_DEALS, PERSON_SEAT, day_program, day_seed
from bot.engine import STANDARD, IllegalAction, Play, rules_for

SECRET = "5a" * 32
DAY = date(2026, 12, 2)


def _read_from_the_deals(attempt: Attempt) -> tuple[tuple[int | None, ...], bool]:
    """The person's scores and whether the attempt is over, read from its matches."""
    done = [
        match.deal.final_scores()[PERSON_SEAT]
        for match in attempt.matches
        if match.deal is not None and match.deal.is_done
    ]
    over = len(attempt.matches) == attempt.deals and all(
        match.deal is not None and match.deal.is_done for match in attempt.matches
    )
    return (*done, *(None,) * (attempt.deals - len(done))), over


def _moves_played(attempt: Attempt) -> int:
    return sum(len(m.deal.doubling) + len(m.deal.plays) for m in attempt.matches if m.deal)


@pytest.mark.parametrize(
    "rules",
    [STANDARD, rules_for("twelve", {"must_trump": "overtrump", "domino_doubling": "ace_or_two"})],
    ids=["standard", "twelve-house-rules"],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_scores_and_the_end_are_the_deals_own_after_every_move(rules, seed) -> None:
    program = day_program(day_seed(SECRET, seed, DAY), MAX_DEALS, rules)
    attempt = Attempt(program, "Ann")
    rng = random.Random(seed)
    moves = []
    while not attempt.finished:
        assert (attempt.scores(), attempt.finished) == _read_from_the_deals(attempt)
        seat = attempt.to_act
        assert seat is not None and seat == attempt.match.to_act
        moves.append(attempt.apply(rng.choice(attempt.view_for(seat).legal)))
    assert (attempt.scores(), attempt.finished) == _read_from_the_deals(attempt)
    assert None not in attempt.scores() and attempt.to_act is None
    assert attempt.moves == len(moves) == _moves_played(attempt)
    replayed = Attempt.replay(program, "Ann", moves)
    assert replayed.finished and replayed.scores() == attempt.scores()


def test_a_refused_move_leaves_the_attempt_where_it_stands() -> None:
    program = day_program(day_seed(SECRET, 3, DAY), 1, STANDARD)
    attempt = Attempt(program, "Ann")
    seat = attempt.to_act
    assert seat is not None
    view = attempt.view_for(seat)
    before = (attempt.scores(), attempt.finished, attempt.moves, attempt.to_act)
    with pytest.raises(IllegalAction):
        attempt.apply(Play(view.hand[0]))  # a card while the doubling goes on
    assert (attempt.scores(), attempt.finished, attempt.moves, attempt.to_act) == before
