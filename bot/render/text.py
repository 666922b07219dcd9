"""Plain-text lines for table events: the demo's transcript and the channel's trick posts.

Every function takes the seat names it needs, so the same words serve the terminal demo
(plain names) and Discord (mentions).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import CONTRACTS, Card
from bot.tables import events as ev


def contract_name(contract_id: str) -> str:
    return CONTRACTS[contract_id].name


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.label for card in cards)


def signed(value: int) -> str:
    return f"{value:+d}"


def score_line(names: Sequence[str], scores: Sequence[int]) -> str:
    return ", ".join(f"{name} {signed(score)}" for name, score in zip(names, scores, strict=True))


def doubling_text(names: Sequence[str], event: ev.Doubled) -> str:
    who = names[event.seat]
    if not event.doubles and not event.redoubles:
        return f"{who} passes"
    parts = []
    if event.doubles:
        parts.append("doubles " + " and ".join(names[s] for s in event.doubles))
    if event.redoubles:
        parts.append("redoubles " + " and ".join(names[s] for s in event.redoubles))
    return f"{who} " + "; ".join(parts)


def trick_text(names: Sequence[str], event: ev.TrickTaken) -> str:
    plays = ", ".join(f"{names[seat]} {card.label}" for seat, card in event.plays)
    text = f"Trick {event.number}: {plays}. {names[event.winner]} takes it"
    if event.points:
        text += f" ({signed(event.points)})"
    if event.ended_early:
        text += ". Nothing left can score: the deal ends here"
    return text + "."


def settlement_text(names: Sequence[str], event: ev.DealScored) -> str:
    """Who doubled whom and what it moved, e.g. ``Ann×Bob redoubled: Ann +40``."""
    lines = []
    for i in range(4):
        for j in range(i + 1, 4):
            level = event.multipliers[i][j]
            if not level:
                continue
            swing = level * (event.base[i] - event.base[j])
            kind = "redoubled" if level == 2 else "doubled"
            lines.append(f"{names[i]}×{names[j]} {kind}: {names[i]} {signed(swing)}")
    return "; ".join(lines)


def deal_text(names: Sequence[str], event: ev.DealScored) -> str:
    text = (
        f"Deal {event.deal_number} ({contract_name(event.contract)}) scores: "
        f"{score_line(names, event.base)}"
    )
    settlement = settlement_text(names, event)
    if settlement:
        text += f"\n  Doubling: {settlement}\n  After doubling: {score_line(names, event.final)}"
    return text + f"\n  Totals: {score_line(names, event.totals)}"


def standings_text(names: Sequence[str], totals: Sequence[int], ranks: Sequence[int]) -> str:
    order = sorted(range(4), key=lambda seat: (ranks[seat], seat))
    return "\n".join(f"{ranks[seat]}. {names[seat]} {signed(totals[seat])}" for seat in order)
