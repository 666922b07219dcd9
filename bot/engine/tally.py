"""A match played with real cards at a real table, kept by its scores: a tally.

Nobody plays a card through the bot. Each deal is entered in three steps: the chooser's
contract, the doubling turns, and the result as the contract counts it (each seat's
tricks, hearts, kings and jacks or queens; or who took the one thing: the K♥, the last
trick, the 7th and the 13th trick, who was left holding cards in Domino). Every entry is
checked by the rules of a played match, asked of the same code: the chooser's quota and
the trump options (:meth:`Match.contract_refusal`), the doubling order and limits
(:class:`~bot.engine.doubling.Doubling`); and scored by the same function
(:func:`~bot.engine.scoring.seat_points`) and settlement (:func:`settle`).

What the engine cannot check is what nobody showed it: the cards. Counts must add up and
fit (13 tricks, 13 hearts, 4 kings, ...); under ``domino_doubling: ace_or_two`` a Domino
double is accepted only with the players' word that the doubler held an ace or a 2
(``Doubles.confirmed``).

Mistakes happen at a real table, so besides the three steps a tally takes an
:class:`Undo` (the last deal, or what has been entered of the deal in progress) and a
:class:`Correct` (any complete deal replaced). Every change is replayed from the first
deal, so whatever follows a correction is checked and scored again; a change that would
make any deal break a rule is refused, naming that deal, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from .actions import Choose, IllegalAction, Reason
from .contracts import Contract
from .deal import settle
from .doubling import SEATS, Doubling
from .house_rules import DominoDoubling
from .match import Match, added_up, places
from .rules import STANDARD, Rules
from .scoring import NOTHING, Taken, base_scores

TRICKS = "tricks"
"""The question key of the tricks each seat took."""
LAST = "last"
"""Domino's question key: who was left holding cards."""


def trick_key(number: int) -> str:
    """The question key of who took trick ``number`` (``"trick13"``)."""
    return f"trick{number}"


class Asked(Enum):
    """What a question of a deal's result asks."""

    TRICKS = "tricks"
    """How many tricks each seat took."""
    CARDS = "cards"
    """How many cards of a group (the hearts, the kings) each seat took."""
    CARD = "card"
    """Who took the one card of a group (the K♥)."""
    TRICK = "trick"
    """Who took a numbered trick (the 13th; the 7th)."""
    LAST = "last"
    """Domino: who was left holding cards."""


@dataclass(frozen=True)
class Question:
    """One thing a deal's result must say, as its contract scores it."""

    key: str
    asked: Asked
    total: int | None = None
    """A count's total over the four seats (13 tricks, 4 kings); None: a seat is named."""
    number: int | None = None
    """The trick a :attr:`Asked.TRICK` question is about."""

    @property
    def counts(self) -> bool:
        return self.total is not None

    def taken(self, answer: int) -> Taken:
        """What a seat took by this answer: ``answer`` of the count, or the one thing."""
        if self.asked is Asked.TRICKS:
            return Taken(tricks=answer)
        if self.asked is Asked.CARDS:
            return Taken.counting([(self.key, answer)])
        if self.asked is Asked.CARD:
            return Taken.counting([(self.key, 1)])
        if self.asked is Asked.TRICK:
            assert self.number is not None
            return Taken(numbered=frozenset((self.number,)))
        return Taken(last=True)


def questions(contract: Contract) -> tuple[Question, ...]:
    """What the result of a ``contract`` deal must say, read from what the contract scores:
    the tricks if each scores, each card group (counted, or who took a single card), each
    numbered trick it scores, and Domino's last holder."""
    asked: list[Question] = []
    if contract.per_trick:
        asked.append(Question(TRICKS, Asked.TRICKS, total=13))
    for group in contract.counted:
        if len(group.cards) > 1:
            asked.append(Question(group.key, Asked.CARDS, total=len(group.cards)))
        else:
            asked.append(Question(group.key, Asked.CARD))
    for number in sorted(contract.trick_points):
        asked.append(Question(trick_key(number), Asked.TRICK, number=number))
    if contract.domino:
        asked.append(Question(LAST, Asked.LAST))
    return tuple(asked)


