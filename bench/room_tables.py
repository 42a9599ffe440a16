"""bench_room.py --real: N real tables in this process, each the daemon's controller on fake devices
(hardware/example.toml's 10 seats, a journal folder fsync'd as on the Pi), its local API and the console's
bridge to the broker, driven by scripted inputs at full speed (see bench_room.py's docstring)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from mqtt_kit import Broker

from dealerpi.cards import STANDARD
from dealerpi.config import load
from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.devices import FakeDevices
from dealerpi.table.api.server import ApiServer
from dealerpi.table.controller import Controller
from dealerpi.table.daemon import open_journal

ROOT = Path(__file__).resolve().parents[1]
SEATS = 10


class Tags:
    """The deck library's interface: tag ``C<n>`` is the n-th card of a fixed order (20 hole cards a hand)."""

    def card_for(self, uid: str) -> tuple[str, str] | None:
        return ("bench", STANDARD.cards[int(uid[1:])])


class RealTable:
    def __init__(self, folder: Path, name: str, broker: Broker) -> None:
        folder.mkdir(parents=True)
        text = (ROOT / "hardware" / "example.toml").read_text()
        text = text.replace('devices = "pi"', 'devices = "fake"')
        text = text.replace('journal = "/var/lib/dealerpi/journal"', f'journal = "{folder / "journal.jsonl"}"')
        text = text.replace('decks = "/var/lib/dealerpi/decks"', f'decks = "{folder / "decks"}"')
        text = text.replace('log_level = "INFO"', 'log_level = "WARNING"')
        (folder / "table.toml").write_text(text + f'\n[console]\nsocket = "{folder / "api.sock"}"\n'
                                                  f'state = "{folder / "console"}"\n')
        config = load(folder / "table.toml")
        assert config.console is not None
        journal, recovered, _console = open_journal(config)
        self.name = name
        self.controller = Controller(config, FakeDevices(config), journal, clock=time.monotonic, decks=Tags())
        self.api = ApiServer(self.controller, config.console.socket)
        self.controller.api = self.api
        self.controller.replay(recovered.entries, recovered)
        self.bridge = TableBridge(broker.settings(name), config.console.socket, config.journal, retry=0.2)
        self.started: dict[int, tuple[float, float]] = {}   # hand number -> its start submitted, applied

    async def do(self, entry: dict[str, Any]) -> None:
        outcome = self.controller.submit(entry)
        if not outcome.accepted:
            raise RuntimeError(f"{self.name}: {entry} refused: {outcome.reason}")
        self.controller.refresh()
        await asyncio.sleep(0)                        # the API's push and the bridge run between inputs

    async def start(self) -> int:
        sent = time.perf_counter()
        outcome = self.controller.submit({"type": "start"})     # journaled (fdatasync), then applied
        applied = time.perf_counter()
        if not outcome.accepted:
            raise RuntimeError(f"{self.name}: start refused: {outcome.reason}")
        self.controller.refresh()
        number: int = self.controller.table.hand_number
        self.started[number] = (sent, applied)
        await asyncio.sleep(0)
        return number

    async def fold_to_the_big_blind(self, number: int) -> None:
        """Hand ``number`` (1, 2, ...), started: the button is seat ((number - 1) mod 10) + 1 (BLD-1, every
        seat taken); 20 hole cards; the first to act pre-flop is the seat after the big blind, and everyone
        but the big blind folds in turn (9 folds)."""
        for uid in range(2 * SEATS):
            self.controller.on_card(f"C{uid}")
            await asyncio.sleep(0)
        button = (number - 1) % SEATS + 1
        for step in range(3, SEATS + 2):              # UTG (button + 3) ... the small blind (button + 1)
            await self.do({"type": "act", "seat": (button + step - 1) % SEATS + 1, "action": "fold"})


def collection_ms() -> float:
    """One full collection now, out of the run's pause figures (gc.callbacks set aside): its milliseconds."""
    callbacks, gc.callbacks[:] = gc.callbacks[:], []
    began = time.perf_counter()
    gc.collect()
    gc.callbacks[:] = callbacks
    return (time.perf_counter() - began) * 1000


async def real_tables(args: argparse.Namespace, folder: Path, broker: Broker, names: list[str], stored: list[int],
                      arrived: dict[tuple[str, int], float]) -> tuple[int, float, list[float], dict[str, float]]:
    """Hands stored, seconds, the latencies from each ``start`` input (ms); and the figures from the moment
    the start was journaled and applied (the room's part of the path, without the table's fdatasync)."""
    if args.shm:            # the journals on tmpfs: fdatasync costs nothing, so the tables wait on no disk
        folder = Path(tempfile.mkdtemp(prefix="bench-room-", dir="/dev/shm"))
    tables = [RealTable(folder / "tables" / name, name, broker) for name in names]
    tasks = []
    for table in tables:
        await table.api.start()
        tasks.append(asyncio.ensure_future(table.bridge.run()))
        for seat in range(1, SEATS + 1):
            await table.do({"type": "sit", "seat": seat, "player": f"P{seat}", "stack": 300})
    # On its Pi each table's daemon and console are processes of their own: a full collection there walks one
    # table's objects. Here N tables share one heap, and each full (generation 2) collection walked all N
    # tables' start-up objects with every table stopped: 40-230 ms over 20 tables (gc.callbacks, issue 15),
    # the real-table p99's tail. Frozen (gc.freeze: kept out of every later collection), the collector walks
    # what the run makes, closer to N heaps each walking its own. --one-heap measures it the old way.
    whole = collection_ms()
    if not args.one_heap:
        gc.freeze()
    after_freeze = collection_ms()
    try:
        total = args.tables * args.hands
        start = time.perf_counter()

        async def play(table: RealTable) -> None:
            for _ in range(args.hands):
                await table.fold_to_the_big_blind(await table.start())
            await table.start()                       # the last hand is final once the next one starts
        await asyncio.gather(*(play(t) for t in tables))
        while stored[0] < total:
            await asyncio.sleep(0.005)
        elapsed = time.perf_counter() - start
        latencies, after_journal = [], []
        for _ in range(args.updates):
            for table in tables:
                number = table.controller.table.hand_number
                await table.fold_to_the_big_blind(number)
                number = await table.start()
                while (table.name, number) not in arrived:
                    await asyncio.sleep(0.0005)
                sent, applied = table.started[number]
                latencies.append((arrived[(table.name, number)] - sent) * 1000)
                after_journal.append((arrived[(table.name, number)] - applied) * 1000)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for table in tables:
            await table.api.stop()
        if args.shm:
            shutil.rmtree(folder, ignore_errors=True)
        gc.unfreeze()
    after_journal.sort()
    return total, elapsed, latencies, {
        "gc_full_collection_ms_all_objects": round(whole, 1), "gc_full_collection_ms_as_run": round(after_freeze, 1),
        "latency_after_journal_ms_p50": round(statistics.median(after_journal), 1),
        "latency_after_journal_ms_p99": round(after_journal[int(0.99 * (len(after_journal) - 1))], 1)}
