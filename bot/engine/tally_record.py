"""The ``bonken-tally/1`` record of a tally, and the short form of each entry.

A tally's record is a match record without cards: the rules, the players, the first
dealer and per deal its contract, its doubling (as a match record writes it: one list per
turn, in doubling order), the result as entered and the deal's scores, then the totals::

    {"format": "bonken-tally/1", "variant": "standard", "players": [...],
     "first_dealer": 0, "deals": [
        {"contract": "queens", "doubling": [[1], [], [3], []],
         "result": {"queens": [1, 2, 0, 1]}, "scores": [-30, -60, 0, -30]},
        {"contract": "kingofhearts", "doubling": [[], [], [], []],
         "result": {"KH": 2}, "scores": [0, 0, -50, 0]}],
     "totals": [...]}

A count is four numbers, seat 0 first; a one-thing answer (``"KH"``, ``"trick13"``,
``"last"`` in Domino) is the seat that took it. ``"doubles_confirmed": true`` says the
players vouched for a Domino double under ``domino_doubling: ace_or_two``. Only the last
deal may be unfinished (no result yet, or no doubling either). Reading a record replays it
through :class:`~bot.engine.tally.Tally`, so a record that breaks a rule is refused with
the deal, as a match record is; ``scores`` and ``totals`` are checked when present.

The store keeps a tally as its entries, each a ``(kind, value)`` pair of text
(:func:`entry_code`, :func:`parse_entry`), replayed in order.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .actions import Choose
from .record import RecordError, _check_optional, _rules, _show
from .tally import (
    Correct,
    DealEntry,
    Doubles,
    Entry,
    Result,
    Tally,
    TallyError,
    Undo,
)

FORMAT = "bonken-tally/1"
ENTRY_KINDS = ("contract", "doubling", "result", "undo", "correct")
"""The kinds of stored entries, as :func:`entry_code` names them."""


def deal_json(deal: DealEntry) -> dict[str, Any]:
    """One deal as the record writes it (without its scores)."""
    written: dict[str, Any] = {"contract": deal.contract}
    if deal.doubles is not None:
        written.update(_doubles_json(deal.doubles))
    if deal.result is not None:
        written["result"] = _result_json(deal.result)
    return written


def _doubles_json(doubles: Doubles) -> dict[str, Any]:
    written: dict[str, Any] = {"doubling": [sorted(turn) for turn in doubles.turns]}
    if doubles.confirmed:
        written["doubles_confirmed"] = True
    return written


def _result_json(result: Result) -> dict[str, Any]:
    return {
        key: list(answer) if isinstance(answer, tuple) else answer for key, answer in result.answers
    }


def parse_deal(data: Any) -> DealEntry:
    """A deal of a record (its ``scores`` aside); ``ValueError`` for a malformed one.
    Whether it keeps the rules is the tally's question."""
    if not isinstance(data, Mapping):
        raise ValueError("must be a JSON object")
    contract = data.get("contract")
    if not isinstance(contract, str):
        raise ValueError(f"contract must be a contract id, not {_show(contract)}")
    doubles = _parse_doubles(data) if "doubling" in data else None
    if "result" in data:
        if doubles is None:
            raise ValueError("has a result but no doubling")
        return DealEntry(contract, doubles, _parse_result(data["result"]))
    return DealEntry(contract, doubles)


def _parse_doubles(data: Any) -> Doubles:
    if not isinstance(data, Mapping):
        raise ValueError("doubling must be given as an object")
    turns = data.get("doubling")
    confirmed = data.get("doubles_confirmed", False)
    if not isinstance(turns, list):
        raise ValueError("doubling must be a list of turns")
    if type(confirmed) is not bool:
        raise ValueError(f"doubles_confirmed must be true or false, not {_show(confirmed)}")
    parsed = []
    for turn, targets in enumerate(turns, start=1):
        if not isinstance(targets, list) or not all(type(t) is int for t in targets):
            raise ValueError(f"doubling turn {turn} must be a list of seats")
        if len(set(targets)) != len(targets):
            raise ValueError(f"doubling turn {turn} names a seat twice")
        parsed.append(frozenset(targets))
    return Doubles(tuple(parsed), confirmed)


