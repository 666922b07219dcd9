"""Pure Bonken rules: no discord, no asyncio, no I/O.

``Match.legal_actions()`` and ``Match.apply()`` are the single source of truth for what a
seat may do (``apply`` returns the :class:`Outcome`); ``seat_view()`` is what a seat may
know and ``public_view()`` what everyone may; a :class:`Rules` value says which game is
played; ``bot.engine.record`` reads and writes the ``bonken-record/1`` interchange format.
"""

from .actions import PASS, Action, Choose, Double, IllegalAction, Play, Reason, parse_action
from .cards import CARDS, Card, Suit, deal_hands
from .contracts import CONTRACTS, NEGATIVE_IDS, TRUMP_IDS, Contract
from .deal import Deal, Outcome, Phase, Trick, settle, settle_seat
from .house_rules import HOUSE_RULES, DominoDoubling, HeartLead, HouseRule
from .match import DEALS_PER_MATCH, Match, MatchPhase
from .record import RecordError, from_record, public_record, to_record
from .rules import STANDARD, TWELVE, VARIANTS, Rules, RulesError, any_contract, rules_for
from .view import PublicView, SeatView, public_view, seat_view

__all__ = [
    "CARDS",
    "CONTRACTS",
    "DEALS_PER_MATCH",
    "HOUSE_RULES",
    "NEGATIVE_IDS",
    "PASS",
    "STANDARD",
    "TRUMP_IDS",
    "TWELVE",
    "VARIANTS",
    "Action",
    "Card",
    "Choose",
    "Contract",
    "Deal",
    "DominoDoubling",
    "Double",
    "HeartLead",
    "HouseRule",
    "IllegalAction",
    "Match",
    "MatchPhase",
    "Outcome",
    "Phase",
    "Play",
    "PublicView",
    "Reason",
    "RecordError",
    "Rules",
    "RulesError",
    "SeatView",
    "Suit",
    "Trick",
    "any_contract",
    "deal_hands",
    "from_record",
    "parse_action",
    "public_record",
    "public_view",
    "rules_for",
    "seat_view",
    "settle",
    "settle_seat",
    "to_record",
]
