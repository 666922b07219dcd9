"""After the match: replay every deal, and review where each player lost points.

Pure Python on the engine and the computer players (no Discord; the store only in
:mod:`.service`):

- :mod:`.replay`: every point of a finished match, all hands face up, addressed by
  ``(deal, step)`` (:class:`Address`, ``"4.17"``), stepped through by :class:`Replay`;
- :mod:`.analysis`: one seat's decisions valued by the hard player's search from the
  seat's own information, a deal at a time (:func:`review_deal`), graded by
  :mod:`.grades`, with one-line reasons (:mod:`.reasons`), the hindsight line
  (:mod:`.hindsight`) and the hands' luck;
- :mod:`.result`: what a review finds, as frozen values that round-trip through JSON;
- :mod:`.runner`: a review off the event loop, a deal at a time in low-priority worker
  processes, with progress, resuming and cancelling;
- :mod:`.service` (imported by itself: it uses the store): the bot's reviews, queued per
  server, stored, resumed after a restart;
- ``python -m bot.review``: one seat's review of a record file (:mod:`.__main__`).
"""

from .analysis import ReviewError, assemble, finished_match, review_deal
from .grades import LINES, Grade, grade, stake
from .replay import Address, DealLabel, Replay, ReplayError, ReplayPoint
from .result import (
    DealReview,
    DecisionReview,
    Explanation,
    Hindsight,
    Option,
    PlayerReview,
    ReviewSettings,
)
from .runner import review_executor, run_review

__all__ = [
    "LINES",
    "Address",
    "DealLabel",
    "DealReview",
    "DecisionReview",
    "Explanation",
    "Grade",
    "Hindsight",
    "Option",
    "PlayerReview",
    "Replay",
    "ReplayError",
    "ReplayPoint",
    "ReviewError",
    "ReviewSettings",
    "assemble",
    "finished_match",
    "grade",
    "review_deal",
    "review_executor",
    "run_review",
    "stake",
]
