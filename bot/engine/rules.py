"""The rules a match is played by, as one frozen value.

Everything a house rule or a variant may change lives here as data: how many deals a
match has, the contracts and what they score, where the chooser, the doubling order and
the first lead sit relative to the dealer, the chooser's quota, when a heart may be led
and who may double in Domino. A :class:`~bot.engine.match.Match` is given a
:class:`Rules` and every deal carries it, so the engine, the fast playouts, the players,
the renderer and the record all read the same numbers. ``rules_for(variant,
house_rules)`` builds it from the record's header (``docs/rules.md``, "House rules"); the
house rules themselves are declared in :mod:`.house_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .contracts import STANDARD_POINTS, Contract, Points, contract_table
from .house_rules import HOUSE_RULES, DominoAces, DominoDoubling, FirstLead, HeartLead, MustTrump


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
    domino_doubling: DominoDoubling = DominoDoubling.ANY
    house_rules: tuple[tuple[str, str], ...] = ()
    """The house rules that differ from their default, ``(name, value)`` pairs sorted by
    name, as a record writes them."""
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
        # Rules built by rules_for cross a process pool (in every SeatView) as their header
        # and unpickle to the shared instance; other rules pickle field by field.
        if self.variant in VARIANTS and _build(self.variant, self.house_rules) is self:
            return (rules_for, (self.variant, dict(self.house_rules)))
        return object.__reduce_ex__(self, protocol)

    @classmethod
    def standard(cls) -> Rules:
        """The seed text's game: 11 deals, the twelve contracts of :data:`CONTRACTS`."""
        return STANDARD

    def changed(self, variant: str | None = None, **house_rules: str | None) -> Rules:
        """These rules with another variant and/or some house rules set (None keeps this
        one's); :class:`RulesError` for an unknown name or value, as :func:`rules_for`."""
        chosen = dict(self.house_rules)
        chosen.update({name: value for name, value in house_rules.items() if value is not None})
        return rules_for(variant or self.variant, chosen)

    def house_rule(self, name: str) -> str:
        """The value of house rule ``name`` in these rules (its default if not set)."""
        return dict(self.house_rules).get(name, HOUSE_RULES[name].default)

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


@dataclass(frozen=True)
class Variant:
    """What a variant fixes before any house rule: its deals, points and seat roles."""

    deals: int
    points: Points
    chooser_offset: int
    doubling_offsets: tuple[int, int, int, int]
    first_lead_offset: int


VARIANTS: dict[str, Variant] = {
    "standard": Variant(
        deals=11,
        points=STANDARD_POINTS,
        chooser_offset=2,
        doubling_offsets=(3, 0, 1, 2),
        first_lead_offset=1,
    ),
    "twelve": Variant(
        deals=12,
        points=Points(
            per_trick=-10,
            heart=-10,
            king=-25,
            jack=-25,
            queen=-45,
            king_of_hearts=-100,
            last_trick=-100,
            domino=-100,
            trump_trick=20,
            seventh_and_thirteenth=-50,
        ),
        chooser_offset=1,
        doubling_offsets=(2, 3, 0, 1),
        first_lead_offset=0,
    ),
}
"""The variants this engine plays, by the record's ``"variant"`` name (``docs/rules.md``)."""

_FIRST_LEAD_OFFSETS = {FirstLead.LEFT: 1, FirstLead.DEALER: 0}


def rules_for(variant: str = "standard", house_rules: Mapping[str, str] | None = None) -> Rules:
    """The rules of ``variant`` with ``house_rules`` applied; :class:`RulesError` otherwise.

    A house rule left out has its default, so ``{"heart_lead": "never"}`` is the same
    rules (the same instance) as ``{}``. Names and values are exact and lower case.
    """
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RulesError(f"unknown variant {_short(variant)}; known: {_known(VARIANTS)}")
    if house_rules is None:
        house_rules = {}
    if not isinstance(house_rules, Mapping):
        raise RulesError(f"house_rules must be an object, not {_short(house_rules)}")
    chosen: list[tuple[str, str]] = []
    for name, value in house_rules.items():
        if not isinstance(name, str) or name not in HOUSE_RULES:
            raise RulesError(f"unknown house rule {_short(name)}; known: {_known(HOUSE_RULES)}")
        values = HOUSE_RULES[name].value_names
        if not isinstance(value, str) or value not in values:
            raise RulesError(
                f"unknown value {_short(value)} for house rule {name}; known: {', '.join(values)}"
            )
        if value != values[0]:
            chosen.append((name, value))
    return _build(variant, tuple(sorted(chosen)))


@cache
def _build(variant: str, house_rules: tuple[tuple[str, str], ...]) -> Rules:
    """One shared :class:`Rules` per variant and set of house rules (checked by the caller)."""
    base = VARIANTS[variant]
    chosen = dict(house_rules)
    value = {name: chosen.get(name, rule.default) for name, rule in HOUSE_RULES.items()}
    first_lead = FirstLead(value["first_lead"])
    return Rules(
        variant=variant,
        deals=base.deals,
        contracts=contract_table(
            base.points,
            HeartLead(value["heart_lead"]),
            DominoAces(value["domino_aces"]),
            MustTrump(value["must_trump"]),
        ),
        chooser_offset=base.chooser_offset,
        doubling_offsets=base.doubling_offsets,
        first_lead_offset=_FIRST_LEAD_OFFSETS.get(first_lead, base.first_lead_offset),
        domino_doubling=DominoDoubling(value["domino_doubling"]),
        house_rules=house_rules,
    )


STANDARD = rules_for("standard")
"""The seed text's game: every rule of ``docs/rules.md`` before its "House rules" section."""
TWELVE = rules_for("twelve")


@cache
def any_contract(contract_id: str) -> Contract | None:
    """The contract with this id in whichever variant has it, for what is the same in
    every variant (its name, kind, trump, whether it is Domino), where only the id is
    kept (stored results, a picture's scene); None for an unknown id."""
    for variant in VARIANTS:
        contract = rules_for(variant).contract(contract_id)
        if contract is not None:
            return contract
    return None


def _known(names: Iterable[str]) -> str:
    return ", ".join(sorted(names))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
