"""The schema, as numbered migrations applied in order; ``schema_version`` says how far.

A database file is upgraded in place at start: each migration not yet applied runs in its
own transaction together with the row that records it, so a crash mid-upgrade leaves the
file at the previous version, never in between. Migrations only add (tables, columns,
indexes, rows) or loosen a ``CHECK``; nothing is ever dropped, so every earlier match stays
readable.

To change the schema, append a ``Migration`` with the next number; never edit one that has
shipped, because files in the wild already ran it. The numbers need not follow each other:
a migration runs if the file has not recorded it, so one numbered below another that
already ran (work merged in another order) still runs, in the list's order. Each
migration says its change twice, in SQLite's words (``statements``) and in PostgreSQL's
(``postgres``), with the same tables, columns and index names, so both databases hold the
same schema at each number.
PostgreSQL's differences: Discord ids and millisecond times are ``BIGINT``, generated ids
are identity columns, floats are ``DOUBLE PRECISION``, the leaderboard indexes say
``NULLS LAST`` as SQLite's order does, and triggers call plpgsql functions. A migration
that must rebuild a table in SQLite (its 12-step ``ALTER``, to change a ``CHECK``) says
``rebuilds=True``: foreign keys are switched off around its transaction and checked before
it commits; PostgreSQL alters the constraint in place.

This module applies them to SQLite; :mod:`bot.store.postgres` applies the same list to
PostgreSQL, under an advisory lock so bot processes starting together migrate once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection
from dataclasses import dataclass

from .codec import now_ms


@dataclass(frozen=True)
class Migration:
    version: int
    title: str
    statements: tuple[str, ...]
    """SQLite's statements."""
    postgres: tuple[str, ...] | None = None
    """PostgreSQL's statements, to the same effect; None: ``statements`` themselves, for
    a migration whose words both databases read alike (a plain ``ADD COLUMN``)."""
    rebuilds: bool = False
    """It drops and recreates a table, SQLite's way to change a ``CHECK`` (see the module's
    docstring)."""

    @property
    def postgres_statements(self) -> tuple[str, ...]:
        return self.statements if self.postgres is None else self.postgres


# The deals table's triggers, shared by the migration that made them and the one that
# rebuilt the table (dropping a table drops its triggers).
DEALS_APPEND_IN_ORDER = """
    CREATE TRIGGER deals_append_in_order BEFORE INSERT ON deals
    BEGIN
        SELECT RAISE(ABORT, 'the match is not in play')
        WHERE (SELECT status FROM matches WHERE match_id = NEW.match_id) IS NOT 'playing';
        SELECT RAISE(ABORT, 'deal out of order')
        WHERE NEW.deal_index > coalesce(
            (SELECT max(deal_index) FROM deals WHERE match_id = NEW.match_id) + 1, 0);
    END
"""
DEALS_NEVER_CHANGE = """
    CREATE TRIGGER deals_never_change BEFORE UPDATE ON deals
    BEGIN SELECT RAISE(ABORT, 'deals are append-only'); END
"""
DEALS_NEVER_GO = """
    CREATE TRIGGER deals_never_go BEFORE DELETE ON deals
    BEGIN SELECT RAISE(ABORT, 'deals are append-only'); END
"""

# PostgreSQL's words for the same migrations (see the module's docstring). The triggers'
# refusals use SQLSTATE 23000, an integrity violation, so they reach the store as a broken
# constraint exactly as SQLite's RAISE(ABORT) does.
PG_REFUSE = "USING ERRCODE = 'integrity_constraint_violation'"
PG_APPEND_IN_ORDER = """
    CREATE FUNCTION {table}_append_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- The match's row stays locked until the transaction ends: appends to one match
        -- run one after the other, whichever process writes them, and none slips past a
        -- match being finished or cancelled by another transaction.
        IF (SELECT status FROM matches WHERE match_id = NEW.match_id FOR NO KEY UPDATE)
           IS DISTINCT FROM 'playing' THEN
            RAISE EXCEPTION 'the match is not in play' {refuse};
        END IF;
        IF NEW.{number} > coalesce(
            (SELECT max({number}) FROM {table} WHERE match_id = NEW.match_id) + 1, 0) THEN
            RAISE EXCEPTION '{what} out of order' {refuse};
        END IF;
        RETURN NEW;
    END $$
"""
PG_APPEND_ONLY = """
    CREATE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '{table} are append-only' {refuse}; END $$
"""


def _pg_append_only(table: str, number: str, what: str) -> tuple[str, ...]:
    """The functions and triggers that keep ``table`` (deals, actions) an append-only log."""
    names = {"table": table, "number": number, "what": what, "refuse": PG_REFUSE}
    return (
        PG_APPEND_IN_ORDER.format(**names),
        PG_APPEND_ONLY.format(**names),
        f"CREATE TRIGGER {table}_append_in_order BEFORE INSERT ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {table}_append_in_order()",
        f"CREATE TRIGGER {table}_never_change BEFORE UPDATE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only()",
        f"CREATE TRIGGER {table}_never_go BEFORE DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION {table}_append_only()",
        f"CREATE TRIGGER {table}_never_emptied BEFORE TRUNCATE ON {table} "
        f"FOR EACH STATEMENT EXECUTE FUNCTION {table}_append_only()",
    )


