"""The bot's memory in SQLite or PostgreSQL: tables, matches and their actions, seasons and
standings.

Nothing outside this package writes SQL. Open it once at start::

    store = await open_store(settings.database)  # a SQLite path or a postgresql:// URL
    table = await store.tables.create_table(guild_id, channel_id, host_id)
    info = await store.matches.create_match(table.table_id, names, seed=seed)
    await store.matches.append_deal(info.match_id, 0, match.deal.hands)
    await store.matches.append_action(info.match_id, seq, seat, action)  # committed now
    result = await store.matches.finish_match(info.match_id)

Every method speaks in engine values (``Choose``, ``Double``, ``Play``, ``Card``) and the
dataclasses in :mod:`bot.store.models`, and raises a :class:`StoreError` subclass when it
refuses something.
"""

from .claims import ClaimLost
from .delivery import HandLink
from .errors import (
    AlreadyStored,
    Conflict,
    ConstraintFailed,
    DatabaseRefused,
    NotFound,
    StorageFailed,
    StoreError,
)
from .models import (
    AttemptInfo,
    AttemptScores,
    Computer,
    ContractStat,
    DailyDayRecord,
    DailyDealRecord,
    DailyMove,
    DailyTally,
    FinishedMatch,
    Guest,
    GuildSettings,
    Human,
    LeaderboardPage,
    LeaderboardSort,
    MatchInfo,
    MatchResult,
    MatchSeat,
    MatchStatus,
    PlayerStats,
    RatedPlayer,
    Rater,
    Rating,
    RatingPoint,
    ReviewState,
    ReviewStatus,
    Season,
    SeasonStanding,
    SeatOccupant,
    SeatResult,
    TablePlace,
    TableRecord,
    TableSettings,
    TableStatus,
    TallyEntry,
    TallyInfo,
    TallyResult,
    TallySeat,
    TallyStatus,
    VariantStat,
    WebAccess,
)
from .store import Store, open_store

__all__ = [
    "AlreadyStored",
    "AttemptInfo",
    "AttemptScores",
    "ClaimLost",
    "Computer",
    "Conflict",
    "ConstraintFailed",
    "ContractStat",
    "DailyDayRecord",
    "DailyDealRecord",
    "DailyMove",
    "DailyTally",
    "DatabaseRefused",
    "FinishedMatch",
    "Guest",
    "GuildSettings",
    "HandLink",
    "Human",
    "LeaderboardPage",
    "LeaderboardSort",
    "MatchInfo",
    "MatchResult",
    "MatchSeat",
    "MatchStatus",
    "NotFound",
    "PlayedMatch",
    "PlayerStats",
    "RatedPlayer",
    "Rater",
    "Rating",
    "RatingPoint",
    "ReviewState",
    "ReviewStatus",
    "Season",
    "SeasonStanding",
    "SeatOccupant",
    "SeatResult",
    "StorageFailed",
    "Store",
    "StoreError",
    "TablePlace",
    "TableRecord",
    "TableSettings",
    "TableStatus",
    "TallyEntry",
    "TallyInfo",
    "TallyResult",
    "TallySeat",
    "TallyStatus",
    "VariantStat",
    "WebAccess",
    "open_store",
]
