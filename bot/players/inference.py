"""How likely a guessed deal makes what the other seats did: the hard player's inference.

The sampler (:mod:`.sampling`) guesses hidden hands uniformly among those the rules
allow. But the others' actions say more: a seat that chose Hearts rarely holds the
high hearts, a seat that doubled thinks its hand beats ours, a seat that ducked under a
queen probably had nothing lower. This module weighs a guess by the likelihood of the
others' observed actions if each of them played the normal player's rules (the model
of a club player the search already uses for its playouts), softened so that a human
who deviates only lowers a guess's weight instead of ruling it out:

- the contract choice: a softmax over the contracts the chooser could pick then, of the
  value the normal player's estimates give each in the guessed hand (temperature
  :attr:`Model.choice_temperature`, in points);
- each doubling turn: for each seat it could name, a logistic of how far the guessed
  hand's expected edge over that seat clears the normal player's margin (doubled or
  not, temperature :attr:`Model.double_temperature`);
- each card a seat chose among several: weight 1 if it is the normal player's card in
  the guessed position, :attr:`Model.card_slip` if not. Each card is judged from what
  its seat knew then: the public cards before it and its own guessed hand, less what it
  had played (:func:`_moments`).

Likelihoods only ever multiply a guess's weight by at most 1, so the weight of a guess
is a probability of acceptance (rejection sampling) as well as an importance weight.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.contracts import Contract
from bot.engine.fast import (
    FULL,
    FastPosition,
    dealt_position,
    domino_connect,
    heart_lead_barred,
    lay_on_table,
    legal_masks,
    play_card,
)
from bot.engine.house_rules import DominoDoubling, MustTrump
from bot.engine.match import Match
from bot.engine.view import SeatView

from .bidding import choice_costs, choice_value, edge_claimed, margin
from .hand import expected_bases_of_masks
from .policy import normal_card

if TYPE_CHECKING:
    from ._policy import CardJudge
    from ._weighing import Weigher

#: The work of estimating one contract for one guessed hand, in simulated playout cards.
ESTIMATE_WORK = 8

#: The least weight of a guess, so that weighted means stay defined when every guess
#: contradicts someone's actions (a player far from the model).
FLOOR = 1e-200


@dataclass(frozen=True)
class Model:
    """How closely the others are assumed to follow the normal player's rules."""

    choice_temperature: float = 8.0
    double_temperature: float = 6.0
    card_slip: float = 0.1


MODEL = Model()


@dataclass(frozen=True)
class _Turn:
    """One seat's doubling turn: whom it could name, whom it named, who had doubled it."""

    seat: int
    targets: tuple[int, ...]
    named: frozenset[int]
    doubled_by: frozenset[int]

    def claimed(self, target: int, chooser: int | None, need: float) -> float:
        """The edge ``target`` was assumed to hold at this turn (:func:`~.bidding.
        edge_claimed`), ``need`` the contract's margin."""
        return edge_claimed(target == chooser, target in self.doubled_by, need)


@dataclass(frozen=True)
class _Moment:
    """One card another seat chose, for weighing it in any guessed hand of that seat:
    the position just before it with everything public as it was (``pos``, whose hands
    are filled in per guess), the card, the seat's cards played before it (rank masks
    per suit: taken from its guessed hand as dealt, they leave its hand then) and the
    cards no one had played before it."""

    pos: FastPosition
    card: int
    earlier: tuple[int, ...]
    unplayed: tuple[int, ...]


@dataclass(slots=True)
class _Judged:
    """One of the others' cards as :meth:`Inference._cards` judges them: its seat, its
    bit among that seat's moments (in the deal's order) and how many guesses it slipped
    in so far."""

    seat: int
    bit: int
    moment: _Moment
    slips: int = 0


