"""The normal player's card play, as rules on bit masks, so search can use it in playouts.

One function serves both the normal player at the table and the hard player's playouts:
given a :class:`~bot.engine.fast.FastPosition`, the seat to act and its legal cards (rank
masks per suit), it picks a card index using only what that seat may know: its own hand,
the cards played so far (``pos.played``), the current trick and the voids shown
(``pos.voids``). It never looks at another seat's hand, so a playout with this policy is
a fair imitation of four normal players.

Masks hold rank indexes 0 (two) ... 12 (ace); ``out[s]`` is the cards of suit ``s`` still
held by the other three seats.

The rules are stated here, in :func:`python_normal_card`; ``_policy.pyx`` is the same in
C, built with the playout kernel at install (:data:`COMPILED`), and :func:`normal_card`
is that one where it was built: in Python the normal player's questions were half of
the hard player's search. The tests ask both about every position of many playouts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.engine.fast import ACE, ACES_HIGH, ACES_LOW, BITS, EIGHT, KING, FastPosition, Policy

FULL = (1 << 13) - 1


def _high(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def python_normal_card(pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int:
    """The normal player's card (an index ``suit * 13 + rank``) among ``legal``."""
    contract = pos.contract
    if contract.domino:
        return _domino(pos, seat, legal)
    h = pos.hands
    b = seat * 4
    played = pos.played
    out = [
        FULL & ~played[0] & ~h[b],
        FULL & ~played[1] & ~h[b + 1],
        FULL & ~played[2] & ~h[b + 2],
        FULL & ~played[3] & ~h[b + 3],
    ]
    if contract.per_trick > 0:
        return _trumps(pos, seat, legal, out)
    return _negative(pos, seat, legal, out)


# -- negative contracts: duck, dump, make voids -----------------------------------------


