# cython: language_level=3, wraparound=False, boundscheck=False, cdivision=False
"""The inference's weighing of a contract choice and of doubling turns, in C:
:meth:`bot.players.inference.Inference.python_choice` and
:meth:`~bot.players.inference.Inference.python_doubles`, with the hand estimates they
read (:func:`bot.players.hand.expected_bases_of_masks`).

Once the others' cards were judged in C (``_policy.pyx``), these estimates of every
guessed chooser's and doubler's hand were most of what was left of a match review's
time. The per-suit tables are :mod:`bot.players.hand`'s own, read once at import; what
is stated again here is how an estimate adds them up, and how a choice's softmax and a
turn's logistics are taken: the same operations on the same doubles in the same order
(Python's ``min`` and ``max`` keep the first of equal values, as the comparisons below
do), so both give the same weight to the last bit
(``tests/players/test_players_inference_compiled.py`` weighs guesses both ways).
"""

from libc.math cimport exp

from bot.players import hand as _hand

cdef enum:
    MASKS = 8192  # every rank mask of a suit
    MOST_CONTRACTS = 32
    MOST_TURNS = 4
    MOST_TARGETS = 3

cdef int HONOURS[MASKS]
cdef int EXITS[MASKS]
cdef int EXTREMES[MASKS]
cdef int HIGH_HEARTS[MASKS]
cdef int SHORT_SIDE[MASKS]
cdef double SURE_TRICKS[MASKS]
cdef double LONG_TRICKS[MASKS]
cdef double LENGTH_TRICKS[MASKS]
cdef double RUFFS[MASKS]
cdef double QUEENS[MASKS]
cdef double KINGS[MASKS]
cdef double JACKS[MASKS]
cdef double KH_ALONE[MASKS]
cdef double LAST_HOLDER[17]


ctypedef fused entry:
    int
    double


cdef void _copy(entry* table, source, int size=MASKS) except *:
    """Copy ``source``, one of hand.py's tables of ``size`` entries, into ``table``."""
    cdef int mask
    if len(source) != size:
        raise ValueError(f"a table of {len(source)} entries where {size} were expected")
    for mask in range(size):
        table[mask] = source[mask]


_copy(HONOURS, _hand._HONOURS)
_copy(EXITS, _hand._EXITS)
_copy(EXTREMES, _hand._EXTREMES)
_copy(HIGH_HEARTS, _hand._HIGH_HEARTS)
_copy(SHORT_SIDE, _hand._SHORT_SIDE)
_copy(SURE_TRICKS, _hand._SURE_TRICKS)
_copy(LONG_TRICKS, _hand._LONG_TRICKS)
_copy(LENGTH_TRICKS, _hand._LENGTH_TRICKS)
_copy(RUFFS, _hand._RUFFS)
_copy(QUEENS, _hand._QUEENS)
_copy(KINGS, _hand._KINGS)
_copy(JACKS, _hand._JACKS)
_copy(KH_ALONE, _hand._KH_ALONE)
_copy(LAST_HOLDER, _hand._LAST_HOLDER, 17)

cdef int BY_TRUMPS = _hand._BY_TRUMPS
cdef int BY_DOMINO = _hand._BY_DOMINO
cdef int BY_AVERAGE = _hand._BY_AVERAGE
cdef int BY_TRICKS = _hand._BY_TRICKS
cdef int BY_GIVEN_TRICKS = _hand._BY_GIVEN_TRICKS
cdef int BY_HEARTS = _hand._BY_HEARTS
cdef int BY_QUEENS = _hand._BY_QUEENS
cdef int BY_KINGJACKS = _hand._BY_KINGJACKS


cdef struct Rule:
    # bot.players.hand._Rule
    int kind
    double scale
    double jack
    int trump  # -1: no trump


cdef inline double fmax_first(double a, double b) noexcept nogil:
    """Python's ``max(a, b)``: ``a`` unless ``b`` is larger."""
    return b if b > a else a


cdef inline double fmin_first(double a, double b) noexcept nogil:
    """Python's ``min(a, b)``: ``a`` unless ``b`` is smaller."""
    return b if b < a else a


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil


cdef inline int count(int mask) noexcept nogil:
    return __builtin_popcount(<unsigned int>mask)


