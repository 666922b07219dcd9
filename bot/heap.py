"""A long-running process's lasting objects, kept out of the cyclic garbage collector.

The bot and the web pages alone first build what lives as long as they do (modules,
discord.py, the catalogues, their parts) and then freeze it (``gc.freeze``): the
collector's full passes walk only what was made since, and pause the event loop for a
fraction of the time. A process that had frozen its heap already (a test worker freezes
what all its tests share) keeps it as it is: ``gc.unfreeze`` hands the collector back the
whole frozen heap, the host's too, not only what the server froze.

Frozen, the process also collects its youngest generation less often
(:data:`YOUNG_THRESHOLD`): what a busy bot allocates is mostly freed by reference
counting, and each young collection walks every object still in flight (a click's
interaction, message and view, waiting on Discord or the store), so collecting after
every 700 allocations walked the same live objects again and again.
"""

from __future__ import annotations

import gc

#: Allocations (less deallocations) between two collections of the youngest generation,
#: instead of Python's 700: the daily deals' load benchmark (``bench/daily.py``, 200
#: people) spent a tenth of the event loop's time in young collections at 700 and a
#: fiftieth at 10,000, each pass under 30 ms.
YOUNG_THRESHOLD = 10_000


class FrozenHeap:
    """Freezes once, unfreezes only what it froze itself."""

    def __init__(self) -> None:
        self._froze = False
        self._thresholds = gc.get_threshold()

    def freeze(self) -> None:
        """Freeze what is alive now, unless the process has frozen its heap already, and
        collect the young generation every :data:`YOUNG_THRESHOLD` allocations."""
        if not self._froze and gc.get_freeze_count() == 0:
            gc.freeze()
            self._thresholds = gc.get_threshold()
            gc.set_threshold(YOUNG_THRESHOLD, *self._thresholds[1:])
            self._froze = True

    def unfreeze(self) -> None:
        """Give the collector back what :meth:`freeze` froze (a process that goes on, as
        a test worker does, collects it all again), at its former thresholds."""
        if self._froze:
            gc.unfreeze()
            gc.set_threshold(*self._thresholds)
            self._froze = False
