"""The scoresheet's words: the running table, the doubles, the questions and the refusals,
in English and in Dutch."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import i18n
from bot.engine import STANDARD, TWELVE, Choose
from bot.engine.tally import PASSED, Correct, DealEntry, Doubles, Result, Undo, questions
from bot.render import tally as words
from bot.store import Store, TallySeat
from bot.tally import TallyRefusal, TallyService, TallyView
from tests.sqlite_template import fresh_sqlite

HOST = 100
SEATS = tuple(
    TallySeat(seat=seat, name=name, user_id=HOST + seat if seat < 3 else None)
    for seat, name in enumerate(("Ann", "Bob", "Cas", "Oma"))
)


def person(user_id: int) -> str:
    return f"@{user_id}"


@pytest.fixture
async def service(tmp_path: Path) -> TallyService:
    from bot.store import open_store

    store: Store = await open_store(fresh_sqlite(tmp_path / "bonken.sqlite3"))
    yield TallyService(store)
    await store.close()


async def _sheet(service: TallyService, *entries, rules=STANDARD) -> TallyView:
    view = await service.open(1, 2, HOST, SEATS, rules=rules)
    for turn, entry in enumerate(entries):
        view = await service.enter(view.tally_id, HOST + turn % 3, None, entry)
    return view


QUEENS = (
    Choose("queens"),
    # Dealer Ann (0): the doubling order is Oma, Ann, Bob, Cas; Cas chooses.
    Doubles.named((3, 0, 1, 2), [(3, 1), (1, 3), (0, 2), (2, 0)]),
    Result.of({"queens": [1, 2, 0, 1]}),
)


async def test_the_running_table_has_a_row_per_deal_and_the_totals(service) -> None:
    view = await _sheet(
        service, *QUEENS, Choose("ducking"), PASSED, Result.of({"tricks": [4, 3, 3, 3]})
    )
    table = words.running_table(view).splitlines()
    assert table[0].split() == ["Ann", "Bob", "Cas", "Oma"]
    assert table[1].split() == [
        "1",
        "Queens",
        "x",
        *(f"{s:+d}" if s else "0" for s in view.deals[0].final),
    ]
    assert table[2].split() == ["2", "Ducking", "-20", "-15", "-15", "-15"]
    assert table[3].split() == ["Total", *(f"{t:+d}" if t else "0" for t in view.totals)]


async def test_a_deal_says_what_was_entered_by_whom_and_its_scores(service) -> None:
    view = await _sheet(service, *QUEENS)
    lines = words.deal_lines(view, view.deals[0], person)
    assert lines[0] == "Cas chose Queens (entered by @100)"
    assert lines[1] == (
        "Doubles: Oma doubled Bob, who redoubled; Ann doubled Cas, who redoubled (entered by @101)"
    )
    assert lines[2] == "Result: queens: Ann 1, Bob 2, Cas 0, Oma 1 (entered by @102)"
    assert lines[3].startswith("Scores: Ann ")
    assert words.deal_title(view, 2) == "Deal 2 of 11 · Bob deals, Oma chooses"


async def test_the_doubling_menu_says_double_redouble_or_either(service) -> None:
    view = await _sheet(service, Choose("queens"))
    deal = view.current
    assert deal is not None
    options = [words.pair_text(view.names, deal, a, b) for a, b in words.pairs_in_order(deal)]
    assert len(options) == 12
    assert options[0] == "Oma doubles Ann"  # Oma is first: nobody has named her yet
    assert "Ann doubles or redoubles Oma" in options  # Oma may have doubled Ann
    assert "Cas redoubles Oma" in options  # the chooser only answers
    assert not any(o.startswith("Cas doubles") for o in options)


def test_each_contract_asks_its_questions_in_words() -> None:
    asked = {cid: [words.question_text(q) for q in questions(c)] for cid, c in TWELVE.by_id.items()}
    assert asked["hearts"] == ["How many hearts did each player take?"]
    assert asked["kingjacks"] == [
        "How many kings did each player take?",
        "How many jacks did each player take?",
    ]
    assert asked["kingofhearts"] == ["Who took the K♥?"]
    assert asked["seventhirteenth"] == ["Who took trick 7?", "Who took trick 13?"]
    assert asked["domino"] == ["Who was left holding cards?"]
    with i18n.using("nl"):
        assert words.question_text(questions(TWELVE.by_id["hearts"])[0]) != asked["hearts"][0]


async def test_a_refusal_names_the_deal_the_player_and_the_count(service) -> None:
    view = await _sheet(service, Choose("hearts"), PASSED)
    with pytest.raises(TallyRefusal) as caught:
        await service.enter(view.tally_id, HOST, None, Result.of({"hearts": [4, 4, 4, 0]}))
    assert words.refusal_text(caught.value, view) == "the hearts add up to 12, but there are 13"
    with pytest.raises(TallyRefusal) as caught:
        await service.enter(view.tally_id, HOST, None, Result.of({"hearts": [4, 14, 0, 0]}))
    assert words.refusal_text(caught.value, view) == (
        "Bob's hearts cannot be 14: it is a number from 0 to 13"
    )
    redouble = await _sheet(service, Choose("queens"))
    with pytest.raises(TallyRefusal) as caught:
        await service.enter(redouble.tally_id, HOST, None, Doubles.named((3, 0, 1, 2), [(2, 0)]))
    assert words.refusal_text(caught.value, redouble) == (
        "Cas, the chooser, may only redouble players who doubled him, and Ann did not"
    )
    # A correction that breaks a later deal names that deal.
    later = await _sheet(
        service, *QUEENS, Choose("hearts"), PASSED, Result.of({"hearts": [13, 0, 0, 0]})
    )
    fixed = DealEntry("hearts", PASSED, Result.of({"hearts": [0, 13, 0, 0]}))
    with pytest.raises(TallyRefusal) as caught:
        await service.enter(later.tally_id, HOST, None, Correct(1, fixed))
    assert words.refusal_text(caught.value, later) == (
        "deal 2: Heartshunting has already been played in this match"
    )
    with i18n.using("nl"):
        assert "Heartshunting" not in words.refusal_text(caught.value, later)


async def test_changes_are_said_with_who_made_them(service) -> None:
    view = await _sheet(service, *QUEENS, Choose("hearts"), Undo(), Undo())
    said = [words.change_text(view, change, person) for change in view.changes]
    assert said == [
        "@101 took back what was entered of deal 2",
        "@102 took back deal 1",
    ]
    view = await service.cancel(view.tally_id, HOST, None)
    assert words.change_text(view, view.changes[-1], person) == "@100 cancelled the scoresheet"
