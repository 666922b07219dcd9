"""``python -m bot.engine verify FILE|-`` and ``python -m bot.engine random --seed N``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from bot.engine import from_record, to_record
from tests.engine.engine_helpers import LAYOUT_L, SCRIPT_L, hands_from, play, start


def _run(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="module")
def random_record() -> str:
    result = _run("random", "--seed", "42")
    assert result.returncode == 0, result.stderr
    return result.stdout.decode()


def _one_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert text.endswith("\n") and text.count("\n") == 1, text
    return text.strip()


def test_random_prints_a_valid_complete_record(random_record):
    assert random_record.count("\n") == 1  # one JSON document on one line
    record = json.loads(random_record)
    assert record["format"] == "bonken-record/1"
    assert record["seed"] == 42
    match = from_record(record)
    assert match.is_over and len(match.deals) == 11
    assert sum(record["totals"]) == 0


def test_random_is_deterministic_for_a_seed(random_record):
    assert _run("random", "--seed", "42").stdout.decode() == random_record
    other = json.loads(_run("random", "--seed", "43").stdout)
    assert other["deals"] != json.loads(random_record)["deals"]


def test_verify_a_valid_complete_record_from_a_file(random_record, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(random_record, encoding="utf-8")
    result = _run("verify", str(path))
    assert result.returncode == 0 and result.stderr == b""
    out = result.stdout.decode()
    assert out.count("\n") == 1
    summary = json.loads(out)
    record = json.loads(random_record)
    assert set(summary) == {"complete", "deals", "totals"}
    assert summary["complete"] is True
    assert summary["totals"] == record["totals"]
    assert [d["contract"] for d in summary["deals"]] == [d["contract"] for d in record["deals"]]
    assert [d["final"] for d in summary["deals"]] == [d["scores"] for d in record["deals"]]
    for deal in summary["deals"]:
        assert set(deal) == {"contract", "base", "final"}
        assert sum(deal["base"]) == sum(deal["final"])


def test_verify_reads_standard_input_with_a_dash(random_record):
    result = _run("verify", "-", stdin=random_record)
    assert result.returncode == 0 and result.stderr == b""
    assert json.loads(result.stdout)["complete"] is True


def test_verify_an_unfinished_record_gives_the_scores_so_far():
    # Doubled ducking on the hand-built deal, stopped after trick 8.
    match = start(hands_from(LAYOUT_L), "ducking", doubling=([1], [1, 3], [3, 2], [1]))
    play(match, *SCRIPT_L[:8])
    result = _run("verify", "-", stdin=json.dumps(to_record(match)))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    # Seat 1 took tricks 1-7 (-35), seat 3 trick 8 (-5); m01 = m03 = 1, m12 = m13 = 2:
    # 0: 35 + 5 = 40; 1: -35 - 35 - 2*35 - 2*30 = -200; 2: 2*35 = 70; 3: -5 - 5 + 2*30 = 50.
    assert summary == {
        "complete": False,
        "deals": [{"contract": "ducking", "base": [0, -35, 0, -5], "final": [40, -200, 70, 50]}],
        "totals": [40, -200, 70, 50],
    }


def test_verify_an_invalid_card_exits_1_with_one_line_naming_deal_and_card(random_record):
    record = json.loads(random_record)
    plays = record["deals"][4]["plays"]
    plays[1] = plays[0]  # the second player plays the card the first just played
    record.pop("totals")
    for deal in record["deals"]:
        deal.pop("scores")
    result = _run("verify", "-", stdin=json.dumps(record))
    assert result.returncode == 1 and result.stdout == b""
    line = _one_line(result.stderr)
    assert line.startswith(f"deal 5: card {plays[0]} (play 2, seat ")
    assert "you do not hold" in line


def test_verify_an_invalid_contract_names_deal_and_contract():
    match = start(hands_from(LAYOUT_L), "ducking")
    record = to_record(match)
    record["deals"][0]["contract"] = "Ducking"
    result = _run("verify", "-", stdin=json.dumps(record))
    assert result.returncode == 1 and result.stdout == b""
    line = _one_line(result.stderr)
    assert line.startswith("deal 1: contract 'Ducking' by seat 2")


def test_verify_an_invalid_doubling_names_deal_and_seat():
    match = start(hands_from(LAYOUT_L), "ducking", doubling=())
    record = to_record(match)
    record["deals"][0]["doubling"] = [[3]]
    result = _run("verify", "-", stdin=json.dumps(record))
    assert result.returncode == 1
    assert _one_line(result.stderr) == (
        "deal 1: doubling turn 1 (seat 3): you cannot double yourself"
    )


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "bonken-record/0", "players": ["a", "b", "c", "d"]}', "format"),
        ('{"format": "bonken-record/1", "players": ["a", "b"]}', "players"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_verify_errors_outside_any_deal_have_no_deal_number(stdin, message):
    result = _run("verify", "-", stdin=stdin)
    assert result.returncode == 1 and result.stdout == b""
    line = _one_line(result.stderr)
    assert message in line and "deal " not in line


def test_verify_a_missing_file_exits_1_with_one_line(tmp_path):
    result = _run("verify", str(tmp_path / "nope.json"))
    assert result.returncode == 1
    assert "cannot read" in _one_line(result.stderr)


def test_verify_a_file_that_is_not_utf8_exits_1_with_one_line(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff")
    result = _run("verify", str(path))
    assert result.returncode == 1 and result.stdout == b""
    assert "not UTF-8" in _one_line(result.stderr)


def _hostile_records(random_record: str) -> dict[str, tuple[str, str]]:
    """Each bad record as text, with the one line ``verify`` must print for it."""
    head = '{"format": "bonken-record/1", "players": ["a", "b", "c", "d"]'
    record = json.loads(random_record)
    record.pop("totals")
    twelve = copy.deepcopy(record)
    twelve["deals"].append({"hands": record["deals"][0]["hands"], "contract": None})
    twice = copy.deepcopy(record)
    twice["deals"][0]["doubling"][1] = [1, 1]
    hands = json.dumps(record["deals"][0]["hands"])
    deep = "[" * 50_000 + "]" * 50_000
    return {
        "huge int": (
            head + ', "first_dealer": ' + "7" * 5000 + ', "deals": []}',
            "a number of 5000 digits is too long for a record",
        ),
        "NaN": (head + ', "first_dealer": NaN, "deals": []}', "not valid JSON: NaN is not"),
        "Infinity": (head + ', "deals": [], "totals": [Infinity]}', "not valid JSON: Infinity"),
        "huge float": (head + ', "deals": [1e400]}', "not valid JSON: the number '1e400'"),
        "deep": (head + ', "deals": ' + deep + "}", "not valid JSON: nested too deeply"),
        "no deals": (head + "}", "deals is missing"),
        "totals null": (head + ', "deals": [], "totals": null}', "totals may be left out but not"),
        "scores null": (
            head + ', "deals": [{"hands": ' + hands + ', "scores": null}]}',
            "deal 1: scores may be left out but not null",
        ),
        "deal 12": (json.dumps(twelve), "deal 12: a match has only 11 deals"),
        "seat twice": (json.dumps(twice), "deal 1: doubling turn 2 (seat "),
        "seat twice'": (json.dumps(twice), ") names seat 1 twice"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "huge int",
        "NaN",
        "Infinity",
        "huge float",
        "deep",
        "no deals",
        "totals null",
        "scores null",
        "deal 12",
        "seat twice",
    ],
)
def test_verify_a_hostile_record_exits_1_with_one_line(random_record, case):
    records = _hostile_records(random_record)
    text, message = records[case]
    result = _run("verify", "-", stdin=text)
    assert result.returncode == 1 and result.stdout == b"", result.stderr[-500:]
    line = _one_line(result.stderr)
    assert message in line and len(line) < 300, line
    if case + "'" in records:
        assert records[case + "'"][1] in line, line


def test_random_writes_a_twelve_record_with_house_rules_that_verify_accepts():
    made = _run(
        "random", "--seed", "5", "--variant", "twelve", "--house-rules", '{"heart_lead": "broken"}'
    )
    assert made.returncode == 0, made.stderr
    record = json.loads(made.stdout)
    assert record["variant"] == "twelve" and record["house_rules"] == {"heart_lead": "broken"}
    assert len(record["deals"]) == 12
    checked = _run("verify", "-", stdin=made.stdout)
    assert checked.returncode == 0, checked.stderr
    summary = json.loads(checked.stdout)
    assert summary["complete"] and len(summary["deals"]) == 12 and sum(summary["totals"]) == 0
    assert "seventhirteenth" in {deal["contract"] for deal in summary["deals"]}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variant", "Twelve"), "unknown variant 'Twelve'; known: standard, twelve"),
        (("--house-rules", '{"heart_lead": "sometimes"}'), "unknown value 'sometimes'"),
        (("--house-rules", "{not json"), "--house-rules must be a JSON object"),
    ],
)
def test_random_refuses_unknown_rules_in_one_line(args, message):
    made = _run("random", *args)
    assert made.returncode == 2 and made.stdout == b""
    assert message in _one_line(made.stderr)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"variant": "thirteen"}, "unknown variant 'thirteen'; known: standard, twelve"),
        ({"house_rules": {"first_lead": "right"}}, "unknown value 'right' for house rule"),
    ],
)
def test_verify_refuses_unknown_variants_and_house_rules_without_a_deal_number(
    random_record, header, message
):
    checked = _run("verify", "-", stdin=json.dumps({**json.loads(random_record), **header}))
    assert checked.returncode == 1
    line = _one_line(checked.stderr)
    assert message in line and not line.startswith("deal ")
