"""The deal viewer's data (bot/web/viewer.py): what the browser is given (the page's start,
each deal's points as it fetches them) equals the match record, every card accounted
for, the words in the page's language, a review's marks where its decisions were made."""

from __future__ import annotations

import json

import pytest

from bot.engine import CARDS, Card
from bot.review.replay import Replay, ReplayError
from bot.web.pages.match import match_summary
from bot.web.viewer import (
    FORMAT,
    attempt_viewer,
    deal_facts,
    match_deal,
    match_viewer,
    script_json,
    viewer_json,
)
from tests.web.viewer_helpers import attempt, record, replay, review

SEEDS = (11, 12)


def _href(number: int) -> str:
    return f"/deal/{number}.json"


def _deals(replayed: Replay, language: str = "en") -> list[dict]:
    """Every deal's points, as the viewer fetches them one by one (each made without a
    word, as the finished-match service keeps it, then in the reader's words)."""
    return [
        match_deal(deal_facts(replayed, deal), replayed.match.players, replayed.deals, language)
        for deal in range(replayed.deals)
    ]


def _start(replayed: Replay, language: str = "en", reviews: tuple = ()) -> dict:
    """The viewer's start, as the match page makes it from the match's summary."""
    return match_viewer(match_summary(replayed), language, _href, reviews)


def _hands_at(deal: dict, step: int) -> list[list[str]]:
    """The hands at ``step`` as the script finds them: the dealt hands less every card
    played up to there."""
    played = {
        point["action"][2:]
        for point in deal["steps"][1 : step + 1]
        if point["action"] and point["action"].startswith("P:")
    }
    return [[card for card in hand if card not in played] for hand in deal["hands"]]


@pytest.mark.parametrize("seed", SEEDS)
def test_every_point_holds_the_deals_52_cards_once(seed: int) -> None:
    deals = _deals(replay(seed))
    played_record = record(seed)["deals"]
    assert len(deals) == len(played_record)
    for deal, entry in zip(deals, played_record, strict=True):
        dealt = sorted(card for hand in entry["hands"] for card in hand)
        assert sorted(card for hand in deal["hands"] for card in hand) == dealt
        assert {Card.parse(code) for code in dealt} == set(CARDS)
        for step in range(len(deal["steps"])):
            held = [card for hand in _hands_at(deal, step) for card in hand]
            played = [
                point["action"][2:]
                for point in deal["steps"][1 : step + 1]
                if point["action"].startswith("P:")
            ]
            assert sorted(held + played) == dealt
            assert len(set(held + played)) == 52


@pytest.mark.parametrize("seed", SEEDS)
def test_each_point_is_the_replays_point(seed: int) -> None:
    match = replay(seed)
    for index, deal in enumerate(_deals(match)):
        assert deal["format"] == FORMAT
        points = match.deal_points(index)
        assert len(deal["steps"]) == len(points)
        for step, (shown, point) in enumerate(zip(deal["steps"], points, strict=True)):
            hands = _hands_at(deal, step)
            for seat in range(4):
                assert sorted(hands[seat]) == sorted(card.code for card in point.hands[seat])
            assert shown["trick"] == [[seat, card.code] for seat, card in point.trick]
            assert shown["winner"] == point.trick_winner
            assert shown["taken"] == list(point.view.tricks_taken)
            assert shown["final"] == list(point.final)
            assert shown["end"] is point.is_end
        assert deal["tricks"] == [p.address.step for p in points if p.trick_winner is not None]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_scores_at_each_deals_end_are_the_records(seed: int) -> None:
    deals = _deals(replay(seed))
    played = record(seed)
    for deal, entry in zip(deals, played["deals"], strict=True):
        assert deal["steps"][-1]["final"] == entry["scores"]
        assert deal["contract"] == entry["contract"]
    assert deals[-1]["steps"][-1]["totals"] == played["totals"]


def test_the_page_starts_the_viewer_without_a_point_and_names_where_each_deal_is() -> None:
    replayed = replay(11)
    data = _start(replayed)
    assert data["format"] == FORMAT
    assert [deal["href"] for deal in data["deals"]] == [
        _href(number) for number in range(1, replayed.deals + 1)
    ]
    for deal, points in zip(data["deals"], _deals(replayed), strict=True):
        assert "steps" not in deal and "hands" not in deal
        assert {key: deal[key] for key in ("number", "heading", "title")} == {
            key: points[key] for key in ("number", "heading", "title")
        }


