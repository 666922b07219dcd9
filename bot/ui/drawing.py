"""Deal pictures drawn in processes of their own, beside the bot's process.

A deal picture costs a few milliseconds of CPU (pasting the kept parts, the PNG
encoding). Drawn in the bot's own process, in its picture thread, most of that holds
the interpreter's lock the event loop needs, so with hundreds of people clicking their
daily deals the pictures slowed every answer and used one core at most. The
``BONKEN_DRAWING_PROCESSES`` processes (1 by default) draw them instead, on the
machine's other cores, each with its own fonts and kept parts (:mod:`bot.render.layers`):
the bot only sends a small frozen scene and gets the PNG bytes back, the same bytes the
bot's own thread would draw (``tests/discord/test_discord_daily_pictures.py``). With 0
the picture thread draws them, as before (the tests' harness does).

A process keeps the last :data:`KEPT_PICTURES` pictures it drew, by their scene: exactly
what the picture shows. Everyone plays the same deals against the same computers, and
the person's own plate says "You" (:func:`bot.render.daily.daily_scene`), so people who
reach the same point of a deal see the same picture, drawn once: with 200 people
clicking at random, most pictures (``bench/daily.py`` prints how many) are kept ones.
The bot's process keeps the last :data:`RECENT_PICTURES` too, so that the pictures most
asked for do not even cross the pipe; and a picture asked for again while it is being
drawn is not sent again: the askers share the one on its way. People who start
together (the day's deals open at midnight, the bench's 200 people at once) reach the
same points of a deal at the same time, so most of the pictures they share are asked
for while the first is still being drawn (in ``bench/daily.py``, half the pictures).

Each process has a pipe of its own, read by the event loop itself when an answer
arrives: no thread of the bot's process sits between them (a
:class:`~concurrent.futures.ProcessPoolExecutor` keeps two, and under load their work
took a tenth of what the event loop's thread had left). At most :data:`IN_FLIGHT`
scenes are on their way to a process, the others wait in the bot: a few scenes always
fit in the pipe, so sending never blocks the loop while the process sends a picture.

A process that dies (killed, out of memory) breaks only the pictures under way: they
are logged and sent as text, and the next picture starts a new process. The processes
leave the signals to the bot and end with it, as the computers' workers do
(:func:`~bot.players.pool.worker_started`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import signal
import threading
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache, partial
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from bot.players.pool import worker_started
from bot.render.deal_image import deal_png
from bot.render.scene import TableScene

log = logging.getLogger(__name__)

KEPT_PICTURES = 1024
"""Pictures a drawing process keeps (some 14 KB each: about 15 MB)."""
RECENT_PICTURES = 256
"""Pictures the bot's process keeps too, the last asked for (some 3.5 MB): most daily
pictures are kept ones, and one kept here costs the event loop no trip through the pipe
(pickling the scene, writing it, reading the picture back: a third of a millisecond)."""
IN_FLIGHT = 2
"""Scenes sent to a process before its answer to the first: one drawn while the next
waits in its pipe, so the process never idles for the loop's turn."""


class DrawingFailed(Exception):
    """The picture was not drawn: the process raised (its error's text) or died."""


