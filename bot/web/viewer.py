"""The deal viewer's data: every point of a finished match, or of a closed day's attempt,
as JSON for the browser (``bot/web/static/viewer.js`` draws it).

How a page embeds a viewer (docs/playing.md, The deal viewer, shows what it draws):

- ``<link rel="stylesheet" href=".../static/viewer.css">`` and ``<script
  src=".../static/viewer.js" defer></script>`` (``bot/web/static``, shipped with the
  package); no inline script or style is needed, so the page's Content-Security-Policy
  can be ``script-src 'self'; style-src 'self'`` (and ``connect-src 'self'``, for the
  deals it fetches).
- ``<div class="deal-viewer" data-source="ID"></div>`` where it is drawn, and the data
  of :func:`match_viewer` or :func:`attempt_viewer` as ``<script type="application/json"
  id="ID">`` written with :func:`script_json` (or Jinja2's ``tojson``). A page with
  several viewers (a day's attempts) gives each a ``data-hash-prefix`` (``"a17-"``), so
  its links read ``#a17-deal-2-step-5``; a lone viewer's read ``#deal-4-step-17``.

A match's page carries only what the viewer needs to start (:func:`match_viewer`: the
words, the names, each deal's title and the address of its points, the reviews' marks);
the script fetches a deal's points (:func:`match_deal`) when it is first shown, and the
next deal's while the reader looks at one. A closed day's attempt (a few deals of one
deal each) carries its points in the page (:func:`attempt_viewer`).

Nothing here is drawn: every point comes from the review's replay (:class:`~bot.review.
replay.Replay`, the match's own actions replayed through the engine), every word is made
here in the page's language from the catalogues and the render layer's names (a
computer's "Zuid-bot", a contract's "Vrouwen", a queen's ``V``), so the script only
places them.

Every hand is face up. **The caller must only build this for what nothing hides any
more**: a finished match (a :class:`Replay` refuses a match in play, but the caller must
also check the match is the page's server's and its status is finished) and the attempts
of a day that has closed (the daily service gives attempts' records only then). A
review is given only once it is done (:attr:`~bot.store.models.ReviewState.review`,
read with :meth:`~bot.review.result.PlayerReview.from_json`).

Replaying a match through the engine takes some ten milliseconds, too much for every
reader: a deal's points are made without a word once (:func:`deal_facts`, off the event
loop) and kept by the finished-match service (a finished match never changes), and each
reader's request puts them in his words (:func:`match_deal`: the titles and each step's
caption; a deal's JSON is some 15 kB).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import i18n
from bot.engine import Play, parse_action
from bot.engine.deal import LOW_ACE
from bot.i18n import N_, _, ngettext
from bot.render.domino_image import ROWS
from bot.render.labels import LABELS, ORDINALS
from bot.render.replay import caption, sorted_hand
from bot.render.review import GRADE_MARKS, decision_line, grade_name, points_text
from bot.render.text import contract_name, player_name, rank_text
from bot.review.replay import Replay, ReplayError, ReplayPoint
from bot.review.result import PlayerReview

FORMAT = "bonken-viewer/1"
"""The data's format, checked by the script: a page and a script of different
versions say so rather than draw nonsense."""

MOST_CARDS = 13
"""The most cards a seat holds or takes tricks of: the counted words are made up to it."""

WORDS: dict[str, str] = {
    "start": N_("Start of deal"),
    "back": N_("Back"),
    "forward": N_("Forward"),
    "end": N_("End of deal"),
    "deal": N_("Deal"),
    "trick": N_("Trick"),
    "trick_number": N_("trick {number}"),
    "step": N_("step {step} of {steps}"),
    "choosing": LABELS["choosing"],
    "last_trick": LABELS["last_trick"],
    "total": LABELS["total"],
    "after_doubling": LABELS["after_doubling"],
    "dealer": LABELS["dealer_chip"],
    "doubled": LABELS["doubled"],
    "redoubled": LABELS["redoubled"],
    "out": LABELS["out"],
    "doubling": N_("Doubling"),
    "no_doubles": N_("No doubles"),
    "costliest": N_("The costliest decisions"),
    "viewer": N_("Deal viewer"),
    "keys": N_("Step with ← and →"),
    "unavailable": N_("This deal could not be loaded: reload the page to try again."),
}
"""The script's words, by key; ``{placeholders}`` are filled by the script."""


