# cython: language_level=3, wraparound=False, cdivision=True
"""The normal player's card, :func:`bot.players.policy.python_normal_card`, in C.

The hard player's playouts and its inference ask the normal player for a card some
hundred thousand times a decision, and in Python those questions were half of its time
(and of the review's, which searches as it does). Built by Cython with the playout
kernel at install (``setup.py``); where it was not, :mod:`bot.players.policy` answers in
Python. The same rules on the same masks, in the same order: every tie falls the same
way (the first of equal keys, as Python's ``min`` and ``max``, or the last where the
Python compares with ``>=``), and each fractional score is the same sum of the same
doubles, so both give the same card for every position
(``tests/players/test_players_policy_compiled.py`` asks both about every position of
random playouts in every contract of several rule sets).

The position is read once into C integers: the seat's own four suits, what has been
played, the voids shown, the trick. A contract's tables are read once and kept while
the same contract is asked about (a playout's or a search's questions all are).

:class:`CardJudge` asks it on behalf of the hard player's inference, which weighs every
guess of the others' hands by whether each of their cards was the normal player's in
it: :meth:`bot.players.inference.Inference.python_cards` states how, and in Python that
judging (the questions, the legal cards, the bookkeeping around them) was a third of a
match review's time.
"""

from bot.engine._legal cimport trick_legal

cdef enum:
    MOST_MOMENTS = 52  # the others' cards a deal can hold: fewer than its 52
    FULL = 0x1FFF  # all thirteen ranks of a suit
    EIGHT = 6
    KING = 11
    ACE = 12
    ACES_HIGH = 0
    ACES_LOW = 1


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil


cdef inline int count(int mask) noexcept nogil:
    return __builtin_popcount(<unsigned int>mask)


cdef inline int high(int mask) noexcept nogil:
    """The highest rank index set in ``mask``, -1 when none (Python's ``bit_length() - 1``)."""
    return 31 - __builtin_clz(<unsigned int>mask) if mask else -1


cdef inline int low(int mask) noexcept nogil:
    """The lowest rank index set in ``mask``, -1 when none."""
    return __builtin_ctz(<unsigned int>mask) if mask else -1


cdef struct Table:
    # The contract as the normal player reads it.
    bint domino
    int per_trick
    int trump  # -1: no trumps
    bint counts_cards  # card_points not empty
    bint only_given  # only given tricks count (the 13th; the 7th and the 13th)
    int points[52]  # point_table
    int tricks[14]  # trick_table


cdef struct Seen:
    # One question: the seat's own hand and what it may know of the rest.
    int seat
    int mine[4]
    int out[4]  # each suit's cards still held by the other three seats
    int voids[4]  # suit bits per seat
    int trick[4]
    int size
    int tricks_done
    int legal[4]


cdef object _contract = None  # the contract :data:`_table` was read from, kept alive
cdef Table _table


cdef void _read_contract(contract) except *:
    global _contract
    cdef int i
    _table.domino = contract.domino
    _table.per_trick = contract.per_trick
    _table.trump = -1 if contract.trump is None else int(contract.trump)
    _table.counts_cards = bool(contract.card_points)
    _table.only_given = any(contract.trick_points.values()) and not (
        contract.per_trick or contract.card_points
    )
    point_table, trick_table = contract.point_table, contract.trick_table
    for i in range(52):
        _table.points[i] = point_table[i]
    for i in range(14):
        _table.tricks[i] = trick_table[i]
    _contract = contract


def normal_card(pos, int seat, legal):
    """The normal player's card (an index ``suit * 13 + rank``) among ``legal``; a
    position that could index past the C arrays (no such seat, trick card or trick
    number) raises :class:`ValueError` instead."""
    if not 0 <= seat < 4:
        raise ValueError(f"there is no seat {seat}")
    contract = pos.contract
    if contract is not _contract:
        _read_contract(contract)
    cdef Seen q
    cdef int s
    cdef list hands = pos.hands
    q.seat = seat
    for s in range(4):
        q.legal[s] = legal[s]
        if not 0 <= q.legal[s] <= FULL:
            raise ValueError(f"{legal[s]!r} is no mask of a suit's ranks")
        q.mine[s] = hands[seat * 4 + s]
    if _table.domino:
        return _domino(&q, pos.domino_high, pos.domino_aces)
    played, voids, trick = pos.played, pos.voids, pos.trick
    for s in range(4):
        q.out[s] = FULL & ~(<int>played[s]) & ~q.mine[s]
        q.voids[s] = voids[s]
    q.size = len(trick)
    q.tricks_done = pos.tricks_done
    if q.size > 3 or not 0 <= q.tricks_done < 13:
        raise ValueError(f"no card is asked for after {q.tricks_done} tricks and {trick}")
    for s in range(q.size):
        q.trick[s] = trick[s]
        if not 0 <= q.trick[s] < 52:
            raise ValueError(f"{trick[s]!r} in the trick is no card index")
    if _table.per_trick > 0:
        return _trumps(&q)
    return _negative(&q)


