"""A match's page: the score table deal by deal, the score chart, and the deal viewer.

Only a finished match is shown: one in play says it is still being played (and how
far), a cancelled one that it was cancelled; neither shows a card. Replaying the record
(the score table, the viewer's every point) is done off the event loop, once: a finished
match never changes, so its page is cached (:mod:`bot.web.cache`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from bot import i18n
from bot.engine import rules_for
from bot.engine.match import Match
from bot.i18n import _
from bot.render.chart import ChartData, chart_png
from bot.render.rules import rules_line
from bot.render.text import contract_name
from bot.review.replay import Replay
from bot.review.result import PlayerReview
from bot.store import MatchInfo, MatchStatus, NotFound, ReviewStatus

from ..charts import score_chart
from ..site import NotThere, Page, Reader, Services
from ..viewer import match_viewer, script_json
from .common import only, shown_name, signed, when


async def finished_match(services: Services, reader: Reader, match_id: int) -> MatchInfo:
    """The match, if it is this server's; :class:`NotThere` otherwise."""
    try:
        info = await services.matches.get_match(match_id)
    except NotFound:
        raise NotThere("no such match") from None
    if info.guild_id != reader.guild_id:
        raise NotThere("another server's match")
    return info


async def match_page(
    services: Services, reader: Reader, match_id: int, query: Mapping[str, str]
) -> Page:
    only(query, set())
    info = await finished_match(services, reader, match_id)
    names = [shown_name(seat.name) for seat in info.seats]
    context: dict[str, Any] = {
        "title": _("Match {match}", match=match_id),
        "players": ", ".join(names),
        "server": reader.links.server_path(reader.guild_id) if reader.public else None,
    }
    if info.status is MatchStatus.PLAYING:
        deals = rules_for(info.rules["variant"], info.rules.get("house_rules")).deals
        context["description"] = _(
            "Match {match} is still being played (deal {deal} of {deals}); its page shows "
            "it once it is over.",
            match=match_id,
            deal=max(1, info.deals),
            deals=deals,
        )
        return Page("waiting.html", context)
    if info.status is MatchStatus.CANCELLED:
        context["description"] = _(
            "Match {match} was cancelled before its end: there is nothing to look back at.",
            match=match_id,
        )
        return Page("waiting.html", context)
    record = await services.matches.load_record(match_id)
    reviews = []
    for seat in range(4):
        state = await services.reviews.get(match_id, seat)
        if state is not None and state.status is ReviewStatus.DONE and state.review:
            reviews.append(PlayerReview.from_json(state.review))
    context.update(
        await asyncio.to_thread(_finished, record, reviews, reader.language),
        when=when(info.ended_at),
        og_image=reader.links.chart_path(reader.guild_id, match_id),
    )
    return Page("match.html", context, final=True)


async def match_chart(services: Services, reader: Reader, match_id: int) -> bytes:
    """The score chart as a PNG (the link preview's picture), drawn off the loop."""
    info = await finished_match(services, reader, match_id)
    if info.status is not MatchStatus.FINISHED:
        raise NotThere("no chart before the end")
    record = await services.matches.load_record(match_id)

    def draw() -> bytes:
        with i18n.using(reader.language):
            return chart_png(_chart_data(Replay.from_record(record).match, reader.language))

    return await asyncio.to_thread(draw)


def _chart_data(match: Match, language: str) -> ChartData:
    deals = [deal for deal in match.deals if deal.contract is not None and deal.is_done]
    return ChartData(
        names=tuple(shown_name(name) for name in match.players),
        contracts=tuple(deal.contract.id for deal in deals if deal.contract is not None),
        scores=tuple(tuple(deal.final_scores()) for deal in deals),
        deals=match.rules.deals,
        language=language,
    )


def _finished(
    record: dict[str, Any], reviews: Sequence[PlayerReview], language: str
) -> dict[str, Any]:
    """What the page shows of a finished match (in a worker thread)."""
    with i18n.using(language):
        replay = Replay.from_record(record)
        match = replay.match
        names = [shown_name(name) for name in match.players]
        running = [0, 0, 0, 0]
        deals = []
        for number, deal in enumerate(match.deals, 1):
            if deal.contract is None or not deal.is_done:
                continue
            scores = deal.final_scores()
            running = [total + score for total, score in zip(running, scores, strict=True)]
            deals.append(
                {
                    "number": number,
                    "contract": contract_name(deal.contract),
                    "chooser": names[deal.chooser],
                    "doubled": any(any(row) for row in deal.multipliers),
                    "scores": [signed(score) for score in scores],
                    "totals": [signed(total) for total in running],
                }
            )
        totals, ranks = match.totals(), match.ranking()
        order = sorted(range(4), key=lambda seat: (ranks[seat], seat))
        data = _chart_data(match, language)
        return {
            "names": names,
            "rules": rules_line(match.rules),
            "deals": deals,
            "totals": [signed(total) for total in totals],
            "standings": [
                {"rank": ranks[seat], "name": names[seat], "total": signed(totals[seat])}
                for seat in order
            ],
            "description": " · ".join(
                f"{ranks[seat]}. {names[seat]} {signed(totals[seat])}" for seat in order
            ),
            "chart": score_chart(data, _("Scores after each deal")),
            # Made into the script element's text here, in the worker thread.
            "viewer": Markup(script_json(match_viewer(replay, language, reviews))),
        }
