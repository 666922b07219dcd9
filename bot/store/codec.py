"""How engine and service values are written into columns and read back.

Kept in one place so the column formats are documented once:

- times are integer Unix milliseconds (UTC), compact and sortable;
- an action is a ``kind`` (``choose``, ``double``, ``play``) and a ``value``: its engine
  :attr:`~bot.engine.Choose.code` split at the colon (``C:queens`` is ``choose``,
  ``queens``; ``D:13`` is ``double``, ``13``; ``P:QS`` is ``play``, ``QS``), except that a
  pass (``D:-``) is stored as ``""``, as it always was;
- a deal's hands are the 52 card codes, seat 0's 13 first, in one 104-character string;
- a seat occupant is a user id or a computer level, exactly one of the two columns;
- a match's rules are the record's header as JSON (``{"variant": "standard"}``), NULL
  for the standard game (every match stored before the rules were kept).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.engine import STANDARD, Action, Card, Rules, parse_action, rules_for
from bot.engine.record import FORMAT

from .models import Computer, Human, SeatOccupant


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def to_datetime(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def optional_datetime(ms: int | None) -> datetime | None:
    return None if ms is None else to_datetime(ms)


ACTION_KINDS = {"C": "choose", "D": "double", "P": "play"}
"""The store's ``kind`` column by the first letter of an action's code."""


def encode_action(action: Action) -> tuple[str, str]:
    """The ``(kind, value)`` columns, spelled by the engine's one notation (``code``)."""
    letter, _, value = action.code.partition(":")
    return ACTION_KINDS[letter], "" if value == "-" else value


def decode_action(kind: str, value: str) -> Action:
    """The action stored as the ``(kind, value)`` columns (see :func:`encode_action`)."""
    letter = next(letter for letter, name in ACTION_KINDS.items() if name == kind)
    return parse_action(f"{letter}:{value or '-'}")


def encode_hands(hands: Sequence[Sequence[Card]]) -> str:
    if len(hands) != 4 or any(len(hand) != 13 for hand in hands):
        raise ValueError("a deal is four hands of 13 cards")
    return "".join(card.code for hand in hands for card in hand)


def decode_hands(text: str) -> list[list[str]]:
    """The four hands as lists of card codes, as a record writes them."""
    codes = [text[i : i + 2] for i in range(0, len(text), 2)]
    return [codes[seat * 13 : seat * 13 + 13] for seat in range(4)]


def encode_occupant(occupant: SeatOccupant) -> tuple[int | None, str | None]:
    """The (user_id, computer_level) column pair."""
    if isinstance(occupant, Human):
        return occupant.user_id, None
    return None, occupant.level


def decode_occupant(user_id: int | None, level: str | None) -> SeatOccupant:
    return Human(user_id) if user_id is not None else Computer(str(level))


def encode_rules(rules: Rules) -> str:
    return json.dumps(rules.header(), sort_keys=True)


def rules_from_column(text: str | None) -> Rules:
    """The rules a table or a server's defaults store (NULL: the standard game)."""
    header = decode_rules(text)
    return rules_for(header["variant"], header.get("house_rules"))


def decode_rules(text: str | None) -> dict[str, Any]:
    """The record's header for a stored match's rules (the engine reads and checks it)."""
    if text is None:
        return STANDARD.header()
    header = json.loads(text)
    return dict(header) if isinstance(header, Mapping) else {"variant": header}


def build_record(
    players: Sequence[str],
    first_dealer: int,
    seed: int | None,
    started: datetime,
    hands: Sequence[str],
    actions: Sequence[tuple[int, str, str]],
    rules: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``bonken-record/1`` dict from stored hands and ``(deal, kind, value)`` actions.

    The record is assembled, not replayed: the engine's ``from_record`` is the one place
    that checks it, so the store never holds a second copy of the rules. ``rules`` is
    the match's header (:func:`decode_rules`; the standard game when None).
    """
    deals: list[dict[str, Any]] = [
        {"hands": decode_hands(text), "contract": None, "doubling": [], "plays": []}
        for text in hands
    ]
    for deal_index, kind, value in actions:
        deal = deals[deal_index]
        if kind == "choose":
            deal["contract"] = value
        elif kind == "double":
            deal["doubling"].append([int(digit) for digit in value])
        else:
            deal["plays"].append(value)
    record: dict[str, Any] = {
        "format": FORMAT,
        "players": list(players),
        "first_dealer": first_dealer,
        "started": started.isoformat(timespec="seconds"),
        **(STANDARD.header() if rules is None else rules),
        "deals": deals,
    }
    if seed is not None:
        record["seed"] = seed
    return record