# -- negative contracts: duck, dump, make voids -----------------------------------------


cdef int _negative(Seen* q) noexcept:
    cdef int* pts = _table.points
    cdef int led, follow, base, win, under, r, i, value, card, best_value, best
    cdef int safe_low, safe_high, rank_low, rank_high
    if not q.size:
        if _table.only_given and not _table.tricks[q.tricks_done + 1]:
            return _discard(q)  # lead the card least safe to keep
        return _lead_low(q)
    led = q.trick[0] // 13
    follow = q.legal[led]
    if not follow:
        return _discard(q)
    if _table.only_given and _far_from_a_costly_trick(q.tricks_done + 1):
        return led * 13 + high(follow)
    base = led * 13
    win = -1
    for i in range(q.size):
        card = q.trick[i]
        if card // 13 == led and card - base > win:
            win = card - base
    under = follow & ((1 << win) - 1)
    if under:
        # Duck as high as possible, shedding a point card if one fits under: the largest
        # (-points, rank).
        best_value, best = 0, -1
        for r in range(13):
            if under >> r & 1:
                value = -pts[base + r]
                if best < 0 or value >= best_value:
                    best_value, best = value, r
        return base + best
    if q.size == 3:
        # The trick is mine whatever I play: the largest (points, rank).
        best_value, best = 0, -1
        for r in range(13):
            if follow >> r & 1:
                value = pts[base + r]
                if best < 0 or value >= best_value:
                    best_value, best = value, r
        return base + best
    safe_low = safe_high = -1
    for r in range(13):
        if follow >> r & 1 and not pts[base + r]:
            if safe_low < 0:
                safe_low = r
            safe_high = r
    if safe_low < 0:
        safe_low, safe_high = low(follow), high(follow)
    if q.out[led] >> (safe_low + 1):
        return base + safe_low  # someone may still go over: stay low
    return base + safe_high  # I take it anyway: shed my highest


cdef bint _far_from_a_costly_trick(int number) noexcept:
    """Trick ``number`` costs nothing, nor do the next three (Last trick: tricks 1-9)."""
    cdef int n
    for n in range(number, min(number + 4, 14)):
        if _table.tricks[n]:
            return False
    return True


cdef double _danger(Seen* q, int suit, int top) noexcept:
    """How likely holding ``top`` of ``suit`` makes this seat take a costly trick later."""
    cdef int lower_out = q.out[suit] & ((1 << top) - 1)
    cdef int points_under = 0, r
    for r in range(13):
        if lower_out >> r & 1:
            points_under -= _table.points[suit * 13 + r]
    return (
        <double>count(lower_out)
        + <double>points_under / 10
        + <double>top / 13
        - <double>count(q.mine[suit]) / 4
    )


cdef int _discard(Seen* q) noexcept:
    """Shed the costliest point card, else the top of the most dangerous suit."""
    cdef int worst = 0, worst_card = -1, s, r, value, top, card = -1
    cdef double best = -1e9, danger
    for s in range(4):
        for r in range(13):
            if q.legal[s] >> r & 1:
                value = _table.points[s * 13 + r]
                if value < worst or (value == worst and value < 0 and s * 13 + r > worst_card):
                    worst, worst_card = value, s * 13 + r
    if worst_card >= 0:
        return worst_card
    for s in range(4):
        if q.legal[s]:
            top = high(q.legal[s])
            danger = _danger(q, s, top)
            if danger > best:
                best, card = danger, s * 13 + top
    return card


cdef int _lead_low(Seen* q) noexcept:
    """Lead the lowest card least likely to win; prefer short suits (toward a void)."""
    cdef int others_void = 0, s, mask, rank, lower, higher, length, card = -1
    cdef int seat = q.seat
    cdef double risk, best_risk = 1e9
    cdef int best_length = 0
    if _table.counts_cards:
        others_void = q.voids[(seat + 1) & 3] | q.voids[(seat + 2) & 3] | q.voids[(seat + 3) & 3]
    for s in range(4):
        mask = q.legal[s]
        if not mask:
            continue
        rank = low(mask)
        lower = count(q.out[s] & ((1 << rank) - 1))
        higher = count(q.out[s] >> (rank + 1))
        risk = 2.0 + lower if not higher else <double>lower / (lower + higher)
        if others_void >> s & 1:
            risk += 0.3
        length = count(q.mine[s])
        if risk < best_risk or (risk == best_risk and length < best_length):
            best_risk, best_length, card = risk, length, s * 13 + rank
    return card