PG_PLAY = (
    """
    CREATE TABLE schema_version (
        version    INTEGER PRIMARY KEY,
        applied_at BIGINT  NOT NULL
    )
    """,
    """
    CREATE TABLE guild_settings (
        guild_id       BIGINT  PRIMARY KEY,
        turn_seconds   INTEGER NOT NULL CHECK (turn_seconds > 0),
        computer_level TEXT    NOT NULL
    )
    """,
    """
    CREATE TABLE tables (
        table_id       BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id       BIGINT  NOT NULL,
        channel_id     BIGINT  NOT NULL,
        host_id        BIGINT  NOT NULL,
        status         TEXT    NOT NULL
                       CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
        turn_seconds   INTEGER NOT NULL CHECK (turn_seconds > 0),
        computer_level TEXT    NOT NULL,
        created_at     BIGINT  NOT NULL,
        updated_at     BIGINT  NOT NULL
    )
    """,
    """
    CREATE UNIQUE INDEX tables_open_in_channel ON tables (channel_id)
    WHERE status IN ('lobby', 'playing')
    """,
    """
    CREATE TABLE table_seats (
        table_id       BIGINT  NOT NULL REFERENCES tables (table_id),
        seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id        BIGINT,
        computer_level TEXT,
        CHECK ((user_id IS NULL) <> (computer_level IS NULL)),
        PRIMARY KEY (table_id, seat)
    )
    """,
    """
    CREATE TABLE table_messages (
        table_id   BIGINT NOT NULL REFERENCES tables (table_id),
        role       TEXT   NOT NULL,
        message_id BIGINT NOT NULL,
        PRIMARY KEY (table_id, role)
    )
    """,
    """
    CREATE TABLE matches (
        match_id     BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        table_id     BIGINT  NOT NULL REFERENCES tables (table_id),
        first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
        seed         BIGINT,
        status       TEXT    NOT NULL DEFAULT 'playing'
                     CHECK (status IN ('playing', 'finished', 'cancelled')),
        started_at   BIGINT  NOT NULL,
        ended_at     BIGINT
    )
    """,
    """
    CREATE UNIQUE INDEX matches_playing_at_table ON matches (table_id)
    WHERE status = 'playing'
    """,
    """
    CREATE TABLE match_seats (
        match_id       BIGINT  NOT NULL REFERENCES matches (match_id),
        seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        name           TEXT    NOT NULL,
        user_id        BIGINT,
        computer_level TEXT,
        CHECK ((user_id IS NULL) <> (computer_level IS NULL)),
        PRIMARY KEY (match_id, seat)
    )
    """,
    """
    CREATE UNIQUE INDEX match_seats_one_per_user ON match_seats (match_id, user_id)
    WHERE user_id IS NOT NULL
    """,
    """
    CREATE TABLE deals (
        match_id   BIGINT  NOT NULL REFERENCES matches (match_id),
        deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
        hands      TEXT    NOT NULL CHECK (length(hands) = 104),
        dealt_at   BIGINT  NOT NULL,
        PRIMARY KEY (match_id, deal_index)
    )
    """,
    """
    CREATE TABLE actions (
        match_id    BIGINT  NOT NULL,
        seq         INTEGER NOT NULL CHECK (seq >= 0),
        deal_index  INTEGER NOT NULL,
        seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        kind        TEXT    NOT NULL CHECK (kind IN ('choose', 'double', 'play')),
        value       TEXT    NOT NULL,
        by_computer INTEGER NOT NULL CHECK (by_computer IN (0, 1)),
        acted_at    BIGINT  NOT NULL,
        PRIMARY KEY (match_id, seq),
        FOREIGN KEY (match_id, deal_index) REFERENCES deals (match_id, deal_index)
    )
    """,
    *_pg_append_only("deals", "deal_index", "deal"),
    *_pg_append_only("actions", "seq", "action"),
)

PG_STANDING_COLUMNS = "INCLUDE (matches, wins, points, rating_mu, rating_sigma)"
PG_STANDINGS = (
    """
    CREATE TABLE seasons (
        season_id  BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id   BIGINT NOT NULL,
        name       TEXT   NOT NULL,
        started_at BIGINT NOT NULL,
        ended_at   BIGINT,
        UNIQUE (guild_id, name)
    )
    """,
    "CREATE UNIQUE INDEX seasons_one_active ON seasons (guild_id) WHERE ended_at IS NULL",
    "ALTER TABLE matches ADD COLUMN season_id BIGINT REFERENCES seasons (season_id)",
    "CREATE INDEX matches_in_season ON matches (season_id) WHERE season_id IS NOT NULL",
    """
    CREATE TABLE match_results (
        match_id    BIGINT  NOT NULL REFERENCES matches (match_id),
        seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        points      INTEGER NOT NULL,
        rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 4),
        deal_points TEXT    NOT NULL,
        takeovers   INTEGER NOT NULL CHECK (takeovers >= 0),
        PRIMARY KEY (match_id, seat),
        FOREIGN KEY (match_id, seat) REFERENCES match_seats (match_id, seat)
    )
    """,
    """
    CREATE TABLE season_players (
        season_id        BIGINT  NOT NULL REFERENCES seasons (season_id),
        user_id          BIGINT  NOT NULL,
        matches          INTEGER NOT NULL CHECK (matches > 0),
        wins             INTEGER NOT NULL,
        points           INTEGER NOT NULL,
        takeovers        INTEGER NOT NULL,
        doubles_made     INTEGER NOT NULL,
        doubles_received INTEGER NOT NULL,
        doubling_won     INTEGER NOT NULL,
        doubling_lost    INTEGER NOT NULL,
        rating_mu        DOUBLE PRECISION,
        rating_sigma     DOUBLE PRECISION,
        PRIMARY KEY (season_id, user_id)
    )
    """,
    # Each leaderboard index carries the columns a page shows (INCLUDE), so a page, a
    # rank and a count are walks of the index alone (index-only scans): a deep page of a
    # 100,000-player season never visits the table.
    f"""
    CREATE INDEX season_players_by_points
    ON season_players (season_id, points DESC NULLS LAST, user_id) {PG_STANDING_COLUMNS}
    """,
    f"""
    CREATE INDEX season_players_by_wins
    ON season_players (season_id, wins DESC NULLS LAST, user_id) {PG_STANDING_COLUMNS}
    """,
    f"""
    CREATE INDEX season_players_by_average
    ON season_players (season_id, (CAST(points AS DOUBLE PRECISION) / matches) DESC NULLS LAST,
                       user_id) {PG_STANDING_COLUMNS}
    """,
    f"""
    CREATE INDEX season_players_by_rating
    ON season_players (season_id, (rating_mu - 3 * rating_sigma) DESC NULLS LAST, user_id)
    {PG_STANDING_COLUMNS}
    """,
    """
    CREATE TABLE season_player_contracts (
        season_id   BIGINT  NOT NULL,
        user_id     BIGINT  NOT NULL,
        contract    TEXT    NOT NULL,
        deals       INTEGER NOT NULL,
        base_points INTEGER NOT NULL,
        points      INTEGER NOT NULL,
        PRIMARY KEY (season_id, user_id, contract),
        FOREIGN KEY (season_id, user_id) REFERENCES season_players (season_id, user_id)
    )
    """,
)

PG_BOT_FACTS = (
    """
    CREATE TABLE bot_facts (
        key        TEXT   PRIMARY KEY,
        value      TEXT   NOT NULL,
        updated_at BIGINT NOT NULL
    )
    """,
)

