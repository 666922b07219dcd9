"""A closed day of the daily deals: the ranking, each deal's comparison across the
field, and each attempt in the deal viewer (a page of its own).

Only a day whose results have closed shows anything: before that its page says when it
closes (what the results hide while people may still play is hidden here too).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import date
from typing import Any

from markupsafe import Markup

from bot.daily import DailyRefusal, closes_at
from bot.daily.views import DayResults
from bot.i18n import _
from bot.render.daily import percent
from bot.render.text import contract_name

from ..site import NotThere, Page, Reader, Services
from ..viewer import attempt_viewer, viewer_json
from .common import only, shown_name, signed, when

NOBODY = 0
"""The reader of a page is nobody of the field: no deal is "yours"."""


async def closed_day(services: Services, reader: Reader, day: date) -> DayResults | None:
    """The day's results, or None while it is open; :class:`NotThere` for a day that
    has not begun."""
    try:
        results = await services.daily.results(reader.guild_id, day.isoformat(), NOBODY)
    except DailyRefusal:
        raise NotThere("a day to come") from None
    return results if results.closed else None


async def day_page(services: Services, reader: Reader, day: date, query: Mapping[str, str]) -> Page:
    only(query, set())
    results = await closed_day(services, reader, day)
    title = _("Daily deals of {day}", day=day.isoformat())
    context: dict[str, Any] = {
        "title": title,
        "server": reader.links.server_path(reader.guild_id) if reader.public else None,
    }
    if results is None:
        context["description"] = _(
            "The results of this day close at {time}; its page shows them then.",
            time=when(closes_at(day)),
        )
        return Page("waiting.html", context)
    base = reader.links.day_path(reader.guild_id, day)
    replays = {replay.attempt_id: replay for replay in results.replays or ()}
    context.update(
        description=_(
            "{players} players, {deals} deals", players=len(results.ranking), deals=results.deals
        ),
        ranking=[
            {
                "rank": row.rank,
                "name": shown_name(row.name),
                "percent": percent(row.percent),
                "finished": row.finished,
            }
            for row in results.ranking
        ],
        attempts=[
            {
                "name": shown_name(replay.name),
                "percent": percent(replay.percent),
                "href": f"{base}/attempt/{attempt_id}",
            }
            for attempt_id, replay in sorted(replays.items(), key=lambda kv: -kv[1].percent)
        ],
        comparisons=[
            {
                "number": comparison.number,
                "contract": contract_name(comparison.contract),
                "field": ["–" if score is None else signed(score) for score in comparison.field],
                "best": None if comparison.best is None else signed(comparison.best),
                "best_by": ", ".join(shown_name(name) for name in comparison.best_by),
            }
            for comparison in results.comparisons or ()
        ],
    )
    return Page("day.html", context, final=True)


async def attempt_page(
    services: Services, reader: Reader, day: date, attempt_id: int, query: Mapping[str, str]
) -> Page:
    """One attempt of a closed day in the deal viewer."""
    only(query, set())
    results = await closed_day(services, reader, day)
    replays = () if results is None else results.replays or ()
    replay = next((r for r in replays if r.attempt_id == attempt_id), None)
    if replay is None:
        raise NotThere("no such attempt of a closed day")
    viewer = await asyncio.to_thread(
        lambda: Markup(viewer_json(attempt_viewer(replay.records, reader.language)))
    )
    name = shown_name(replay.name)
    return Page(
        "attempt.html",
        {
            "title": _("{name} on {day}", name=name, day=day.isoformat()),
            "description": _("Daily deals: {percent}", percent=percent(replay.percent)),
            "day": reader.links.day_path(reader.guild_id, day),
            "viewer": viewer,
        },
        final=True,
    )
