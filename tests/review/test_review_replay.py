"""The replay: every point of a finished match, as the engine's own replay of the record
cut at that point has it, stepped through in both directions, by every rule set."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.engine.actions import Choose, Double, Play
from bot.engine.deal import Phase
from bot.engine.match import Match
from bot.engine.record import from_record, to_record
from bot.engine.rules import TWELVE, rules_for
from bot.engine.simulate import random_match
from bot.engine.view import public_view
from bot.review import Address, Replay, ReplayError
from bot.review.replay import MAX_CODE
from tests.review.review_helpers import PLAYERS, normal_match

RULE_SETS = {
    "standard": rules_for("standard"),
    "twelve with house rules": rules_for(
        "twelve", {"heart_lead": "broken", "first_lead": "dealer"}
    ),
    "standard with house rules": rules_for(
        "standard", {"domino_doubling": "ace_or_two", "first_lead": "dealer"}
    ),
}


def _cut(record: dict[str, Any], address: Address) -> dict[str, Any]:
    """The record as it stood at ``address``: earlier deals whole, that deal's first
    ``step`` actions, nothing after (the optional scores dropped, as they would differ)."""
    cut = copy.deepcopy(record)
    cut.pop("totals")
    deals = cut["deals"][: address.deal + 1]
    for entry in deals:
        entry.pop("scores")
    last = deals[-1]
    step = address.step
    if step == 0:
        last["contract"] = None
    last["doubling"] = last.get("doubling", [])[: max(0, step - 1)]
    last["plays"] = last.get("plays", [])[: max(0, step - 5)]
    cut["deals"] = deals
    return cut


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_point_is_the_engines_own_replay_of_the_record_cut_there(name: str) -> None:
    rules = RULE_SETS[name]
    match = random_match(random.Random(len(name)), PLAYERS, first_dealer=1, rules=rules)
    record = to_record(match)
    replay = Replay.from_record(record)
    assert replay.deals == rules.deals
    sample = random.Random(3)
    for deal in range(replay.deals):
        points = replay.deal_points(deal)
        played = match.deals[deal]
        assert len(points) == 1 + 1 + 4 + len(played.plays)
        checked = {0, 1, 5, len(points) - 1, *sample.sample(range(len(points)), 4)}
        for step in sorted(checked):
            point = points[step]
            engine = from_record(_cut(record, point.address))
            assert point.view == public_view(engine)
            assert point.hands == tuple(tuple(engine.deals[deal].hand(s)) for s in range(4))
            assert point.final == tuple(engine.deals[deal].final_scores())
        last = points[-1]
        assert last.is_end and last.view.phase in (Phase.NEEDS_DEAL, Phase.OVER)
        assert list(last.final) == record["deals"][deal]["scores"]
        assert not any(point.is_end for point in points[:-1])


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_every_deal_made_in_one_walk_has_the_points_made_a_deal_at_a_time(name: str) -> None:
    rules = RULE_SETS[name]
    match = random_match(random.Random(7 + len(name)), PLAYERS, first_dealer=2, rules=rules)
    record = to_record(match)
    one_walk = Replay.from_record(record).every_point()
    by_deal = Replay.from_record(record)
    assert len(one_walk) == rules.deals
    for deal, points in enumerate(one_walk):
        assert points == by_deal.deal_points(deal)
        assert [point.address for point in points] == [
            Address(deal, step) for step in range(by_deal.steps(deal))
        ]


def test_each_point_names_the_action_that_led_to_it_and_who_took_it() -> None:
    record = normal_match(4)
    replay = Replay.from_record(record)
    entry = record["deals"][2]
    points = replay.deal_points(2)
    assert points[0].action is None and points[0].actor is None
    assert points[0].view.phase is Phase.CHOOSING
    assert points[1].action == Choose(entry["contract"])
    assert points[1].actor == points[0].view.chooser
    doubling = entry.get("doubling", [[], [], [], []])
    for turn in range(4):
        assert points[2 + turn].action == Double(frozenset(doubling[turn]))
    for index, code in enumerate(entry["plays"]):
        assert points[6 + index].action is not None
        assert points[6 + index].action == Play(points[6 + index].action.card)
        assert points[6 + index].action.card.code == code


def test_a_completed_trick_stays_on_the_table_with_its_winner() -> None:
    replay = Replay.from_record(normal_match(5))
    deal = next(d for d in range(replay.deals) if replay.label(d).contract != "domino")
    points = replay.deal_points(deal)
    fourth = points[5 + 4]  # the first trick's fourth card
    assert len(fourth.trick) == 4 and fourth.view.trick == ()
    assert fourth.trick_winner == fourth.view.last_trick.winner
    assert fourth.trick == tuple(fourth.view.last_trick.played())
    fifth = points[5 + 5]
    assert len(fifth.trick) == 1 and fifth.trick_winner is None
    assert fifth.actor == fourth.trick_winner  # the winner leads


def test_domino_passes_belong_to_the_card_before_them() -> None:
    for seed in range(20):
        match = random_match(random.Random(seed), PLAYERS)
        replay = Replay(match)
        deal = next(d for d in range(replay.deals) if replay.label(d).contract == "domino")
        if match.deals[deal].domino_passes:
            break
    points = replay.deal_points(deal)
    passes = [seat for point in points for seat in point.passes]
    assert passes == [seat for seat, _ in match.deals[deal].domino_passes]
    assert points[-1].view.domino_out == tuple(match.deals[deal].out)


def test_stepping_forward_visits_every_point_once_and_back_retraces_it() -> None:
    replay = Replay.from_record(normal_match(6, TWELVE))
    forward = [Address(0, 0)]
    while (step := replay.forward(forward[-1])) is not None:
        forward.append(step)
    expected = [Address(d, s) for d in range(replay.deals) for s in range(replay.steps(d))]
    assert forward == expected
    backward = [forward[-1]]
    while (step := replay.back(backward[-1])) is not None:
        backward.append(step)
    assert backward == list(reversed(expected))
    for deal in range(replay.deals):
        assert replay.start(deal) == Address(deal, 0)
        assert replay.point(replay.end(deal)).is_end


def test_a_deal_is_labelled_by_its_number_contract_and_chooser() -> None:
    record = normal_match(7)
    replay = Replay.from_record(record)
    labels = replay.labels()
    assert [label.number for label in labels] == list(range(1, 12))
    assert [label.contract for label in labels] == [d["contract"] for d in record["deals"]]
    for deal, label in enumerate(labels):
        chooser = replay.point(Address(deal, 0)).view.chooser
        assert (label.chooser, label.chooser_name) == (chooser, PLAYERS[chooser])


def test_an_address_is_short_and_reads_back_in_one_spelling_only() -> None:
    replay = Replay.from_record(normal_match(8, TWELVE))
    for deal in range(replay.deals):
        for step in range(replay.steps(deal)):
            code = Address(deal, step).code
            assert len(code) <= MAX_CODE
            assert Address.parse(code) == Address(deal, step)
    custom_id = f"bonken:replay:{2**63 - 1}:{Address(11, 57).code}"
    assert len(custom_id) <= 100
    for forged in ["", "1", "1.", ".1", "01.2", "1.02", "-1.2", "1.-2", "1.2.3", "a.b", " 1.2",
                   "1.2 ", "１.2", "123.45", "1e3.2", None, 12]:  # fmt: skip
        with pytest.raises(ValueError):
            Address.parse(forged)  # type: ignore[arg-type]


def test_a_point_the_match_does_not_have_is_refused_politely() -> None:
    replay = Replay.from_record(normal_match(9))
    for address in [Address(11, 0), Address(0, replay.steps(0)), Address(-1, 0), Address(0, -1)]:
        assert not replay.contains(address)
        with pytest.raises(ReplayError, match="no"):
            replay.point(address)
    with pytest.raises(ReplayError):
        replay.forward(Address(0, 999))


def test_a_match_in_play_or_a_broken_record_cannot_be_replayed() -> None:
    match = Match(PLAYERS)
    match.deal_random(random.Random(1))
    with pytest.raises(ReplayError, match="not over"):
        Replay.from_record(to_record(match))
    with pytest.raises(ReplayError, match="cannot be replayed"):
        Replay.from_record({"format": "bonken-record/1", "players": ["a"]})
    record = normal_match(10)
    record["deals"][3]["plays"][7], record["deals"][3]["plays"][8] = (
        record["deals"][3]["plays"][8],
        record["deals"][3]["plays"][7],
    )
    with pytest.raises(ReplayError, match="deal 4"):
        Replay.from_record(record)


def test_finished_deals_of_a_match_not_over_replay_only_when_asked_for() -> None:
    """A daily deal is a match of one deal: its deal is over, its match is not."""
    whole = Replay.from_record(normal_match(11))
    end = whole.end(0)
    first_deal = _cut(normal_match(11), end)
    with pytest.raises(ReplayError, match="not over"):
        Replay.from_record(first_deal)
    replay = Replay.from_record(first_deal, whole=False)
    assert replay.deals == 1 and replay.steps(0) == whole.steps(0)
    assert replay.point(end).final == whole.point(end).final
    assert replay.forward(end) is None
    in_play = _cut(normal_match(11), Address(0, end.step - 1))
    with pytest.raises(ReplayError, match="not over"):
        Replay.from_record(in_play, whole=False)