# -- trump contracts: win tricks, draw trumps, ruff ------------------------------------


cdef int _trumps(Seen* q) noexcept:
    cdef int led, follow
    if not q.size:
        return _trump_lead(q, _table.trump)
    led = q.trick[0] // 13
    follow = q.legal[led]
    if follow:
        return _trump_follow(q, follow, led, _table.trump)
    return _trump_void(q, _table.trump)


cdef int _trump_lead(Seen* q, int t) noexcept:
    cdef int trumps_out = q.out[t] if t >= 0 else 0
    cdef int top, s, mask, best = -1, card = -1, suit = -1, length
    cdef bint ruffable, any_side = False
    if t >= 0 and q.legal[t] and trumps_out:
        top = high(q.legal[t])
        if not trumps_out >> (top + 1) or count(q.legal[t]) > count(trumps_out):
            return t * 13 + top  # draw trumps with a winner, or with length
    for s in range(4):
        mask = q.legal[s]
        if s == t or not mask:
            continue
        top = high(mask)
        if q.out[s] >> (top + 1):
            continue
        ruffable = trumps_out and (not q.out[s] or _may_ruff(q, s, t, 1, 3))
        if not ruffable and count(q.out[s]) > best:
            best, card = count(q.out[s]), s * 13 + top
    if card >= 0:
        return card  # cash a master
    if t >= 0 and q.legal[t] and not trumps_out:
        return t * 13 + high(q.legal[t])
    for s in range(4):
        if q.legal[s] and s != t:
            any_side = True
    cdef bint shorten = t >= 0 and q.mine[t]
    for s in range(4):
        if not q.legal[s] or (any_side and s == t):
            continue
        length = count(q.legal[s])
        if suit < 0 or (length < best if shorten else length > best):
            # shorten a side suit to ruff, else establish the long suit (the first of equals)
            best, suit = length, s
    return suit * 13 + low(q.legal[suit])


cdef int _trump_follow(Seen* q, int follow, int led, int t) noexcept:
    cdef int base = led * 13, i, card, win = -1, over, after, masters, top_out
    cdef bint ruff_risk
    if led != t:
        for i in range(q.size):
            if q.trick[i] // 13 == t:
                return base + low(follow)  # already trumped: keep the good cards
    for i in range(q.size):
        card = q.trick[i]
        if card // 13 == led and card - base > win:
            win = card - base
    over = follow >> (win + 1) << (win + 1)
    if not over:
        return base + low(follow)
    after = 3 - q.size
    if not after:
        return base + low(over)
    ruff_risk = t >= 0 and led != t and q.out[t] and _may_ruff(q, led, t, 1, after)
    if q.out[led]:
        top_out = high(q.out[led])
        masters = over >> (top_out + 1) << (top_out + 1)
    else:
        masters = over
    if masters and not ruff_risk:
        return base + low(masters)
    return base + low(follow)


cdef bint _may_ruff(Seen* q, int suit, int t, int first, int last) noexcept:
    """Whether one of the seats ``first``-``last`` after this one (1 is the next) has
    shown a void in ``suit`` and not in trumps ``t``: with ``must_trump`` a discard shows
    both."""
    cdef int k, shown
    for k in range(first, last + 1):
        shown = q.voids[(q.seat + k) & 3]
        if shown >> suit & 1 and not shown >> t & 1:
            return True
    return False


cdef int _trump_void(Seen* q, int t) noexcept:
    cdef int top = -1, i, card, over, s, mask, master, length, best_master = 99
    cdef int best_length = 99, chosen = -1
    if t >= 0 and q.legal[t]:
        for i in range(q.size):
            card = q.trick[i]
            if card // 13 == t and card % 13 > top:
                top = card % 13
        over = q.legal[t] >> (top + 1) << (top + 1)
        if over:
            return t * 13 + low(over)  # ruff as cheaply as wins
    for s in range(4):
        mask = q.legal[s]
        if not mask:
            continue
        master = 2 if s == t else (0 if q.out[s] >> (high(mask) + 1) else 1)
        length = count(mask)
        if master < best_master or (master == best_master and length < best_length):
            best_master, best_length, chosen = master, length, s * 13 + low(mask)
    return chosen


# -- Domino: unlock your own cards, block the others ------------------------------------


