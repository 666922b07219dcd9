"""A per-address limit on requests: a token bucket per client address.

A client may send ``burst`` requests at once and ``rate`` a second after that; past it
it gets 429. The buckets of addresses not seen for a while are forgotten, so a flood of
addresses costs bounded memory.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimit:
    """``allow(address)`` says whether this request may be served."""

    def __init__(
        self,
        rate: float = 10.0,
        burst: int = 60,
        *,
        addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst = rate, burst
        self._addresses = addresses
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        now = self._clock()
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            bucket = _Bucket(float(self.burst), now)
        else:
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        self._buckets[address] = bucket  # the newest last: the oldest is forgotten first
        while len(self._buckets) > self._addresses:
            self._buckets.popitem(last=False)
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True
