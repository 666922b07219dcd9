"""One deal as an explicit phase machine: choose, double, play, done.

The deal knows its rules, its hands, its contract, the doubling turns and the cards
played, and nothing else; the match decides which contracts the chooser may pick (that
depends on the whole match) and tells the deal which one was chosen.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from operator import mul
from typing import NamedTuple

from .actions import Action, Double, IllegalAction, Play, Reason
from .cards import ACE, CARDS, KING, SUITS, Card, Suit
from .contracts import Contract
from .doubling import Doubling
from .house_rules import REFUSALS, DominoAces, DominoDoubling, HeartLead, MustTrump
from .rules import STANDARD, Rules
from .scoring import NOTHING, Taken, seat_points, trick_taken

SEATS = range(4)

_PLAYS: tuple[Play, ...] = tuple(Play(card) for card in CARDS)
"""The play of each card (by index), made once: the legal actions are asked at every
turn, and an action is an immutable value."""


class Phase(Enum):
    """Where a match and its deal stand: one enum for both.

    A deal goes CHOOSING, DOUBLING, PLAYING, DONE; the match is NEEDS_DEAL between deals
    (its last deal DONE or none dealt yet), the deal's phase during one, and OVER once
    the last deal is done. ``MatchPhase`` is the same enum under its old name.
    """

    NEEDS_DEAL = "needs_deal"
    CHOOSING = "choosing"
    DOUBLING = "doubling"
    PLAYING = "playing"
    DONE = "done"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in play order, who took it, what it scored."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    points: int

    def seat_of(self, position: int) -> int:
        return (self.leader + position) % 4

    def played(self) -> Iterator[tuple[int, Card]]:
        """(seat, card) pairs in play order."""
        return ((self.seat_of(i), card) for i, card in enumerate(self.cards))


class Outcome(NamedTuple):
    """What one applied action did, as :meth:`Match.apply` returns it.

    ``seat`` acted. A ``Choose`` sets ``contract``; a ``Double`` splits its targets into
    ``doubles`` (new) and ``redoubles`` (answers); a ``Play`` sets ``card`` and, when it
    completes a trick, ``trick``. In Domino ``went_out`` says the seat played its last
    card and ``passes`` lists the seats that then passed automatically, in order. When
    the deal ends, ``deal_over`` is set with ``base`` and ``final`` (after doubling) and
    ``ended_early`` when cards were left unplayed in a trick contract; ``match_over`` when
    that was the match's last deal. (A named tuple: one is made per action, cheaply.)
    """

    seat: int
    action: Action
    contract: Contract | None = None
    doubles: tuple[int, ...] = ()
    redoubles: tuple[int, ...] = ()
    card: Card | None = None
    trick: Trick | None = None
    went_out: bool = False
    passes: tuple[int, ...] = ()
    deal_over: bool = False
    ended_early: bool = False
    base: tuple[int, ...] | None = None
    final: tuple[int, ...] | None = None
    match_over: bool = False


def settle_seat(base: Sequence[int], multipliers: Sequence[Sequence[int]], seat: int) -> int:
    """``seat``'s final score: ``base_i + sum_j m_ij * (base_i - base_j)`` (the seat's own
    term is nought whatever ``m_ii``), summed as ``base_i * (1 + sum_j m_ij) - sum_j m_ij
    base_j``: every view's totals settle the deal in play, so this is on the hot path."""
    mine = base[seat]
    row = multipliers[seat]
    weighted: int = sum(map(mul, row, base))
    return mine * (1 + sum(row)) - weighted


def settle(base: Sequence[int], multipliers: Sequence[Sequence[int]]) -> list[int]:
    """Final scores of all four seats; the total never changes."""
    return [settle_seat(base, multipliers, seat) for seat in SEATS]


def trick_playable(
    contract: Contract, trick: Sequence[Card], held: Sequence[Card], hearts_played: bool
) -> tuple[list[Card], Reason | None]:
    """The cards of ``held`` that may be played to ``trick`` (empty: the lead) in a trick
    contract, and the rule that limits them (None when every held card may be played);
    ``hearts_played``: a heart was played to an earlier trick of the deal.

    The one statement of the card rules of trick play: the deal refuses a card for the
    rule returned here, and what a card played tells the others is read from it too
    (:func:`~bot.engine.view.ruled_out`).
    """
    if trick:
        return _following(contract, trick, held)
    if contract.heart_lead is HeartLead.NEVER or (
        contract.heart_lead is HeartLead.BROKEN and not hearts_played
    ):
        others = [card for card in held if card.suit is not Suit.HEARTS]
        return others or list(held), Reason.HEART_LEAD
    return list(held), None


