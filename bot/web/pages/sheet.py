"""A scoresheet's page (a match played with real cards): the sheet deal by deal, who
entered what, every change, and the score chart."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import _
from bot.render.tally import (
    change_text,
    chart_data,
    doubles_text,
    result_text,
    sheet_rules,
)
from bot.render.text import contract_name
from bot.store import TallyStatus
from bot.tally import TallyRefusal

from ..charts import score_chart
from ..site import NotThere, Page, Reader, Services
from .common import only, shown_name, signed, when


async def sheet_page(
    services: Services, reader: Reader, tally_id: int, query: Mapping[str, str]
) -> Page:
    only(query, set())
    try:
        view = await services.tally.view(tally_id)
    except TallyRefusal:
        raise NotThere("no such scoresheet") from None
    if view.guild_id != reader.guild_id:
        raise NotThere("another server's scoresheet")
    names = [shown_name(name) for name in view.names]
    people = {seat.user_id: names[seat.seat] for seat in view.seats if seat.user_id is not None}
    unknown = {c.user_id for c in view.changes} - set(people)
    people |= await services.standings.names(sorted(unknown))

    def person(user_id: int) -> str:
        return people.get(user_id) or _("a player")

    order = sorted(range(4), key=lambda seat: (view.ranking[seat], seat))
    running = [0, 0, 0, 0]
    deals = []
    for deal in view.deals:
        running = [total + score for total, score in zip(running, deal.final, strict=True)]
        deals.append(
            {
                "number": deal.number,
                "contract": contract_name(deal.contract),
                "chooser": names[deal.chooser],
                "doubles": doubles_text(deal, names),
                "result": result_text(deal, names),
                "scores": [signed(score) for score in deal.final],
                "totals": [signed(total) for total in running],
            }
        )
    if view.status is TallyStatus.OPEN:
        status = _(
            "Still being played: deal {number} of {deals} is being entered.",
            number=view.number,
            deals=view.rules.deals,
        )
    elif view.status is TallyStatus.FINISHED:
        status = _("Finished.")
    else:
        status = _("Cancelled before its end.")
    context: dict[str, Any] = {
        "title": _("Scoresheet {sheet}", sheet=tally_id),
        "names": names,
        "rules": sheet_rules(view),
        "status": status,
        "deals": deals,
        "totals": [signed(total) for total in view.totals],
        "standings": [
            {"rank": view.ranking[seat], "name": names[seat], "total": signed(view.totals[seat])}
            for seat in order
        ],
        "changes": [
            {"text": change_text(view, change, person), "when": when(change.at)}
            for change in view.changes
        ],
        "description": " · ".join(
            f"{view.ranking[seat]}. {names[seat]} {signed(view.totals[seat])}" for seat in order
        ),
        "chart": score_chart(chart_data(view, reader.language), _("Scores after each deal"))
        if view.deals
        else None,
        "server": reader.links.server_path(reader.guild_id) if reader.public else None,
    }
    # A finished or cancelled sheet never changes again.
    return Page("sheet.html", context, final=view.status is not TallyStatus.OPEN)
