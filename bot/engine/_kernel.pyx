# cython: language_level=3, wraparound=False, cdivision=True
"""The compiled random playout: :func:`bot.engine.fast.python_random_playout` in C.

Built by Cython and the C compiler when the package is installed (``setup.py``); where
there is no compiler the build skips it and :mod:`bot.engine.fast` plays with its
pure-Python loops, the same rules on the same masks. Both draw the same random numbers in
the same order (``int(rnd() * count)`` per card with a choice), so one seed plays the
same cards either way: ``tests/engine/test_fast.py`` replays both through the public API
move for move and requires them to agree with each other.

A position's sixteen hand masks, its trick and its scores are copied into C arrays,
played out there and written back into the same lists, so the caller sees
:class:`~bot.engine.fast.FastPosition` mutated exactly as the pure-Python loop leaves it.
Indexes into the position's lists stay bounds-checked, and a policy's card is checked
before it indexes a C array: a malformed position or policy raises, never reads past
memory.
"""

from .house_rules import HeartLead, MustTrump

from ._legal cimport trick_legal, trumps_above

cdef enum:
    FULL = 0x1FFF  # all thirteen ranks of a suit
    EIGHT = 6
    KING = 11
    ACE = 12
    ACES_HIGH = 0
    ACES_LOW = 1

# COUNT[mask]: how many ranks a 13-bit mask holds.
cdef unsigned char COUNT[8192]
cdef int _mask
for _mask in range(8192):
    COUNT[_mask] = COUNT[_mask >> 1] + (_mask & 1) if _mask else 0


cdef inline int nth_rank(int mask, int n) noexcept nogil:
    """The rank index of the ``n``-th rank (from 0, low first) set in ``mask``."""
    cdef int rank = 0
    while True:
        if mask >> rank & 1:
            if n == 0:
                return rank
            n -= 1
        rank += 1


cdef inline int trumps_over(int trumps, int* trick, int size, int trump) noexcept nogil:
    """``overtrump``: the trumps above the trick's highest trump, or all when none is."""
    cdef int top = -1, i, card
    for i in range(size):
        card = trick[i]
        if card // 13 == trump and card % 13 > top:
            top = card % 13
    return trumps_above(trumps, top)


cdef inline int connect(int lo, int hi, int aces) noexcept nogil:
    """The ranks that connect to a Domino row from ``lo`` to ``hi`` (``hi`` -1: not
    started; ``lo`` -1: an ace next to the 2), as :func:`bot.engine.fast._connect`."""
    if hi < 0:
        return 1 << EIGHT
    cdef int below, above
    if lo > 0:
        below = 1 << (lo - 1)
    elif lo == 0 and aces != ACES_HIGH:
        below = 1 << ACE
    else:
        below = 0
    if hi < KING:
        above = 1 << (hi + 1)
    elif hi == KING and aces != ACES_LOW:
        above = 1 << ACE
    else:
        above = 0
    return below | above


cdef inline int pick_card(int* legal, double draw) noexcept nogil:
    """The card index that ``draw`` (in [0, 1)) picks uniformly among the legal ranks of
    the four suits, counted suit by suit, low rank first: the pure-Python loop's pick."""
    cdef int n0 = COUNT[legal[0]], n1 = COUNT[legal[1]], n2 = COUNT[legal[2]]
    cdef int pick = <int>(draw * (n0 + n1 + n2 + COUNT[legal[3]]))
    if pick < n0:
        return nth_rank(legal[0], pick)
    if pick < n0 + n1:
        return 13 + nth_rank(legal[1], pick - n0)
    if pick < n0 + n1 + n2:
        return 26 + nth_rank(legal[2], pick - n0 - n1)
    return 39 + nth_rank(legal[3], pick - n0 - n1 - n2)


def random_playout(pos, rnd, list trace):
    """Play ``pos`` out with ``rnd()`` choosing uniformly among the legal cards; return
    ``pos.base``. As :func:`bot.engine.fast.python_random_playout`, ``rng.random`` given."""
    if pos.contract.domino:
        return _domino_playout(pos, rnd, trace)
    return _trick_playout(pos, rnd, trace)


cdef _trace(list trace, int seat, int* legal, int card):
    trace.append((seat, (legal[0], legal[1], legal[2], legal[3]), card))


