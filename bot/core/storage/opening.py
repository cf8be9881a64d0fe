"""Why a database could not be opened, in one sentence for the person running the bot.

A first start on a bad database file (a folder, a text file, a truncated copy, a disk that is
full, a file another program holds locked) or an unreachable PostgreSQL must end in a sentence
that names the setting and what to do, never a traceback, and must leave the file as it was. So
the SQLite file is checked before SQLite touches it (SQLite writes its header when it switches
to WAL mode), and every error while opening is translated here into :class:`StorageOpenError`.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100


class StorageOpenError(Exception):
    """The database cannot be opened. ``str(error)`` is one sentence saying what and where."""


def check_sqlite_file(target: str) -> Path | None:
    """The file at ``target`` (``~`` expanded) if it exists, after checking it can be a SQLite
    database; None for ``:memory:`` or a file not created yet. Reads, never writes."""
    if target == ":memory:":
        return None
    path = Path(target).expanduser()
    if path.is_dir():
        raise StorageOpenError(
            f"PROJECTL_DB_PATH {target} is a folder, not a database file: name a file in it, "
            f"e.g. {path / 'projectl.sqlite3'}.")
    if not path.exists():
        return None
    try:
        with path.open("rb") as file:
            header = file.read(HEADER_SIZE)
        size = path.stat().st_size
    except OSError as error:
        raise StorageOpenError(
            f"cannot read the database file {target} ({error.strerror or error}): check its "
            "permissions (PROJECTL_DB_PATH).") from None
    if not header:
        return path  # an empty file: SQLite makes a new database in it
    if len(header) < HEADER_SIZE or not header.startswith(SQLITE_MAGIC):
        raise StorageOpenError(
            f"PROJECTL_DB_PATH {target} is not a SQLite database: point PROJECTL_DB_PATH at the "
            "bot's database file, or at a new file name to start an empty one.")
    promised = _promised_size(header)
    if promised is not None and size < promised and not _being_written(path):
        raise StorageOpenError(
            f"the database file {target} is damaged (truncated to {size:,} of the {promised:,} bytes "
            "it should hold): restore it from a backup; the bot left it as it was.")
    return path


def _being_written(path: Path) -> bool:
    """Whether another connection has the file open for writing (a -wal or -journal file beside
    it): a checkpoint may then have written the header's new page count before the pages that
    grow the file, so a file shorter than its header says is not (yet) a damaged one. Six
    processes starting on one new file saw that (tests/test_hardening_startup.py)."""
    return any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-journal"))


def stored_schema_version(path: Path) -> int | None:
    """The newest migration an existing database file records, read without writing anything:
    a read-only connection, and "immutable" when no -wal or -journal file is beside it (then the
    file holds every committed change, and SQLite creates no -wal or -shm to read it). None when
    it cannot tell (a new file, no ``schema_version`` table, a file another process is writing):
    the migrations then check again, under their lock."""
    beside = _being_written(path)
    uri = path.resolve().as_uri() + ("?mode=ro" if beside else "?mode=ro&immutable=1")
    try:
        reader = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return None
    try:
        if reader.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchone() is None:
            return None
        row = reader.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
        return int(row[0])
    except (sqlite3.Error, TypeError, ValueError):
        return None
    finally:
        reader.close()


def _promised_size(header: bytes) -> int | None:
    """The database's size by its own header, when the header says that figure is current."""
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    change_counter, valid_for = header[24:28], header[92:96]
    if pages == 0 or change_counter != valid_for:
        return None
    return page_size * pages


def make_sqlite_folder(target: str) -> None:
    """Create the folder that will hold a new database file."""
    if target == ":memory:":
        return
    folder = Path(target).expanduser().resolve().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StorageOpenError(
            f"cannot create the folder {folder} for the database (PROJECTL_DB_PATH): "
            f"{error.strerror or error}.") from None


def is_busy(error: BaseException) -> bool:
    """True when SQLite refused because another connection holds a lock."""
    return (getattr(error, "sqlite_errorname", "") or "").startswith("SQLITE_BUSY") or "locked" in str(error)


