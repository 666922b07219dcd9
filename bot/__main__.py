"""``python -m bot`` runs the Discord bot; ``python -m bot demo --seed 7`` plays a demo."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    demo = commands.add_parser("demo", help="play one all-computer match and print it")
    demo.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.command == "demo":
        from bot.demo import main as demo_main

        demo_main(args.seed)
        return 0
    print("The Discord front end is not built yet; try: python -m bot demo --seed 7")
    return 1


if __name__ == "__main__":
    sys.exit(main())
