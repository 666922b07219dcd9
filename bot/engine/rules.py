"""The rules a match is played by, as one frozen value.

Everything a house rule or a variant may change lives here as data: how many deals a
match has, the contracts and what they score, where the chooser, the doubling order and
the first lead sit relative to the dealer, the chooser's quota and the heart-lead rule.
A :class:`~bot.engine.match.Match` is given a :class:`Rules` and every deal carries it,
so the engine, the fast playouts, the players, the renderer and the record all read the
same numbers. ``rules_for(variant, house_rules)`` builds it from the record's header.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .contracts import CONTRACTS, Contract


class HeartLead(Enum):
    """When a contract with ``no_heart_lead`` lets a heart be led (house rule
    ``heart_lead``; only ``never`` is played so far)."""

    NEVER = "never"


class RulesError(ValueError):
    """A variant or house rule this engine does not know; the message says which."""


@dataclass(frozen=True)
class Rules:
    """One set of rules. Seats are offsets from the dealer (``(dealer + offset) % 4``)."""

    variant: str
    deals: int
    contracts: tuple[Contract, ...]
    chooser_offset: int
    doubling_offsets: tuple[int, int, int, int]
    first_lead_offset: int
    trumps_per_seat: int = 1
    """The quota: each seat picks exactly this many trump options over the match."""
    heart_lead: HeartLead = HeartLead.NEVER
    house_rules: tuple[tuple[str, str], ...] = ()
    """The house rules as written in a record, ``(name, value)`` pairs, sorted by name."""
    by_id: Mapping[str, Contract] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id = {contract.id: contract for contract in self.contracts}
        if len(by_id) != len(self.contracts):
            raise RulesError("two contracts share an id")
        if sorted(self.doubling_offsets) != [0, 1, 2, 3]:
            raise RulesError("the doubling order must name each seat once")
        if self.doubling_offsets[-1] != self.chooser_offset:
            raise RulesError("the chooser doubles last")
        if self.deals < 1:
            raise RulesError("a match has at least one deal")
        object.__setattr__(self, "by_id", by_id)

    def __reduce_ex__(self, protocol: Any) -> Any:
        # A known variant crosses a process pool (in every SeatView) as its name and
        # unpickles to the shared instance; other rules pickle field by field.
        if VARIANTS.get(self.variant) is self:
            return (rules_for, (self.variant,))
        return object.__reduce_ex__(self, protocol)

    @classmethod
    def standard(cls) -> Rules:
        """The seed text's game: 11 deals, the twelve contracts of :data:`CONTRACTS`."""
        return STANDARD

    # -- contracts ----------------------------------------------------------------------

    def contract(self, contract_id: str) -> Contract | None:
        """The contract with this id in these rules, or None."""
        return self.by_id.get(contract_id)

    @property
    def contract_ids(self) -> tuple[str, ...]:
        return tuple(contract.id for contract in self.contracts)

    @property
    def negative_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.contracts if not c.is_trump_option)

    @property
    def trump_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.contracts if c.is_trump_option)

    # -- seats --------------------------------------------------------------------------

    def dealer_of(self, first_dealer: int, deal_index: int) -> int:
        """The dealer of deal ``deal_index`` (0-based): the deal passes to the left."""
        return (first_dealer + deal_index) % 4

    def chooser(self, dealer: int) -> int:
        return (dealer + self.chooser_offset) % 4

    def first_leader(self, dealer: int) -> int:
        return (dealer + self.first_lead_offset) % 4

    def doubling_order(self, dealer: int) -> tuple[int, int, int, int]:
        a, b, c, d = ((dealer + offset) % 4 for offset in self.doubling_offsets)
        return (a, b, c, d)

    def chooser_of(self, first_dealer: int, deal_index: int) -> int:
        return self.chooser(self.dealer_of(first_dealer, deal_index))

    def choices_per_seat(self, first_dealer: int) -> tuple[int, int, int, int]:
        """How many contracts each seat chooses over the match (3, 3, 3 and 2 in standard)."""
        counts = [0, 0, 0, 0]
        for k in range(self.deals):
            counts[self.chooser_of(first_dealer, k)] += 1
        return (counts[0], counts[1], counts[2], counts[3])

    # -- the record's header ------------------------------------------------------------

    def header(self) -> dict[str, Any]:
        """What a record writes so a reader rebuilds these rules with :func:`rules_for`."""
        header: dict[str, Any] = {"variant": self.variant}
        if self.house_rules:
            header["house_rules"] = dict(self.house_rules)
        return header


STANDARD = Rules(
    variant="standard",
    deals=11,
    contracts=tuple(CONTRACTS.values()),
    chooser_offset=2,
    doubling_offsets=(3, 0, 1, 2),
    first_lead_offset=1,
)

VARIANTS: dict[str, Rules] = {STANDARD.variant: STANDARD}
"""The variants this engine plays, by the record's ``"variant"`` name."""


def rules_for(variant: str = "standard", house_rules: Mapping[str, str] | None = None) -> Rules:
    """The rules of ``variant`` with ``house_rules`` applied; :class:`RulesError` otherwise.

    No house rule is played yet, so any name is unknown; an empty mapping is the variant.
    """
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RulesError(f"unknown variant {_short(variant)}; known: {_known(VARIANTS)}")
    if house_rules is None:
        house_rules = {}
    if not isinstance(house_rules, Mapping):
        raise RulesError(f"house_rules must be an object, not {_short(house_rules)}")
    if house_rules:
        raise RulesError(f"unknown house rule {_short(next(iter(house_rules)))}")
    return VARIANTS[variant]


def _known(names: Iterable[str]) -> str:
    return ", ".join(sorted(names))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
