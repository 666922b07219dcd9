"""The rules as players read them: ``/bonken rules`` and ``/bonken rules <contract>``."""

from __future__ import annotations

from bot.engine import STANDARD, Rules
from bot.engine.cards import JACK, KING
from bot.i18n import N_, _

from .text import contract_description, contract_name

OVERVIEW = N_("""\
**Bonken** · 4 players, 52 cards, {deals} deals, everyone for themselves; highest total wins.
• The player across from the dealer **chooses the contract** after seeing their hand. \
The seven negative contracts are each played once; of the five trump options \
(♣ ♦ ♥ ♠ or No Trump) four are played, and **every player picks exactly one**.
• **Doubling**: before the first card each player has one turn (starting right of the \
dealer, the chooser last) to double any of the others; doubling someone who doubled you \
is a redouble. The chooser may only redouble. Each pair settles the difference of their \
deal scores once (double) or twice (redouble); doubling never changes the deal's total.
• **Play**: left of the dealer leads. Follow suit if you can; otherwise play anything \
(trumping is allowed, never required). Highest trump, else highest card of the led suit, \
takes the trick and leads next. A deal ends early once nothing left can score.
Use `/bonken rules contract:<name>` for one contract.""")

DETAILS = {
    "ducking": N_(
        "Take as few tricks as you can: {per_trick} per trick. All 13 tricks are played."
    ),
    "hearts": N_(
        "{each} per heart you take. You may not lead a heart unless you hold only hearts. "
        "Ends once all 13 hearts are taken."
    ),
    "kingjacks": N_(
        "{king} per king and {jack} per jack you take. Ends once all kings and jacks are taken."
    ),
    "queens": N_("{each} per queen you take. Ends once all four queens are taken."),
    "kingofhearts": N_(
        "{each} to whoever takes the K♥. You may not lead a heart unless you hold "
        "only hearts. Ends when the K♥ is taken."
    ),
    "lasttrick": N_("{last_trick} to whoever takes the 13th trick."),
    "domino": N_(
        "No tricks: cards are laid out in four suit rows. Play an 8, or a card one "
        "rank next to a card of its suit on the table (an ace only next to the king, a 2 only "
        "next to the 3). If you cannot play you pass (automatically). {first_lead} "
        "starts. The last player still holding cards gets {last_holder}."
    ),
}
"""Each negative contract's text; the numbers are filled in from the rules' contract."""
TRUMP_DETAIL = N_(
    "{per_trick:+d} per trick you take. {trump} Each player picks one trump option per match."
)
_SEATS = (
    N_("The dealer"),
    N_("Left of the dealer"),
    N_("Across from the dealer"),
    N_("Right of the dealer"),
)
SUIT_TRUMPS = {
    "CLUBS": N_("Clubs are trump: a player void in the led suit may trump, but never has to."),
    "DIAMONDS": N_(
        "Diamonds are trump: a player void in the led suit may trump, but never has to."
    ),
    "HEARTS": N_("Hearts are trump: a player void in the led suit may trump, but never has to."),
    "SPADES": N_("Spades are trump: a player void in the led suit may trump, but never has to."),
}
"""The trump suit's sentence, by the suit's name (one sentence each: a suit's name is
not a word to paste into another language's sentence)."""


def rules_text(contract_id: str | None = None, rules: Rules = STANDARD) -> str:
    """The overview, or one contract of ``rules`` (the standard game by default): the
    numbers come from the rules, so another points table reads right."""
    if contract_id is None:
        return _(OVERVIEW, deals=rules.deals)
    contract = rules.by_id[contract_id]
    if contract.is_trump_option:
        trump = _("No trumps.") if contract.trump is None else _(SUIT_TRUMPS[contract.trump.name])
        return f"**{contract_name(contract)}**: " + _(
            TRUMP_DETAIL, per_trick=contract.per_trick, trump=trump
        )
    if contract_id not in DETAILS:
        return f"**{contract_name(contract)}**: {contract_description(contract)}"
    points = contract.card_points
    return f"**{contract_name(contract)}**: " + _(
        DETAILS[contract_id],
        per_trick=contract.per_trick,
        each=min(points.values(), default=0),
        king=next((v for c, v in points.items() if c.rank == KING), 0),
        jack=next((v for c, v in points.items() if c.rank == JACK), 0),
        last_trick=contract.last_trick,
        last_holder=contract.last_holder,
        first_lead=_(_SEATS[rules.first_lead_offset]),
    )