class Inference:
    """The likelihood of the others' actions in ``view``, for guessed hands.

    With ``memo`` (from :class:`Likelihoods`), a guess already weighed for the same
    decision is not weighed again: a decision late in a deal has few hidden cards, so
    its searches draw the same guesses over and over, and replaying the deal for each is
    most of their time. The weight and its charged work are the same either way."""

    def __init__(
        self, view: SeatView, model: Model = MODEL, memo: Likelihoods | None = None
    ) -> None:
        assert view.contract is not None and view.first_leader is not None
        self.view = view
        self.memo = memo.of(view) if memo is not None else None
        self.bounds = memo.bounds if memo is not None else {}
        self.model = model
        self.contract: Contract = view.contract
        self.seat = view.seat
        chooser = view.chooser
        self.choices: list[Contract] = []
        if chooser is not None and chooser != view.seat:
            self.choices = [view.rules.by_id[cid] for cid in _choices_then(view)]
        self.turns = _doubling_turns(view)
        self.played = [0] * 16  # what each seat has played, as hand masks
        for seat, card in view.plays:
            self.played[seat * 4 + card.suit] |= 1 << (card.rank - 2)
        self.replay = any(seat != view.seat for seat, _ in view.plays)
        #: The others' cards by seat (:func:`_moments`): a seat's card depends on its
        #: own hand and what was public only, so each seat's slips are counted once per
        #: guessed hand of it (``slips``) however the others vary.
        self.moments = _moments(view)
        #: Which of a seat's moments were judged for a guessed hand of it, and which of
        #: them slipped (bit ``k``: its ``k``-th moment), by the seat and its hand.
        self.slips: dict[tuple[int, ...], tuple[int, int]] = memo.slips if memo is not None else {}
        #: Every moment, the likeliest to slip first (:meth:`_cards`).
        self.order = [
            _Judged(seat, 1 << k, moment)
            for seat, moments in self.moments.items()
            for k, moment in enumerate(moments)
        ]
        self.all_judged = [(1 << len(self.moments.get(seat, ()))) - 1 for seat in range(4)]
        #: The same judging in C where it was built (:data:`COMPILED`), else None.
        self.judge = _card_judge(self.contract, self.order, model, self.slips)
        #: The choice's and the doubling turns' weighing in C, where it was built.
        self.weigher = _weigher(self)
        self.weighed = 0  # the guesses whose cards were weighed, for when to sort again
        self.powers = [1.0]  # the slip factor multiplied in 0, 1, 2... times
        #: The work of weighing one guess, in simulated playout cards: the same for
        #: every guess of the decision, however far its weighing goes.
        self.work = 0.0
        if len(self.choices) > 1:
            self.work += ESTIMATE_WORK * len(self.choices)
        if self.turns:
            self.work += ESTIMATE_WORK * len(self.turns)
        if self.replay:
            self.work += len(view.plays)

    @property
    def informative(self) -> bool:
        """Whether anything the others did is weighed at all."""
        return bool(len(self.choices) > 1 or self.turns or self.replay)

    def weight(self, hands: list[int]) -> tuple[float, float]:
        """The likelihood (at most 1) of the others' actions given the guessed current
        ``hands`` (sixteen masks), and its cost in simulated playout cards."""
        found = self.likely(hands, 0.0)
        assert found is not None
        return found, self.work

    def likely(self, hands: list[int], below: float) -> float | None:
        """The likelihood of :meth:`weight`, or None when it is certainly less than
        ``below``: rejection sampling needs no more, and a guess's weighing stops at the
        first of the others' actions that makes it unlikely enough (every factor is at
        most 1, so the product so far bounds the rest from above). Either way the work
        charged is :attr:`work`, so the search is the same as when every guess is
        weighed whole."""
        if self.memo is None:
            weight, whole = self._weigh(hands, below)
            return weight if whole else None
        key = tuple(hands)
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        bound = self.bounds.get(key)
        if bound is not None and bound < below:
            return None
        weight, whole = self._weigh(hands, below)
        if whole:
            self.memo[key] = (weight, self.work)
            return weight
        self.bounds[key] = weight
        return None

    def _weigh(self, hands: list[int], below: float) -> tuple[float, bool]:
        """The likelihood and True, or an upper bound under ``below`` and False. The
        cards are weighed first, one at a time (each slip a factor of the model's
        ``card_slip``), then the doubles, then the choice, but multiplied in one fixed
        order (choice, doubles, cards), so the likelihood is the same to the last bit
        whatever was weighed first: with every factor at most 1, counting those not
        weighed yet as 1 never gives less than the whole product."""
        dealt = [h | p for h, p in zip(hands, self.played, strict=True)]
        choice = doubles = cards = 1.0
        if self.replay:
            cards, whole = self._cards(dealt, below)
            if not whole:
                return max(cards, FLOOR), False
        if self.turns:
            doubles = self._doubles(dealt, cards, below)
            if max(choice * doubles * cards, FLOOR) < below:
                return max(choice * doubles * cards, FLOOR), False
        if len(self.choices) > 1:
            choice = self._choice(dealt)
        return max(choice * doubles * cards, FLOOR), True

    def _choice(self, dealt: list[int]) -> float:
        """:meth:`python_choice`, by the compiled weigher where it was built."""
        if self.weigher is not None:
            return self.weigher.choice(dealt)
        return self.python_choice(dealt)

    def python_choice(self, dealt: list[int]) -> float:
        """The chooser's choice's factor: the softmax of :class:`Model`."""
        chooser = self.view.chooser
        assert chooser is not None
        t = self.model.choice_temperature
        estimates = expected_bases_of_masks(dealt[chooser * 4 : chooser * 4 + 4], self.choices)
        values = [choice_value(c, e) for c, e in zip(self.choices, estimates, strict=True)]
        top = max(values)
        chosen = values[self.choices.index(self.contract)]
        total = sum(math.exp((v - top) / t) for v in values)
        return math.exp((chosen - top) / t) / total

    def _doubles(self, dealt: list[int], cards: float = 1.0, below: float = 0.0) -> float:
        """:meth:`python_doubles`, by the compiled weigher where it was built."""
        if self.weigher is not None:
            return self.weigher.doubles(dealt, cards, below)
        return self.python_doubles(dealt, cards, below)

    def python_doubles(self, dealt: list[int], cards: float = 1.0, below: float = 0.0) -> float:
        """The doubling turns' factor; or, once it times the ``cards`` factor is under
        ``below``, the factor so far (every factor at most 1: an upper bound, the later
        turns not weighed, as :meth:`_weigh` then needs no more)."""
        contract = self.contract
        need = margin(contract)
        weight = 1.0
        for turn in self.turns:
            if max(weight * cards, FLOOR) < below:
                break
            hand = dealt[turn.seat * 4 : turn.seat * 4 + 4]
            lead = _lead(expected_bases_of_masks(hand, [contract])[0], contract)
            for target in turn.targets:
                claimed = turn.claimed(target, self.view.chooser, need)
                p = _chance(lead - claimed - need, self.model)  # naming_chance, its parts once
                weight *= p if target in turn.named else 1 - p
        return weight

    def _cards(self, dealt: list[int], below: float) -> tuple[float, bool]:
        """:meth:`python_cards`, by the compiled judge where it was built."""
        if self.judge is not None:
            return self.judge.cards(dealt, below)
        return self.python_cards(dealt, below)

    def python_cards(self, dealt: list[int], below: float) -> tuple[float, bool]:
        """The cards' factor and True, or the factor so far and False once it is under
        ``below`` (the later cards are not weighed). Every slip is the same factor, so
        the factor is :attr:`Model.card_slip` multiplied in once per slip, in whatever
        order the slips are found; so the moments are judged in the order of how often
        they slipped in this decision's guesses so far. A rejected guess's weighing
        stops at its first slip or so, found in that order after 1.9 of the normal
        player's cards instead of 5.6 in the deal's (40 positions, offline); a kept
        guess is judged whole either way, so in play the cards judged a guess fell from
        5.9 to 4.3. Each moment is judged at most once per guessed hand of its seat
        (:attr:`slips`)."""
        hands: dict[int, list[int]] = {}
        judged = [0, 0, 0, 0]
        slipped = [0, 0, 0, 0]
        slips = 0
        for seat in self.moments:
            hand = hands[seat] = dealt[seat * 4 : seat * 4 + 4]
            judged[seat], slipped[seat] = self.slips.get((seat, *hand), (0, 0))
            slips += slipped[seat].bit_count()
        whole = max(self._slip_factor(slips), FLOOR) >= below
        if whole and judged != self.all_judged:
            for judging in self.order:
                seat, bit = judging.seat, judging.bit
                if judged[seat] & bit:
                    continue
                judged[seat] |= bit
                if _slipped(seat, hands[seat], judging.moment):
                    slipped[seat] |= bit
                    judging.slips += 1
                    slips += 1
                    if max(self._slip_factor(slips), FLOOR) < below:
                        whole = False
                        break
        for seat, hand in hands.items():
            self.slips[(seat, *hand)] = (judged[seat], slipped[seat])
        self.weighed += 1
        if not self.weighed & 15:
            self.order.sort(key=lambda judging: -judging.slips)
        return self._slip_factor(slips), whole

    def _slip_factor(self, slips: int) -> float:
        """:attr:`Model.card_slip` multiplied in ``slips`` times, one at a time."""
        while len(self.powers) <= slips:
            self.powers.append(self.powers[-1] * self.model.card_slip)
        return self.powers[slips]


