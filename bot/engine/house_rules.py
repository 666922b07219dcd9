"""Every house rule, declared once: its name, its values (the default first) and its words.

Bonken has no single rule book, so a table picks house rules when it is opened (see
``docs/rules.md``, "House rules"). A rule is declared here and nowhere else by name:

- the record's ``"house_rules"`` are checked against these names and values
  (:func:`~bot.engine.rules.rules_for`), and a value reaches the engine through
  :class:`~bot.engine.rules.Rules` and the contracts it builds (``rules._build``): what
  a value *does* is the engine's (the deal's card and doubling rules, the fast kernel);
- the front end derives the rest from the declarations: the options of ``/bonken new``
  and ``/bonken-admin settings`` (``bot/ui/rules_options.py``), ``/bonken rules`` and
  the one line a table's messages say its rules in (``bot/render/rules.py``), and the
  words of the refusals a rule adds (``bot/render/reasons.py``);
- the words are plain English, as the engine's contract names are: the front end
  translates them, and ``bot/i18n/extract.py`` puts every one in the catalogue.

Adding a house rule is therefore: its declaration here, its engine rule (and the fast
kernel's), its tests and the two catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .actions import Reason

if TYPE_CHECKING:
    from .contracts import Contract


class HeartLead(Enum):
    """When a heart may be led in a contract that restricts it (house rule ``heart_lead``).

    Either way a leader who holds only hearts may lead one."""

    NEVER = "never"
    BROKEN = "broken"
    """Also once a heart has been played (followed or discarded) to an earlier trick."""


class FirstLead(Enum):
    """Who leads the first trick and plays first in Domino (house rule ``first_lead``)."""

    VARIANT = "variant"
    LEFT = "left"
    DEALER = "dealer"


class DominoDoubling(Enum):
    """Who may double in a Domino deal (house rule ``domino_doubling``)."""

    ANY = "any"
    ACE_OR_TWO = "ace_or_two"
    """Only a player holding an ace or a 2 may name anyone; the others can only pass."""


class DominoAces(Enum):
    """Where an ace connects in Domino (house rule ``domino_aces``)."""

    HIGH = "high"
    """Only to the king of its suit."""
    EITHER = "either"
    """To the king or to the 2 of its suit until the first ace is played, which fixes the
    way for every ace of the deal; an ace that could go either way goes high."""


class MustTrump(Enum):
    """Whether a player who cannot follow suit must trump, in the four suit trump contracts
    (house rule ``must_trump``)."""

    NO = "no"
    YES = "yes"
    """A player who cannot follow suit and holds a trump must play a trump."""
    OVERTRUMP = "overtrump"
    """As ``YES``, and a trump played to a trick that holds one (following a trump lead,
    or trumping in) must beat the highest trump in it when the player holds one that does."""


@dataclass(frozen=True)
class Value:
    """One value of a house rule and how it reads."""

    member: Enum
    """The engine's value (its ``.value`` is what a record writes)."""
    label: str
    """How the value reads in the option's list of choices."""
    sentence: str = ""
    """What a table playing this value does, in one sentence of ``/bonken rules``: said
    under "House rules" when the value is not the default, and after the text of every
    contract the rule shapes. Empty where the rules text already says it."""
    short: str = ""
    """The value in a few words for the line a table's messages say its rules in; empty
    for the default (the line names only what differs from the standard game)."""

    @property
    def name(self) -> str:
        return str(self.member.value)


@dataclass(frozen=True)
class HouseRule:
    """One house rule: its record name, its values (the default first) and its words."""

    name: str
    title: str
    """The rule named inside a sentence ("Changed: heart lead")."""
    option: str
    """The description of its option in the slash commands (at most 100 characters)."""
    values: tuple[Value, ...]
    shapes: Callable[[Contract], bool] | None = None
    """The contracts whose ``/bonken rules <contract>`` text gains the value's sentence;
    None for a rule of the whole game (the overview says it)."""
    refusals: tuple[tuple[Reason, str], ...] = ()
    """The refusals this rule adds, each with its sentence: the engine refuses with it,
    the front end translates it."""

    @property
    def default(self) -> str:
        return self.values[0].name

    @property
    def value_names(self) -> tuple[str, ...]:
        return tuple(value.name for value in self.values)

    def value(self, name: str) -> Value:
        """The declared value called ``name`` (``KeyError`` for another)."""
        for value in self.values:
            if value.name == name:
                return value
        raise KeyError(name)


