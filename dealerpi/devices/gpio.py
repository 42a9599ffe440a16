"""GPIO chips found by label, and one gpiozero pin factory per chip (mock or lgpio).

A :class:`~dealerpi.config.Pin` is a chip and a line. gpiochip *numbers* follow probe order and kernel
version, so they are never configured or assumed: on a Pi 5 the header was ``gpiochip4`` until kernel 6.6.47
and is ``gpiochip0`` since (raspberrypi/linux PR #6144, which moved the SoC's own chips to 10 and up), and an
MCP23017 can get any free number, including the one the header had on another kernel. So the header chip is
the one whose label is a Pi's pin controller (:data:`HEADER_LABELS`), and an expander's chip is the one
labelled ``mcp23017`` (the label the kernel's pinctrl-mcp23s08 I2C driver gives it) whose parent device is
the expander's I2C address (``1-0020``). Chips are listed from ``/sys/bus/gpio/devices`` (``gpiochipN`` there
is ``/dev/gpiochipN``; ``/sys/class/gpio`` numbers are legacy bases, not device numbers, see gpiozero PR #1216),
and each chip's label and line count come from the character device itself (GPIO_GET_CHIPINFO_IOCTL, the
``chip info`` of libgpiod's gpiodetect).
"""

from __future__ import annotations

import fcntl
import importlib.metadata
import logging
import os
import struct
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from threading import Lock
from typing import Any

from gpiozero.pins.mock import MockFactory

from dealerpi.config import Expander, Mux
from dealerpi.devices.ports import MockPins, PinFactory

_LOGGER = logging.getLogger(__name__)

SYSFS_I2C = Path("/sys/bus/i2c/devices")
SYSFS_GPIO = Path("/sys/bus/gpio/devices")
DEV = Path("/dev")

# The 40-pin header's gpiochip label: Pi 5 (RP1), Pi 4 (BCM2711), Pi 3 and earlier (BCM2835). gpiodetect on a
# Pi 4 shows "gpiochip0 [pinctrl-bcm2711] (58 lines)", on a Pi 5 "gpiochip0 [pinctrl-rp1] (54 lines)".
HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
EXPANDER_LABEL = "mcp23017"

# linux/gpio.h: struct gpiochip_info { char name[32]; char label[32]; __u32 lines; } and
# GPIO_GET_CHIPINFO_IOCTL = _IOR(0xB4, 0x01, struct gpiochip_info) = (2 << 30) | (68 << 16) | (0xB4 << 8) | 1.
_CHIPINFO = struct.Struct("=32s32sI")
GPIO_GET_CHIPINFO_IOCTL = (2 << 30) | (_CHIPINFO.size << 16) | (0xB4 << 8) | 0x01


class HardwareMissing(FileNotFoundError):
    """A chip or multiplexer channel the config names is not there (yet): waiting may help."""


class HardwareError(RuntimeError):
    """Something waiting cannot fix (a library that ignores the chip asked for)."""


@dataclass(frozen=True)
class Chip:
    """One gpiochip: ``/dev/gpiochip<number>``, its driver's label, its line count, and its parent device
    (``1-0020`` for an I2C expander at 0x20 on bus 1)."""

    number: int
    label: str
    lines: int
    parent: str

    def __str__(self) -> str:
        return f"gpiochip{self.number} [{self.label}] ({self.lines} lines, on {self.parent})"


def line_name(line: int) -> str:
    """gpiozero's name for a line of any chip it opens."""
    return f"GPIO{line}"


def mock_factories(chips: Iterable[str | None]) -> dict[str | None, MockPins]:
    """One MockFactory per chip (None = the header), so line 5 of two chips are two pins."""
    return {chip: MockFactory() for chip in chips}


def decode_chip_info(raw: bytes) -> tuple[str, int]:
    """The label and line count from a ``struct gpiochip_info``."""
    _name, label, lines = _CHIPINFO.unpack(raw)
    return label.split(b"\0", 1)[0].decode("ascii", "replace"), int(lines)


def read_chip_info(number: int, dev: Path = DEV) -> tuple[str, int]:
    """Ask ``/dev/gpiochip<number>`` for its label and line count (needs read access: the gpio group)."""
    fd = os.open(dev / f"gpiochip{number}", os.O_RDONLY | os.O_CLOEXEC)
    try:
        raw = fcntl.ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, bytes(_CHIPINFO.size))
    finally:
        os.close(fd)
    return decode_chip_info(raw)


ChipInfo = Callable[[int], tuple[str, int]]


def list_chips(root: Path = SYSFS_GPIO, info: ChipInfo = read_chip_info) -> list[Chip]:
    """Every gpiochip the kernel has, by number; a chip whose device cannot be asked is left out and logged."""
    chips = []
    numbers = sorted(int(n) for p in root.glob("gpiochip*") if (n := p.name.removeprefix("gpiochip")).isdigit())
    for number in numbers:
        try:
            label, lines = info(number)
        except OSError as exc:
            _LOGGER.warning("gpiochip%d: cannot read its label (%s)", number, exc)
            continue
        chips.append(Chip(number, label, lines, (root / f"gpiochip{number}").resolve().parent.name))
    return chips


