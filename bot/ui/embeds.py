"""The public table message: one embed for the lobby, one per deal.

Everything here reads a :class:`~bot.tables.TableView` (public information only) and
returns a ``discord.Embed``; nothing sends or edits.
"""

from __future__ import annotations

import discord

from bot.engine import CONTRACTS, DEALS_PER_MATCH
from bot.render import text
from bot.store import TableStatus
from bot.tables import SeatInfo, TableView
from bot.tables.events import TurnKind
from bot.tables.table import SEAT_NAMES

from .replies import literal

GREEN = discord.Colour.from_rgb(31, 122, 76)
GREY = discord.Colour.light_grey()

TURN_WORDS = {
    TurnKind.CHOOSE: "to choose the contract",
    TurnKind.DOUBLE: "to double or pass",
    TurnKind.PLAY: "to play",
}


def seat_label(seat: SeatInfo, *, short: bool = False) -> str:
    """A mention for a person, the name for a computer, with what the seat is up to
    (``short``: just the mention or the name, for trick and score lines). Every seat name
    the channel shows comes through here, escaped for Markdown (a seat left during the
    match keeps its player's name)."""
    name = literal(seat.name)
    if short:
        return f"<@{seat.user_id}>" if seat.user_id is not None else name or "empty seat"
    if seat.user_id is not None:
        label = f"<@{seat.user_id}>"
        if seat.away:
            label += " (away: a computer plays)"
        return label
    if seat.level is None:
        return "*empty*"
    if seat.vacated:
        return f"{name} (left; {seat.level} computer plays)"
    return f"{name} ({seat.level} computer)"


def seat_labels(view: TableView, *, short: bool = False) -> list[str]:
    return [seat_label(seat, short=short) for seat in view.seats]


def lobby_embed(view: TableView) -> discord.Embed:
    embed = discord.Embed(
        title="Bonken table",
        colour=GREEN if view.status is TableStatus.LOBBY else GREY,
        description=(
            f"Host: <@{view.host_id}> · {view.settings.turn_seconds} s per card · "
            f"computers: {view.settings.computer_level}\n"
            "Join, or let the host add computers and start. Empty seats get computers."
        ),
    )
    embed.add_field(
        name="Seats",
        value="\n".join(f"{SEAT_NAMES[i]}: {label}" for i, label in enumerate(seat_labels(view))),
        inline=False,
    )
    if view.status is not TableStatus.LOBBY:
        embed.set_footer(text="The match has started." if view.match_id else "Closed.")
    return embed


def deal_embed(view: TableView, closed: str | None = None) -> discord.Embed:
    """The table during a deal: roles, contract, whose turn, the trick and the scores."""
    labels = seat_labels(view)
    contract = CONTRACTS[view.contract].name if view.contract else "being chosen"
    embed = discord.Embed(
        title=f"Deal {view.deal_number} of {DEALS_PER_MATCH} · {contract}",
        colour=GREEN if closed is None else GREY,
    )
    lines = []
    if view.dealer is not None and view.chooser is not None:
        lines.append(f"Dealer {labels[view.dealer]} · chooser {labels[view.chooser]}")
    if view.contract:
        lines.append(f"*{CONTRACTS[view.contract].description}*")
    if closed is not None:
        lines.append(f"**{closed}**")
    elif view.to_act is not None and view.turn_kind is not None:
        lines.append(f"▶ {labels[view.to_act]}, your turn {TURN_WORDS[view.turn_kind]}.")
    embed.description = "\n".join(lines)
    if view.doubling_done or view.doubled:
        embed.add_field(name="Doubling", value=doubling_summary(view, labels), inline=False)
    if view.trick:
        plays = "\n".join(f"{labels[seat]}: **{card.label}**" for seat, card in view.trick)
        embed.add_field(name="Trick", value=plays, inline=False)
    if view.contract:
        embed.add_field(
            name="This deal",
            value="\n".join(
                f"{SEAT_NAMES[s]}: {text.signed(view.base[s])} ({view.tricks_taken[s]} tricks)"
                for s in range(4)
            ),
            inline=True,
        )
    embed.add_field(
        name="Match totals",
        value="\n".join(f"{SEAT_NAMES[s]}: {text.signed(view.totals[s])}" for s in range(4)),
        inline=True,
    )
    embed.set_footer(text=" · ".join(f"{SEAT_NAMES[s]} = {view.seats[s].name}" for s in range(4)))
    return embed


def doubling_summary(view: TableView, labels: list[str]) -> str:
    pairs = [
        f"{labels[i]} × {labels[j]}: {'redoubled' if level == 2 else 'doubled'}"
        for i, j, level in view.doubled
    ]
    done = ", ".join(SEAT_NAMES[s] for s in view.doubling_done)
    return "\n".join(pairs or ["nobody yet"]) + (f"\n(had their turn: {done})" if done else "")
