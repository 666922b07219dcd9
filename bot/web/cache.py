"""Pages and pictures that never change (finished matches, closed days), kept drawn.

Each is kept once per path and language with its ETag, newest used last, within a
budget of bytes; a reader who has it already gets 304 Not Modified.
"""

from __future__ import annotations

import gzip
import hashlib
from collections import OrderedDict
from dataclasses import dataclass

BUDGET = 64 * 1024 * 1024
"""Bytes of pages kept at most."""


GZIP_FROM = 1024
"""Pages of this many bytes or more are also kept gzipped (a match's page holds its whole
replay: a quarter of a megabyte, a tenth of it gzipped)."""


@dataclass(frozen=True)
class Drawn:
    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None

    @classmethod
    def of(cls, body: bytes, content_type: str) -> Drawn:
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        compressible = content_type.startswith("text/") and len(body) >= GZIP_FROM
        return cls(body, content_type, etag, gzip.compress(body, 6) if compressible else None)

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped or b"")


class PageCache:
    def __init__(self, budget: int = BUDGET) -> None:
        self._budget = budget
        self._size = 0
        self._kept: OrderedDict[tuple[str, str], Drawn] = OrderedDict()

    def get(self, path: str, language: str) -> Drawn | None:
        drawn = self._kept.get((path, language))
        if drawn is not None:
            self._kept.move_to_end((path, language))
        return drawn

    def put(self, path: str, language: str, drawn: Drawn) -> None:
        if drawn.size > self._budget:
            return
        old = self._kept.pop((path, language), None)
        if old is not None:
            self._size -= old.size
        self._kept[(path, language)] = drawn
        self._size += drawn.size
        while self._size > self._budget:
            _key, dropped = self._kept.popitem(last=False)
            self._size -= dropped.size
