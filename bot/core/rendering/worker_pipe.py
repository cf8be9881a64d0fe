"""A worker process that the event loop talks to over a socket it reads and writes itself.

Why not :class:`~concurrent.futures.ProcessPoolExecutor`: each of its jobs crosses two threads of
the calling process on the way out (the pool's management thread, then its queue's feeder
thread, which pickles it) and comes back through the management thread and
``call_soon_threadsafe``. Each hop waits for the GIL, which the event loop holds while it works:
on a quiet machine a turn end's two images spent about 3 ms of its ~14 ms in those hand-offs
(docs/benchmarks.md, issue 30). Here the loop pickles a job and writes it straight into the
socket (without blocking: what the socket cannot take yet is written when it can,
``loop.add_writer``) and reads the reply when the socket turns readable (``loop.add_reader``):
no thread in between. The worker side is one blocking loop: read a job, run it, write the reply,
then the ``after`` hook (work nobody waits for, such as handing freed memory back).

Frames are a 4-byte big-endian length and a pickle: a job ``(id, args)`` (game states in it are
sent once per worker, as their stored text, and then named: :mod:`bot.core.rendering.pipe_memo`), a reply
``(id, ok, value or exception)``. The worker's first frame (id :data:`READY`) says its
initializer has run. A worker that dies (killed, crashed) closes its end of the socket: the loop
reads end-of-file and every job still waiting fails with :class:`WorkerDied`. The worker ends when
it reads end-of-file (:meth:`PipeWorker.close`, or the bot's process gone), so none outlives it.

Processes are started with ``spawn``: the bot's process has threads (the database's, asyncio's),
which ``fork`` must not copy.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import pickle
import signal
import socket
import struct
from collections.abc import Callable
from typing import Any

from bot.core.rendering.pipe_memo import Encoded, Receiver, Sender

HEADER = struct.Struct(">I")
READY = 0
"""The id of the worker's first frame: its initializer has run."""
READ_SIZE = 1 << 18
"""Bytes read per wake-up: a table image (~100 KB) is read in one or two."""


class WorkerDied(Exception):
    """The worker process ended with this job unanswered (killed, crashed, or closed)."""


def frame(message: object) -> bytes:
    body = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def _read_exactly(sock: socket.socket, size: int) -> bytearray | None:
    """``size`` bytes from a blocking socket, or None at end-of-file (or when the bot's end is
    gone: a reset is an end too)."""
    data = bytearray(size)
    view = memoryview(data)
    got = 0
    while got < size:
        try:
            count = sock.recv_into(view[got:])
        except OSError:
            return None
        if count == 0:
            return None
        got += count
    return data


def _reply(job: int, run: Callable[..., Any], args: Callable[[], tuple[Any, ...]]) -> bytes:
    """The framed reply to one job (``run(*args())``); an exception that cannot be pickled goes
    back as its text."""
    try:
        message: tuple[int, bool, Any] = (job, True, run(*args()))
    except Exception as error:  # the caller's to handle, as if raised in its own process
        message = (job, False, error)
    try:
        return frame(message)
    except Exception:
        return frame((job, False, RuntimeError(repr(message[2]))))