cdef _trick_playout(pos, rnd, list trace):
    contract = pos.contract
    cdef list hands = pos.hands, trick_list = pos.trick, base_list = pos.base
    cdef int h[16]
    cdef int trick[4]
    cdef int base[4]
    cdef int card_points[52]
    cdef int trick_points[14]
    cdef int legal[4]
    cdef int i
    for i in range(16):
        h[i] = hands[i]
    for i in range(4):
        base[i] = base_list[i]
    cdef int size = len(trick_list)
    for i in range(size):
        trick[i] = trick_list[i]
    point_table = contract.point_table
    cdef bint counts_cards = bool(contract.card_points)
    if counts_cards:
        for i in range(52):
            card_points[i] = point_table[i]
    trick_table = contract.trick_table
    for i in range(14):
        trick_points[i] = trick_table[i]
    cdef int trump = -1 if contract.trump is None else int(contract.trump)
    cdef int per_trick = contract.per_trick
    cdef bint no_heart_lead = contract.heart_lead is not None
    cdef bint until_broken = contract.heart_lead is HeartLead.BROKEN
    cdef bint must_trump = trump >= 0 and contract.must_trump is not MustTrump.NO
    cdef bint overtrump = must_trump and contract.must_trump is MustTrump.OVERTRUMP
    cdef bint ends_early = contract.ends_when_cards_taken
    cdef int points_left = pos.points_left
    cdef int leader = pos.leader
    cdef int seat = pos.to_act
    cdef int number = pos.tricks_done
    cdef int b, led, follow, card, suit, rank, best, best_pos, position, winner, points, taken
    cdef bint trumped
    while number < 13:
        # Play the rest of the current trick, starting from the seat to act.
        while size < 4:
            b = seat * 4
            legal[0], legal[1], legal[2], legal[3] = h[b], h[b + 1], h[b + 2], h[b + 3]
            if size:
                led = trick[0] // 13
                follow = h[b + led]
                if follow:
                    if overtrump and led == trump:  # beat the trick's highest trump
                        follow = trumps_over(follow, trick, size, trump)
                    legal[0] = legal[1] = legal[2] = legal[3] = 0
                    legal[led] = follow
                    card = led * 13 + nth_rank(follow, <int>(<double>rnd() * COUNT[follow]))
                elif must_trump and h[b + trump]:  # cannot follow suit: a trump it must be
                    follow = h[b + trump]
                    if overtrump:
                        follow = trumps_over(follow, trick, size, trump)
                    legal[0] = legal[1] = legal[2] = legal[3] = 0
                    legal[trump] = follow
                    card = pick_card(legal, rnd())
                else:
                    card = pick_card(legal, rnd())
            else:
                if (
                    no_heart_lead
                    and (legal[0] | legal[1] | legal[3])
                    and not (until_broken and (h[2] | h[6] | h[10] | h[14]) != FULL)
                ):
                    legal[2] = 0  # no heart lead (unless one has been played, until_broken)
                card = pick_card(legal, rnd())
            if trace is not None:
                _trace(trace, seat, legal, card)
            h[b + card // 13] ^= 1 << (card % 13)
            trick[size] = card
            size += 1
            seat = (seat + 1) & 3
        # Who takes it (:func:`bot.engine.fast.winning_position`), what it scores.
        led = trick[0] // 13
        best, best_pos, trumped = trick[0] % 13, 0, led == trump
        for position in range(1, 4):
            suit, rank = trick[position] // 13, trick[position] % 13
            if suit == trump:
                if not trumped or rank > best:
                    best, best_pos, trumped = rank, position, True
            elif suit == led and not trumped and rank > best:
                best, best_pos = rank, position
        winner = (leader + best_pos) & 3
        number += 1
        points = per_trick
        if counts_cards:
            taken = (
                card_points[trick[0]]
                + card_points[trick[1]]
                + card_points[trick[2]]
                + card_points[trick[3]]
            )
            points += taken
            points_left -= taken
        points += trick_points[number]
        base[winner] += points
        size = 0
        leader = seat = winner
        if ends_early and points_left == 0:
            break
    for i in range(16):
        hands[i] = h[i]
    for i in range(4):
        base_list[i] = base[i]
    del trick_list[:]
    for i in range(size):
        trick_list.append(trick[i])
    pos.leader, pos.to_act, pos.tricks_done, pos.points_left = leader, seat, number, points_left
    return base_list


cdef _domino_playout(pos, rnd, list trace):
    cdef list hands = pos.hands, low_list = pos.domino_low, high_list = pos.domino_high
    cdef list out = pos.domino_out
    cdef int h[16]
    cdef int low[4]
    cdef int high[4]
    cdef int connects[4]
    cdef int held[4]
    cdef int legal[4]
    cdef int i, s
    for i in range(16):
        h[i] = hands[i]
    for s in range(4):
        low[s], high[s] = low_list[s], high_list[s]
    cdef int aces = pos.domino_aces
    for s in range(4):
        connects[s] = connect(low[s], high[s], aces)
        held[s] = COUNT[h[s * 4]] + COUNT[h[s * 4 + 1]] + COUNT[h[s * 4 + 2]] + COUNT[h[s * 4 + 3]]
    cdef int seat = pos.to_act
    cdef int out_count = len(out)
    cdef int b, card, suit, rank
    while out_count < 3:
        b = seat * 4
        for s in range(4):
            legal[s] = h[b + s] & connects[s]
        if not (legal[0] | legal[1] | legal[2] | legal[3]):
            seat = (seat + 1) & 3  # an automatic pass (or a seat that is out)
            continue
        card = pick_card(legal, rnd())
        if trace is not None:
            _trace(trace, seat, legal, card)
        suit, rank = card // 13, card % 13
        h[b + suit] ^= 1 << rank
        if high[suit] < 0:
            low[suit] = high[suit] = rank
        elif rank == ACE:  # high after its king when the aces may go high, else low
            if high[suit] == KING and aces != ACES_LOW:
                high[suit] = ACE
                aces = ACES_HIGH
            else:
                low[suit] = -1
                aces = ACES_LOW
            for s in range(4):  # the first ace fixes the way for every row
                connects[s] = connect(low[s], high[s], aces)
        elif rank < low[suit]:
            low[suit] = rank
        else:
            high[suit] = rank
        connects[suit] = connect(low[suit], high[suit], aces)
        held[seat] -= 1
        if not held[seat]:
            out.append(seat)
            out_count += 1
        seat = (seat + 1) & 3
    for i in range(16):
        hands[i] = h[i]
    for s in range(4):
        low_list[s], high_list[s] = low[s], high[s]
    loser = 6 - sum(out)
    pos.base[loser] = pos.contract.last_holder
    pos.to_act = loser
    pos.domino_aces = aces
    return pos.base


# -- policy playouts: a Python policy chooses each card, the loop around it in C --------


def policy_playout(pos, policy, list trace):
    """Play ``pos`` out with ``policy(pos, seat, legal)`` choosing every card that is not
    forced; return ``pos.base``. As :func:`bot.engine.fast.python_policy_playout`: the
    position's lists and fields are kept up to date before each question to the policy."""
    if pos.contract.domino:
        return _domino_policy_playout(pos, policy, trace)
    return _trick_policy_playout(pos, policy, trace)


cdef int _card_of(choice) except -1:
    """A policy's card index, refused unless it is one (0-51): it indexes C arrays."""
    cdef int card = choice
    if not 0 <= card < 52:
        raise ValueError(f"a policy chose {card!r}, which is no card index")
    return card


cdef int top_trump(list trick, int trump):
    """The highest trump's rank index in a trick held in a Python list, -1 when none."""
    cdef int top = -1, card
    for item in trick:
        card = item
        if card // 13 == trump and card % 13 > top:
            top = card % 13
    return top


cdef _trick_policy_playout(pos, policy, list trace):
    contract = pos.contract
    cdef list h = pos.hands, played = pos.played, voids = pos.voids, trick = pos.trick
    cdef list base = pos.base
    cdef int card_points[52]
    cdef int trick_points[14]
    cdef int legal[4]
    cdef int hand[4]
    cdef int i, top
    cdef bint barred
    cdef bint counts_cards = bool(contract.card_points)
    point_table = contract.point_table
    if counts_cards:
        for i in range(52):
            card_points[i] = point_table[i]
    trick_table = contract.trick_table
    for i in range(14):
        trick_points[i] = trick_table[i]
    cdef int trump = -1 if contract.trump is None else int(contract.trump)
    cdef int per_trick = contract.per_trick
    cdef bint no_heart_lead = contract.heart_lead is not None
    cdef bint until_broken = contract.heart_lead is HeartLead.BROKEN
    cdef bint must_trump = trump >= 0 and contract.must_trump is not MustTrump.NO
    cdef bint overtrump = must_trump and contract.must_trump is MustTrump.OVERTRUMP
    cdef bint ends_early = contract.ends_when_cards_taken
    cdef int seat = pos.to_act, leader = pos.leader
    cdef int tricks_done = pos.tricks_done, points_left = pos.points_left
    cdef int b, size, led, card, suit, rank, best, best_pos, position, winner
    cdef int points, taken, first
    cdef bint trumped
    while tricks_done < 13 and not (ends_early and points_left == 0):
        b = seat * 4
        hand[0], hand[1], hand[2], hand[3] = h[b], h[b + 1], h[b + 2], h[b + 3]
        size = len(trick)
        led = <int>trick[0] // 13 if size else -1
        top = top_trump(trick, trump) if size and overtrump else -1
        # No heart lead (unless one has been played, until_broken).
        barred = (
            not size
            and no_heart_lead
            and not (until_broken and (<int>h[2] | <int>h[6] | <int>h[10] | <int>h[14]) != FULL)
        )
        trick_legal(legal, hand, led, top, trump, must_trump, overtrump, barred)
        legal_masks = (legal[0], legal[1], legal[2], legal[3])
        if COUNT[legal[0]] + COUNT[legal[1]] + COUNT[legal[2]] + COUNT[legal[3]] == 1:
            suit = 0 if legal[0] else 1 if legal[1] else 2 if legal[2] else 3
            card = suit * 13 + nth_rank(legal[suit], 0)
        else:
            card = _card_of(policy(pos, seat, legal_masks))
        if trace is not None:
            trace.append((seat, legal_masks, card))
        suit, rank = card // 13, card % 13
        h[b + suit] = <int>h[b + suit] ^ (1 << rank)
        played[suit] = <int>played[suit] | (1 << rank)
        if size and suit != led:
            voids[seat] = <int>voids[seat] | (1 << led)
            if must_trump and suit != trump:  # a discard where a trump was a must
                voids[seat] = <int>voids[seat] | (1 << trump)
        trick.append(card)
        if size < 3:
            seat = (seat + 1) & 3
            pos.to_act = seat
            continue
        # The trick is complete: who takes it (:func:`bot.engine.fast.winning_position`),
        # what it scores, as :func:`bot.engine.fast._end_trick` does.
        first = trick[0]
        led = first // 13
        best, best_pos, trumped = first % 13, 0, led == trump
        for position in range(1, 4):
            card = trick[position]
            suit, rank = card // 13, card % 13
            if suit == trump:
                if not trumped or rank > best:
                    best, best_pos, trumped = rank, position, True
            elif suit == led and not trumped and rank > best:
                best, best_pos = rank, position
        winner = (leader + best_pos) & 3
        tricks_done += 1
        points = per_trick
        if counts_cards:
            taken = 0
            for position in range(4):
                taken += card_points[<int>trick[position]]
            points += taken
            points_left -= taken
        points += trick_points[tricks_done]
        base[winner] = <int>base[winner] + points
        del trick[:]
        leader = seat = winner
        pos.tricks_done, pos.points_left, pos.leader, pos.to_act = (
            tricks_done, points_left, leader, seat
        )
    return base


cdef _domino_policy_playout(pos, policy, list trace):
    cdef list h = pos.hands, played = pos.played, out = pos.domino_out
    cdef list low = pos.domino_low, high = pos.domino_high
    cdef int connects[4]
    cdef int legal[4]
    cdef int seat = pos.to_act, aces = pos.domino_aces
    cdef int b, s, step, card, suit, rank, nxt
    for s in range(4):
        connects[s] = connect(low[s], high[s], aces)
    while len(out) < 3:
        b = seat * 4
        for s in range(4):
            legal[s] = <int>h[b + s] & connects[s]
        legal_masks = (legal[0], legal[1], legal[2], legal[3])
        if COUNT[legal[0]] + COUNT[legal[1]] + COUNT[legal[2]] + COUNT[legal[3]] == 1:
            suit = 0 if legal[0] else 1 if legal[1] else 2 if legal[2] else 3
            card = suit * 13 + nth_rank(legal[suit], 0)
        else:
            card = _card_of(policy(pos, seat, legal_masks))
        if trace is not None:
            trace.append((seat, legal_masks, card))
        # :func:`bot.engine.fast.play_card` of a Domino card.
        suit, rank = card // 13, card % 13
        h[b + suit] = <int>h[b + suit] ^ (1 << rank)
        played[suit] = <int>played[suit] | (1 << rank)
        if <int>high[suit] < 0:
            low[suit] = high[suit] = rank
        elif rank == ACE:  # high after its king when the aces may go high, else low
            if high[suit] == KING and aces != ACES_LOW:
                high[suit] = ACE
                aces = ACES_HIGH
            else:
                low[suit] = -1
                aces = ACES_LOW
            pos.domino_aces = aces
            for s in range(4):  # the first ace fixes the way for every row
                connects[s] = connect(low[s], high[s], aces)
        elif rank < <int>low[suit]:
            low[suit] = rank
        else:
            high[suit] = rank
        connects[suit] = connect(low[suit], high[suit], aces)
        if not (<int>h[b] | <int>h[b + 1] | <int>h[b + 2] | <int>h[b + 3]):
            out.append(seat)
            if len(out) == 3:
                loser = 6 - sum(out)
                pos.base[loser] = pos.contract.last_holder
                pos.to_act = loser
                return pos.base
        for step in range(1, 5):  # the next seat that can play (the others pass)
            nxt = (seat + step) & 3
            b = nxt * 4
            if (
                <int>h[b] & connects[0]
                or <int>h[b + 1] & connects[1]
                or <int>h[b + 2] & connects[2]
                or <int>h[b + 3] & connects[3]
            ):
                break
        else:
            raise AssertionError("no seat can play in Domino; the deal cannot be stuck")
        seat = nxt
        pos.to_act = seat
    return pos.base
