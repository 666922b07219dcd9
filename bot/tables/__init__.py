"""The table service: runs every table (lobby, turns, timers, computers, recovery).

It knows nothing of Discord: ids and names go in, :mod:`bot.tables.events` come out, and
a :class:`Refusal` says why a request was not carried out, as a reason and a sentence.
"""

from .computers import LEVELS, Decider, random_decider
from .errors import Refusal, TableReason
from .service import Hand, TableService
from .table import SeatInfo, TableView

__all__ = [
    "LEVELS",
    "Decider",
    "Hand",
    "Refusal",
    "SeatInfo",
    "TableReason",
    "TableService",
    "TableView",
    "random_decider",
]
