"""Plain-text lines for table events: the demo's transcript and the channel's trick posts.

Every function takes the seat names it needs, so the same words serve the terminal demo
(plain names) and Discord (mentions).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Suit, contract_name
from bot.engine.cards import RANK_NAMES
from bot.tables import events as ev


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


def trick_summary(names: Sequence[str], event: ev.TrickTaken) -> str:
    """One finished trick as one short line of the deal message's running list:
    ``3. 9♣ K♣ 2♣ 7♦ · Ann -30`` (the cards in the order played, who took it)."""
    cards = " ".join(card.label for _, card in event.plays)
    line = f"{event.number}. {cards} · {names[event.winner]}"
    return line + (f" {signed(event.points)}" if event.points else "")


def settlement_text(names: Sequence[str], event: ev.DealScored) -> str:
    """What doubling moved, one line per player in their own point of view, e.g.
    ``Ann +20 from the double with Bob, -40 from the redouble with Cat``; pairs whose deal scores
    were equal moved nothing and are left out (as is a player nothing moved for)."""
    lines = []
    for seat in range(4):
        parts = []
        for other in range(4):
            level = event.multipliers[seat][other] if other != seat else 0
            swing = level * (event.base[seat] - event.base[other])
            if swing:
                kind = "the redouble with" if level == 2 else "the double with"
                parts.append(f"{signed(swing)} from {kind} {names[other]}")
        if parts:
            lines.append(f"{names[seat]} " + ", ".join(parts))
    return "\n".join(lines)


def tricks(count: int) -> str:
    return f"{count} trick" if count == 1 else f"{count} tricks"


def domino_rows_text(rows: Sequence[tuple[int, int, int]]) -> str:
    """Domino's suit rows as ``♣ 6–10`` (suit, lowest rank, highest rank), by suit."""
    if not rows:
        return "empty: someone must play an 8"
    return ", ".join(
        f"{Suit(suit).symbol} {RANK_NAMES[low - 2]}–{RANK_NAMES[high - 2]}"
        for suit, low, high in sorted(rows)
    )


def deal_text(names: Sequence[str], event: ev.DealScored) -> str:
    text = (
        f"Deal {event.deal_number} ({contract_name(event.contract)}) scores: "
        f"{score_line(names, event.base)}"
    )
    if event.domino_out:
        text += "\n  Out, in order: " + ", ".join(names[seat] for seat in event.domino_out)
    settlement = settlement_text(names, event)
    if settlement:
        moved = settlement.replace("\n", "\n    ")
        text += f"\n  Doubling:\n    {moved}\n  After doubling: {score_line(names, event.final)}"
    return text + f"\n  Totals: {score_line(names, event.totals)}"


def standings_text(names: Sequence[str], totals: Sequence[int], ranks: Sequence[int]) -> str:
    order = sorted(range(4), key=lambda seat: (ranks[seat], seat))
    return "\n".join(f"{ranks[seat]}. {names[seat]} {signed(totals[seat])}" for seat in order)