class Likelihoods:
    """The guesses' likelihoods weighed for one decision, kept for the next search of
    the same decision (the match review searches each decision in several batches).

    Only the latest decision's are kept, so memory stays bounded; a decision is told
    apart by everything the likelihood reads from the view. Meant for one match's
    decisions (the review's player): the rules are taken to be the same throughout."""

    def __init__(self) -> None:
        self.decision: tuple[object, ...] | None = None
        self.weights: dict[tuple[int, ...], tuple[float, float]] = {}
        #: Guesses whose weighing stopped early, with the upper bound it reached.
        self.bounds: dict[tuple[int, ...], float] = {}
        #: Each other seat's slips by its guessed hand (:class:`Inference`): how many
        #: of its first how many cards.
        self.slips: dict[tuple[int, ...], tuple[int, int]] = {}

    def of(self, view: SeatView) -> dict[tuple[int, ...], tuple[float, float]]:
        """The remembered weights of ``view``'s decision (emptied on a new decision)."""
        assert view.contract is not None
        decision = (
            view.deal_number,
            view.seat,
            view.hand,
            view.contract.id,
            view.chooser,
            view.first_leader,
            tuple(sorted(view.chosen_by.items())),
            view.choices_per_seat,
            view.doubling,
            view.doubling_order,
            view.plays,
        )
        if decision != self.decision:
            self.decision = decision
            self.weights = {}
            self.bounds = {}
            self.slips = {}
        return self.weights


