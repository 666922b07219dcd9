"""The addresses of the pages, each with its token: what the bot links to.

Every page of a server lives under ``/g/<server>/``; the last part of a path is its
token (:mod:`bot.web.tokens`). The live table of a table in play is ``/table/<token>``,
its token naming the server, the table and the person (:mod:`bot.web.live.tokens`).
The routes (:mod:`bot.web.routes`) read the same shapes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from .live.tokens import seat_token, watch_token
from .tokens import Signer

SERVER, PLAYER, MATCH, DAY, SHEET = "server", "player", "match", "day", "sheet"


class WebLinks:
    """Absolute links to the pages, under the public address ``base``."""

    def __init__(self, base: str, signer: Signer) -> None:
        self.base = base.rstrip("/")
        self.signer = signer

    def server(self, guild_id: int) -> str:
        return self.base + self.server_path(guild_id)

    def player(self, guild_id: int, user_id: int) -> str:
        return self.base + self.player_path(guild_id, user_id)

    def match(self, guild_id: int, match_id: int) -> str:
        return self.base + self.match_path(guild_id, match_id)

    def day(self, guild_id: int, day: date) -> str:
        return self.base + self.day_path(guild_id, day)

    def sheet(self, guild_id: int, tally_id: int) -> str:
        return self.base + self.sheet_path(guild_id, tally_id)

    def table_seat(self, guild_id: int, table_id: int, user_id: int) -> str:
        """The live table of a table in play, for the person it is given to (the hand
        message's "Open the table"): :mod:`bot.web.live.page`."""
        return f"{self.base}/table/{seat_token(self.signer, guild_id, table_id, user_id)}"

    def table_watch(self, guild_id: int, table_id: int) -> str:
        """The live table's spectators' view (nobody's hand)."""
        return f"{self.base}/table/{watch_token(self.signer, guild_id, table_id)}"

    # -- the paths, for links inside the pages ------------------------------------------

    def server_path(self, guild_id: int) -> str:
        return f"/g/{guild_id}/{self.signer.token(SERVER, guild_id)}"

    def player_path(self, guild_id: int, user_id: int) -> str:
        token = self.signer.token(PLAYER, guild_id, user_id)
        return f"/g/{guild_id}/player/{user_id}/{token}"

    def match_path(self, guild_id: int, match_id: int) -> str:
        token = self.signer.token(MATCH, guild_id, match_id)
        return f"/g/{guild_id}/match/{match_id}/{token}"

    def chart_path(self, guild_id: int, match_id: int) -> str:
        """The match's score chart as a picture (the link preview's)."""
        return self.match_path(guild_id, match_id) + "/chart.png"

    def deal_path(self, guild_id: int, match_id: int, number: int) -> str:
        """Deal ``number``'s points as JSON, which the match page's viewer fetches."""
        return self.deal_paths(guild_id, match_id)(number)

    def deal_paths(self, guild_id: int, match_id: int) -> Callable[[int], str]:
        """:meth:`deal_path` of each deal of the match, its token made once (the match
        page links to every deal)."""
        match = self.match_path(guild_id, match_id)
        return lambda number: f"{match}/deal/{number}.json"

    def standings_path(self, guild_id: int) -> str:
        """The season's standings as a picture (the server page's link preview)."""
        return self.server_path(guild_id) + "/standings.png"

    def day_path(self, guild_id: int, day: date) -> str:
        token = self.signer.token(DAY, guild_id, day.isoformat())
        return f"/g/{guild_id}/day/{day.isoformat()}/{token}"

    def sheet_path(self, guild_id: int, tally_id: int) -> str:
        token = self.signer.token(SHEET, guild_id, tally_id)
        return f"/g/{guild_id}/sheet/{tally_id}/{token}"
