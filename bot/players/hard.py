"""The hard player: determinized Monte Carlo search with the normal player as playout policy.

For a card, it guesses the hidden hands many times (:class:`~.sampling.Sampler`: only
deals consistent with what its seat has seen), plays each legal card in every guess and
lets four normal players finish the deal (:func:`~bot.engine.fast.policy_playout`), and
keeps the card with the best mean final score, doubling settlement included (with
doubles, a seat's score depends on the others' base scores too). Every card is tried on
the same guesses, so differences between cards are not drowned in the luck of the deal.

Inference (:mod:`.inference`, switch ``inference``): a guess counts by how likely it
makes the others' contract choice, doubling turns and cards under the normal player's
rules, as an importance weight (``weight``) or by rejection (``reject``); ``off`` keeps
the guesses uniform.

In the last :data:`ENDGAME_TRICKS` tricks of a trick contract each guess is solved
exactly instead (:mod:`.endgame`): its own remaining cards searched, the others playing
the normal player's cards (the playouts' model). Solvers that let the others see every
hand (max^n, paranoid) measured worse: they play against defenders who know where every
card is.

For the contract and doubling it simulates whole deals the same way and hands the means
to the shared rules in :mod:`.bidding` (switch ``simulate_choice``; off, it bets from the
normal player's hand estimates). With inference on, the doubling turn's guesses already
hold what the chooser's choice and earlier doubles say, so the shared rule's assumed
edge of the chooser and of a doubler is not added on top; and since those simulated
gains are better estimates than a hand count, a double needs to clear no margin
(:data:`DOUBLE_MARGIN`), where the normal player's must clear one.

Every decision is an :class:`Evaluation` first: each legal option with the search's
value for it, and the option the player takes. :meth:`HardPlayer.evaluate` returns it
whole (the match review values a player's decisions with it), :meth:`HardPlayer.
choose_action` returns its choice, so the review and the table run the same search.

Time: with the clock on (a table), the wall clock ends the search: it stops before a
round of guesses that would end past :data:`CLOCK_SHARE` of the budget, judged by the
length of the round just done, so a decision uses close to that share of its budget
whatever it is (a contract, a double, an early card, an exact endgame) and however busy
the machine is. With the clock off (``wall_clock=False``: the arena's paired runs, the
review, tests), an amount of simulated work ends it instead, the budget times the fixed
:data:`WORK_PER_SECOND`, so the same view, seed and budget give the same action on any
machine, in any process. A ``work_per_second`` given to the player caps the work with
the clock on too.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine.actions import Action, Choose, Double
from bot.engine.contracts import Contract
from bot.engine.deal import settle_seat
from bot.engine.fast import (
    dealt_position,
    play_card,
    policy_playout,
    position_from_view,
)
from bot.engine.house_rules import DominoDoubling
from bot.engine.view import SeatView

from .base import legal_card_masks, own_position, play_of
from .bidding import (
    TRUMP_PREMIUM,
    best_choice,
    choice_value,
    claimed_edge,
    doubling_turn,
    margin,
)
from .endgame import EndgameSolver
from .hand import expected_bases_of_masks
from .inference import MODEL, Inference, Likelihoods, Model, naming_chance
from .normal import NormalPlayer
from .policy import normal_card
from .sampling import Sampler

#: Simulated cards per second of budget when the clock is off (fixed work, exact
#: replays): well under what one idle core here searches (how far under differs by
#: kind of decision), kept from when it was the cap with the clock on too, so that
#: fixed-work figures stay comparable.
WORK_PER_SECOND = 200_000

#: With the clock on, the share of the budget a search may take on the wall clock: the
#: last round must end by then (as long as the round before it took), leaving the rest
#: for the answer's way back and a busy machine's scheduling (at 0.9, without judging
#: the last round, the arena's hard decisions at 1 s took p95 1,046 ms with two workers
#: on two cores that other work held at a load of 13).
CLOCK_SHARE = 0.8

#: A card must beat the normal player's own choice by this many points on average to be
#: preferred: smaller differences are mostly sampling noise over a few dozen guesses
#: (paired arena runs, ``--versus``: 1 point ahead of 0.5 on two seeds' deals, 0.2
#: behind).
NOISE = 1.0

#: In a trick contract with at most this many tricks left (counting the one in play),
#: every guess is solved exactly instead of played out (:mod:`.endgame`).
ENDGAME_TRICKS = 4

#: The work of one card tried by the endgame solver, in simulated playout cards, per
#: mode (a ``normal`` node copies the position and asks the normal player's policy).
SOLVER_NODE_WORK = {"maxn": 1.5, "paranoid": 1.5, "normal": 4.0}

#: The work of drawing one guess and building its position, in simulated playout cards:
#: next to a playout it is small, but solving the last two tricks costs less than that.
GUESS_WORK = 50

#: How the others' observed actions weigh the guesses (:mod:`.inference`): ``weight``
#: (importance weighting: every guess counts by its likelihood), ``reject`` (a guess is
#: kept with probability its likelihood over the best seen so far) or ``off`` (uniform).
INFERENCE_MODES = ("weight", "reject", "off")

#: The share of the contract's size a double's expected gain must clear: none, where the
#: normal player needs :data:`~.bidding.MARGIN_SHARE`, since hard's gains come from
#: simulated deals weighed by what the others did rather than from a rough hand estimate,
#: and the later seats' answers are already in them. A longer search of the same turns
#: valued the double higher where a margin of 0.05 passed, and paired arena runs
#: (``--versus``) put no margin ahead of 0.025 and 0.05.
DOUBLE_MARGIN = 0.0

#: With ``reject``, a decision draws at most this many guesses for one it keeps.
REJECT_TRIES = 30


class _Search:
    """When a search ends: after ``budget`` seconds' worth of simulated work
    (``work_per_second``, :data:`math.inf` for no cap), and with the clock on before a
    round that would end past :data:`CLOCK_SHARE` of the budget, a round taken to last as
    long as the one before it (the first one's length counts the search's set-up too).

    A round's length is measured rather than priced in work: rounds differ by far more
    than their simulated cards say (a whole deal per contract, a solver's nodes, the
    inference's tries), and on a busy machine the wall clock stretches all of them."""

    def __init__(self, budget: float, wall_clock: bool, work_per_second: float) -> None:
        self.work_left = budget * work_per_second if math.isfinite(work_per_second) else math.inf
        self.round_start = time.perf_counter()
        clock = self.round_start + CLOCK_SHARE * budget
        self.deadline = clock if wall_clock else math.inf

    def spend(self, cards: float) -> bool:
        """Count a finished round's ``cards`` of work; True while there is work and time
        left for another round like it."""
        self.work_left -= cards
        now = time.perf_counter()
        last, self.round_start = now - self.round_start, now
        return self.work_left > 0 and now + last < self.deadline

    def left(self) -> bool:
        """True while there is work and time left, within a round (no round judged)."""
        return self.work_left > 0 and time.perf_counter() < self.deadline


class _Guesser:
    """Draws guesses for one decision with their weights, as the inference mode says."""

    def __init__(
        self,
        view: SeatView,
        mode: str,
        model: Model,
        tries: int,
        memo: Likelihoods | None = None,
    ) -> None:
        self.sampler = Sampler(view)
        self.mode = mode
        self.tries = tries
        inference = Inference(view, model, memo) if mode != "off" and view.contract else None
        self.inference = inference if inference is not None and inference.informative else None
        self.best = 0.0  # the highest likelihood seen, for rejection

    def draw(self, rng: random.Random, search: _Search) -> tuple[list[int], float]:
        """Sixteen hand masks and the guess's weight; its cost is charged to ``search``."""
        hands = self.sampler.sample(rng)
        if self.inference is None:
            return hands, 1.0
        work = self.inference.work
        search.work_left -= work
        if self.mode == "weight":
            return hands, self.inference.weight(hands)[0]
        return self._reject(hands, rng, search)

    def _reject(
        self, hands: list[int], rng: random.Random, search: _Search
    ) -> tuple[list[int], float]:
        """Rejection from the first guess ``hands`` on: a guess is kept with probability
        its likelihood over the best seen so far, after at most :attr:`tries` more; when
        none is, the likeliest drawn. The chance is drawn before the guess is weighed
        (weighing takes nothing from ``rng``, so the draws are those of weighing first),
        and a guess is weighed only as far as it could still be kept or be the likeliest
        (:meth:`~.inference.Inference.likely`): most are given up at their first unlikely
        card."""
        assert self.inference is not None
        kept, kept_weight = hands, self.inference.weight(hands)[0]
        weight: float | None = kept_weight
        for tries in range(self.tries + 1):
            if tries:
                if not search.left():  # out of work or time: the likeliest guess drawn
                    break
                hands = self.sampler.sample(rng)
                search.work_left -= self.inference.work + GUESS_WORK
                chance = rng.random() if tries < self.tries else None
                # Needed: whether it is kept (at least the chance of the best so far) or
                # is the likeliest drawn (above the likeliest weight so far).
                likeliest = math.nextafter(kept_weight, math.inf)
                below = likeliest if chance is None else min(chance * self.best, likeliest)
                weight = self.inference.likely(hands, below)
                if weight is not None and weight > kept_weight:
                    kept, kept_weight = hands, weight
                if chance is None:
                    break
            else:
                chance = rng.random()
            if weight is not None and weight >= chance * self.best:
                self.best = max(self.best, weight)
                return hands, 1.0
        return kept, 1.0


@dataclass(frozen=True)
class Evaluation:
    """One decision as the search saw it: every legal option with its value, and the
    option the hard player takes (``choice``, one of ``options``).

    A value is in the deciding seat's points, doubling settlement included:

    - a card: the mean final score of the deal (what the seat has taken so far, plus the
      rest played out by four normal players, or solved exactly in the endgame);
    - a doubling turn: the mean final score of the simulated deals with this turn's
      doubles and redoubles, and the later seats' answers to it by their guessed hands
      (:class:`_Answers`); without inference, less what the named seats' public choices
      claim (:func:`~.bidding.claimed_edge`), as the decision counts it;
    - a contract: what choosing it now is worth to the match, the hand's mean base score
      in it minus the contract's average per seat (every contract not chosen now is still
      played later, on an average hand), less the trump premium for a trump option (it
      spends the seat's one trump pick), as :func:`~.bidding.choice_value` states.

    ``guesses`` is how many guessed deals the values are means over. The choice is not
    always the highest value: a card must beat the normal player's by :data:`NOISE`, a
    double must clear a margin, as the module docstring says.

    ``deals`` is every guessed deal that counted (a weight above 0) with each option's
    value in it, in the order of ``options`` (each option valued on the same deals): the
    match review reads from it how far the means can be trusted (the spread of the
    deals' differences, with ``reject`` inference every deal counting alike) and, for a
    card, whether one beat another in every deal the search considered, not only on
    average (its certain losses).
    """

    options: tuple[Action, ...]
    values: tuple[float, ...]
    choice: Action
    guesses: int
    deals: tuple[tuple[float, ...], ...] = ()


class HardPlayer:
    """See the module docstring. With no budget it plays as the normal player."""

    def __init__(
        self,
        wall_clock: bool = True,
        work_per_second: float | None = None,
        endgame_tricks: int = ENDGAME_TRICKS,
        endgame_mode: str = "normal",
        inference: str = "reject",
        model: Model = MODEL,
        simulate_choice: bool = True,
        double_margin: float = DOUBLE_MARGIN,
        trump_premium: float = TRUMP_PREMIUM,
        noise: float = NOISE,
        reject_tries: int = REJECT_TRIES,
        likelihoods: Likelihoods | None = None,
    ) -> None:
        if inference not in INFERENCE_MODES:
            raise ValueError(f"inference must be one of {', '.join(INFERENCE_MODES)}")
        self.wall_clock = wall_clock
        self._work_per_second = work_per_second
        self.endgame_tricks = endgame_tricks
        self.endgame_mode = endgame_mode
        self.inference = inference
        self.model = model
        self.simulate_choice = simulate_choice
        self.double_margin = double_margin
        self.trump_premium = trump_premium
        self.noise = noise
        self.reject_tries = reject_tries
        #: The guesses' likelihoods kept from one search of a decision to the next
        #: (:class:`~.inference.Likelihoods`): same values, less time, for a player that
        #: searches one match's decisions repeatedly (the match review).
        self.likelihoods = likelihoods
        self.normal = NormalPlayer()

    @property
    def work_per_second(self) -> float:
        """The work cap's rate: as given, else with the clock off the fixed
        :data:`WORK_PER_SECOND`; with the clock on none (:data:`math.inf`), the clock
        ends the search."""
        if self._work_per_second is not None:
            return self._work_per_second
        return math.inf if self.wall_clock else WORK_PER_SECOND

    def choose_action(self, view: SeatView, rng: random.Random, budget: float) -> Action:
        if len(view.legal) == 1 or budget <= 0:
            return self.normal.choose_action(view, rng, budget)
        if isinstance(view.legal[0], Choose | Double) and not self.simulate_choice:
            return self.normal.choose_action(view, rng, budget)
        return self.evaluate(view, rng, budget).choice

    def evaluate(self, view: SeatView, rng: random.Random, budget: float) -> Evaluation:
        """Search ``view``'s decision for ``budget`` and value every legal option: the
        same search, guesses and work as :meth:`choose_action` with the same ``rng`` and
        budget (which takes this evaluation's choice whenever it searches)."""
        if not view.legal:
            raise ValueError("the seat has no decision to make in this view")
        search = _Search(budget, self.wall_clock, self.work_per_second)
        first = view.legal[0]
        if isinstance(first, Choose):
            return self._choose(view, rng, search)
        if isinstance(first, Double):
            return self._double(view, rng, search)
        return self._play(view, rng, search)

    def expected_bases(
        self, view: SeatView, rng: random.Random, budget: float, contracts: list[Contract]
    ) -> list[list[float]]:
        """Each seat's mean base score in each of ``contracts``, over whole deals of the
        cards ``view``'s seat does not see, dealt uniformly and played out by four normal
        players: the contract choice's estimates, for a hand before its first card."""
        search = _Search(budget, self.wall_clock, self.work_per_second)
        guesser = _Guesser(view, "off", self.model, self.reject_tries)
        return self._simulate(view, rng, search, contracts, guesser)[0]

    def _play(self, view: SeatView, rng: random.Random, search: _Search) -> Evaluation:
        legal = legal_card_masks(view)
        cards = [s * 13 + r for s in range(4) for r in range(13) if legal[s] >> r & 1]
        preferred = normal_card(own_position(view), view.seat, legal)
        keep = cards.index(preferred)
        guesser = _Guesser(view, self.inference, self.model, self.reject_tries, self.likelihoods)
        totals = [0.0] * len(cards)
        deals: list[tuple[float, ...]] = []
        weights = 0.0
        guesses = 0
        cards_left = sum(view.cards_left)
        solver = None
        assert view.contract is not None
        if not view.contract.domino and len(view.hand) <= self.endgame_tricks:
            solver = EndgameSolver(view.contract, view.multipliers, view.seat, self.endgame_mode)
        while True:
            hands, weight = guesser.draw(rng, search)
            weights += weight
            guesses += 1
            root = position_from_view(view, hands)
            nodes = solver.nodes if solver else 0
            values = []
            for i, card in enumerate(cards):
                pos = root.copy()
                play_card(pos, card)
                if solver is None:
                    base = policy_playout(pos, normal_card)
                    value = float(settle_seat(base, view.multipliers, view.seat))
                else:
                    settled = settle_seat(pos.base, view.multipliers, view.seat)
                    value = settled + solver.value(pos)
                totals[i] += weight * value
                values.append(value)
            if weight > 0:
                deals.append(tuple(values))
            work: float
            if solver is None:
                work = len(cards) * cards_left
            else:
                work = GUESS_WORK + SOLVER_NODE_WORK[self.endgame_mode] * (solver.nodes - nodes)
            if not search.spend(max(1, work)):
                break
        best = max(range(len(cards)), key=lambda i: totals[i])
        if totals[keep] >= totals[best] - self.noise * weights:
            best = keep
        options = tuple(play_of(view, card) for card in cards)
        means = tuple(total / weights for total in totals)
        return Evaluation(options, means, options[best], guesses, tuple(deals))

    def _simulate(
        self,
        view: SeatView,
        rng: random.Random,
        search: _Search,
        contracts: list[Contract],
        guesser: _Guesser,
        observe: Callable[[list[int], float, list[list[int]]], None] | None = None,
    ) -> tuple[list[list[float]], int]:
        """Mean base score of each seat over whole simulated deals, per contract, and
        how many deals were simulated; ``observe(hands, weight, bases)`` sees each deal,
        every seat's base score in each contract (for values beyond the means, at no
        extra work)."""
        assert view.first_leader is not None
        totals = [[0.0] * 4 for _ in contracts]
        weights = 0.0
        guesses = 0
        while True:
            hands, weight = guesser.draw(rng, search)
            weights += weight
            guesses += 1
            bases = []
            for contract, total in zip(contracts, totals, strict=True):
                base = policy_playout(
                    dealt_position(contract, view.first_leader, hands), normal_card
                )
                for seat in range(4):
                    total[seat] += weight * base[seat]
                bases.append(base)
            if observe is not None:
                observe(hands, weight, bases)
            if not search.spend(52 * len(contracts)):
                break
        return [[value / weights for value in total] for total in totals], guesses

    def _choose(self, view: SeatView, rng: random.Random, search: _Search) -> Evaluation:
        options = tuple(a for a in view.legal if isinstance(a, Choose))
        contracts = [view.rules.by_id[a.contract] for a in options]
        guesser = _Guesser(view, "off", self.model, self.reject_tries)  # nothing seen yet
        deals: list[tuple[float, ...]] = []

        def observe(hands: list[int], weight: float, bases: list[list[int]]) -> None:
            deals.append(
                tuple(
                    choice_value(c, base[view.seat], self.trump_premium)
                    for c, base in zip(contracts, bases, strict=True)
                )
            )

        means, guesses = self._simulate(view, rng, search, contracts, guesser, observe)
        expected = {c.id: m[view.seat] for c, m in zip(contracts, means, strict=True)}
        values = tuple(choice_value(c, expected[c.id], self.trump_premium) for c in contracts)
        choice = best_choice(view, expected, self.trump_premium)
        return Evaluation(options, values, choice, guesses, tuple(deals))

    def _double(self, view: SeatView, rng: random.Random, search: _Search) -> Evaluation:
        assert view.contract is not None
        guesser = _Guesser(view, self.inference, self.model, self.reject_tries, self.likelihoods)
        options = tuple(a for a in view.legal if isinstance(a, Double))
        answers = _Answers(view, options, self.model)
        [means], guesses = self._simulate(
            view, rng, search, [view.contract], guesser, answers.observe
        )
        # With inference the guesses already hold what the chooser's choice and the
        # doubles claim; without, the shared rule's assumed edge stands in for it.
        inferred = guesser.inference is not None
        others = [j for j in range(4) if j != view.seat]
        claimed = {j: 0.0 if inferred else claimed_edge(view, j) for j in others}
        gains = {j: means[view.seat] - means[j] - claimed[j] for j in others}
        less = [sum(claimed[j] for j in a.targets) for a in options]
        values = tuple(value - claim for value, claim in zip(answers.values(), less, strict=True))
        deals = tuple(
            tuple(value - claim for value, claim in zip(deal, less, strict=True))
            for weight, deal in answers.deals
            if weight > 0
        )
        choice = doubling_turn(view, gains, self.double_margin)
        return Evaluation(options, values, choice, guesses, deals)


class _Answers:
    """The value of each doubling option of ``view``'s seat, counting how the seats
    still to take their turn answer it, deal by simulated deal.

    A seat named now may redouble later, a seat passed over may double (the chooser
    only redoubles): each later seat names this one with the inference's chance for its
    guessed hand (:func:`~.inference.naming_chance`, the normal player's rule softened;
    it claims the chooser's and a doubler's edge as that rule does). In Domino under
    ``domino_doubling: ace_or_two`` no answer is modelled, as the inference models no
    doubles there. The seat's final score is linear in each multiplier, so a deal adds,
    per option, its base score plus every other seat's expected multiplier times
    ``base_me - base_j``."""

    def __init__(self, view: SeatView, options: tuple[Double, ...], model: Model) -> None:
        assert view.contract is not None
        self.view = view
        self.options = options
        self.model = model
        self.contract = view.contract
        turn = len(view.doubling)
        self.later = list(view.doubling_order[turn + 1 :])
        if view.contract.domino and view.rules.domino_doubling is not DominoDoubling.ANY:
            self.later = []  # as the inference: who may name anyone there is not modelled
        self.totals = [0.0] * len(options)
        self.weights = 0.0
        #: Each deal's weight and every option's value in it.
        self.deals: list[tuple[float, tuple[float, ...]]] = []

    def observe(self, hands: list[int], weight: float, bases: list[list[int]]) -> None:
        [base] = bases
        view, contract = self.view, self.contract
        me = view.seat
        need = margin(contract)
        redouble, double = {}, {}
        for j in self.later:
            mine = expected_bases_of_masks(hands[j * 4 : j * 4 + 4], [contract])[0]
            redouble[j] = naming_chance(mine, contract, need / 2, self.model)
            double[j] = 0.0 if j == view.chooser else naming_chance(mine, contract, 0.0, self.model)
        self.weights += weight
        values = []
        for i, option in enumerate(self.options):
            value = float(base[me])
            for j in range(4):
                if j == me:
                    continue
                level = float(view.multipliers[me][j] + (j in option.targets))
                if j in self.later:
                    level += redouble[j] if j in option.targets else double[j]
                value += level * (base[me] - base[j])
            self.totals[i] += weight * value
            values.append(value)
        self.deals.append((weight, tuple(values)))

    def values(self) -> list[float]:
        return [total / self.weights for total in self.totals]
