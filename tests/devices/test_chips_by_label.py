"""Issue 13: gpiochips are found by label and I2C address, never by number, and a pin factory that opens
another chip than asked is refused (gpiozero#1162). Fake sysfs trees of a Pi 4 and a Pi 5 on both
numberings (tests/pi_trees.py)."""

from __future__ import annotations

import struct
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pi_trees import PI4, PI5_NEW, PI5_OLD, FakeLgpio, Tree, build_gpio

from dealerpi.config import Expander, Pin, load
from dealerpi.devices.gpio import (
    GPIO_GET_CHIPINFO_IOCTL,
    HardwareError,
    HardwareMissing,
    decode_chip_info,
    expander_chip,
    header_chip,
    lgpio_factory,
    list_chips,
)

ROOT = Path(__file__).resolve().parents[2]
EXPANDERS = [Expander(f"x{i}", 1, 0x20 + i, Pin(None, 17)) for i in range(4)]


def test_chipinfo_ioctl_number_and_struct() -> None:
    """linux/gpio.h: GPIO_GET_CHIPINFO_IOCTL = _IOR(0xB4, 0x01, struct gpiochip_info); the struct is
    name[32], label[32], __u32 lines = 68 bytes, so the number is (2 << 30) | (68 << 16) | (0xB4 << 8) | 1
    = 0x80000000 + 0x440000 + 0xB400 + 1 = 0x8044B401."""
    assert GPIO_GET_CHIPINFO_IOCTL == 0x8044B401
    raw = struct.pack("=32s32sI", b"gpiochip0", b"pinctrl-rp1", 54)
    assert len(raw) == 68
    assert decode_chip_info(raw) == ("pinctrl-rp1", 54)


@pytest.mark.parametrize(("tree", "header", "expanders"), [
    (PI4, 0, [3, 2, 5, 4]),          # Pi 4: 0x21 probed before 0x20, so x0 is gpiochip3
    (PI5_OLD, 4, [5, 6, 7, 8]),      # Pi 5 before 6.6.47: the header is gpiochip4
    (PI5_NEW, 0, [1, 2, 3, 4]),      # Pi 5 since 6.6.47: header gpiochip0, and x3 has the header's old number 4
], ids=["pi4", "pi5-old-numbering", "pi5-new-numbering"])
def test_header_and_expanders_by_label(tmp_path: Path, tree: Tree, header: int, expanders: list[int]) -> None:
    bus, info = build_gpio(tmp_path, tree)
    chips = list_chips(bus, info)
    assert [chip.number for chip in chips] == sorted(tree)
    assert header_chip(chips).number == header
    assert header_chip(chips).label in ("pinctrl-bcm2711", "pinctrl-rp1")
    assert [expander_chip(e, chips).number for e in EXPANDERS] == expanders
    assert [expander_chip(e, chips).parent for e in EXPANDERS] == ["1-0020", "1-0021", "1-0022", "1-0023"]


def test_an_expander_on_another_bus_is_not_taken(tmp_path: Path) -> None:
    """An mcp23017 at 0x20 on i2c-3 is not expander x0 (0x20 on i2c-1): the address is bus and address."""
    tree = {0: PI4[0], 2: ("mcp23017", 16, "platform/soc/fe205600.i2c/i2c-3/3-0020")}
    chips = list_chips(*build_gpio(tmp_path, tree))
    with pytest.raises(HardwareMissing, match=r"expander x0: no mcp23017 gpiochip on I2C 1-0020; check "
                                              r"dtoverlay=mcp23017,addr=0x20 in /boot/firmware/config.txt"):
        expander_chip(EXPANDERS[0], chips)


def test_no_header_chip_says_which_chips_there_are(tmp_path: Path) -> None:
    chips = list_chips(*build_gpio(tmp_path, {0: ("gpio-sim.0-node0", 8, "platform/gpio-sim.0")}))
    with pytest.raises(HardwareMissing, match=r"no header gpiochip labelled pinctrl-rp1 or pinctrl-bcm2711 or "
                                              r"pinctrl-bcm2835 \(found: gpiochip0 \[gpio-sim.0-node0\] \(8 lines"):
        header_chip(chips)


class RecordingFactory:
    """Stands for gpiozero's LGPIOFactory: remembers which chip each factory opened."""

    opened: ClassVar[list[int]] = []

    def __init__(self, chip: int | None = None) -> None:
        assert chip is not None
        self.chip = chip
        RecordingFactory.opened.append(chip)

    def close(self) -> None:
        pass


class IgnoresChip(RecordingFactory):
    """gpiozero 2.0 and 2.0.1: ``chip = 4 if pi5 else 0`` overwrites the argument (gpiozero#1162)."""

    def __init__(self, chip: int | None = None) -> None:
        super().__init__(0)


def test_pi_devices_open_each_chip_by_its_label_pi5_collision(tmp_path: Path) -> None:
    """Pi 5, new numbering: the header is opened as gpiochip0 and x3 as gpiochip4, never the other way."""
    from dealerpi.devices.factory import PiDevices

    bus, info = build_gpio(tmp_path, PI5_NEW)
    config = load(ROOT / "hardware" / "example.toml")
    RecordingFactory.opened = []
    devices = PiDevices(config, sysfs_gpio=bus, chip_info=info, factory_class=RecordingFactory)
    for chip in (None, "x0", "x1", "x2", "x3", "x3"):
        devices.pin_factory(chip)
    assert RecordingFactory.opened == [0, 1, 2, 3, 4]


def test_a_factory_that_opens_another_chip_is_refused() -> None:
    with pytest.raises(HardwareError, match=r"opened gpiochip0 when asked for gpiochip4 \(gpiozero#1162\): "
                                            r"install the tested versions"):
        lgpio_factory(4, IgnoresChip)


def test_installed_gpiozero_honours_the_chip(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gpiozero this suite runs with (the constraints file's) opens the chip asked for, on a Pi 5
    (revision 0xc04170: type 0x17) where 2.0.1 would have forced 4."""
    from gpiozero.pins.local import LocalPiFactory

    fake = FakeLgpio()
    monkeypatch.setitem(sys.modules, "lgpio", fake)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    monkeypatch.setattr(LocalPiFactory, "_get_revision", lambda self: 0xC04170)
    factory: Any = lgpio_factory(2)
    try:
        assert factory.chip == 2
    finally:
        factory.close()
