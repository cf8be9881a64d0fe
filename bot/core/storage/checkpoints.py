"""Copying SQLite's write-ahead log into the database file, away from the commits players wait for.

In WAL mode a commit appends to the ``-wal`` file; a *checkpoint* later copies those pages into
the database file, syncing the log before and the file after. SQLite runs one by itself inside the
commit that makes the log pass 1,000 pages (``wal_autocheckpoint``, about 220 commits here), and
the next commit starts the log over and syncs its new header. With ``synchronous=NORMAL`` those
are the only commits that wait for the disk: 1.5–16 ms against 0.12 ms for an ordinary one, five
to eight per 600 actions of the latency bench — the action's p99 (issue 30; docs/benchmarks.md).

So the bot's connection turns automatic checkpoints off (``PRAGMA wal_autocheckpoint=0`` in
``connecting.open_sqlite``) and :class:`WalCheckpoints` runs a ``PASSIVE`` checkpoint on a second
connection, in a thread of its own, once every :data:`CHECKPOINT_EVERY_COMMITS` commits. A passive
checkpoint never blocks a writer or a reader.

What a commit promises is unchanged: it is in the log when the player is told, which survives the
process dying. Against the machine losing power, a checkpoint syncs the log before copying it, so
at most the commits since the last checkpoint can be lost — as before (then every 1,000 pages;
now every 256 commits, about the same).

The log starts over only when a commit begins with every page of it copied. Beside a busy bot a
checkpoint (two syncs, some milliseconds) nearly always sees a commit land while it runs, so the
log can keep growing; a quiet moment after a checkpoint lets it start over (that commit syncs the
new header: the one sync left on the commit path, and SQLite's own). Should the log reach
:data:`LOG_PAGES_LIMIT` first, the checkpoint is a ``TRUNCATE`` one, which makes writers wait while
it copies the last pages and empties the file: one slow commit per some 2,000 under saturation,
where SQLite's own setting cost two per 220.

A checkpoint that fails (a disk error, another process holding the database) is logged and tried
again at the next turn of the counter: the commits are already safe in the log.
"""

from __future__ import annotations

import logging
import sqlite3
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NamedTuple

CHECKPOINT_EVERY_COMMITS = 256
"""Commits between two checkpoints. An action writes four to five pages of log, so the log stays
near the 1,000 pages SQLite's own setting allowed (a few megabytes)."""

LOG_PAGES_LIMIT = 10_000
"""A log this long (about 40 MB of 4 KB pages) is emptied by a checkpoint that makes writers wait."""
BUSY_TIMEOUT_SECONDS = 5.0
"""How long a ``TRUNCATE`` checkpoint waits for the writer and readers in its way."""

_log = logging.getLogger(__name__)


class CheckpointResult(NamedTuple):
    """What ``PRAGMA wal_checkpoint`` reports: ``busy`` is 1 if it could not finish (a reader or
    another checkpoint in the way), ``log_pages`` the log's length, ``copied_pages`` how many of
    them are now in the database file."""

    busy: int
    log_pages: int
    copied_pages: int


class WalCheckpoints:
    """Checkpoints of one SQLite database file, run on their own connection and thread.
    :class:`~bot.core.storage.db.Storage` calls :meth:`after_commit` after each of its commits and
    :meth:`close` after closing its own connection."""

    def __init__(self, target: str, every: int = CHECKPOINT_EVERY_COMMITS) -> None:
        self._target = target
        self._every = every
        self._since_last = 0
        self._pending: Future[CheckpointResult | None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoint")
        self._connection: sqlite3.Connection | None = None  # only ever used on the executor's thread
        self.completed = 0
        """Checkpoints that ran to the end (busy or not); for tests and the benches."""
        self.last: CheckpointResult | None = None

    def after_commit(self) -> None:
        """Count a commit; every ``every`` commits, start a checkpoint unless one is still running.
        Returns at once: nothing here waits for the disk."""
        self._since_last += 1
        if self._since_last < self._every or (self._pending is not None and not self._pending.done()):
            return
        self._since_last = 0
        self._pending = self._executor.submit(self._checkpoint)

    def wait(self) -> CheckpointResult | None:
        """Block until the checkpoint started last (if any) is done; for tests and shutdown."""
        pending = self._pending
        return pending.result() if pending is not None else None

    def close(self) -> None:
        """Wait for a running checkpoint, then close the connection. Called after the bot's own
        connection is closed, so this one is the last: SQLite then copies what is left of the log
        and removes the ``-wal`` file, as it did when the bot's connection was the only one."""
        if self._pending is not None:  # else no thread was ever started, nor a connection opened
            self._executor.submit(self._close_connection).result()
        self._executor.shutdown(wait=True)

    # -- on the checkpoint thread ---------------------------------------------------------------

    def _checkpoint(self) -> CheckpointResult | None:
        try:
            if self._connection is None:
                self._connection = sqlite3.connect(
                    self._target, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_SECONDS)
            previous = self.last
            mode = "TRUNCATE" if previous is not None and previous.log_pages >= LOG_PAGES_LIMIT else "PASSIVE"
            row = self._connection.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        except sqlite3.Error as error:
            _log.warning("SQLite checkpoint of %s failed (tried again later): %s", self._target, error)
            return None
        result = CheckpointResult(*(int(value) for value in row))
        self.last = result
        self.completed += 1
        return result

    def _close_connection(self) -> None:
        if self._connection is None:
            return
        try:
            self._connection.close()
        except sqlite3.Error as error:
            _log.warning("closing the checkpoint connection of %s failed: %s", self._target, error)
        self._connection = None