def _parse_result(data: Any) -> Result:
    if not isinstance(data, Mapping) or not all(isinstance(key, str) for key in data):
        raise ValueError("result must be an object of answers")
    answers: dict[str, list[int] | int] = {}
    for key, answer in data.items():
        counts = isinstance(answer, list) and all(type(count) is int for count in answer)
        if type(answer) is not int and not counts:
            raise ValueError(f"result {key}: a seat or a list of counts, not {_show(answer)}")
        answers[key] = answer
    return Result.of(answers)


def tally_to_record(tally: Tally, **extra: Any) -> dict[str, Any]:
    """The tally as a record dict, with each complete deal's ``scores`` and the ``totals``."""
    deals = []
    for deal in tally.deals:
        deals.append({**deal_json(deal.entry), "scores": list(deal.final)})
    if tally.current is not None:
        deals.append(deal_json(tally.current.entry))
    return {
        "format": FORMAT,
        **tally.rules.header(),
        "players": list(tally.players),
        "first_dealer": tally.first_dealer,
        **extra,
        "deals": deals,
        "totals": tally.totals(),
    }


def tally_from_record(data: Any) -> Tally:
    """Replay a tally record, refusing anything that breaks a rule (:class:`RecordError`)."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {_show(data.get('format'))}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise RecordError("players must be a list of four names")
    first_dealer = data.get("first_dealer", 0)
    if type(first_dealer) is not int:
        raise RecordError(f"first_dealer must be a seat 0-3, not {_show(first_dealer)}")
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    try:
        tally = Tally(players, first_dealer=first_dealer, rules=_rules(data))
    except ValueError as error:
        raise RecordError(str(error)) from None
    for number, written in enumerate(deals, start=1):
        if tally.current is not None:
            raise RecordError("is not finished but another deal follows it", number - 1)
        if number > tally.rules.deals:
            raise RecordError(f"a match has only {tally.rules.deals} deals", number)
        try:
            deal = parse_deal(written)
            tally.apply(Choose(deal.contract))
            if deal.doubles is not None:
                tally.apply(deal.doubles)
            if deal.result is not None:
                tally.apply(deal.result)
        except TallyError as error:
            raise RecordError(str(error), number) from None
        except ValueError as error:
            raise RecordError(str(error), number) from None
        if deal.result is not None:
            _check_optional(written, "scores", tally.deals[-1].final_scores(), number)
    _check_optional(data, "totals", tally.totals(), None)
    return tally


def entry_code(entry: Entry) -> tuple[str, str]:
    """The stored ``(kind, value)`` of an entry: a contract's id, else JSON (or nothing)."""
    if isinstance(entry, Choose):
        return "contract", entry.contract
    if isinstance(entry, Doubles):
        return "doubling", json.dumps(_doubles_json(entry))
    if isinstance(entry, Result):
        return "result", json.dumps(_result_json(entry))
    if isinstance(entry, Undo):
        return "undo", ""
    return "correct", json.dumps({"deal": entry.number, **deal_json(entry.deal)})


def parse_entry(kind: str, value: str) -> Entry:
    """The entry :func:`entry_code` wrote as ``(kind, value)``; ``ValueError`` otherwise."""
    if kind == "contract":
        return Choose(value)
    if kind == "undo":
        return Undo()
    if kind not in ENTRY_KINDS:
        raise ValueError(f"not a tally entry: {kind!r}")
    data = json.loads(value)
    if kind == "doubling":
        return _parse_doubles(data)
    if kind == "result":
        return _parse_result(data)
    number = data.get("deal") if isinstance(data, Mapping) else None
    if type(number) is not int:
        raise ValueError("a correction names its deal")
    return Correct(number, parse_deal(data))