def naming_chance(mine: float, contract: Contract, claimed: float, model: Model = MODEL) -> float:
    """The chance that a seat whose hand expects base score ``mine`` in ``contract``
    names another seat in its doubling turn (a double, or a redouble when that seat
    doubled it), under the model: a logistic of how far its expected edge over that
    seat, less what the other's public choices ``claimed``, clears normal's margin."""
    return _chance(_lead(mine, contract) - claimed - margin(contract), model)


def _lead(mine: float, contract: Contract) -> float:
    """How far a hand expecting ``mine`` in ``contract`` expects to beat another seat's."""
    return mine - (contract.total - mine) / 3


def _chance(edge: float, model: Model) -> float:
    """:func:`naming_chance` of an ``edge`` over the margin: the model's logistic."""
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, edge / model.double_temperature))))


def _choices_then(view: SeatView) -> list[str]:
    """The contracts the chooser could pick when he chose this deal's, by the engine's
    own rule (a scratch match holding the earlier choices)."""
    assert view.contract is not None and view.chooser is not None
    rules = view.rules
    first = next(f for f in range(4) if rules.choices_per_seat(f) == view.choices_per_seat)
    match = Match(first_dealer=first, rules=rules)
    match.chosen_by.update(
        {cid: seat for cid, seat in view.chosen_by.items() if cid != view.contract.id}
    )
    return match.legal_contracts(view.chooser)


def _doubling_turns(view: SeatView) -> list[_Turn]:
    """The others' doubling turns so far, with the seats each could name (the chooser
    only those who doubled him); none in Domino where only some seats may double."""
    contract = view.contract
    assert contract is not None
    if contract.domino and view.rules.domino_doubling is not DominoDoubling.ANY:
        return []
    turns = []
    for k, named in enumerate(view.doubling):
        seat = view.doubling_order[k]
        doubled_by = frozenset(view.doubling_order[i] for i in range(k) if seat in view.doubling[i])
        if seat == view.chooser:
            targets = tuple(sorted(doubled_by))
        else:
            targets = tuple(s for s in range(4) if s != seat)
        if seat != view.seat and targets:
            turns.append(_Turn(seat, targets, named, doubled_by))
    return turns


def _moments(view: SeatView) -> dict[int, list[_Moment]]:
    """The cards the seats other than ``view``'s chose, by seat, from the deal's public
    cards laid again on a position without hands. In a trick contract who plays next
    follows from the cards; in Domino it follows from the hands (a seat with no card
    that connects passes), so there each moment is given its seat to act, and the card
    only goes on the table (a seat's legal cards and the normal player's choice read its
    own hand and the table only)."""
    assert view.contract is not None
    domino = view.contract.domino
    # A Domino position starts with a seat that can lay an 8: let every seat hold all.
    pos = dealt_position(view.contract, view.first_leader or 0, [FULL if domino else 0] * 16)
    played = [0, 0, 0, 0]
    moments: dict[int, list[_Moment]] = {}
    earlier = [[0, 0, 0, 0] for _ in range(4)]
    for seat, card in view.plays:
        suit, rank = card.suit, card.rank - 2
        if seat != view.seat:
            snapshot = pos.copy()
            snapshot.hands = [0] * 16
            snapshot.to_act = seat
            unplayed = tuple(FULL & ~mask for mask in played)
            moments.setdefault(seat, []).append(
                _Moment(snapshot, card.index, tuple(earlier[seat]), unplayed)
            )
        if domino:
            lay_on_table(pos, suit, rank)
        else:
            play_card(pos, card.index)
        played[suit] |= 1 << rank
        earlier[seat][suit] |= 1 << rank
    return moments