PG_DELIVERY = (
    """
    CREATE TABLE channel_posted (
        table_id BIGINT  PRIMARY KEY REFERENCES tables (table_id),
        deal     INTEGER NOT NULL CHECK (deal >= 0),
        step     INTEGER NOT NULL CHECK (step BETWEEN 0 AND 14)
    )
    """,
    """
    INSERT INTO channel_posted (table_id, deal, step)
    SELECT m.table_id, count(d.deal_index), 14
    FROM matches m JOIN deals d ON d.match_id = m.match_id
    WHERE m.status = 'playing' GROUP BY m.table_id
    """,
    """
    CREATE TABLE hand_links (
        table_id       BIGINT NOT NULL REFERENCES tables (table_id),
        user_id        BIGINT NOT NULL,
        application_id BIGINT NOT NULL,
        token          TEXT   NOT NULL,
        expires_at     BIGINT NOT NULL,
        PRIMARY KEY (table_id, user_id)
    )
    """,
)

PG_HOUSE_RULES = (
    "ALTER TABLE tables ADD COLUMN rules TEXT",
    "ALTER TABLE guild_settings ADD COLUMN rules TEXT",
    """
    CREATE INDEX match_seats_by_user ON match_seats (user_id, match_id)
    WHERE user_id IS NOT NULL
    """,
    "ALTER TABLE deals DROP CONSTRAINT deals_deal_index_check, "
    "ADD CONSTRAINT deals_deal_index_check CHECK (deal_index BETWEEN 0 AND 11)",
)


PLAY = Migration(
    1,
    "tables, matches, deals and their actions",
    (
        """
        CREATE TABLE schema_version (
            version    INTEGER PRIMARY KEY,
            applied_at INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE guild_settings (
            guild_id       INTEGER PRIMARY KEY,
            turn_seconds   INTEGER NOT NULL CHECK (turn_seconds > 0),
            computer_level TEXT    NOT NULL
        )
        """,
        """
        CREATE TABLE tables (
            table_id       INTEGER PRIMARY KEY,
            guild_id       INTEGER NOT NULL,
            channel_id     INTEGER NOT NULL,
            host_id        INTEGER NOT NULL,
            status         TEXT    NOT NULL
                           CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
            turn_seconds   INTEGER NOT NULL CHECK (turn_seconds > 0),
            computer_level TEXT    NOT NULL,
            created_at     INTEGER NOT NULL,
            updated_at     INTEGER NOT NULL
        )
        """,
        # A command names its channel, so a channel has at most one open table.
        """
        CREATE UNIQUE INDEX tables_open_in_channel ON tables (channel_id)
        WHERE status IN ('lobby', 'playing')
        """,
        """
        CREATE TABLE table_seats (
            table_id       INTEGER NOT NULL REFERENCES tables (table_id),
            seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            user_id        INTEGER,
            computer_level TEXT,
            CHECK ((user_id IS NULL) <> (computer_level IS NULL)),
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE table_messages (
            table_id   INTEGER NOT NULL REFERENCES tables (table_id),
            role       TEXT    NOT NULL,
            message_id INTEGER NOT NULL,
            PRIMARY KEY (table_id, role)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE matches (
            match_id     INTEGER PRIMARY KEY,
            table_id     INTEGER NOT NULL REFERENCES tables (table_id),
            first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
            seed         INTEGER,
            status       TEXT    NOT NULL DEFAULT 'playing'
                         CHECK (status IN ('playing', 'finished', 'cancelled')),
            started_at   INTEGER NOT NULL,
            ended_at     INTEGER
        )
        """,
        # At most one match in play per table; also how a table finds its current match.
        """
        CREATE UNIQUE INDEX matches_playing_at_table ON matches (table_id)
        WHERE status = 'playing'
        """,
        """
        CREATE TABLE match_seats (
            match_id       INTEGER NOT NULL REFERENCES matches (match_id),
            seat           INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            name           TEXT    NOT NULL,
            user_id        INTEGER,
            computer_level TEXT,
            CHECK ((user_id IS NULL) <> (computer_level IS NULL)),
            PRIMARY KEY (match_id, seat)
        ) WITHOUT ROWID
        """,
        # One seat per user per match, or their standings would count the match twice.
        """
        CREATE UNIQUE INDEX match_seats_one_per_user ON match_seats (match_id, user_id)
        WHERE user_id IS NOT NULL
        """,
        """
        CREATE TABLE deals (
            match_id   INTEGER NOT NULL REFERENCES matches (match_id),
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            hands      TEXT    NOT NULL CHECK (length(hands) = 104),
            dealt_at   INTEGER NOT NULL,
            PRIMARY KEY (match_id, deal_index)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE actions (
            match_id    INTEGER NOT NULL,
            seq         INTEGER NOT NULL CHECK (seq >= 0),
            deal_index  INTEGER NOT NULL,
            seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            kind        TEXT    NOT NULL CHECK (kind IN ('choose', 'double', 'play')),
            value       TEXT    NOT NULL,
            by_computer INTEGER NOT NULL CHECK (by_computer IN (0, 1)),
            acted_at    INTEGER NOT NULL,
            PRIMARY KEY (match_id, seq),
            FOREIGN KEY (match_id, deal_index) REFERENCES deals (match_id, deal_index)
        ) WITHOUT ROWID
        """,
        # Deals and actions are the match's record: appended in order while the match is
        # in play, never changed. A repeated number is refused by the primary key.
        DEALS_APPEND_IN_ORDER,
        """
        CREATE TRIGGER actions_append_in_order BEFORE INSERT ON actions
        BEGIN
            SELECT RAISE(ABORT, 'the match is not in play')
            WHERE (SELECT status FROM matches WHERE match_id = NEW.match_id) IS NOT 'playing';
            SELECT RAISE(ABORT, 'action out of order')
            WHERE NEW.seq > coalesce(
                (SELECT max(seq) FROM actions WHERE match_id = NEW.match_id) + 1, 0);
        END
        """,
        DEALS_NEVER_CHANGE,
        DEALS_NEVER_GO,
        """
        CREATE TRIGGER actions_never_change BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END
        """,
        """
        CREATE TRIGGER actions_never_go BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END
        """,
    ),
    postgres=PG_PLAY,
)

