"""What a table picture shows, taken from the table's public view: a small frozen value.

A :class:`TableScene` holds only what the picture draws (names, roles, cards on the
table, scores), so two views that would look the same give equal scenes, and the
renderers cache their PNG by the scene: an edit that changes only the text (a countdown)
does not draw the table again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot import i18n
from bot.engine import Card, any_contract
from bot.tables import TableView

from .text import compass, player_name

Plays = tuple[tuple[int, Card], ...]
"""(seat, card) pairs in the order played."""


@dataclass(frozen=True, slots=True)
class SeatScene:
    name: str
    tricks: int = 0
    score: int = 0
    """The deal's score so far (before doubling)."""
    total: int = 0
    cards_left: int = 0


@dataclass(frozen=True, slots=True)
class TableScene:
    seats: tuple[SeatScene, ...]
    deal_number: int
    deals: int
    """Deals in the match (the rules'; a variant may have more than 11)."""
    contract: str | None = None
    dealer: int | None = None
    chooser: int | None = None
    to_act: int | None = None
    trick: Plays = ()
    last_trick: tuple[int, Plays] | None = None
    """(who took it, its plays)."""
    doubled: tuple[tuple[int, int, int], ...] = ()
    domino_rows: tuple[tuple[int, int, int], ...] = ()
    domino_out: tuple[int, ...] = ()
    over: bool = False
    """The deal is over (its message is closed): nobody is on turn."""
    language: str = i18n.DEFAULT
    """The language of the picture's words: the table's posts'."""

    @property
    def domino(self) -> bool:
        contract = None if self.contract is None else any_contract(self.contract)
        return contract is not None and contract.domino


@lru_cache(maxsize=4096)
def seat_name(name: str | None, seat: int, language: str) -> str:
    """A seat's name as the picture shows it: a computer's in the picture's language
    ("Zuid-bot"), anyone else's as written, an unnamed seat by its compass name. Kept
    by its arguments (the catalogues never change while the bot runs): every daily
    click's picture names its seats."""
    with i18n.using(language):
        return player_name(name) if name else compass(seat)


def scene_of(view: TableView, *, over: bool = False) -> TableScene:
    """The picture's part of ``view``: public information only, as the view is."""
    language = i18n.language_of(view.settings.language)
    seats = tuple(
        SeatScene(
            name=seat_name(seat.name, index, language),
            tricks=view.tricks_taken[index],
            score=view.base[index],
            total=view.totals[index],
            cards_left=view.cards_left[index],
        )
        for index, seat in enumerate(view.seats)
    )
    last = view.last_trick
    return TableScene(
        seats=seats,
        deal_number=view.deal_number,
        deals=view.rules.deals,
        contract=view.contract,
        dealer=view.dealer,
        chooser=view.chooser,
        to_act=None if over else view.to_act,
        trick=view.trick,
        last_trick=None if last is None else (last.winner, tuple(last.played())),
        doubled=view.doubled,
        domino_rows=view.domino_rows,
        domino_out=view.domino_out,
        language=language,
        over=over,
    )