Answer = tuple[int, ...] | int
"""Four counts (seat 0 first), or the seat that took the one thing."""


@dataclass(frozen=True)
class Result:
    """A deal's result as entered: an answer per question key (see :func:`questions`)."""

    answers: tuple[tuple[str, Answer], ...]

    @classmethod
    def of(cls, answers: Mapping[str, Sequence[int] | int]) -> Result:
        return cls(
            tuple(
                sorted(
                    (key, value if isinstance(value, int) else tuple(value))
                    for key, value in answers.items()
                )
            )
        )

    def as_dict(self) -> dict[str, Answer]:
        return dict(self.answers)


@dataclass(frozen=True)
class Doubles:
    """A deal's doubling as entered: the seats each turn named, in doubling order.

    ``confirmed``: the players said that every seat that named anyone in a Domino deal
    held an ace or a 2 (house rule ``domino_doubling: ace_or_two``; nobody can check)."""

    turns: tuple[frozenset[int], ...]
    confirmed: bool = False

    @classmethod
    def named(
        cls, order: Sequence[int], pairs: Iterable[tuple[int, int]], *, confirmed: bool = False
    ) -> Doubles:
        """The turns in which each ``(namer, named)`` pair was named, for ``order``."""
        pairs = list(pairs)
        turns = tuple(frozenset(b for a, b in pairs if a == seat) for seat in order)
        return cls(turns, confirmed)

    @property
    def anyone_named(self) -> bool:
        return any(self.turns)


PASSED = Doubles((frozenset(),) * 4)
"""Nobody doubled."""


