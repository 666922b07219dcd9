"""The public table message: one embed for the lobby, one per deal.

Everything here reads a :class:`~bot.tables.TableView` (public information only) and
returns a ``discord.Embed``; nothing sends or edits. The words are the current
language's: the caller speaks the table's language (:func:`bot.ui.posts.table_language`).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import Phase
from bot.i18n import N_, _, pgettext
from bot.render import text
from bot.render.reasons import LEVEL
from bot.render.rules import rules_line
from bot.store import TableStatus
from bot.tables import SeatInfo, TableView

from .replies import literal

GREEN = discord.Colour.from_rgb(31, 122, 76)
GREY = discord.Colour.light_grey()

TURN_WORDS = {
    Phase.CHOOSING: N_("▶ {name}, your turn to choose the contract"),
    Phase.DOUBLING: N_("▶ {name}, your turn to double or pass"),
    Phase.PLAYING: N_("▶ {name}, your turn to play"),
}
compass = text.compass
COMPUTER_MARK = "🤖"


def seat_name(seat: SeatInfo) -> str:
    """A seat's name as the channel shows it everywhere: the player's display name in
    bold, escaped for Markdown, a computer's with a small marker (a seat left during the
    match keeps its player's name). No mention: nobody is pinged by a name."""
    if seat.user_id is not None and seat.name in ("", f"<@{seat.user_id}>"):
        return f"<@{seat.user_id}>"  # no display name was stored: the mention names them
    if not seat.name:
        return _("*empty seat*")
    marker = f" {COMPUTER_MARK}" if seat.user_id is None else ""
    return f"**{literal(plain_name(seat))}**{marker}"


def plain_name(seat: SeatInfo) -> str:
    """The seat's name as written (a button label, a footer), a computer's named after
    its seat in the current language ("South bot", "Zuid-bot")."""
    return seat.name if seat.user_id is not None else text.player_name(seat.name)


def seat_label(seat: SeatInfo, *, short: bool = False) -> str:
    """:func:`seat_name` with what the seat is up to (``short``: just the name, for
    trick and score lines)."""
    name = seat_name(seat)
    if short:
        return name
    if seat.user_id is not None:
        return _("{name} (away: a computer plays)", name=name) if seat.away else name
    if seat.level is None:
        return _("*empty*")
    level = level_name(seat.level)
    if seat.vacated:
        return _("{name} (left; {level} computer plays)", name=name, level=level)
    return _("{name} ({level} computer)", name=name, level=level)


def level_name(level: str) -> str:
    """A computer level (``easy``, ``normal``, ``hard``) in the current language."""
    return pgettext(LEVEL, level)


def seat_labels(view: TableView, *, short: bool = False) -> list[str]:
    return [seat_label(seat, short=short) for seat in view.seats]


def computer_plays(seat: SeatInfo) -> bool:
    """A computer makes this seat's moves now (its own seat, or for a player away)."""
    return seat.user_id is None or seat.away or seat.vacated


def lobby_embed(view: TableView) -> discord.Embed:
    embed = discord.Embed(
        title=_("Bonken table"),
        colour=GREEN if view.status is TableStatus.LOBBY else GREY,
        description=_(
            "Host: <@{host}> · {seconds} s per card · computers: {level}\n"
            "Rules: {rules} (`/bonken rules` explains them)\n"
            "Join, or let the host add computers and start. Empty seats get computers.",
            host=view.host_id,
            seconds=view.settings.turn_seconds,
            level=level_name(view.settings.computer_level),
            rules=rules_line(view.rules),
        ),
    )
    embed.add_field(
        name=_("Seats"),
        value="\n".join(f"{compass(i)}: {label}" for i, label in enumerate(seat_labels(view))),
        inline=False,
    )
    if view.status is not TableStatus.LOBBY:
        embed.set_footer(text=_("The match has started.") if view.match_id else _("Closed."))
    return embed


FIELD_LIMIT = 1024
"""Discord's limit on one embed field's value."""


