"""Pages kept drawn: those that never change (finished matches, closed days) and, for a
moment, those that do (a server's standings, a player's page).

Each page is kept per path, language and web setting with its ETag and its gzipped
bytes, newest used last, within a budget of bytes; a reader who has it already gets
304 Not Modified, one whose browser takes gzip gets the gzipped bytes (a match's page
and each of its deals' JSON are a few tens of kilobytes, a fifth of it gzipped).

A page that changes is kept until its server changes (:meth:`PageCache.changed`: a
match of the server finished in this process), and drawn again once it is
:data:`FRESH_SECONDS` old (a change made by another process, a sharded bot beside
``python -m bot web``, or a closed day, reaches the pages within that and one drawing,
as a change of the web setting does); while that drawing is under way, the page kept is
served, so the readers of a busy page never wait for it.

Many readers asking at once for a page not kept yet wait for the one drawing of it,
rather than each drawing it again (the pages drawn off the loop take a core's time).
A cache with a budget of 0 keeps nothing and shares nothing: every page is drawn for
its reader, as the benchmark's "uncached" figures measure.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

BUDGET = 64 * 1024 * 1024
"""Bytes of pages kept at most."""
FRESH_SECONDS = 2.0
"""How old a page that changes may be before it is drawn again (see the module)."""
GZIP_FROM = 1024
"""Pages of this many bytes or more are also kept gzipped."""

Key = tuple[int, str, str, str]
"""A kept page: its server, its path and query, its language, its web setting."""


@dataclass(frozen=True)
class Drawn:
    body: bytes
    content_type: str
    etag: str
    final: bool
    """It never changes (a finished match, a closed day): kept for good."""
    gzipped: bytes | None = None

    @classmethod
    def of(cls, body: bytes, content_type: str, *, final: bool, compress: bool = True) -> Drawn:
        """``body`` with its ETag and, when ``compress`` and worth it, gzipped (a page
        kept is gzipped once; one drawn for a single reader is not worth it)."""
        # SHA-1 as a checksum, not a signature: OpenSSL's is some 2.5 times as fast as
        # Python's BLAKE2b here, and a page drawn for one reader is hashed each time.
        etag = '"' + hashlib.sha1(body, usedforsecurity=False).hexdigest()[:32] + '"'
        text = content_type.startswith("text/") or content_type == "application/json"
        worth = compress and text and len(body) >= GZIP_FROM
        return cls(body, content_type, etag, final, gzip.compress(body, 6) if worth else None)

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


@dataclass(frozen=True)
class _Kept:
    drawn: Drawn
    version: int
    at: float


class PageCache:
    """The kept pages (see the module)."""

    def __init__(
        self,
        budget: int = BUDGET,
        *,
        fresh_seconds: float = FRESH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._budget = budget
        self._fresh = fresh_seconds
        self._clock = clock
        self._size = 0
        self._kept: OrderedDict[Key, _Kept] = OrderedDict()
        self._drawing: dict[Key, asyncio.Future[Drawn]] = {}
        self._versions: dict[int, int] = {}

    @property
    def keeps(self) -> bool:
        """Whether pages are kept at all (a budget of 0 keeps none)."""
        return self._budget > 0

    @property
    def size(self) -> int:
        """Bytes kept now (at most the budget)."""
        return self._size

    def changed(self, guild_id: int) -> None:
        """Something the server's changing pages show has changed (a match finished):
        they are drawn again when next asked for."""
        self._versions[guild_id] = self._versions.get(guild_id, 0) + 1

    async def page(self, key: Key, draw: Callable[[], Awaitable[Drawn]]) -> Drawn:
        """The page at ``key``: kept, or drawn by ``draw`` and kept; readers asking
        while it is being drawn wait for that drawing. ``draw``'s exception reaches
        every reader waiting, and nothing is kept.

        A changing page past its moment is still served while it is drawn again in the
        background (the readers of a busy page do not all wait for it at once); one
        whose server changed here is drawn before it is served."""
        if not self.keeps:
            return await draw()
        kept = self._kept.get(key)
        if kept is not None:
            drawn = kept.drawn
            if not drawn.final and kept.version != self._versions.get(key[0], 0):
                self._drop(key)
            else:
                self._kept.move_to_end(key)
                if not drawn.final and self._clock() - kept.at >= self._fresh:
                    self._draw(key, draw)
                return drawn
        # Shielded: a reader who leaves does not stop the drawing the others wait for.
        return await asyncio.shield(self._draw(key, draw))

    def _draw(self, key: Key, draw: Callable[[], Awaitable[Drawn]]) -> asyncio.Future[Drawn]:
        """The drawing of ``key`` under way, or a new one."""
        drawing = self._drawing.get(key)
        if drawing is None:
            version = self._versions.get(key[0], 0)
            drawing = asyncio.ensure_future(draw())
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda done: self._drawn(key, version, done))
        return drawing

    def _drawn(self, key: Key, version: int, done: asyncio.Future[Drawn]) -> None:
        del self._drawing[key]
        self._drop(key)
        if done.cancelled() or done.exception() is not None:
            return
        drawn = done.result()
        if drawn.size > self._budget:
            return
        self._kept[key] = _Kept(drawn, version, self._clock())
        self._size += drawn.size
        while self._size > self._budget:
            self._drop(next(iter(self._kept)))

    def _drop(self, key: Key) -> None:
        kept = self._kept.pop(key, None)
        if kept is not None:
            self._size -= kept.drawn.size
