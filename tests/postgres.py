"""A real PostgreSQL server for the tests, started on 127.0.0.1 from the Debian package's
binaries (installed by `make test` when missing) and stopped when the session ends.

initdb refuses to run as root, so as root the server runs as the `postgres` user (or
`nobody`). The server is a child of the test process that gets SIGQUIT (PostgreSQL's
immediate stop) if that process dies, so a killed test run leaves no server behind. Each
test gets its own schema (a `search_path` in its URL), so tests cannot see each other's
rows and no database needs creating.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1


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
        if (Path(d) / "initdb").exists() and (Path(d) / "postgres").exists():
            return Path(d)
    raise NoServer("no PostgreSQL binaries (initdb, postgres): `make test` installs them")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


OWNER_LOCK = "owner.lock"


def _own_folder(root: str | None = None) -> tuple[Path, int]:
    """A fresh server folder in `root` (the temp folder), and the descriptor holding its
    owner's lock for as long as this process lives. The folder is made and locked under a
    name the cleaner leaves alone, then renamed: no other test process can see it unlocked."""
    making = Path(tempfile.mkdtemp(prefix="escape-pgnew-", dir=root))
    fd = os.open(making / OWNER_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    folder = making.with_name(making.name.replace("escape-pgnew-", "escape-pg-", 1))
    os.rename(making, folder)
    return folder, fd


def _clean_stale(root: str | None = None) -> None:
    """Remove what killed test runs left in the temp folder: a server folder whose owner's
    lock is free. The kernel frees it when the owner dies, and the server dies with it
    (PR_SET_PDEATHSIG). The folder's postmaster.pid is no guide: during initdb it names
    single-user backends that come and go, and a pytest-xdist worker reading it between
    two of them once removed another worker's cluster as it was being made."""
    for folder in glob.glob(os.path.join(root or tempfile.gettempdir(), "escape-pg*-*")):
        try:
            fd = os.open(os.path.join(folder, OWNER_LOCK), os.O_RDONLY)
        except FileNotFoundError:
            # an older tree's folder, or one whose maker was killed before locking it
            with contextlib.suppress(OSError):
                if time.time() - os.path.getmtime(folder) > 3600:
                    shutil.rmtree(folder, ignore_errors=True)
            continue
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # its owner lives
        else:
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            os.close(fd)


class PostgresServer:
    def __init__(self) -> None:
        self.bin = _bin_dir()
        _clean_stale()
        self.dir, self._owner_lock = _own_folder()
        self.data = self.dir / "data"
        self.port = _free_port()
        self.ids: tuple[int, int] | None = None  # (uid, gid) to run as, when we are root
        self.process: subprocess.Popen | None = None
        self._schemas = itertools.count(1)
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                with contextlib.suppress(KeyError):
                    entry = pwd.getpwnam(name)
                    self.ids = (entry.pw_uid, entry.pw_gid)
                    os.chown(self.dir, *self.ids)
                    break
            else:
                raise NoServer("running as root and no unprivileged user to run PostgreSQL")

    def _child_setup(self) -> None:
        """In the child, before exec: drop root, then die with the parent."""
        if self.ids is not None:
            os.setgroups([])
            os.setgid(self.ids[1])
            os.setuid(self.ids[0])
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGQUIT)

    def start(self) -> PostgresServer:
        initdb = subprocess.run(
            [
                str(self.bin / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "escape",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            preexec_fn=self._child_setup,
            cwd=self.dir,
        )
        if initdb.returncode != 0:
            raise NoServer(f"initdb failed: {initdb.stdout}{initdb.stderr}")
        return self._launch()

    def _launch(self) -> PostgresServer:
        log = open(self.dir / "server.log", "ab")  # noqa: SIM115 - the server's, closed by it
        self.process = subprocess.Popen(
            [
                str(self.bin / "postgres"),
                "-D",
                str(self.data),
                "-p",
                str(self.port),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                f"unix_socket_directories={self.dir}",
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
                "-c",
                "max_connections=300",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=self._child_setup,
            cwd=self.dir,
        )
        log.close()
        deadline = time.monotonic() + 90
        while not self._ready():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise NoServer(f"postgres did not start: {self._log_tail()}")
            time.sleep(0.05)  # between two pg_isready probes while the server starts
        return self

    def _ready(self) -> bool:
        """pg_isready waits up to a second itself; True once the server takes connections."""
        done = subprocess.run(
            [
                str(self.bin / "pg_isready"),
                "-q",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "escape",
                "-t",
                "1",
            ],
            check=False,
            timeout=30,
        )
        return done.returncode == 0

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return (self.dir / "server.log").read_text(errors="replace")[-2000:]
        return ""

    def halt(self) -> None:
        """Stop the server but keep its data and port: a database gone away (its clients'
        connections are closed); `resume` brings it back."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)

    def resume(self) -> PostgresServer:
        return self._launch()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown: clients disconnected
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)
        with contextlib.suppress(OSError):
            os.close(self._owner_lock)

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
