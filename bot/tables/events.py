"""What happened at a table, as plain data for any front end to render.

The service publishes these in order through one callback. They carry ids, seats, card
codes and numbers, never discord objects, so the Discord cogs, the text demo and the
tests all read the same stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine import Card, Phase


@dataclass(frozen=True, slots=True)
class Event:
    table_id: int
    channel_id: int


Words = tuple[str, tuple[tuple[str, str], ...]]
"""A sentence as its catalogue message (English, with ``{placeholders}``) and the values
of its placeholders."""


@dataclass(frozen=True, slots=True)
class LobbyChanged(Event):
    """Someone joined, left, was added or kicked, or the host changed: ``what`` in
    English, ``words`` the same as its catalogue message and the names it quotes, so a
    front end can say it in its reader's language."""

    what: str
    words: Words = ("", ())


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table is gone: cancelled, idle, or its match finished (``finished``);
    ``reason`` is a catalogue message (``N_``), so a front end translates it as it is."""

    reason: str
    finished: bool = False


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    deal_number: int  # 1-based
    dealer: int
    chooser: int


@dataclass(frozen=True, slots=True)
class ContractChosen(Event):
    seat: int
    contract: str
    by_computer: bool


@dataclass(frozen=True, slots=True)
class Doubled(Event):
    """One doubling turn: ``doubles`` and ``redoubles`` name seats; both empty is a pass."""

    seat: int
    doubles: tuple[int, ...]
    redoubles: tuple[int, ...]
    by_computer: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    seat: int
    card: Card
    by_computer: bool


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    number: int  # 1-13
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in play order
    winner: int
    points: int
    ended_early: bool  # nothing left in the deal can score


@dataclass(frozen=True, slots=True)
class DealScored(Event):
    deal_number: int
    contract: str
    base: tuple[int, ...]
    final: tuple[int, ...]
    multipliers: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    domino_out: tuple[int, ...]  # Domino: the order players went out


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    match_id: int
    names: tuple[str, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """A seat has to act; ``turn`` is what its buttons must carry, ``kind`` what it has
    to do (the engine's phase: CHOOSING, DOUBLING or PLAYING)."""

    seat: int
    kind: Phase
    turn: int
    seconds: float | None  # the human's time to act; None for a computer


@dataclass(frozen=True, slots=True)
class Reminder(Event):
    seat: int
    user_id: int
    seconds_left: float


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The player ran out of time and a computer acted for them."""

    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class SeatAway(Event):
    """Two timeouts in a row: a computer plays this seat until its player acts again."""

    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class SeatBack(Event):
    seat: int
    user_id: int


@dataclass(frozen=True, slots=True)
class TableRestored(Event):
    """The bot restarted and the table is back, before play resumes.

    ``lines`` are the last two deals' :class:`DealStarted`, :class:`TrickTaken` and
    :class:`DealScored` again, in order, rebuilt from the store: a front end posts
    the ones it had not shown yet (they may have been lost in the shutdown)."""

    lines: tuple[Event, ...]
