"""``python -m bot.engine verify FILE|-`` and ``python -m bot.engine random --seed N``
(``--variant twelve --house-rules '{"heart_lead": "broken"}'`` for another game).

``verify`` says why it cannot read a file in the language of ``--lang``, else of ``LANG``;
the record's own faults (``RecordError``) are the engine's, in English."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from bot import i18n
from bot.i18n import _

from .record import RecordError, loads, summary, to_record
from .rules import Rules, RulesError, rules_for
from .simulate import random_match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check a bonken-record/1 file and score it")
    verify.add_argument("file", help="the record file, or - for standard input")
    verify.add_argument("--lang", help="en or nl (default: from LANG, else en)")
    rand = commands.add_parser("random", help="print a random legal complete record")
    rand.add_argument("--seed", type=int, default=0)
    rand.add_argument("--variant", default="standard", help="standard (default) or twelve")
    rand.add_argument(
        "--house-rules", default="{}", help='a JSON object, e.g. \'{"heart_lead": "broken"}\''
    )
    args = parser.parse_args(argv)

    if args.command == "random":
        try:
            rules = _rules(args.variant, args.house_rules)
        except RulesError as error:
            print(str(error), file=sys.stderr)
            return 2
        match = random_match(random.Random(args.seed), rules=rules)
        print(json.dumps(to_record(match, seed=args.seed)))
        return 0

    with i18n.using(args.lang or os.environ.get("LANG")):
        return _verify(args.file)


def _verify(path: str) -> int:
    try:
        if path == "-":
            # Records are UTF-8 whatever the locale, as when read from a file.
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        why = error.strerror or ""
        print(_("cannot read {file}: {why}", file=path, why=why), file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        # A record is JSON text; anything else gets one line, not a traceback.
        print(_("cannot read {file}: not UTF-8 text", file=path), file=sys.stderr)
        return 1
    try:
        match = loads(text)
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 1
    print(json.dumps(summary(match)))
    return 0


def _rules(variant: str, house_rules: str) -> Rules:
    try:
        chosen = json.loads(house_rules)
    except json.JSONDecodeError:
        raise RulesError(f"--house-rules must be a JSON object, not {house_rules!r}") from None
    return rules_for(variant, chosen)


if __name__ == "__main__":
    sys.exit(main())
