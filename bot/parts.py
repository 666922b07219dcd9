"""The bot's parts, built in order, each handed what it uses.

The order follows what each part needs: the settings, then the store (a database that
cannot be opened stops the start here, with one line), the computer players and the
table service, then the Discord front end: the hand messages, the channel presenter,
where an interaction's table is, the guard every interaction runs in, the lobby, Play
again, the standings, the scoresheets' thread posts and their controls; the daily deals'
service and their messages; and the finished matches' service (:mod:`bot.archive`),
their replays and reviews. The cogs are given theirs from these (:mod:`bot.app`).
Closing goes the other way: the reviews and the tables stop, what is queued is sent,
the store closes.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import partial

import discord

from bot.archive import FinishedMatchService
from bot.daily import DailyService
from bot.engine import Action, SeatView
from bot.players.pool import PlayerPool
from bot.ratings import OpenSkillRater
from bot.review import ReviewSettings
from bot.review.service import ReviewService
from bot.settings import Settings
from bot.store import Store, StoreError, WebAccess, open_store
from bot.tables import TableService, TableView
from bot.tables import events as ev
from bot.tally import TallyService
from bot.ui.activity import activity_offered
from bot.ui.answers import Answers
from bot.ui.daily import DailyController
from bot.ui.drawing import DrawingProcesses
from bot.ui.hands import HandController, WebhookEdits
from bot.ui.lobby import LobbyController
from bot.ui.pacing import Pacing
from bot.ui.places import Places
from bot.ui.presenter import Presenter
from bot.ui.rematch import Rematch
from bot.ui.replay import Replays
from bot.ui.replies import Guard
from bot.ui.review import ReviewController
from bot.ui.settings import ServerSettings
from bot.ui.standings import Boards
from bot.ui.tally import TallyController
from bot.ui.tally_feed import TallyFeed
from bot.ui.threads import THREAD
from bot.ui.web import WebLinker
from bot.web.activity import ActivityPages
from bot.web.app import WebServer, make_app
from bot.web.cache import PageCache
from bot.web.links import WebLinks
from bot.web.live.routes import Live
from bot.web.site import Services
from bot.web.tokens import load_signer


@dataclass(frozen=True)
class Parts:
    """Everything the bot built at start (see the module)."""

    store: Store
    players: PlayerPool
    service: TableService
    hands: HandController
    presenter: Presenter
    places: Places
    guard: Guard
    lobby: LobbyController
    rematch: Rematch
    boards: Boards
    tally_feed: TallyFeed
    tally: TallyController
    daily_service: DailyService
    daily: DailyController
    server_settings: ServerSettings
    archive: FinishedMatchService
    review_service: ReviewService
    reviews: ReviewController
    replays: Replays
    web: WebLinker
    """The links to the web pages that messages carry (none without an address)."""
    pages: WebServer | None
    """The web pages served by this process (``BONKEN_WEB_PORT``), or None."""
    live: Live | None = None
    """The live table served with them (its sockets), or None."""

    async def close(self) -> None:
        """Stop the reviews (they resume at the next start) and the tables, then send
        what the channels and hands still have queued (for a few seconds: what does not
        go out is posted at the next start), then close."""
        if self.pages is not None:
            await self.pages.close()
        self.reviews.close()
        await self.review_service.close()
        await self.service.close()
        await self.presenter.drain()
        with contextlib.suppress(StoreError):  # at worst the next owner finds us gone
            await self.store.claims.release_all()
        self.presenter.close()
        self.hands.close()
        self.players.close()
        self.daily.close()
        await self.store.close()


async def build_parts(
    settings: Settings,
    client: discord.Client,
    answers: Answers,
    pacing: Pacing,
    review: ReviewSettings,
) -> Parts:
    """Open the store and build every part on it; ``client`` is Discord (logged in),
    ``answers`` counts its answers (the trace the client was made with), ``pacing`` is
    the presenter's timings, ``review`` how a new review is computed."""
    store = await open_store(settings.database)
    try:
        address = settings.web_address
        links = None if address is None else WebLinks(address, await load_signer(store.facts))
        parts = _build(settings, client, answers, pacing, review, store, links)
        if parts.pages is not None:
            await parts.pages.start()
        return parts
    except BaseException:
        await store.close()
        raise


