"""``python -m bot.store check``, ``record MATCH_ID`` and ``copy SQLITE_FILE POSTGRES_URL``.

For whoever runs the bot: check a database file (every page, every reference, every
aggregate) or print one match's record for a bug report (``record --tally TALLY_ID``: a
tally's, a match played with real cards). The file is the one in
``BONKEN_DATABASE`` (default ``data/bonken.sqlite3``) unless ``--database`` says otherwise.

Both only read: the file is opened read-only and never created, upgraded or locked, so
they work on the database of a running bot. ``check --upgrade`` upgrades an old file
first, as the bot does when it starts (and, like the bot, not while one runs). ``copy``
moves a SQLite database into an empty PostgreSQL one (see :mod:`bot.store.copy`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from bot.settings import Settings

from .copy import copy_database
from .errors import StoreError
from .migrations import LATEST
from .store import open_store
from .url import is_postgres_url


async def run(args: argparse.Namespace) -> int:
    if args.command == "copy":
        if not is_postgres_url(args.target):
            print(f"copy into a postgresql:// URL, not {args.target!r}", file=sys.stderr)
            return 1
        copied = await copy_database(args.source, args.target)
        for table, rows in copied.rows.items():
            print(f"{table}: {rows} rows")
        sys.stdout.flush()
        print(
            f"copied {sum(copied.rows.values())} rows of {len(copied.rows)} tables; "
            f"{copied.matches} match and tally records identical on both sides",
            file=sys.stderr,
        )
        return 0
    if args.command == "check" and args.upgrade:
        if not is_postgres_url(args.database) and not Path(args.database).exists():
            # upgrading must not create a file either
            print(f"there is no database at {args.database}", file=sys.stderr)
            return 1
        async with await open_store(args.database) as store:
            name = store.db.label
        print(f"{name} is at schema version {LATEST}", file=sys.stderr)
    async with await open_store(args.database, read_only=True) as store:
        if args.command == "record":
            if args.tally:
                record = await store.tallies.load_record(args.id)
            else:
                record = await store.matches.load_record(args.id)
            print(json.dumps(record, indent=1))
            sys.stdout.flush()  # inside the guard below, not at exit
            return 0
        problems = await store.integrity_problems()
    for problem in problems:
        print(problem)
    sys.stdout.flush()
    print("ok" if not problems else f"{len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__)
    parser.add_argument(
        "--database",
        default=Settings.from_env().database,
        help="a SQLite file or a postgresql:// URL (default: BONKEN_DATABASE)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check the whole file and its aggregates")
    check.add_argument(
        "--upgrade",
        action="store_true",
        help="upgrade an old file to this bot's schema first (not while the bot runs)",
    )
    record = commands.add_parser(
        "record", help="print a match's bonken-record/1 JSON (or a tally's bonken-tally/1)"
    )
    record.add_argument("id", type=int, metavar="MATCH_ID", help="the match (or tally) id")
    record.add_argument(
        "--tally", action="store_true", help="the id is a tally's: a match kept with real cards"
    )
    copy = commands.add_parser(
        "copy", help="copy a SQLite file into an empty PostgreSQL database, and check it"
    )
    copy.add_argument("source", type=Path, help="the SQLite file (only read)")
    copy.add_argument("target", help="postgresql://... (an empty database)")
    args = parser.parse_args(argv)
    try:
        return asyncio.run(run(args))
    except StoreError as error:
        print(str(error), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader stopped early (`| head`): end quietly, as other Unix tools do. Point
        # stdout at /dev/null so Python's own flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
