"""The table service: runs every table (lobby, turns, timers, computers, recovery).

It knows nothing of Discord: ids and names go in, :mod:`bot.tables.events` come out.
"""

from .computers import LEVELS, Decider, random_decider
from .errors import Refusal
from .service import TableService
from .table import SeatInfo, TableView

__all__ = [
    "LEVELS",
    "Decider",
    "Refusal",
    "SeatInfo",
    "TableService",
    "TableView",
    "random_decider",
]
