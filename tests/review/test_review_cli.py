"""``python -m bot.review``: the JSON the issue's readers rely on, the words a player
reads, and one clear line (exit 2) for a file or seat that cannot be reviewed."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.engine.record import from_record
from bot.review.__main__ import main
from tests.review.review_helpers import kingjacks_blunder, normal_match, review_each_deal_once

WORK = ["--work", "2000"]


def _write(tmp_path: Path, record: Any, name: str = "match.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return str(path)


def _legal_counts(record: dict[str, Any], seat: int) -> dict[tuple[int, str, int], int]:
    """(deal, kind, index) -> how many legal options the seat had, for each of its
    actions, by replaying the record through the engine."""
    from bot.review.replay import walk

    match = from_record(record)
    counts = {}
    for moment in walk(match, range(len(match.deals))):
        action, scratch = moment.next_action, moment.match
        if action is None or scratch.to_act != seat:
            continue
        deal = scratch.deal
        assert deal is not None
        kind = type(action).__name__.lower()
        kind = {"play": "play", "choose": "choose", "double": "double"}[kind]
        index = {"choose": 0, "double": len(deal.doubling), "play": len(deal.plays)}[kind]
        counts[(moment.address.deal, kind, index)] = len(scratch.legal_actions())
    return counts


def test_json_lists_every_decision_with_a_choice_and_flags_the_certain_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    review_each_deal_once(monkeypatch)  # the next test reads the same review in words
    record = kingjacks_blunder()
    assert main([_write(tmp_path, record), "--seat", "1", "--json", *WORK]) == 0
    out, err = capsys.readouterr()
    review = json.loads(out)
    assert "deal 11 of 11" in err  # the progress, apart from the JSON
    decisions = review["decisions"]
    lead = next(d for d in decisions if (d["deal"], d["kind"], d["index"]) == (0, "play", 4))
    assert lead["chosen"] == "KS" and lead["best"] == "2C"
    assert lead["loss"] >= 20 and lead["class"] == "blunder"
    assert record["deals"][0]["plays"][4] == "KS"  # index: the record's own list of plays
    counts = _legal_counts(record, 1)
    listed = {(d["deal"], d["kind"], d["index"]) for d in decisions}
    assert listed == {key for key, options in counts.items() if options > 1}
    for d in decisions:
        assert d["kind"] in ("choose", "double", "play")
        assert d["loss"] >= 0
        assert d["class"] in (None, "inaccuracy", "mistake", "blunder")
        if d["kind"] == "choose":
            assert record["deals"][d["deal"]]["contract"] == d["chosen"]
        if d["kind"] == "double":
            assert isinstance(d["chosen"], list) and isinstance(d["best"], list)


def test_without_json_a_player_reads_the_summary_and_the_better_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    review_each_deal_once(monkeypatch)
    path = _write(tmp_path, kingjacks_blunder())
    assert main([path, "--seat", "1", *WORK]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Review of Bob (East)")
    assert "points lost to mistakes" in out and "blunder" in out
    assert "K♠ instead of 2♣" in out
    assert "nobody else held a ♠: K♠ was sure to take the trick, 2♣ sure to lose it" in out
    assert main([path, "--seat", "1", "--lang", "nl", *WORK]) == 0
    dutch = capsys.readouterr().out
    assert dutch.startswith("Analyse van Bob (Oost)")
    assert "H♠ in plaats van 2♣" in dutch


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("missing", "cannot read"),
        ("not json", "not valid JSON"),
        ("not over", "not over"),
        ("seat 4", "no seat 4"),
        ("seat -1", "no seat -1"),
    ],
)
def test_a_file_or_seat_that_cannot_be_reviewed_gets_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, words: str
) -> None:
    record = normal_match(21)
    unfinished = copy.deepcopy(record)
    unfinished["deals"] = unfinished["deals"][:3]
    unfinished.pop("totals")
    args = {
        "missing": [str(tmp_path / "nowhere.json")],
        "not json": [_write(tmp_path, "{not json", "bad.json")],
        "not over": [_write(tmp_path, unfinished, "unfinished.json")],
        "seat 4": [_write(tmp_path, record), "--seat", "4"],
        "seat -1": [_write(tmp_path, record), "--seat", "-1"],
    }[case]
    assert main([*args, *WORK]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_decision_that_chose_the_best_option_says_so() -> None:
    from bot.render.review import decision_line
    from bot.review import DealReview, DecisionReview
    from bot.review.replay import Address
    from bot.review.result import Option

    best = DecisionReview(
        deal=0,
        kind="play",
        index=5,
        address=Address(0, 10),
        options=(Option("P:5D", -3.0), Option("P:9D", -9.0)),
        chosen="P:5D",
        best="P:5D",
        loss=0.0,
        stake=120,
        certain=False,
        grade=None,
        reason=None,
        hindsight=None,
        guesses=10,
    )
    deal = DealReview(0, 1, "queens", 0.0, (best,))
    names = ["Ann", "Bob", "Cas", "Dirk"]
    assert decision_line(best, deal, names) == "deal 1 (Queens), trick 2: 5♦, the best option"
    worse = replace(best, chosen="P:9D", loss=6.0)
    assert decision_line(worse, deal, names) == (
        "deal 1 (Queens), trick 2: 9♦ instead of 5♦, 6 points lost"
    )


def test_points_read_as_numbers_do_in_the_readers_language() -> None:
    """One decimal, none when it rounds to a whole number, and the reader's decimal
    sign: a Dutch reader sees ``25,4``."""
    from bot import i18n
    from bot.render.review import points_text

    with i18n.using("en"):
        assert [points_text(v) for v in (53, 77.04, 25.44)] == ["53", "77", "25.4"]
        assert points_text(-29.4, signed=True) == "-29.4"
        assert points_text(25.9, signed=True) == "+25.9"
    with i18n.using("nl"):
        assert [points_text(v) for v in (53, 77.04, 25.44)] == ["53", "77", "25,4"]
        assert points_text(-29.4, signed=True) == "-29,4"
