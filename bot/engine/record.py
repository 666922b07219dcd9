"""The ``bonken-record/1`` match record: write it, read it by replaying, verify it.

A match *is* its record: the engine rebuilds any position by replaying the record through
:meth:`Match.apply`, so reading a record and checking it are the same code path, and a
record that breaks a rule is refused with the deal (1-based) and the offending move.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Mapping
from typing import Any

from .actions import Choose, Double, IllegalAction, Play
from .cards import Card
from .deal import Phase
from .match import Match, check_hands
from .rules import Rules, RulesError, rules_for

FORMAT = "bonken-record/1"
MAX_DIGITS = 100
"""No number in a record comes near this; longer literals are refused before ``int()``."""


MAX_MESSAGE = 200
"""An error is one short line, even when the engine's own reason quotes a huge value."""


class RecordError(ValueError):
    """A record that cannot be read or breaks a rule; ``deal`` is 1-based or None."""

    def __init__(self, message: str, deal: int | None = None) -> None:
        self.deal = deal
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        super().__init__(message if deal is None else f"deal {deal}: {message}")


def to_record(match: Match, **extra: Any) -> dict[str, Any]:
    """The match as a record dict, with per-deal ``scores`` and the ``totals`` so far."""
    deals = []
    for deal in match.deals:
        entry: dict[str, Any] = {
            "hands": [[card.code for card in hand] for hand in deal.hands],
            "contract": deal.contract.id if deal.contract else None,
        }
        if deal.doubling:
            entry["doubling"] = [sorted(turn) for turn in deal.doubling]
        if deal.plays:
            entry["plays"] = [card.code for _, card in deal.plays]
        if deal.contract:
            entry["scores"] = deal.final_scores()
        deals.append(entry)
    return {
        "format": FORMAT,
        **match.rules.header(),
        "players": list(match.players),
        "first_dealer": match.first_dealer,
        **extra,
        "deals": deals,
        "totals": match.totals(),
    }


def public_record(match: Match, viewer: int | None = None) -> dict[str, Any]:
    """The match as every player may know it while it is played: finished deals in full,
    the deal in play without the hands (except the ``viewer`` seat's own), and no seed,
    since the seed would predict every deal still to come.

    The full record (:func:`to_record` with the seed) is for after the match. While a
    deal is in play this is not a replayable record: the hidden hands are ``null``."""
    record = to_record(match)
    deal = match.deal
    if deal is not None and not deal.is_done:
        current = record["deals"][-1]
        current["hands"] = [
            hand if seat == viewer else None for seat, hand in enumerate(current["hands"])
        ]
    return record


def dumps(match: Match, **extra: Any) -> str:
    return json.dumps(to_record(match, **extra), indent=1)


def loads(text: str) -> Match:
    """Parse and replay a record from JSON text.

    Only strict JSON is read: ``NaN`` and ``Infinity`` are not JSON, a float too large for
    a double would silently become infinity, and an integer literal of thousands of digits
    would make ``int()`` raise (or spend quadratic time), so each of them is refused here.
    """
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_float, parse_int=_int)
    except json.JSONDecodeError as error:
        raise RecordError(f"not valid JSON: {error}") from None
    except RecursionError:
        raise RecordError("not valid JSON: nested too deeply") from None
    return from_record(data)


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"not valid JSON: {name} is not a JSON number")


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise RecordError(f"not valid JSON: the number {_show(literal)} is out of range")
    return value


