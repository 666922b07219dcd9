"""The typed values the store takes and returns: the service's terms, never rows.

Everything is a frozen dataclass or an enum, so a value read from the store can be passed
around freely without anyone changing it behind the store's back. A dataclass of more than
one field is built by keyword only, so a field added (with its column) shifts no other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.engine import STANDARD, Rules

SEATS = range(4)


@dataclass(frozen=True, slots=True)
class Human:
    """A seat taken by a Discord user."""

    user_id: int


@dataclass(frozen=True, slots=True)
class Computer:
    """A seat played by the computer at this level (the players package names the levels)."""

    level: str


SeatOccupant = Human | Computer


class TableStatus(StrEnum):
    """A table's life: seats fill in the lobby, a match is played, then it ends one way."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class MatchStatus(StrEnum):
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettings:
    """Per-table choices made in the lobby; new tables copy the guild's defaults."""

    turn_seconds: int = 60
    computer_level: str = "normal"
    rules: Rules = STANDARD
    """The variant and house rules the table's matches are played by."""
    images: bool = True
    """Show the pictures: the table, the Domino rows, the score chart (False: text only).
    A guild's ``table_defaults`` hold its choice for new tables."""
    language: str | None = None
    """The language of the table's channel posts (``"nl"``); None: the server's."""

    def __post_init__(self) -> None:
        if self.turn_seconds <= 0:
            raise ValueError(f"turn time must be positive, not {self.turn_seconds}")


class TablePlace(StrEnum):
    """Where a table's match is played and posted."""

    THREAD = "thread"
    """A public thread opened on the lobby message when the match starts."""
    CHANNEL = "channel"
    """The channel the table was opened in."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GuildSettings:
    """Per-guild settings; a guild never configured gets these defaults.

    ``place``: where a new table plays; in a thread by default, so a shared channel
    keeps one message per match."""

    table_defaults: TableSettings = TableSettings()
    place: TablePlace = TablePlace.THREAD
    language: str | None = None
    """The language of new tables' channel posts; None: the server's preferred locale."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRecord:
    """A table as stored: who sits where, its state, its settings and its messages."""

    table_id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    seats: tuple[SeatOccupant | None, ...]
    settings: TableSettings
    messages: dict[str, int]
    match_id: int | None
    """The match being played at this table, if any (what to replay after a restart)."""
    created_at: datetime
    names: tuple[str | None, ...] = (None, None, None, None)
    """The name each seat goes by (None where none was given), kept for the lobby."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchSeat:
    """Who played a seat of a match, under which name (the record's player name)."""

    seat: int
    name: str
    occupant: SeatOccupant


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchInfo:
    """What is known about a match besides its record."""

    match_id: int
    table_id: int
    guild_id: int
    status: MatchStatus
    seats: tuple[MatchSeat, ...]
    first_dealer: int
    seed: int | None
    started_at: datetime
    ended_at: datetime | None
    season_id: int | None
    deals: int
    """How many deals are stored; the next deal to store has this index."""
    actions: int
    """How many actions are stored; the next action to store has this number."""
    last_action_at: datetime | None
    """When the last action was stored, to resume a turn timer after a restart."""
    rules: dict[str, Any] = field(default_factory=lambda: {"variant": "standard"})
    """The rules the match is played by, as its record's header (the engine's
    ``rules_for`` reads it)."""


class ReviewStatus(StrEnum):
    """A player's review of a match: waiting its turn, being computed, or stored."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


@dataclass(frozen=True, slots=True, kw_only=True)
class ReviewState:
    """One player's review of a finished match as the store keeps it: its state, the
    server that asked, its settings and, once done, the review (JSON, as
    :mod:`bot.review.result` writes it; the store does not read inside it)."""

    match_id: int
    seat: int
    guild_id: int
    status: ReviewStatus
    settings: dict[str, Any]
    requested_at: datetime
    review: dict[str, Any] | None
    deals_done: int
    """How many of the match's deals are reviewed and stored so far."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FinishedMatch:
    """A finished match as a list of matches names it: when it ended, who sat where."""

    match_id: int
    ended_at: datetime
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rating:
    """An openskill rating; leaderboards sort by the conservative ``mu - 3 * sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True, kw_only=True)
class RatedPlayer:
    """What a rater is told about one human seat of a finished match."""

    user_id: int
    rank: int
    previous: Rating | None


Rater = Callable[[Sequence[RatedPlayer]], Mapping[int, Rating]]
"""New ratings by user id, from the players' ranks and previous ratings in the season.

It is called inside the finishing transaction, so reading the old ratings and writing the
new ones cannot interleave with another match finishing for the same player."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatResult:
    seat: int
    name: str
    occupant: SeatOccupant
    points: int
    rank: int
    """1 is best; equal totals share a rank."""
    deal_points: tuple[int, ...]
    """Final score (after doubling) of each of the 11 deals."""
    takeovers: int
    """How many times a computer took over this human seat (runs of computer moves)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResult:
    match_id: int
    season_id: int
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Season:
    season_id: int
    guild_id: int
    name: str
    started_at: datetime
    ended_at: datetime | None

    @property
    def active(self) -> bool:
        return self.ended_at is None


class LeaderboardSort(StrEnum):
    POINTS = "points"
    WINS = "wins"
    AVERAGE = "average"
    RATING = "rating"


@dataclass(frozen=True, slots=True, kw_only=True)
class SeasonStanding:
    """One leaderboard row; players with an equal sort value share a rank."""

    rank: int
    user_id: int
    matches: int
    wins: int
    points: int
    rating: Rating | None

    @property
    def average(self) -> float:
        return self.points / self.matches


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderboardPage:
    season: Season
    sort: LeaderboardSort
    offset: int
    players: int
    """How many players the whole leaderboard has (for "page 3 of 40")."""
    rows: tuple[SeasonStanding, ...]
    viewer: SeasonStanding | None
    """The asking player's own row wherever it is, or None if they have not played."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractStat:
    """A player's deals under one contract in a season."""

    contract: str
    deals: int
    base_points: int
    """Points before doubling."""
    points: int
    """Points after doubling."""

    @property
    def average(self) -> float:
        return self.points / self.deals


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantStat:
    """A player's finished matches of one variant in a season, points as played."""

    variant: str
    matches: int
    wins: int
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStats:
    season: Season
    user_id: int
    matches: int
    wins: int
    points: int
    takeovers: int
    """How many times a computer played for this player."""
    doubles_made: int
    """Players named in this player's doubling turns (doubles and redoubles)."""
    doubles_received: int
    """Times another player named this one."""
    doubling_won: int
    """Sum of (final - base) over the deals where doubling gained points (>= 0)."""
    doubling_lost: int
    """Sum of (final - base) over the deals where doubling cost points (<= 0)."""
    rating: Rating | None
    contracts: tuple[ContractStat, ...] = field(default=())
    variants: tuple[VariantStat, ...] = field(default=())
    """The season's matches per variant, in the points as played."""

    @property
    def average(self) -> float:
        return self.points / self.matches

    @property
    def best_contract(self) -> ContractStat | None:
        """The contract with the highest average points after doubling."""
        return max(self.contracts, key=lambda c: c.average, default=None)

    @property
    def worst_contract(self) -> ContractStat | None:
        return min(self.contracts, key=lambda c: c.average, default=None)