def match_viewer(
    summary: Mapping[str, Any],
    language: str,
    deal_href: Callable[[int], str],
    reviews: Sequence[PlayerReview] = (),
) -> dict[str, Any]:
    """What the viewer of a finished match needs to start (see the module: the caller
    checks it may be shown), its words in ``language``, from the match's summary (the
    match page's, :func:`bot.web.pages.match.match_summary`: its players and each deal's
    number, contract, chooser and steps): each deal's number, heading and title, and
    ``deal_href(number)``, where the script fetches its points (:func:`match_deal`); the
    decisions of each finished review in ``reviews`` (one per reviewed seat) marked on
    its timeline. Nothing is replayed here."""
    deals = summary["deals"]
    steps = [deal["steps"] for deal in deals]
    with i18n.using(language):
        shown = _names(summary["players"])
        titled = [
            {"number": deal["number"]}
            | _titles(deal["number"], deal["contract"], deal["chooser"], shown, len(deals))
            | {"href": deal_href(deal["number"])}
            for deal in deals
        ]
        marked = [_review(review, steps, shown) for review in reviews]
    return _data(language, shown, titled, marked)


def deal_facts(replay: Replay, deal: int) -> dict[str, Any]:
    """Every point of deal ``deal`` (0-based) of a finished match, without a word: what
    the match's finished-match service keeps (a finished match never changes), and
    :func:`match_deal` puts in words for a reader. :class:`ReplayError` if the match has
    no such deal."""
    return _facts(replay, deal, replay.deal_points(deal))


def match_deal(
    facts: Mapping[str, Any], players: Sequence[str], deals: int, language: str
) -> dict[str, Any]:
    """A deal's points (:func:`deal_facts`) of a finished match of ``deals`` deals
    between ``players``, its words in ``language`` (:func:`deal_words`): what the script
    fetches from a deal's ``href``."""
    return {"format": FORMAT, **deal_words(deal_moves(facts), players, deals, language), **facts}


def deal_moves(facts: Mapping[str, Any]) -> dict[str, Any]:
    """What a deal's words are made from (:func:`deal_words`): its number, contract
    and chooser, and each step's action, actor, Domino passes, trick winner and end. A
    page keeps it beside the deal's facts, so it need not read all of them to say it."""
    return {
        "number": facts["number"],
        "contract": facts["contract"],
        "chooser": facts["chooser"],
        "moves": [
            [step["action"], step["actor"], step["passes"], step["winner"], step["end"]]
            for step in facts["steps"]
        ],
    }


def deal_words(
    moves: Mapping[str, Any], players: Sequence[str], deals: int, language: str
) -> dict[str, Any]:
    """A deal's words in ``language``, from its moves (:func:`deal_moves`): its
    heading and title, its contract's name and each step's caption (``captions``, in
    step order), which the script shows beside the deal's facts."""
    with i18n.using(language):
        return _words(moves, _names(players), deals)


def attempt_viewer(records: Sequence[Mapping[str, Any]], language: str) -> dict[str, Any]:
    """The viewer's data for one attempt of a closed day (its deals, each the
    ``bonken-record/1`` of a match of one deal, as :class:`~bot.daily.views.
    AttemptReplay` holds them), numbered as the day's deals; a deal left unfinished (a
    closed day keeps those) is left out. The caller checks the day has closed."""
    replays: list[tuple[int, Replay]] = []
    for number, record in enumerate(records, 1):
        try:
            replays.append((number, Replay.from_record(record, whole=False)))
        except ReplayError:
            continue
    names: Sequence[str] = replays[0][1].match.players if replays else ("", "", "", "")
    with i18n.using(language):
        shown = _names(names)
        deals = []
        for number, replay in replays:
            facts = deal_facts(replay, 0)
            words = _words(deal_moves(facts), shown, len(records), number=number)
            deals.append(facts | words | {"number": number})
    return _data(language, shown, deals, [])