def explain_sqlite(target: str, error: BaseException) -> StorageOpenError:
    """A SQLite or file-system error raised while opening ``target``, as one sentence."""
    known = known_sqlite_fault(target, error)
    if known is not None:
        return known
    return StorageOpenError(f"cannot open the database file {target}: {_first_line(str(error))}.")


def known_sqlite_fault(target: str, error: BaseException) -> StorageOpenError | None:
    """:func:`explain_sqlite` for the faults of the file itself (locked, full, read-only,
    damaged, a disk error, cannot open); None for any other error (a bug: its traceback stands)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    if is_busy(error):
        return StorageOpenError(
            f"the database file {target} is locked by another program (another bot process, or a "
            "tool that has it open): close it, or give this bot its own PROJECTL_DB_PATH.")
    full = "disk is full" in text or getattr(error, "errno", None) == errno.ENOSPC
    if name.startswith("SQLITE_FULL") or full or (name.startswith("SQLITE_IOERR") and _disk_full(target)):
        return StorageOpenError(
            f"the disk holding the database file {target} is full: free some space and start the "
            "bot again.")
    if name.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text \
            or _on_read_only_disk(target):
        return StorageOpenError(
            f"the database file {target} (or its folder) is read-only: the bot must be able to "
            "write it and the files beside it (-wal, -shm).")
    damaged = "malformed" in text or "not a database" in text
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or damaged:
        return StorageOpenError(
            f"the database file {target} is damaged and cannot be read: restore it from a "
            "backup; the bot left it as it was.")
    if name.startswith("SQLITE_IOERR"):
        return StorageOpenError(
            f"the disk holding the database file {target} reported a read or write error: check "
            "the disk, then start the bot again.")
    if name.startswith("SQLITE_CANTOPEN") or isinstance(error, OSError):
        return StorageOpenError(
            f"cannot open the database file {target}: check that its folder exists and that the "
            "bot may write there (PROJECTL_DB_PATH).")
    return None


def explain_postgres(url: str, error: BaseException) -> StorageOpenError:
    """An error raised while connecting to (or migrating) the PostgreSQL database at ``url``, as
    one sentence that names the server without the password."""
    where = _server(url)
    kind = type(error).__name__
    if kind == "InvalidCatalogNameError":
        return StorageOpenError(
            f"PostgreSQL at {where} has no database {_database(url)!r}: create it "
            f"(createdb {_database(url)}) or fix PROJECTL_DATABASE_URL.")
    if kind in ("InvalidAuthorizationSpecificationError", "InvalidPasswordError"):
        return StorageOpenError(
            f"PostgreSQL at {where} refused the user {urlsplit(url).username or '(none)'!r}: create "
            "that role or fix the user and password in PROJECTL_DATABASE_URL.")
    if isinstance(error, OSError | TimeoutError):
        reason = getattr(error, "strerror", None) or kind
        return StorageOpenError(
            f"could not connect to PostgreSQL at {where} ({reason}): is the server running, and is "
            "PROJECTL_DATABASE_URL right?")
    return StorageOpenError(
        f"PostgreSQL at {where} refused to open the database: {_first_line(str(error)) or kind}.")


def _on_read_only_disk(target: str) -> bool:
    """Is the folder that holds (or would hold) ``target`` on a file system mounted read-only?
    SQLite reports a new file it could not create there only as "unable to open"."""
    try:
        return bool(os.statvfs(Path(target).expanduser().resolve().parent).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _disk_full(target: str, spare: int = 1 << 20) -> bool:
    """Is the file system that holds ``target`` (nearly) out of space? SQLite reports a write
    that found no room as an I/O error when the shared-memory file is the one that failed."""
    try:
        return shutil.disk_usage(Path(target).expanduser().resolve().parent).free < spare
    except OSError:
        return False


def _server(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    try:
        port = parts.port or 5432
    except ValueError:
        port = 5432
    return f"{host}:{port}"


def _database(url: str) -> str:
    return urlsplit(url).path.lstrip("/") or (urlsplit(url).username or "postgres")


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line.rstrip(".")


SQLITE_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
"""What opening a SQLite file can raise besides our own checks."""
