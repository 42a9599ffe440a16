"""The broadcast process's figures (issue 21): the first equity after the card that makes it computable, on the
table's own timeline; its start-up; its memory.

    .venv/bin/python bench/bench_broadcast.py [--hands 10]

A 10-seat table daemon (bench_latency's config, fake devices, its real Unix socket) plays hands dealt from a
shuffled deck, every seat folding to the big blind once the hole cards are out. Two broadcast processes
follow it over the socket: one in this process, which says when each spot's equity was there (the table's
time of the last hole card, the daemon's wall clock, to the moment the answer was back on the broadcast's
event loop: the socket, the broadcast's own table and the enumeration in its worker thread), and a real
``dealerpi broadcast`` subprocess, timed from its start to its "DealerPi broadcast on" line (imports,
the stored session read back) and read for VmRSS / VmHWM at the end. Games: hold'em with 2, 3, 6 and 10
hands, Omaha and Omaha hi-lo heads-up and 3-way. Goals (issue 21): first equity within 100 ms of the
card, start-up within 1 s, memory within 150 MiB.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.broadcast.server import Broadcast, serve  # noqa: E402
from dealerpi.broadcast.settings import load as load_settings  # noqa: E402
from dealerpi.cards import STANDARD  # noqa: E402
from dealerpi.config import load  # noqa: E402
from dealerpi.controller import Controller  # noqa: E402
from dealerpi.daemon import open_journal  # noqa: E402
from dealerpi.devices import FakeDevices  # noqa: E402
from dealerpi.engine.expectation import Waiting  # noqa: E402
from dealerpi.socket_api import ApiServer  # noqa: E402

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


async def start_subprocess(config: Path) -> tuple[asyncio.subprocess.Process, float, float]:
    """The process, ms to its serving line, ms to its equity tables built (from its start)."""
    began = time.perf_counter()
    process = await asyncio.create_subprocess_exec(str(ROOT / ".venv" / "bin" / "dealerpi"), "broadcast", "--config",
                                                   str(config), stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    line = await process.stdout.readline()
    assert line.startswith(b"DealerPi broadcast on"), line
    serving = (time.perf_counter() - began) * 1000
    while b"equity tables built" not in (line := await process.stderr.readline()):
        assert line, "no 'equity tables built' line"
    built = (time.perf_counter() - began) * 1000
    DRAINS.add(asyncio.ensure_future(process.stderr.read()))        # keep the pipe drained
    return process, serving, built


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


async def bench(hands: int) -> None:
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
    found: asyncio.Future[tuple[Broadcast, int]] = asyncio.get_running_loop().create_future()
    settings = load_settings(broadcast_config(folder, table_path, "inproc"))
    task = asyncio.ensure_future(serve(settings, ready=lambda b, p: found.set_result((b, p))))
    broadcast, _port = await found
    while not any(client.role == "broadcast" for client in api.clients):
        await asyncio.sleep(0.01)
    subprocess_config = broadcast_config(folder, table_path, "subproc")
    process, first_start, first_built = await start_subprocess(subprocess_config)
    rng = random.Random(21)
    latencies: dict[tuple[str, int], list[float]] = {}
    for game, players in SPOTS:
        for _ in range(hands):
            before = len(broadcast.session.odds.ready)
            await play(controller, game, players, rng)
            ready = broadcast.session.odds.ready[before:]
            if ready:
                latencies.setdefault((game, players), []).append(min(now - made for made, now in ready[:1]))
    await asyncio.sleep(1.0)
    memory = status_mib(process.pid or 0)
    process.terminate()
    await process.wait()
    stored = sum(1 for _ in (folder / "subproc" / "events.jsonl").open())
    process, second_start, second_built = await start_subprocess(subprocess_config)
    await asyncio.sleep(1.0)
    memory_after = status_mib(process.pid or 0)
    process.terminate()
    await process.wait()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await api.stop()
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]} on {os.cpu_count()} cores")
    print(f"first equity after the card that makes it computable (the table's clock to the answer), {hands} "
          "hands each:")
    for (game, players), values in latencies.items():
        print(f"  {game:5} {players:2} hands: median {statistics.median(values):6.1f} ms, max {max(values):6.1f} ms")
    print(f"dealerpi broadcast start-up to serving: {first_start:.0f} ms empty, {second_start:.0f} ms with a stored "
          f"session of {stored} inputs; equity tables built at {first_built:.0f} and {second_built:.0f} ms")
    print(f"its memory after the session: VmRSS {memory['VmRSS']:.1f} MiB, VmHWM {memory['VmHWM']:.1f} MiB; "
          f"restarted: VmRSS {memory_after['VmRSS']:.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(bench(args.hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