def _following(
    contract: Contract, trick: Sequence[Card], held: Sequence[Card]
) -> tuple[list[Card], Reason | None]:
    """:func:`trick_playable` after the lead: follow suit; with ``must_trump``, a player
    who cannot must trump if he can; with ``overtrump``, a trump played to a trick that
    holds one must beat the highest there if the player holds one that does."""
    cards = [card for card in held if card.suit is trick[0].suit]
    reason = Reason.MUST_FOLLOW_SUIT
    rule, trump = contract.must_trump, contract.trump
    if not cards and rule is not MustTrump.NO:
        cards = [card for card in held if card.suit is trump]
        reason = Reason.MUST_TRUMP
    if not cards:
        return list(held), None
    if rule is MustTrump.OVERTRUMP and cards[0].suit is trump:
        top = max((card.rank for card in trick if card.suit is trump), default=0)
        higher = [card for card in cards if card.rank > top]
        if higher and len(higher) < len(cards):
            return higher, Reason.MUST_OVERTRUMP
    return cards, reason


Row = tuple[int, int]
"""A Domino suit row on the table: its lowest and its highest rank (:data:`LOW_ACE` for
an ace laid next to the 2)."""

LOW_ACE = 1
"""Where an ace laid next to its 2 lies on its row (house rule ``domino_aces: either``);
the card is still the ace, rank 14."""


class Aces(Enum):
    """Where the aces of a Domino deal may be laid."""

    HIGH = "high"
    """Only next to their king: the standard rule, or the first ace went there."""
    LOW = "low"
    """Only next to their 2: the first ace went there (a king then ends its row)."""
    EITHER = "either"
    """Next to their king or their 2: no ace is down yet (``domino_aces: either``)."""


