"""``python -m bot.store check`` and ``python -m bot.store record MATCH_ID``.

For whoever runs the bot: check a database file (every page, every reference, every
aggregate) or print one match's record for a bug report. The file is the one in
``BONKEN_DATABASE`` (default ``data/bonken.sqlite3``) unless ``--database`` says otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from bot.settings import Settings

from .errors import StoreError
from .store import open_store


async def run(args: argparse.Namespace) -> int:
    if not args.database.exists():
        print(f"there is no database at {args.database}", file=sys.stderr)
        return 1
    async with await open_store(args.database) as store:
        if args.command == "record":
            print(json.dumps(await store.matches.load_record(args.match_id), indent=1))
            return 0
        problems = await store.integrity_problems()
    for problem in problems:
        print(problem)
    print("ok" if not problems else f"{len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.store", description=__doc__)
    parser.add_argument("--database", type=Path, default=Settings.from_env().database_path)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="check the whole file and its aggregates")
    record = commands.add_parser("record", help="print a match's bonken-record/1 JSON")
    record.add_argument("match_id", type=int)
    args = parser.parse_args(argv)
    try:
        return asyncio.run(run(args))
    except StoreError as error:
        print(str(error), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
