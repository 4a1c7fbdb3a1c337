"""A real PostgreSQL server for the tests, started on 127.0.0.1 from the Debian package's
binaries (installed by `make test` when missing) and stopped when the session ends.

initdb refuses to run as root, so as root the server runs as the `postgres` user (or
`nobody`). Each test gets its own schema (a `search_path` in its URL), so tests cannot see
each other's rows and no database needs creating.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class NoServer(Exception):
    """PostgreSQL is not installed here, or would not start."""


def _bin_dir() -> Path:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    dirs = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name or 0)
    )
    for d in reversed(dirs):
        if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
            return Path(d)
    raise NoServer("no PostgreSQL binaries (initdb, pg_ctl): `make test` installs them")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.dir = Path(tempfile.mkdtemp(prefix="escape-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self.user: str | None = None
        self._schemas = itertools.count(1)
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    entry = pwd.getpwnam(name)
                except KeyError:
                    continue
                self.user = name
                os.chown(self.dir, entry.pw_uid, entry.pw_gid)
                break
            else:
                raise NoServer("running as root and no unprivileged user to run PostgreSQL")

    def _run(self, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise NoServer(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> PostgresServer:
        self._run("initdb", "-D", str(self.data), "-U", "escape", "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} "
            f"-c unix_socket_directories={self.dir} -c fsync=off -c synchronous_commit=off "
            "-c full_page_writes=off -c max_connections=300"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options,
                  "-l", str(self.dir / "server.log"), "-w", "-t", "60", "start")  # fmt: skip
        return self

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(NoServer, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgresql://escape@127.0.0.1:{self.port}/postgres"

    async def new_schema(self) -> str:
        """A URL whose tables live in a fresh, empty schema."""
        import asyncpg

        name = f"t{os.getpid()}_{next(self._schemas)}"
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"CREATE SCHEMA {name}")
        finally:
            await conn.close()
        return f"{self.url}?search_path={name}"