cdef int _read_hand(int* m, masks, int base) except -1:
    """Read a hand's four rank masks from ``masks[base:base + 4]``, refusing one that is
    no mask of a suit (it would index past the tables)."""
    cdef int s
    for s in range(4):
        m[s] = masks[base + s]
        if not 0 <= m[s] < MASKS:
            raise ValueError(f"{masks[base + s]!r} is no mask of a suit's ranks")
    return 0


cdef Rule _read_rule(contract) except *:
    rule = _hand._rule(contract)
    cdef Rule r
    r.kind = rule.kind
    r.scale = rule.scale
    r.jack = rule.jack
    r.trump = -1 if rule.trump is None else rule.trump
    return r


cdef double _trump_tricks(const int* m, double sure, int trump) noexcept nogil:
    """:func:`bot.players.hand._trump_tricks`."""
    cdef double tricks = sure, ruffs
    cdef int length, i, s, side[3]
    if trump < 0:
        for s in range(4):
            tricks += LONG_TRICKS[m[s]]
        return tricks
    length = count(m[trump])
    tricks += LENGTH_TRICKS[m[trump]]
    if length >= 3:
        i = 0
        for s in range(4):
            if s != trump:
                side[i] = s
                i += 1
        ruffs = RUFFS[m[side[0]]] + RUFFS[m[side[1]]] + RUFFS[m[side[2]]]
        # min(ruffs, length - 2): the float unless the int is smaller
        tricks += <double>(length - 2) if <double>(length - 2) < ruffs else ruffs
    return tricks


cdef double _estimate(const int* m, Rule* rule) noexcept nogil:
    """:func:`bot.players.hand.expected_bases_of_masks` of one contract (its counts
    made afresh: the same sums whether or not another contract made them first)."""
    cdef int kind = rule.kind, honours, exits, kings_jacks
    cdef double strength, risk
    if kind == BY_TRUMPS:
        return rule.scale * _trump_tricks(
            m, SURE_TRICKS[m[0]] + SURE_TRICKS[m[1]] + SURE_TRICKS[m[2]] + SURE_TRICKS[m[3]],
            rule.trump,
        )
    if kind == BY_DOMINO:
        return rule.scale * LAST_HOLDER[EXTREMES[m[0]] + EXTREMES[m[1]] + EXTREMES[m[2]] + EXTREMES[m[3]]]
    if kind == BY_AVERAGE:
        return rule.scale
    honours = HONOURS[m[0]] + HONOURS[m[1]] + HONOURS[m[2]] + HONOURS[m[3]]
    exits = EXITS[m[0]] + EXITS[m[1]] + EXITS[m[2]] + EXITS[m[3]]
    strength = 0.25 * (honours - 10) - 0.15 * (exits - 5)
    if kind == BY_TRICKS:
        return rule.scale * fmax_first(0.0, 3.25 + strength)
    if kind == BY_GIVEN_TRICKS:
        return rule.scale * fmin_first(fmax_first(0.25 + 0.1 * strength, 0.03), 0.9)
    if kind == BY_HEARTS:
        return rule.scale * fmax_first(0.0, 3.25 + strength + 0.4 * (HIGH_HEARTS[m[2]] - 1))
    if kind == BY_QUEENS:
        return rule.scale * (QUEENS[m[0]] + QUEENS[m[1]] + QUEENS[m[2]] + QUEENS[m[3]])
    if kind == BY_KINGJACKS:
        return rule.scale * (KINGS[m[0]] + KINGS[m[1]] + KINGS[m[2]] + KINGS[m[3]]) + rule.jack * (
            JACKS[m[0]] + JACKS[m[1]] + JACKS[m[2]] + JACKS[m[3]]
        )
    risk = KH_ALONE[m[2]] - 0.08 * (SHORT_SIDE[m[0]] + SHORT_SIDE[m[1]] + SHORT_SIDE[m[3]])
    return rule.scale * fmin_first(fmax_first(risk, 0.03), 0.9)


def expected_bases_of_masks(masks, contracts):
    """:func:`bot.players.hand.expected_bases_of_masks`, for the agreement test."""
    cdef int m[4]
    cdef Rule rule
    _read_hand(m, masks, 0)
    out = []
    for contract in contracts:
        rule = _read_rule(contract)
        out.append(_estimate(m, &rule))
    return out


