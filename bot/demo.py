"""``python -m bot demo --seed 7``: one match of four computers, printed as a transcript.

It runs the real table service on a temporary database, so what it prints is what a
channel would see, in words: the choices, the doubles, every trick and every score;
in the language of ``--lang``, else of ``LANG`` (``nl_NL.UTF-8`` reads Dutch).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

from bot import i18n
from bot.engine import Action, SeatView
from bot.i18n import _
from bot.players.pool import decide_sync
from bot.render import text
from bot.store import TableSettings, open_store
from bot.tables import TableService, TableView
from bot.tables import events as ev
from bot.tables.computers import Decider, random_decider

GUILD, CHANNEL, HOST = 1, 2, 3


class Transcript:
    """Turns events into lines; keeps the seat names it learns from the service."""

    def __init__(self) -> None:
        self.names: list[str] = [text.compass(seat) for seat in range(4)]
        self.lines: list[str] = []
        self.reader_gone = asyncio.Event()
        """Set when standard output is a pipe whose reader quit (``| head``)."""

    async def __call__(self, event: ev.Event, view: TableView | None) -> None:
        line = self.describe(event)
        if line:
            self.lines.append(line)
            if not self.reader_gone.is_set():
                self._print(line)

    def _print(self, line: str) -> None:
        try:
            print(line, flush=True)
        except BrokenPipeError:
            # The reader has what it wanted. Point stdout at /dev/null so the interpreter's
            # last flush at exit cannot fail again, and let the demo stop.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            self.reader_gone.set()

    def describe(self, event: ev.Event) -> str | None:
        names = self.names
        match event:
            case ev.DealStarted(deal_number=number, dealer=dealer, chooser=chooser):
                heading = _(
                    "Deal {number}: {dealer} deals, {chooser} chooses",
                    number=number,
                    dealer=names[dealer],
                    chooser=names[chooser],
                )
                return f"\n== {heading} =="
            case ev.ContractChosen(seat=seat, contract=contract):
                return _(
                    "{name} chooses {contract}",
                    name=names[seat],
                    contract=text.contract_name(contract),
                )
            case ev.Doubled():
                return text.doubling_text(names, event)
            case ev.TrickTaken():
                return text.trick_text(names, event)
            case ev.DealScored():
                return text.deal_text(names, event)
            case ev.MatchEnded(names=final_names, totals=totals, ranks=ranks):
                standings = text.standings_text(
                    [text.player_name(name) for name in final_names], totals, ranks
                )
                heading = _("Final standings")
                return f"\n== {heading} ==\n" + standings
            case ev.LobbyChanged(words=(message, values)):
                return f"[{_(message, **dict(values))}]"
            case ev.TableClosed(reason=reason):
                return f"[{_(reason)}]"
        return None


async def run_demo(seed: int, decide: Decider = random_decider, level: str = "normal") -> list[str]:
    """Play one all-computer match, print it and return the transcript lines; stop early
    if nobody reads them any more."""
    transcript = Transcript()
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "demo.sqlite3")
        service = TableService(store, transcript, decide=decide, pace=0, rng=random.Random(seed))
        try:
            settings = TableSettings(turn_seconds=60, computer_level=level)
            await service.open_table(GUILD, CHANNEL, HOST, "Host", settings, host_seated=False)
            view = await service.start(CHANNEL, HOST)  # the empty seats fill with computers
            transcript.names = [text.player_name(seat.name) for seat in view.seats]
            played = asyncio.ensure_future(service.settle())
            gone = asyncio.ensure_future(transcript.reader_gone.wait())
            await asyncio.wait((played, gone), return_when=asyncio.FIRST_COMPLETED)
            gone.cancel()
            if not played.done():
                played.cancel()
        finally:
            await service.close()
            await store.close()
    return transcript.lines


async def rule_based_decider(level: str, view: SeatView, seed: int) -> Action:
    """The real computer players, in process (easy and normal need no worker)."""
    return decide_sync(level, view, seed, budget=0)


def main(seed: int, lang: str | None = None) -> int:
    """``python -m bot demo``: 0 also when the reader quit early, as ``| head`` does."""
    with i18n.using(lang or os.environ.get("LANG")):
        asyncio.run(run_demo(seed, decide=rule_based_decider))
    return 0
