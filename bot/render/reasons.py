"""Refusals in the reader's language, by their reason (never by their English sentence).

The table service and the engine refuse with a reason code (:class:`~bot.tables.
TableReason`, :class:`~bot.engine.Reason`) beside an English sentence; here each reason
has its sentence in the catalogue, with what it names (a card, a contract, a player)
filled in from the refusal and the table. A front end adds its own words (a command, a
permission) for the reasons that need them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Choose, Double, Phase, Play, Reason, Suit
from bot.engine.house_rules import REFUSALS
from bot.i18n import N_, _, pgettext
from bot.tables import LEVELS, Refusal, TableReason, TableView

from .text import card_text, contract_name, player_name

SENTENCES: dict[TableReason | Reason, str] = {
    TableReason.NO_TABLE: N_("there is no Bonken table here"),
    TableReason.TABLE_CLOSED: N_("this table is closed"),
    TableReason.CHANNEL_TAKEN: N_("this channel already has a Bonken table"),
    TableReason.UNKNOWN_LEVEL: N_("the computer level must be one of {levels}"),
    TableReason.NOT_SEATED: N_("you are not seated at this table"),
    TableReason.ALREADY_SEATED: N_("you are already seated at this table"),
    TableReason.TABLE_FULL: N_("the table is full"),
    TableReason.NO_FREE_SEAT: N_("the match is under way and no seat is free"),
    TableReason.NOT_HOST: N_("only the host or an administrator can {subject}"),
    TableReason.EMPTY_SEAT: N_("nobody sits in that seat"),
    TableReason.HOST_STAYS: N_("the host cannot be removed; cancel the table instead"),
    TableReason.COMPUTER_PLAYS: N_("a computer already plays that seat"),
    TableReason.ALREADY_STARTED: N_("the match has already started"),
    TableReason.NOT_STARTED: N_("the match has not started yet"),
    TableReason.STALE_TURN: N_("that was for an earlier turn"),
    TableReason.NOT_YOUR_TURN: N_("it is not your turn"),
    TableReason.PLAYING_ALREADY: N_("you are playing your seat already"),
    TableReason.NOT_SAVED: N_("sorry, that could not be saved; please try again"),
    Reason.MATCH_OVER: N_("the match is over"),
    Reason.NO_DEAL: N_("no deal is in progress"),
    Reason.DEAL_IN_PROGRESS: N_("the next deal cannot start: the current one is not finished"),
    Reason.NOT_YOUR_TURN: N_("it is not your turn"),
    Reason.WRONG_PHASE: N_("you cannot do that now"),
    Reason.UNKNOWN_CONTRACT: N_("there is no such contract"),
    Reason.CONTRACT_PLAYED: N_("{contract} has already been played in this match"),
    Reason.TRUMP_ALREADY_PICKED: N_("you have already picked your trump option"),
    Reason.MUST_PICK_TRUMP: N_("you must pick a trump option with your last choice"),
    Reason.NO_SUCH_SEAT: N_("there is no such seat"),
    Reason.DOUBLE_SELF: N_("you cannot double yourself"),
    Reason.CHOOSER_ONLY_REDOUBLES: N_(
        "the chooser may only redouble players who doubled him, and {name} did not"
    ),
    Reason.NOT_HELD: N_("you do not hold the {card}"),
    Reason.MUST_FOLLOW_SUIT: N_("you must follow suit"),
    Reason.HEART_LEAD: N_("you may not lead a heart while you hold another suit"),
    Reason.DOMINO_NOT_CONNECTED: N_(
        "in Domino you must play an 8 or a card next to one on the table; "
        "the {card} does not connect"
    ),
}
# The refusals the house rules add, as their declarations word them.
SENTENCES.update((reason, sentence) for reason, sentence in REFUSALS.items())
FOLLOW = {
    Suit.CLUBS: N_("you must follow suit: you hold a club"),
    Suit.DIAMONDS: N_("you must follow suit: you hold a diamond"),
    Suit.HEARTS: N_("you must follow suit: you hold a heart"),
    Suit.SPADES: N_("you must follow suit: you hold a spade"),
}
"""Following suit, by the suit led (a sentence each: nouns do not paste across languages)."""
NOT_NOW: dict[tuple[type, Phase], str] = {
    (Choose, Phase.DOUBLING): N_("the contract has already been chosen"),
    (Choose, Phase.PLAYING): N_("the contract has already been chosen"),
    (Double, Phase.CHOOSING): N_("you cannot double now: the contract has not been chosen yet"),
    (Double, Phase.PLAYING): N_("you cannot double now: the cards are being played"),
    (Play, Phase.CHOOSING): N_("you cannot play a card now: the contract has not been chosen yet"),
    (Play, Phase.DOUBLING): N_("you cannot play a card now: the doubling is not finished yet"),
}
"""A move out of its phase, by the move and the phase (the verb and the reason agree in
each language's own way)."""
SUBJECTS = (
    N_("add computer players"),
    N_("remove players"),
    N_("cancel the table"),
    N_("start the match"),
)
"""What only the host may do, as the table service names it (``Refusal.subject``)."""
LEVEL = "level"
"""The catalogue context of a computer level's name (``easy``, ``normal``, ``hard``)."""


def refusal_text(refusal: Refusal, view: TableView | None = None) -> str:
    """The refusal in the current language; ``view`` (the table it is about, if known)
    names the suit led and whose turn it is."""
    reason = refusal.reason
    if reason is None:
        return str(refusal)  # a front end's own refusal, worded when it was raised
    action = refusal.action
    if reason is Reason.MUST_FOLLOW_SUIT and view is not None and view.trick:
        return _(FOLLOW[view.trick[0][1].suit])
    broken = view is not None and view.rules.house_rule("heart_lead") == "broken"
    if reason is Reason.HEART_LEAD and broken:
        return _("you may not lead a heart before one has been played, while you hold another suit")
    if reason is Reason.WRONG_PHASE and view is not None and view.turn_kind is not None:
        sentence = NOT_NOW.get((type(action), view.turn_kind))
        if sentence is not None:
            return _(sentence)
    if reason is TableReason.NOT_YOUR_TURN and view is not None and refusal.seat is not None:
        return _("it is not your turn; it is {name}'s turn", name=view.seats[refusal.seat].name)
    card = card_text(action.card) if isinstance(action, Play) else "?"
    chosen = action.contract if isinstance(action, Choose) else None
    contract = "?" if chosen is None else contract_name(chosen)
    return _(
        SENTENCES[reason],
        card=card,
        contract=contract,
        name=_not_doubled_by(action, view),
        subject=_(refusal.subject) if refusal.subject else "",
        levels=", ".join(pgettext(LEVEL, level) for level in LEVELS),
    )


def _not_doubled_by(action: object, view: TableView | None) -> str:
    """The first player a chooser's redouble named who had not doubled the chooser."""
    if not isinstance(action, Double) or view is None or view.chooser is None:
        return "?"
    doubled = {(i, j) for i, j, level in view.doubled if level == 1}
    for target in sorted(action.targets):
        pair = (min(target, view.chooser), max(target, view.chooser))
        if target != view.chooser and pair not in doubled:
            return player_name(view.seats[target].name)
    return "?"


def reasons() -> Sequence[TableReason | Reason]:
    """Every reason a refusal may carry (each must have its sentence)."""
    return (*TableReason, *Reason)
