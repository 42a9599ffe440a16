"""Presses counted under load (issue 23, item 7d): 1,000 shoe reads and 1,000 presses a second on the daemon's loop.

    .venv/bin/python bench/bench_presses.py [--seconds 30] [--rate 1000]

The example 10-seat table (fake pins and displays) with a 5 ms debounce, run as ``serve`` runs it: one
asyncio loop, gpiozero callbacks handed over with ``call_soon_threadsafe``. Three threads besides it:

- a "finger" drives the mock pins of the 20 FOLD and CALL buttons, ``--rate`` presses a second in all (each
  button held 10 ms, 10 ms up: twice the debounce time), on a real-time schedule;
- lgpio's alert thread is modelled: each pin's callback is queued with the time of its edge and run by a
  delivery thread, as lgpio reports a kernel-stamped edge when its thread gets the GIL. The edge's time is
  the schedule's (the kernel stamps it at the interrupt), however late the finger's thread gets the GIL;
- a shoe feeds ``--rate`` reads a second (a tag no deck knows: each is journaled with its identity, DEAL-7)
  through ``Controller.on_read`` on the loop, as the shoe link does; the journal is on /dev/shm when there
  is one (a bench of the loop, not of the SD card's fsync).

It prints the presses sent and counted, the reads sent and journaled, and how late the callbacks ran
(p50/p99/max of the callback's time - the edge's time). Goal: every press and every read counted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import queue
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gpiozero.pins.mock  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPin  # noqa: E402
from gpiozero.pins.pi import PiPin  # noqa: E402

from dealerpi.config import load  # noqa: E402
from dealerpi.devices import ButtonEdge, FakeDevices  # noqa: E402
from dealerpi.journal.file import Journal  # noqa: E402
from dealerpi.shoe.session import CardRead  # noqa: E402
from dealerpi.table.controller import Controller  # noqa: E402

DELIVERIES: queue.Queue[tuple[Any, float, bool]] = queue.Queue()
SCHEDULED = threading.local()     # the finger's thread: the time its current edge is due


def pin_clock() -> float:
    """gpiozero's mock clock: on the finger's thread the edge's scheduled time (the kernel's stamp)."""
    at: float | None = getattr(SCHEDULED, "at", None)
    return at if at is not None else time.monotonic()


class QueuedPin(MockPin):  # type: ignore[misc]
    """A mock pin whose callback is run by the delivery thread, with the time of its edge."""

    def _call_when_changed(self) -> None:
        DELIVERIES.put((self, self._last_change, self._state))


def deliver(stop: threading.Event, lateness: list[float]) -> None:
    while not stop.is_set():
        try:
            pin, ticks, state = DELIVERIES.get(timeout=0.1)
        except queue.Empty:
            continue
        lateness.append(time.monotonic() - ticks)
        PiPin._call_when_changed(pin, ticks, state)


def finger(devices: FakeDevices, pins: list[Any], seconds: float, rate: int, start: float) -> None:
    """Press each button for 10 ms every ``len(pins) / rate`` seconds, the buttons spread over that period."""
    period = len(pins) / rate
    edges = sorted((start + cycle * period + number * period / len(pins) + offset, pin, pressed)
                   for cycle in range(int(seconds / period)) for number, pin in enumerate(pins)
                   for offset, pressed in ((0.0, True), (period / 2, False)))
    for at, pin, pressed in edges:
        delay = at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        SCHEDULED.at = at
        (devices.press if pressed else devices.release)(pin)


async def run(seconds: float, rate: int, folder: Path) -> dict[str, Any]:
    gpiozero.pins.mock.monotonic = pin_clock
    config = load(ROOT / "hardware" / "example.toml")
    config = dataclasses.replace(config, timing=dataclasses.replace(config.timing, debounce_ms=5),
                                 journal=folder / "journal.jsonl")
    devices = FakeDevices(config)
    for factory in devices.factories.values():
        factory.close()
    devices.factories = {chip: MockFactory(pin_class=QueuedPin) for chip in devices.factories}
    journal, entries = Journal.open(config.journal)
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def post(edge: ButtonEdge) -> None:
        loop.call_soon_threadsafe(controller.on_edge, edge)
        loop.call_soon_threadsafe(wake.set)

    controller = Controller(config, devices, journal, post=post)
    controller.replay(entries)
    pins = [panel.buttons[name] for panel in config.seats for name in ("fold", "call")]
    stop = threading.Event()
    lateness: list[float] = []
    start = time.monotonic() + 0.2
    threads = [threading.Thread(target=deliver, args=(stop, lateness)),
               threading.Thread(target=finger, args=(devices, pins, seconds, rate, start))]
    for thread in threads:
        thread.start()
    reads_sent = 0
    while threads[1].is_alive() or not DELIVERIES.empty():
        now = time.monotonic()
        due = min(int((now - start) * rate), int(seconds * rate)) if now > start else 0
        while reads_sent < due:                       # the shoe's reads that came in since the last turn
            reads_sent += 1
            controller.on_read(CardRead("04A1B2C3D4", "0BADCAFE", reads_sent))
        controller.tick()
        wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), 0.001)
    for _ in range(20):                               # the last debounce deadlines
        await asyncio.sleep(0.01)
        controller.tick()
    stop.set()
    threads[0].join()
    presses_sent = len(pins) * int(seconds / (len(pins) / rate))
    journaled = journal.count - len(entries) - 1      # less the config's table line
    controller.close()
    devices.close()
    journal.close()
    late = sorted(lateness)
    return {"presses": (sum(controller.presses.values()), presses_sent), "reads": (journaled, reads_sent),
            "late_ms": [round(x * 1000, 2) for x in (statistics.median(late), late[int(len(late) * 0.99)],
                                                      late[-1])]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=int, default=1000)
    args = parser.parse_args()
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as name:
        result = asyncio.run(run(args.seconds, args.rate, Path(name)))
    counted, sent = result["presses"]
    journaled, reads = result["reads"]
    print(f"presses counted {counted:,} of {sent:,}; reads journaled {journaled:,} of {reads:,}; "
          f"callbacks late by p50/p99/max {result['late_ms'][0]}/{result['late_ms'][1]}/{result['late_ms'][2]} ms")
    print("OK" if counted == sent and journaled == reads else "FAIL: presses or reads lost")


if __name__ == "__main__":
    main()
