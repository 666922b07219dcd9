"""``Action.code`` and ``parse_action``: one short spelling per action, read back exactly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import CARDS, CONTRACTS, PASS, Choose, Double, Match, Play, parse_action
from bot.engine.actions import Action
from bot.engine.simulate import random_match

actions: st.SearchStrategy[Action] = st.one_of(
    st.sampled_from(list(CONTRACTS)).map(Choose),
    st.frozensets(st.integers(0, 3)).map(Double),
    st.sampled_from(CARDS).map(Play),
)


@given(actions)
def test_every_action_reads_back_from_its_code(action: Action) -> None:
    assert parse_action(action.code) == action
    assert len(action.code) <= 20 and " " not in action.code  # fits a custom_id


@given(actions, actions)
def test_different_actions_have_different_codes(a: Action, b: Action) -> None:
    assert (a.code == b.code) == (a == b)


def test_the_codes_read_as_documented() -> None:
    assert Choose("queens").code == "C:queens"
    assert Double.of(3, 1).code == "D:13"
    assert PASS.code == "D:-"
    assert Play(CARDS[0]).code == "P:2C"


@given(st.text(max_size=12))
def test_anything_else_is_refused(text: str) -> None:
    try:
        action = parse_action(text)
    except ValueError:
        return
    assert action.code == text  # only an exact code is read


@pytest.mark.parametrize(
    "code", ["", "C:", "C:Queens", "D:", "D:31", "D:11", "D:4", "D:-1", "P:10D", "P:td", "X:1"]
)
def test_near_misses_are_refused(code: str) -> None:
    with pytest.raises(ValueError, match="not an action code"):
        parse_action(code)


def test_a_whole_match_replays_from_its_codes() -> None:
    match = random_match(random.Random(9))
    replay = Match(match.players)
    for deal in match.deals:
        replay.start_deal(deal.hands)
        assert deal.contract is not None
        codes = [Choose(deal.contract.id).code]
        codes += [Double(turn).code for turn in deal.doubling]
        codes += [Play(card).code for _, card in deal.plays]
        for code in codes:
            replay.apply(parse_action(code))
    assert replay.totals() == match.totals() and replay.is_over
