# cython: language_level=3, wraparound=False, cdivision=True
"""The sampler's greedy deal, :meth:`bot.players.sampling.Sampler.python_greedy`, in C.

The hard player and the review draw some ten guesses for every one they keep, and the
greedy deal was a fifth of a review's time in Python. Built with the other compiled
parts at install (``setup.py``); where it was not, :mod:`bot.players.sampling` deals in
Python. The same deal from the same random numbers: ``random()`` is called as often and
in the same order, each card's key sorted as Python's stable sort does, and the seat
picked by the same subtraction of doubles, so a seed draws the same guesses either way
(``tests/players/test_players_sampling.py`` deals both from many seeds and positions).
"""

cdef void _sort(int* order, int* primary, double* secondary, int n) noexcept:
    """Sort the indexes ``order`` by (primary, secondary), stably (insertion sort: a
    few dozen cards at most)."""
    cdef int i, j, item
    for i in range(1, n):
        item = order[i]
        j = i - 1
        while j >= 0 and (
            primary[order[j]] > primary[item]
            or (primary[order[j]] == primary[item] and secondary[order[j]] > secondary[item])
        ):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = item


def greedy_deal(random, list room, list masks, tuple bound, tuple freedom, tuple options,
                tuple free, tuple others):
    """Deal ``bound`` (each card with its ``freedom`` and its ``options``, the seats that
    may hold it) in proportion to ``room``, then ``free`` shuffled to fill each of
    ``others``' room, into ``masks``; None when a bound card finds no seat with room.
    ``room`` and ``masks`` are the caller's copies, changed in place."""
    cdef int n = len(bound), m = len(free)
    if n > 52 or m > 52:
        raise ValueError("more than 52 cards to deal")
    cdef int order[52]
    cdef int primary[52]
    cdef double secondary[52]
    cdef int i, k, card, seat, chosen, total, start, r
    cdef double pick
    cdef tuple seats
    for i in range(n):
        order[i] = i
        primary[i] = freedom[i]
        secondary[i] = random()
    _sort(order, primary, secondary, n)
    for k in range(n):
        i = order[k]
        card = bound[i]
        seats = options[i]
        total = 0
        for seat in seats:
            total += <int>room[seat]
        if not total:
            return None
        pick = random() * total
        chosen = -1
        for seat in seats:
            r = room[seat]
            if r:
                chosen = seat
                pick -= r
                if pick < 0:
                    break
        masks[chosen * 4 + card // 13] = <int>masks[chosen * 4 + card // 13] | (1 << (card % 13))
        room[chosen] = <int>room[chosen] - 1
    for i in range(m):
        order[i] = i
        primary[i] = 0
        secondary[i] = random()
    _sort(order, primary, secondary, m)
    start = 0
    for seat in others:
        r = room[seat]
        for k in range(start, min(start + r, m)):
            card = free[order[k]]
            masks[seat * 4 + card // 13] = <int>masks[seat * 4 + card // 13] | (1 << (card % 13))
        start += r
    return masks
