"""Plain-text lines for table events: the demo's transcript and the channel's trick posts.

Every function takes the seat names it needs, so the same words serve the terminal demo
(plain names) and Discord (mentions). Every word is the current language's
(:mod:`bot.i18n`): the caller chooses it for its readers.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Contract, Suit, any_contract
from bot.engine.cards import ACE, RANK_NAMES
from bot.engine.deal import LOW_ACE
from bot.i18n import NP_, _, list_text, ngettext, pgettext
from bot.i18n.extract import CONTRACT, CONTRACT_DESCRIPTION
from bot.tables import events as ev
from bot.tables.table import SEAT_NAMES, computer_name

RANK = "rank"
RANKS = (NP_("rank", "J"), NP_("rank", "Q"), NP_("rank", "K"), NP_("rank", "A"))
"""The ranks a language may write its own way (``V`` for the Dutch vrouw), marked for the
catalogue; the numbers are the same everywhere."""


SEAT = "seat"
"""The catalogue context of a compass seat's name (North, East, South, West)."""
COMPASS = (NP_("seat", "North"), NP_("seat", "East"), NP_("seat", "South"), NP_("seat", "West"))
""":data:`~bot.tables.table.SEAT_NAMES`, marked for the catalogue."""


def compass(seat: int) -> str:
    """A seat's compass name (``North``) in the current language."""
    return pgettext(SEAT, SEAT_NAMES[seat])


_COMPUTER_SEATS = {computer_name(seat): seat for seat in range(len(SEAT_NAMES))}
"""Each computer's name (as stored) and its seat."""


def player_name(name: str) -> str:
    """A seat's name as written, a computer's named after its seat in the current
    language ("South bot", "Zuid-bot")."""
    seat = _COMPUTER_SEATS.get(name)
    return name if seat is None else _("{seat} bot", seat=compass(seat))


def contract_name(contract_id: str | Contract) -> str:
    """The contract by the name its players use in the current language (a contract the
    catalogue does not know yet keeps the engine's name; an unknown id is its own)."""
    contract = any_contract(contract_id) if isinstance(contract_id, str) else contract_id
    if contract is None:
        return str(contract_id)
    return pgettext(CONTRACT, contract.name)


def contract_description(contract: Contract) -> str:
    """What ``contract`` scores, in the current language, with its own variant's numbers."""
    if not contract.description_template:
        return pgettext(CONTRACT_DESCRIPTION, contract.description)
    values = dict(contract.description_values)
    return pgettext(CONTRACT_DESCRIPTION, contract.description_template, **values)


def rank_text(rank: int) -> str:
    """A rank as a card shows it: ``Q`` in English, ``V`` (vrouw) in Dutch; a Domino
    row's :data:`~bot.engine.deal.LOW_ACE` is its ace."""
    return pgettext(RANK, RANK_NAMES[(ACE if rank == LOW_ACE else rank) - 2])


def card_text(card: Card) -> str:
    return rank_text(card.rank) + card.suit.symbol


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card_text(card) for card in cards)


def signed(value: int) -> str:
    return f"{value:+d}"


def score_line(names: Sequence[str], scores: Sequence[int]) -> str:
    return ", ".join(f"{name} {signed(score)}" for name, score in zip(names, scores, strict=True))


def names_text(names: Sequence[str], seats: Sequence[int]) -> str:
    """``Ann, Bob and Cas``: the seats' names as one list in the current language."""
    return list_text([names[s] for s in seats])


def doubling_text(names: Sequence[str], event: ev.Doubled) -> str:
    who = names[event.seat]
    if not event.doubles and not event.redoubles:
        return _("{who} passes", who=who)
    if not event.redoubles:
        return _("{who} doubles {doubled}", who=who, doubled=names_text(names, event.doubles))
    if not event.doubles:
        return _(
            "{who} redoubles {redoubled}", who=who, redoubled=names_text(names, event.redoubles)
        )
    return _(
        "{who} doubles {doubled}; redoubles {redoubled}",
        who=who,
        doubled=names_text(names, event.doubles),
        redoubled=names_text(names, event.redoubles),
    )


def trick_text(names: Sequence[str], event: ev.TrickTaken) -> str:
    plays = ", ".join(f"{names[seat]} {card_text(card)}" for seat, card in event.plays)
    winner = names[event.winner]
    if event.points:
        text = _(
            "Trick {number}: {plays}. {winner} takes it ({points}).",
            number=event.number,
            plays=plays,
            winner=winner,
            points=signed(event.points),
        )
    else:
        text = _(
            "Trick {number}: {plays}. {winner} takes it.",
            number=event.number,
            plays=plays,
            winner=winner,
        )
    if event.ended_early:
        text += " " + _("Nothing left can score: the deal ends here.")
    return text


def trick_summary(names: Sequence[str], event: ev.TrickTaken) -> str:
    """One finished trick as one short line of the deal message's running list:
    ``3. 9♣ K♣ 2♣ 7♦ · Ann -30`` (the cards in the order played, who took it)."""
    cards = " ".join(card_text(card) for _seat, card in event.plays)
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
                words = (
                    _("{points} from the redouble with {name}")
                    if level == 2
                    else _("{points} from the double with {name}")
                )
                parts.append(words.format(points=signed(swing), name=names[other]))
        if parts:
            lines.append(f"{names[seat]} " + ", ".join(parts))
    return "\n".join(lines)


def tricks(count: int) -> str:
    return ngettext("{n} trick", "{n} tricks", count)


def domino_rows_text(rows: Sequence[tuple[int, int, int]]) -> str:
    """Domino's suit rows as ``♣ 6–10`` (suit, lowest rank, highest rank), by suit."""
    if not rows:
        return _("empty: someone must play an 8")
    return ", ".join(
        f"{Suit(suit).symbol} {rank_text(low)}–{rank_text(high)}"
        for suit, low, high in sorted(rows)
    )


def deal_text(names: Sequence[str], event: ev.DealScored) -> str:
    text = _(
        "Deal {number} ({contract}) scores: {scores}",
        number=event.deal_number,
        contract=contract_name(event.contract),
        scores=score_line(names, event.base),
    )
    if event.domino_out:
        out = ", ".join(names[seat] for seat in event.domino_out)
        text += "\n  " + _("Out, in order: {names}", names=out)
    settlement = settlement_text(names, event)
    if settlement:
        moved = settlement.replace("\n", "\n    ")
        after = score_line(names, event.final)
        text += (
            "\n  "
            + _("Doubling:")
            + f"\n    {moved}\n  "
            + _("After doubling: {scores}", scores=after)
        )
    return text + "\n  " + _("Totals: {scores}", scores=score_line(names, event.totals))


def standings_text(names: Sequence[str], totals: Sequence[int], ranks: Sequence[int]) -> str:
    order = sorted(range(4), key=lambda seat: (ranks[seat], seat))
    return "\n".join(f"{ranks[seat]}. {names[seat]} {signed(totals[seat])}" for seat in order)