def _heart_contract(contract: Contract) -> bool:
    return contract.heart_lead is not None


def _domino(contract: Contract) -> bool:
    return contract.domino


def _suit_trumps(contract: Contract) -> bool:
    return contract.trump is not None


DECLARATIONS: tuple[HouseRule, ...] = (
    HouseRule(
        name="heart_lead",
        title="heart lead",
        option="Hearts and King of Hearts: when a heart may be led",
        values=(
            Value(
                HeartLead.NEVER,
                "Never (unless only hearts)",
                "A heart may not be led unless the leader holds only hearts.",
            ),
            Value(
                HeartLead.BROKEN,
                "Once a heart was played",
                "A heart may not be led until a heart has been played to an earlier trick, "
                "unless the leader holds only hearts.",
                "hearts may be led once broken",
            ),
        ),
        shapes=_heart_contract,
    ),
    HouseRule(
        name="first_lead",
        title="first lead",
        option="Who leads the first trick (and plays first in Domino)",
        values=(
            Value(FirstLead.VARIANT, "The variant's seat"),
            Value(
                FirstLead.LEFT,
                "Left of the dealer",
                "The player left of the dealer leads the first trick (and plays first in Domino).",
                "left of the dealer leads",
            ),
            Value(
                FirstLead.DEALER,
                "The dealer",
                "The dealer leads the first trick (and plays first in Domino).",
                "the dealer leads",
            ),
        ),
    ),
    HouseRule(
        name="domino_doubling",
        title="Domino doubling",
        option="Domino: who may double",
        values=(
            Value(DominoDoubling.ANY, "Anyone"),
            Value(
                DominoDoubling.ACE_OR_TWO,
                "Only with an ace or a 2",
                "In Domino only a player holding an ace or a 2 may double or redouble; the "
                "others can only pass.",
                "Domino: double only with an ace or a 2",
            ),
        ),
        shapes=_domino,
        refusals=(
            (
                Reason.DOMINO_NO_ACE_OR_TWO,
                "in Domino only a player holding an ace or a 2 may double; you can only pass",
            ),
        ),
    ),
    HouseRule(
        name="domino_aces",
        title="Domino aces",
        option="Domino: whether an ace may also go low, next to its 2",
        values=(
            Value(
                DominoAces.HIGH,
                "High only: next to the king",
                "In Domino an ace goes only next to its king, a 2 only next to its 3.",
            ),
            Value(
                DominoAces.EITHER,
                "High or low: the first ace decides",
                "In Domino the first ace played may go next to its king or next to its 2, and "
                "every other ace of the deal must then go the same way (after a low ace a king "
                "goes only next to its queen); an ace that could go either way goes high.",
                "Domino: aces high or low",
            ),
        ),
        shapes=_domino,
    ),
    HouseRule(
        name="must_trump",
        title="must trump",
        option="Suit trumps: whether a player who cannot follow suit must trump (and overtrump)",
        values=(
            Value(
                MustTrump.NO,
                "No: trumping is never required",
                "A player who cannot follow suit may trump, but never has to.",
            ),
            Value(
                MustTrump.YES,
                "Yes: trump when you cannot follow suit",
                "In clubs, diamonds, hearts and spades trumps (not in No Trump) a player who "
                "cannot follow suit must play a trump if he holds one.",
                "must trump",
            ),
            Value(
                MustTrump.OVERTRUMP,
                "Overtrump: also beat a trump in the trick",
                "In clubs, diamonds, hearts and spades trumps (not in No Trump) a player who "
                "cannot follow suit must play a trump if he holds one, and whoever plays a "
                "trump to a trick that already holds one (following a trump lead too) must "
                "play a higher trump if he holds one.",
                "must trump and overtrump",
            ),
        ),
        shapes=_suit_trumps,
        refusals=(
            (Reason.MUST_TRUMP, "you cannot follow suit, so you must play a trump: you hold one"),
            (
                Reason.MUST_OVERTRUMP,
                "you must play a trump higher than the highest one in the trick: you hold one",
            ),
        ),
    ),
)
"""Every house rule, in the order the commands offer them."""

HOUSE_RULES: Mapping[str, HouseRule] = {rule.name: rule for rule in DECLARATIONS}
"""The house rules by their record name."""

REFUSALS: Mapping[Reason, str] = {
    reason: sentence for rule in DECLARATIONS for reason, sentence in rule.refusals
}
"""The sentence of every refusal a house rule adds, by its reason."""