def test_a_deal_the_match_does_not_have_is_refused() -> None:
    replayed = replay(11)
    for number in (0, replayed.deals + 1):
        with pytest.raises(ReplayError):
            deal_facts(replayed, number - 1)


def test_words_and_names_are_the_pages_language() -> None:
    english = _start(replay(11))
    dutch = _start(replay(11), "nl")
    assert english["language"] == "en" and dutch["language"] == "nl"
    assert english["words"]["forward"] == "Forward"
    assert dutch["words"]["forward"] == "Verder"
    assert english["ranks"]["12"] == "Q" and dutch["ranks"]["12"] == "V"
    queens = [d for d in _deals(replay(11), "nl") if d["contract"] == "queens"]
    assert queens and queens[0]["contract_name"] == "Vrouwen"
    assert dutch["deals"][0]["heading"].startswith("Potje 1 van ")
    assert dutch["tricks"][1] == "1 slag" and dutch["tricks"][2] == "2 slagen"
    assert english["names"] == list(record(11)["players"])


def test_a_computers_name_is_said_in_the_pages_language() -> None:
    data = attempt_viewer(attempt(3, 2), "nl")
    assert data["names"] == ["Ann", "Oost-bot", "Zuid-bot", "West-bot"]


def test_a_reviews_decisions_are_marked_where_they_were_made() -> None:
    seat = 2
    reviewed = review(11, seat)
    assert reviewed.flagged, "a normal player's match should have flagged decisions"
    match = replay(11)
    data = _start(match, reviews=(reviewed,))
    (marked,) = data["reviews"]
    assert marked["seat"] == seat and marked["name"] == "Cas"
    assert len(marked["decisions"]) == len(reviewed.flagged)
    for shown, decision in zip(marked["decisions"], reviewed.flagged, strict=True):
        point = match.point(decision.address)
        assert (shown["deal"], shown["step"]) == (decision.deal, decision.address.step)
        assert point.view.to_act == seat  # the position before the decision
        assert shown["class"] == decision.grade.value
        if decision.kind == "play":
            hand = {card.code for card in point.hands[seat]}
            assert shown["chosen"] in hand and shown["best"] in hand
            assert shown["chosen"] == decision.chosen[2:]
        assert shown["loss"] == decision.loss
    costliest = {(d.deal, d.address.step) for d in reviewed.costliest}
    assert {(d["deal"], d["step"]) for d in marked["decisions"] if d["costliest"] is not None} == (
        costliest
    )
    ranked = sorted(
        (d["costliest"], d["deal"], d["step"])
        for d in marked["decisions"]
        if d["costliest"] is not None
    )
    assert [(deal, step) for _, deal, step in ranked] == [
        (d.deal, d.address.step) for d in reviewed.costliest
    ]


def test_a_closed_days_attempt_keeps_the_days_numbers_and_leaves_unfinished_deals_out() -> None:
    records = attempt(5, 3, unfinished=1)
    with pytest.raises(ReplayError):
        Replay.from_record(records[1], whole=False)
    data = attempt_viewer(records, "en")
    assert data["format"] == FORMAT
    assert [deal["number"] for deal in data["deals"]] == [1, 3]
    assert data["deals"][1]["heading"] == "Deal 3 of 3"
    for deal, kept in zip(data["deals"], (records[0], records[2]), strict=True):
        assert deal["steps"][-1]["final"] == kept["deals"][0]["scores"]
        assert deal["hands"] and all(len(hand) == 13 for hand in deal["hands"])


def test_the_json_cannot_close_its_script_element() -> None:
    tricky = dict(record(11))
    tricky["players"] = ["</script><script>alert(1)</script>", "<!--", "&amp;", "Dirk"]
    data = _start(Replay.from_record(tricky))
    text = script_json(data)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["names"][:3] == tricky["players"][:3]


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_viewers_json_with_its_words_written_once_is_the_whole_datas(language: str) -> None:
    tricky = dict(record(12))
    tricky["players"] = ["</script>", "Zoë & <b>", "Cas", "Dirk"]
    replayed = Replay.from_record(tricky)
    starts = [
        match_viewer(match_summary(replayed), language, _href, ()),
        match_viewer(match_summary(replay(11)), language, _href, (review(11, 0),)),
        attempt_viewer(attempt(5, 3, unfinished=1), language),
    ]
    for data in starts:
        assert viewer_json(data) == script_json(data)
