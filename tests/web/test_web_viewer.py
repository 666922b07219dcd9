"""The deal viewer in a real browser: stepped with the keys, the buttons, the menus and
links, what it shows at each point is the match record's; at a phone's width it fits;
a review's decisions are marked; the page's strict CSP lets it run without one error
(the ``page`` fixture fails a test on any)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

import pytest
from playwright.sync_api import Page

from bot import i18n
from bot.render.labels import signed
from bot.render.replay import caption_of, sorted_hand
from bot.render.text import card_text, player_name
from bot.review import PlayerReview
from bot.review.replay import Replay, ReplayPoint
from bot.web.pages.match import match_summary
from bot.web.viewer import attempt_viewer, deal_facts, match_deal, match_viewer, script_json
from tests.web.conftest import PHONE, Site
from tests.web.viewer_helpers import attempt, replay, review

SEED = 11
PAGE = """<!doctype html>
<html lang="{language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/viewer.css">
<script src="/static/cards.js" defer></script>
<script src="/static/viewer.js" defer></script>
</head><body>
<div class="deal-viewer" data-source="viewer-data"></div>
<script type="application/json" id="viewer-data">{data}</script>
</body></html>"""
_pages = itertools.count()

SHOWN = """root => ({
  deal: Number(root.dataset.deal),
  step: Number(root.dataset.step),
  hands: [0, 1, 2, 3].map(seat => Array.from(
    root.querySelectorAll(`.dv-seat[data-seat="${seat}"] .dv-hand .card`),
    card => [card.dataset.card, card.getAttribute("aria-label")])),
  trick: Array.from(root.querySelectorAll(".dv-trick .card"),
    card => [Number(card.dataset.seat), card.dataset.card]),
  plates: Array.from(root.querySelectorAll(".dv-plate"), plate => ({
    taken: Number(plate.dataset.taken), base: Number(plate.dataset.base),
    final: Number(plate.dataset.final), total: Number(plate.dataset.total),
    text: plate.innerText})),
  caption: root.querySelector(".dv-caption").textContent,
  rows: Array.from(root.querySelectorAll(".dv-row"),
    row => [row.dataset.suit, Array.from(row.querySelectorAll(".card"), c => c.dataset.card)]),
  hash: location.hash,
})"""
"""Everything the viewer shows of a point, read from the page."""


def _serve(site: Site, data: dict[str, Any], language: str = "en") -> str:
    path = f"/viewer-{next(_pages)}"
    site.pages[path] = PAGE.format(language=language, data=script_json(data))
    return site.url + path


def _open(page: Page, site: Site, replayed: Replay, *, at: str = "", **options: Any) -> str:
    """Opens a page of ``replayed``'s viewer, its deals served where it fetches them;
    returns the deals' folder."""
    language = options.pop("language", "en")
    folder = f"/deals-{next(_pages)}"
    for deal in range(replayed.deals):
        facts = deal_facts(replayed, deal)
        points = match_deal(facts, replayed.match.players, replayed.deals, language)
        site.pages[f"{folder}/{deal + 1}.json"] = json.dumps(points)
    data = match_viewer(
        match_summary(replayed), language, lambda n: f"{folder}/{n}.json", **options
    )
    page.goto(_serve(site, data, language) + at)
    page.wait_for_selector(".dv-table")
    return folder


def _shown(page: Page) -> dict[str, Any]:
    return page.locator(".deal-viewer").evaluate(SHOWN)


def _names(replayed: Replay) -> list[str]:
    return [player_name(name) for name in replayed.match.players]


