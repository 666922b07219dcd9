"""A deal's public events: from the engine's outcome as play goes, and again at restore.

Play maps each :class:`~bot.engine.Outcome` that ``Match.apply`` returns to events (a
contract chosen, a doubling turn, a card, a trick, a deal scored) without working
anything out again. After a restart the trick and score events of the last two deals are
rebuilt from the replayed match, with the same constructors, so a front end can post
what it had not shown yet.
"""

from __future__ import annotations

from typing import Any

from bot.engine import Choose, Deal, Double, Match, Outcome, Trick
from bot.i18n import N_

from . import events as ev

MATCH_OVER = N_("the match is over")
"""Why a finished match's table closes."""


def match_ended(
    table_id: int, channel_id: int, match_id: int, match: Match, record: dict[str, Any]
) -> ev.MatchEnded:
    """The end of ``match``, its stored ``record`` attached."""
    return ev.MatchEnded(
        table_id,
        channel_id,
        match_id,
        match.players,
        tuple(match.totals()),
        tuple(match.ranking()),
        record,
    )


def outcome_events(
    table_id: int, channel_id: int, match: Match, outcome: Outcome, *, by_computer: bool
) -> list[ev.Event]:
    """What ``outcome`` (just applied to ``match``) announces, in order."""
    base = (table_id, channel_id)
    action = outcome.action
    events: list[ev.Event] = []
    if isinstance(action, Choose):
        events.append(ev.ContractChosen(*base, outcome.seat, action.contract, by_computer))
    elif isinstance(action, Double):
        events.append(
            ev.Doubled(*base, outcome.seat, outcome.doubles, outcome.redoubles, by_computer)
        )
    else:
        events.append(ev.CardPlayed(*base, outcome.seat, action.card, by_computer))
        if outcome.trick is not None:
            events.append(_trick_taken(*base, outcome.trick, ended_early=outcome.ended_early))
    if outcome.deal_over:
        events.append(deal_scored(*base, match, len(match.deals) - 1))
    return events


def _trick_taken(
    table_id: int, channel_id: int, trick: Trick, *, ended_early: bool
) -> ev.TrickTaken:
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


def _replayed_tricks(table_id: int, channel_id: int, deal: Deal) -> list[ev.TrickTaken]:
    """A stored deal's tricks; the last ended it early when the deal is done before all
    13 (as the outcome of its last card said)."""
    return [
        _trick_taken(
            table_id,
            channel_id,
            trick,
            ended_early=deal.is_done and trick is deal.tricks[-1] and trick.number < 13,
        )
        for trick in deal.tricks
    ]


def recent_lines(table_id: int, channel_id: int, match: Match) -> tuple[ev.Event, ...]:
    """The last two deals' start, tricks and (when finished) scores, in order."""
    lines: list[ev.Event] = []
    for index in range(max(len(match.deals) - 2, 0), len(match.deals)):
        deal = match.deals[index]
        lines.append(ev.DealStarted(table_id, channel_id, index + 1, deal.dealer, deal.chooser))
        lines.extend(_replayed_tricks(table_id, channel_id, deal))
        if deal.is_done:
            lines.append(deal_scored(table_id, channel_id, match, index))
    return tuple(lines)
