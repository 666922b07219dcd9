"""Takes the live table's screenshots in this folder: ``python docs/images/live_table.py``.

A table of Ann, Bob and two computers is played by the table service itself (Ann and
Bob take the first contract offered, double whomever they may, play their first legal
card), served with the live table on a local port, and photographed in Debian's
Chromium from Ann's seat: at deal 2 with two cards in the trick (wide and at a phone's
width, English and Dutch), and in Domino with cards laid. The seed fixes the deals, so
a run takes the same pictures unless the page's look changed.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

from aiohttp import web
from playwright.async_api import async_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from bot.engine import Double, Phase  # noqa: E402
from bot.store import WebAccess, open_store  # noqa: E402
from bot.tables import TableService, TableView  # noqa: E402
from bot.tables import events as ev  # noqa: E402
from bot.web.app import make_app  # noqa: E402
from bot.web.links import WebLinks  # noqa: E402
from bot.web.live.routes import Live  # noqa: E402
from bot.web.site import Services  # noqa: E402
from bot.web.tokens import load_signer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
GUILD, CHANNEL, ANN, BOB = 1, 10, 101, 102
SEED = 7
WIDE = {"width": 1100, "height": 820}
PHONE = {"width": 390, "height": 844}


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with await open_store(Path(folder) / "shots.sqlite3") as store:
            await take(store)


async def take(store) -> None:  # type: ignore[no-untyped-def]
    holder: list[Live] = []

    async def publish(event: ev.Event, view: TableView | None) -> None:
        holder[0].publish(event)

    service = TableService(store, publish, pace=0.0, rng=random.Random(SEED))
    signer = await load_signer(store.facts)

    async def access(guild: int) -> WebAccess:
        return WebAccess.LINK

    live = Live(service, signer, access, store.live_seats)
    holder.append(live)
    runner = web.AppRunner(make_app(Services.of(store), WebLinks("http://x", signer), live=live))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    links = WebLinks(f"http://127.0.0.1:{runner.addresses[0][1]}", signer)
    await service.open_table(GUILD, CHANNEL, ANN, "Ann")
    await service.join(CHANNEL, BOB, "Bob")
    table_id = (await service.start(CHANNEL, ANN)).table_id
    link = links.table_seat(GUILD, table_id, ANN)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        await play_until(service, table_id, lambda v: v.deal_number == 2 and len(v.trick) == 2)
        wide = await browser.new_context(viewport=WIDE)
        for language in ("en", "nl"):
            page = await wide.new_page()
            await page.goto(f"{link}?lang={language}")
            await page.wait_for_selector('[data-my-turn="1"] .lt-hand .card.lt-legal')
            await page.wait_for_timeout(400)  # the cards' short move into place
            await page.screenshot(path=HERE / f"live-table-wide-{language}.png")
            phone = await browser.new_page(viewport=PHONE, device_scale_factor=2)
            await phone.context.add_cookies(await wide.cookies())  # (the seat's claim)
            await phone.goto(f"{link}?lang={language}")
            await phone.wait_for_selector('[data-my-turn="1"] .lt-hand .card.lt-legal')
            await phone.wait_for_timeout(400)
            await phone.screenshot(path=HERE / f"live-table-phone-{language}.png", full_page=True)
            await phone.close()
        await play_until(service, table_id, domino_laid)
        page = await wide.new_page()
        await page.goto(link)
        await page.wait_for_selector('[data-my-turn="1"] .lt-rows .lt-row')
        await page.screenshot(path=HERE / "live-table-domino.png")
        await browser.close()
    await service.close()
    await runner.cleanup()


def domino_laid(view: TableView) -> bool:
    contract = view.rules.by_id.get(view.contract) if view.contract else None
    return contract is not None and contract.domino and len(view.domino_rows) >= 3


async def play_until(service: TableService, table_id: int, wanted) -> None:  # type: ignore[no-untyped-def]
    """Ann and Bob play (see the module) until ``wanted(view)`` with Ann to play a card."""
    for _ in range(20_000):
        await service.settle()
        view = service.view(table_id)
        user = None if view.to_act is None else view.seats[view.to_act].user_id
        if user not in (ANN, BOB):
            await asyncio.sleep(0.005)
            continue
        hand = service.hand(table_id, user)
        if user == ANN and view.turn_kind is Phase.PLAYING and wanted(view):
            return
        doubles = [a for a in hand.view.legal if isinstance(a, Double)]
        action = max(doubles, key=lambda d: len(d.code)) if doubles else hand.view.legal[0]
        await service.act(table_id, user, hand.turn, action)
    raise RuntimeError("the scene never came")


if __name__ == "__main__":
    asyncio.run(main())