STANDINGS = Migration(
    2,
    "seasons, finished results and per-season aggregates for standings",
    (
        """
        CREATE TABLE seasons (
            season_id  INTEGER PRIMARY KEY,
            guild_id   INTEGER NOT NULL,
            name       TEXT    NOT NULL,
            started_at INTEGER NOT NULL,
            ended_at   INTEGER,
            UNIQUE (guild_id, name)
        )
        """,
        """
        CREATE UNIQUE INDEX seasons_one_active ON seasons (guild_id) WHERE ended_at IS NULL
        """,
        # The season a finished match counted in; NULL while playing and when cancelled.
        "ALTER TABLE matches ADD COLUMN season_id INTEGER REFERENCES seasons (season_id)",
        """
        CREATE INDEX matches_in_season ON matches (season_id) WHERE season_id IS NOT NULL
        """,
        """
        CREATE TABLE match_results (
            match_id    INTEGER NOT NULL REFERENCES matches (match_id),
            seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            points      INTEGER NOT NULL,
            rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 4),
            deal_points TEXT    NOT NULL,
            takeovers   INTEGER NOT NULL CHECK (takeovers >= 0),
            PRIMARY KEY (match_id, seat),
            FOREIGN KEY (match_id, seat) REFERENCES match_seats (match_id, seat)
        ) WITHOUT ROWID
        """,
        # One row per human per season, updated in the finishing transaction, so a
        # leaderboard page is an index walk instead of an aggregate over every match.
        """
        CREATE TABLE season_players (
            season_id        INTEGER NOT NULL REFERENCES seasons (season_id),
            user_id          INTEGER NOT NULL,
            matches          INTEGER NOT NULL CHECK (matches > 0),
            wins             INTEGER NOT NULL,
            points           INTEGER NOT NULL,
            takeovers        INTEGER NOT NULL,
            doubles_made     INTEGER NOT NULL,
            doubles_received INTEGER NOT NULL,
            doubling_won     INTEGER NOT NULL,
            doubling_lost    INTEGER NOT NULL,
            rating_mu        REAL,
            rating_sigma     REAL,
            PRIMARY KEY (season_id, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE INDEX season_players_by_points
        ON season_players (season_id, points DESC, user_id)
        """,
        """
        CREATE INDEX season_players_by_wins
        ON season_players (season_id, wins DESC, user_id)
        """,
        """
        CREATE INDEX season_players_by_average
        ON season_players (season_id, (CAST(points AS REAL) / matches) DESC, user_id)
        """,
        """
        CREATE INDEX season_players_by_rating
        ON season_players (season_id, (rating_mu - 3 * rating_sigma) DESC, user_id)
        """,
        """
        CREATE TABLE season_player_contracts (
            season_id   INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            contract    TEXT    NOT NULL,
            deals       INTEGER NOT NULL,
            base_points INTEGER NOT NULL,
            points      INTEGER NOT NULL,
            PRIMARY KEY (season_id, user_id, contract),
            FOREIGN KEY (season_id, user_id) REFERENCES season_players (season_id, user_id)
        ) WITHOUT ROWID
        """,
    ),
    postgres=PG_STANDINGS,
)

SEAT_NAMES = Migration(
    3,
    "the name each lobby seat goes by, so a restored lobby starts its match with it",
    ("ALTER TABLE table_seats ADD COLUMN name TEXT",),
)

