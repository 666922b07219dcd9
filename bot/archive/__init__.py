"""Finished matches: the one owner of "the finished match this is about".

:class:`FinishedMatchService` finds a finished match of a server (by a typed id, or the
newest played in a channel or its threads), refuses with an :class:`ArchiveRefusal` for
one that cannot be looked back at (unknown here, in play, cancelled), and gives what
looking back needs: the match's facts, its record and its :class:`~bot.review.Replay`
(built once and kept: a finished match never changes). The replay, the review and the
web pages ask it alike. No Discord here: ids in, the store's values and replays out.
"""

from .errors import ArchiveReason, ArchiveRefusal
from .service import LARGEST_ID, MATCH_ID, FinishedMatchService, parse_match_id

__all__ = [
    "LARGEST_ID",
    "MATCH_ID",
    "ArchiveReason",
    "ArchiveRefusal",
    "FinishedMatchService",
    "parse_match_id",
]
