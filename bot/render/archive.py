"""The finished-match service's refusals in the reader's language, by their reason.

One set of words for "the finished match this is about" wherever a match is looked
back at (the replay, the review, the web pages); a front end adds its own words (a
command) where it needs them.
"""

from __future__ import annotations

from bot.archive import ArchiveReason, ArchiveRefusal
from bot.i18n import N_, _

SENTENCES: dict[ArchiveReason, str] = {
    ArchiveReason.NO_SERVER: N_("Bonken is played in a server's text channel"),
    ArchiveReason.UNKNOWN: N_("there is no match {match} on this server; pick one from the list"),
    ArchiveReason.IN_PLAY: N_(
        "match {match} is still being played (deal {deal} of {deals}); it can be looked at "
        "once it is over"
    ),
    ArchiveReason.CANCELLED: N_(
        "match {match} was cancelled before its end: there is nothing to look back at"
    ),
    ArchiveReason.NONE_HERE: N_(
        "no match played with cards has finished in this channel yet; pick one of this "
        "server's matches from the list"
    ),
    ArchiveReason.NOT_REPLAYABLE: N_(
        "the record of match {match} cannot be replayed; the error has been logged"
    ),
    ArchiveReason.NO_SUCH_POINT: N_("that button does not lead to a point of this match"),
}


def refusal_text(refusal: ArchiveRefusal) -> str:
    """The refusal in the current language, naming the match and how far it is."""
    match = refusal.typed if refusal.reason is ArchiveReason.UNKNOWN else refusal.match_id
    return _(
        SENTENCES[refusal.reason],
        match="?" if match is None else match,
        deal="?" if refusal.deal is None else refusal.deal,
        deals="?" if refusal.deals is None else refusal.deals,
    )
