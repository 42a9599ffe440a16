"""No press is lost when the loop is late (issue 23, item 7d): an edge is stamped with the time it happened.

The probe: 1,000 shoe reads and 1,000 presses a second for 30 s; the daemon counted 20,552-23,616 of 30,060
presses. Edges were stamped when a busy loop got to them, so a release and the next press on a button came
out within the debounce time and the press was taken for contact bounce.

Here the pins are gpiozero ``MockPin``s whose callbacks wait until the loop runs, as lgpio's alert thread's
do while a busy loop holds the GIL: each callback carries the pin's own time of the edge (gpiozero hands
``ticks`` to the device, ``LGPIOPin._call_when_changed``). Time is injected (gpiozero's mock clock and the
controller's are one settable clock), so the test is exact and does not sleep.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import gpiozero.pins.mock
import pytest
from gpiozero.pins.mock import MockFactory, MockPin
from gpiozero.pins.pi import PiPin

from dealerpi.config import Pin, load
from dealerpi.devices import ButtonBank, ButtonEdge, FakeDevices
from dealerpi.journal.file import Journal
from dealerpi.table.controller import Controller

ROOT = Path(__file__).parents[2]
WAITING: list[tuple[PiPin, float, bool]] = []     # callbacks the loop has not run yet: (pin, ticks, state)


class LateMockPin(MockPin):  # type: ignore[misc]
    """A mock pin whose callback waits in :data:`WAITING` with the time of its edge, until the loop runs."""

    def _call_when_changed(self) -> None:
        WAITING.append((self, self._last_change, self._state))


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_thousand_presses_a_second_on_a_loop_running_every_50_ms_are_all_counted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example 10-seat table with a 5 ms debounce: FOLD and CALL of every seat (20 buttons), each pressed
    50 times a second for 10 ms (1,000 presses a second, 2,000 edges, 10 ms apart on a button: twice the
    debounce time). The loop runs every 50 ms: each callback comes up to 50 ms after its edge. All 1,000
    presses are counted (none refused or lost: nobody sits, so each is a "not your turn" notice)."""
    clock = Clock()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", clock)      # the mock pins' edge times
    config = load(ROOT / "hardware" / "example.toml")
    config = dataclasses.replace(config, timing=dataclasses.replace(config.timing, debounce_ms=5),
                                 journal=tmp_path / "journal.jsonl")
    devices = FakeDevices(config)
    for factory in devices.factories.values():
        factory.close()
    devices.factories = {chip: MockFactory(pin_class=LateMockPin) for chip in devices.factories}
    journal, entries = Journal.open(config.journal)
    posted: list[ButtonEdge] = []
    controller = Controller(config, devices, journal, clock=clock, post=posted.append)
    controller.replay(entries)
    WAITING.clear()

    def run_loop(at: float) -> None:
        clock.now = at
        for pin, ticks, state in WAITING:
            PiPin._call_when_changed(pin, ticks, state)      # the callback, late, with its edge's time
        WAITING.clear()
        for edge in posted:
            controller.on_edge(edge)
        posted.clear()
        controller.tick()

    buttons = [panel.buttons[name] for panel in config.seats for name in ("fold", "call")]
    assert len(buttons) == 20
    edges: list[tuple[float, Pin, bool]] = []
    for cycle in range(50):                                  # 1 s: each button 50 times
        for number, pin in enumerate(buttons):
            down = 100.0 + cycle * 0.020 + number * 0.001
            edges += [(down, pin, True), (down + 0.0105, pin, False)]
    edges.sort(key=lambda edge: edge[0])
    next_run = 100.0 + 0.050
    for at, pin, pressed in edges:
        while at >= next_run:
            run_loop(next_run)
            next_run += 0.050
        clock.now = at
        (devices.press if pressed else devices.release)(pin)
    for _ in range(3):
        run_loop(next_run)
        next_run += 0.050
    counted: dict[str, Any] = dict(controller.presses)
    assert sum(counted.values()) == 1000
    assert counted == {f"seat {seat}": 100 for seat in range(1, 11)}
    assert journal.count == len(entries) + 1             # the config's table only: no press made an input
    controller.close()
    devices.close()


class RealtimeMockPin(MockPin):  # type: ignore[misc]
    """A mock pin stamping its edges as gpiozero's ``LGPIOPin`` does: lgpio's CLOCK_REALTIME nanoseconds / 1e9
    (lgUtil.c ``lguTimestamp``), while the factory's ``ticks()`` is monotonic (``LocalPiFactory``)."""

    def _call_when_changed(self) -> None:
        WAITING.append((self, WALL_AT_MONOTONIC_ZERO + self._last_change, self._state))


WALL_AT_MONOTONIC_ZERO = 1_795_000_000.0       # 2026-11-18 on the wall clock when the monotonic clock read 0


def test_an_lgpio_edge_stamped_on_the_realtime_clock_is_placed_on_the_monotonic_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A press 30 ms before its callback runs, stamped on the wall clock as lgpio stamps it: the edge gets
    the monotonic time it happened (gpiozero's ``active_time`` alone is decades off there)."""
    clock = Clock()

    class Clocks:
        @staticmethod
        def monotonic() -> float:
            return clock.now

        @staticmethod
        def time() -> float:
            return WALL_AT_MONOTONIC_ZERO + clock.now

    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", clock)
    monkeypatch.setattr("dealerpi.devices.buttons.time", Clocks)
    config = load(ROOT / "hardware" / "example.toml")
    devices = FakeDevices(config)
    for factory in devices.factories.values():
        factory.close()
    devices.factories = {chip: MockFactory(pin_class=RealtimeMockPin) for chip in devices.factories}
    posted: list[ButtonEdge] = []
    bank = ButtonBank(devices.button, clock, posted.append)
    pin = config.dealer.buttons["start"]
    bank.add("start", pin)
    WAITING.clear()
    devices.press(pin)                           # at 100.000
    clock.now = 100.030
    for late_pin, ticks, state in WAITING:
        PiPin._call_when_changed(late_pin, ticks, state)
    # to the microsecond: a wall-clock reading near 1.8e9 s holds a double's 16 digits, 0.2 us apart
    assert [(e.key, e.pressed, round(e.t, 6)) for e in posted] == [("start", True, 100.0)]
    bank.close()
    devices.close()
