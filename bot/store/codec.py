"""How engine and service values are written into columns and read back.

Kept in one place so the column formats are documented once:

- times are integer Unix milliseconds (UTC), compact and sortable;
- an action is a ``kind`` (``choose``, ``double``, ``play``) and a ``value``: the contract
  id, the doubled seats as sorted digits (``"13"``; ``""`` is a pass), or the card code;
- a deal's hands are the 52 card codes, seat 0's 13 first, in one 104-character string;
- a seat occupant is a user id or a computer level, exactly one of the two columns.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.engine import Action, Card, Choose, Double, Match
from bot.engine.record import FORMAT

from .models import Computer, Human, SeatOccupant


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def to_datetime(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC)


def optional_datetime(ms: int | None) -> datetime | None:
    return None if ms is None else to_datetime(ms)


def encode_action(action: Action) -> tuple[str, str]:
    if isinstance(action, Choose):
        return "choose", action.contract
    if isinstance(action, Double):
        return "double", "".join(str(seat) for seat in sorted(action.targets))
    return "play", action.card.code


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


def actions_taken(match: Match) -> int:
    """How many actions ``match`` has had: the number its next action is stored under.

    The table service can use it as the turn number on buttons, so a stale click carries
    a number that is already stored and is refused.
    """
    return sum(
        (deal.contract is not None) + len(deal.doubling) + len(deal.plays) for deal in match.deals
    )


def build_record(
    players: Sequence[str],
    first_dealer: int,
    seed: int | None,
    started: datetime,
    hands: Sequence[str],
    actions: Sequence[tuple[int, str, str]],
) -> dict[str, Any]:
    """A ``bonken-record/1`` dict from stored hands and ``(deal, kind, value)`` actions.

    The record is assembled, not replayed: the engine's ``from_record`` is the one place
    that checks it, so the store never holds a second copy of the rules.
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
        "variant": "standard",
        "deals": deals,
    }
    if seed is not None:
        record["seed"] = seed
    return record
