"""The three things a seat can do, as small immutable values, and the engine's errors.

Actions are what buttons send, what computer players return, what the store appends and
what a record replays. Domino passes are not actions: the engine makes them by itself.

Every action has one short text form, :attr:`code`, read back by :func:`parse_action`:
``C:queens`` (choose), ``D:13`` (double or redouble seats 1 and 3), ``D:-`` (pass) and
``P:QS`` (play the Q♠). It is at most 18 characters and uses no spaces, so it fits a
Discord custom_id, a log line and a database column alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .cards import Card


@dataclass(frozen=True, slots=True)
class Choose:
    """The chooser picks a contract (a negative contract or a trump option)."""

    contract: str

    @property
    def code(self) -> str:
        return f"C:{self.contract}"


@dataclass(frozen=True, slots=True)
class Double:
    """One doubling turn: the seats named (doubled or redoubled); empty is a pass."""

    targets: frozenset[int]

    @classmethod
    def of(cls, *seats: int) -> Double:
        return cls(frozenset(seats))

    @property
    def code(self) -> str:
        return "D:" + ("".join(str(seat) for seat in sorted(self.targets)) or "-")


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to the trick (or to the Domino table)."""

    card: Card

    @property
    def code(self) -> str:
        return f"P:{self.card.code}"


Action = Choose | Double | Play
PASS = Double(frozenset())

_CONTRACT_ID = frozenset("abcdefghijklmnopqrstuvwxyz-")


def parse_action(code: str) -> Action:
    """The action whose :attr:`code` is ``code``; ``ValueError`` for anything else.

    Only the exact form is read (``D:31`` and ``D:11`` are not codes; ``D:13`` is), so
    every action has one spelling. Whether the action is legal is the match's question.
    """
    kind, sep, rest = code.partition(":") if isinstance(code, str) else ("", "", "")
    if sep and rest:
        if kind == "C" and set(rest) <= _CONTRACT_ID:
            return Choose(rest)
        if kind == "P":
            try:
                return Play(Card.parse(rest))
            except ValueError:
                pass
        if kind == "D":
            if rest == "-":
                return PASS
            if set(rest) <= set("0123") and list(rest) == sorted(set(rest)):
                return Double(frozenset(int(seat) for seat in rest))
    raise ValueError(f"not an action code: {code!r}")


class Reason(Enum):
    """Why the engine refused an action, for front ends and translations; the
    exception's message is the same reason as a sentence for the player."""

    MATCH_OVER = "match_over"
    NO_DEAL = "no_deal"
    DEAL_IN_PROGRESS = "deal_in_progress"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    UNKNOWN_CONTRACT = "unknown_contract"
    CONTRACT_PLAYED = "contract_played"
    TRUMP_ALREADY_PICKED = "trump_already_picked"
    MUST_PICK_TRUMP = "must_pick_trump"
    NO_SUCH_SEAT = "no_such_seat"
    DOUBLE_SELF = "double_self"
    CHOOSER_ONLY_REDOUBLES = "chooser_only_redoubles"
    NOT_HELD = "not_held"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    HEART_LEAD = "heart_lead"
    MUST_TRUMP = "must_trump"
    MUST_OVERTRUMP = "must_overtrump"
    DOMINO_NOT_CONNECTED = "domino_not_connected"
    DOMINO_NO_ACE_OR_TWO = "domino_no_ace_or_two"


class IllegalAction(Exception):
    """An action that does not fit the position; the message is for the player and
    ``reason`` says the same for a program."""

    def __init__(self, message: str, reason: Reason) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[str, Reason]]:
        # Exceptions pickle as ``cls(*args)``; the reason is not in ``args``.
        return (IllegalAction, (str(self), self.reason))
