# cython: language_level=3
"""The legal cards of a trick contract, in C: :func:`bot.engine.fast.trick_legal`'s rule,
stated once for the compiled loops that ask it many times (the kernel's policy playout,
``_kernel.pyx``, and the inference's judge of the others' cards, ``bot/players/_policy.pyx``).

The callers read from their own kinds of position what the rule needs beyond the hand:
the suit led, the highest trump in the trick, and whether a heart may not be led now
(:func:`bot.engine.fast.heart_lead_barred`)."""


cdef inline int trumps_above(int trumps, int top) noexcept nogil:
    """``overtrump``: the trumps of ``trumps`` (a rank mask) above rank index ``top``
    (the trick's highest trump, -1 when it holds none), or all of them when none is."""
    cdef int higher = trumps >> (top + 1) << (top + 1)
    return higher if higher else trumps


cdef inline void trick_legal(
    int* legal,
    const int* hand,
    int led,
    int top,
    int trump,
    bint must_trump,
    bint overtrump,
    bint hearts_barred,
) noexcept nogil:
    """Fill ``legal`` (four rank masks) with the cards of ``hand`` (four rank masks) that
    may be played: with ``led`` the suit led (-1 for a lead), ``top`` the trick's highest
    trump (-1 for none), ``trump`` the trump suit (-1 for none), ``must_trump`` and
    ``overtrump`` the contract's rule for a seat that cannot follow, ``hearts_barred``
    whether a heart may not be led now."""
    cdef int follow
    legal[0], legal[1], legal[2], legal[3] = hand[0], hand[1], hand[2], hand[3]
    if led >= 0:
        follow = hand[led]
        if follow:
            if overtrump and led == trump:
                follow = trumps_above(follow, top)
            legal[0] = legal[1] = legal[2] = legal[3] = 0
            legal[led] = follow
        elif must_trump and hand[trump]:  # cannot follow suit: a trump it must be
            follow = trumps_above(hand[trump], top) if overtrump else hand[trump]
            legal[0] = legal[1] = legal[2] = legal[3] = 0
            legal[trump] = follow
    elif hearts_barred and (hand[0] | hand[1] | hand[3]):
        legal[2] = 0
