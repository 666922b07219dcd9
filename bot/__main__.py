"""``python -m bot`` runs the Discord bot; ``python -m bot demo --seed 7`` plays a demo."""

from __future__ import annotations

import argparse
import logging
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
    return run_bot()


def run_bot() -> int:
    from bot.settings import Settings, SettingsError
    from bot.store import DatabaseRefused

    try:
        settings = Settings.from_env()
        token = settings.require_token()
    except SettingsError as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        return 2
    from bot.app import BonkenBot

    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = BonkenBot(settings)
    try:
        bot.run(token, log_handler=None)
    except DatabaseRefused as error:
        print(f"Cannot start: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
