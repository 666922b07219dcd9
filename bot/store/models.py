"""The typed values the store takes and returns: the service's terms, never rows.

Everything is a frozen dataclass or an enum, so a value read from the store can be passed
around freely without anyone changing it behind the store's back. A dataclass of more than
one field is built by keyword only, so a field added (with its column) shifts no other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from bot.engine import STANDARD, Action, Card, Rules
from bot.engine.tally import Entry

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


@dataclass(frozen=True, slots=True)
class Guest:
    """A tally's seat taken by someone who is no member of the server, known only by the
    name written down; like a computer, a guest reaches no standings."""


Player = SeatOccupant | Guest
"""Whoever sat in a seat: at a table a member or a computer, at a tally a member or a guest."""


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


class WebAccess(StrEnum):
    """Who may open a server's web pages (``/bonken-admin settings web:``)."""

    OFF = "off"
    """No page of the server is served."""
    LINK = "link"
    """A page opens only through its link (a signed token), kept out of search engines."""
    PUBLIC = "public"
    """As ``link``, and the server page lists the server's pages."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GuildSettings:
    """Per-guild settings; a guild never configured gets these defaults.

    ``place``: where a new table plays; in a thread by default, so a shared channel
    keeps one message per match."""

    table_defaults: TableSettings = TableSettings()
    place: TablePlace = TablePlace.THREAD
    language: str | None = None
    """The language of new tables' channel posts; None: the server's preferred locale."""
    rate_tallies: bool = True
    """Whether a finished tally (a match played with real cards) changes its players'
    ratings; it counts in the standings either way."""
    web: WebAccess = WebAccess.LINK
    """Who may open the server's web pages (:class:`WebAccess`)."""


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
    occupant: Player
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
    tallies: int
    """How many of ``matches`` were played with real cards and kept by a tally."""
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


class TallyStatus(StrEnum):
    OPEN = "open"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True, kw_only=True)
class TallySeat:
    """Who sat in a seat of a tally: a member, or a guest (``user_id`` None)."""

    seat: int
    name: str
    user_id: int | None

    @property
    def occupant(self) -> Player:
        return Guest() if self.user_id is None else Human(self.user_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class TallyInfo:
    """A tally as stored, besides its entries."""

    tally_id: int
    guild_id: int
    channel_id: int
    """Where ``/bonken tally new`` was run (its scoresheet may have a thread of its own)."""
    host_id: int
    status: TallyStatus
    seats: tuple[TallySeat, ...]
    first_dealer: int
    rules: Rules
    language: str | None
    """The language of its scoresheet; None: the server's."""
    images: bool
    started_at: datetime
    ended_at: datetime | None
    season_id: int | None
    entries: int
    """How many entries are stored; the next to store has this number."""
    messages: dict[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class TallyResult:
    """A finished tally's results, as a finished match's."""

    tally_id: int
    season_id: int
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TallyEntry:
    """One stored entry of a tally: what was entered, by whom, when. ``entry`` is the
    engine's (:data:`bot.engine.tally.Entry`); None for the tally's cancelling."""

    seq: int
    kind: str
    entry: Entry | None
    user_id: int
    entered_at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class DailyDealRecord:
    """One deal of a server's day as stored: its dealer, its set contract, the hands."""

    deal_index: int
    dealer: int
    contract: str
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DailyDayRecord:
    """A server's day of daily deals as stored when its first attempt started."""

    guild_id: int
    day: date
    rules: Rules
    deals: tuple[DailyDealRecord, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AttemptInfo:
    """One person's attempt at a day's deals, besides its moves."""

    attempt_id: int
    guild_id: int
    day: date
    user_id: int
    name: str
    """The name the person played under (the record's player name)."""
    season_id: int
    started_at: datetime
    finished_at: datetime | None
    moves: int
    """How many moves are stored; the next move to store has this number."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DailyMove:
    """A stored move of an attempt: its number over the attempt, deal, seat and action."""

    seq: int
    deal_index: int
    seat: int
    action: Action


@dataclass(frozen=True, slots=True, kw_only=True)
class AttemptScores:
    """An attempt's scores: the person's final score on each deal finished."""

    attempt_id: int
    user_id: int
    name: str
    season_id: int
    finished: bool
    scores: tuple[int | None, ...]
    """One per deal of the day, None where the deal was not finished."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DailyTally:
    """A player's closed days in a season: how many, and the sum of their results."""

    user_id: int
    name: str
    days: int
    total: float


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating just after one of their rated matches or tallies."""

    rated_at: datetime
    rating: Rating


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match (or tally) as one of its players' lists show it."""

    match_id: int
    """The match's id, or the tally's in a list of tallies."""
    ended_at: datetime
    names: tuple[str, ...]
    seat: int
    points: int
    rank: int
