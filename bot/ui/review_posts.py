"""What a review's message says: its progress, the summary, one deal's decisions.

Pure functions of a :class:`~bot.review.service.ReviewTicket` or a
:class:`~bot.review.PlayerReview` and the match's seat names, in the current language
(the asker's: a review is shown privately); nothing sends or edits.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import N_, _, ngettext
from bot.render.review import (
    GRADE_NAMES,
    counts_text,
    decision_line,
    summary_lines,
    where_text,
)
from bot.render.text import contract_name
from bot.review import LINES, DealReview, DecisionReview, PlayerReview
from bot.review.service import ReviewTicket

from .embeds import GREEN
from .replies import literal

DESCRIPTION_LIMIT = 4096
"""Discord's most characters in an embed's description."""
FIELD_LIMIT = 1024
SUMMARY = "summary"
"""The deal menu's value that shows the summary again."""
FAILED = N_("The review of {name} in match {match} could not be finished; please ask again later.")


def title(name: str, match_id: int) -> str:
    return _("Review of {name} · match {match}", name=literal(name), match=match_id)


def progress_text(ticket: ReviewTicket, name: str) -> str:
    """Where the review is: waiting its turn (its place in line), or its deal now."""
    if ticket.failed:
        return "⚠️ " + _(FAILED, name=literal(name), match=ticket.match_id)
    heading = title(name, ticket.match_id)
    if ticket.place is not None:
        return "⏳ " + _(
            "{title}: other reviews run first; this one is number {place} in line. This "
            "message shows it when it is ready.",
            title=heading,
            place=ticket.place,
        )
    if ticket.deals == 0:
        return "⏳ " + _("{title}: starting…", title=heading)
    return "⏳ " + _(
        "{title}: deal {deal} of {deals}…",
        title=heading,
        deal=min(ticket.deals_done + 1, ticket.deals),
        deals=ticket.deals,
    )


def lines_footer() -> str:
    """How the decisions are valued, where the grade lines stand (from the code), and
    the certain losses flagged under them (:mod:`bot.review.grades`)."""
    shares = {grade: share for grade, share in LINES}
    lines = ", ".join(
        _("{grade} from {share}%", grade=_(GRADE_NAMES[grade]), share=round(share * 100))
        for grade, share in sorted(shares.items(), key=lambda item: item[1])
    )
    valued = _(
        "Each decision is valued by the hard computer's search from what the player could "
        "know then. Lost points, of what the contract puts at stake: {lines}.",
        lines=lines,
    )
    certain = _(
        "A card that lost a trick, a heart or more in every deal the search tried is an "
        "inaccuracy at least."
    )
    return f"{valued} {certain}"


def summary_embed(
    review: PlayerReview, match_id: int, names: Sequence[str], others: Sequence[str] = ()
) -> discord.Embed:
    """The summary: the figures, the three costliest decisions with the better option
    and why, and ``others``: a line per other player already reviewed."""
    embed = discord.Embed(
        title=title(names[review.seat], match_id),
        description="\n".join(summary_lines(review))[:DESCRIPTION_LIMIT],
        colour=GREEN,
    )
    costliest = [
        f"{i}. {decision_line(d, review.deals[d.deal], names)}"
        for i, d in enumerate(review.costliest, 1)
    ]
    embed.add_field(
        name=_("The costliest decisions"),
        value=_cut("\n".join(costliest), FIELD_LIMIT) or _("No decision lost enough to flag."),
        inline=False,
    )
    if others:
        embed.add_field(
            name=_("Other players reviewed"), value=_cut("\n".join(others), FIELD_LIMIT)
        )
    embed.set_footer(text=lines_footer())
    return embed


def position_embed(rank: int, decision: DecisionReview, deal: DealReview) -> discord.Embed:
    """The heading of a costliest decision's picture: its rank and where it was made
    (the picture, the replay's, shows the position before it)."""
    return discord.Embed(title=f"{rank}. {where_text(decision, deal)}", colour=GREEN)


def other_line(review: PlayerReview, names: Sequence[str]) -> str:
    """Another player's review in a line: points lost to mistakes and the classes."""
    return _(
        "{name}: {lost} points lost ({counts})",
        name=literal(names[review.seat]),
        lost=f"{review.lost:.1f}",
        counts=counts_text(review),
    )


def deal_embed(
    review: PlayerReview, match_id: int, deal: int, names: Sequence[str]
) -> discord.Embed:
    """Every decision of one deal that had a choice, flagged or not."""
    found = review.deals[deal]
    lines = [decision_line(d, found, names) for d in found.decisions]
    embed = discord.Embed(
        title=title(names[review.seat], match_id),
        description=_cut(
            "\n".join(lines) or _("No decision with a choice in this deal."), DESCRIPTION_LIMIT
        ),
        colour=GREEN,
    )
    embed.set_author(
        name=_("Deal {deal} · {contract}", deal=deal + 1, contract=contract_name(found.contract))
    )
    embed.set_footer(text=lines_footer())
    return embed


def deal_options(review: PlayerReview) -> list[discord.SelectOption]:
    """The deal menu: the summary, then each deal with how many decisions it flagged."""
    options = [discord.SelectOption(label=_("Summary"), value=SUMMARY)]
    for deal in review.deals:
        flagged = sum(1 for d in deal.decisions if d.flagged)
        options.append(
            discord.SelectOption(
                label=_(
                    "Deal {deal} · {contract}",
                    deal=deal.deal + 1,
                    contract=contract_name(deal.contract),
                )[:100],
                value=str(deal.deal),
                description=ngettext("{n} decision flagged", "{n} decisions flagged", flagged)[
                    :100
                ],
            )
        )
    return options


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