@dataclass(frozen=True, slots=True)
class DominoTable:
    """The cards on a Domino table, as four suit rows (None: not started), and where the
    aces may go: the one statement of which card connects."""

    rows: tuple[Row | None, Row | None, Row | None, Row | None] = (None, None, None, None)
    aces: Aces = Aces.HIGH

    @classmethod
    def dealt(cls, contract: Contract) -> DominoTable:
        """The empty table of a Domino deal of ``contract``."""
        either = contract.domino_aces is DominoAces.EITHER
        return cls(aces=Aces.EITHER if either else Aces.HIGH)

    @classmethod
    def of(cls, contract: Contract, rows: Mapping[Suit, Row]) -> DominoTable:
        """The table with these started ``rows`` (as :meth:`Deal.domino_rows` gives them):
        the first ace laid, if any, shows where the aces go."""
        aces = cls.dealt(contract).aces
        if any(low == LOW_ACE for low, _ in rows.values()):
            aces = Aces.LOW
        elif any(high == ACE for _, high in rows.values()):
            aces = Aces.HIGH
        r0, r1, r2, r3 = (rows.get(suit) for suit in Suit)
        return cls((r0, r1, r2, r3), aces)

    def playable_ranks(self, suit: Suit) -> tuple[int, ...]:
        """The ranks that connect in ``suit``: an 8 to an empty row, else the rank just
        below the row or just above it; the ace (rank 14) next to the king, or next to the
        2 where the aces may go low, and nothing beyond an ace or below a 2 otherwise."""
        row = self.rows[suit]
        if row is None:
            return (8,)
        low, high = row
        ranks = []
        if low > 2:
            ranks.append(low - 1)
        elif low == 2 and self.aces is not Aces.HIGH:
            ranks.append(ACE)
        if high < KING:
            ranks.append(high + 1)
        elif high == KING and self.aces is not Aces.LOW and ACE not in ranks:
            ranks.append(ACE)
        return tuple(ranks)

    def connects(self, card: Card) -> bool:
        return card.rank in self.playable_ranks(card.suit)

    def laid(self, card: Card) -> DominoTable:
        """This table once ``card`` (a card that connects) is laid on it. An ace goes high
        when it can (its king is down and the aces may go high), else low, and fixes the
        way for the deal's other aces."""
        row = self.rows[card.suit]
        rank, aces = card.rank, self.aces
        if row is None:
            row = (rank, rank)
        elif rank == ACE:
            high = row[1] == KING and aces is not Aces.LOW
            row, aces = ((row[0], ACE), Aces.HIGH) if high else ((LOW_ACE, row[1]), Aces.LOW)
        else:
            row = (min(row[0], rank), max(row[1], rank))
        rows = list(self.rows)
        rows[card.suit] = row
        return DominoTable((rows[0], rows[1], rows[2], rows[3]), aces)


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index in ``cards`` (play order) of the card that takes the trick."""
    best = 0
    for position in range(1, len(cards)):
        card, top = cards[position], cards[best]
        if card.suit is top.suit:
            if card.rank > top.rank:
                best = position
        elif card.suit is trump:
            best = position
    return best


class Deal:
    """The state of one deal; change it only through :meth:`apply`."""

    def __init__(
        self, dealer: int, hands: Sequence[Sequence[Card]], rules: Rules = STANDARD
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.chooser = rules.chooser(dealer)
        self.first_leader = rules.first_leader(dealer)
        self.doubling_order = rules.doubling_order(dealer)
        self.hands: tuple[tuple[Card, ...], ...] = tuple(tuple(sorted(h)) for h in hands)
        self.contract: Contract | None = None
        self.phase = Phase.CHOOSING
        self.to_act: int | None = self.chooser
        self._doubling = Doubling(self.doubling_order, self.chooser)
        self.doubling = self._doubling.turns
        """Each doubling turn's seats named, in doubling order."""
        self.multipliers = self._doubling.multipliers
        self.plays: list[tuple[int, Card]] = []
        self.taken: list[Taken] = [NOTHING] * 4
        """What each seat has taken so far; its base score is :func:`seat_points` of it."""
        self.base = [0, 0, 0, 0]
        self.tricks: list[Trick] = []
        self.trick: list[Card] = []
        self.leader = self.first_leader
        self.voids: list[set[Suit]] = [set() for _ in SEATS]
        self.out: list[int] = []
        self.domino_passes: list[tuple[int, int]] = []
        self.hearts_played = False
        """A heart has been played in this deal: before a lead, to an earlier trick (house
        rule ``heart_lead: broken``)."""
        self._held = [list(h) for h in self.hands]
        self._table = DominoTable()
        self._open = [self._table.playable_ranks(suit) for suit in Suit]  # Domino, by suit
        self._scoring_left = 0  # scoring cards not yet taken
        self._final: tuple[int, ...] | None = None
        """The final scores while the base and the doubling stay as they are (None: to
        settle again): every view of the match asks for them."""

    # -- what a seat holds and may do ---------------------------------------------------

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` still holds, sorted."""
        return list(self._held[seat])

    def cards_left(self) -> tuple[int, int, int, int]:
        """How many cards each seat still holds."""
        held = self._held
        return (len(held[0]), len(held[1]), len(held[2]), len(held[3]))

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (the chooser's choice is the match's)."""
        if self.phase is Phase.DOUBLING:
            return [Double(frozenset(t)) for t in self._doubling_subsets()]
        if self.phase is Phase.PLAYING:
            return [_PLAYS[card.index] for card in self.legal_cards()]
        return []

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play now."""
        if self.phase is not Phase.PLAYING or self.to_act is None:
            return []
        return self._legal_cards_of(self.to_act)

    def _legal_cards_of(self, seat: int) -> list[Card]:
        return self._playable(self._held[seat])[0]

    def _playable(self, held: list[Card]) -> tuple[list[Card], Reason | None]:
        """The cards a seat holding ``held`` may play now, and the rule that limits them.

        The card rules (:func:`trick_playable`, :class:`DominoTable`) asked of this deal:
        a held card that is not playable is refused for exactly the rule returned here
        (None when every held card may be played).
        """
        contract = self.contract
        assert contract is not None
        if contract.domino:
            return [card for card in held if self._connects(card)], Reason.DOMINO_NOT_CONNECTED
        return trick_playable(contract, self.trick, held, self.hearts_played)

    def _card_refusal(self, reason: Reason, card: Card) -> str:
        """The player's sentence for ``card`` refused by the rule ``reason``."""
        if reason is Reason.DOMINO_NOT_CONNECTED:
            return (
                f"in Domino you must play an 8 or a card next to one on the table; "
                f"the {card.label} does not connect"
            )
        if reason is Reason.MUST_FOLLOW_SUIT:
            return f"you must follow suit: you hold a {self.trick[0].suit.noun}"
        if reason in REFUSALS:
            return REFUSALS[reason]
        assert reason is Reason.HEART_LEAD and self.contract is not None
        if self.contract.heart_lead is HeartLead.BROKEN:
            return (
                "you may not lead a heart before one has been played, while you hold another suit"
            )
        return "you may not lead a heart while you hold another suit"

    def _connects(self, card: Card) -> bool:
        return card.rank in self._open[card.suit]

    def _doubling_targets(self, seat: int) -> list[int]:
        return self._doubling.targets(seat) if self._may_double(seat) else []

    def _may_double(self, seat: int) -> bool:
        """False where house rule ``domino_doubling: ace_or_two`` leaves ``seat`` only a pass."""
        assert self.contract is not None
        if self.rules.domino_doubling is DominoDoubling.ANY or not self.contract.domino:
            return True
        return any(card.rank in (2, 14) for card in self.hands[seat])

    def _doubling_subsets(self) -> Iterator[tuple[int, ...]]:
        assert self.to_act is not None
        targets = self._doubling_targets(self.to_act)
        for size in range(len(targets) + 1):
            yield from combinations(targets, size)

    # -- changing the state -------------------------------------------------------------

    def set_contract(self, contract: Contract) -> None:
        """Called by the match once it has checked the chooser may pick ``contract``."""
        self.contract = contract
        self._scoring_left = len(contract.card_points)
        self._table = DominoTable.dealt(contract)
        self.phase = Phase.DOUBLING
        self.to_act = self.doubling_order[0]

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` does not fit; never changes the deal.

        Callers that must store an action before applying it (the table service) check
        first, so a refusal and a failed write both leave the game untouched.
        """
        if isinstance(action, Double):
            self._check_double(action.targets)
        elif isinstance(action, Play):
            self._check_play(action.card)
        else:
            raise self._phase_refusal("choose a contract")

    def apply(self, action: Action, *, checked: bool = False) -> Outcome:
        """Apply a doubling turn or a card and say what it did; raises
        :class:`IllegalAction` if it does not fit. ``checked``: the caller has just
        checked it (:meth:`check`) and nothing changed since, as the match does, so the
        rules are not asked twice."""
        if not checked:
            self.check(action)
        seat = self.to_act
        assert seat is not None
        if isinstance(action, Double):
            doubles, redoubles = self._double(action.targets)
            return Outcome(seat, action, doubles=doubles, redoubles=redoubles)
        assert isinstance(action, Play)
        card = action.card
        tricks, passes = len(self.tricks), len(self.domino_passes)
        self._play(card)
        trick = self.tricks[-1] if len(self.tricks) > tricks else None
        if len(self.domino_passes) > passes:
            passed = tuple([s for s, _ in self.domino_passes[passes:]])
        else:
            passed = ()
        went_out = seat in self.out
        if self.phase is not Phase.DONE:
            return Outcome(seat, action, None, (), (), card, trick, went_out, passed)
        return Outcome(
            seat,
            action,
            card=card,
            trick=trick,
            went_out=went_out,
            passes=passed,
            deal_over=True,
            ended_early=trick is not None and trick.number < 13,
            base=tuple(self.base),
            final=tuple(self.final_scores()),
        )

    def _phase_refusal(self, what: str) -> IllegalAction:
        reason = {
            Phase.CHOOSING: "the contract has not been chosen yet",
            Phase.DOUBLING: "the doubling is not finished yet",
            Phase.PLAYING: "the cards are being played",
            Phase.DONE: "this deal is over",
        }[self.phase]
        return IllegalAction(f"you cannot {what} now: {reason}", Reason.WRONG_PHASE)

    def _check_double(self, targets: frozenset[int]) -> None:
        if self.phase is not Phase.DOUBLING:
            raise self._phase_refusal("double")
        seat = self.to_act
        assert seat is not None
        if targets and not self._may_double(seat):
            reason = Reason.DOMINO_NO_ACE_OR_TWO
            raise IllegalAction(REFUSALS[reason], reason)
        self._doubling.check(targets)

    def _double(self, targets: frozenset[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Apply a checked doubling turn; returns (doubles, redoubles), sorted."""
        named = self._doubling.apply(targets)
        self._final = None
        if self._doubling.is_done:
            self._start_play()
        else:
            self.to_act = self._doubling.to_act
        return named

    def _start_play(self) -> None:
        self.phase = Phase.PLAYING
        assert self.contract is not None
        if self.contract.domino:
            self.to_act = self._next_domino_seat(self.first_leader)
        else:
            self.to_act = self.first_leader

    def _check_play(self, card: Card) -> None:
        if self.phase is not Phase.PLAYING:
            raise self._phase_refusal("play a card")
        seat = self.to_act
        assert seat is not None
        held = self._held[seat]
        if card not in held:
            raise IllegalAction(f"you do not hold the {card.label}", Reason.NOT_HELD)
        playable, reason = self._playable(held)
        if card not in playable:
            assert reason is not None
            raise IllegalAction(self._card_refusal(reason, card), reason)

    def _play(self, card: Card) -> None:
        seat = self.to_act
        assert seat is not None and self.contract is not None
        self._held[seat].remove(card)
        self.plays.append((seat, card))
        if self.contract.domino:
            self._play_domino(seat, card)
        else:
            self._play_trick(seat, card)

    def _voids_shown(self, card: Card) -> set[Suit]:
        """The suits a card that does not follow suit shows its seat holds none of: each
        suit a card of which would have made it illegal, by the card rules themselves
        (:func:`trick_playable`): the suit led, and with ``must_trump`` the trumps too
        when it is not a trump."""
        assert self.contract is not None
        shown = set()
        for suit in Suit:
            other = CARDS[suit * 13]
            if suit is not card.suit:
                legal, _ = trick_playable(
                    self.contract, self.trick, [card, other], self.hearts_played
                )
                if card not in legal:
                    shown.add(suit)
        return shown

    def _play_trick(self, seat: int, card: Card) -> None:
        assert self.contract is not None
        if self.trick and card.suit is not self.trick[0].suit:
            self.voids[seat].update(self._voids_shown(card))
        self.trick.append(card)
        if card.suit is Suit.HEARTS:
            self.hearts_played = True
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = (self.leader + trick_winner(self.trick, self.contract.trump)) % 4
        number = len(self.tricks) + 1
        won = trick_taken(self.contract, number, self.trick)
        self._take(winner, won)
        self._scoring_left -= won.scoring_cards
        points = seat_points(self.contract, won)
        self.tricks.append(Trick(number, self.leader, tuple(self.trick), winner, points))
        self.trick = []
        self.leader = winner
        ended_early = self.contract.ends_when_cards_taken and self._scoring_left == 0
        if number == 13 or ended_early:
            self._finish()
        else:
            self.to_act = winner

    def _play_domino(self, seat: int, card: Card) -> None:
        assert self.contract is not None
        self._table = self._table.laid(card)
        self._open = [self._table.playable_ranks(suit) for suit in Suit]
        if not self._held[seat]:
            self.out.append(seat)
            if len(self.out) == 3:
                loser = next(s for s in SEATS if s not in self.out)
                self._take(loser, Taken(last=True))
                self._finish()
                return
        self.to_act = self._next_domino_seat((seat + 1) % 4)

    def _next_domino_seat(self, start: int) -> int:
        """The first seat from ``start`` on that can play; the others pass automatically."""
        for step in range(4):
            seat = (start + step) % 4
            if not self._held[seat]:
                continue
            if any(self._connects(card) for card in self._held[seat]):
                return seat
            self.domino_passes.append((seat, len(self.plays)))
        raise AssertionError("no seat can play in Domino; the deal cannot be stuck")

    def _take(self, seat: int, won: Taken) -> None:
        """``seat`` takes ``won``: what it has taken, and so its base score, grows."""
        assert self.contract is not None
        self.taken[seat] += won
        self.base[seat] = seat_points(self.contract, self.taken[seat])
        self._final = None

    def _finish(self) -> None:
        self.phase = Phase.DONE
        self.to_act = None

    # -- scores -------------------------------------------------------------------------

    @property
    def is_done(self) -> bool:
        return self.phase is Phase.DONE

    def final_scores(self) -> list[int]:
        """Base scores so far with the doubling settlement applied."""
        if self._final is None:
            self._final = tuple(settle(self.base, self.multipliers))
        return list(self._final)

    def domino_rows(self) -> dict[Suit, Row]:
        """For Domino: each started suit row as (lowest rank, highest rank) on the table
        (:data:`LOW_ACE` for an ace laid next to the 2)."""
        rows = self._table.rows
        return {suit: row for suit, row in zip(SUITS, rows, strict=True) if row is not None}
