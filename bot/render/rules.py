"""The rules as players read them: ``/bonken rules`` and ``/bonken rules <contract>``."""

from __future__ import annotations

from bot.engine import STANDARD, Rules
from bot.engine.cards import JACK, KING

OVERVIEW = """\
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
Use `/bonken rules contract:<name>` for one contract."""

DETAILS = {
    "ducking": "Take as few tricks as you can: {per_trick} per trick. All 13 tricks are played.",
    "hearts": "{each} per heart you take. You may not lead a heart unless you hold only hearts. "
    "Ends once all 13 hearts are taken.",
    "kingjacks": "{king} per king and {jack} per jack you take. "
    "Ends once all kings and jacks are taken.",
    "queens": "{each} per queen you take. Ends once all four queens are taken.",
    "kingofhearts": "{each} to whoever takes the K♥. You may not lead a heart unless you hold "
    "only hearts. Ends when the K♥ is taken.",
    "lasttrick": "{last_trick} to whoever takes the 13th trick.",
    "domino": "No tricks: cards are laid out in four suit rows. Play an 8, or a card one "
    "rank next to a card of its suit on the table (an ace only next to the king, a 2 only "
    "next to the 3). If you cannot play you pass (automatically). {first_lead} "
    "starts. The last player still holding cards gets {last_holder}.",
}
"""Each negative contract's text; the numbers are filled in from the rules' contract."""
TRUMP_DETAIL = (
    "{per_trick:+d} per trick you take. {trump} Each player picks one trump option per match."
)
_SEATS = ("The dealer", "Left of the dealer", "Across from the dealer", "Right of the dealer")


def rules_text(contract_id: str | None = None, rules: Rules = STANDARD) -> str:
    """The overview, or one contract of ``rules`` (the standard game by default): the
    numbers come from the rules, so another points table reads right."""
    if contract_id is None:
        return OVERVIEW.format(deals=rules.deals)
    contract = rules.by_id[contract_id]
    if contract.is_trump_option:
        trump = (
            "No trumps."
            if contract.trump is None
            else f"{contract.trump.name.title()} are trump: a player void in the led suit "
            "may trump, but never has to."
        )
        return f"**{contract.name}**: " + TRUMP_DETAIL.format(
            per_trick=contract.per_trick, trump=trump
        )
    if contract_id not in DETAILS:
        return f"**{contract.name}**: {contract.description}"
    points = contract.card_points
    return f"**{contract.name}**: " + DETAILS[contract_id].format(
        per_trick=contract.per_trick,
        each=min(points.values(), default=0),
        king=next((v for c, v in points.items() if c.rank == KING), 0),
        jack=next((v for c, v in points.items() if c.rank == JACK), 0),
        last_trick=contract.last_trick,
        last_holder=contract.last_holder,
        first_lead=_SEATS[rules.first_lead_offset],
    )
