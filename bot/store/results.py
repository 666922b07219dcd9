"""What a finished match adds up to: per-seat results and per-player season contributions.

Pure functions of the replayed match and the stored actions, so what counts in the
standings is exactly what the record says, not what a caller claims.

A season mixes variants, and ``twelve`` scores twice what ``standard`` does (each side of
its contracts totals 1040 points, not 520), so the season's points are *standard points*:
a match's points times :func:`standard_scale` of its rules, rounded to whole points. A
match's own results (``match_results``) keep the points as played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import STANDARD, Match, Rules

from .models import Human, MatchSeat, SeatResult


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractLine:
    contract: str
    deals: int
    base_points: int
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Contribution:
    """What one human's season row gains from one or more finished matches."""

    user_id: int
    matches: int
    wins: int
    points: int
    takeovers: int
    doubles_made: int
    doubles_received: int
    doubling_won: int
    doubling_lost: int
    contracts: tuple[ContractLine, ...]


def seat_results(
    match: Match, seats: Sequence[MatchSeat], acted: Sequence[tuple[int, bool]]
) -> tuple[SeatResult, ...]:
    """Each seat's total, rank, deal scores and takeovers.

    ``acted`` is ``(seat, by_computer)`` for every action in order; a takeover is a run of
    a human seat's own moves made by the computer, so a seat played for after three
    timeouts in a row counts one takeover, and three separate timeouts count three.
    """
    totals, ranks = match.totals(), match.ranking()
    deal_points = [deal.final_scores() for deal in match.deals]
    takeovers = [0, 0, 0, 0]
    previous = [False, False, False, False]
    for seat, by_computer in acted:
        if by_computer and not previous[seat]:
            takeovers[seat] += 1
        previous[seat] = by_computer
    return tuple(
        SeatResult(
            seat=s.seat,
            name=s.name,
            occupant=s.occupant,
            points=totals[s.seat],
            rank=ranks[s.seat],
            deal_points=tuple(scores[s.seat] for scores in deal_points),
            takeovers=takeovers[s.seat] if isinstance(s.occupant, Human) else 0,
        )
        for s in seats
    )


def standard_scale(rules: Rules) -> float:
    """What one point of ``rules`` is worth in the standard game: the ratio of what their
    negative contracts total (1 for standard, 1/2 for twelve)."""

    def negatives(r: Rules) -> int:
        return sum(r.by_id[cid].total for cid in r.negative_ids)

    return negatives(STANDARD) / negatives(rules)


def contributions(match: Match, results: Sequence[SeatResult]) -> list[Contribution]:
    """One contribution per human seat, in standard points; computers never reach the
    standings."""
    scale = standard_scale(match.rules)

    def standard(points: int) -> int:
        return round(points * scale)

    out = []
    for result in results:
        if not isinstance(result.occupant, Human):
            continue
        seat = result.seat
        made = received = won = lost = 0
        contracts = []
        for deal in match.deals:
            assert deal.contract is not None
            for turn, targets in zip(deal.doubling_order, deal.doubling, strict=False):
                if turn == seat:
                    made += len(targets)
                elif seat in targets:
                    received += 1
            base, final = deal.base[seat], deal.final_scores()[seat]
            won += standard(max(final - base, 0))
            lost += standard(min(final - base, 0))
            contracts.append(
                ContractLine(
                    contract=deal.contract.id,
                    deals=1,
                    base_points=standard(base),
                    points=standard(final),
                )
            )
        out.append(
            Contribution(
                user_id=result.occupant.user_id,
                matches=1,
                wins=int(result.rank == 1),
                points=standard(result.points),
                takeovers=result.takeovers,
                doubles_made=made,
                doubles_received=received,
                doubling_won=won,
                doubling_lost=lost,
                contracts=tuple(contracts),
            )
        )
    return out
