"""The console's figures (issue 14): page load, click to update, bytes per update.

    .venv/bin/python bench/bench_console.py [--rounds 200]

A 10-seat table (hardware/example.toml on fake devices) with the daemon's local API and the console's web
app in one process (aiohttp's test server on 127.0.0.1), ten players seated by the host.

1. Page load: GET /host and every script and style it names, then the WebSocket until its first
   (whole) view: time and bytes.
2. Click to update: the host's page sends an input (a player away, then back) and the board's page receives
   the change: page -> console -> daemon socket -> journal (fsync) -> engine -> views -> socket -> console
   -> page. Median and 95th percentile.
3. Bytes per update: the size of each change frame to the board and the host against the whole view they
   would otherwise get (the simulator sends its whole state, ~37 KB, each time).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from dealerpi.config import load  # noqa: E402
from dealerpi.console.server import Console  # noqa: E402
from dealerpi.devices import FakeDevices  # noqa: E402
from dealerpi.journal.file import Journal  # noqa: E402
from dealerpi.table.api.server import ApiServer  # noqa: E402
from dealerpi.table.controller import Controller  # noqa: E402

TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}


def write_config(folder: Path) -> Path:
    """bench_latency's fake 10-seat table, with a ``[console]`` section."""
    path = bench_latency.write_config(folder)
    with path.open("a") as handle:
        handle.write(f'\n[console]\nsocket = "{folder / "api.sock"}"\nstate = "{folder / "console"}"\n')
    return path


async def run(folder: Path, rounds: int) -> dict[str, Any]:
    config = load(write_config(folder))
    assert config.console is not None
    journal, entries = Journal.open(config.journal)
    controller = Controller(config, FakeDevices(config), journal)
    api = ApiServer(controller, config.console.socket)
    controller.api = api
    controller.replay(entries)
    await api.start()
    client: TestClient[Any, Any] = TestClient(TestServer(Console(api.path, TOKENS, False, {}).app()))
    await client.start_server()
    figures: dict[str, Any] = {}
    try:
        cookie = {"Cookie": f"dealerpi_console={TOKENS['host']}"}
        host = await client.ws_connect("/ws?view=host", headers=cookie)
        await host.receive_str()
        for seat in range(1, 11):
            await host.send_str(json.dumps({"op": "input", "entry": {"type": "sit", "seat": seat,
                                                                     "player": f"Player {seat}", "stack": 200}}))
        while '"type":"result"' not in (await host.receive_str()) or len(controller.table.seats) < 10:
            pass
        started = time.perf_counter()
        page_bytes = 0
        page = await (await client.get("/host", headers=cookie)).text()
        page_bytes += len(page.encode())
        for path in re.findall(r'(?:src|href)="(/static/[^"]+)"', page):     # every script and style it names
            page_bytes += len(await (await client.get(path, headers=cookie)).read())
        board = await client.ws_connect("/ws?view=board", headers=cookie)
        first = await board.receive_str()
        figures["page load ms"] = (time.perf_counter() - started) * 1000
        figures["page bytes"] = page_bytes
        figures["board whole view bytes"] = len(first)
        figures["host whole view bytes"] = len(json.dumps({"type": "view", "view": api.view("host")},
                                                          separators=(",", ":")))
        latencies: list[float] = []
        board_sizes: list[int] = []
        host_sizes: list[int] = []
        for k in range(rounds):
            kind = "away" if k % 2 == 0 else "back"
            sent = time.perf_counter()
            await host.send_str(json.dumps({"op": "input", "entry": {"type": kind, "seat": 1 + k // 2 % 10}}))
            change = await board.receive_str()
            latencies.append((time.perf_counter() - sent) * 1000)
            board_sizes.append(len(change))
            for _ in range(2):                          # the host gets its change and its result
                message = await host.receive_str()
                if '"type":"changes"' in message:
                    host_sizes.append(len(message))
        figures["click to update ms (median)"] = statistics.median(latencies)
        figures["click to update ms (p95)"] = statistics.quantiles(latencies, n=20)[18]
        figures["board bytes per update"] = statistics.mean(board_sizes)
        figures["host bytes per update"] = statistics.mean(host_sizes)
    finally:
        await client.close()
        await api.stop()
        journal.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-console-") as folder:
        figures = asyncio.run(run(Path(folder), args.rounds))
    for name, value in figures.items():
        print(f"{name:32} {value:10.1f}" if isinstance(value, float) else f"{name:32} {value:10d}")
    ratio = figures["board whole view bytes"] / figures["board bytes per update"]
    print(f"a change is 1/{ratio:.0f} of the board's whole view")


if __name__ == "__main__":
    main()