@dataclass(frozen=True)
class DealEntry:
    """What has been entered of one deal: its contract, then its doubling, then its result."""

    contract: str
    doubles: Doubles | None = None
    result: Result | None = None

    @property
    def is_complete(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class Undo:
    """Take back the last deal, or what has been entered of the deal in progress."""


@dataclass(frozen=True)
class Correct:
    """Replace complete deal ``number`` (1-based) with ``deal``; what follows is checked
    and scored again."""

    number: int
    deal: DealEntry


Entry = Choose | Doubles | Result | Undo | Correct
"""One change to a tally, as the players make it (and the store keeps it)."""


class Step(Enum):
    """What the tally asks next."""

    CONTRACT = "contract"
    DOUBLING = "doubling"
    RESULT = "result"
    OVER = "over"
    """Every deal is in."""


class TallyError(IllegalAction):
    """An entry the rules refuse; the message is for the players, ``reason`` for a program,
    and the fields say what it is about, for a front end's own words: ``deal`` (1-based),
    ``seat`` (the chooser of a refused contract, the player of a refused doubling turn),
    the ``contract`` refused, the result's ``question`` key, the ``value`` given (for a
    chooser's refused redouble: the seat he named) and the one ``expected``."""

    def __init__(
        self,
        message: str,
        reason: Reason,
        *,
        deal: int | None = None,
        seat: int | None = None,
        contract: str | None = None,
        question: str | None = None,
        value: int | None = None,
        expected: int | None = None,
    ) -> None:
        super().__init__(message, reason)
        self.deal = deal
        self.seat = seat
        self.contract = contract
        self.question = question
        self.value = value
        self.expected = expected


@dataclass(frozen=True)
class TalliedDeal:
    """One deal of a tally, checked and (once its result is in) scored."""

    number: int
    """1-based."""
    dealer: int
    chooser: int
    doubling_order: tuple[int, int, int, int]
    contract: Contract
    entry: DealEntry
    doubling: tuple[frozenset[int], ...] = ()
    """Each doubling turn's seats named, in doubling order (empty until entered)."""
    multipliers: tuple[tuple[int, ...], ...] = ((0,) * 4,) * 4
    taken: tuple[Taken, ...] = (NOTHING,) * 4
    base: tuple[int, ...] = (0, 0, 0, 0)
    final: tuple[int, ...] = (0, 0, 0, 0)

    @property
    def is_complete(self) -> bool:
        return self.entry.is_complete

    def final_scores(self) -> list[int]:
        """The deal's scores after doubling (as :meth:`Deal.final_scores` says them)."""
        return list(self.final)


class Tally:
    """A real table's match, entered deal by deal; change it only through :meth:`apply`."""

    def __init__(
        self,
        players: Sequence[str] = ("North", "East", "South", "West"),
        *,
        first_dealer: int = 0,
        rules: Rules = STANDARD,
    ) -> None:
        # Refuses what a match refuses: not four players, a first dealer that is no seat.
        self.players = Match(players, first_dealer=first_dealer, rules=rules).players
        self.first_dealer = first_dealer
        self.rules = rules
        self.entered: tuple[DealEntry, ...] = ()
        self.deals: list[TalliedDeal] = []
        """The complete deals, in order."""
        self.current: TalliedDeal | None = None
        """The deal being entered, once its contract is in."""

    # -- where the tally stands ---------------------------------------------------------

    @property
    def step(self) -> Step:
        if len(self.deals) == self.rules.deals:
            return Step.OVER
        if self.current is None:
            return Step.CONTRACT
        return Step.DOUBLING if self.current.entry.doubles is None else Step.RESULT

    @property
    def is_over(self) -> bool:
        return self.step is Step.OVER

    @property
    def number(self) -> int:
        """The deal being entered (1-based); past the last deal once the tally is over."""
        return len(self.deals) + 1

    def dealer_of(self, number: int) -> int:
        return self.rules.dealer_of(self.first_dealer, number - 1)

    def chooser_of(self, number: int) -> int:
        return self.rules.chooser_of(self.first_dealer, number - 1)

    def contracts_for(self, number: int | None = None) -> list[str]:
        """The contracts the chooser of deal ``number`` (the one being entered when None)
        may choose, with every other deal's contract as entered, in table order."""
        number = self.number if number is None else number
        choosing = self._choosing(
            entry for index, entry in enumerate(self.entered, start=1) if index != number
        )
        return choosing.legal_contracts(self.chooser_of(number))

    # -- changing it --------------------------------------------------------------------

    def check(self, entry: Entry) -> None:
        """Raise :class:`TallyError` unless ``entry`` fits now; never changes the tally."""
        self._replay(self._entered_after(entry))

    def apply(self, entry: Entry) -> None:
        """Make the change, or raise :class:`TallyError` and change nothing."""
        entered = self._entered_after(entry)
        self.deals, self.current = self._replay(entered)
        self.entered = entered

    def _entered_after(self, entry: Entry) -> tuple[DealEntry, ...]:
        """What will have been entered after ``entry`` (not yet checked by the rules)."""
        entered, step, number = self.entered, self.step, self.number
        if isinstance(entry, Undo):
            if not entered:
                raise TallyError("nothing has been entered yet", Reason.NOTHING_TO_UNDO)
            return entered[:-1]
        if isinstance(entry, Correct):
            return self._corrected(entry)
        if step is Step.OVER:
            raise TallyError(f"all {self.rules.deals} deals are in", Reason.MATCH_OVER)
        if isinstance(entry, Choose):
            if step is not Step.CONTRACT:
                raise self._not_now("the contract", number)
            return (*entered, DealEntry(entry.contract))
        if isinstance(entry, Doubles):
            if step is not Step.DOUBLING:
                raise self._not_now("the doubling", number)
            return (*entered[:-1], replace(entered[-1], doubles=entry))
        if step is not Step.RESULT:
            raise self._not_now("the result", number)
        return (*entered[:-1], replace(entered[-1], result=entry))

    def _not_now(self, what: str, number: int) -> TallyError:
        asked = {Step.CONTRACT: "its contract", Step.DOUBLING: "its doubling"}
        return TallyError(
            f"{what} of deal {number} cannot be entered now: first "
            + asked.get(self.step, "its result"),
            Reason.WRONG_PHASE,
            deal=number,
        )

    def _corrected(self, correction: Correct) -> tuple[DealEntry, ...]:
        number, deal = correction.number, correction.deal
        if number not in range(1, len(self.deals) + 1):
            raise TallyError(f"deal {number} is not complete", Reason.NO_SUCH_DEAL, deal=number)
        if deal.doubles is None:
            raise TallyError("a corrected deal needs its doubling", Reason.DOUBLING_INCOMPLETE)
        if deal.result is None:
            raise TallyError("a corrected deal needs its result", Reason.RESULT_INCOMPLETE)
        entered = list(self.entered)
        entered[number - 1] = deal
        return tuple(entered)

    # -- checking and scoring -----------------------------------------------------------

    def _choosing(self, entered: Iterable[DealEntry]) -> Match:
        """A match that knows who chose what (the quota is the match's to apply)."""
        choosing = Match(self.players, first_dealer=self.first_dealer, rules=self.rules)
        for number, entry in enumerate(entered, start=1):
            choosing.chosen_by[entry.contract] = self.chooser_of(number)
        return choosing

    def _replay(self, entered: Sequence[DealEntry]) -> tuple[list[TalliedDeal], TalliedDeal | None]:
        """Every entered deal checked and scored from the first: the complete deals and the
        one in progress; :class:`TallyError` names the first deal that breaks a rule."""
        if len(entered) > self.rules.deals:
            raise TallyError(f"a match has only {self.rules.deals} deals", Reason.MATCH_OVER)
        choosing = self._choosing(())
        deals: list[TalliedDeal] = []
        for number, entry in enumerate(entered, start=1):
            deal = self._deal(choosing, number, entry)
            if deal.is_complete:
                deals.append(deal)
            elif number != len(entered):
                raise TallyError("is not complete but another deal follows it", Reason.NO_DEAL)
            else:
                return deals, deal
        return deals, None

    def _deal(self, choosing: Match, number: int, entry: DealEntry) -> TalliedDeal:
        dealer, chooser = self.dealer_of(number), self.chooser_of(number)
        refusal = choosing.contract_refusal(chooser, entry.contract)
        if refusal is not None:
            reason, message = refusal
            raise TallyError(message, reason, deal=number, seat=chooser, contract=entry.contract)
        choosing.chosen_by[entry.contract] = chooser
        contract = self.rules.by_id[entry.contract]
        order = self.rules.doubling_order(dealer)
        deal = TalliedDeal(number, dealer, chooser, order, contract, entry)
        if entry.doubles is None:
            if entry.result is not None:
                raise TallyError("has a result but no doubling", Reason.DOUBLING_INCOMPLETE)
            return deal
        doubling = self._doubling(number, order, chooser, contract, entry.doubles)
        multipliers = tuple(tuple(row) for row in doubling.multipliers)
        deal = replace(deal, doubling=tuple(doubling.turns), multipliers=multipliers)
        if entry.result is None:
            return deal
        taken = self._taken(number, contract, entry.result)
        base = base_scores(contract, taken)
        final = settle(base, doubling.multipliers)
        return replace(deal, taken=tuple(taken), base=tuple(base), final=tuple(final))

    def _doubling(
        self,
        number: int,
        order: tuple[int, int, int, int],
        chooser: int,
        contract: Contract,
        doubles: Doubles,
    ) -> Doubling:
        """The deal's doubling, each turn checked by the doubling rules in their order."""
        if len(doubles.turns) != 4:
            raise TallyError(
                "the doubling has one turn per player, four in all",
                Reason.DOUBLING_INCOMPLETE,
                deal=number,
            )
        doubling = Doubling(order, chooser)
        for seat, targets in zip(order, doubles.turns, strict=True):
            try:
                doubling.check(targets)
            except IllegalAction as error:
                named = sorted(t for t in targets if t in SEATS and t != seat)
                raise TallyError(
                    f"{self.players[seat]}: {error}",
                    error.reason,
                    deal=number,
                    seat=seat,
                    value=_first_not_doubling(doubling, seat, named),
                ) from None
            doubling.apply(targets)
        needs_word = self.rules.domino_doubling is DominoDoubling.ACE_OR_TWO and contract.domino
        if needs_word and doubles.anyone_named and not doubles.confirmed:
            raise TallyError(
                "in Domino only a player holding an ace or a 2 may double: confirm that "
                "everyone who doubled held one",
                Reason.DOUBLES_UNCONFIRMED,
                deal=number,
            )
        return doubling

    def _taken(self, number: int, contract: Contract, result: Result) -> list[Taken]:
        """What each seat took by ``result``, which must answer exactly the contract's
        questions, each as :meth:`check_answer` says."""
        asked = questions(contract)
        answers = result.as_dict()
        if sorted(answers) != sorted(question.key for question in asked):
            wanted = ", ".join(question.key for question in asked)
            raise TallyError(
                f"the result of {contract.name} says {wanted}",
                Reason.RESULT_INCOMPLETE,
                deal=number,
            )
        taken = [NOTHING] * 4
        for question in asked:
            answer = answers[question.key]
            self.check_answer(question, answer, number)
            if isinstance(answer, int):
                taken[answer] += question.taken(1)
            else:
                for seat, count in enumerate(answer):
                    taken[seat] += question.taken(count)
        return taken

    def check_answer(self, question: Question, answer: Answer, number: int | None = None) -> None:
        """Raise :class:`TallyError` unless ``answer`` fits ``question``: a seat, or four
        counts, each from 0 to what there is, that add up to it. (A front end may ask one
        question at a time; the whole result is checked again when it is entered.)"""
        number = self.number if number is None else number
        if question.total is None:
            if type(answer) is not int or answer not in SEATS:
                raise TallyError(
                    f"{question.key}: there is no seat {answer!r}",
                    Reason.NO_SUCH_SEAT,
                    deal=number,
                    question=question.key,
                )
            return
        total = question.total
        if (
            not isinstance(answer, tuple)
            or len(answer) != 4
            or not all(type(count) is int for count in answer)
        ):
            raise TallyError(
                f"{question.key}: four counts, one per player",
                Reason.RESULT_INCOMPLETE,
                deal=number,
                question=question.key,
            )
        for seat, count in enumerate(answer):
            if not 0 <= count <= total:
                raise TallyError(
                    f"{self.players[seat]}'s {question.key}: {count} is not a count from 0 "
                    f"to {total}",
                    Reason.COUNT_OUT_OF_RANGE,
                    deal=number,
                    seat=seat,
                    question=question.key,
                    value=count,
                    expected=total,
                )
        if sum(answer) != total:
            raise TallyError(
                f"the {question.key} add up to {sum(answer)}, not {total}",
                Reason.COUNTS_DO_NOT_ADD_UP,
                deal=number,
                question=question.key,
                value=sum(answer),
                expected=total,
            )

    # -- scores -------------------------------------------------------------------------

    def totals(self) -> list[int]:
        """Each seat's total over the complete deals (after doubling)."""
        return added_up(deal.final for deal in self.deals)

    def ranking(self) -> list[int]:
        """Each seat's place (1 = best); equal totals share a place."""
        return places(self.totals())

    def winners(self) -> list[int]:
        ranks = self.ranking()
        return [seat for seat in SEATS if ranks[seat] == 1]


def _first_not_doubling(doubling: Doubling, seat: int, named: Sequence[int]) -> int | None:
    """The first seat a chooser named who had not doubled him (for the refusal's words)."""
    if seat != doubling.chooser:
        return None
    return next((t for t in named if doubling.multipliers[t][seat] != 1), None)
