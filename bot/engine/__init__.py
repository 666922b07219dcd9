"""Pure Bonken rules: no discord, no asyncio, no I/O.

``Match.legal_actions()`` and ``Match.apply()`` are the single source of truth for what a
seat may do; ``seat_view()`` is what a seat may know; ``bot.engine.record`` reads and
writes the ``bonken-record/1`` interchange format.
"""

from .actions import PASS, Action, Choose, Double, IllegalAction, Play
from .cards import CARDS, Card, Suit, deal_hands
from .contracts import CONTRACTS, NEGATIVE_IDS, TRUMP_IDS, Contract
from .deal import Deal, Phase, Trick, settle
from .match import DEALS_PER_MATCH, Match, MatchPhase
from .record import RecordError, from_record, public_record, to_record
from .view import SeatView, seat_view

__all__ = [
    "CARDS",
    "CONTRACTS",
    "DEALS_PER_MATCH",
    "NEGATIVE_IDS",
    "PASS",
    "TRUMP_IDS",
    "Action",
    "Card",
    "Choose",
    "Contract",
    "Deal",
    "Double",
    "IllegalAction",
    "Match",
    "MatchPhase",
    "Phase",
    "Play",
    "RecordError",
    "SeatView",
    "Suit",
    "Trick",
    "deal_hands",
    "from_record",
    "public_record",
    "seat_view",
    "settle",
    "to_record",
]