def _int(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_DIGITS:
        raise RecordError(f"a number of {len(literal.lstrip('-'))} digits is too long for a record")
    return int(literal)


_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = _repr.maxlong = 40
_repr.maxlevel = 3


def _show(value: Any) -> str:
    """``repr`` cut short, so a hostile value can neither flood the error line nor recurse."""
    return _repr.repr(value)


def from_record(data: Any) -> Match:
    """Replay a record dict into a :class:`Match`, refusing anything that breaks a rule."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {_show(data.get('format'))}")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError("players must be a list of four names")
    first_dealer = data.get("first_dealer", 0)
    # Seats are the integers 0-3: 1.0 == 1 and True == 1 in Python, but neither is a seat
    # (a float seat would also break list indexing further down).
    if type(first_dealer) is not int or first_dealer not in range(4):
        raise RecordError(f"first_dealer must be a seat 0-3, not {_show(first_dealer)}")
    if "deals" not in data:
        raise RecordError("deals is missing: a record lists its deals, [] before the first")
    deals = data["deals"]
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    match = Match(players, first_dealer=first_dealer, rules=_rules(data))
    for number, entry in enumerate(deals, start=1):
        if match.deals and not match.deals[-1].is_done:
            raise RecordError("is not finished but another deal follows it", number - 1)
        if number > match.rules.deals:
            raise RecordError(f"a match has only {match.rules.deals} deals", number)
        _replay_deal(match, entry, number)
    _check_optional(data, "totals", match.totals(), None)
    return match


def _rules(data: Mapping[str, Any]) -> Rules:
    """The record's ``variant`` and ``house_rules`` as rules: a real switch, so a record
    of another game is refused rather than replayed as the standard one."""
    variant = data.get("variant", "standard")
    house_rules = data.get("house_rules", {})
    if not isinstance(variant, str):
        raise RecordError(f"variant must be a variant name, not {_show(variant)}")
    if not isinstance(house_rules, Mapping):
        raise RecordError(f"house_rules must be an object, not {_show(house_rules)}")
    try:
        return rules_for(variant, house_rules)
    except RulesError as error:
        raise RecordError(str(error)) from None


def _replay_deal(match: Match, entry: Any, number: int) -> None:
    if not isinstance(entry, Mapping):
        raise RecordError("must be a JSON object", number)
    hands = _parse_hands(entry.get("hands"), number)
    deal = match.start_deal(hands)
    contract = entry.get("contract")
    doubling = entry.get("doubling", [])
    plays = entry.get("plays", [])
    if not isinstance(doubling, list) or not isinstance(plays, list):
        raise RecordError("doubling and plays must be lists", number)
    if contract is not None and not isinstance(contract, str):
        # Checked here because a list or object is not even hashable for the lookup.
        raise RecordError(f"contract must be a contract id or null, not {_show(contract)}", number)
    if contract is None:
        if doubling or plays:
            raise RecordError("has doubling or plays but no contract", number)
        _check_optional(entry, "scores", deal.final_scores(), number)
        return
    try:
        match.apply(Choose(contract))
    except IllegalAction as error:
        raise RecordError(
            f"contract {_show(contract)} by seat {deal.chooser}: {error}", number
        ) from None
    for turn, targets in enumerate(doubling, start=1):
        # After the fourth turn to_act is the first leader, who must not be blamed.
        seat = deal.to_act if deal.phase is Phase.DOUBLING else None
        action = _parse_doubling(targets, turn, seat, number)
        try:
            match.apply(action)
        except IllegalAction as error:
            raise RecordError(f"doubling turn {turn} (seat {seat}): {error}", number) from None
    if plays and deal.phase is Phase.DOUBLING:
        raise RecordError("has plays before its doubling is complete", number)
    for index, code in enumerate(plays, start=1):
        if deal.is_done:
            raise RecordError(
                f"card {_show(code)} (play {index}) comes after the deal ended", number
            )
        try:
            card = Card.parse(code)
        except ValueError:
            raise RecordError(f"play {index}: unknown card {_show(code)}", number) from None
        seat = deal.to_act
        try:
            match.apply(Play(card))
        except IllegalAction as error:
            raise RecordError(f"card {code} (play {index}, seat {seat}): {error}", number) from None
    _check_optional(entry, "scores", deal.final_scores(), number)


def _parse_hands(hands: Any, number: int) -> list[list[Card]]:
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError("hands must be four lists of cards", number)
    parsed: list[list[Card]] = []
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(f"hands of seat {seat} must be a list", number)
        cards = []
        for code in hand:
            try:
                cards.append(Card.parse(code))
            except ValueError:
                raise RecordError(
                    f"hands of seat {seat}: unknown card {_show(code)}", number
                ) from None
        parsed.append(cards)
    try:
        check_hands(parsed)
    except ValueError as error:
        raise RecordError(f"hands: {error}", number) from None
    return parsed


def _parse_doubling(targets: Any, turn: int, seat: int | None, number: int) -> Double:
    if not isinstance(targets, list) or not all(
        isinstance(t, int) and not isinstance(t, bool) for t in targets
    ):
        raise RecordError(f"doubling turn {turn} must be a list of seats", number)
    if seat is None:
        raise RecordError(f"doubling turn {turn}: there are only four doubling turns", number)
    named: set[int] = set()
    for target in targets:
        if target in named:
            raise RecordError(
                f"doubling turn {turn} (seat {seat}) names seat {_show(target)} twice", number
            )
        named.add(target)
    return Double(frozenset(named))


def _check_optional(
    fields: Mapping[str, Any], name: str, actual: list[int], number: int | None
) -> None:
    """``scores`` and ``totals`` may be left out; when given (``null`` included) they must be
    the play's own four integers: ``1.0`` or ``true`` equal ``1`` in Python but not in a record."""
    if name not in fields:
        return
    given = fields[name]
    if given is None:
        raise RecordError(f"{name} may be left out but not null", number)
    if not (
        isinstance(given, list) and all(type(value) is int for value in given) and given == actual
    ):
        raise RecordError(
            f"{name} {_show(given)} do not match the play, which gives {actual!r}", number
        )


def summary(match: Match) -> dict[str, Any]:
    """What ``python -m bot.engine verify`` prints for a valid record."""
    return {
        "complete": match.is_over,
        "deals": [
            {"contract": deal.contract.id, "base": list(deal.base), "final": deal.final_scores()}
            for deal in match.deals
            if deal.contract is not None
        ],
        "totals": match.totals(),
    }
