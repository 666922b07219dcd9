"""Where the store's SQL differs between SQLite and PostgreSQL, stated once per difference.

The store's modules write one statement for both databases (``?`` placeholders, standard
SQL); the few expressions the two spell differently come from the session's dialect, so
no module asks which database it is talking to.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Dialect:
    name: str
    """``sqlite`` or ``postgres``: for messages and test ids, never for branching."""
    real: str
    """The 8-byte floating-point type (SQLite's REAL; PostgreSQL's REAL has 4 bytes)."""
    descending: str
    """Highest first with NULLs last, as the leaderboard indexes are built."""
    ascending: str
    """The exact reverse of ``descending`` (NULLs first), to walk an index backwards."""
    json_text_template: str
    index_hint_template: str
    walk_indexes: str
    """A statement that makes the rest of a read walk an index in its order rather than
    read the table and sort it (empty: where the planner needs no telling)."""

    def index_hint(self, index: str) -> str:
        """What follows a table's name to make a query use ``index`` (where it must be said)."""
        return self.index_hint_template.format(index=index)

    def json_text(self, column: str, key: str) -> str:
        """The text at ``key`` of the JSON object in ``column`` (NULL when absent)."""
        return self.json_text_template.format(column=column, key=key)


SQLITE = Dialect(
    name="sqlite",
    real="REAL",
    # SQLite already sorts NULLs last in descending order; the indexes of migration 2 say
    # only DESC, and a query must name its index's order exactly to walk it.
    descending="DESC",
    ascending="ASC",
    json_text_template="json_extract({column}, '$.{key}')",
    index_hint_template="INDEXED BY {index}",
    walk_indexes="",
)
POSTGRES = Dialect(
    name="postgres",
    real="DOUBLE PRECISION",
    descending="DESC NULLS LAST",
    ascending="ASC NULLS FIRST",
    json_text_template="(({column})::json ->> '{key}')",
    index_hint_template="",  # its planner weighs the indexes by their statistics
    # Weighing them, it sorts the whole season rather than walk an index that updates have
    # left with sparse pages (a deep page by wins: 100 ms sorting on disk against 10 ms
    # walking); a sort stays possible where nothing else would do.
    walk_indexes="SET LOCAL enable_sort = off",
)
