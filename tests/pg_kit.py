"""A real PostgreSQL server for the room's store tests: ``initdb`` into a fresh folder and ``postgres`` as a
subprocess listening on a Unix socket in that folder only (no TCP port), never the system's service.

The binaries are found on PATH, else in Debian's /usr/lib/postgresql/VERSION/bin (the ``postgresql`` package,
which .ci/system-packages installs), else at ``pg_config --bindir``. initdb and postgres refuse to run as root
(initdb(1): "initdb must be run as the user that will own the server process"); under root (a CI container)
they run as the ``postgres`` user the Debian package creates, else ``nobody``, through subprocess's ``user=``.

A killed test run leaves no server (orphan_kit: postgres gets SIGINT, the fast shutdown, when pytest dies), and
the next run removes the folders such runs left.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg
from orphan_kit import dies_with_parent


def bindir() -> Path:
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).resolve().parent
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if debian:
        return debian[-1].parent
    if shutil.which("pg_config") is not None:
        text = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout
        if (Path(text.strip()) / "initdb").exists():
            return Path(text.strip())
    raise RuntimeError("PostgreSQL is not installed: `bash .ci/system-packages` installs it (the README's test "
                       "command runs it)")


def _sweep(parent: Path, *, older_than: float = 600) -> None:
    """Remove the folders of killed runs: no live server in them (``postmaster.pid`` names the server while it
    runs; a shutdown removes it), untouched for ``older_than`` seconds (another run's initdb is younger)."""
    for folder in parent.glob("dealerpi-pg-*"):
        try:
            if time.time() - folder.stat().st_mtime < older_than or _server_alive(folder / "data" / "postmaster.pid"):
                continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)


def _server_alive(pid_file: Path) -> bool:
    try:
        pid = int(pid_file.read_text().split("\n", 1)[0])
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True                       # unreadable (another user's, half written): leave it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True                       # another user's live process
    return True


def _owner() -> str | None:
    """The user the server runs as under root; None: this user."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL")


class Postgres:
    """One server for a test session; :meth:`database` makes a new, empty database for each test."""

    def __init__(self) -> None:
        self.bin = bindir()
        self.owner = _owner()
        _sweep(Path(tempfile.gettempdir()))
        self.folder = Path(tempfile.mkdtemp(prefix="dealerpi-pg-"))   # under /tmp: pytest's folder is 0700 root
        self.user = "dealerpi"
        self.process: subprocess.Popen[bytes] | None = None
        self.count = 0
        if self.owner is not None:
            shutil.chown(self.folder, self.owner)
        self._run([str(self.bin / "initdb"), "-D", str(self.folder / "data"), "-U", self.user, "--auth=trust",
                   "-E", "UTF8", "--no-instructions", "--no-sync"])

    def _run(self, argv: list[str]) -> None:
        subprocess.run(dies_with_parent(argv), check=True, capture_output=True, cwd=self.folder, user=self.owner)

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}@/postgres?host={self.folder}&port=5432"

    def start(self) -> None:
        # -c listen_addresses='': the Unix socket only; fsync off: a test's data need not survive a power cut.
        # If pytest dies, SIGINT: the fast shutdown (PostgreSQL docs, "Shutting Down the Server": the server
        # disconnects its clients, stops, and removes its socket and postmaster.pid)
        self.process = subprocess.Popen(dies_with_parent(
            [str(self.bin / "postgres"), "-D", str(self.folder / "data"), "-k", str(self.folder), "-p", "5432",
             "-c", "listen_addresses=", "-c", "fsync=off", "-c", "full_page_writes=off"], signal.SIGINT),
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "postgres.log", "ab"),  # noqa: SIM115
            cwd=self.folder, user=self.owner)
        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    log = (self.folder / "postgres.log").read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"postgres did not start:\n{log}") from None
                time.sleep(0.05)

    def database(self) -> str:
        """A new empty database's URL."""
        self.count += 1
        name = f"room{self.count}"
        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}".encode())
        return self.url.replace("/postgres?", f"/{name}?")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def remove(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