class DrawingProcesses:
    """``processes`` processes drawing deal pictures (none: the caller draws itself)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._workers: list[_Worker | None] = [None] * processes
        self._recent: OrderedDict[TableScene, bytes] = OrderedDict()
        """The last :data:`RECENT_PICTURES` pictures, by their scene."""
        self._drawing: dict[TableScene, asyncio.Future[tuple[bytes, bool]]] = {}
        """The pictures on their way from a process, by their scene."""
        self.drawn = 0
        """Pictures answered so far."""
        self.kept = 0
        """Of them, those kept (not drawn again), here or by a process."""

    @property
    def used(self) -> bool:
        """True if pictures are sent to the processes (else drawn in the bot's thread)."""
        return self.processes > 0

    async def deal_png(self, scene: TableScene) -> bytes:
        """``deal_png(scene)``: one of the last pictures asked for, the one on its way,
        or drawn by the least busy process. Raises :class:`DrawingFailed` if the process
        raised or died."""
        self.drawn += 1
        data = self._recent.get(scene)
        if data is not None:
            self._recent.move_to_end(scene)
            self.kept += 1
            return data
        drawing = self._drawing.get(scene)
        if drawing is None:
            index = min(range(self.processes), key=self._load)
            drawing = self._drawing[scene] = self._worker(index).draw(scene)
            drawing.add_done_callback(partial(self._drawn, scene))
        else:
            self.kept += 1
        # Shielded: an asker cancelled (its click's task) cancels no one else's picture.
        picture, _kept = await asyncio.shield(drawing)
        return picture

    def _drawn(self, scene: TableScene, drawing: asyncio.Future[tuple[bytes, bool]]) -> None:
        """A picture's answer came: kept here if it was drawn."""
        del self._drawing[scene]
        if drawing.cancelled() or drawing.exception() is not None:
            return  # (its askers raise it)
        data, kept = drawing.result()
        self.kept += kept
        self._recent[scene] = data
        if len(self._recent) > RECENT_PICTURES:
            self._recent.popitem(last=False)

    def close(self) -> None:
        """Stop the processes (pictures under way fail: the bot is stopping)."""
        for index, worker in enumerate(self._workers):
            if worker is not None:
                worker.stop()
            self._workers[index] = None

    def _load(self, index: int) -> int:
        worker = self._workers[index]
        return 0 if worker is None else worker.load

    def _worker(self, index: int) -> _Worker:
        worker = self._workers[index]
        if worker is None or worker.dead:
            worker = self._workers[index] = _Worker()
        return worker


class _Worker:
    """One drawing process, its pipe, and the scenes it was sent or is to be sent."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")  # never a fork of a threaded bot
        self._pipe, theirs = context.Pipe()
        self._process: BaseProcess = context.Process(
            target=_serve, args=(theirs,), name="bonken-drawing", daemon=True
        )
        with _deaf_to_ctrl_c():
            self._process.start()
        theirs.close()
        self._numbers = itertools.count()
        self._sent: dict[int, asyncio.Future[tuple[bytes, bool]]] = {}
        self._waiting: deque[tuple[int, TableScene]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        """The loop reading the pipe, once a picture was asked for."""
        self.dead = False

    @property
    def load(self) -> int:
        """Pictures asked of this process and not answered yet."""
        return len(self._sent)

    def draw(self, scene: TableScene) -> asyncio.Future[tuple[bytes, bool]]:
        """The PNG to come, and whether the process had it kept (sent now, or as soon as
        fewer than :data:`IN_FLIGHT` are on their way)."""
        if self.dead:
            raise DrawingFailed("the drawing process has ended")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            loop.add_reader(self._pipe.fileno(), self._answered)
            self._loop = loop
        number = next(self._numbers)
        answer: asyncio.Future[tuple[bytes, bool]] = loop.create_future()
        self._sent[number] = answer
        self._waiting.append((number, scene))
        self._send()
        return answer

    def stop(self) -> None:
        """End the process (its pictures under way fail)."""
        self._ended("the bot is stopping")
        self._process.terminate()

    def _send(self) -> None:
        in_flight = len(self._sent) - len(self._waiting)
        while self._waiting and in_flight < IN_FLIGHT:
            try:
                self._pipe.send(self._waiting.popleft())
            except OSError:  # the process is gone (its pipe closed)
                self._ended("the drawing process ended")
                return
            in_flight += 1

    def _answered(self) -> None:
        """The event loop's reader: one answer, ``(number, png, kept, error)``."""
        try:
            number, data, kept, error = self._pipe.recv()
        except (EOFError, OSError):
            log.error("a drawing process ended; a new one draws the next picture")
            self._ended("the drawing process ended")
            return
        answer = self._sent.pop(number)
        if not answer.done():  # (the click's task may have been cancelled)
            if error is None:
                answer.set_result((data, kept))
            else:
                answer.set_exception(DrawingFailed(error))
        self._send()

    def _ended(self, why: str) -> None:
        """The process is gone or going: its pictures fail with ``why``, its pipe closes."""
        if self.dead:
            return
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(self._pipe.fileno())
        self.dead = True
        for answer in self._sent.values():
            if not answer.done():
                answer.set_exception(DrawingFailed(why))
        self._sent.clear()
        self._waiting.clear()
        self._pipe.close()


@contextmanager
def _deaf_to_ctrl_c() -> Iterator[None]:
    """Ctrl-C ignored while a process starts, so that it starts ignoring it: a terminal
    sends Ctrl-C to the whole process group, and a drawing process still importing (a
    second or more, before :func:`~bot.players.pool.worker_started` runs) would print a
    traceback; the bot ends its processes itself. (A Ctrl-C in those few milliseconds is
    lost; the next one counts.) Only the main thread may change a signal's handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _serve(pipe: Connection) -> None:
    """A drawing process: each ``(number, scene)`` read is answered ``(number, png,
    kept, None)`` (``kept``: not drawn again), or ``(number, None, False, error)`` if
    drawing raised; ends when the bot's end of the pipe closes."""
    worker_started()
    while True:
        try:
            number, scene = pipe.recv()
        except EOFError:
            return
        kept = _kept_png.cache_info().hits
        try:
            data = _kept_png(scene)
        except Exception as error:
            pipe.send((number, None, False, f"{type(error).__name__}: {error}"))
        else:
            pipe.send((number, data, _kept_png.cache_info().hits > kept, None))


@lru_cache(maxsize=KEPT_PICTURES)
def _kept_png(scene: TableScene) -> bytes:
    """``deal_png(scene)``, the last :data:`KEPT_PICTURES` kept by their scene."""
    return deal_png(scene)
