"""A day's deals for a server: who deals, the contract, the four hands.

Everyone in a server plays the same deals on a UTC date, so they are dealt from a seed
fixed by the server and the date alone. The seed must not be one a player can compute,
though: whoever reads this code would know every day's cards in advance. So it is an
HMAC of the server and the date under a secret each bot keeps in its store (made once,
at random, and never shown): the same server and date always give the same deals, on any
machine holding that store, and nobody without the secret can tell what they will be.

The contracts are preset, chosen so a day mixes the kinds of Bonken: avoiding tricks,
avoiding cards, Domino, and a trump or no-trump deal. Each deal is its own little match
of one deal (its dealer and contract fixed), so no deal's contract depends on another's
and the chooser's quota of a whole match does not come into it. The person always sits
South (:data:`PERSON_SEAT`), the seat the table picture draws at the bottom; the dealer
moves on each deal, so the person meets every role.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass, field
from datetime import date
from enum import Enum

from bot.engine import Card, Contract, Rules, deal_hands

PERSON_SEAT = 2
"""South: the person's seat in every daily deal."""
DEFAULT_DEALS = 4
MAX_DEALS = 11
"""A server may play 1 to this many deals a day (every variant has more contracts)."""
SEED_LABEL = "bonken-daily/1"
"""What the HMAC signs besides the server and the date: a new label is a new series."""


class Kind(Enum):
    """The kinds of contract a day mixes, read from what a contract scores."""

    TRICKS = "tricks"
    """Avoid tricks: Ducking, Last trick, the 7th and 13th trick."""
    CARDS = "cards"
    """Avoid cards: Heartshunting, Kingjacks, Queens, King of Hearts."""
    DOMINO = "domino"
    TRUMPS = "trumps"
    """A trump suit or no trump."""


def kind_of(contract: Contract) -> Kind:
    if contract.domino:
        return Kind.DOMINO
    if contract.is_trump_option:
        return Kind.TRUMPS
    return Kind.CARDS if contract.card_points else Kind.TRICKS


@dataclass(frozen=True)
class DailyDeal:
    """One deal of the day: a match of one deal whose contract is set, not chosen."""

    dealer: int
    contract: str
    hands: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class DayProgram:
    """A day's deals in a server, by the rules the server played that day.

    ``seed`` decides every deal and every computer's move; it stays in the service and
    is never shown or written anywhere a player can read it."""

    rules: Rules
    deals: tuple[DailyDeal, ...]
    seed: int = field(repr=False)


def day_seed(secret: str, guild_id: int, day: date) -> int:
    """The seed of ``day`` in server ``guild_id``: 63 bits of an HMAC-SHA256 under the
    bot's secret, so it follows from the server and the date and nothing else, yet no
    one can compute it without the secret (nor another day's from this one)."""
    message = f"{SEED_LABEL}:{guild_id}:{day.isoformat()}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def day_program(seed: int, count: int, rules: Rules) -> DayProgram:
    """The ``count`` deals of the day with this seed, played by ``rules``."""
    if not 1 <= count <= MAX_DEALS:
        raise ValueError(f"a day has 1 to {MAX_DEALS} deals, not {count}")
    rng = random.Random(f"{seed}:program")
    first_dealer = rng.randrange(4)
    contracts = mixed_contracts(rules, count, rng)
    deals = tuple(
        DailyDeal(
            dealer=(first_dealer + index) % 4,
            contract=contract,
            hands=deal_hands(random.Random(f"{seed}:hands:{index}")),
        )
        for index, contract in enumerate(contracts)
    )
    return DayProgram(rules=rules, deals=deals, seed=seed)


def mixed_contracts(rules: Rules, count: int, rng: random.Random) -> list[str]:
    """``count`` different contracts of ``rules`` that mix the kinds: each deal takes a
    kind played least so far (among kinds with a contract left, in an order drawn for
    the day), then a contract of that kind at random. So a day of four deals has all four
    kinds, and a longer day spreads its deals over the kinds as evenly as they allow."""
    left = {kind: [c.id for c in rules.contracts if kind_of(c) is kind] for kind in Kind}
    order = list(Kind)
    rng.shuffle(order)
    played = dict.fromkeys(Kind, 0)
    chosen: list[str] = []
    for _ in range(count):
        kind = min((k for k in order if left[k]), key=lambda k: (played[k], order.index(k)))
        chosen.append(left[kind].pop(rng.randrange(len(left[kind]))))
        played[kind] += 1
    return chosen