def _build(
    settings: Settings,
    client: discord.Client,
    answers: Answers,
    pacing: Pacing,
    review: ReviewSettings,
    store: Store,
    links: WebLinks | None,
) -> Parts:
    players = PlayerPool()

    async def publish(event: ev.Event, view: TableView | None) -> None:
        # The presenter is built below: it needs the service, which needs somewhere to
        # publish. No event comes before the service restores or serves a table. The
        # live table hears it first: it only marks the table's pages to push.
        if live is not None:
            live.publish(event)
        if isinstance(event, ev.MatchEnded) and view is not None:
            pages.changed(view.guild_id)  # its server's standings and players' pages
        await presenter.publish(event, view)

    pages = PageCache()
    rater = OpenSkillRater()
    service = TableService(
        store,
        publish,
        decide=partial(_decide, players, settings.think_seconds),
        pace=settings.pace,
        rater=rater,
        owns_guild=settings.shards.owns,
    )
    web = WebLinker(links, store.tables)
    live = (
        None
        if links is None or settings.web_port is None
        else Live(
            service,
            links.signer,
            partial(_web_access, store),
            store.live_seats,
            after_act=lambda table_id, user_id: hands.request_refresh(table_id, user_id),
        )
    )
    hands = HandController(
        service,
        store.delivery,
        WebhookEdits(client),
        # the live table is served only by a process that plays the tables
        web=None if live is None else web,
        on_show=None if live is None else live.release,
    )
    offers_activity = activity_offered(settings.activity, client.application_flags)
    presenter = Presenter(
        service,
        store.delivery,
        hands,
        client.get_partial_messageable,
        client.http,
        answers,
        pacing,
        web,
        activity=offers_activity,
    )
    places = Places(service, presenter.table_channel)
    lobby = LobbyController(service, store.tables, presenter, places, activity=offers_activity)
    boards = Boards(store.seasons, store.standings, store.tables, web)
    tally_service = TallyService(store, rater=rater)
    tally_feed = TallyFeed(tally_service, client.get_partial_messageable, presenter.threads, web)
    daily_service = DailyService(store.daily, store.tables)
    archive = FinishedMatchService(store.matches, thread_role=THREAD)
    review_service = ReviewService(
        store,
        settings=review,
        per_guild=settings.reviews_per_server,
    )
    return Parts(
        store=store,
        players=players,
        service=service,
        hands=hands,
        presenter=presenter,
        places=places,
        guard=Guard(places.table_at),
        lobby=lobby,
        rematch=Rematch(
            service,
            store.tables,
            presenter,
            client.get_partial_messageable,
            activity=offers_activity,
        ),
        boards=boards,
        tally_feed=tally_feed,
        tally=TallyController(
            tally_service,
            store.tables,
            presenter.threads,
            client.get_partial_messageable,
            tally_feed,
        ),
        daily_service=daily_service,
        daily=DailyController(
            daily_service, store.tables, boards, web, DrawingProcesses(settings.drawing_processes)
        ),
        server_settings=ServerSettings(store.tables, daily_service),
        archive=archive,
        review_service=review_service,
        reviews=ReviewController(review_service, archive, edit_every=pacing.edit_interval, web=web),
        replays=Replays(archive, store.tables, web),
        web=web,
        live=live,
        pages=None
        if links is None or settings.web_port is None
        else WebServer(
            make_app(
                Services.of(store, daily=daily_service, boards=boards, archive=archive),
                links,
                cache=pages,
                live=live,
                activity=None
                if live is None or settings.activity is None
                else ActivityPages(
                    settings.activity,
                    service,
                    links.signer,
                    partial(_web_access, store),
                    thread_role=THREAD,
                ),
            ),
            settings.web_host,
            settings.web_port,
        ),
    )


async def _web_access(store: Store, guild_id: int) -> WebAccess:
    """A server's web setting (the live table's spectators need it not ``off``)."""
    return (await store.tables.guild_settings(guild_id)).web


async def _decide(pool: PlayerPool, budget: float, level: str, view: SeatView, seed: int) -> Action:
    """The table service's decider: the player pool with the configured thinking time."""
    return await pool.decide(level, view, seed, budget)
