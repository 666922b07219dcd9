"""What one socket is sent: the table as this person may see it, as plain JSON.

The state is built from the service's views and from nothing else: the table's public
:class:`~bot.tables.TableView` for everyone, and for a seated person the seat's
:class:`~bot.engine.SeatView` (:meth:`~bot.tables.TableService.hand`), which holds his
own hand and nobody else's. What a person may see is decided here, once, by which view
is read; the script draws all it is sent and hides nothing.

Every frame is the whole state, never a change to an earlier one, so a page that lost
frames (a dropped connection) is right again with the next one.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.engine import Choose, Double, Phase, Play, SeatView, Suit
from bot.engine.deal import LOW_ACE
from bot.i18n import N_, _, ngettext
from bot.render import text
from bot.render.domino_image import ROWS
from bot.render.replay import sorted_hand
from bot.tables import Hand, TableView
from bot.ui.hand import doubling_targets

FORMAT = "bonken-live/1"
"""The frames' format, checked by the script (a cached old script says so)."""

WORDS: dict[str, str] = {
    "table": N_("Bonken table"),
    "your_turn": N_("Your turn"),
    "choose": N_("Choose the contract for this deal"),
    "trumps": N_("Trumps…"),
    "choose_trump": N_("Choose the trump suit (or No Trump)"),
    "back": N_("Back"),
    "double_turn": N_("Your doubling turn: pick who to double, then confirm."),
    "confirm": N_("Confirm"),
    "pass": N_("Pass"),
    "waiting": N_("Waiting for {name}"),
    "choosing": N_("{name} is choosing the contract"),
    "doubling": N_("{name} is deciding on doubles"),
    "last_trick": N_("Last trick"),
    "hide_last": N_("Hide the last trick"),
    "no_last": N_("No trick taken yet in this deal"),
    "deal": N_("Deal {number}"),
    "no_contract": N_("contract not chosen yet"),
    "match_total": N_("Match"),
    "this_deal": N_("This deal"),
    "doubles": N_("Doubles"),
    "played": N_("Contracts played"),
    "no_doubles": N_("No doubles"),
    "spectating": N_("You are watching: no hand is shown."),
    "you": N_("you"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "lobby": N_("The match has not started yet."),
    "keys": N_("Keys: ← → pick a card, Enter plays it."),
    "dealer": N_("dealer"),
    "out": N_("out"),
    "away": N_("a computer plays for now"),
    "seconds": N_("{n} s"),
}

TURN_KINDS = {Phase.CHOOSING: "choosing", Phase.DOUBLING: "doubling", Phase.PLAYING: "playing"}


def words(language: str) -> dict[str, Any]:
    """The page's words in ``language``, sent once with the first state."""
    with i18n.using(language):
        return {
            **{key: _(message) for key, message in WORDS.items()},
            "ranks": {str(rank): text.rank_text(rank) for rank in (LOW_ACE, *range(2, 15))},
            "tricks": [ngettext("{n} trick", "{n} tricks", n) for n in range(14)],
            "cards": [ngettext("{n} card", "{n} cards", n) for n in range(14)],
        }


def table_state(
    view: TableView, hand: Hand | None, language: str, seconds_left: float | None
) -> dict[str, Any]:
    """The state for one person: ``view`` is the table's public view, ``hand`` his
    seat's (None for a spectator); ``seconds_left`` the turn's time, if it is timed."""
    with i18n.using(language):
        state = _public(view, seconds_left)
        if hand is not None:
            state.update(_seat(hand.view, view))
            state["turn"] = hand.turn
        return state


def _public(view: TableView, seconds_left: float | None) -> dict[str, Any]:
    contract = None if view.contract is None else view.rules.by_id.get(view.contract)
    last = view.last_trick
    return {
        "format": FORMAT,
        "table": view.table_id,
        "status": view.status.value,
        "names": [text.player_name(seat.name) for seat in view.seats],
        "computers": [seat.level is not None for seat in view.seats],
        "away": [seat.away for seat in view.seats],
        "seat": None,
        "turn": view.turn,
        "deal": view.deal_number,
        "deals": view.rules.deals,
        "dealer": view.dealer,
        "chooser": view.chooser,
        "contract": None
        if contract is None
        else {
            "id": contract.id,
            "name": text.contract_name(contract),
            "description": text.contract_description(contract),
            "domino": contract.domino,
        },
        "to_act": view.to_act,
        "turn_kind": None if view.turn_kind is None else TURN_KINDS.get(view.turn_kind),
        "seconds_left": None if seconds_left is None else round(seconds_left, 1),
        "trick": [[seat, card.code] for seat, card in view.trick],
        "last_trick": None
        if last is None
        else {"winner": last.winner, "cards": [[s, c.code] for s, c in last.played()]},
        "cards_left": list(view.cards_left),
        "tricks_taken": list(view.tricks_taken),
        "base": list(view.base),
        "totals": list(view.totals),
        "doubled": [list(pair) for pair in view.doubled],
        "domino_rows": _domino_rows(view),
        "domino_out": list(view.domino_out),
        "played": [text.contract_name(contract_id) for contract_id in view.played_contracts],
        "hand": [],
        "legal": [],
        "choices": [],
        "doubling": None,
    }


def _domino_rows(view: TableView) -> list[list[Any]]:
    """Domino's rows as the pictures lay them (spades, hearts, clubs, diamonds), each
    as [suit letter, lowest rank, highest rank] (an ace below the 2 is rank 1)."""
    rows = {Suit(suit): (low, high) for suit, low, high in view.domino_rows}
    return [[suit.letter, *rows[suit]] for suit in ROWS if suit in rows]


def _seat(seat: SeatView, view: TableView) -> dict[str, Any]:
    """What the seat's view adds: his hand, and on his turn what he may do."""
    legal = seat.legal if seat.my_turn else ()
    return {
        "seat": seat.seat,
        "hand": [card.code for card in sorted_hand(seat.hand)],
        "legal": [action.code for action in legal if isinstance(action, Play)],
        "choices": _choices(seat, legal),
        "doubling": _doubling(seat, view) if any(isinstance(a, Double) for a in legal) else None,
    }


def _choices(seat: SeatView, legal: tuple[Any, ...]) -> list[dict[str, Any]]:
    contracts = seat.rules.by_id
    chosen = [contracts[action.contract] for action in legal if isinstance(action, Choose)]
    return [
        {
            "code": Choose(contract.id).code,
            "name": text.contract_name(contract),
            "description": text.contract_description(contract),
            "trump": contract.is_trump_option,
        }
        for contract in chosen
    ]


def _doubling(seat: SeatView, view: TableView) -> dict[str, Any]:
    """The seats he may name, each worded as the hand message words it."""
    names = [text.player_name(info.name) for info in view.seats]
    doubled_me = {j for j in range(4) if seat.multipliers[seat.seat][j] == 1}
    return {
        "targets": [
            {
                "seat": target,
                "label": _("Redouble {name}", name=names[target])
                if target in doubled_me
                else _("Double {name}", name=names[target]),
            }
            for target in doubling_targets(seat)
        ]
    }
