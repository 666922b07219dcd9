"""The daily deals in words and in a picture: the attempt's message, the line posted when
someone finishes, the results, the daily board and the refusals.

Every function takes the daily service's views (:mod:`bot.daily.views`) and says them in
the current language; the front end adds its own words (commands) where it needs them.
The picture's scene is built from the attempt's public view only, as a table's is.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import cache

from bot import i18n
from bot.daily import (
    AttemptView,
    BoardRow,
    DailyReason,
    DailyRefusal,
    DayResults,
    DealComparison,
    DealResult,
    Standing,
)
from bot.engine import Double, Phase, Reason
from bot.i18n import N_, NP_, _, pgettext
from bot.tables import Refusal

from .reasons import refusal_text as table_refusal_text
from .scene import SeatScene, TableScene, seat_name
from .text import (
    card_text,
    cards_text,
    contract_description,
    contract_name,
    names_text,
    signed,
)

SENTENCES: dict[DailyReason, str] = {
    DailyReason.NO_SUCH_ATTEMPT: N_("this button belongs to no daily deals"),
    DailyReason.NOT_YOURS: N_("these are someone else's daily deals"),
    DailyReason.ALREADY_PLAYED: N_("you have played today's deals already: one attempt a day"),
    DailyReason.FINISHED: N_("you have finished these deals"),
    DailyReason.CLOSED: N_(
        "the results of that day have closed, so its deals can no longer be played"
    ),
    DailyReason.STALE: N_(
        "that button was for an earlier point of your deals; this is where they stand"
    ),
    DailyReason.BAD_DATE: N_("write the date as YYYY-MM-DD, for example {example}"),
    DailyReason.FUTURE_DATE: N_("that day has not begun yet"),
    DailyReason.BAD_DEALS: N_("a day has 1 to 11 deals"),
    DailyReason.NOT_SAVED: N_("sorry, that could not be saved; please try again"),
}
ORDINAL = "ordinal"
"""The catalogue context of a place's ending (1st, 2nd, 3rd, 4th: ``1e`` in Dutch)."""
ORDINALS = (
    NP_("ordinal", "{n}st"),
    NP_("ordinal", "{n}nd"),
    NP_("ordinal", "{n}rd"),
    NP_("ordinal", "{n}th"),
)


def daily_refusal_text(refusal: DailyRefusal, today: date) -> str:
    """The refusal in the current language, by its reason (the engine's by its own)."""
    reason = refusal.reason
    if isinstance(reason, Reason):
        return table_refusal_text(Refusal(str(refusal), reason, action=refusal.action))
    return _(SENTENCES[reason], example=today.isoformat())


def ordinal(n: int) -> str:
    """A place: ``1st``, ``22nd``, ``13th`` (``1e`` in Dutch)."""
    if n % 100 in (11, 12, 13) or n % 10 not in (1, 2, 3):
        return pgettext(ORDINAL, ORDINALS[3], n=n)
    return pgettext(ORDINAL, ORDINALS[n % 10 - 1], n=n)


def percent(value: float) -> str:
    return f"{value:.0f}%"


def which_deals(day: date, today: date) -> str:
    """``today's deals``, ``yesterday's deals`` or ``the deals of 2026-11-30``."""
    if day == today:
        return _("today's deals")
    if (today - day).days == 1:
        return _("yesterday's deals")
    return _("the deals of {day}", day=day.isoformat())


# -- the attempt's message --------------------------------------------------------------


def attempt_title(view: AttemptView, today: date) -> str:
    deals = which_deals(view.day, today)
    return _(
        "Daily deals · {deals} · deal {number} of {count}",
        deals=deals[:1].upper() + deals[1:],
        number=view.deal_number,
        count=view.deals,
    )


def attempt_lines(view: AttemptView, today: date) -> list[str]:
    """What the message says above the picture and the buttons."""
    names = seat_names(view)
    lines = []
    if view.previous is not None:
        lines.append(deal_over_text(view.previous, names, view.seat.seat))
    if view.finished:
        lines.append(finished_text(view, today))
        return lines
    contract = view.seat.contract
    assert contract is not None
    lines.append(f"**{contract_name(contract)}**: {contract_description(contract)}")
    if view.seat.phase is Phase.DOUBLING:
        lines.append(_("Your hand: {cards}", cards=hand_text(view)))
        me = view.seat.seat
        doublers = [seat for seat in range(4) if view.seat.multipliers[me][seat] == 1]
        if doublers:
            lines.append(_("{names} doubled you.", names=names_text(names, doublers)))
        lines.append(doubling_prompt(view))
        return lines
    last = view.public.last_trick
    if last is not None:
        plays = ", ".join(f"{names[seat]} {card_text(card)}" for seat, card in last.played())
        lines.append(
            _("Last trick: {plays}; {winner} took it.", plays=plays, winner=names[last.winner])
        )
    if view.public.trick:
        plays = ", ".join(f"{names[seat]} {card_text(card)}" for seat, card in view.public.trick)
        lines.append(_("On the table: {plays}", plays=plays))
    lines.append(_("**Your turn**: play one of the highlighted cards."))
    return lines


