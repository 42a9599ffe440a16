"""The pi side without a Pi: gpiochip and mux-channel lookup in sysfs, and one lgpio factory per chip."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

from dealerpi.config import Expander, Mux, Pin
from dealerpi.devices.gpio import expander_chip, lgpio_factory, mux_channel_bus


def test_expander_chip_from_sysfs(tmp_path: Path) -> None:
    (tmp_path / "1-0021" / "gpiochip3").mkdir(parents=True)
    assert expander_chip(Expander("x1", 1, 0x21, Pin(None, 27)), tmp_path) == 3
    with pytest.raises(FileNotFoundError, match=r"expander x0: no gpiochip under .*1-0020 .*addr=0x20"):
        expander_chip(Expander("x0", 1, 0x20, Pin(None, 17)), tmp_path)


def test_mux_channel_bus_from_sysfs(tmp_path: Path) -> None:
    (tmp_path / "i2c-13").mkdir()
    (tmp_path / "1-0070").mkdir()
    (tmp_path / "1-0070" / "channel-2").symlink_to(tmp_path / "i2c-13")
    assert mux_channel_bus(Mux("m0", 1, 0x70), 2, tmp_path) == 13
    with pytest.raises(FileNotFoundError, match=r"multiplexer m0: no .*channel-3"):
        mux_channel_bus(Mux("m0", 1, 0x70), 3, tmp_path)


class FakeLgpio(types.ModuleType):
    """Just enough of the lgpio module for gpiozero's LGPIOPin to drive outputs."""

    SET_PULL_NONE, SET_PULL_UP, SET_PULL_DOWN = 0x80, 0x20, 0x40
    BOTH_EDGES, RISING_EDGE, FALLING_EDGE = 3, 1, 2

    class error(Exception):
        pass

    def __init__(self) -> None:
        super().__init__("lgpio")
        self.lines: dict[tuple[int, int], dict[str, int]] = {}

    def gpiochip_open(self, chip: int) -> int:
        return 100 + chip

    def gpiochip_close(self, handle: int) -> None:
        pass

    def gpio_claim_input(self, handle: int, line: int, flags: int = 0) -> None:
        self.lines[handle, line] = {"mode": 0, "level": 0}

    def gpio_claim_output(self, handle: int, line: int, level: int = 0, flags: int = 0) -> None:
        self.lines[handle, line] = {"mode": 2, "level": level}

    def gpio_get_mode(self, handle: int, line: int) -> int:
        return self.lines[handle, line]["mode"]

    def gpio_read(self, handle: int, line: int) -> int:
        return self.lines[handle, line]["level"]

    def gpio_write(self, handle: int, line: int, level: int) -> None:
        self.lines[handle, line]["level"] = int(level)

    def gpio_free(self, handle: int, line: int) -> None:
        pass


def test_each_chip_has_its_own_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero's LocalPiFactory shares one pin table between instances; ours does not, so line 5 of
    the header and line 5 of an expander are two pins on two chips."""
    from gpiozero import LED
    from gpiozero.pins.local import LocalPiFactory

    fake = FakeLgpio()
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setattr(LocalPiFactory, "_get_revision", lambda self: 0xA02082)   # a Pi 3B
    header, expander = lgpio_factory(0), lgpio_factory(2)
    try:
        header_led: Any = LED("GPIO5", pin_factory=header)
        expander_led: Any = LED("GPIO5", pin_factory=expander)
        expander_led.on()
        assert fake.lines[102, 5]["level"] == 1
        assert fake.lines[100, 5]["level"] == 0
        header_led.on()
        expander_led.off()
        assert (fake.lines[100, 5]["level"], fake.lines[102, 5]["level"]) == (1, 0)
    finally:
        header.close()
        expander.close()


def test_pi_display_behind_a_mux_opens_the_channel_bus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A display on m0 channel 2 is opened on the /dev/i2c-N the kernel made for that channel, with the
    one-transfer-per-window interface (the first frame is the whole RAM: luma's clear())."""
    import smbus2

    from dealerpi.config import load
    from dealerpi.devices.factory import PiDevices
    from dealerpi.devices.oled import PartialSSD1306

    opened: list[Any] = []

    class FakeSMBus:
        def __init__(self, port: int) -> None:
            self.port = port
            self.rdwr: list[Any] = []
            opened.append(self)

        def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
            pass

        def i2c_rdwr(self, *messages: Any) -> None:
            self.rdwr.append(messages)

        def close(self) -> None:
            pass

    monkeypatch.setattr(smbus2, "SMBus", FakeSMBus)
    monkeypatch.setattr(smbus2.i2c_msg, "write", staticmethod(lambda address, data: (address, list(data))))
    root = Path(__file__).resolve().parents[2]
    config = load(root / "hardware" / "example.toml")
    (tmp_path / "i2c-24").mkdir()
    (tmp_path / "1-0070").mkdir()
    (tmp_path / "1-0070" / "channel-2").symlink_to(tmp_path / "i2c-24")
    device = PiDevices(config, sysfs=tmp_path).open_display(config.seats[2].display)   # seat 3: m0 channel 2
    assert isinstance(device, PartialSSD1306)
    assert [bus.port for bus in opened] == [24]
    (command, data), = opened[0].rdwr
    assert command == (0x3C, [0x00, 0x21, 0, 127, 0x22, 0, 7])
    assert data == (0x3C, [0x40] + [0] * 1024)
