"""Issue 15: a killed test run leaves no server behind. Before, pg_kit's postgres and mqtt_kit's mosquitto were
plain children of pytest: killed with SIGKILL (or SIGTERM, which Python does not catch), pytest took no one with
it and both servers ran on, orphaned. Now they are started through orphan_kit (setpriv --pdeathsig).

The test runs what pytest runs, the two kits, in a child Python; kills the child with SIGKILL; then polls (every
50 ms, at most 10 s) until the postmaster, its backends and mosquitto are gone.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pg_kit import _sweep

pytestmark = pytest.mark.slow   # real PostgreSQL and mosquitto, killed with the run: 2 s

TESTS = Path(__file__).resolve().parents[1]
CHILD = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from mqtt_kit import Broker
from pg_kit import Postgres
server = Postgres()
server.start()
broker = Broker(Path(sys.argv[2]), ["t1"])
broker.start()
print(server.process.pid, broker.process.pid, server.folder, flush=True)
time.sleep(600)
"""


def running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie waiting for its reaper is dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def test_postgres_and_mosquitto_die_when_the_test_run_is_killed(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(TESTS), str(tmp_path)], stdout=subprocess.PIPE,
                             text=True)
    try:
        assert child.stdout is not None
        postmaster, mosquitto, folder = child.stdout.readline().split()
        servers = [int(postmaster), int(mosquitto)]
        backends = children(int(postmaster))
        assert backends                        # the checkpointer, the WAL writer...: they must go too
        assert all(running(pid) for pid in [*servers, *backends])
    finally:
        child.send_signal(signal.SIGKILL)       # as a CI timeout or the OOM killer kills pytest: no clean-up runs
        child.wait()
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in [*servers, *backends]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in [*servers, *backends] if running(pid)] == []
    assert not (Path(folder) / "data" / "postmaster.pid").exists()      # a fast shutdown, not a crash
    shutil.rmtree(folder)                      # the folder the killed run left (a later run's _sweep would)


def test_the_next_run_removes_the_folders_killed_runs_left(tmp_path: Path) -> None:
    """``_sweep`` removes a killed run's folder (no postmaster.pid, or one naming a dead process) once it is 600 s
    old, and keeps a younger one (another run's initdb) and one whose server runs."""
    ended = subprocess.Popen(["true"])
    ended.wait()                                 # a pid no process has now
    folders = {name: tmp_path / f"dealerpi-pg-{name}" for name in ("shut", "crashed", "young", "running")}
    for name, folder in folders.items():
        (folder / "data").mkdir(parents=True)
        pid = {"crashed": ended.pid, "running": os.getpid()}.get(name)
        if pid is not None:
            (folder / "data" / "postmaster.pid").write_text(f"{pid}\n/folder\n")
        if name != "young":
            old = time.time() - 601
            os.utime(folder, (old, old))
    _sweep(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["dealerpi-pg-running", "dealerpi-pg-young"]