def doubling_prompt(view: AttemptView) -> str:
    if any(isinstance(a, Double) and a.targets for a in view.seat.legal):
        return _(
            "**Your doubling turn.** Toggle the players to double (or redouble), then Confirm."
        )
    if view.seat.seat == view.seat.chooser:
        return _(
            "**Your doubling turn.** Nobody doubled you, and the chooser may only redouble: "
            "press Pass."
        )
    return _(
        "**Your doubling turn.** In Domino here only a player holding an ace or a 2 may "
        "double: press Pass."
    )


def deal_over_text(result: DealResult, names: Sequence[str], seat: int) -> str:
    others = ", ".join(f"{names[s]} {signed(result.final[s])}" for s in range(4) if s != seat)
    return _(
        "Deal {number} ({contract}) is over: you scored {score} ({others}).",
        number=result.number,
        contract=contract_name(result.contract),
        score=signed(result.final[seat]),
        others=others,
    )


def finished_text(view: AttemptView, today: date) -> str:
    scores = ", ".join(signed(score) for score in view.scores if score is not None)
    text = _(
        "You have played {deals}. Your scores: {scores}.",
        deals=which_deals(view.day, today),
        scores=scores,
    )
    if view.standing is not None:
        text += " " + _(
            "So far: {percent}, {place} of {field}.",
            percent=percent(view.standing.percent),
            place=ordinal(view.standing.rank),
            field=view.standing.field,
        )
    return text


def closing_text(view: AttemptView) -> str:
    return _("Can be finished until {time} UTC", time=view.closes_at.strftime("%Y-%m-%d %H:%M"))


def seat_names(view: AttemptView) -> list[str]:
    """The seats' names in the current language, the person as "you"."""
    language = i18n.current()
    return [
        _("you") if seat == view.seat.seat else seat_name(name, seat, language)
        for seat, name in enumerate(view.players)
    ]


def hand_text(view: AttemptView) -> str:
    return cards_text(view.seat.hand)


@cache
def you_plate(language: str) -> str:
    """The name on the person's own plate, in ``language`` (kept: one a language)."""
    with i18n.using(language):
        return _("You")


def daily_scene(view: AttemptView, language: str) -> TableScene:
    """The picture's part of the attempt: public information only (no hand). The
    person's own plate says "You" (the message is theirs alone, and its words say "you"
    too), so two people at the same point of the day's deals see the same picture: it is
    drawn once and kept (:mod:`bot.ui.drawing`)."""
    public = view.public
    seats = tuple(
        SeatScene(
            name=you_plate(language)
            if index == view.seat.seat
            else seat_name(name, index, language),
            tricks=public.tricks_taken[index],
            score=public.base[index],
            total=public.totals[index],
            cards_left=public.cards_left[index],
        )
        for index, name in enumerate(view.players)
    )
    last = public.last_trick
    return TableScene(
        seats=seats,
        deal_number=view.deal_number,
        deals=view.deals,
        contract=None if public.contract is None else public.contract.id,
        dealer=public.dealer,
        chooser=public.chooser,
        to_act=None if view.finished else public.to_act,
        trick=public.trick,
        last_trick=None if last is None else (last.winner, tuple(last.played())),
        doubled=public.doubled,
        domino_rows=tuple(
            (int(suit), low, high) for suit, (low, high) in public.domino_rows.items()
        ),
        domino_out=public.domino_out,
        over=view.finished,
        language=language,
    )


# -- in the channel, the results and the board ------------------------------------------


def finished_line(name: str, day: date, today: date, standing: Standing) -> str:
    """The public line when someone finishes: no card, no contract."""
    return _(
        "{name} played {deals}: {percent} ({place} of {field} so far)",
        name=name,
        deals=which_deals(day, today),
        percent=percent(standing.percent),
        place=ordinal(standing.rank),
        field=standing.field,
    )


def results_lines(results: DayResults, today: date) -> list[str]:
    """The day's ranking, then (for who may see them) each deal's comparison."""
    deals = which_deals(results.day, today)
    if not results.ranking:
        return [_("Nobody has finished {deals} yet.", deals=deals)]
    heading = (
        _("Results of {deals} (closed):", deals=deals)
        if results.closed
        else _(
            "Results of {deals} so far (they close at {time} UTC):",
            deals=deals,
            time=results.closes_at.strftime("%Y-%m-%d %H:%M"),
        )
    )
    lines = [heading]
    for row in results.ranking:
        unfinished = "" if row.finished else " " + _("(unfinished)")
        lines.append(f"{row.rank}. {row.name} {percent(row.percent)}{unfinished}")
    if results.comparisons is None:
        lines.append(_("Each deal's comparison shows once you have played these deals."))
    else:
        lines.extend(comparison_line(c) for c in results.comparisons)
    return lines


def comparison_line(comparison: DealComparison) -> str:
    field = " ".join("–" if score is None else signed(score) for score in comparison.field)
    best = (
        _(
            "best {score} by {names}",
            score=signed(comparison.best),
            names=", ".join(comparison.best_by),
        )
        if comparison.best is not None
        else _("nobody finished it")
    )
    mine = "–" if comparison.mine is None else signed(comparison.mine)
    return _(
        "Deal {number}, {contract}: you {mine}; field {field}; {best}",
        number=comparison.number,
        contract=contract_name(comparison.contract),
        mine=mine,
        field=field,
        best=best,
    )


def board_line(row: BoardRow) -> str:
    days = i18n.ngettext("{n} day", "{n} days", row.days)
    place = f"{row.rank}." if row.rank is not None else "–"
    return f"{place} {row.name} {percent(row.percent)} ({days})"
