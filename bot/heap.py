"""A long-running process's lasting objects, kept out of the cyclic garbage collector.

The bot and the web pages alone first build what lives as long as they do (modules,
discord.py, the catalogues, their parts) and then freeze it (``gc.freeze``): the
collector's full passes walk only what was made since, and pause the event loop for a
fraction of the time. A process that had frozen its heap already (a test worker freezes
what all its tests share) keeps it as it is: ``gc.unfreeze`` hands the collector back the
whole frozen heap, the host's too, not only what the server froze.
"""

from __future__ import annotations

import gc


class FrozenHeap:
    """Freezes once, unfreezes only what it froze itself."""

    def __init__(self) -> None:
        self._froze = False

    def freeze(self) -> None:
        """Freeze what is alive now, unless the process has frozen its heap already."""
        if not self._froze and gc.get_freeze_count() == 0:
            gc.freeze()
            self._froze = True

    def unfreeze(self) -> None:
        """Give the collector back what :meth:`freeze` froze (a process that goes on, as
        a test worker does, collects it all again)."""
        if self._froze:
            gc.unfreeze()
            self._froze = False
