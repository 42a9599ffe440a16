"""Buttons (our debouncer, injected time), LEDs and the fake device factory (issue 5)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from gpiozero.pins.mock import MockPin

from dealerpi.config import Config, Pin, load
from dealerpi.devices import ButtonBank, ButtonEdge, Debouncer, FakeDevices, LedBank, make_devices

ROOT = Path(__file__).resolve().parents[2]


def fake_config() -> Config:
    return load(ROOT / "hardware" / "example.toml")


def test_debouncer_passes_first_edge_at_once_and_drops_chatter() -> None:
    d = Debouncer(0.030)
    assert d.edge(ButtonEdge("b", True, 1.000)) == [ButtonEdge("b", True, 1.000)]
    assert d.edge(ButtonEdge("b", False, 1.004)) == []       # contact bounce inside 30 ms
    assert d.edge(ButtonEdge("b", True, 1.009)) == []
    assert d.next_deadline() is None                          # raw level equals the reported level
    assert d.edge(ButtonEdge("b", False, 1.200)) == [ButtonEdge("b", False, 1.200)]


def test_debouncer_reports_a_release_that_fell_in_the_dead_time() -> None:
    d = Debouncer(0.030)
    d.edge(ButtonEdge("b", True, 2.000))
    assert d.edge(ButtonEdge("b", False, 2.010)) == []       # a 10 ms tap
    assert d.next_deadline() == 2.030
    assert d.poll(2.029) == []
    assert d.poll(2.031) == [ButtonEdge("b", False, 2.030)]
    assert d.next_deadline() is None


def test_debouncer_keys_are_independent() -> None:
    d = Debouncer(0.030)
    assert d.edge(ButtonEdge("a", True, 0.0)) == [ButtonEdge("a", True, 0.0)]
    assert d.edge(ButtonEdge("b", True, 0.001)) == [ButtonEdge("b", True, 0.001)]


def test_fake_press_reaches_the_bank_with_the_injected_clock() -> None:
    config = fake_config()
    devices = make_devices(config, fake=True)
    assert isinstance(devices, FakeDevices)
    posted: list[ButtonEdge] = []
    now = [10.0]
    bank = ButtonBank(devices.button, lambda: now[0], posted.append)
    bank.add((3, "bet"), config.seats[2].buttons["bet"])
    bank.add((4, "bet"), config.seats[3].buttons["bet"])   # same line number on another expander
    devices.press(Pin("x0", 10))                           # seat 3 bet is x0:10
    now[0] = 10.25
    devices.release(Pin("x0", 10))
    assert posted == [ButtonEdge((3, "bet"), True, 10.0), ButtonEdge((3, "bet"), False, 10.25)]
    bank.close()
    devices.close()


def test_callbacks_only_hand_the_edge_to_the_event_loop() -> None:
    """A gpiozero callback runs on a library thread; it must only call loop.call_soon_threadsafe."""
    config = fake_config()
    devices = FakeDevices(config)

    async def scenario() -> tuple[list[ButtonEdge], set[int]]:
        loop = asyncio.get_running_loop()
        seen: list[ButtonEdge] = []
        threads: set[int] = set()

        def on_edge(edge: ButtonEdge) -> None:
            threads.add(threading.get_ident())
            seen.append(edge)

        def to_loop(edge: ButtonEdge) -> None:
            loop.call_soon_threadsafe(on_edge, edge)

        bank = ButtonBank(devices.button, lambda: 1.5, to_loop)
        bank.add("start", config.dealer.buttons["start"])
        await loop.run_in_executor(None, devices.press, config.dealer.buttons["start"])   # another thread
        await asyncio.sleep(0)
        bank.close()
        return seen, threads

    seen, threads = asyncio.run(scenario())
    assert seen == [ButtonEdge("start", True, 1.5)]
    assert threads == {threading.get_ident()}     # handled on the loop's thread, not the pin's
    devices.close()


def test_led_bank_writes_only_changes() -> None:
    config = fake_config()
    devices = FakeDevices(config)
    leds = LedBank(devices.led)
    pin = config.seats[0].leds["action"]
    leds.add((1, "action"), pin)
    mock = devices.mock_pin(pin)
    assert isinstance(mock, MockPin)        # gpiozero's MockPin keeps every state written (its ``states``)
    writes_before = len(mock.states)
    assert leds.set((1, "action"), True) is True
    assert leds.set((1, "action"), True) is False
    assert devices.led_lit(pin) and leds.is_lit((1, "action"))
    assert len(mock.states) == writes_before + 1
    assert leds.set((9, "dealer"), True) is False       # no such LED (a header-only table): ignored
    assert leds.set((1, "action"), False) is True
    assert not devices.led_lit(pin)
    leds.close()
    devices.close()


def test_a_table_of_buttons_starts_no_thread_that_outlives_it() -> None:
    """Every button of the 10-seat example table (hardware/example.toml), made and closed: no thread is left.

    gpiozero's ``Button`` starts a ``HoldThread`` per button that polls every 0.1 s for the life of the
    process, even after the button is gone; our inputs time the hold themselves and must not start one.
    Before: one thread per button, so len(pins) threads left over (the test counts them)."""
    config = fake_config()
    pins = [pin for panel in config.seats for pin in panel.buttons.values()] + list(config.dealer.buttons.values())
    assert len(pins) == 35                                   # 10 seats x 3 buttons + the dealer's 5
    before = set(threading.enumerate())
    devices = FakeDevices(config)
    bank = ButtonBank(devices.button, lambda: 0.0, lambda edge: None)
    for number, pin in enumerate(pins):
        bank.add(number, pin)
    started = set(threading.enumerate()) - before
    bank.close()
    devices.close()
    assert started == set()