def _expect(page: Page, replayed: Replay, deal: int, step: int) -> None:
    """The page shows point ``(deal, step)`` as the record has it: every hand's cards (in
    the order players hold them, in words), the trick, each seat's tricks and scores."""
    point: ReplayPoint = replayed.deal_points(deal)[step]
    # The deal may still be on its way: wait until the viewer says it shows that point.
    # A selector, not a function: the page's CSP forbids the eval a function needs.
    page.wait_for_selector(
        f'.deal-viewer[data-deal="{deal + 1}"][data-step="{step}"]:not([aria-busy])'
    )
    shown = _shown(page)
    assert (shown["deal"], shown["step"]) == (deal + 1, step)
    for seat in range(4):
        held = sorted_hand(point.hands[seat])
        assert shown["hands"][seat] == [[card.code, card_text(card)] for card in held]
    assert shown["trick"] == [[seat, card.code] for seat, card in point.trick]
    view = point.view
    contract = replayed.match.deals[deal].contract
    domino = contract is not None and contract.domino
    for seat, plate in enumerate(shown["plates"]):
        assert plate["taken"] == view.tricks_taken[seat]
        assert plate["base"] == view.base[seat]
        assert plate["final"] == point.final[seat]
        assert plate["total"] == view.totals[seat]
        assert _names(replayed)[seat] in plate["text"]
        if not domino:
            assert signed(view.base[seat]) in plate["text"]
    assert shown["caption"] == caption_of(point, _names(replayed))
    if domino:
        rows = {suit.letter: (low, high) for suit, (low, high) in view.domino_rows.items()}
        for suit, cards in shown["rows"]:
            low, high = rows.get(suit, (0, -1))
            assert len(cards) == high - low + 1


