"""The pi side without a Pi: gpiochip and mux-channel lookup in sysfs, and one lgpio factory per chip."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from pi_trees import FakeLgpio

from dealerpi.config import Mux
from dealerpi.devices.gpio import lgpio_factory, mux_channel_bus


def test_mux_channel_bus_from_sysfs(tmp_path: Path) -> None:
    (tmp_path / "i2c-13").mkdir()
    (tmp_path / "1-0070").mkdir()
    (tmp_path / "1-0070" / "channel-2").symlink_to(tmp_path / "i2c-13")
    assert mux_channel_bus(Mux("m0", 1, 0x70), 2, tmp_path) == 13
    with pytest.raises(FileNotFoundError,
                       match=r"multiplexer m0: no .*channel-3; check dtoverlay=i2c-mux,pca9548,addr=0x70"):
        mux_channel_bus(Mux("m0", 1, 0x70), 3, tmp_path)


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
    device = PiDevices(config, sysfs_i2c=tmp_path).open_display(config.seats[2].display)   # seat 3: m0 channel 2
    assert isinstance(device, PartialSSD1306)
    assert [bus.port for bus in opened] == [24]
    (command, data), = opened[0].rdwr
    assert command == (0x3C, [0x00, 0x21, 0, 127, 0x22, 0, 7])
    assert data == (0x3C, [0x40] + [0] * 1024)
