"""What a read returns, and how a model is built from it: columns by name, fields by keyword.

A row is read by the name its query gives each column, never by position, so a query can
gain a column anywhere without shifting what another line reads. Both backends' rows
(``sqlite3.Row``, ``asyncpg.Record``) are read this way.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Model = TypeVar("Model", bound="DataclassInstance")


class Row(Protocol):
    """One row of a result: ``row["table_id"]`` is its ``table_id`` column."""

    def __getitem__(self, column: str, /) -> Any: ...


def from_row(model: type[Model], row: Row, **decoded: Any) -> Model:
    """A ``model`` built by keyword: each field given in ``decoded`` (a value the column
    does not hold as is: a time, an enum, a nested model) from there, every other field
    from the row's column of the same name.

    So a field whose column holds its value as is needs no line here: it needs its
    column in the query. A field the query lacks fails at once (a missing column).
    """
    taken = {name: row[name] for name in _field_names(model) if name not in decoded}
    return model(**taken, **decoded)


@cache
def _field_names(model: type[DataclassInstance]) -> tuple[str, ...]:
    return tuple(field.name for field in fields(model) if field.init)
