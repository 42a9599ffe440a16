"""The card room's figures (issue 15): hands per second the room stores, table event to room page latency.

    .venv/bin/python bench/bench_room.py [--tables 20] [--hands 50] [--updates 10]
    .venv/bin/python bench/bench_room.py --real [--tables 20] [--hands 10] [--updates 10]

A real mosquitto on 127.0.0.1 (tests/mqtt_kit.py: ACL and passwords as docs/room.md), the room service as
its own process (``dealerpi room --config``), and N tables in this process playing at full speed.

``--real``: each table is the daemon's controller on fake devices (hardware/example.toml's 10 seats, its
journal folder fsync'd as on the Pi), its local API and the console's bridge (dealerpi.console.mqtt_bridge),
all N in this one process, driven by scripted inputs with no pause: 10 players sit, then each hand is
``start``, 20 hole cards from the shoe and 9 folds to the big blind. Hands: every table plays ``--hands``
hands at once; hands per second from the first input to the room page saying it stored them all (a hand is
published when the next ``start`` makes it final). Latency: each table in turn, ``--updates`` times, starts
a hand; from the ``start`` input to the room page showing that hand number (the whole path: the journal's
append, the API's push, the bridge, the broker, the room, the page's WebSocket), and the same from the
moment the start was journaled and applied (``latency_after_journal``: without the table's fdatasync).
CPU: the broker, the room, and this process (the tables, their bridges and the page watcher). All tables
share this one process, so each input's fdatasync (about 9 ms on this VM's disk: the profile's largest
item) holds up every table, where in a room each Pi waits on its own card; ``--shm`` puts the journals on
tmpfs to take the disk out. The tables' start-up objects are kept out of the garbage collector
(``gc.freeze``), as each table's own process would keep its full collections to one table's heap; with
``--one-heap`` they are not, and the full collections over all N tables' objects stall every table at once
(``gc_full_collections`` and ``gc_pause_ms_max`` in the output: the collector's pauses in this process).

``--postgresql``: the room stores into a PostgreSQL server started for the run (tests/pg_kit.py), not SQLite.

Without ``--real`` the tables are simulated publishers (one aiomqtt client each, its own broker user):

1. Hands: every table publishes ``--hands`` finished 10-seat hands (QoS 1, a 10-player PHH with a raise, a
   call, a flop bet and a showdown) as fast as the broker takes them; the room page's WebSocket says how
   many hands the room has stored: hands per second from the first publish to the last hand stored.
2. Latency: each table then publishes ``--updates`` states (a new hand number each, retained, QoS 1) one
   table after the other; the time from a table's publish to the room page's WebSocket showing that hand
   number: p50 and p99.
3. CPU seconds of the broker and the room (from /proc) over the whole run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

import aiohttp  # noqa: E402
from mqtt_kit import Broker, free_port  # noqa: E402
from orphan_kit import dies_with_parent  # noqa: E402

from dealerpi.webkit.mqtt import mqtt_client  # noqa: E402

NAMES = [f"P{i}" for i in range(10)]
PHH = ('variant = "NT"\nantes = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\nblinds_or_straddles = [1, 3, 0, 0, 0, 0, 0, 0, 0, 0]\n'
       'min_bet = 3\nstarting_stacks = [300, 300, 300, 300, 300, 300, 300, 300, 300, 300]\nactions = [\n'
       + "".join(f'  "d dh p{i} AsKd",\n' for i in range(1, 11))
       + '  "p3 cbr 9",\n' + "".join(f'  "p{i} f",\n' for i in range(4, 11)) + '  "p1 f",\n  "p2 cc",\n'
       '  "d db 7c8d9h",\n  "p2 cc",\n  "p3 cbr 12",\n  "p2 cc",\n  "d db 2s",\n  "p2 cc",\n  "p3 cc",\n'
       '  "d db 3h",\n  "p2 cc",\n  "p3 cc",\n  "p2 sm AsKd",\n  "p3 sm AsKd",\n]\n'
       f'players = {json.dumps(NAMES)}\n'
       'finishing_stacks = [299, 300, 301, 300, 300, 300, 300, 300, 300, 300]\n')


class Pauses:
    """The garbage collector's pauses in this process (gc.callbacks): they stall every table in it at once."""

    def __init__(self) -> None:
        self.full = 0
        self.longest = 0.0
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        self.longest = max(self.longest, time.perf_counter() - self._began)
        self.full += info["generation"] == 2


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def state(table: str, hand: int, hands: int) -> str:
    seats = {str(s): {"player": NAMES[s - 1], "stack": 300, "status": "active", "bet": 0, "blind": 0,
                      "button": s == 1, "turn": s == 3, "won": 0} for s in range(1, 11)}
    return json.dumps({"table": table, "session": "bench", "hands": hands, "hand": hand, "game": "nlhe",
                       "blinds": [1, 3], "board": [], "pots": [], "payouts": [], "seats": seats})


