"""Leaderboards, player statistics and seasons as Discord embeds, and the page buttons.

The Previous/Next buttons are ``DynamicItem``s whose custom_id carries everything a page
needs: ``bonken:lb:<guild>:<season>:<sort>:<offset>:<viewer>:<prev|next>``. The offset is
the first row of the page the button leads to, and the viewer is whoever ran the
command, so their own line stays on the message whoever turns the pages. A click edits
the message in place. Boards and statistics are posted for the channel, so they speak
the server's language (the caller sets it); refusals speak the asker's.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot import i18n
from bot.engine import rules_for
from bot.i18n import N_, _, ngettext
from bot.render.rules import variant_title
from bot.render.text import contract_name
from bot.store import (
    ContractStat,
    LeaderboardPage,
    LeaderboardSort,
    PlayerStats,
    Rating,
    Season,
    SeasonStanding,
)
from bot.store.seasons import SeasonStore
from bot.store.standings import StandingsStore
from bot.store.tables import TableStore

from .front import Guarded
from .replies import UIRefusal, literal, server_language
from .web import WebLinker, with_web_link

Interaction = discord.Interaction[Any]

PAGE_SIZE = 10
GOLD = discord.Colour.gold()
NO_MENTIONS = discord.AllowedMentions.none()

SORT_NAMES = {
    LeaderboardSort.POINTS: N_("by total points"),
    LeaderboardSort.WINS: N_("by wins"),
    LeaderboardSort.AVERAGE: N_("by average points per match"),
    LeaderboardSort.RATING: N_("by rating"),
}
RATING_NOTE = N_("rating = μ − 3σ (openskill, Plackett-Luce)")
POINTS_NOTE = N_("points in standard points (a twelve match counts half)")


# -- finding a season ------------------------------------------------------------------


async def resolve_season(seasons: SeasonStore, guild_id: int | None, name: str | None) -> Season:
    """The season named ``name`` in the guild; without a name the active season, or the
    newest one if the guild has none active."""
    if guild_id is None:
        raise UIRefusal(_("seasons belong to a server; use this command in one"))
    if name is not None and name.strip():
        season = await seasons.season_named(guild_id, name)
        if season is None:
            raise UIRefusal(
                _("there is no season named {name} in this server", name=repr(name.strip()))
            )
        return season
    season = await seasons.active_season(guild_id)
    if season is not None:
        return season
    every = await seasons.seasons(guild_id)
    if not every:
        raise UIRefusal(_("no Bonken match has been finished in this server yet"))
    return every[0]


# -- leaderboard -----------------------------------------------------------------------


async def fetch_page(
    standings: StandingsStore, season_id: int, sort: LeaderboardSort, offset: int, viewer: int
) -> LeaderboardPage:
    """The page at ``offset`` (the last page if the board is shorter than that)."""
    offset = max(0, offset - offset % PAGE_SIZE)
    page = await standings.leaderboard(
        season_id, sort, offset=offset, limit=PAGE_SIZE, viewer=viewer
    )
    if not page.rows and page.players:
        last = (page.players - 1) // PAGE_SIZE * PAGE_SIZE
        page = await standings.leaderboard(
            season_id, sort, offset=last, limit=PAGE_SIZE, viewer=viewer
        )
    return page


class Boards:
    """The server's standings as its channels see them: its seasons, the leaderboard's
    pages, a player's statistics, and the server's language they are posted in."""

    def __init__(
        self,
        seasons: SeasonStore,
        standings: StandingsStore,
        tables: TableStore,
        web: WebLinker | None = None,
    ) -> None:
        """``web``: the link to the server's page a leaderboard carries, page after page."""
        self._web = web or WebLinker.none()
        self._seasons = seasons
        self._standings = standings
        self._tables = tables

    async def web_link(self, guild_id: int) -> str | None:
        """The server's web page, where its setting allows a link."""
        return await self._web.server(guild_id)

    async def season(self, guild_id: int | None, name: str | None) -> Season:
        """:func:`resolve_season` in this store."""
        return await resolve_season(self._seasons, guild_id, name)

    async def seasons_of(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        return await self._seasons.seasons(guild_id)

    async def page(
        self, season_id: int, sort: LeaderboardSort, offset: int, viewer: int
    ) -> LeaderboardPage:
        """:func:`fetch_page` in this store."""
        return await fetch_page(self._standings, season_id, sort, offset, viewer)

    async def stats(self, season_id: int, user_id: int) -> PlayerStats | None:
        return await self._standings.player_stats(season_id, user_id)

    async def language(self, interaction: Interaction) -> str:
        """The language a board is posted in: the server's (see :func:`server_language`)."""
        return await server_language(self._tables, interaction)


def rating_text(rating: Rating | None) -> str:
    """The conservative rating, one decimal, or a dash for a player not rated yet."""
    return "—" if rating is None else f"{rating.ordinal:.1f}"


def standing_line(row: SeasonStanding, sort: LeaderboardSort, *, mark: bool = False) -> str:
    cells = {
        LeaderboardSort.WINS: _("{n} won", n=row.wins),
        LeaderboardSort.POINTS: _("{n} pts", n=row.points),
        LeaderboardSort.AVERAGE: _("{n} avg", n=f"{row.average:.1f}"),
        LeaderboardSort.RATING: _("{n} rating", n=rating_text(row.rating)),
    }
    cells[sort] = f"**{cells[sort]}**"
    parts = [
        _("{n} played", n=row.matches),
        cells[LeaderboardSort.WINS],
        cells[LeaderboardSort.POINTS],
        cells[LeaderboardSort.AVERAGE],
        cells[LeaderboardSort.RATING],
    ]
    pointer = "▸ " if mark else ""
    return f"{pointer}**{row.rank}.** <@{row.user_id}> · " + " · ".join(parts)


def leaderboard_embed(page: LeaderboardPage, viewer: int) -> discord.Embed:
    season = page.season
    embed = discord.Embed(
        title=f"🏆 {literal(season.name)} · {_(SORT_NAMES[page.sort])}",
        colour=GOLD,
    )
    if not page.rows:
        embed.description = _("No match has been finished in this season yet.")
    else:
        lines = [standing_line(row, page.sort, mark=row.user_id == viewer) for row in page.rows]
        shown = {row.user_id for row in page.rows}
        if page.viewer is None:
            lines += ["", _("<@{user}> has not finished a match in this season.", user=viewer)]
        elif page.viewer.user_id not in shown:
            lines += ["⋯", standing_line(page.viewer, page.sort, mark=True)]
        embed.description = "\n".join(lines)
    first, last = page.offset + 1, page.offset + len(page.rows)
    place = (
        _("Players {first}–{last} of {count}", first=first, last=last, count=page.players)
        if page.rows
        else _("No players")
    )
    footer = f"{place} · {season_status(season)} · {_(POINTS_NOTE)} · {_(RATING_NOTE)}"
    embed.set_footer(text=footer)
    return embed


def season_status(season: Season) -> str:
    started = f"{season.started_at:%Y-%m-%d}"
    if season.ended_at is None:
        return _("active since {date}", date=started)
    return _("archived: {start} to {end}", start=started, end=f"{season.ended_at:%Y-%m-%d}")


class BoardsFront(Protocol):
    """The part of the bot a leaderboard's page buttons use."""

    @property
    def boards(self) -> Boards: ...


class LeaderboardButton(
    Guarded[discord.ui.Button[Any]],
    template=(
        r"bonken:lb:(?P<guild>\d+):(?P<season>\d+):(?P<sort>points|wins|average|rating)"
        r":(?P<offset>\d+):(?P<viewer>\d+):(?P<direction>prev|next)"
    ),
):
    """Previous or Next page of a leaderboard message."""

    def __init__(
        self,
        guild_id: int,
        season_id: int,
        sort: LeaderboardSort,
        offset: int,
        viewer: int,
        direction: str,
        *,
        disabled: bool = False,
    ) -> None:
        self.guild_id, self.season_id, self.sort = guild_id, season_id, LeaderboardSort(sort)
        self.offset, self.viewer, self.direction = offset, viewer, direction
        super().__init__(
            discord.ui.Button(
                label=_("Previous") if direction == "prev" else _("Next"),
                emoji="◀️" if direction == "prev" else "▶️",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=(
                    f"bonken:lb:{guild_id}:{season_id}:{self.sort.value}:{offset}:{viewer}"
                    f":{direction}"
                ),
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardButton:
        return cls(
            int(match["guild"]),
            int(match["season"]),
            LeaderboardSort(match["sort"]),
            int(match["offset"]),
            int(match["viewer"]),
            match["direction"],
        )

    async def clicked(self, interaction: Interaction, front: BoardsFront) -> None:
        boards = front.boards
        if interaction.guild_id != self.guild_id:
            raise UIRefusal(_("this leaderboard belongs to another server"))
        page = await boards.page(self.season_id, self.sort, self.offset, self.viewer)
        url = await boards.web_link(self.guild_id)
        with i18n.using(await boards.language(interaction)):  # the board is the channel's
            embed = leaderboard_embed(page, self.viewer)
            buttons = with_web_link(leaderboard_view(self.guild_id, page, self.viewer), url)
        await interaction.response.edit_message(
            embed=embed,
            view=buttons,
            allowed_mentions=NO_MENTIONS,
        )


def leaderboard_view(guild_id: int, page: LeaderboardPage, viewer: int) -> discord.ui.View | None:
    """Previous/Next buttons, or None when the whole board fits on one page."""
    if page.players <= PAGE_SIZE:
        return None
    view = discord.ui.View(timeout=None)
    season_id, sort = page.season.season_id, page.sort
    previous = max(0, page.offset - PAGE_SIZE)
    following = page.offset + PAGE_SIZE
    view.add_item(
        LeaderboardButton(
            guild_id, season_id, sort, previous, viewer, "prev", disabled=page.offset == 0
        )
    )
    view.add_item(
        LeaderboardButton(
            guild_id,
            season_id,
            sort,
            following,
            viewer,
            "next",
            disabled=following >= page.players,
        )
    )
    return view


# -- player statistics -----------------------------------------------------------------


def contract_text(line: ContractStat | None) -> str:
    if line is None:
        return "—"
    return ngettext(
        "{name}: {average} a deal ({n} deal)",
        "{name}: {average} a deal ({n} deals)",
        line.deals,
        name=contract_name(line.contract),
        average=f"{line.average:+.1f}",
    )


def variant_text(stats: PlayerStats) -> str:
    """One line per variant played this season; the season's points above are standard
    points (a twelve match counts half its points), these are the points as played."""
    return "\n".join(
        ngettext(
            "{variant}: {n} match, {wins} won, {points} points ({average} a match)",
            "{variant}: {n} matches, {wins} won, {points} points ({average} a match)",
            line.matches,
            variant=variant_title(rules_for(line.variant)),
            wins=line.wins,
            points=f"{line.points:+d}",
            average=f"{line.points / line.matches:+.1f}",
        )
        for line in stats.variants
    )


def stats_embed(stats: PlayerStats, name: str) -> discord.Embed:
    embed = discord.Embed(
        title=f"📊 {literal(name)} · {literal(stats.season.name)}",
        description=f"<@{stats.user_id}>",
        colour=GOLD,
    )
    embed.add_field(name=_("Matches"), value=str(stats.matches))
    embed.add_field(name=_("Wins"), value=str(stats.wins))
    embed.add_field(
        name=_("Points"),
        value=_(
            "{points} ({average} a match)", points=stats.points, average=f"{stats.average:.1f}"
        ),
    )
    rating = stats.rating
    embed.add_field(
        name=_("Rating"),
        value=_("not rated yet")
        if rating is None
        else f"{rating_text(rating)} (μ {rating.mu:.1f}, σ {rating.sigma:.2f})",
    )
    embed.add_field(name=_("Best contract"), value=contract_text(stats.best_contract), inline=False)
    embed.add_field(
        name=_("Worst contract"), value=contract_text(stats.worst_contract), inline=False
    )
    embed.add_field(
        name=_("Doubling"),
        value=_(
            "made {made}, received {received}; won {won}, lost {lost} points through doubling",
            made=stats.doubles_made,
            received=stats.doubles_received,
            won=f"{stats.doubling_won:+d}",
            lost=f"{stats.doubling_lost:+d}",
        ),
        inline=False,
    )
    embed.add_field(
        name=_("At a real table"),
        value=ngettext(
            "{n} match, kept by a scoresheet", "{n} matches, kept by a scoresheet", stats.tallies
        ),
        inline=False,
    )
    embed.add_field(
        name=_("Computer took over"),
        value=ngettext("{n} time", "{n} times", stats.takeovers),
        inline=False,
    )
    if any(line.variant != "standard" for line in stats.variants):
        embed.add_field(name=_("By variant (points as played)"), value=variant_text(stats))
    embed.set_footer(text=f"{season_status(stats.season)} · {_(RATING_NOTE)}")
    return embed


ITEMS = (LeaderboardButton,)
"""The leaderboard's page buttons, for the bot to register."""