cdef int _domino(Seen* q, domino_high, int aces) except? -2:
    """Lay the card with the most of my own cards behind it, that opens least to the
    others, as :func:`bot.players.policy._domino` says."""
    cdef bint low_aces = aces != ACES_HIGH, high_aces = aces != ACES_LOW
    cdef int s, r, mine, rest, below, above, behind, opens, reach, card = -1
    cdef double score, best = -1e9
    for s in range(4):
        mine = q.mine[s]
        for r in range(13):
            if not q.legal[s] >> r & 1:
                continue
            rest = mine & ~(1 << r)
            if r == EIGHT and <int>domino_high[s] < 0:
                behind = count(rest)
                opens = (not rest >> (EIGHT - 1) & 1) + (not rest >> (EIGHT + 1) & 1)
                reach = max(high(rest) - EIGHT, EIGHT - low(rest)) if rest else 0
            elif r < EIGHT:
                below = rest & ((1 << r) - 1)
                behind = count(below)
                opens = r > 0 and not rest >> (r - 1) & 1
                reach = r - low(below) if below else 0
                if low_aces and rest >> ACE & 1:  # my ace lies beyond my 2
                    behind += 1
                    reach = r + 1
                elif low_aces and not r:  # my 2 opens the ace's place to the others
                    opens = 1
            else:
                above = (rest if high_aces else rest & ~(1 << ACE)) >> (r + 1)
                behind = count(above)
                opens = r < ACE and (high_aces or r < KING) and not rest >> (r + 1) & 1
                reach = high(above) + 1 if above else 0
            score = <double>(3 * behind - 2 * opens) + <double>reach / 10
            if score > best:
                best, card = score, s * 13 + r
    return card


# -- the inference's judge: was each of the others' cards the normal player's? ---------


cdef struct Moment:
    # One of the others' cards, with what its seat's legal cards and the normal player's
    # choice read besides that seat's hand (bot.players.inference._Moment, read once).
    int seat
    int bit  # among the seat's moments
    int card
    int earlier[4]  # the seat's cards played before it
    int played[4]
    int voids[4]
    int trick[3]
    int size
    int tricks_done
    int led  # -1: a lead
    int top  # the trick's highest trump, -1 for none
    bint hearts_barred
    int connect[4]  # Domino: the ranks that connect to each row
    int aces


