"""A tally: a match played with real cards, entered deal by deal and scored by the engine.

docs/rules.md is the rule book; docs/playing.md ("Keeping the score of a real table")
says how a table enters its deals. Each deal is its contract, its doubling and its
result as the contract counts it; every entry is checked by the rules of a played match
and scored by the same code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import STANDARD, TWELVE, Choose, Reason, RecordError, rules_for
from bot.engine.tally import (
    PASSED,
    Asked,
    Correct,
    DealEntry,
    Doubles,
    Result,
    Step,
    Tally,
    TallyError,
    Undo,
    questions,
)
from bot.engine.tally_record import entry_code, parse_entry, tally_from_record, tally_to_record
from tests.tally.tally_helpers import doubling_match, entries_of, tally_of

SEEDS = range(6)
RULES = {"standard": STANDARD, "twelve": TWELVE}


def _refused(tally: Tally, entry: Any, reason: Reason, **fields: Any) -> TallyError:
    """``entry`` is refused for ``reason`` with these fields, and nothing changes."""
    before = (json.dumps(tally_to_record(tally)), tally.step, tally.number)
    with pytest.raises(TallyError) as caught:
        tally.check(entry)
    with pytest.raises(TallyError):
        tally.apply(entry)
    assert caught.value.reason is reason, caught.value
    for name, value in fields.items():
        assert getattr(caught.value, name) == value, (name, caught.value)
    assert (json.dumps(tally_to_record(tally)), tally.step, tally.number) == before
    return caught.value


def _entered(rules=STANDARD, deals: int = 0, seed: int = 1) -> Tally:
    """A tally with the first ``deals`` deals of a played match entered."""
    match = doubling_match(seed, rules)
    tally = Tally(match.players, first_dealer=match.first_dealer, rules=rules)
    for entry in list(entries_of(match))[: 3 * deals]:
        tally.apply(entry)
    return tally


def _counts(key: str, counts: list[int]) -> Result:
    return Result.of({key: counts})


# -- the same scores as the engine playing those deals ------------------------------------


@pytest.mark.parametrize("variant", RULES)
@pytest.mark.parametrize("seed", SEEDS)
def test_a_match_entered_deal_by_deal_scores_as_the_engine_played_it(variant, seed):
    match = doubling_match(seed, RULES[variant], first_dealer=seed % 4)
    tally = tally_of(match)
    assert tally.is_over and tally.step is Step.OVER
    for played, entered in zip(match.deals, tally.deals, strict=True):
        assert (entered.dealer, entered.chooser) == (played.dealer, played.chooser)
        assert entered.contract is played.contract
        assert [list(row) for row in entered.multipliers] == played.multipliers
        assert list(entered.base) == played.base
        assert entered.final_scores() == played.final_scores()
    assert tally.totals() == match.totals()
    assert tally.ranking() == match.ranking()


def test_the_compared_matches_play_every_contract_with_doubles_and_redoubles():
    """The comparison above is not vacuous: its deals cover every contract of both
    variants, doubled and redoubled."""
    for rules in RULES.values():
        played, levels = set(), set()
        for seed in SEEDS:
            for deal in doubling_match(seed, rules, first_dealer=seed % 4).deals:
                played.add(deal.contract.id)
                levels.update(level for row in deal.multipliers for level in row)
        assert played == set(rules.contract_ids)
        assert levels == {0, 1, 2}


@pytest.mark.parametrize("variant", RULES)
def test_who_deals_and_who_chooses_follows_the_variant(variant):
    rules = RULES[variant]
    for first_dealer in range(4):
        tally = Tally(first_dealer=first_dealer, rules=rules)
        dealers = [tally.dealer_of(n) for n in range(1, rules.deals + 1)]
        choosers = [tally.chooser_of(n) for n in range(1, rules.deals + 1)]
        assert dealers == [(first_dealer + k) % 4 for k in range(rules.deals)]
        offset = 2 if variant == "standard" else 1
        assert choosers == [(first_dealer + k + offset) % 4 for k in range(rules.deals)]


def test_the_questions_are_what_each_contract_scores():
    asked = {
        cid: [(q.key, q.asked, q.total) for q in questions(contract)]
        for cid, contract in TWELVE.by_id.items()
    }
    assert asked["ducking"] == [("tricks", Asked.TRICKS, 13)]
    assert asked["hearts"] == [("hearts", Asked.CARDS, 13)]
    assert asked["kingjacks"] == [("kings", Asked.CARDS, 4), ("jacks", Asked.CARDS, 4)]
    assert asked["queens"] == [("queens", Asked.CARDS, 4)]
    assert asked["kingofhearts"] == [("KH", Asked.CARD, None)]
    assert asked["lasttrick"] == [("trick13", Asked.TRICK, None)]
    assert asked["seventhirteenth"] == [
        ("trick7", Asked.TRICK, None),
        ("trick13", Asked.TRICK, None),
    ]
    assert asked["domino"] == [("last", Asked.LAST, None)]
    for trump in TWELVE.trump_ids:
        assert asked[trump] == [("tricks", Asked.TRICKS, 13)]


# -- what the scores add up to ------------------------------------------------------------


@st.composite
def _answers(draw: st.DrawFn, contract_id: str, rules=STANDARD) -> Result:
    answers: dict[str, list[int] | int] = {}
    for question in questions(rules.by_id[contract_id]):
        if question.total is None:
            answers[question.key] = draw(st.integers(0, 3))
        else:
            cuts = sorted(draw(st.lists(st.integers(0, question.total), min_size=3, max_size=3)))
            bounds = [0, *cuts, question.total]
            answers[question.key] = [bounds[i + 1] - bounds[i] for i in range(4)]
    return Result.of(answers)


_pairs = st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda p: p[0] != p[1]))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_deal_adds_up_to_its_contract_and_doubling_moves_points_only(data):
    """Whatever the counts and the doubles, a deal's scores add up to its contract's
    total before and after doubling, and a whole tally adds up to exactly 0."""
    rules = data.draw(st.sampled_from([STANDARD, TWELVE]))
    tally = Tally(first_dealer=data.draw(st.integers(0, 3)), rules=rules)
    while not tally.is_over:
        tally.apply(Choose(data.draw(st.sampled_from(tally.contracts_for()))))
        order = rules.doubling_order(tally.dealer_of(tally.number))
        chooser = tally.chooser_of(tally.number)
        doubled = {p for p in data.draw(_pairs) if p[0] != chooser}
        answered = {(b, a) for a, b in doubled if order.index(b) > order.index(a)}
        redoubles = (
            set(data.draw(st.sets(st.sampled_from(sorted(answered))))) if answered else set()
        )
        tally.apply(Doubles.named(order, doubled | redoubles, confirmed=True))
        deal = tally.current
        assert deal is not None
        tally.apply(data.draw(_answers(deal.contract.id, rules)))
        scored = tally.deals[-1]
        assert sum(scored.base) == sum(scored.final) == scored.contract.total
    assert sum(tally.totals()) == 0


# -- the chooser's contract ---------------------------------------------------------------


def test_a_contract_already_played_is_refused_naming_it():
    tally = _entered(deals=2)
    played = tally.deals[0].contract.id
    error = _refused(tally, Choose(played), Reason.CONTRACT_PLAYED, deal=3)
    assert tally.deals[0].contract.name in str(error)


SCRIPT = ("trump-clubs", "ducking", "hearts", "kingjacks", "queens", "kingofhearts", "lasttrick")
"""Deals 1-7 of a standard tally with first dealer 0, whose choosers are seats 2, 3, 0, 1,
2, 3, 0 (then 1, 2, 3, 0): seat 1 chooses only twice, deals 4 and 8."""


def _answer_all(contract_id: str, rules=STANDARD) -> Result:
    """A result that fits: seat 0 took everything there is."""
    answers: dict[str, list[int] | int] = {}
    for question in questions(rules.by_id[contract_id]):
        answers[question.key] = 0 if question.total is None else [question.total, 0, 0, 0]
    return Result.of(answers)


def _scripted(contracts=SCRIPT) -> Tally:
    tally = Tally()
    for contract in contracts:
        tally.apply(Choose(contract))
        tally.apply(PASSED)
        tally.apply(_answer_all(contract))
    return tally


def test_a_chooser_may_pick_one_trump_option():
    tally = _scripted(SCRIPT[:4])
    assert tally.chooser_of(5) == 2 and tally.deals[0].chooser == 2
    _refused(tally, Choose("trump-spades"), Reason.TRUMP_ALREADY_PICKED, deal=5, seat=2)
    assert not set(tally.contracts_for()) & set(STANDARD.trump_ids)


def test_a_chooser_without_a_trump_must_pick_one_with_his_last_choice():
    tally = _scripted()
    assert tally.chooser_of(8) == 1
    _refused(tally, Choose("domino"), Reason.MUST_PICK_TRUMP, deal=8, seat=1)
    assert tally.contracts_for() == [
        "trump-diamonds",
        "trump-hearts",
        "trump-spades",
        "trump-notrump",
    ]


def test_a_contract_the_variant_does_not_have_is_refused():
    _refused(Tally(), Choose("seventhirteenth"), Reason.UNKNOWN_CONTRACT, deal=1)
    Tally(rules=TWELVE).check(Choose("seventhirteenth"))


# -- the doubling -------------------------------------------------------------------------


def _doubling_step(contract: str = "queens", rules=STANDARD) -> Tally:
    tally = Tally(rules=rules)  # dealer 0: doubling order 3, 0, 1, 2; seat 2 chooses
    tally.apply(Choose(contract))
    return tally


def test_the_doubling_is_entered_as_who_named_whom_in_the_variants_order():
    tally = _doubling_step()
    order = STANDARD.doubling_order(0)
    # Dirk (3) doubles Ann (0) and Cas (2); Ann redoubles Dirk; Cas redoubles Dirk.
    doubles = Doubles.named(order, [(3, 0), (3, 2), (0, 3), (2, 3)])
    assert doubles.turns == (frozenset({0, 2}), frozenset({3}), frozenset(), frozenset({3}))
    tally.apply(doubles)
    assert tally.step is Step.RESULT
    m = tally.current.multipliers
    assert (m[3][0], m[3][2], m[0][2], m[1][3]) == (2, 2, 0, 0)


def test_the_chooser_doubling_someone_who_did_not_double_him_is_refused():
    tally = _doubling_step()
    order = STANDARD.doubling_order(0)
    # Dirk doubled Cas, who may redouble him, but not double Ann, who did not double him.
    _refused(
        tally,
        Doubles.named(order, [(3, 2), (2, 3), (2, 0)]),
        Reason.CHOOSER_ONLY_REDOUBLES,
        deal=1,
        seat=2,
        value=0,
    )
    tally.check(Doubles.named(order, [(3, 2), (2, 3)]))


def test_a_player_naming_himself_or_no_seat_and_a_short_doubling_are_refused():
    tally = _doubling_step()
    _refused(tally, Doubles((frozenset({3}), *PASSED.turns[1:])), Reason.DOUBLE_SELF, seat=3)
    _refused(tally, Doubles((frozenset({7}), *PASSED.turns[1:])), Reason.NO_SUCH_SEAT, seat=3)
    _refused(tally, Doubles(PASSED.turns[:3]), Reason.DOUBLING_INCOMPLETE, deal=1)


def test_under_ace_or_two_a_domino_double_needs_the_players_word():
    rules = rules_for("standard", {"domino_doubling": "ace_or_two"})
    order = rules.doubling_order(0)
    tally = _doubling_step("domino", rules)
    doubled = Doubles.named(order, [(0, 1)])
    _refused(tally, doubled, Reason.DOUBLES_UNCONFIRMED, deal=1)
    tally.check(PASSED)  # nobody doubled: nothing to vouch for
    tally.apply(Doubles.named(order, [(0, 1)], confirmed=True))
    assert tally.current.multipliers[0][1] == 1
    # Outside Domino, or with anyone allowed to double, no word is asked.
    _doubling_step("queens", rules).check(doubled)
    _doubling_step("domino").check(doubled)


# -- the result ---------------------------------------------------------------------------


def _result_step(contract: str = "hearts", rules=STANDARD) -> Tally:
    tally = _doubling_step(contract, rules)
    tally.apply(PASSED)
    return tally


def test_counts_that_do_not_add_up_are_refused_saying_by_how_much():
    tally = _result_step("hearts")
    error = _refused(
        tally,
        _counts("hearts", [4, 4, 3, 1]),
        Reason.COUNTS_DO_NOT_ADD_UP,
        question="hearts",
        value=12,
        expected=13,
    )
    assert "12, not 13" in str(error)
    kingjacks = _result_step("kingjacks")
    _refused(
        kingjacks,
        Result.of({"kings": [1, 1, 1, 1], "jacks": [2, 2, 1, 0]}),
        Reason.COUNTS_DO_NOT_ADD_UP,
        question="jacks",
        value=5,
        expected=4,
    )


@pytest.mark.parametrize("wrong", [-1, 14, 99, 10**9])
def test_a_negative_or_absurd_count_is_refused_naming_the_player(wrong):
    tally = _result_step("ducking")
    error = _refused(
        tally,
        _counts("tricks", [0, wrong, 13, 0]),
        Reason.COUNT_OUT_OF_RANGE,
        seat=1,
        question="tricks",
        value=wrong,
        expected=13,
    )
    assert "East" in str(error)


def test_a_result_must_answer_exactly_what_the_contract_asks():
    tally = _result_step("kingjacks")
    _refused(tally, _counts("kings", [1, 1, 1, 1]), Reason.RESULT_INCOMPLETE, deal=1)
    _refused(tally, _counts("tricks", [4, 3, 3, 3]), Reason.RESULT_INCOMPLETE)
    _refused(
        tally, Result.of({"kings": [4, 0, 0], "jacks": [4, 0, 0, 0]}), Reason.RESULT_INCOMPLETE
    )
    lasttrick = _result_step("lasttrick")
    _refused(lasttrick, Result.of({"trick13": 4}), Reason.NO_SUCH_SEAT, question="trick13")
    _refused(lasttrick, Result((("trick13", True),)), Reason.NO_SUCH_SEAT)  # type: ignore[arg-type]


def test_who_took_the_one_thing_scores_it():
    cases = {
        "kingofhearts": ({"KH": 2}, [0, 0, -50, 0]),
        "lasttrick": ({"trick13": 1}, [0, -50, 0, 0]),
        "domino": ({"last": 3}, [0, 0, 0, -50]),
    }
    for contract, (answers, scores) in cases.items():
        tally = _result_step(contract)
        tally.apply(Result.of(answers))
        assert list(tally.deals[0].final) == scores
    twelve = _result_step("seventhirteenth", TWELVE)
    twelve.apply(Result.of({"trick7": 0, "trick13": 0}))
    assert list(twelve.deals[0].final) == [-100, 0, 0, 0]


def test_each_step_in_its_turn():
    tally = Tally()
    _refused(tally, PASSED, Reason.WRONG_PHASE, deal=1)
    _refused(tally, _counts("tricks", [4, 3, 3, 3]), Reason.WRONG_PHASE)
    tally.apply(Choose("ducking"))
    _refused(tally, Choose("hearts"), Reason.WRONG_PHASE)
    _refused(tally, _counts("tricks", [4, 3, 3, 3]), Reason.WRONG_PHASE)
    over = _entered(deals=11)
    assert over.is_over
    _refused(over, Choose("ducking"), Reason.MATCH_OVER)


# -- undo and corrections -----------------------------------------------------------------


def test_undo_takes_back_what_was_entered_of_the_deal_in_progress_then_the_last_deal():
    tally = _entered(deals=3)
    complete = tally_to_record(tally)
    contract = tally.contracts_for()[0]
    tally.apply(Choose(contract))
    tally.apply(PASSED)
    tally.apply(Undo())
    assert tally_to_record(tally) == complete and tally.step is Step.CONTRACT
    tally.apply(Undo())
    assert [d.number for d in tally.deals] == [1, 2]
    assert tally_to_record(tally) == tally_to_record(_entered(deals=2))
    _refused(Tally(), Undo(), Reason.NOTHING_TO_UNDO)


def test_a_correction_scores_the_deal_again_and_everything_after_it():
    tally = _entered(deals=8, seed=4)
    before = [list(deal.final) for deal in tally.deals]
    third = tally.deals[2]
    fixed = DealEntry(third.contract.id, PASSED, _answer_all(third.contract.id))
    tally.apply(Correct(3, fixed))
    after = [list(deal.final) for deal in tally.deals]
    assert after[:2] == before[:2] and after[3:] == before[3:]
    assert after[2] == [third.contract.total, 0, 0, 0]
    assert tally.totals() == [sum(deal[seat] for deal in after) for seat in range(4)]
    # The same as a tally entered that way from the start.
    again = _entered(deals=2, seed=4)
    for number, deal in enumerate(tally.entered[2:], start=3):
        again.apply(Choose(deal.contract))
        again.apply(deal.doubles)
        again.apply(deal.result)
        assert again.deals[-1].number == number
    assert tally_to_record(again) == tally_to_record(tally)


def test_a_correction_that_breaks_a_later_deal_is_refused_naming_that_deal():
    tally = _scripted()
    # Deal 2 (seat 3) corrected to Queens, which deal 5 played: deal 5 would break.
    _refused(
        tally,
        Correct(2, DealEntry("queens", PASSED, _answer_all("queens"))),
        Reason.CONTRACT_PLAYED,
        deal=5,
    )
    # Deal 5 (seat 2) corrected to a trump option: seat 2 took Clubs trumps in deal 1.
    fixed = DealEntry("trump-hearts", PASSED, _answer_all("trump-hearts"))
    _refused(tally, Correct(5, fixed), Reason.TRUMP_ALREADY_PICKED, deal=5, seat=2)
    # Deal 2 corrected to a contract nobody played is fine, and only deal 2 changes.
    before = [list(deal.final) for deal in tally.deals]
    tally.apply(Correct(2, DealEntry("domino", PASSED, Result.of({"last": 1}))))
    after = [list(deal.final) for deal in tally.deals]
    assert after[2:] == before[2:] and after[1] == [0, -50, 0, 0]
    assert tally.deals[1].contract.id == "domino"


def test_a_correction_is_of_a_complete_deal_with_all_its_steps():
    tally = _entered(deals=2)
    tally.apply(Choose(tally.contracts_for()[0]))
    fixed = DealEntry("ducking", PASSED, _counts("tricks", [4, 3, 3, 3]))
    _refused(tally, Correct(3, fixed), Reason.NO_SUCH_DEAL, deal=3)
    _refused(tally, Correct(0, fixed), Reason.NO_SUCH_DEAL)
    first = tally.deals[0].contract.id
    _refused(tally, Correct(1, DealEntry(first, PASSED)), Reason.RESULT_INCOMPLETE)
    _refused(tally, Correct(1, DealEntry(first)), Reason.DOUBLING_INCOMPLETE)


# -- the record and the stored entries ----------------------------------------------------


@pytest.mark.parametrize("deals", [0, 4, 11])
def test_the_record_reads_back_as_the_same_tally(deals):
    tally = _entered(deals=deals, seed=5)
    if deals == 4:
        tally.apply(Choose(tally.contracts_for()[-1]))
    record = json.loads(json.dumps(tally_to_record(tally, started="2026-01-01T20:00:00")))
    assert record["format"] == "bonken-tally/1"
    again = tally_from_record(record)
    assert tally_to_record(again, started="2026-01-01T20:00:00") == record
    assert again.step is tally.step


def test_a_record_that_breaks_a_rule_is_refused_with_its_deal():
    record = tally_to_record(_entered(deals=3, seed=5))
    record["deals"][1]["scores"][0] += 5
    with pytest.raises(RecordError, match="deal 2: scores"):
        tally_from_record(record)
    record = tally_to_record(_entered(deals=3, seed=5))
    key = next(iter(record["deals"][2]["result"]))
    answer = record["deals"][2]["result"][key]
    record["deals"][2]["result"][key] = (
        [*answer[:3], answer[3] + 1] if isinstance(answer, list) else 9
    )
    with pytest.raises(RecordError, match="deal 3: "):
        tally_from_record(record)
    record = tally_to_record(_entered(deals=2, seed=5))
    record["deals"][0].pop("result")
    with pytest.raises(RecordError, match="deal 1: is not finished"):
        tally_from_record(record)
    with pytest.raises(RecordError, match="format"):
        tally_from_record({**record, "format": "bonken-record/1"})


def test_every_entry_has_one_stored_form():
    tally = _entered(deals=2)
    deal = tally.deals[1].entry
    for entry in (
        Choose("queens"),
        Doubles((frozenset({0, 2}), frozenset(), frozenset({3}), frozenset()), confirmed=True),
        PASSED,
        _counts("hearts", [1, 2, 3, 7]),
        Result.of({"trick7": 2, "trick13": 0}),
        Undo(),
        Correct(2, deal),
    ):
        kind, value = entry_code(entry)
        assert parse_entry(kind, value) == entry


def test_the_record_in_the_rule_book_reads_as_it_says() -> None:
    """docs/rules.md, "Tally record": its example replays, scores and totals included."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
    section = text[text.index("## Tally record") :]
    example = section[section.index("```json") + len("```json") : section.index("```\n\n")]
    tally = tally_from_record(json.loads(example))
    assert tally.number == 2 and tally.current is not None
    assert tally.current.contract.id == "kingjacks"
