"""A match's page: the score table deal by deal, the score chart, and the deal viewer;
and each deal's points, which the viewer fetches as JSON when it shows the deal.

The match is found by the finished-match service, as the replay and the review find
it: only a finished match is shown; one in play says it is still being played (and how
far), a cancelled one that it was cancelled, in the service's own words, and neither
shows a card (nor does a deal's JSON: it is not there). The page carries what the viewer
needs to start, not a point of it; a deal's points are fetched when it is shown.

A finished match never changes, so what its pages show is made from its replay once,
without a word (the page's summary, :func:`match_summary`, and each deal's points,
:func:`~bot.web.viewer.deal_facts`), and kept by the finished-match service in the
store (:meth:`~bot.archive.FinishedMatchService.view`): a reader's page reads one row
and puts it in his words, with no replay through the engine (some ten milliseconds of
a core). The pages themselves are kept drawn too (:mod:`bot.web.cache`).
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup

from bot import i18n
from bot.archive import ArchiveReason, ArchiveRefusal
from bot.engine import rules_for
from bot.i18n import _
from bot.render.archive import refusal_text
from bot.render.chart import ChartData, chart_png
from bot.render.rules import rules_line
from bot.render.text import contract_name
from bot.review.replay import Replay
from bot.review.result import PlayerReview

from ..charts import score_chart
from ..site import NotThere, Page, Reader, Services
from ..viewer import FORMAT, deal_facts, deal_moves, deal_words, match_viewer, viewer_json
from .common import only, shown_name, signed, when

SUMMARY = "page/1"
"""The kept part (:meth:`~bot.archive.FinishedMatchService.view`) with what the match's
page shows, without a word (:func:`match_summary`); another format, another name."""
DEAL = "deal/1/{number}"
"""The kept part with a deal's points, without a word (:func:`_deal_packed`)."""


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
        summary = await _summary(services, reader, match_id)
    except ArchiveRefusal as refusal:
        if refusal.reason not in (ArchiveReason.IN_PLAY, ArchiveReason.CANCELLED):
            raise NotThere(str(refusal)) from None
        # Said as the replay says it; a match in play shows nothing of its cards.
        context["description"] = refusal_text(refusal)
        return Page("waiting.html", context)

    deal_path = reader.links.deal_paths(reader.guild_id, match_id)

    def deal_href(number: int) -> str:
        return f"{deal_path(number)}?lang={reader.language}"  # the page's, whatever the fetch says

    reviews = [
        PlayerReview.from_json(state.review)
        for state in await services.reviews.done(match_id)
        if state.review
    ]
    context.update(
        _finished(summary, reviews, reader.language, deal_href),
        players=", ".join(shown_name(seat.name) for seat in info.seats),
        when=when(info.ended_at),
        og_image=reader.links.chart_path(reader.guild_id, match_id),
    )
    return Page("match.html", context, final=True)


async def match_chart(services: Services, reader: Reader, match_id: int) -> bytes:
    """The score chart as a PNG (the link preview's picture), drawn off the loop."""
    try:
        summary = await _summary(services, reader, match_id)
    except ArchiveRefusal:
        raise NotThere("no chart before the end") from None

    def draw() -> bytes:
        with i18n.using(reader.language):
            return chart_png(_chart_data(summary, reader.language))

    return await asyncio.to_thread(draw)


async def deal_json(services: Services, reader: Reader, match_id: int, number: int) -> bytes:
    """Deal ``number``'s points (counted from 1) as the viewer fetches them, in the
    reader's language, from what the finished-match service keeps of the deal: its
    words made for the reader and put before its facts, which are sent as kept (a deal's
    points are the same in every language); :class:`NotThere` for a match not finished
    (or not the server's) or a deal it does not have."""
    try:
        info = await services.archive.get(reader.guild_id, match_id)
        body = await services.archive.deal_view(
            reader.guild_id,
            match_id,
            number - 1,
            DEAL.format(number=number),
            lambda replay: _deal_packed(replay, number - 1),
        )
    except ArchiveRefusal:
        raise NotThere("no such deal, or not before the end") from None
    moves, _, facts = zlib.decompress(body).partition(b"\n")
    players = [seat.name for seat in info.seats]
    words = deal_words(json.loads(moves), players, info.deals, reader.language)
    head = json.dumps({"format": FORMAT} | words, ensure_ascii=False, separators=(",", ":"))
    return head[:-1].encode() + b"," + facts[1:]  # one object: the words, then the facts