cdef class CardJudge:
    """:meth:`bot.players.inference.Inference.python_cards` in C, for one decision's
    inference: the same moments judged in the same order (the likeliest to slip first,
    sorted again every sixteen guesses as there), the same memo of each seat's judged and
    slipped moments by its guessed hand, the same slip factor multiplied in one slip at a
    time. So it returns the same factor and flag for every guess, and leaves the memo as
    the Python does (``tests/players/test_players_inference_compiled.py`` weighs guesses
    both ways). A moment that could index past the C arrays is refused with
    :class:`ValueError`, as :func:`normal_card` refuses such a position."""

    cdef Moment moments[MOST_MOMENTS]
    cdef int n
    cdef int order[MOST_MOMENTS]
    cdef long slips[MOST_MOMENTS]
    cdef int seats[4]
    cdef int nseats
    cdef int all_judged[4]
    cdef double powers[MOST_MOMENTS + 1]
    cdef double floor
    cdef long weighed
    cdef object contract
    cdef dict memo
    cdef list highs  # Domino: each moment's rows' high ends, as _domino reads them
    cdef int trump
    cdef bint must_trump, overtrump

    def __init__(
        self,
        contract,
        list moments,
        double card_slip,
        double floor,
        dict memo,
        int trump,
        bint must_trump,
        bint overtrump,
    ):
        """``moments``: one tuple per judged card, in :attr:`Inference.order`'s first
        order: (seat, bit, card, earlier, played, voids, trick, tricks done, suit led, top
        trump, hearts barred, Domino connects, Domino highs, Domino aces)."""
        cdef int k, s, seat
        cdef Moment* m
        if len(moments) > MOST_MOMENTS:
            raise ValueError(f"{len(moments)} moments are more than a deal holds")
        if not -1 <= trump < 4 or (must_trump and trump < 0):
            raise ValueError(f"no trump suit {trump} (a trump a must: {must_trump})")
        self.contract, self.memo, self.floor = contract, memo, floor
        self.trump, self.must_trump, self.overtrump = trump, must_trump, overtrump
        self.n = len(moments)
        self.nseats = 0
        self.highs = []
        for s in range(4):
            self.all_judged[s] = 0
        for k, row in enumerate(moments):
            m = &self.moments[k]
            (seat, m.bit, m.card, earlier, played, voids, trick, m.tricks_done, m.led, m.top,
             m.hearts_barred, connect, high, m.aces) = row
            if (
                not 0 <= seat < 4
                or not 0 <= m.card < 52
                or len(trick) > 3
                or any(not 0 <= card < 52 for card in trick)
                or not 0 <= m.tricks_done < 13
                or not -1 <= m.led < 4
                or not -1 <= m.top < 13
            ):
                raise ValueError(f"no moment of a deal: {row!r}")
            m.seat = seat
            for s in range(4):
                m.earlier[s], m.played[s], m.voids[s] = earlier[s], played[s], voids[s]
                m.connect[s] = connect[s]
            m.size = len(trick)
            for s in range(m.size):
                m.trick[s] = trick[s]
            self.highs.append(list(high))
            self.order[k] = k
            self.slips[k] = 0
            if not self.all_judged[seat]:
                self.seats[self.nseats] = seat
                self.nseats += 1
            self.all_judged[seat] |= m.bit
        self.powers[0] = 1.0
        for k in range(1, self.n + 1):
            self.powers[k] = self.powers[k - 1] * card_slip
        self.weighed = 0

    def cards(self, list dealt, double below):
        """The cards' factor and True, or the factor so far and False once it is under
        ``below``: :meth:`~bot.players.inference.Inference.python_cards`."""
        cdef int hands[16]
        cdef int judged[4]
        cdef int slipped[4]
        cdef int i, k, seat, bit, slips = 0
        cdef bint whole, done = True
        if self.contract is not _contract:
            _read_contract(self.contract)
        for i in range(16):
            hands[i] = dealt[i]
        keys = []
        for i in range(self.nseats):
            seat = self.seats[i]
            key = (seat, hands[seat * 4], hands[seat * 4 + 1], hands[seat * 4 + 2],
                   hands[seat * 4 + 3])
            keys.append(key)
            known = self.memo.get(key)
            if known is None:
                judged[seat] = slipped[seat] = 0
            else:
                judged[seat], slipped[seat] = known
            slips += count(slipped[seat])
            done = done and judged[seat] == self.all_judged[seat]
        whole = max(self.powers[slips], self.floor) >= below
        if whole and not done:
            for i in range(self.n):
                k = self.order[i]
                seat, bit = self.moments[k].seat, self.moments[k].bit
                if judged[seat] & bit:
                    continue
                judged[seat] |= bit
                if self._slipped(k, &hands[seat * 4]):
                    slipped[seat] |= bit
                    self.slips[k] += 1
                    slips += 1
                    if max(self.powers[slips], self.floor) < below:
                        whole = False
                        break
        for i in range(self.nseats):
            seat = self.seats[i]
            self.memo[keys[i]] = (judged[seat], slipped[seat])
        self.weighed += 1
        if not self.weighed & 15:
            self._sort()
        return self.powers[slips], whole

    cdef int _slipped(self, int k, int* dealt) except -1:
        """1 if moment ``k``'s card was not the normal player's for its seat's guessed
        hand as ``dealt`` (four masks), else 0: :func:`bot.players.inference._slipped`."""
        cdef Moment* m = &self.moments[k]
        cdef Seen q
        cdef int s, card
        q.seat = m.seat
        for s in range(4):
            q.mine[s] = dealt[s] & ~m.earlier[s]
        if _table.domino:
            for s in range(4):
                q.legal[s] = q.mine[s] & m.connect[s]
        else:
            trick_legal(q.legal, q.mine, m.led, m.top, self.trump, self.must_trump,
                        self.overtrump, m.hearts_barred)
        if count(q.legal[0]) + count(q.legal[1]) + count(q.legal[2]) + count(q.legal[3]) <= 1:
            return 0
        if _table.domino:
            card = _domino(&q, self.highs[k], m.aces)
        else:
            for s in range(4):
                q.out[s] = FULL & ~m.played[s] & ~q.mine[s]
                q.voids[s] = m.voids[s]
            q.size = m.size
            for s in range(m.size):
                q.trick[s] = m.trick[s]
            q.tricks_done = m.tricks_done
            card = _trumps(&q) if _table.per_trick > 0 else _negative(&q)
        return card != m.card

    cdef void _sort(self) noexcept:
        """The moments that slipped most often first, the others in the order they had:
        Python's stable sort by the count."""
        cdef int i, j, k
        for i in range(1, self.n):
            k = self.order[i]
            j = i - 1
            while j >= 0 and self.slips[self.order[j]] < self.slips[k]:
                self.order[j + 1] = self.order[j]
                j -= 1
            self.order[j + 1] = k
