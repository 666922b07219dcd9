"""``python -m bot.review RECORD.json [--seat N] [--json]``: one seat's review of a
finished match's record, offline (for players who keep their exported records, and for
tests). The same review as the bot's: the same search, grades and settings.

Without ``--json`` it prints the summary and every flagged decision in the language of
``--lang`` (else of ``LANG``); with it, one JSON object whose ``decisions`` list every
decision of the seat that had a choice. The progress ("deal 4 of 11") goes to standard
error. A file that is not a finished match's record, or a seat that is not 0-3, gets one
line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from bot import i18n
from bot.engine.record import RecordError, loads
from bot.i18n import _
from bot.render.review import decision_line, summary_lines
from bot.render.text import compass, player_name

from .analysis import ReviewError, assemble, check_request, finished_match, review_deal
from .result import PlayerReview, ReviewSettings

BAD_INPUT = 2
"""The exit status for a file or seat that cannot be reviewed."""


def main(argv: list[str] | None = None) -> int:
    defaults = ReviewSettings()
    parser = argparse.ArgumentParser(prog="python -m bot.review", description=__doc__)
    parser.add_argument("record", help="a finished match's bonken-record/1 file")
    parser.add_argument("--seat", type=int, default=0, help="the seat to review, 0-3 (default 0)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument("--lang", help="en or nl (default: from LANG, else en)")
    parser.add_argument("--seed", type=int, default=defaults.seed, help="the search's seed")
    parser.add_argument(
        "--work",
        type=int,
        default=defaults.work,
        help=f"simulated cards a batch of search (default {defaults.work:,})",
    )
    args = parser.parse_args(argv)
    with i18n.using(args.lang or os.environ.get("LANG")):
        try:
            if args.work < 1:
                raise ReviewError(_("--work must be at least 1"))
            record = read_record(args.record)
            review = review_record(record, args.seat, ReviewSettings(args.seed, args.work))
        except ReviewError as error:
            print(str(error), file=sys.stderr)
            return BAD_INPUT
        if args.json:
            print(json.dumps(review.to_json()))
        else:
            names = finished_match(record).players
            print("\n".join(human_lines(review, [player_name(name) for name in names])))
    return 0


def read_record(path: str) -> dict[str, Any]:
    """The record in ``path``, checked to be a finished match; :class:`ReviewError`
    with one line otherwise."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise ReviewError(_("cannot read {file}: {why}", file=path, why=error.strerror)) from None
    except UnicodeDecodeError:
        raise ReviewError(_("cannot read {file}: not UTF-8 text", file=path)) from None
    try:
        loads(text)  # strict JSON and a legal match, or the engine's sentence why not
    except RecordError as error:
        raise ReviewError(f"{path}: {error}") from None
    record: dict[str, Any] = json.loads(text)
    return record


def review_record(record: dict[str, Any], seat: int, settings: ReviewSettings) -> PlayerReview:
    """``seat``'s review, a deal at a time in this process, the progress on stderr."""
    match = finished_match(record)
    check_request(match, seat, 0)
    deals = []
    total = len(match.deals)
    for deal in range(total):
        print(_("deal {deal} of {deals}", deal=deal + 1, deals=total), file=sys.stderr)
        deals.append(review_deal(record, seat, deal, settings))
    return assemble(match, seat, settings, deals)


def human_lines(review: PlayerReview, names: list[str]) -> list[str]:
    """The review as a reader wants it: who, the figures, the costliest decisions, then
    every flagged one in order; ``names`` are the four seats' names."""
    lines = [
        _(
            "Review of {name} ({seat}), with the hard player's search from their own information:",
            name=player_name(review.name),
            seat=compass(review.seat),
        ),
        *summary_lines(review),
    ]
    if review.costliest:
        lines.append(_("The costliest decisions:"))
        lines += [f"  {decision_line(d, review.deals[d.deal], names)}" for d in review.costliest]
    if review.flagged:
        lines.append(_("Every flagged decision:"))
        lines += [f"  {decision_line(d, review.deals[d.deal], names)}" for d in review.flagged]
    return lines


if __name__ == "__main__":
    sys.exit(main())