async def simulated(args: argparse.Namespace, broker: Broker, tables: list[str], stored: list[int],
                    arrived: dict[tuple[str, int], float]) -> tuple[int, float, list[float]]:
    """Simulated publishers: the hands flood, then the states one table after the other."""
    clients = [mqtt_client(broker.settings(t)) for t in tables]
    for client in clients:
        await client.__aenter__()
    total = args.tables * args.hands
    start = time.perf_counter()

    async def flood(table: str, client: Any) -> None:
        for seq in range(1, args.hands + 1):
            await client.publish(f"dealerpi/{table}/hand", json.dumps(
                {"table": table, "session": "bench", "seq": seq, "number": seq, "players": NAMES,
                 "phh": PHH}), qos=1)
    await asyncio.gather(*(flood(t, c) for t, c in zip(tables, clients, strict=True)))
    while stored[0] < total:
        await asyncio.sleep(0.005)
    elapsed = time.perf_counter() - start
    latencies = []
    for update in range(1, args.updates + 1):
        for table, client in zip(tables, clients, strict=True):
            hand = 1000 + update
            sent = time.perf_counter()
            await client.publish(f"dealerpi/{table}", state(table, hand, args.hands), qos=1, retain=True)
            while (table, hand) not in arrived:
                await asyncio.sleep(0.0005)
            latencies.append((arrived[(table, hand)] - sent) * 1000)
    for client in clients:
        await client.__aexit__(None, None, None)
    return total, elapsed, latencies


async def main(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    tables = [f"t{i}" for i in range(args.tables)]
    broker = Broker(folder, tables)
    broker.start()
    port = free_port()
    postgres = None
    database = "room.sqlite"
    if args.postgresql:
        from pg_kit import Postgres  # a real server in a temporary folder, as the tests start it
        postgres = Postgres()
        postgres.start()
        database = postgres.database()
    (folder / "room.toml").write_text(
        f'[room]\nlisten = "127.0.0.1:{port}"\ndatabase = "{database}"\n[mqtt]\nport = {broker.port}\n'
        f'password_file = "broker/room.password"\n')
    room = subprocess.Popen(dies_with_parent(      # a killed bench leaves no room running (tests/orphan_kit.py)
        [str(ROOT / ".venv" / "bin" / "dealerpi"), "room", "--config", str(folder / "room.toml")]),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert broker.process is not None
    stored = [0]
    arrived: dict[tuple[str, int], float] = {}
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(200):
                try:
                    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
                    break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.05)
            cpu0 = (cpu_seconds(broker.process.pid), cpu_seconds(room.pid), time.process_time())   # the room is up

            async def watch() -> None:
                async for message in ws:
                    summary = json.loads(message.data)
                    stored[0] = summary["hands"]
                    now = time.perf_counter()
                    for name, table in summary["tables"].items():
                        hand = table.get("hand")
                        if isinstance(hand, int) and (name, hand) not in arrived:
                            arrived[(name, hand)] = now
            watcher = asyncio.ensure_future(watch())
            pauses = Pauses()
            gc.callbacks.append(pauses)
            if args.real:
                from room_tables import real_tables  # the daemon's code: imported only for this mode
                total, elapsed, latencies, extra = await real_tables(args, folder, broker, tables, stored, arrived)
            else:
                total, elapsed, latencies = await simulated(args, broker, tables, stored, arrived)
                extra = {}
            gc.callbacks.remove(pauses)
            watcher.cancel()
            await ws.close()
        cpu1 = (cpu_seconds(broker.process.pid), cpu_seconds(room.pid), time.process_time())
    finally:
        room.terminate()
        room.wait()
        broker.kill()
        if postgres is not None:
            postgres.remove()
    latencies.sort()
    return {"mode": "real tables" if args.real else "simulated tables",
            "database": "postgresql" if postgres is not None else "sqlite", "tables": args.tables, "hands": total,
            "seconds": round(elapsed, 2), "hands_per_second": round(total / elapsed, 1),
            "latency_ms_p50": round(statistics.median(latencies), 1),
            "latency_ms_p99": round(latencies[int(0.99 * (len(latencies) - 1))], 1),
            "updates": len(latencies), **extra,
            "gc_full_collections": pauses.full, "gc_pause_ms_max": round(pauses.longest * 1000, 1),
            "cpu_seconds_broker": round(cpu1[0] - cpu0[0], 2), "cpu_seconds_room": round(cpu1[1] - cpu0[1], 2),
            "cpu_seconds_this_process": round(cpu1[2] - cpu0[2], 2)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=None, help="per table (default 50; 10 with --real)")
    parser.add_argument("--updates", type=int, default=10)
    parser.add_argument("--real", action="store_true", help="real tables: controller, API and bridge each")
    parser.add_argument("--shm", action="store_true", help="with --real: the tables' journals on /dev/shm")
    parser.add_argument("--one-heap", action="store_true",
                        help="with --real: leave the tables' start-up objects to every full collection")
    parser.add_argument("--postgresql", action="store_true", help="the room's store on PostgreSQL (tests/pg_kit.py)")
    arguments = parser.parse_args()
    if arguments.hands is None:
        arguments.hands = 10 if arguments.real else 50
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(asyncio.run(main(arguments, Path(tmp))), indent=1))
