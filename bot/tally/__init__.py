"""Tallies: the bot as the score keeper of a match played with real cards.

:class:`TallyService` opens tallies and takes their entries (checked by the engine's
rules, stored before they are acknowledged); :class:`TallyView` is what a scoresheet
shows. No Discord here: a front end passes ids and names and renders the views.
"""

from .errors import TallyReason, TallyRefusal
from .service import TallyService
from .view import Change, EnteredBy, Made, TallyView

__all__ = [
    "Change",
    "EnteredBy",
    "Made",
    "TallyReason",
    "TallyRefusal",
    "TallyService",
    "TallyView",
]