def _deal_packed(replay: Replay, deal: int) -> bytes:
    """A deal as the store keeps it: what its words are made from (:func:`~bot.web.
    viewer.deal_moves`), a line, and its facts (:func:`~bot.web.viewer.deal_facts`) as
    the JSON the viewer is sent, compressed."""
    facts = deal_facts(replay, deal)
    moves = json.dumps(deal_moves(facts), separators=(",", ":"))
    return zlib.compress(f"{moves}\n{json.dumps(facts, separators=(',', ':'))}".encode())


def match_summary(replay: Replay) -> dict[str, Any]:
    """What the match's page shows, without a word (kept by the finished-match service:
    the page reads it, not the replay): the players, the rules, each deal's number,
    contract, chooser, whether anyone doubled, its final scores and its number of points
    (the viewer's steps), and the match's totals and ranks, as the engine counts them."""
    match = replay.match
    deals = []
    for index, deal in enumerate(match.deals):
        if deal.contract is None or not deal.is_done:
            continue
        deals.append(
            {
                "number": index + 1,
                "contract": deal.contract.id,
                "chooser": deal.chooser,
                "doubled": any(any(row) for row in deal.multipliers),
                "scores": list(deal.final_scores()),
                "steps": replay.steps(index),
            }
        )
    return {
        "players": list(match.players),
        "rules": {"variant": match.rules.variant, "house_rules": dict(match.rules.house_rules)},
        "deals": deals,
        "totals": list(match.totals()),
        "ranks": list(match.ranking()),
    }


async def _summary(services: Services, reader: Reader, match_id: int) -> dict[str, Any]:
    """The finished match's summary (:func:`match_summary`), as the finished-match
    service keeps it; its refusals rise."""
    body = await services.archive.view(
        reader.guild_id, match_id, SUMMARY, lambda replay: _packed(match_summary(replay))
    )
    return _unpacked(body)


def _packed(data: Mapping[str, Any]) -> bytes:
    """A view as the store keeps it: compact JSON, compressed (a deal's points are some
    12 kB, a fifth of it compressed)."""
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode())


def _unpacked(body: bytes) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(zlib.decompress(body))
    return data


def _chart_data(summary: Mapping[str, Any], language: str) -> ChartData:
    rules = rules_for(**summary["rules"])
    return ChartData(
        names=tuple(shown_name(name) for name in summary["players"]),
        contracts=tuple(deal["contract"] for deal in summary["deals"]),
        scores=tuple(tuple(deal["scores"]) for deal in summary["deals"]),
        deals=rules.deals,
        language=language,
    )


def _score_cells(scores: Sequence[int], running: Sequence[int]) -> Markup:
    """A deal's cells of the score table: each seat's score over its running total.
    Written here rather than by a loop of the template: the table's some ninety numbers
    are most of what a match's page writes, and Jinja would escape each of them (a sign
    and digits, as :func:`~.common.signed` writes them: nothing to escape)."""
    cell = '<td class="num">{}<br><span class="muted small">{}</span></td>'
    return Markup(
        "".join(
            cell.format(signed(score), signed(total))
            for score, total in zip(scores, running, strict=True)
        )
    )


def _finished(
    summary: Mapping[str, Any],
    reviews: Sequence[PlayerReview],
    language: str,
    deal_href: Callable[[int], str],
) -> dict[str, Any]:
    """What the page shows of a finished match, from its summary; ``deal_href``: where
    the viewer fetches a deal's points."""
    with i18n.using(language):
        names = [shown_name(name) for name in summary["players"]]
        played = {deal["contract"] for deal in summary["deals"]}
        contracts = {contract: contract_name(contract) for contract in played}
        running = [0, 0, 0, 0]
        deals = []
        for deal in summary["deals"]:
            scores = deal["scores"]
            running = [total + score for total, score in zip(running, scores, strict=True)]
            deals.append(
                {
                    "number": deal["number"],
                    "contract": contracts[deal["contract"]],
                    "chooser": names[deal["chooser"]],
                    "doubled": deal["doubled"],
                    "cells": _score_cells(scores, running),
                }
            )
        totals, ranks = summary["totals"], summary["ranks"]
        order = sorted(range(4), key=lambda seat: (ranks[seat], seat))
        data = _chart_data(summary, language)
        return {
            "names": names,
            "rules": rules_line(rules_for(**summary["rules"])),
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
            "viewer": Markup(viewer_json(match_viewer(summary, language, deal_href, reviews))),
        }