cdef class Weigher:
    """One decision's weighing of the chooser's choice and the others' doubling turns:
    :meth:`~bot.players.inference.Inference.python_choice` and
    :meth:`~bot.players.inference.Inference.python_doubles`, each contract's rule and
    each turn's claims read once."""

    cdef Rule choices[MOST_CONTRACTS]
    cdef double averages[MOST_CONTRACTS]  # each choice's average per seat
    cdef double premiums[MOST_CONTRACTS]  # the trump premium of a trump option, else 0
    cdef int n_choices, chosen, chooser
    cdef double choice_temperature
    cdef Rule contract
    cdef double total, need, double_temperature, floor
    cdef int n_turns
    cdef int turn_seats[MOST_TURNS]
    cdef int n_targets[MOST_TURNS]
    cdef double claimed[MOST_TURNS][MOST_TARGETS]
    cdef bint named[MOST_TURNS][MOST_TARGETS]

    def __init__(
        self,
        contract,
        list choices,
        list averages,
        list premiums,
        int chosen,
        int chooser,
        double choice_temperature,
        double need,
        double double_temperature,
        list turns,
        double floor,
    ):
        """``averages`` and ``premiums``: what :func:`~bot.players.bidding.choice_value`
        takes off each choice's estimate, one after the other
        (:func:`~bot.players.bidding.choice_costs`); ``turns``: each turn's seat and, per
        seat it could name, what was claimed against it and whether it was named."""
        cdef int i, k
        if len(choices) > MOST_CONTRACTS or len(turns) > MOST_TURNS:
            raise ValueError("more contracts or doubling turns than a deal has")
        if not -1 <= chooser < 4 or not 0 <= chosen < max(1, len(choices)):
            raise ValueError(f"no chooser {chooser} of choice {chosen}")
        self.n_choices, self.chosen, self.chooser = len(choices), chosen, chooser
        for i, choice in enumerate(choices):
            self.choices[i] = _read_rule(choice)
            self.averages[i], self.premiums[i] = averages[i], premiums[i]
        self.choice_temperature = choice_temperature
        self.contract = _read_rule(contract)
        self.total = contract.total
        self.need, self.double_temperature, self.floor = need, double_temperature, floor
        self.n_turns = len(turns)
        for i, (seat, targets) in enumerate(turns):
            if len(targets) > MOST_TARGETS:
                raise ValueError("a doubling turn names at most three seats")
            if not 0 <= seat < 4:
                raise ValueError(f"there is no seat {seat}")
            self.turn_seats[i] = seat
            self.n_targets[i] = len(targets)
            for k, (claimed, named) in enumerate(targets):
                self.claimed[i][k] = claimed
                self.named[i][k] = named

    def choice(self, list dealt):
        """The chooser's choice's factor for the guessed hands as ``dealt``."""
        cdef int m[4]
        cdef double values[MOST_CONTRACTS]
        cdef double top, total, t = self.choice_temperature
        cdef int i, base = self.chooser * 4
        if len(dealt) != 16 or self.chooser < 0 or not self.n_choices:
            raise ValueError("a choice is weighed in sixteen hand masks, with a chooser")
        _read_hand(m, dealt, base)
        for i in range(self.n_choices):
            values[i] = _estimate(m, &self.choices[i]) - self.averages[i] - self.premiums[i]
        top = values[0]
        for i in range(1, self.n_choices):
            top = fmax_first(top, values[i])
        total = 0.0
        for i in range(self.n_choices):
            total += exp((values[i] - top) / t)
        return exp((values[self.chosen] - top) / t) / total

    def doubles(self, list dealt, double cards, double below):
        """The doubling turns' factor, or the factor so far once it times ``cards`` is
        under ``below``."""
        cdef int m[4]
        cdef double weight = 1.0, mine, lead, edge, p
        cdef int i, k
        if len(dealt) != 16:
            raise ValueError("doubling turns are weighed in sixteen hand masks")
        for i in range(self.n_turns):
            if fmax_first(weight * cards, self.floor) < below:
                break
            _read_hand(m, dealt, self.turn_seats[i] * 4)
            mine = _estimate(m, &self.contract)
            lead = mine - (self.total - mine) / 3
            for k in range(self.n_targets[i]):
                edge = lead - self.claimed[i][k] - self.need
                edge = fmin_first(50.0, edge / self.double_temperature)
                p = 1 / (1 + exp(-fmax_first(-50.0, edge)))
                weight *= p if self.named[i][k] else 1 - p
        return weight