def _data(
    language: str, names: list[str], deals: list[dict[str, Any]], reviews: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "language": language,
        "names": names,
        **_vocabulary(language),
        "deals": deals,
        "reviews": reviews,
    }


@functools.cache
def _vocabulary(language: str) -> dict[str, Any]:
    """The script's words, rank letters and counted words in ``language``: the same for
    every page in it (the catalogues are read once), so made once a language."""
    with i18n.using(language):
        return {
            "words": {key: _(message) for key, message in WORDS.items()},
            "ranks": {str(rank): rank_text(rank) for rank in (LOW_ACE, *range(2, 15))},
            "tricks": [ngettext("{n} trick", "{n} tricks", n) for n in range(MOST_CARDS + 1)],
            "cards": [ngettext("{n} card", "{n} cards", n) for n in range(MOST_CARDS + 1)],
            "ordinals": [_(ordinal) for ordinal in ORDINALS],
        }


def _names(names: Sequence[str]) -> list[str]:
    """The seats' names as the page shows them: a computer's in the current language."""
    return [player_name(name) for name in names]


def _titles(
    number: int, contract: str, chooser: int, names: list[str], deals: int
) -> dict[str, Any]:
    """What names a deal in the menu and above the table (``number``: as the page
    counts deals; a day's deal is a match of one)."""
    return {
        "heading": _(LABELS["deal"], number=number, deals=deals),
        "title": _(
            "Deal {number} · {contract} · chosen by {name}",
            number=number,
            contract=contract_name(contract),
            name=names[chooser],
        ),
    }


def _facts(replay: Replay, deal: int, points: Sequence[ReplayPoint]) -> dict[str, Any]:
    """One deal without a word: its number, contract and chooser, the hands as dealt
    (sorted as players hold them), and every point of it (``points``, the replay's)."""
    label = replay.label(deal)
    contract = replay.match.deals[deal].contract
    assert contract is not None
    return {
        "number": label.number,
        "contract": label.contract,
        "chooser": label.chooser,
        "domino": contract.domino,
        "trump": None if contract.trump is None else contract.trump.letter,
        "dealer": points[0].view.dealer,
        "hands": [[card.code for card in sorted_hand(hand)] for hand in points[0].hands],
        "tricks": [point.address.step for point in points if point.trick_winner is not None],
        "steps": [_step(point, domino=contract.domino) for point in points],
    }


def _words(
    moves: Mapping[str, Any], names: list[str], deals: int, *, number: int | None = None
) -> dict[str, Any]:
    """A deal's words (:func:`deal_words`) in the current language; ``number`` is its
    number as the page counts deals (a day's deal, whose replay is a match of one)."""
    chooser = moves["chooser"]
    return {
        **_titles(
            moves["number"] if number is None else number, moves["contract"], chooser, names, deals
        ),
        "contract_name": contract_name(moves["contract"]),
        "captions": [
            caption(
                None if action is None else parse_action(action),
                actor,
                names,
                chooser=chooser,
                passes=passes,
                winner=winner,
                is_end=end,
            )
            for action, actor, passes, winner, end in moves["moves"]
        ],
    }