def _listing(chips: list[Chip]) -> str:
    return "; ".join(map(str, chips)) or "no gpiochip at all"


def header_chip(chips: list[Chip]) -> Chip:
    """The 40-pin header's chip, by label (never by number)."""
    for label in HEADER_LABELS:
        found = [chip for chip in chips if chip.label == label]
        if found:
            return found[0]
    raise HardwareMissing(
        f"no header gpiochip labelled {' or '.join(HEADER_LABELS)} (found: {_listing(chips)}); DealerPi needs a "
        "Raspberry Pi 4 or 5 running Raspberry Pi OS Bookworm or later (docs/install-pi.md)")


def i2c_device_name(bus: int, address: int) -> str:
    """The kernel's name of an I2C device: bus 1, address 0x20 -> ``1-0020``."""
    return f"{bus}-{address:04x}"


def expander_chip(expander: Expander, chips: list[Chip]) -> Chip:
    """An MCP23017's chip: labelled ``mcp23017`` and hanging off the expander's I2C address."""
    device = i2c_device_name(expander.bus, expander.address)
    for chip in chips:
        if chip.label == EXPANDER_LABEL and chip.parent == device:
            return chip
    raise HardwareMissing(
        f"expander {expander.name}: no {EXPANDER_LABEL} gpiochip on I2C {device}; check "
        f"dtoverlay=mcp23017,addr=0x{expander.address:02x} in /boot/firmware/config.txt, the chip's address "
        "pins and wiring, and `dmesg | grep -i mcp23`")


def mux_channel_bus(mux: Mux, channel: int, root: Path = SYSFS_I2C) -> int:
    """The /dev/i2c-N of one TCA9548A channel: the kernel links ``1-0070/channel-3`` to ``i2c-N``."""
    link = root / i2c_device_name(mux.bus, mux.address) / f"channel-{channel}"
    try:
        target = link.resolve(strict=True)
    except OSError as exc:
        raise HardwareMissing(
            f"multiplexer {mux.name}: no {link}; check dtoverlay=i2c-mux,pca9548,addr=0x{mux.address:02x} in "
            "/boot/firmware/config.txt and `dmesg | grep -i pca954`") from exc
    return int(target.name.removeprefix("i2c-"))


def mux_idle_state(mux: Mux, root: Path = SYSFS_I2C) -> int | None:
    """The pca954x driver's ``idle_state`` (-2: disconnect after each transfer; kernel 5.2+), None if absent."""
    try:
        return int((root / i2c_device_name(mux.bus, mux.address) / "idle_state").read_text().strip())
    except (OSError, ValueError):
        return None


def lgpio_factory(chip: int, factory_class: Any = None) -> PinFactory:
    """An lgpio pin factory for ``/dev/gpiochip<chip>``, refusing one that opened another chip.

    gpiozero 2.0 and 2.0.1 ignore ``LGPIOFactory(chip=N)`` and open the header's chip (gpiozero#1162, fixed in
    2.0.1.post1 by PR #1181): an expander's lines would land on the header, where lines 2 and 3 are the I2C
    bus itself. So the factory's own ``chip`` is checked after it is made.

    gpiozero's ``LocalPiFactory`` shares one pin table and one reservation table between all its instances
    (a guard against two libraries driving one pin), so a second chip's line 5 would come back as the first
    chip's pin. The subclass gives each chip its own tables. lgpio is the ``[pi]`` extra, imported only here.
    """
    if factory_class is None:
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
        except FileNotFoundError as exc:      # lgpio's import makes a pipe in the working directory
            raise HardwareError(
                f"lgpio cannot make its notify pipe in {os.getcwd()} ({exc.strerror}; joan2937/lg#22): run from a "
                "directory this user can write, or set LG_WD=/var/lib/dealerpi as the unit does") from exc
        factory_class = LGPIOFactory

    class ChipFactory(factory_class):  # type: ignore[misc]
        def __init__(self, chip: int) -> None:
            super().__init__(chip=chip)
            self.pins: dict[Any, Any] = {}
            self._reservations: defaultdict[Any, list[Any]] = defaultdict(list)
            self._res_lock = Lock()

    factory: PinFactory = ChipFactory(chip)
    opened = getattr(factory, "chip", None)
    if opened != chip:
        factory.close()
        raise HardwareError(
            f"gpiozero {importlib.metadata.version('gpiozero')} opened gpiochip{opened} when asked for gpiochip{chip} "
            "(gpiozero#1162): install the tested versions, pip install -c hardware/constraints-aarch64.txt "
            "(gpiozero 2.0.1.post3 or later), in a venv without --system-site-packages")
    return factory