def _negative(pos: FastPosition, seat: int, legal: tuple[int, ...], out: list[int]) -> int:
    contract = pos.contract
    pts = contract.point_table
    trick = pos.trick
    # Where only given tricks count (the 13th; the 7th and the 13th), a trick that counts
    # nothing and is far from the next that does is the time to shed high cards freely.
    only_given = any(contract.trick_points.values()) and not (
        contract.per_trick or contract.card_points
    )
    if not trick:
        if only_given and not contract.trick_table[pos.tricks_done + 1]:
            return _discard(pos, seat, legal, out, pts)  # lead the card least safe to keep
        return _lead_low(pos, seat, legal, out, pts)
    led = trick[0] // 13
    follow = legal[led]
    if not follow:
        return _discard(pos, seat, legal, out, pts)
    if only_given and _far_from_a_costly_trick(contract.trick_table, pos.tricks_done + 1):
        return led * 13 + _high(follow)
    base = led * 13
    win = max(c - base for c in trick if c // 13 == led)
    under = follow & ((1 << win) - 1)
    if under:
        # Duck as high as possible, shedding a point card if one fits under.
        return max((pts[base + r] * -1, r) for r in BITS[under])[1] + base
    ranks = BITS[follow]
    if len(trick) == 3:
        # The trick is mine whatever I play: take it with the card that costs least.
        return base + max((pts[base + r], r) for r in ranks)[1]
    safe = [r for r in ranks if not pts[base + r]] or list(ranks)
    if out[led] >> (safe[0] + 1):
        return base + safe[0]  # someone may still go over: stay low
    return base + safe[-1]  # I take it anyway: shed my highest


def _far_from_a_costly_trick(trick_table: Sequence[int], number: int) -> bool:
    """Trick ``number`` costs nothing, nor do the next three (Last trick: tricks 1-9)."""
    return not any(trick_table[number : number + 4])


def _danger(
    pos: FastPosition, seat: int, suit: int, top: int, out: list[int], pts: Sequence[int]
) -> float:
    """How likely holding ``top`` of ``suit`` makes this seat take a costly trick later."""
    lower_out = out[suit] & ((1 << top) - 1)
    points_under = -sum(pts[suit * 13 + r] for r in BITS[lower_out])
    held = pos.hands[seat * 4 + suit]
    return lower_out.bit_count() + points_under / 10 + top / 13 - held.bit_count() / 4


def _discard(
    pos: FastPosition, seat: int, legal: tuple[int, ...], out: list[int], pts: Sequence[int]
) -> int:
    """Shed the costliest point card, else the top of the most dangerous suit."""
    worst, worst_card = 0, -1
    for s in range(4):
        for r in BITS[legal[s]]:
            value = pts[s * 13 + r]
            if value < worst or (value == worst and value < 0 and s * 13 + r > worst_card):
                worst, worst_card = value, s * 13 + r
    if worst_card >= 0:
        return worst_card
    best, card = -1e9, -1
    for s in range(4):
        if legal[s]:
            top = _high(legal[s])
            danger = _danger(pos, seat, s, top, out, pts)
            if danger > best:
                best, card = danger, s * 13 + top
    return card


def _lead_low(
    pos: FastPosition, seat: int, legal: tuple[int, ...], out: list[int], pts: Sequence[int]
) -> int:
    """Lead the lowest card least likely to win; prefer short suits (toward a void)."""
    voids = pos.voids
    # The suits some other seat is void in; it matters only where cards carry points.
    others_void = 0
    if pos.contract.card_points:
        others_void = voids[(seat + 1) & 3] | voids[(seat + 2) & 3] | voids[(seat + 3) & 3]
    best, card = (1e9, 0), -1
    for s in range(4):
        mask = legal[s]
        if not mask:
            continue
        low = _low(mask)
        lower = (out[s] & ((1 << low) - 1)).bit_count()
        higher = (out[s] >> (low + 1)).bit_count()
        risk = 2.0 + lower if not higher else lower / (lower + higher)
        if others_void >> s & 1:
            risk += 0.3
        key = (risk, pos.hands[seat * 4 + s].bit_count())
        if key < best:
            best, card = key, s * 13 + low
    return card


# -- trump contracts: win tricks, draw trumps, ruff ------------------------------------


def _trumps(pos: FastPosition, seat: int, legal: tuple[int, ...], out: list[int]) -> int:
    trump = pos.contract.trump
    t = -1 if trump is None else int(trump)
    trick = pos.trick
    if not trick:
        return _trump_lead(pos, seat, legal, out, t)
    led = trick[0] // 13
    follow = legal[led]
    if follow:
        return _trump_follow(pos, seat, follow, led, out, t)
    return _trump_void(pos, seat, legal, out, t)


def _trump_lead(
    pos: FastPosition, seat: int, legal: tuple[int, ...], out: list[int], t: int
) -> int:
    voids = pos.voids
    trumps_out = out[t] if t >= 0 else 0
    if t >= 0 and legal[t] and trumps_out:
        top = _high(legal[t])
        if not trumps_out >> (top + 1) or legal[t].bit_count() > trumps_out.bit_count():
            return t * 13 + top  # draw trumps with a winner, or with length
    best, card = -1, -1
    for s in range(4):
        mask = legal[s]
        if s == t or not mask:
            continue
        top = _high(mask)
        if out[s] >> (top + 1):
            continue
        ruffable = trumps_out and (not out[s] or _may_ruff(voids, seat, s, t, (1, 2, 3)))
        if not ruffable and out[s].bit_count() > best:
            best, card = out[s].bit_count(), s * 13 + top
    if card >= 0:
        return card  # cash a master
    if t >= 0 and legal[t] and not trumps_out:
        return t * 13 + _high(legal[t])
    sides = [s for s in range(4) if legal[s] and s != t] or [s for s in range(4) if legal[s]]
    if t >= 0 and pos.hands[seat * 4 + t]:
        suit = min(sides, key=lambda s: legal[s].bit_count())  # shorten a side suit to ruff
    else:
        suit = max(sides, key=lambda s: legal[s].bit_count())  # establish the long suit
    return suit * 13 + _low(legal[suit])


def _trump_follow(
    pos: FastPosition, seat: int, follow: int, led: int, out: list[int], t: int
) -> int:
    trick = pos.trick
    base = led * 13
    if led != t and any(c // 13 == t for c in trick):
        return base + _low(follow)  # already trumped: keep the good cards
    win = max(c - base for c in trick if c // 13 == led)
    over = follow >> (win + 1) << (win + 1)
    if not over:
        return base + _low(follow)
    after = 3 - len(trick)
    if not after:
        return base + _low(over)
    voids = pos.voids
    ruff_risk = (
        t >= 0 and led != t and out[t] and _may_ruff(voids, seat, led, t, range(1, after + 1))
    )
    masters = over >> (_high(out[led]) + 1) << (_high(out[led]) + 1) if out[led] else over
    if masters and not ruff_risk:
        return base + _low(masters)
    return base + _low(follow)


def _may_ruff(voids: Sequence[int], seat: int, suit: int, t: int, after: Iterable[int]) -> bool:
    """Whether one of the seats ``after`` this one (1 is the next) has shown a void in
    ``suit`` and not in trumps ``t``: with ``must_trump`` a discard shows both."""
    return any(
        voids[(seat + k) & 3] >> suit & 1 and not voids[(seat + k) & 3] >> t & 1 for k in after
    )


def _trump_void(
    pos: FastPosition, seat: int, legal: tuple[int, ...], out: list[int], t: int
) -> int:
    if t >= 0 and legal[t]:
        top = max((c % 13 for c in pos.trick if c // 13 == t), default=-1)
        over = legal[t] >> (top + 1) << (top + 1)
        if over:
            return t * 13 + _low(over)  # ruff as cheaply as wins
    best, card = (99, 99), -1
    for s in range(4):
        mask = legal[s]
        if not mask:
            continue
        is_master = not out[s] >> (_high(mask) + 1)
        key = (2 if s == t else int(is_master), mask.bit_count())
        if key < best:
            best, card = key, s * 13 + _low(mask)
    return card


# -- Domino: unlock your own cards, block the others ------------------------------------


def _domino(pos: FastPosition, seat: int, legal: tuple[int, ...]) -> int:
    """Lay the card with the most of my own cards behind it, that opens least to the
    others. Where the aces may go low (``domino_aces: either``), an ace lies beyond the 2
    (rank index -1): behind my 2 when I hold it, opened to the others by a 2 when I do
    not; once they go low, nothing lies beyond a king."""
    h = pos.hands
    b = seat * 4
    low_aces = pos.domino_aces != ACES_HIGH
    high_aces = pos.domino_aces != ACES_LOW
    best, card = -1e9, -1
    for s in range(4):
        mine = h[b + s]
        for r in BITS[legal[s]]:
            rest = mine & ~(1 << r)
            if r == EIGHT and pos.domino_high[s] < 0:
                behind = rest.bit_count()
                opens = (not rest >> (EIGHT - 1) & 1) + (not rest >> (EIGHT + 1) & 1)
                reach = max(_high(rest) - EIGHT, EIGHT - _low(rest)) if rest else 0
            elif r < EIGHT:
                below = rest & ((1 << r) - 1)
                behind = below.bit_count()
                opens = int(r > 0 and not rest >> (r - 1) & 1)
                reach = r - _low(below) if below else 0
                if low_aces and rest >> ACE & 1:  # my ace lies beyond my 2
                    behind += 1
                    reach = r + 1
                elif low_aces and not r:  # my 2 opens the ace's place to the others
                    opens = 1
            else:
                above = (rest if high_aces else rest & ~(1 << ACE)) >> (r + 1)
                behind = above.bit_count()
                opens = int(r < ACE and (high_aces or r < KING) and not rest >> (r + 1) & 1)
                reach = _high(above) + 1 if above else 0
            score = 3 * behind - 2 * opens + reach / 10
            if score > best:
                best, card = score, s * 13 + r
    return card


def _compiled_normal_card() -> Policy | None:
    """``_policy.pyx``'s :func:`python_normal_card`, None where it was not built."""
    try:
        from ._policy import normal_card as compiled
    except ImportError:
        return None
    return compiled


_compiled = _compiled_normal_card()

#: Whether :func:`normal_card` is the compiled one (else :func:`python_normal_card`).
COMPILED = _compiled is not None

#: The normal player's card: the compiled one where it was built, the same cards.
normal_card: Policy = _compiled or python_normal_card
