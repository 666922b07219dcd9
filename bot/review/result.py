"""What a review finds, as plain frozen values that round-trip through JSON.

A :class:`PlayerReview` is one seat's review of a whole match; it is assembled from one
:class:`DealReview` per deal, each computed on its own (in a worker process, cached by
the store as it finishes, so a restart resumes after the last deal done). Actions are
the engine's action codes (``P:KS``, ``C:queens``, ``D:13``; :func:`~bot.engine.
actions.parse_action` reads them back); points are rounded to hundredths, so a value
read back from JSON is the value computed.

The fair line (:attr:`DecisionReview.loss`, its grade, the points lost) comes from the
player's own information at the time; the hindsight line (:class:`Hindsight`, "with all
cards known") is kept apart and never added to it; luck (:attr:`DealReview.luck`) is
neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.actions import Choose, Double, Play, parse_action

from .grades import Grade
from .replay import Address

KINDS = ("choose", "double", "play")
"""A decision's kind, as the record lists it: the contract, a doubling turn, a card."""

COSTLIEST = 3
"""How many of a player's costliest decisions a review's summary shows."""


def points(value: float) -> float:
    """A value in points as a review keeps it: to the hundredth."""
    return round(value, 2) + 0.0  # + 0.0: no negative zero


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action of a decision (its code) and its value in points."""

    action: str
    value: float


@dataclass(frozen=True, slots=True)
class Explanation:
    """A one-line reason for a loss, ready for the catalogue: ``message`` is English
    with ``{placeholders}``, ``values`` fills them with card codes (``"KS"``), suit
    letters (``"S"``) or numbers, for the front end to write in the reader's words.
    ``key`` names the pattern (:mod:`.reasons`)."""

    key: str
    message: str
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Hindsight:
    """A card valued with all four hands known (the real deal), apart from the fair
    review: each legal card's final score with every seat playing its best for itself
    on open cards, the best of them, and what the card played lost against it."""

    options: tuple[Option, ...]
    best: str
    loss: float


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision of the reviewed seat that had more than one legal option.

    ``address`` is the replay point where the decision was to be made (before it), so
    the position can be drawn (that point's ``view.trick`` is the trick the card goes
    to; its ``trick`` may still show the trick just completed). ``index`` is the
    action's 0-based position in the record's list of its kind in that deal (its plays,
    its doubling turns; 0 for the contract). ``options`` are the fair values (expected
    final score for the seat, from its own information, the mean over the batches of
    search: :class:`~bot.players.hard.Evaluation`), ``loss`` is the best value minus
    the chosen one, ``grade`` None under the inaccuracy line unless the loss is
    ``certain`` (the better card won by at least a unit of the contract in every guessed
    deal: :mod:`.grades`). ``guesses`` is how many guessed deals the values are means over.
    """

    deal: int
    kind: str
    index: int
    address: Address
    options: tuple[Option, ...]
    chosen: str
    best: str
    loss: float
    stake: int
    certain: bool
    grade: Grade | None
    reason: Explanation | None
    hindsight: Hindsight | None
    guesses: int

    @property
    def flagged(self) -> bool:
        return self.grade is not None

    def to_json(self) -> dict[str, Any]:
        """A JSON object; ``chosen`` and ``best`` in the record's notation (a card code,
        a contract id, a list of seats), the codes in ``options``."""
        return {
            "deal": self.deal,
            "kind": self.kind,
            "index": self.index,
            "step": self.address.step,
            "chosen": record_notation(self.chosen),
            "best": record_notation(self.best),
            "loss": self.loss,
            "class": None if self.grade is None else self.grade.value,
            "certain": self.certain,
            "stake": self.stake,
            "options": [[option.action, option.value] for option in self.options],
            "reason": None if self.reason is None else _explanation_json(self.reason),
            "hindsight": None if self.hindsight is None else _hindsight_json(self.hindsight),
            "guesses": self.guesses,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DecisionReview:
        kind = data["kind"]
        reason, hindsight = data["reason"], data["hindsight"]
        return cls(
            deal=data["deal"],
            kind=kind,
            index=data["index"],
            address=Address(data["deal"], data["step"]),
            options=tuple(Option(action, value) for action, value in data["options"]),
            chosen=action_code(kind, data["chosen"]),
            best=action_code(kind, data["best"]),
            loss=data["loss"],
            stake=data["stake"],
            certain=data.get("certain", False),  # reviews stored before it was kept
            grade=None if data["class"] is None else Grade(data["class"]),
            reason=None if reason is None else _explanation(reason),
            hindsight=None if hindsight is None else _hindsight(hindsight),
            guesses=data["guesses"],
        )


@dataclass(frozen=True, slots=True)
class DealReview:
    """One deal of the reviewed seat: its decisions (the deal menu's list) and its
    luck, the expected base score of the hand dealt in the contract played minus the
    contract's average per seat (:mod:`.luck`)."""

    deal: int
    seat: int
    contract: str
    luck: float
    decisions: tuple[DecisionReview, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "seat": self.seat,
            "contract": self.contract,
            "luck": self.luck,
            "decisions": [decision.to_json() for decision in self.decisions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DealReview:
        return cls(
            deal=data["deal"],
            seat=data["seat"],
            contract=data["contract"],
            luck=data["luck"],
            decisions=tuple(DecisionReview.from_json(d) for d in data["decisions"]),
        )


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How a review is computed: ``seed`` for its guesses, ``work`` the simulated cards
    of one batch of search (the hard player's fixed work, never the clock), ``batches``
    the most batches a decision whose grade is in doubt gets (:mod:`.analysis`: 96
    rather than 64 since its later batches must clear a line by 2.5 errors, not 2). The
    same record, seat and settings give the same review, on any machine."""

    seed: int = 0
    work: int = 100_000
    batches: int = 96

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "work": self.work, "batches": self.batches}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewSettings:
        return cls(seed=data["seed"], work=data["work"], batches=data["batches"])


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One seat's review of a whole match, deal by deal, and its summary."""

    seat: int
    name: str
    settings: ReviewSettings
    deals: tuple[DealReview, ...]

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        return tuple(decision for deal in self.deals for decision in deal.decisions)

    @property
    def flagged(self) -> tuple[DecisionReview, ...]:
        return tuple(decision for decision in self.decisions if decision.flagged)

    @property
    def lost(self) -> float:
        """Points lost to flagged decisions (losses under the inaccuracy line are the
        review's own noise and are not counted)."""
        return points(sum(decision.loss for decision in self.flagged))

    def count(self, grade: Grade) -> int:
        return sum(1 for decision in self.decisions if decision.grade is grade)

    @property
    def costliest(self) -> tuple[DecisionReview, ...]:
        """The :data:`COSTLIEST` flagged decisions that lost most, costliest first (the
        earlier decision first on a tie)."""
        ranked = sorted(self.flagged, key=lambda d: (-d.loss, d.address))
        return tuple(ranked[:COSTLIEST])

    @property
    def luck(self) -> float:
        """The hands' luck summed over the match (:attr:`DealReview.luck`)."""
        return points(sum(deal.luck for deal in self.deals))

    @property
    def hindsight_lost(self) -> float:
        """What the cards of the last tricks lost against the best with all cards known:
        the hindsight line, never part of :attr:`lost`."""
        return points(sum(d.hindsight.loss for d in self.decisions if d.hindsight is not None))

    def to_json(self) -> dict[str, Any]:
        """One object: the summary figures, every decision in the record's notation
        (``decisions``, flat, in match order) and the deals for a cache."""
        return {
            "seat": self.seat,
            "name": self.name,
            "settings": self.settings.to_json(),
            "lost": self.lost,
            "counts": {grade.value: self.count(grade) for grade in Grade},
            "luck": self.luck,
            "hindsight_lost": self.hindsight_lost,
            "costliest": [[d.deal, d.address.step] for d in self.costliest],
            "decisions": [decision.to_json() for decision in self.decisions],
            "deals": [
                {"deal": deal.deal, "contract": deal.contract, "luck": deal.luck}
                for deal in self.deals
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerReview:
        decisions = [DecisionReview.from_json(d) for d in data["decisions"]]
        deals = tuple(
            DealReview(
                deal=entry["deal"],
                seat=data["seat"],
                contract=entry["contract"],
                luck=entry["luck"],
                decisions=tuple(d for d in decisions if d.deal == entry["deal"]),
            )
            for entry in data["deals"]
        )
        settings = ReviewSettings.from_json(data["settings"])
        return cls(seat=data["seat"], name=data["name"], settings=settings, deals=deals)


def record_notation(code: str) -> str | list[int]:
    """An action code in the record's notation: ``"KS"``, ``"queens"``, ``[1, 3]``."""
    action = parse_action(code)
    if isinstance(action, Play):
        return action.card.code
    if isinstance(action, Choose):
        return action.contract
    return sorted(action.targets)


def action_code(kind: str, notation: str | list[int]) -> str:
    """The action code of a decision of ``kind`` written in the record's notation."""
    if kind == "play" and isinstance(notation, str):
        return f"P:{notation}"
    if kind == "choose" and isinstance(notation, str):
        return f"C:{notation}"
    if kind == "double" and isinstance(notation, list):
        return Double(frozenset(notation)).code
    raise ValueError(f"not a {kind} in the record's notation: {notation!r}")


def _explanation_json(reason: Explanation) -> dict[str, Any]:
    return {"key": reason.key, "message": reason.message, "values": dict(reason.values)}


def _explanation(data: dict[str, Any]) -> Explanation:
    return Explanation(data["key"], data["message"], tuple(data["values"].items()))


def _hindsight_json(hindsight: Hindsight) -> dict[str, Any]:
    return {
        "options": [[option.action, option.value] for option in hindsight.options],
        "best": hindsight.best,
        "loss": hindsight.loss,
    }


def _hindsight(data: dict[str, Any]) -> Hindsight:
    options = tuple(Option(action, value) for action, value in data["options"])
    return Hindsight(options, data["best"], data["loss"])
