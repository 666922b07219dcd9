"""No level ever returns an illegal action, over random positions of every contract."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.contracts import CONTRACTS
from bot.engine.view import seat_view
from bot.players import player_for
from tests.players.players_helpers import random_position

BUDGETS = {"easy": 0.0, "normal": 0.0, "hard": 0.02}
EXAMPLES = {"easy": 60, "normal": 60, "hard": 25}


@pytest.mark.parametrize("level", list(BUDGETS))
@pytest.mark.parametrize("contract", list(CONTRACTS))
def test_every_action_is_legal(level: str, contract: str) -> None:
    @settings(max_examples=EXAMPLES[level], deadline=None, derandomize=True)
    @given(
        seed=st.integers(0, 2**32 - 1),
        deals_before=st.integers(0, 9),
        moves=st.integers(0, 60),
    )
    def check(seed: int, deals_before: int, moves: int) -> None:
        match = random_position(seed, contract, deals_before, moves)
        assert match.to_act is not None
        view = seat_view(match, match.to_act)
        action = player_for(level).choose_action(view, random.Random(seed), BUDGETS[level])
        assert action in match.legal_actions()
        match.apply(action, view.seat)

    check()