BOT_FACTS = Migration(
    4,
    "small facts the bot keeps about itself, such as the hash of the commands last synced",
    (
        """
        CREATE TABLE bot_facts (
            key        TEXT    PRIMARY KEY,
            value      TEXT    NOT NULL,
            updated_at INTEGER NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    postgres=PG_BOT_FACTS,
)

DELIVERY = Migration(
    5,
    "what the channel was last shown, and the open hand messages' interaction tokens",
    (
        # The last line posted in a table's channel: (deal 1, 2, ...; step 0 the deal's message,
        # 1-13 a trick line, 14 the score line), so a restart posts only what is missing.
        """
        CREATE TABLE channel_posted (
            table_id INTEGER PRIMARY KEY REFERENCES tables (table_id),
            deal     INTEGER NOT NULL CHECK (deal >= 0),
            step     INTEGER NOT NULL CHECK (step BETWEEN 0 AND 14)
        )
        """,
        # Tables in play at the upgrade were shown everything (nothing to post again).
        """
        INSERT INTO channel_posted (table_id, deal, step)
        SELECT m.table_id, count(d.deal_index), 14
        FROM matches m JOIN deals d ON d.match_id = m.match_id
        WHERE m.status = 'playing' GROUP BY m.table_id
        """,
        # An open hand message's interaction webhook: a credential until expires_at (ms).
        """
        CREATE TABLE hand_links (
            table_id       INTEGER NOT NULL REFERENCES tables (table_id),
            user_id        INTEGER NOT NULL,
            application_id INTEGER NOT NULL,
            token          TEXT    NOT NULL,
            expires_at     INTEGER NOT NULL,
            PRIMARY KEY (table_id, user_id)
        ) WITHOUT ROWID
        """,
    ),
    postgres=PG_DELIVERY,
)

TABLE_PLACE = Migration(
    6,
    "where a server's tables play: in a thread of their lobby message, or in the channel",
    # NULL (every server before this) is the default: a thread.
    ("ALTER TABLE guild_settings ADD COLUMN place TEXT CHECK (place IN ('thread', 'channel'))",),
)

MATCH_RULES = Migration(
    7,
    "the rules each match is played by, so a restart replays it by the same rules",
    # The record's header (``{"variant": ..., "house_rules": ...}``) as JSON; NULL is the
    # standard game, which every match stored before this migration was.
    ("ALTER TABLE matches ADD COLUMN rules TEXT",),
)

HOUSE_RULES = Migration(
    8,
    "the rules each table and each server's new tables play, and the 12 deals of twelve",
    (
        # The rules as the record's header (JSON); NULL is the standard game, which every
        # table and server default was before this migration.
        "ALTER TABLE tables ADD COLUMN rules TEXT",
        "ALTER TABLE guild_settings ADD COLUMN rules TEXT",
        # A player's matches, for their statistics per variant.
        """
        CREATE INDEX match_seats_by_user ON match_seats (user_id, match_id)
        WHERE user_id IS NOT NULL
        """,
        # deals: the same table with deal_index up to 11 (the twelve variant's 12 deals;
        # which indexes a match may use is its rules', checked when a deal is stored).
        """
        CREATE TABLE deals_rebuilt (
            match_id   INTEGER NOT NULL REFERENCES matches (match_id),
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 11),
            hands      TEXT    NOT NULL CHECK (length(hands) = 104),
            dealt_at   INTEGER NOT NULL,
            PRIMARY KEY (match_id, deal_index)
        ) WITHOUT ROWID
        """,
        "INSERT INTO deals_rebuilt SELECT match_id, deal_index, hands, dealt_at FROM deals",
        "DROP TABLE deals",
        "ALTER TABLE deals_rebuilt RENAME TO deals",
        # Dropping the table dropped its triggers: the same three again.
        DEALS_APPEND_IN_ORDER,
        DEALS_NEVER_CHANGE,
        DEALS_NEVER_GO,
    ),
    rebuilds=True,
    postgres=PG_HOUSE_RULES,
)

PICTURES = Migration(
    9,
    "whether a server's new tables, and each table, show pictures or text only",
    # NULL (every server and table before this) is the default: pictures.
    (
        "ALTER TABLE guild_settings ADD COLUMN images INTEGER CHECK (images IN (0, 1))",
        "ALTER TABLE tables ADD COLUMN images INTEGER CHECK (images IN (0, 1))",
    ),
)

LANGUAGES = Migration(
    10,
    "the language of a table's channel posts, and of a server's new tables",
    # NULL: a table posts in its server's language, a server follows its preferred locale.
    (
        "ALTER TABLE tables ADD COLUMN language TEXT",
        "ALTER TABLE guild_settings ADD COLUMN language TEXT",
    ),
)

TABLE_CLAIMS = Migration(
    11,
    "which bot process drives each open table, and which process stored each action",
    (
        # An open table's claim (see bot.store.claims): the owner id of the process that
        # drives it. Tables open at the upgrade get owner 0, which no process has, so the
        # first bot to restore them takes them over.
        """
        CREATE TABLE table_claims (
            table_id   INTEGER PRIMARY KEY REFERENCES tables (table_id),
            owner      INTEGER NOT NULL,
            claimed_at INTEGER NOT NULL
        )
        """,
        """
        INSERT INTO table_claims (table_id, owner, claimed_at)
        SELECT table_id, 0, updated_at FROM tables WHERE status IN ('lobby', 'playing')
        """,
        # The owner id of the process that stored the action; NULL before this migration.
        "ALTER TABLE actions ADD COLUMN driver INTEGER",
    ),
    postgres=(
        """
        CREATE TABLE table_claims (
            table_id   BIGINT PRIMARY KEY REFERENCES tables (table_id),
            owner      BIGINT NOT NULL,
            claimed_at BIGINT NOT NULL
        )
        """,
        """
        INSERT INTO table_claims (table_id, owner, claimed_at)
        SELECT table_id, 0, updated_at FROM tables WHERE status IN ('lobby', 'playing')
        """,
        "ALTER TABLE actions ADD COLUMN driver BIGINT",
    ),
)

SEASON_SIZES = Migration(
    12,
    "each season's number of players, kept with its standings",
    (
        # A leaderboard page shows how many players the season has; counting them walks
        # a whole index (100,000 entries in a big season), so the count is kept here,
        # raised in the finishing transaction that adds a player's first season row.
        # A season without players has no row (its count is 0).
        """
        CREATE TABLE season_sizes (
            season_id INTEGER PRIMARY KEY REFERENCES seasons (season_id),
            players   INTEGER NOT NULL CHECK (players > 0)
        )
        """,
        """
        INSERT INTO season_sizes (season_id, players)
        SELECT season_id, count(*) FROM season_players GROUP BY season_id
        """,
    ),
    postgres=(
        """
        CREATE TABLE season_sizes (
            season_id BIGINT  PRIMARY KEY REFERENCES seasons (season_id),
            players   INTEGER NOT NULL CHECK (players > 0)
        )
        """,
        """
        INSERT INTO season_sizes (season_id, players)
        SELECT season_id, count(*) FROM season_players GROUP BY season_id
        """,
    ),
)

POSTED_ANY_STEP = Migration(
    13,
    "the channel's last line keeps whatever step the presenter numbers it with",
    # How many lines a deal posts, and in which order, is the presenter's business: the
    # store no longer caps a step at 14 (13 tricks and a score line). It still refuses a
    # negative deal or step, which is no line's place in any order. SQLite rebuilds the
    # table with the same columns; PostgreSQL replaces the constraint.
    (
        """
        CREATE TABLE channel_posted_rebuilt (
            table_id INTEGER PRIMARY KEY REFERENCES tables (table_id),
            deal     INTEGER NOT NULL CHECK (deal >= 0),
            step     INTEGER NOT NULL CHECK (step >= 0)
        )
        """,
        "INSERT INTO channel_posted_rebuilt SELECT table_id, deal, step FROM channel_posted",
        "DROP TABLE channel_posted",
        "ALTER TABLE channel_posted_rebuilt RENAME TO channel_posted",
    ),
    rebuilds=True,
    postgres=(
        "ALTER TABLE channel_posted DROP CONSTRAINT channel_posted_step_check, "
        "ADD CONSTRAINT channel_posted_step_check CHECK (step >= 0)",
    ),
)

REVIEW_CACHE = Migration(
    14,
    "each player's review of a finished match: its state, its deals as computed, the result",
    (
        # One row per (match, seat) asked for: queued, running or done. A restart finds
        # the queued and running ones here and carries on; ``guild_id`` is the server
        # that asked (its limit on reviews running at once), ``settings`` the review's
        # seed and work as JSON, ``review`` the finished review as JSON once done.
        """
        CREATE TABLE reviews (
            match_id     INTEGER NOT NULL REFERENCES matches (match_id),
            seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            guild_id     INTEGER NOT NULL,
            status       TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done')),
            settings     TEXT    NOT NULL,
            requested_at INTEGER NOT NULL,
            updated_at   INTEGER NOT NULL,
            review       TEXT,
            CHECK ((status = 'done') = (review IS NOT NULL)),
            PRIMARY KEY (match_id, seat)
        )
        """,
        "CREATE INDEX reviews_waiting ON reviews (status, requested_at)",
        # Each deal's review as it finishes, so a review cut short resumes after it.
        """
        CREATE TABLE review_deals (
            match_id   INTEGER NOT NULL,
            seat       INTEGER NOT NULL,
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 11),
            review     TEXT    NOT NULL,
            PRIMARY KEY (match_id, seat, deal_index),
            FOREIGN KEY (match_id, seat) REFERENCES reviews (match_id, seat)
        )
        """,
    ),
    postgres=(
        """
        CREATE TABLE reviews (
            match_id     BIGINT  NOT NULL REFERENCES matches (match_id),
            seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            guild_id     BIGINT  NOT NULL,
            status       TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done')),
            settings     TEXT    NOT NULL,
            requested_at BIGINT  NOT NULL,
            updated_at   BIGINT  NOT NULL,
            review       TEXT,
            CHECK ((status = 'done') = (review IS NOT NULL)),
            PRIMARY KEY (match_id, seat)
        )
        """,
        "CREATE INDEX reviews_waiting ON reviews (status, requested_at)",
        """
        CREATE TABLE review_deals (
            match_id   BIGINT  NOT NULL,
            seat       INTEGER NOT NULL,
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 11),
            review     TEXT    NOT NULL,
            PRIMARY KEY (match_id, seat, deal_index),
            FOREIGN KEY (match_id, seat) REFERENCES reviews (match_id, seat)
        )
        """,
    ),
)


DAILY = Migration(
    15,
    "the daily deals: each server's days, their deals, the attempts at them and their moves",
    (
        # How many deals a server's days have (no row: the default).
        """
        CREATE TABLE daily_settings (
            guild_id INTEGER PRIMARY KEY,
            deals    INTEGER NOT NULL CHECK (deals BETWEEN 1 AND 11)
        )
        """,
        # A day of a server, stored when its first attempt starts, with the rules it is
        # played by and its deals (dealt from the day's seed, kept so a later change of
        # the server's settings, or of the dealing code, never changes a day once begun).
        """
        CREATE TABLE daily_days (
            guild_id  INTEGER NOT NULL,
            day       TEXT    NOT NULL,
            rules     TEXT    NOT NULL,
            opened_at INTEGER NOT NULL,
            PRIMARY KEY (guild_id, day)
        )
        """,
        """
        CREATE TABLE daily_deals (
            guild_id   INTEGER NOT NULL,
            day        TEXT    NOT NULL,
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            dealer     INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
            contract   TEXT    NOT NULL,
            hands      TEXT    NOT NULL CHECK (length(hands) = 104),
            PRIMARY KEY (guild_id, day, deal_index),
            FOREIGN KEY (guild_id, day) REFERENCES daily_days (guild_id, day)
        )
        """,
        # One attempt per person per day; ``result`` is its percentage once the day's
        # results have closed (NULL before), counted in ``season_id``'s daily board.
        """
        CREATE TABLE daily_attempts (
            attempt_id  INTEGER PRIMARY KEY,
            guild_id    INTEGER NOT NULL,
            day         TEXT    NOT NULL,
            user_id     INTEGER NOT NULL,
            name        TEXT    NOT NULL,
            season_id   INTEGER NOT NULL REFERENCES seasons (season_id),
            started_at  INTEGER NOT NULL,
            finished_at INTEGER,
            result      REAL,
            UNIQUE (guild_id, day, user_id),
            FOREIGN KEY (guild_id, day) REFERENCES daily_days (guild_id, day)
        )
        """,
        "CREATE INDEX daily_attempts_in_season ON daily_attempts (season_id, user_id)",
        """
        CREATE INDEX daily_attempts_unsettled ON daily_attempts (guild_id, day)
        WHERE result IS NULL
        """,
        # Every move of an attempt, the computers' too, numbered over the attempt.
        """
        CREATE TABLE daily_moves (
            attempt_id INTEGER NOT NULL REFERENCES daily_attempts (attempt_id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            kind       TEXT    NOT NULL CHECK (kind IN ('double', 'play')),
            value      TEXT    NOT NULL,
            acted_at   INTEGER NOT NULL,
            PRIMARY KEY (attempt_id, seq)
        ) WITHOUT ROWID
        """,
        # The person's final score of each deal finished, stored with its last move.
        """
        CREATE TABLE daily_scores (
            attempt_id INTEGER NOT NULL REFERENCES daily_attempts (attempt_id),
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            score      INTEGER NOT NULL,
            PRIMARY KEY (attempt_id, deal_index)
        ) WITHOUT ROWID
        """,
    ),
    postgres=(
        """
        CREATE TABLE daily_settings (
            guild_id BIGINT  PRIMARY KEY,
            deals    INTEGER NOT NULL CHECK (deals BETWEEN 1 AND 11)
        )
        """,
        """
        CREATE TABLE daily_days (
            guild_id  BIGINT NOT NULL,
            day       TEXT   NOT NULL,
            rules     TEXT   NOT NULL,
            opened_at BIGINT NOT NULL,
            PRIMARY KEY (guild_id, day)
        )
        """,
        """
        CREATE TABLE daily_deals (
            guild_id   BIGINT  NOT NULL,
            day        TEXT    NOT NULL,
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            dealer     INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
            contract   TEXT    NOT NULL,
            hands      TEXT    NOT NULL CHECK (length(hands) = 104),
            PRIMARY KEY (guild_id, day, deal_index),
            FOREIGN KEY (guild_id, day) REFERENCES daily_days (guild_id, day)
        )
        """,
        """
        CREATE TABLE daily_attempts (
            attempt_id  BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            guild_id    BIGINT  NOT NULL,
            day         TEXT    NOT NULL,
            user_id     BIGINT  NOT NULL,
            name        TEXT    NOT NULL,
            season_id   BIGINT  NOT NULL REFERENCES seasons (season_id),
            started_at  BIGINT  NOT NULL,
            finished_at BIGINT,
            result      DOUBLE PRECISION,
            UNIQUE (guild_id, day, user_id),
            FOREIGN KEY (guild_id, day) REFERENCES daily_days (guild_id, day)
        )
        """,
        "CREATE INDEX daily_attempts_in_season ON daily_attempts (season_id, user_id)",
        """
        CREATE INDEX daily_attempts_unsettled ON daily_attempts (guild_id, day)
        WHERE result IS NULL
        """,
        """
        CREATE TABLE daily_moves (
            attempt_id BIGINT  NOT NULL REFERENCES daily_attempts (attempt_id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            kind       TEXT    NOT NULL CHECK (kind IN ('double', 'play')),
            value      TEXT    NOT NULL,
            acted_at   BIGINT  NOT NULL,
            PRIMARY KEY (attempt_id, seq)
        )
        """,
        """
        CREATE TABLE daily_scores (
            attempt_id BIGINT  NOT NULL REFERENCES daily_attempts (attempt_id),
            deal_index INTEGER NOT NULL CHECK (deal_index BETWEEN 0 AND 10),
            score      INTEGER NOT NULL,
            PRIMARY KEY (attempt_id, deal_index)
        )
        """,
    ),
)


def _tally_tables(ids: str) -> tuple[str, ...]:
    """The tables of a tally's seats, entries, messages and results; ``ids`` is the type of
    a Discord id and a time (SQLite's INTEGER, PostgreSQL's BIGINT)."""
    rowid = " WITHOUT ROWID" if ids == "INTEGER" else ""
    return (
        # A seat is a member (user_id) or a guest, known by the name written down only.
        f"""
        CREATE TABLE tally_seats (
            tally_id {ids} NOT NULL REFERENCES tallies (tally_id),
            seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            name     TEXT    NOT NULL,
            user_id  {ids},
            PRIMARY KEY (tally_id, seat)
        ){rowid}
        """,
        # The tally's record, as a match's actions are: appended in order while it is
        # open (the triggers), never changed; who made each entry, and when.
        f"""
        CREATE TABLE tally_entries (
            tally_id   {ids} NOT NULL REFERENCES tallies (tally_id),
            seq        INTEGER NOT NULL CHECK (seq >= 0),
            kind       TEXT    NOT NULL CHECK (kind IN ('contract', 'doubling', 'result',
                                                        'undo', 'correct', 'cancel')),
            value      TEXT    NOT NULL,
            user_id    {ids} NOT NULL,
            entered_at {ids} NOT NULL,
            PRIMARY KEY (tally_id, seq)
        ){rowid}
        """,
        f"""
        CREATE TABLE tally_messages (
            tally_id   {ids} NOT NULL REFERENCES tallies (tally_id),
            role       TEXT    NOT NULL,
            message_id {ids} NOT NULL,
            PRIMARY KEY (tally_id, role)
        ){rowid}
        """,
        f"""
        CREATE TABLE tally_results (
            tally_id    {ids} NOT NULL REFERENCES tallies (tally_id),
            seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
            points      INTEGER NOT NULL,
            rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 4),
            deal_points TEXT    NOT NULL,
            PRIMARY KEY (tally_id, seat),
            FOREIGN KEY (tally_id, seat) REFERENCES tally_seats (tally_id, seat)
        ){rowid}
        """,
        "CREATE INDEX tallies_in_season ON tallies (season_id) WHERE season_id IS NOT NULL",
        # A member sits once per tally, or the standings would count it twice.
        """
        CREATE UNIQUE INDEX tally_seats_one_per_user ON tally_seats (tally_id, user_id)
        WHERE user_id IS NOT NULL
        """,
        # A player's tallies, for their statistics.
        """
        CREATE INDEX tally_seats_by_user ON tally_seats (user_id, tally_id)
        WHERE user_id IS NOT NULL
        """,
        # How many of a player's season matches were tallies; and whether a server's
        # tallies count in its ratings (NULL, every server before this: they do).
        "ALTER TABLE season_players ADD COLUMN tallies INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE guild_settings ADD COLUMN rate_tallies INTEGER CHECK (rate_tallies IN (0, 1))",
    )


TALLIES = Migration(
    16,
    "tallies: matches played with real cards, kept by their entered scores",
    (
        """
        CREATE TABLE tallies (
            tally_id     INTEGER PRIMARY KEY,
            guild_id     INTEGER NOT NULL,
            channel_id   INTEGER NOT NULL,
            host_id      INTEGER NOT NULL,
            status       TEXT    NOT NULL DEFAULT 'open'
                         CHECK (status IN ('open', 'finished', 'cancelled')),
            first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
            rules        TEXT,
            language     TEXT,
            images       INTEGER NOT NULL CHECK (images IN (0, 1)),
            started_at   INTEGER NOT NULL,
            ended_at     INTEGER,
            season_id    INTEGER REFERENCES seasons (season_id)
        )
        """,
        *_tally_tables("INTEGER"),
        """
        CREATE TRIGGER tally_entries_append_in_order BEFORE INSERT ON tally_entries
        BEGIN
            SELECT RAISE(ABORT, 'the tally is not open')
            WHERE (SELECT status FROM tallies WHERE tally_id = NEW.tally_id) IS NOT 'open';
            SELECT RAISE(ABORT, 'entry out of order')
            WHERE NEW.seq > coalesce(
                (SELECT max(seq) FROM tally_entries WHERE tally_id = NEW.tally_id) + 1, 0);
        END
        """,
        """
        CREATE TRIGGER tally_entries_never_change BEFORE UPDATE ON tally_entries
        BEGIN SELECT RAISE(ABORT, 'tally entries are append-only'); END
        """,
        """
        CREATE TRIGGER tally_entries_never_go BEFORE DELETE ON tally_entries
        BEGIN SELECT RAISE(ABORT, 'tally entries are append-only'); END
        """,
    ),
    postgres=(
        """
        CREATE TABLE tallies (
            tally_id     BIGINT  GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            guild_id     BIGINT  NOT NULL,
            channel_id   BIGINT  NOT NULL,
            host_id      BIGINT  NOT NULL,
            status       TEXT    NOT NULL DEFAULT 'open'
                         CHECK (status IN ('open', 'finished', 'cancelled')),
            first_dealer INTEGER NOT NULL CHECK (first_dealer BETWEEN 0 AND 3),
            rules        TEXT,
            language     TEXT,
            images       INTEGER NOT NULL CHECK (images IN (0, 1)),
            started_at   BIGINT  NOT NULL,
            ended_at     BIGINT,
            season_id    BIGINT  REFERENCES seasons (season_id)
        )
        """,
        *_tally_tables("BIGINT"),
        f"""
        CREATE FUNCTION tally_entries_append_in_order() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            -- As a match's actions: the tally's row stays locked until the transaction
            -- ends, so appends to one tally run one after the other in any process.
            IF (SELECT status FROM tallies WHERE tally_id = NEW.tally_id FOR NO KEY UPDATE)
               IS DISTINCT FROM 'open' THEN
                RAISE EXCEPTION 'the tally is not open' {PG_REFUSE};
            END IF;
            IF NEW.seq > coalesce(
                (SELECT max(seq) FROM tally_entries WHERE tally_id = NEW.tally_id) + 1, 0) THEN
                RAISE EXCEPTION 'entry out of order' {PG_REFUSE};
            END IF;
            RETURN NEW;
        END $$
        """,
        f"""
        CREATE FUNCTION tally_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'tally entries are append-only' {PG_REFUSE}; END $$
        """,
        "CREATE TRIGGER tally_entries_append_in_order BEFORE INSERT ON tally_entries "
        "FOR EACH ROW EXECUTE FUNCTION tally_entries_append_in_order()",
        "CREATE TRIGGER tally_entries_never_change BEFORE UPDATE ON tally_entries "
        "FOR EACH ROW EXECUTE FUNCTION tally_entries_append_only()",
        "CREATE TRIGGER tally_entries_never_go BEFORE DELETE ON tally_entries "
        "FOR EACH ROW EXECUTE FUNCTION tally_entries_append_only()",
        "CREATE TRIGGER tally_entries_never_emptied BEFORE TRUNCATE ON tally_entries "
        "FOR EACH STATEMENT EXECUTE FUNCTION tally_entries_append_only()",
    ),
)

WEB = Migration(
    17,
    "web pages: who may open a server's pages, and each player's rating after each match",
    (
        "ALTER TABLE guild_settings ADD COLUMN web TEXT CHECK (web IN ('off', 'link', 'public'))",
        """
        CREATE TABLE rating_history (
            rating_id INTEGER PRIMARY KEY,
            season_id INTEGER NOT NULL REFERENCES seasons (season_id),
            user_id   INTEGER NOT NULL,
            rated_at  INTEGER NOT NULL,
            mu        REAL    NOT NULL,
            sigma     REAL    NOT NULL
        )
        """,
        "CREATE INDEX rating_history_by_player ON rating_history (season_id, user_id, rating_id)",
    ),
    postgres=(
        "ALTER TABLE guild_settings ADD COLUMN web TEXT CHECK (web IN ('off', 'link', 'public'))",
        """
        CREATE TABLE rating_history (
            rating_id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            season_id BIGINT NOT NULL REFERENCES seasons (season_id),
            user_id   BIGINT NOT NULL,
            rated_at  BIGINT NOT NULL,
            mu        DOUBLE PRECISION NOT NULL,
            sigma     DOUBLE PRECISION NOT NULL
        )
        """,
        "CREATE INDEX rating_history_by_player ON rating_history (season_id, user_id, rating_id)",
    ),
)

LIVE_SEATS = Migration(
    18,
    "which browser holds each person's seat at the live table, kept across a restart",
    (
        # The SHA-256 of the claim cookie the browser was given (the cookie itself opens
        # the seat, so it is not stored), per seated person of an open table.
        """
        CREATE TABLE live_seat_claims (
            table_id INTEGER NOT NULL REFERENCES tables (table_id),
            user_id  INTEGER NOT NULL,
            digest   TEXT    NOT NULL,
            PRIMARY KEY (table_id, user_id)
        ) WITHOUT ROWID
        """,
    ),
    postgres=(
        """
        CREATE TABLE live_seat_claims (
            table_id BIGINT NOT NULL REFERENCES tables (table_id),
            user_id  BIGINT NOT NULL,
            digest   TEXT   NOT NULL,
            PRIMARY KEY (table_id, user_id)
        )
        """,
    ),
)

MATCH_VIEWS = Migration(
    19,
    "what a finished match's pages show, made once from its replay and kept",
    (
        # A finished match never changes: its page's summary and each deal's points for
        # the deal viewer (JSON the store keeps as bytes and does not read) are made once
        # by the finished-match service and read back as one row, not replayed again.
        """
        CREATE TABLE match_views (
            match_id INTEGER NOT NULL REFERENCES matches (match_id),
            part     TEXT    NOT NULL,
            body     BLOB    NOT NULL,
            PRIMARY KEY (match_id, part)
        ) WITHOUT ROWID
        """,
    ),
    postgres=(
        """
        CREATE TABLE match_views (
            match_id BIGINT NOT NULL REFERENCES matches (match_id),
            part     TEXT   NOT NULL,
            body     BYTEA  NOT NULL,
            PRIMARY KEY (match_id, part)
        )
        """,
    ),
)

MIGRATIONS: tuple[Migration, ...] = (
    PLAY,
    STANDINGS,
    SEAT_NAMES,
    BOT_FACTS,
    DELIVERY,
    TABLE_PLACE,
    MATCH_RULES,
    HOUSE_RULES,
    PICTURES,
    LANGUAGES,
    TABLE_CLAIMS,
    SEASON_SIZES,
    POSTED_ANY_STEP,
    REVIEW_CACHE,
    DAILY,
    TALLIES,
    WEB,
    LIVE_SEATS,
    MATCH_VIEWS,
)
LATEST = MIGRATIONS[-1].version


def schema_version(conn: sqlite3.Connection) -> int:
    """The highest migration applied; 0 for a file with no schema yet."""
    if not has_table(conn, "schema_version"):
        return 0
    (version,) = conn.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return int(version)


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
    ).fetchone()
    return row is not None


def pending(applied: Collection[int], target: int = LATEST) -> list[Migration]:
    """The migrations up to ``target`` whose versions are not among ``applied``, in order."""
    return [m for m in MIGRATIONS if m.version <= target and m.version not in applied]


def applied_versions(conn: sqlite3.Connection) -> set[int]:
    """The versions recorded in the file's ``schema_version`` (none for a new file)."""
    if not has_table(conn, "schema_version"):
        return set()
    return {version for (version,) in conn.execute("SELECT version FROM schema_version")}


def migrate(conn: sqlite3.Connection, target: int = LATEST) -> list[int]:
    """Apply the pending migrations up to ``target`` (:func:`pending`); return their numbers.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so the explicit
    transactions here are the only ones.
    """
    applied = []
    for migration in pending(applied_versions(conn), target):
        (foreign_keys,) = conn.execute("PRAGMA foreign_keys").fetchone()
        if migration.rebuilds:
            conn.execute("PRAGMA foreign_keys=OFF")  # only outside a transaction
        try:
            _apply(conn, migration)
        finally:
            conn.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        applied.append(migration.version)
    return applied


def _apply(conn: sqlite3.Connection, migration: Migration) -> None:
    """One migration and the row that records it, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        for statement in migration.statements:
            conn.execute(statement)
        if migration.rebuilds and conn.execute("PRAGMA foreign_key_check").fetchone():
            raise sqlite3.IntegrityError(f"migration {migration.version} broke a reference")
        conn.execute(
            "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
            (migration.version, now_ms()),
        )
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
