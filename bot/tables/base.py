"""The state the table service's parts share, declared once for readers and tools.

:class:`~bot.tables.service.TableService` is made of parts (lobby, turns, recovery) that
each hold one job's methods; they share this state, which the service's ``__init__``
sets up, and call one another's methods through ``self``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

from bot.store import Rater, Store

from . import events as ev
from .computers import Decider
from .table import Table

Publish = Callable[[ev.Event], Awaitable[None]]


class ServiceState:
    _store: Store
    _publish: Publish
    _decide: Decider
    _pace: float
    _time_scale: float
    _rater: Rater | None
    _rng: random.Random
    _tables: dict[int, Table]
    _by_channel: dict[int, int]
    _lobby_timers: dict[int, asyncio.Task[None]]
    _computer_writes: asyncio.Semaphore