def _compiled_parts() -> tuple[type[CardJudge], type[Weigher]] | tuple[None, None]:
    """``_policy.pyx``'s judge of the others' cards and ``_weighing.pyx``'s weigher of
    choices and doubles, or Nones where they were not built (both are built with the
    playout kernel, or neither)."""
    try:
        from ._policy import CardJudge
        from ._weighing import Weigher
    except ImportError:
        return None, None
    return CardJudge, Weigher


_CardJudge, _Weigher = _compiled_parts()

#: Whether the others' cards, choice and doubles are weighed in C (the rules of
#: :meth:`Inference.python_cards`, :meth:`~Inference.python_choice` and
#: :meth:`~Inference.python_doubles`).
COMPILED = _CardJudge is not None


def _card_judge(
    contract: Contract,
    order: list[_Judged],
    model: Model,
    memo: dict[tuple[int, ...], tuple[int, int]],
) -> CardJudge | None:
    """The compiled judge of ``order``'s moments, sharing ``memo`` (the seats' slips by
    guessed hand), or None where it was not built or there is nothing to judge. Each
    moment is read once into what its seat's legal cards and the normal player's card
    need besides that seat's hand: the trick's suit led and highest trump, and whether a
    heart may not be led (the moment's position holds, besides the seat, only the cards
    no one had played: :func:`_slipped`); in Domino the ranks that connect to each row."""
    if _CardJudge is None or not order:
        return None
    trump = -1 if contract.trump is None else int(contract.trump)
    must_trump = trump >= 0 and contract.must_trump is not MustTrump.NO
    rows = []
    for judging in order:
        moment = judging.moment
        pos = moment.pos
        trick = pos.trick
        unplayed = [*moment.unplayed, *[0] * 12]
        rows.append(
            (
                judging.seat,
                judging.bit,
                moment.card,
                moment.earlier,
                tuple(pos.played),
                tuple(pos.voids),
                tuple(trick),
                pos.tricks_done,
                trick[0] // 13 if trick else -1,
                max((card % 13 for card in trick if card // 13 == trump), default=-1),
                not trick and heart_lead_barred(contract, unplayed),
                tuple(domino_connect(pos, suit) if contract.domino else 0 for suit in range(4)),
                tuple(pos.domino_high),
                pos.domino_aces,
            )
        )
    overtrump = must_trump and contract.must_trump is MustTrump.OVERTRUMP
    return _CardJudge(contract, rows, model.card_slip, FLOOR, memo, trump, must_trump, overtrump)


def _weigher(inference: Inference) -> Weigher | None:
    """The compiled weigher of ``inference``'s choice and doubling turns, or None where it
    was not built or neither is weighed: each choice's numbers for
    :func:`~.bidding.choice_value`, each turn's claims against the seats it could name
    (as :meth:`Inference.python_doubles` works them out)."""
    view, contract, choices = inference.view, inference.contract, inference.choices
    if _Weigher is None or not (len(choices) > 1 or inference.turns):
        return None
    need = margin(contract)
    turns = [
        (
            turn.seat,
            [
                (turn.claimed(target, view.chooser, need), target in turn.named)
                for target in turn.targets
            ],
        )
        for turn in inference.turns
    ]
    costs = [choice_costs(choice) for choice in choices]
    model = inference.model
    return _Weigher(
        contract,
        choices,
        [average for average, _ in costs],
        [spent for _, spent in costs],
        choices.index(contract) if len(choices) > 1 else 0,
        -1 if view.chooser is None else view.chooser,
        model.choice_temperature,
        need,
        model.double_temperature,
        turns,
        FLOOR,
    )


def _slipped(seat: int, dealt: list[int], moment: _Moment) -> int:
    """1 if ``seat``'s card at ``moment`` was not the normal player's, for its guessed
    hand as ``dealt`` (four masks), else 0. Its hand then is put in the moment's
    position, the cards no one had played yet but it held with the next seat (the
    legal cards read the others' hands only for whether hearts are broken)."""
    base = seat * 4
    other = ((seat + 1) & 3) * 4
    pos = moment.pos
    hands = pos.hands
    for suit in range(4):
        mine = dealt[suit] & ~moment.earlier[suit]
        hands[base + suit] = mine
        hands[other + suit] = moment.unplayed[suit] & ~mine
    legal = legal_masks(pos)
    a, b, c, d = legal
    if a.bit_count() + b.bit_count() + c.bit_count() + d.bit_count() > 1 and (
        normal_card(pos, seat, legal) != moment.card
    ):
        return 1
    return 0
