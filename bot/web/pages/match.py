"""A match's page: the score table deal by deal, the score chart, and the deal viewer;
and each deal's points, which the viewer fetches as JSON when it shows the deal.

The match is found, and its replay built, by the finished-match service, as the replay
and the review find them: only a finished match is shown; one in play says it is still
being played (and how far), a cancelled one that it was cancelled, in the service's own
words, and neither shows a card (nor does a deal's JSON: it is not there). The page
carries what the viewer needs to start, not a point of it (replaying every deal for
every point was most of the page's cost); a deal's points are replayed off the event
loop when first asked for. A finished match never changes, so both are kept drawn
(:mod:`bot.web.cache`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup

from bot import i18n
from bot.archive import ArchiveReason, ArchiveRefusal
from bot.engine.match import Match
from bot.i18n import _
from bot.render.archive import refusal_text
from bot.render.chart import ChartData, chart_png
from bot.render.rules import rules_line
from bot.render.text import contract_name
from bot.review.replay import Replay
from bot.review.result import PlayerReview
from bot.store import ReviewStatus

from ..charts import score_chart
from ..site import NotThere, Page, Reader, Services
from ..viewer import match_deal, match_viewer, script_json
from .common import only, shown_name, signed, when


async def match_page(
    services: Services, reader: Reader, match_id: int, query: Mapping[str, str]
) -> Page:
    only(query, set())
    context: dict[str, Any] = {
        "title": _("Match {match}", match=match_id),
        "server": reader.links.server_path(reader.guild_id) if reader.public else None,
    }
    try:
        info = await services.archive.get(reader.guild_id, match_id)
        replay = await services.archive.replay(reader.guild_id, match_id)
    except ArchiveRefusal as refusal:
        if refusal.reason not in (ArchiveReason.IN_PLAY, ArchiveReason.CANCELLED):
            raise NotThere(str(refusal)) from None
        # Said as the replay says it; a match in play shows nothing of its cards.
        context["description"] = refusal_text(refusal)
        return Page("waiting.html", context)

    def deal_href(number: int) -> str:
        path = reader.links.deal_path(reader.guild_id, match_id, number)
        return f"{path}?lang={reader.language}"  # the page's, whatever the fetch says

    reviews = []
    for seat in range(4):
        state = await services.reviews.get(match_id, seat)
        if state is not None and state.status is ReviewStatus.DONE and state.review:
            reviews.append(PlayerReview.from_json(state.review))
    context.update(
        await asyncio.to_thread(_finished, replay, reviews, reader.language, deal_href),
        players=", ".join(shown_name(seat.name) for seat in info.seats),
        when=when(info.ended_at),
        og_image=reader.links.chart_path(reader.guild_id, match_id),
    )
    return Page("match.html", context, final=True)


async def match_chart(services: Services, reader: Reader, match_id: int) -> bytes:
    """The score chart as a PNG (the link preview's picture), drawn off the loop."""
    try:
        replay = await services.archive.replay(reader.guild_id, match_id)
    except ArchiveRefusal:
        raise NotThere("no chart before the end") from None

    def draw() -> bytes:
        with i18n.using(reader.language):
            return chart_png(_chart_data(replay.match, reader.language))

    return await asyncio.to_thread(draw)


async def deal_json(services: Services, reader: Reader, match_id: int, number: int) -> bytes:
    """Deal ``number``'s points (counted from 1) as the viewer fetches them, in the
    reader's language, made off the loop; :class:`NotThere` for a match not finished
    (or not the server's) or a deal it does not have."""
    try:
        replay = await services.archive.deal(reader.guild_id, match_id, number - 1)
    except ArchiveRefusal:
        raise NotThere("no such deal, or not before the end") from None

    def made() -> bytes:
        data = match_deal(replay, number, reader.language)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()

    return await asyncio.to_thread(made)


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
    replay: Replay,
    reviews: Sequence[PlayerReview],
    language: str,
    deal_href: Callable[[int], str],
) -> dict[str, Any]:
    """What the page shows of a finished match (in a worker thread); ``deal_href``:
    where the viewer fetches a deal's points."""
    with i18n.using(language):
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
            "viewer": Markup(script_json(match_viewer(replay, language, deal_href, reviews))),
        }
