"""A deal's public events built from the deal itself: as it happens, and again at restore.

Play announces a trick and a deal's scores the moment they happen; after a restart the
same events are rebuilt from the replayed match, so a front end can post what it had
not shown yet. Both come from here, so the two can never differ.
"""

from __future__ import annotations

from bot.engine import Deal, Match, Trick

from . import events as ev


def trick_taken(table_id: int, channel_id: int, deal: Deal, trick: Trick) -> ev.TrickTaken:
    last = trick is deal.tricks[-1]
    ended_early = last and deal.is_done and trick.number < 13
    return ev.TrickTaken(
        table_id,
        channel_id,
        trick.number,
        tuple(trick.played()),
        trick.winner,
        trick.points,
        ended_early,
    )


def deal_scored(table_id: int, channel_id: int, match: Match, index: int) -> ev.DealScored:
    """Deal ``index`` (0-based, finished) scored, with the match totals after it."""
    deal = match.deals[index]
    totals = [sum(d.final_scores()[seat] for d in match.deals[: index + 1]) for seat in range(4)]
    return ev.DealScored(
        table_id,
        channel_id,
        index + 1,
        deal.contract.id if deal.contract else "",
        tuple(deal.base),
        tuple(deal.final_scores()),
        tuple(tuple(row) for row in deal.multipliers),
        tuple(totals),
        tuple(deal.out),
    )


def recent_lines(table_id: int, channel_id: int, match: Match) -> tuple[ev.Event, ...]:
    """The last two deals' start, tricks and (when finished) scores, in order."""
    lines: list[ev.Event] = []
    for index in range(max(len(match.deals) - 2, 0), len(match.deals)):
        deal = match.deals[index]
        lines.append(ev.DealStarted(table_id, channel_id, index + 1, deal.dealer, deal.chooser))
        lines.extend(trick_taken(table_id, channel_id, deal, trick) for trick in deal.tricks)
        if deal.is_done:
            lines.append(deal_scored(table_id, channel_id, match, index))
    return tuple(lines)
