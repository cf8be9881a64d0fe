"""A throwaway PostgreSQL server on this machine: for the test suite and ``python -m bench scale``.

It uses the distribution's PostgreSQL binaries (``initdb``, ``pg_ctl``; Debian's ``postgresql``
package, which ``make test`` installs when missing), never a mock: initdb into a temporary folder,
listen on 127.0.0.1 on a free port, trust authentication, and ``fsync=off`` (the data is thrown
away). PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class NoPostgresError(RuntimeError):
    """No usable PostgreSQL server binaries on this machine."""


def find_bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl`` (PATH first, then Debian's layout)."""
    candidates = [os.environ.get("PROJECTL_PG_BIN", "")]
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    raise NoPostgresError("no PostgreSQL server binaries (initdb, pg_ctl) found; "
                          "install Debian's postgresql package or set PROJECTL_PG_BIN")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class PgServer:
    """A running server; :meth:`url` names a database on it, :meth:`stop` ends it."""

    bin_dir: Path
    folder: Path
    port: int
    run_as: list[str]

    @classmethod
    def start(cls) -> PgServer:
        bin_dir = find_bin_dir()
        folder = Path(tempfile.mkdtemp(prefix="projectl-pg-"))
        run_as: list[str] = []
        if os.geteuid() == 0:
            runuser = shutil.which("runuser")
            if runuser is None:
                raise NoPostgresError("running as root without runuser: cannot start PostgreSQL")
            shutil.chown(folder, "postgres")
            run_as = [runuser, "-u", "postgres", "--"]
        data = folder / "data"
        subprocess.run([*run_as, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                        "-E", "UTF8", "--no-sync"], check=True, capture_output=True)
        port = _free_port()
        server = cls(bin_dir, folder, port, run_as)
        server._pg_ctl("start")
        return server

    def _pg_ctl(self, command: str, *extra: str) -> None:
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off "
                   "-c max_connections=200")
        subprocess.run([*self.run_as, str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"),
                        "-l", str(self.folder / "log"), "-o", options, "-w", *extra, command],
                       check=True, capture_output=True)

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every client connection is dropped, as in a real restart."""
        self._pg_ctl("restart", "-m", "fast")

    def postmaster_pid(self) -> int:
        """The server's main process (the first line of its ``postmaster.pid``)."""
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        subprocess.run([*self.run_as, str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"),
                        "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


async def create_database(server: PgServer, name: str) -> str:
    """A new empty database on ``server``; its URL."""
    import asyncpg

    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return server.url(name)