def test_the_arrow_keys_step_through_a_deal_as_the_record_played_it(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    _open(page, site, replayed)
    for step in range(replayed.steps(0)):
        _expect(page, replayed, 0, step)
        page.keyboard.press("ArrowRight")
    _expect(page, replayed, 1, 0)  # past a deal's end: the next deal's start
    page.keyboard.press("ArrowLeft")
    _expect(page, replayed, 0, replayed.steps(0) - 1)


def test_the_buttons_and_the_menus_reach_every_deal(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    _open(page, site, replayed)
    viewer = page.locator(".deal-viewer")
    for deal in range(replayed.deals):
        viewer.locator(".dv-deal-menu select").select_option(value=str(deal))
        _expect(page, replayed, deal, 0)
        viewer.get_by_role("button", name="Forward").click()
        _expect(page, replayed, deal, 1)
        viewer.get_by_role("button", name="End of deal").click()
        _expect(page, replayed, deal, replayed.steps(deal) - 1)
        viewer.get_by_role("button", name="Back").click()
        _expect(page, replayed, deal, replayed.steps(deal) - 2)
        viewer.get_by_role("button", name="Start of deal").click()
        _expect(page, replayed, deal, 0)
    assert viewer.get_by_role("button", name="Start of deal").is_disabled()
    viewer.get_by_role("button", name="Back").click()  # from a deal's start: the last deal's end
    _expect(page, replayed, replayed.deals - 2, replayed.steps(replayed.deals - 2) - 1)


def test_the_trick_menu_and_the_timeline_jump_there(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    deal = next(d for d in range(replayed.deals) if replayed.label(d).contract != "domino")
    _open(page, site, replayed, at=f"#deal-{deal + 1}-step-0")
    completed = [p.address.step for p in replayed.deal_points(deal) if p.trick_winner is not None]
    viewer = page.locator(".deal-viewer")
    viewer.locator(".dv-trick-menu select").select_option(value="4")  # the fifth trick
    _expect(page, replayed, deal, completed[4])
    assert len(_shown(page)["trick"]) == 4
    viewer.locator('.dv-tick[data-step="7"]').click()
    _expect(page, replayed, deal, 7)
    menu = viewer.locator(".dv-trick-menu select")
    viewer.locator(f'.dv-tick[data-step="{completed[1] - 1}"]').click()  # in the second trick
    assert menu.input_value() == "1"
    viewer.locator(f'.dv-tick[data-step="{completed[0]}"]').click()  # the first just taken
    assert menu.input_value() == "0"
    viewer.get_by_role("button", name="Start of deal").click()  # no card played yet
    assert menu.input_value() == "-1"


def test_a_link_opens_at_its_point_and_follows_the_steps(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    _open(page, site, replayed, at="#deal-4-step-17")
    _expect(page, replayed, 3, 17)
    page.keyboard.press("ArrowRight")
    _expect(page, replayed, 3, 18)
    assert _shown(page)["hash"] == "#deal-4-step-18"
    page.evaluate("location.hash = '#deal-2-step-5'")  # a link followed within the page
    page.wait_for_selector('.deal-viewer[data-step="5"]')
    _expect(page, replayed, 1, 5)


def test_a_deal_is_fetched_when_shown_and_the_next_one_while_it_is(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    folder = _open(page, site, replayed, at="#deal-3-step-0")
    _expect(page, replayed, 2, 0)
    for _ in range(200):  # the next deal is asked for once this one is drawn
        if site.asked[f"{folder}/4.json"]:
            break
        page.wait_for_timeout(25)
    asked = {path for path in site.asked if path.startswith(folder)}
    assert asked == {f"{folder}/3.json", f"{folder}/4.json"}
    for _ in range(replayed.steps(2)):
        page.keyboard.press("ArrowRight")  # across the deal's end, into the one fetched ahead
    _expect(page, replayed, 3, 0)
    page.keyboard.press("ArrowLeft")
    _expect(page, replayed, 2, replayed.steps(2) - 1)
    assert site.asked[f"{folder}/3.json"] == 1 and site.asked[f"{folder}/4.json"] == 1


def test_a_link_to_no_such_point_opens_at_the_start(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    _open(page, site, replayed, at="#deal-99-step-3")
    _expect(page, replayed, 0, 0)


def test_domino_shows_its_rows(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    deal = next(d for d in range(replayed.deals) if replayed.label(d).contract == "domino")
    end = replayed.steps(deal) - 1
    _open(page, site, replayed, at=f"#deal-{deal + 1}-step-{end // 2}")
    _expect(page, replayed, deal, end // 2)
    assert page.locator(".dv-row").count() == 4


def test_at_a_phones_width_everything_fits(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    page.set_viewport_size(PHONE)
    for at in ("#deal-1-step-20", f"#deal-{_domino(replayed) + 1}-step-30"):
        _open(page, site, replayed, at=at)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        outside = page.evaluate(
            """() => Array.from(document.querySelectorAll('.deal-viewer .card, .dv-button'))
                .filter(e => { const r = e.getBoundingClientRect();
                               return r.left < 0 || r.right > window.innerWidth; }).length"""
        )
        assert outside == 0
        for name in ("Back", "Forward"):
            assert page.get_by_role("button", name=name).is_visible()


OVERLAPS = """() => {
  const boxes = (selector) => Array.from(document.querySelectorAll(selector),
    e => e.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                      && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const union = (rects) => ({left: Math.min(...rects.map(r => r.left)),
    right: Math.max(...rects.map(r => r.right)), top: Math.min(...rects.map(r => r.top)),
    bottom: Math.max(...rects.map(r => r.bottom))});
  const suits = Array.from(document.querySelectorAll(".dv-suit"),
    suit => union(Array.from(suit.children, card => card.getBoundingClientRect())));
  const groups = [...suits, ...boxes(".dv-plate"), ...boxes(".dv-centre")];
  let found = 0;
  groups.forEach((a, i) => groups.slice(i + 1).forEach(b => { if (meet(a, b)) found++; }));
  return found;
}"""
"""How many suits of a hand (where their cards lie), players' plates and the middle
overlap one another."""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1000, "height": 900}])
def test_as_dealt_no_hand_overlaps_another_or_the_table(
    page: Page, site: Site, viewport: dict[str, int]
) -> None:
    replayed = replay(SEED)
    page.set_viewport_size(viewport)
    for deal in range(replayed.deals):
        _open(page, site, replayed, at=f"#deal-{deal + 1}-step-0")
        assert page.evaluate(OVERLAPS) == 0, f"deal {deal + 1}"


def _domino(replayed: Replay) -> int:
    return next(d for d in range(replayed.deals) if replayed.label(d).contract == "domino")


def _marks(reviewed: Sequence[PlayerReview]) -> set[tuple[int, int]]:
    return {(d.deal + 1, d.address.step) for r in reviewed for d in r.flagged}


def test_a_reviews_decisions_are_marked_and_the_costliest_open_at_their_point(
    page: Page, site: Site
) -> None:
    replayed, reviewed = replay(SEED), review(SEED, 2)
    _open(page, site, replayed, reviews=[reviewed])
    viewer = page.locator(".deal-viewer")
    links = viewer.locator(".dv-costliest a")
    assert links.count() == len(reviewed.costliest)
    for index, decision in enumerate(reviewed.costliest):
        links.nth(index).click()
        _expect(page, replayed, decision.deal, decision.address.step)
        note = viewer.locator('.dv-decision[data-seat="2"]')
        assert note.count() == 1 and "Cas" in note.inner_text()
        if decision.kind == "play":
            better = viewer.locator('.dv-seat[data-seat="2"] .card.dv-better')
            assert better.get_attribute("data-card") == decision.best[2:]
        marks = viewer.locator(".dv-mark").evaluate_all(
            "marks => marks.map(m => [Number(m.dataset.deal), Number(m.dataset.step)])"
        )
        expected = {(deal, step) for deal, step in _marks([reviewed]) if deal == decision.deal + 1}
        assert {tuple(mark) for mark in marks} == expected


def test_no_review_no_marks(page: Page, site: Site) -> None:
    _open(page, site, replay(SEED))
    assert page.locator(".dv-mark").count() == 0
    assert page.locator(".dv-review").count() == 0


def test_the_viewer_speaks_the_pages_language(page: Page, site: Site) -> None:
    replayed = replay(SEED)
    _open(page, site, replayed, language="nl")
    viewer = page.locator(".deal-viewer")
    assert viewer.get_by_role("button", name="Verder").is_visible()
    with i18n.using("nl"):
        names = [player_name(name) for name in replayed.match.players]
        expected = caption_of(replayed.deal_points(0)[0], names)
    assert viewer.locator(".dv-caption").inner_text() == expected
    assert viewer.locator(".dv-heading").inner_text().startswith("Potje 1 van")


@pytest.mark.parametrize("broken", ["{not json", '{"format": "bonken-viewer/0", "deals": []}'])
def test_data_it_cannot_read_draws_nothing_and_breaks_nothing(
    page: Page, site: Site, broken: str
) -> None:
    path = f"/broken-{next(_pages)}"
    site.pages[path] = PAGE.format(language="en", data="").replace(
        '<script type="application/json" id="viewer-data"></script>',
        f'<script type="application/json" id="viewer-data">{broken}</script>',
    )
    page.goto(site.url + path)
    page.wait_for_load_state("load")
    assert page.locator(".deal-viewer.dv-empty").count() == 1
    assert page.locator(".dv-table").count() == 0


def test_a_days_attempts_each_have_their_own_viewer_and_links(page: Page, site: Site) -> None:
    """A day's page holds a viewer per attempt, each with its own ``data-hash-prefix``:
    a link opens the one it names, the keys step the one last used."""
    attempts = [attempt(7, 3), attempt(8, 3)]
    viewers, scripts = [], []
    for index, records in enumerate(attempts):
        data = script_json(attempt_viewer(records, "en"))
        viewers.append(
            f'<div class="deal-viewer" data-source="a{index}" data-hash-prefix="a{index}-"></div>'
        )
        scripts.append(f'<script type="application/json" id="a{index}">{data}</script>')
    path = f"/day-{next(_pages)}"
    site.pages[path] = PAGE.format(language="en", data="").replace(
        '<div class="deal-viewer" data-source="viewer-data"></div>\n'
        '<script type="application/json" id="viewer-data"></script>',
        "\n".join(viewers + scripts),
    )
    page.goto(site.url + path + "#a1-deal-2-step-6")
    page.wait_for_selector(".dv-table")
    first, second = page.locator(".deal-viewer").all()
    assert (first.get_attribute("data-deal"), first.get_attribute("data-step")) == ("1", "0")
    assert (second.get_attribute("data-deal"), second.get_attribute("data-step")) == ("2", "6")
    expected = Replay.from_record(attempts[1][1], whole=False).deal_points(0)[6]
    shown = second.locator(".dv-trick .card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert shown == [card.code for _, card in expected.trick]
    first.locator(".dv-caption").click()  # the first viewer is the one in use now
    page.keyboard.press("ArrowRight")
    assert first.get_attribute("data-step") == "1"
    assert second.get_attribute("data-step") == "6"
    assert page.evaluate("location.hash") == "#a0-deal-1-step-1"
