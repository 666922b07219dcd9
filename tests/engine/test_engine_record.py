"""docs/rules.md, "Match record": the bonken-record/1 format, read by replaying, with its errors."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import MatchPhase, Phase, RecordError, from_record, to_record
from bot.engine.record import loads
from tests.engine.engine_helpers import (
    LAYOUT_L,
    SCRIPT_L,
    SKIP_HANDS,
    SKIP_PLAYS,
    full_suits,
    hands_from,
    play,
    random_partial,
    start,
)

SCRIPT_CODES = " ".join(SCRIPT_L).split()


def _record(*deals, first_dealer=None, **top):
    record = {"format": "bonken-record/1", "players": ["Ann", "Bob", "Cas", "Dirk"]}
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    record.update(top)
    record["deals"] = list(deals)
    return record


def _deal(contract="ducking", doubling=None, plays=None, hands=LAYOUT_L, **extra):
    deal = {"hands": [hand.split() for hand in hands], "contract": contract}
    if doubling is not None:
        deal["doubling"] = doubling
    if plays is not None:
        deal["plays"] = plays
    deal.update(extra)
    return deal


def _error(record) -> RecordError:
    with pytest.raises(RecordError) as info:
        from_record(record)
    return info.value


def _complete_record(seed=1) -> dict:
    return json.loads(json.dumps(to_record(random_partial(seed))))


def _no_deal_number(error: RecordError) -> bool:
    return error.deal is None and not re.search(r"deal \d", str(error))


# -- reading a valid record -------------------------------------------------------------


def test_hand_written_record_replays_to_the_hand_computed_scores():
    text = json.dumps(
        _record(
            _deal(
                doubling=[[1], [1, 3], [3, 2], [1]],
                plays=SCRIPT_CODES,
                scores=[65, -150, 70, -50],
            ),
            totals=[65, -150, 70, -50],
        )
    )
    match = loads(text)
    deal = match.deal
    assert deal.contract.id == "ducking"
    assert deal.base == [0, -35, 0, -30]
    assert deal.final_scores() == [65, -150, 70, -50]
    assert match.phase is MatchPhase.NEEDS_DEAL


def test_record_with_no_deals_is_a_valid_match_not_yet_dealt():
    match = from_record(_record())
    assert match.deals == [] and match.phase is MatchPhase.NEEDS_DEAL
    assert match.players == ("Ann", "Bob", "Cas", "Dirk")
    assert match.totals() == [0, 0, 0, 0]


def test_a_record_without_a_deals_key_is_refused():
    # docs/rules.md lets only doubling, plays, contract, first_dealer and the writer's extras be
    # left out; a record that forgot its deals is not a match not yet dealt.
    record = {"format": "bonken-record/1", "players": ["A", "B", "C", "D"]}
    error = _error(record)
    assert "deals is missing" in str(error) and _no_deal_number(error)


def test_first_dealer_defaults_to_seat_0_and_sets_the_dealers():
    assert from_record(_record(_deal(None))).deal.dealer == 0
    match = from_record(_record(_deal(None), first_dealer=3))
    assert match.first_dealer == 3 and match.deal.dealer == 3 and match.deal.chooser == 1


def test_contract_may_be_missing_or_null_in_the_last_deal():
    for deal in (_deal(None), {"hands": _deal()["hands"]}):
        match = from_record(_record(deal))
        assert match.phase is MatchPhase.CHOOSING and match.to_act == 2


def test_doubling_and_plays_may_be_left_out_when_empty():
    match = from_record(_record(_deal("queens")))
    assert match.phase is MatchPhase.DOUBLING and match.to_act == 3
    match = from_record(_record(_deal("queens", doubling=[[], [], [], []])))
    assert match.phase is MatchPhase.PLAYING and match.to_act == 1


def test_a_deal_whose_doubling_is_not_complete_has_fewer_than_four_lists():
    match = from_record(_record(_deal("queens", doubling=[[1], []])))
    assert match.deal.phase is Phase.DOUBLING and match.to_act == 1
    assert match.deal.doubling == [frozenset({1}), frozenset()]


def test_doubling_lists_are_in_doubling_order_not_seat_order():
    # Dealer 0: the turns are seats 3, 0, 1, 2. Seat 3 doubles 1 and seat 1 redoubles 3.
    match = from_record(_record(_deal(doubling=[[1], [], [3], []])))
    m = match.deal.multipliers
    assert m[3][1] == m[1][3] == 2
    assert sum(map(sum, m)) == 4
    # Dealer 1: the turns are seats 0, 1, 2, 3. Seat 0 doubles 1, seat 2 doubles 3.
    match = from_record(_record(_deal(doubling=[[1], [], [3], []]), first_dealer=1))
    m = match.deal.multipliers
    assert m[0][1] == 1 and m[2][3] == 1
    assert sum(map(sum, m)) == 4


def test_the_order_inside_one_doubling_list_does_not_matter():
    a = from_record(_record(_deal(doubling=[[1, 0], [1, 3], [3, 2], [1]])))
    b = from_record(_record(_deal(doubling=[[0, 1], [3, 1], [2, 3], [1]])))
    assert a.deal.multipliers == b.deal.multipliers


def test_domino_passes_are_not_written_and_replay_rebuilds_them():
    plays = " ".join(SKIP_PLAYS).split()
    match = from_record(_record(_deal("domino", [[], [], [], []], plays, hands=SKIP_HANDS)))
    deal = match.deal
    assert deal.is_done
    assert deal.domino_passes == [(1, 0), (3, 1), (0, 1), (0, 4)]
    assert deal.base == [-50, 0, 0, 0]
    assert to_record(match)["deals"][0]["plays"] == plays


def test_writer_extras_seed_started_variant_are_accepted():
    record = _record(_deal(None), seed=7, started="2024-05-01T20:15:00+02:00", variant="standard")
    assert from_record(record).deal is not None


def test_scores_and_totals_are_checked_when_present():
    plays = SCRIPT_CODES[:8]  # two tricks of ducking: seat 1 took both
    good = _record(_deal(doubling=[[], [], [], []], plays=plays, scores=[0, -10, 0, 0]))
    good["totals"] = [0, -10, 0, 0]
    assert from_record(good).totals() == [0, -10, 0, 0]
    bad_scores = copy.deepcopy(good)
    bad_scores["deals"][0]["scores"] = [0, -5, 0, 0]
    error = _error(bad_scores)
    assert (
        str(error).startswith("deal 1: ")
        and "scores" in str(error)
        and "[0, -10, 0, 0]" in str(error)
    )
    bad_totals = copy.deepcopy(good)
    bad_totals["totals"] = [0, 0, 0, 0]
    error = _error(bad_totals)
    assert "totals" in str(error) and _no_deal_number(error)


def test_to_record_writes_the_documented_fields():
    match = start(hands_from(LAYOUT_L), "ducking", doubling=([1], [1, 3], [3, 2], [1]))
    play(match, *SCRIPT_L)
    match.deal_random(random.Random(4))
    record = to_record(match, seed=4)
    assert record["format"] == "bonken-record/1"
    assert record["players"] == list(match.players)
    assert record["first_dealer"] == 0 and record["seed"] == 4
    first, second = record["deals"]
    assert [set(hand) for hand in first["hands"]] == [set(hand.split()) for hand in LAYOUT_L]
    assert first["contract"] == "ducking"
    assert first["doubling"] == [[1], [1, 3], [2, 3], [1]]  # doubling order, sorted inside
    assert first["plays"] == SCRIPT_CODES
    assert first["scores"] == [65, -150, 70, -50]
    assert second["contract"] is None and "plays" not in second and "doubling" not in second
    assert record["totals"] == [65, -150, 70, -50]
    codes = [code for hand in second["hands"] for code in hand]
    assert sorted(codes) == sorted(c for h in first["hands"] for c in h)
    assert all(re.fullmatch(r"[2-9TJQKA][CDHS]", code) for code in codes)
    assert json.loads(json.dumps(record)) == record


def test_a_complete_random_match_round_trips():
    record = _complete_record(5)
    match = from_record(record)
    assert match.is_over
    assert to_record(match, seed=None) == {**record, "seed": None}


# -- refusing a broken record -----------------------------------------------------------


def test_errors_that_belong_to_no_deal_carry_no_deal_number():
    cases = {
        "format": _record() | {"format": "bonken-record/2"},
        "format'": {k: v for k, v in _record().items() if k != "format"},
        "players": _record() | {"players": ["Ann", "Bob", "Cas"]},
        "players'": _record() | {"players": ["Ann", "Bob", "Cas", 4]},
        "players''": _record() | {"players": "Ann Bob Cas Dirk"},
        "first_dealer": _record(first_dealer=4),
        "first_dealer'": _record(first_dealer="0"),
        "first_dealer''": _record(first_dealer=True),
        "first_dealer'''": _record(first_dealer=1.0),
        "deals": _record() | {"deals": {}},
        "record": [],
    }
    for what, record in cases.items():
        error = _error(record)
        assert what.rstrip("'") in str(error), (what, str(error))
        assert _no_deal_number(error), str(error)


def test_a_twelfth_deal_is_refused_naming_deal_12():
    record = _complete_record(6)
    record.pop("totals")
    record["deals"].append(_deal(None))
    error = _error(record)
    assert str(error) == "deal 12: a match has only 11 deals" and error.deal == 12


def test_scores_and_totals_may_be_left_out_but_not_null():
    error = _error(_record(_deal(None, scores=None)))
    assert str(error) == "deal 1: scores may be left out but not null"
    error = _error(_record(_deal(None), totals=None))
    assert str(error) == "totals may be left out but not null" and _no_deal_number(error)
    assert from_record(_record(_deal(None, scores=[0, 0, 0, 0]), totals=[0, 0, 0, 0]))


def test_scores_and_totals_are_integers_not_floats_or_booleans():
    for bad in ([0.0, 0, 0, 0], [False, 0, 0, 0], [0, 0, 0], "0 0 0 0", {}):
        error = _error(_record(_deal(None, scores=bad)))
        assert str(error).startswith("deal 1: scores ") and "do not match" in str(error)
        error = _error(_record(_deal(None), totals=bad))
        assert str(error).startswith("totals ") and _no_deal_number(error)


def test_bad_json_is_an_error_without_a_deal_number():
    for text in ("{", "", "[1, 2", "[" * 100_000 + "]" * 100_000):
        with pytest.raises(RecordError, match="not valid JSON") as info:
            loads(text)
        assert _no_deal_number(info.value)


def test_card_codes_are_upper_case_rank_then_suit():
    hands = [hand.split() for hand in LAYOUT_L]
    for bad in ("td", "10D", "DT", "Td"):
        broken = copy.deepcopy(hands)
        broken[1][4] = bad  # seat 1's TD
        error = _error(_record({"hands": broken, "contract": None}))
        assert str(error).startswith("deal 1: ") and repr(bad) in str(error)
    error = _error(_record(_deal(doubling=[[]] * 4, plays=["ad"])))
    assert str(error) == "deal 1: play 1: unknown card 'ad'"


def test_hands_must_be_the_52_cards_in_four_hands_of_13():
    hands = [hand.split() for hand in LAYOUT_L]
    twice = copy.deepcopy(hands)
    twice[0][0] = "AD"
    assert "AD is dealt twice" in str(_error(_record({"hands": twice})))
    short = copy.deepcopy(hands)
    short[2].pop()
    assert "seat 2 has 12 cards" in str(_error(_record({"hands": short})))
    assert "four lists" in str(_error(_record({"hands": hands[:3]})))
    assert str(_error(_record({"contract": None}))).startswith("deal 1: ")


def test_contract_ids_are_exactly_as_in_the_table():
    for bad in ("Queens", "QUEENS", "trump-Hearts", "trump-none", "notrump", ""):
        error = _error(_record(_deal(bad)))
        assert str(error).startswith("deal 1: contract ") and repr(bad) in str(error)
        assert "seat 2" in str(error)


def test_contract_that_is_not_a_string_is_an_error_not_a_crash():
    for bad in (["queens"], {"id": "queens"}, 3):
        error = _error(_record(_deal(bad)))
        assert str(error).startswith("deal 1: contract") and repr(bad) in str(error)


def test_contract_breaking_the_quota_names_deal_contract_and_seat():
    first = _complete_record(2)["deals"][0]
    second = _deal(first["contract"])
    error = _error(_record(first, second))
    assert str(error).startswith(f"deal 2: contract {first['contract']!r} by seat 3: ")
    assert "already been played" in str(error)


def test_doubling_naming_oneself_or_the_same_seat_twice_is_an_error():
    error = _error(_record(_deal(doubling=[[3]])))
    assert str(error) == "deal 1: doubling turn 1 (seat 3): you cannot double yourself"
    error = _error(_record(_deal(doubling=[[], [1, 1]])))
    assert str(error) == "deal 1: doubling turn 2 (seat 0) names seat 1 twice"
    error = _error(_record(_deal(doubling=[[0, 2, 0]])))
    assert str(error) == "deal 1: doubling turn 1 (seat 3) names seat 0 twice"
    error = _error(_record(_deal(doubling=[[], [], [], [0]])))
    assert "doubling turn 4 (seat 2)" in str(error) and "only redouble" in str(error)
    error = _error(_record(_deal(doubling=[["1"]])))
    assert "doubling turn 1 must be a list of seats" in str(error)
    error = _error(_record(_deal(doubling=[[7]])))
    assert "no seat 7" in str(error)


def test_more_than_four_doubling_lists_is_an_error():
    error = _error(_record(_deal(doubling=[[], [], [], [], []])))
    assert str(error) == "deal 1: doubling turn 5: there are only four doubling turns"


def test_plays_before_the_doubling_is_complete_are_an_error():
    error = _error(_record(_deal(doubling=[[], []], plays=["AD"])))
    assert str(error) == "deal 1: has plays before its doubling is complete"


def test_a_deal_without_contract_has_no_doubling_and_no_plays():
    for extra in ({"doubling": [[]]}, {"plays": ["AD"]}):
        error = _error(_record(_deal(None, **extra)))
        assert str(error) == "deal 1: has doubling or plays but no contract"


def test_an_illegal_card_names_the_deal_the_card_and_the_seat():
    plays = [*SCRIPT_CODES[:2], "AS"]  # seat 3 holds diamonds and must follow
    error = _error(_record(_deal(doubling=[[]] * 4, plays=plays)))
    assert str(error) == (
        "deal 1: card AS (play 3, seat 3): you must follow suit: you hold a diamond"
    )
    error = _error(_record(_deal(doubling=[[]] * 4, plays=["AC"])))
    assert "card AC (play 1, seat 1)" in str(error) and "do not hold" in str(error)


def test_record_with_card_after_end_is_an_error():
    # Queens on the scripted deal ends after trick 10; a table that played on is refused.
    ok = from_record(_record(_deal("queens", [[]] * 4, SCRIPT_CODES[:40])))
    assert ok.deal.is_done
    error = _error(_record(_deal("queens", [[]] * 4, SCRIPT_CODES)))
    assert str(error) == "deal 1: card 'JS' (play 41) comes after the deal ended"
    # Domino: a card after the three-out end.
    plays = " ".join(SKIP_PLAYS).split()
    error = _error(_record(_deal("domino", [[]] * 4, [*plays, "2C"], hands=SKIP_HANDS)))
    assert str(error) == "deal 1: card '2C' (play 51) comes after the deal ended"


def test_unfinished_deal_followed_by_another_names_the_unfinished_deal():
    record = _complete_record(3)
    record.pop("totals")
    for entry in record["deals"]:
        entry.pop("scores")
    record["deals"][2]["plays"] = record["deals"][2]["plays"][:9]
    error = _error(record)
    assert str(error) == "deal 3: is not finished but another deal follows it"
    assert error.deal == 3
    # A missing contract is unfinished too.
    record = _record(_deal(None), _deal(None))
    assert str(_error(record)) == "deal 1: is not finished but another deal follows it"


def test_only_the_last_deal_may_be_unfinished():
    record = _complete_record(3)
    record.pop("totals")
    record["deals"][-1].pop("scores")
    record["deals"][-1]["plays"] = record["deals"][-1]["plays"][:5]
    match = from_record(record)
    assert not match.is_over and len(match.deals) == 11
    assert len(match.deal.plays) == 5


def test_errors_name_the_deal_1_based():
    record = _complete_record(4)
    record["deals"][6]["plays"][0] = "XX"
    error = _error(record)
    assert error.deal == 7 and str(error).startswith("deal 7: play 1: unknown card 'XX'")


def test_unfinished_deal_scores_are_the_scores_so_far():
    # Seat 3 doubles seat 1; seat 1 takes the first trick (+10) and a trick is under way.
    match = start(full_suits(), "trump-notrump", doubling=([1], [], [], []))
    play(match, "2D 2H 2S 2C", "3D 3H")
    record = to_record(match)
    assert record["deals"][0]["scores"] == [0, 20, 0, -10]
    replayed = from_record(json.loads(json.dumps(record)))
    assert replayed.deal.final_scores() == [0, 20, 0, -10]
    assert replayed.deal.trick == match.deal.trick and replayed.to_act == 3


# -- hostile input: every bad record is one RecordError of one short line --------------------


def _one_short_line(error: RecordError) -> str:
    text = str(error)
    assert "\n" not in text and len(text) < 300, text
    return text


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1" * 5000, "a number of 5000 digits is too long"),  # int() would raise ValueError
        ("-" + "9" * 4301, "a number of 4301 digits is too long"),
        ("NaN", "not valid JSON: NaN is not a JSON number"),
        ("Infinity", "not valid JSON: Infinity is not a JSON number"),
        ("-Infinity", "not valid JSON: -Infinity is not a JSON number"),
        ("1e999", "not valid JSON: the number '1e999' is out of range"),
        ("-2.5E+400", "not valid JSON: the number '-2.5E+400' is out of range"),
    ],
)
def test_numbers_json_does_not_have_or_python_cannot_hold_are_refused(value, message):
    record = json.dumps(_record(_deal(None), first_dealer=0))
    for text in (
        record.replace('"first_dealer": 0', f'"first_dealer": {value}'),
        record.replace('"deals": [', f'"deals": [{value}, '),
    ):
        assert value in text
        with pytest.raises(RecordError) as info:
            loads(text)
        assert _one_short_line(info.value).startswith(message)
        assert _no_deal_number(info.value)


def test_a_long_number_within_the_limit_is_read_and_refused_by_the_rules():
    error = _error(json.loads(json.dumps(_record(first_dealer=10**99))))
    assert str(error).startswith("first_dealer must be a seat 0-3, not ")
    _one_short_line(error)


def test_huge_or_deeply_nested_values_are_shown_cut_short():
    deep = [[]]
    for _ in range(500):
        deep = [deep]
    cases = [
        (_record(_deal("x" * 1_000_000)), "deal 1: contract 'xxx"),
        (_record(_deal(deep)), "deal 1: contract must be a contract id or null, not [[[[...]]]]"),
        (
            _record(_deal(doubling=[[]] * 4, plays=[deep])),
            "deal 1: play 1: unknown card [[[[...]]]]",
        ),
        (_record(_deal(None, hands=["x" * 10_000] * 4)), "deal 1: hands of seat 0: unknown card"),
        (_record(_deal(None, scores=deep)), "deal 1: scores [[[[...]]]] do not match"),
        (
            _record() | {"format": {"a": deep}},
            "format must be 'bonken-record/1', not {'a': [[[...]]]}",
        ),
    ]
    for record, beginning in cases:
        error = _error(record)
        assert _one_short_line(error).startswith(beginning), str(error)
    text = json.dumps(_record(_deal(deep)))
    with pytest.raises(RecordError):
        loads(text)


def test_keys_that_are_not_strings_are_ignored_like_any_unknown_field():
    # Only from Python (JSON keys are always strings): no crash, the record reads as usual.
    record = _record(_deal(None) | {0: "x"}) | {1: 2, (3, 4): None}
    assert from_record(record).deal.contract is None


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)
_BASE = _complete_record(7)


@settings(max_examples=300, deadline=None)
@given(
    where=st.sampled_from(
        [
            ("format",),
            ("players",),
            ("players", 2),
            ("first_dealer",),
            ("deals",),
            ("totals",),
            ("deals", 0),
            ("deals", 0, "hands"),
            ("deals", 0, "hands", 1),
            ("deals", 0, "hands", 1, 5),
            ("deals", 0, "contract"),
            ("deals", 0, "doubling"),
            ("deals", 0, "doubling", 2),
            ("deals", 0, "doubling", 2, 0),
            ("deals", 0, "plays"),
            ("deals", 0, "plays", 7),
            ("deals", 0, "scores"),
            ("deals", 0, "scores", 3),
            ("deals", 10, "plays", 0),
        ]
    ),
    value=_JSON,
)
def test_any_value_anywhere_is_read_or_refused_with_one_line(where, value):
    record = copy.deepcopy(_BASE)
    parent = record
    for step in where[:-1]:
        parent = parent[step]
    if isinstance(parent, list) and where[-1] >= len(parent):
        parent.append(value)
    else:
        parent[where[-1]] = value
    try:
        from_record(record)
    except RecordError as error:
        _one_short_line(error)