def serve(sock: socket.socket, initializer: Callable[[], None], run: Callable[..., Any],
          after: Callable[[], object]) -> None:
    """The worker process: ``initializer()``, then ``run(*args)`` for each job until end-of-file
    (or until a frame cannot be written: the bot has stopped, maybe while this worker was still
    warming up, and nobody is left to answer — it ends quietly, no traceback on the bot's
    terminal), ``after()`` once each reply is written. Ctrl-C in a terminal reaches the whole
    process group: the worker ignores it and ends when the bot closes the socket."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    initializer()
    try:
        sock.sendall(frame((READY, True, None)))
    except OSError:  # the bot stopped during the warm-up
        return
    kept = Receiver()
    while True:
        head = _read_exactly(sock, HEADER.size)
        body = None if head is None else _read_exactly(sock, HEADER.unpack(head)[0])
        if body is None:
            return
        job, sent = pickle.loads(body)
        try:
            sock.sendall(_reply(job, run, lambda: kept.decode(sent)))  # noqa: B023 - called at once
        except OSError:  # the bot's end is closed (it was killed): nobody to answer
            return
        after()


class PipeWorker:
    """One worker process (:func:`serve`) and the event loop's end of its socket. Bound to the
    loop it was started on (``asyncio.get_running_loop()``)."""

    def __init__(self, initializer: Callable[[], None], run: Callable[..., Any],
                 after: Callable[[], object], *, name: str = "worker",
                 encoded: Encoded | None = None) -> None:
        """``encoded``: the states' text, shared with the other workers
        (:mod:`bot.core.rendering.pipe_memo`)."""
        self.loop = asyncio.get_running_loop()
        self._sender = Sender(encoded or Encoded())
        ours, theirs = socket.socketpair()
        self.process = multiprocessing.get_context("spawn").Process(
            target=serve, args=(theirs, initializer, run, after), name=name, daemon=True)
        try:
            self.process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        ours.setblocking(False)
        self._sock: socket.socket | None = ours
        self._fd = ours.fileno()
        self._ids = itertools.count(READY + 1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._in = bytearray()
        self._out = bytearray()
        self.ready: asyncio.Future[None] = self.loop.create_future()
        self.loop.add_reader(self._fd, self._readable)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    @property
    def broken(self) -> bool:
        """True once the socket is closed: the worker died, or :meth:`close` was called."""
        return self._sock is None

    def submit(self, *args: Any) -> asyncio.Future[Any]:
        """Send ``run(*args)`` to the worker; the future holds its result (or its exception,
        or :class:`WorkerDied`). Arguments that cannot be pickled raise here."""
        if self._sock is None:
            raise WorkerDied("the worker is gone")
        job = next(self._ids)
        data = frame((job, self._sender.encode(args)))
        future: asyncio.Future[Any] = self.loop.create_future()
        self._pending[job] = future
        self._write(data)
        return future

    def _write(self, data: bytes) -> None:
        if not self._out and self._sock is not None:
            try:
                sent = self._sock.send(data)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError as error:
                self._break(error)
                return
            if sent == len(data):
                return
            data = data[sent:]
            self.loop.add_writer(self._fd, self._writable)
        self._out += data

    def _writable(self) -> None:
        if self._sock is None:
            return
        try:
            sent = self._sock.send(self._out)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._break(error)
            return
        del self._out[:sent]
        if not self._out:
            self.loop.remove_writer(self._fd)

    def _readable(self) -> None:
        if self._sock is None:
            return
        try:
            data = self._sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._break(error)
            return
        if not data:
            self._break(None)
            return
        self._in += data
        while len(self._in) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._in)
            end = HEADER.size + size
            if len(self._in) < end:
                break
            job, ok, value = pickle.loads(self._in[HEADER.size:end])
            del self._in[:end]
            self._answer(job, ok, value)

    def _answer(self, job: int, ok: bool, value: Any) -> None:
        future = self.ready if job == READY else self._pending.pop(job, None)
        if future is None or future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _break(self, error: BaseException | None) -> None:
        """Close our end; every job still waiting (and the start-up) fails with :class:`WorkerDied`."""
        sock, self._sock = self._sock, None
        if sock is None:
            return
        self.loop.remove_reader(self._fd)
        self.loop.remove_writer(self._fd)
        sock.close()
        if self.loop.is_closed():  # abandoned: nobody can await its futures any more
            return
        pending, self._pending = self._pending, {}
        for future in [self.ready, *pending.values()]:
            if not future.done():
                died = WorkerDied(f"worker {self.pid} ended with jobs unanswered")
                died.__cause__ = error
                future.set_exception(died)
                future.exception()  # retrieved: a start-up nobody awaited is not an error to log

    def abandon(self) -> None:
        """Close our end of the socket, from outside the loop that started the worker (it has
        ended); the worker reads end-of-file and exits."""
        self._break(None)

    async def close(self, timeout: float = 10.0) -> None:
        """Let the jobs already sent finish (up to ``timeout`` s), then close the socket (the
        worker reads end-of-file and exits) and reap the process; killed if it does not exit."""
        waiting = [future for future in self._pending.values() if not future.done()]
        if waiting and not self.broken:
            await asyncio.wait(waiting, timeout=timeout)
        self._break(None)
        await asyncio.to_thread(self.process.join, timeout)
        if self.process.is_alive():
            self.process.kill()
            await asyncio.to_thread(self.process.join)
