"""The private hand view: your cards as buttons, or your choice or doubling turn.

Built from a :class:`~bot.engine.SeatView` only, so it can never show another player's
cards. A card button is enabled exactly when the engine lists it in ``view.legal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine import Choose, Double, MatchPhase, Play, SeatView, Suit
from bot.engine.cards import Card
from bot.render import text
from bot.tables import SeatInfo
from bot.tables.table import SEAT_NAMES

from . import components as c
from .embeds import seat_name

MAX_PER_ROW = 5


def hand_message(
    table_id: int, turn: int, view: SeatView, seats: Sequence[SeatInfo]
) -> tuple[str, discord.ui.View]:
    """The content and components of ``view.seat``'s hand message at ``turn``; ``seats``
    name the players (as the table message names them; button labels take plain names)."""
    names = [seat.name for seat in seats]
    lines = [_header(view)]
    ui = discord.ui.View(timeout=None)
    if view.phase is MatchPhase.CHOOSING and view.my_turn:
        lines.append(f"Your hand: {_hand_text(view.hand)}")
        lines.append("**Choose the contract** for this deal:")
        ui.add_item(c.ContractSelect(table_id, turn, _contract_choices(view)))
    elif view.phase is MatchPhase.DOUBLING and view.my_turn:
        lines.append(f"Your hand: {_hand_text(view.hand)}")
        if doubling_targets(view):
            lines.append(
                "**Your doubling turn.** Toggle the players to double (or redouble), then Confirm."
            )
            for item in doubling_items(table_id, turn, view, names, frozenset()):
                ui.add_item(item)
        else:
            lines.append(f"**Your doubling turn.** {_only_a_pass(view)}")
            ui.add_item(c.DoubleConfirm.build(table_id, turn, frozenset(), is_pass=True))
    elif view.phase is MatchPhase.PLAYING:
        lines.append(_trick_text(view, [seat_name(seat) for seat in seats]))
        legal = {action.card for action in view.legal if isinstance(action, Play)}
        for row, cards in enumerate(_rows(view.hand)):
            for card in cards:
                ui.add_item(c.PlayButton(table_id, turn, card, enabled=card in legal, row=row))
        if view.my_turn:
            lines.append("**Your turn**: play one of the highlighted cards.")
    else:
        lines.append(f"Your hand: {_hand_text(view.hand)}")
    return "\n".join(lines), ui


def doubling_targets(view: SeatView) -> list[int]:
    """The seats this player may name in his doubling turn, as the engine allows."""
    return sorted(
        {seat for action in view.legal if isinstance(action, Double) for seat in action.targets}
    )


def _only_a_pass(view: SeatView) -> str:
    """Why this doubling turn can only be a pass (the engine's rules, in words)."""
    if view.seat == view.chooser and not any(view.multipliers[view.seat]):
        return "Nobody doubled you, and the chooser may only redouble: press Pass."
    return "In Domino at this table only a player holding an ace or a 2 may double: press Pass."


def doubling_items(
    table_id: int, turn: int, view: SeatView, names: list[str], chosen: frozenset[int]
) -> list[discord.ui.Item[Any]]:
    """Toggle buttons for the seats this player may name, then Confirm and Pass."""
    targets = doubling_targets(view)
    doubled_me = {j for j in range(4) if view.multipliers[view.seat][j] == 1}
    items: list[discord.ui.Item[Any]] = []
    for seat in targets:
        verb = "Redouble" if seat in doubled_me else "Double"
        items.append(c.DoubleToggle(table_id, turn, chosen, seat, f"{verb} {names[seat]}"[:80]))
    items.append(c.DoubleConfirm.build(table_id, turn, chosen, is_pass=False))
    items.append(c.DoubleConfirm.build(table_id, turn, chosen, is_pass=True))
    return items


def trump_choices(view: SeatView) -> list[tuple[str, str, str]]:
    return [choice for choice, trump in _choices(view) if trump]


def _choices(view: SeatView) -> list[tuple[tuple[str, str, str], bool]]:
    """Each contract ``view``'s seat may choose, as (value, label, description) for the
    select, with whether it is a trump option; names and points are the table's rules'."""
    contracts = view.rules.by_id
    return [
        ((c.id, c.name, c.description), c.is_trump_option)
        for c in (contracts[a.contract] for a in view.legal if isinstance(a, Choose))
    ]


def _contract_choices(view: SeatView) -> list[tuple[str, str, str]]:
    """(value, label, description) for the select: negatives, then one Trumps entry."""
    choices = [choice for choice, trump in _choices(view) if not trump]
    trumps = trump_choices(view)
    if trumps:
        left = ", ".join(name for _, name, _ in trumps)
        per_trick = view.rules.by_id[trumps[0][0]].per_trick
        choices.append((c.TRUMPS, "Trumps…", f"{per_trick:+d} per trick; then pick from: {left}"))
    return choices


def _header(view: SeatView) -> str:
    contract = view.contract.name if view.contract else "contract not chosen yet"
    return (
        f"**Deal {view.deal_number} · {contract}** · you are {SEAT_NAMES[view.seat]}"
        f" · match total {text.signed(view.totals[view.seat])}"
    )


def _trick_text(view: SeatView, names: list[str]) -> str:
    if not view.trick:
        if view.contract is not None and view.contract.domino:
            rows = [(int(suit), low, high) for suit, (low, high) in view.domino_rows.items()]
            return "Table: " + text.domino_rows_text(rows)
        return "No cards on the table yet."
    plays = ", ".join(f"{names[seat]} {card.label}" for seat, card in view.trick)
    return f"On the table: {plays}"


def _hand_text(hand: tuple[Card, ...]) -> str:
    by_suit = [[card for card in hand if card.suit is suit] for suit in Suit]
    return "  ".join(" ".join(card.label for card in cards) for cards in by_suit if cards)


def _rows(hand: tuple[Card, ...]) -> list[list[Card]]:
    """Cards grouped by suit, one suit per row, a long suit wrapping (at most 5 rows)."""
    rows: list[list[Card]] = []
    for suit in Suit:
        cards = [card for card in hand if card.suit is suit]
        rows.extend(cards[i : i + MAX_PER_ROW] for i in range(0, len(cards), MAX_PER_ROW))
    return rows
