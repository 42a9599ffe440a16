"""The broadcast process's figures (issue 21): the first equity after the card that makes it computable, on the
table's own timeline; its start-up; its memory.

    .venv/bin/python bench/bench_broadcast.py [--hands 10] [--starts 5] [--compare OTHER_TREE]

A 10-seat table daemon (bench_latency's config, fake devices, its real Unix socket) plays hands dealt from a
shuffled deck, every seat folding to the big blind once the hole cards are out. Two broadcast processes
follow it over the socket, each in a process of its own as in production (the daemon's work does not share
their interpreter lock): one started by ``multiprocessing`` (``serve``, as ``dealerpi broadcast`` runs it),
which says when each spot's equity was there (the table's time of the last hole card, the daemon's wall
clock, to the moment the answer was back on the broadcast's event loop: the socket, the broadcast's own
table and the enumeration in its worker thread), read for VmRSS / VmHWM at the end. Then the start-up of
``dealerpi broadcast`` in a subprocess, ``--starts`` times with no session and with the session the first
one stored (a 30-minute window at the bench's pace): wall and CPU time (user + system, all its threads,
/proc/PID/stat) from its start to its "DealerPi broadcast on" line (serving) and to its "equity tables
built" line. The trees' bytecode is compiled first (``compileall``), as ``pip install`` does for an
installed copy (this machine's sessions set PYTHONDONTWRITEBYTECODE: an editable checkout would compile
every module at every start, docs/replay.md). With
``--compare`` another tree of the project (e.g. ``git worktree``/``git archive`` of an older commit, run
with this venv and ``PYTHONPATH``) is started on the same stored session, alternating, so that the two
are compared in one run on a machine whose load moves (ratios). Games: hold'em with 2, 3, 6 and 10 hands,
Omaha and Omaha hi-lo heads-up and 3-way. Goals (issue 21): first equity within 100 ms of the card,
start-up within 1 s, memory within 150 MiB.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.broadcast.server import Broadcast, serve  # noqa: E402
from dealerpi.broadcast.settings import BroadcastSettings  # noqa: E402
from dealerpi.broadcast.settings import load as load_settings  # noqa: E402
from dealerpi.cards import STANDARD  # noqa: E402
from dealerpi.config import load  # noqa: E402
from dealerpi.devices import FakeDevices  # noqa: E402
from dealerpi.engine.expectation import Waiting  # noqa: E402
from dealerpi.table.api.server import ApiServer  # noqa: E402
from dealerpi.table.controller import Controller  # noqa: E402
from dealerpi.table.daemon import open_journal  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
DRAINS: set[asyncio.Future[bytes]] = set()
SPOTS = [("nlhe", 2), ("nlhe", 3), ("nlhe", 6), ("nlhe", 10), ("plo", 2), ("plo", 3), ("plo8", 2), ("plo8", 3)]


def broadcast_config(folder: Path, table: Path, name: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(f'[broadcast]\ntable = "{table}"\nlisten = "127.0.0.1:0"\nstate = "{folder / name}"\n'
                    "delay_minutes = 30\n")
    return path


def status_mib(pid: int) -> dict[str, float]:
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return found


def cpu_ms(pid: int) -> float:
    """User + system CPU time of a process, all its threads (proc(5): /proc/PID/stat utime, stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


async def start_subprocess(config: Path, tree: Path = ROOT) -> tuple[asyncio.subprocess.Process, dict[str, float]]:
    """The process of ``tree``'s code; wall and CPU ms to its serving line and to its equity tables built."""
    began = time.perf_counter()
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    process = await asyncio.create_subprocess_exec(str(ROOT / ".venv" / "bin" / "python"), "-m", "dealerpi.cli",
                                                   "broadcast", "--config", str(config), env=environment,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None and process.pid is not None
    line = await process.stdout.readline()
    assert line.startswith(b"DealerPi broadcast on"), line
    times = {"serving": (time.perf_counter() - began) * 1000, "serving_cpu": cpu_ms(process.pid)}
    while b"equity tables built" not in (line := await process.stderr.readline()):
        assert line, "no 'equity tables built' line"
    times.update({"built": (time.perf_counter() - began) * 1000, "built_cpu": cpu_ms(process.pid)})
    DRAINS.add(asyncio.ensure_future(process.stderr.read()))        # keep the pipe drained
    return process, times


async def start_once(config: Path, tree: Path) -> dict[str, float]:
    process, times = await start_subprocess(config, tree)
    process.terminate()
    await process.wait()
    return times


def measured(settings: BroadcastSettings, pipe: Connection) -> None:
    """The measured broadcast, in a process of its own: serves until asked, then sends ``odds.ready`` and its
    memory."""
    async def run() -> None:
        found: asyncio.Future[Broadcast] = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(serve(settings, ready=lambda b, _p: found.set_result(b)))
        broadcast = await found
        while broadcast.session.table is None:
            await asyncio.sleep(0.01)
        # the equity tables built (the worker's first job) before the first hand, as in a session's start
        await asyncio.wrap_future(broadcast.session.odds._worker.submit(time.sleep, 0))
        pipe.send("following")
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        pipe.send((broadcast.session.odds.ready, status_mib(os.getpid())))
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    asyncio.run(run())


async def play(controller: Controller, game: str, players: int, rng: random.Random) -> None:
    """One hand of ``game`` with ``players`` seated: hole cards from a shuffled deck, then everyone folds."""
    table = controller.table
    controller.submit({"type": "table", "game": game, "rules": "home", "seats": 10, "blinds": [1, 2]})
    for seat in range(1, 11):
        if seat <= players and table.seat(seat).player is None:
            controller.submit({"type": "sit", "seat": seat, "player": NAMES[seat - 1], "stack": 200})
        elif seat > players and table.seat(seat).player is not None:
            controller.submit({"type": "leave", "seat": seat})
    deck = list(STANDARD.cards)
    rng.shuffle(deck)
    cards = iter(deck)
    outcome = controller.submit({"type": "start"})
    assert outcome.accepted, outcome.reason
    while not table.between_hands:
        expectation = table.expectation()
        if expectation.waiting in (Waiting.CARD, Waiting.BURN):
            controller.submit({"type": "card", "card": next(cards)})
        elif expectation.waiting is Waiting.ACTION:
            await asyncio.sleep(0.3)                 # the equity's time, as a player thinks
            legal = expectation.legal
            action = "check" if legal is not None and legal.check else "fold"
            controller.submit({"type": "act", "seat": expectation.seat, "action": action})
        else:
            raise AssertionError(expectation.words())
        await asyncio.sleep(0.01)


async def bench(hands: int, starts: int, compare: Path | None) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-broadcast-"))
    table_path = bench_latency.write_config(folder)
    table_path.write_text(table_path.read_text() + f'\n[console]\nsocket = "{folder / "api.sock"}"\n'
                          f'state = "{folder / "console"}"\n')
    config = load(table_path)
    journal, recovered, _checkpoint = open_journal(config)
    controller = Controller(config, FakeDevices(config), journal)
    api = ApiServer(controller, folder / "api.sock")
    controller.api = api
    controller.replay(recovered.entries, recovered)
    await api.start()
    settings = load_settings(broadcast_config(folder, table_path, "inproc"))
    pipe, child_end = multiprocessing.get_context("spawn").Pipe()
    child = multiprocessing.get_context("spawn").Process(target=measured, args=(settings, child_end))
    child.start()
    assert await asyncio.get_running_loop().run_in_executor(None, pipe.recv) == "following"
    rng = random.Random(21)
    spans: list[tuple[str, int, int, int]] = []          # game, hands, the table's ms at its start and end
    for game, players in SPOTS:
        for _ in range(hands):
            began = int(time.time() * 1000)
            await play(controller, game, players, rng)
            spans.append((game, players, began, int(time.time() * 1000)))
    await asyncio.sleep(1.0)
    pipe.send("report")
    ready: list[tuple[int, int]]
    ready, memory = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    child.join()
    latencies: dict[tuple[str, int], list[float]] = {}
    for game, players, began, ended in spans:
        firsts = [now - made for made, now in ready if began <= made <= ended][:1]
        latencies.setdefault((game, players), []).extend(firsts)
    stored = sum(1 for _ in (folder / "inproc" / "events.jsonl").open())
    trees = [("this tree", ROOT)] + ([("compared", compare)] if compare is not None else [])
    for _name, tree in trees:
        if not compileall.compile_dir(tree / "dealerpi", quiet=1):
            raise SystemExit(f"compileall failed in {tree}")
    runs: dict[tuple[str, str], list[dict[str, float]]] = {}
    for _ in range(starts):
        for name, tree in trees:
            for kind, copy in (("empty", False), ("stored", True)):
                state = folder / "startup"
                shutil.rmtree(state, ignore_errors=True)
                if copy:
                    shutil.copytree(folder / "inproc", state)
                runs.setdefault((name, kind), []).append(await start_once(broadcast_config(folder, table_path,
                                                                                           "startup"), tree))
    shutil.copytree(folder / "inproc", folder / "startup", dirs_exist_ok=True)
    process, _times = await start_subprocess(broadcast_config(folder, table_path, "startup"))
    await asyncio.sleep(1.0)
    memory_after = status_mib(process.pid or 0)
    process.terminate()
    await process.wait()
    await api.stop()
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]} on {os.cpu_count()} cores")
    print(f"first equity after the card that makes it computable (the table's clock to the answer), {hands} "
          "hands each:")
    for (game, players), values in latencies.items():
        print(f"  {game:5} {players:2} hands: median {statistics.median(values):6.1f} ms, max {max(values):6.1f} ms")
    print(f"dealerpi broadcast start-up, median of {starts} (stored session: {stored} inputs), wall / CPU ms:")
    for (name, kind), values in runs.items():
        figures = {key: statistics.median(v[key] for v in values) for key in values[0]}
        print(f"  {name:9} {kind:6}: serving {figures['serving']:5.0f} / {figures['serving_cpu']:4.0f}, "
              f"tables built {figures['built']:5.0f} / {figures['built_cpu']:4.0f}")
    print(f"its memory after the session: VmRSS {memory['VmRSS']:.1f} MiB, VmHWM {memory['VmHWM']:.1f} MiB; "
          f"restarted: VmRSS {memory_after['VmRSS']:.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--compare", type=Path, help="another tree of the project, started on the same session")
    args = parser.parse_args()
    asyncio.run(bench(args.hands, args.starts, args.compare))
    return 0


if __name__ == "__main__":
    sys.exit(main())
