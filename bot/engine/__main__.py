"""``python -m bot.engine verify FILE|-`` and ``python -m bot.engine random --seed N``."""

from __future__ import annotations

import argparse
import json
import random
import sys

from .record import RecordError, loads, summary, to_record
from .simulate import random_match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="check a bonken-record/1 file and score it")
    verify.add_argument("file", help="the record file, or - for standard input")
    rand = commands.add_parser("random", help="print a random legal complete record")
    rand.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    if args.command == "random":
        match = random_match(random.Random(args.seed))
        print(json.dumps(to_record(match, seed=args.seed)))
        return 0

    try:
        if args.file == "-":
            # Records are UTF-8 whatever the locale, as when read from a file.
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        # A record is JSON text; anything else gets one line, not a traceback.
        print(f"cannot read {args.file}: not UTF-8 text", file=sys.stderr)
        return 1
    try:
        match = loads(text)
    except RecordError as error:
        print(str(error), file=sys.stderr)
        return 1
    print(json.dumps(summary(match)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