def _step(point: ReplayPoint, *, domino: bool) -> dict[str, Any]:
    """One point, as the script draws it (its caption is made by :func:`_words`): what
    was done (the script takes a card played out of the hand the deal's ``hands``
    dealt), the seats that passed after it, the trick at each player's side (the full
    trick on its fourth card), the last trick otherwise, the doubles, the deal's scores
    before and after doubling and the match's totals; ``domino``: and Domino's table
    (from the deal's start, before its contract is chosen)."""
    view = point.view
    last = view.last_trick
    completed = point.trick_winner is not None
    return {
        "actor": point.actor,
        "action": None if point.action is None else point.action.code,
        "passes": list(point.passes),
        "trick": [[seat, card.code] for seat, card in point.trick],
        "winner": point.trick_winner,
        "last": (
            None
            if last is None or completed
            else {"winner": last.winner, "cards": [[s, c.code] for s, c in last.played()]}
        ),
        "taken": list(view.tricks_taken),
        "base": list(view.base),
        "final": list(point.final),
        "totals": list(view.totals),
        "doubled": [list(pair) for pair in view.doubled],
        "to_act": None if point.is_end else view.to_act,
        "end": point.is_end,
    } | (_domino(point) if domino else {})


def _domino(point: ReplayPoint) -> dict[str, Any]:
    """Domino's table: each started row (suit, lowest and highest rank laid, in the
    picture's order of rows), the seats out in order."""
    rows = point.view.domino_rows
    return {
        "rows": [[suit.letter, *rows[suit]] for suit in ROWS if suit in rows],
        "out": list(point.view.domino_out),
    }


def _review(review: PlayerReview, steps: Sequence[int], names: list[str]) -> dict[str, Any]:
    """A seat's review as the timeline marks it: each flagged decision at the point where
    it was to be made, its grade, what was chosen and the better option, the loss
    (``steps``: each deal's number of points, which a decision must be among)."""
    # Listed as the review ranks them (its costliest first), not in the deal's order.
    costliest = {decision.address: rank for rank, decision in enumerate(review.costliest)}
    by_deal = {deal.deal: deal for deal in review.deals}
    decisions = []
    for decision in review.flagged:
        deal, step = decision.address.deal, decision.address.step
        if not (0 <= deal < len(steps) and 0 <= step < steps[deal]):
            continue
        assert decision.grade is not None
        decisions.append(
            {
                "deal": decision.deal,
                "step": decision.address.step,
                "kind": decision.kind,
                "class": decision.grade.value,
                "class_name": grade_name(decision.grade),
                "mark": GRADE_MARKS[decision.grade],
                "chosen": _card_of(decision.chosen),
                "best": _card_of(decision.best),
                "loss": decision.loss,
                "line": decision_line(decision, by_deal[decision.deal], names),
                "costliest": costliest.get(decision.address),
            }
        )
    return {
        "seat": review.seat,
        "name": names[review.seat],
        "lost": points_text(review.lost),
        "decisions": decisions,
    }


def _card_of(code: str) -> str | None:
    """The card an action code plays (``"P:QS"`` is ``"QS"``), None for another action:
    the script marks that card in the hand."""
    action = parse_action(code)
    return action.card.code if isinstance(action, Play) else None


def viewer_json(data: Mapping[str, Any]) -> str:
    """:func:`script_json` of a viewer's data (:func:`match_viewer`, :func:`attempt_viewer`),
    its words, ranks and counted words (the same for every page in a language) written
    once a language, not once a page."""
    head = script_json({key: data[key] for key in ("format", "language", "names")})
    tail = script_json({key: data[key] for key in ("deals", "reviews")})
    return f"{head[:-1]},{_vocabulary_json(data['language'])},{tail[1:]}"


@functools.cache
def _vocabulary_json(language: str) -> str:
    """:func:`_vocabulary` as :func:`script_json` writes it inside the viewer's data."""
    return script_json(_vocabulary(language))[1:-1]


def script_json(data: Mapping[str, Any]) -> str:
    """``data`` as the text of a ``<script type="application/json">`` element: ``<``,
    ``>`` and ``&`` escaped, so no name can close the element or open a comment
    (Jinja2's ``tojson`` filter does the same)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
