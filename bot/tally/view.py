"""A tally as a front end shows it: the scoresheet, who entered what, and every change.

Built from the stored tally and its entries by replaying them through the engine
(:class:`~bot.engine.Tally`), remembering who made each entry, so a sheet drawn after a
restart says exactly what the one before it said.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from bot.engine import Choose, Rules, Tally
from bot.engine.tally import Correct, Doubles, Result, Step, TalliedDeal, Undo
from bot.store import TallyEntry, TallyInfo, TallySeat, TallyStatus


class Made(Enum):
    """The changes a sheet lists besides the deals' own entries."""

    UNDO = "undo"
    CORRECT = "correct"
    CANCEL = "cancel"


@dataclass(frozen=True)
class Change:
    """An undo, a correction or the cancelling: what, of which deal, by whom."""

    made: Made
    deal: int | None
    """The deal undone or corrected (1-based); None for the cancelling."""
    user_id: int
    at: datetime
    partial: bool = False
    """An undo of a deal whose result was not in yet."""


@dataclass(frozen=True)
class EnteredBy:
    """Who entered each step of a deal (a correction enters all three)."""

    contract: int
    doubling: int | None = None
    result: int | None = None


@dataclass(frozen=True)
class TallyView:
    """Everything a scoresheet shows of one tally."""

    tally_id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TallyStatus
    seats: tuple[TallySeat, ...]
    rules: Rules
    first_dealer: int
    language: str | None
    images: bool
    messages: dict[str, int]
    version: int
    """How many entries are stored: what a button of the current sheet carries."""
    deals: tuple[TalliedDeal, ...]
    """The complete deals, scored."""
    current: TalliedDeal | None
    """The deal being entered, once its contract is in."""
    step: Step
    number: int
    """The deal being entered (1-based)."""
    contracts: tuple[str, ...]
    """What the chooser of the deal being entered may choose (when its contract is asked)."""
    totals: tuple[int, ...]
    ranking: tuple[int, ...]
    entered_by: tuple[EnteredBy, ...]
    """Per deal entered (the one in progress included), who entered what."""
    changes: tuple[Change, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def is_open(self) -> bool:
        return self.status is TallyStatus.OPEN

    def dealer_of(self, number: int) -> int:
        return self.rules.dealer_of(self.first_dealer, number - 1)

    def chooser_of(self, number: int) -> int:
        return self.rules.chooser_of(self.first_dealer, number - 1)

    def at_the_tally(self, user_id: int) -> bool:
        """Seated, or who opened the tally (who may keep the score for a table of guests)."""
        return user_id == self.host_id or any(seat.user_id == user_id for seat in self.seats)

    def seat_of(self, user_id: int) -> int | None:
        return next((seat.seat for seat in self.seats if seat.user_id == user_id), None)


def replayed(info: TallyInfo) -> Tally:
    """The empty tally of ``info``'s players and rules."""
    names = [seat.name for seat in info.seats]
    return Tally(names, first_dealer=info.first_dealer, rules=info.rules)


def view_of(info: TallyInfo, entries: Sequence[TallyEntry]) -> tuple[TallyView, Tally]:
    """The view of a stored tally, and the engine's tally it replays to."""
    tally = replayed(info)
    entered_by: list[EnteredBy] = []
    changes: list[Change] = []
    for stored in entries:
        entry, user = stored.entry, stored.user_id
        if entry is None:
            changes.append(Change(Made.CANCEL, None, user, stored.entered_at))
            continue
        current, number = tally.current, tally.number
        tally.apply(entry)
        if isinstance(entry, Choose):
            entered_by.append(EnteredBy(user))
        elif isinstance(entry, Doubles):
            entered_by[-1] = EnteredBy(entered_by[-1].contract, user)
        elif isinstance(entry, Result):
            entered_by[-1] = EnteredBy(entered_by[-1].contract, entered_by[-1].doubling, user)
        elif isinstance(entry, Undo):
            entered_by.pop()
            undone = number if current is not None else number - 1
            changes.append(Change(Made.UNDO, undone, user, stored.entered_at, current is not None))
        elif isinstance(entry, Correct):
            entered_by[entry.number - 1] = EnteredBy(user, user, user)
            changes.append(Change(Made.CORRECT, entry.number, user, stored.entered_at))
    step = tally.step
    view = TallyView(
        tally_id=info.tally_id,
        guild_id=info.guild_id,
        channel_id=info.channel_id,
        host_id=info.host_id,
        status=info.status,
        seats=info.seats,
        rules=info.rules,
        first_dealer=info.first_dealer,
        language=info.language,
        images=info.images,
        messages=dict(info.messages),
        version=info.entries,
        deals=tuple(tally.deals),
        current=tally.current,
        step=step,
        number=tally.number,
        contracts=tuple(tally.contracts_for()) if step is Step.CONTRACT else (),
        totals=tuple(tally.totals()),
        ranking=tuple(tally.ranking()),
        entered_by=tuple(entered_by),
        changes=tuple(changes),
    )
    return view, tally