def deal_embed(
    view: TableView,
    closed: str | None = None,
    deadline: float | None = None,
    tricks: Sequence[str] = (),
) -> discord.Embed:
    """The table during a deal: roles, contract, whose turn (with ``deadline``, the Unix
    time the person's turn runs out, as a countdown), the trick or Domino's rows, the
    deal's finished ``tricks`` (one line each, so the message shows the deal at a
    glance), and the scores."""
    names = seat_labels(view, short=True)
    contract = view.rules.by_id[view.contract] if view.contract else None
    embed = discord.Embed(
        title=_("Deal {number} of {deals}", number=view.deal_number, deals=view.rules.deals)
        + " · "
        + (text.contract_name(contract) if contract else _("being chosen")),
        colour=GREEN if closed is None else GREY,
    )
    lines = [_("Rules: {rules}", rules=rules_line(view.rules))]
    if view.dealer is not None and view.chooser is not None:
        lines.append(
            _(
                "Dealer {dealer} · chooser {chooser}",
                dealer=names[view.dealer],
                chooser=names[view.chooser],
            )
        )
    if contract:
        lines.append(f"*{text.contract_description(contract)}*")
    if closed is not None:
        lines.append(f"**{closed}**")
    elif view.to_act is not None and view.turn_kind is not None:
        lines.append(turn_line(view, names, deadline))
    embed.description = "\n".join(lines)
    if view.doubling_done or view.doubled:
        embed.add_field(name=_("Doubling"), value=doubling_summary(view, names), inline=False)
    domino = contract is not None and contract.domino
    if domino:
        embed.add_field(name=_("On the table"), value=domino_summary(view, names), inline=False)
    elif view.trick:
        plays = "\n".join(f"{names[seat]}: **{text.card_text(card)}**" for seat, card in view.trick)
        embed.add_field(name=_("Trick"), value=plays, inline=False)
    if tricks and not domino:
        embed.add_field(name=_("Tricks"), value=_latest_lines(tricks), inline=False)
    if contract:
        embed.add_field(
            name=_("This deal"),
            value="\n".join(
                f"{names[s]}: {text.signed(view.base[s])}"
                + ("" if domino else f" ({text.tricks(view.tricks_taken[s])})")
                for s in range(4)
            ),
            inline=True,
        )
    embed.add_field(
        name=_("Match totals"),
        value="\n".join(f"{names[s]}: {text.signed(view.totals[s])}" for s in range(4)),
        inline=True,
    )
    embed.set_footer(
        text=" · ".join(f"{compass(s)} = {plain_name(view.seats[s])}" for s in range(4))
    )
    return embed


def _latest_lines(lines: Sequence[str]) -> str:
    """The lines, the newest kept, within one field's limit (long names could pass it)."""
    shown, start = "\n".join(lines), 0
    while len(shown) > FIELD_LIMIT and start < len(lines) - 1:
        start += 1
        shown = "\n".join(["…", *lines[start:]])
    return shown[:FIELD_LIMIT]


def turn_line(view: TableView, names: list[str], deadline: float | None) -> str:
    """Whose turn it is: a computer is thinking, a person has until ``deadline``."""
    assert view.to_act is not None and view.turn_kind is not None
    name = names[view.to_act]
    if computer_plays(view.seats[view.to_act]):
        return _("▶ {name} is thinking...", name=name)
    line = _(TURN_WORDS[view.turn_kind], name=name)
    if deadline is not None:
        line += " " + _("(time runs out <t:{time}:R>)", time=int(deadline))
    return line + "."


def domino_summary(view: TableView, names: list[str]) -> str:
    """Domino's four suit rows, and who went out so far, in order."""
    value = text.domino_rows_text(view.domino_rows)
    if view.domino_out:
        value += "\n" + _(
            "Out, in order: {names}", names=", ".join(names[s] for s in view.domino_out)
        )
    return value


def doubling_summary(view: TableView, names: list[str]) -> str:
    # Each word outside the f-string, where the catalogue's extraction finds it.
    words = {1: _("doubled"), 2: _("redoubled")}
    pairs = [f"{names[i]} × {names[j]}: {words[level]}" for i, j, level in view.doubled]
    if len(view.doubling_done) == 4:  # every turn taken: the doubling is settled
        return "\n".join(pairs or [_("nobody doubled")])
    done = ", ".join(names[s] for s in view.doubling_done)
    had = "\n" + _("(had their turn: {names})", names=done) if done else ""
    return "\n".join(pairs or [_("nobody yet")]) + had
