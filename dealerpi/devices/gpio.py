"""GPIO lines as gpiozero pin factories: one factory per gpiochip, mock or lgpio.

A :class:`~dealerpi.config.Pin` is a chip and a line. The header is one gpiochip; each MCP23017 expander,
bound by the kernel's ``mcp23017`` overlay, is another. gpiozero's ``LGPIOFactory(chip=N)`` opens any
gpiochip, and gpiozero names lines ``GPIO<n>``, so line 5 of an expander is ``"GPIO5"`` on that chip's
factory. On the fake side each chip gets its own ``MockFactory``.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from threading import Lock
from typing import Any

from gpiozero.pins.mock import MockFactory

from dealerpi.config import Expander, Mux
from dealerpi.devices.ports import MockPins, PinFactory

_LOGGER = logging.getLogger(__name__)

SYSFS_I2C = Path("/sys/bus/i2c/devices")


def line_name(line: int) -> str:
    """gpiozero's name for a line of any chip it opens."""
    return f"GPIO{line}"


def mock_factories(chips: Iterable[str | None]) -> dict[str | None, MockPins]:
    """One MockFactory per chip (None = the header), so line 5 of two chips are two pins."""
    return {chip: MockFactory() for chip in chips}


def lgpio_factory(chip: int | None) -> PinFactory:
    """An lgpio pin factory for ``/dev/gpiochip<chip>`` (None: the Pi's header chip).

    gpiozero's ``LocalPiFactory`` shares one pin table and one reservation table between all its
    instances (a guard against two libraries driving one pin), so a second chip's line 5 would come
    back as the first chip's pin. The subclass gives each chip its own tables; that is the whole of it.
    lgpio is the optional ``[pi]`` extra, so it is imported here and only here.
    """
    from gpiozero.pins.lgpio import LGPIOFactory

    class ChipFactory(LGPIOFactory):  # type: ignore[misc]
        def __init__(self, chip: int | None) -> None:
            super().__init__(chip=chip)
            self.pins: dict[Any, Any] = {}
            self._reservations: defaultdict[Any, list[Any]] = defaultdict(list)
            self._res_lock = Lock()

    return ChipFactory(chip)


def _i2c_device_dir(bus: int, address: int, root: Path) -> Path:
    return root / f"{bus}-{address:04x}"


def expander_chip(expander: Expander, root: Path = SYSFS_I2C) -> int:
    """The gpiochip number the kernel gave an MCP23017 (``/sys/bus/i2c/devices/1-0020/gpiochipN``).

    gpiochip numbers follow probe order, so the config names the expander by bus and address instead.
    """
    device = _i2c_device_dir(expander.bus, expander.address, root)
    chips = sorted(device.glob("gpiochip*"))
    if not chips:
        raise FileNotFoundError(
            f"expander {expander.name}: no gpiochip under {device} (is dtoverlay=mcp23017,"
            f"addr=0x{expander.address:02x} in config.txt, and the chip wired?)")
    return int(chips[0].name.removeprefix("gpiochip"))


def mux_channel_bus(mux: Mux, channel: int, root: Path = SYSFS_I2C) -> int:
    """The /dev/i2c-N of one TCA9548A channel: the kernel links ``1-0070/channel-3`` to ``i2c-N``."""
    link = _i2c_device_dir(mux.bus, mux.address, root) / f"channel-{channel}"
    try:
        target = link.resolve(strict=True)
    except OSError as exc:
        raise FileNotFoundError(
            f"multiplexer {mux.name}: no {link} (is dtoverlay=i2c-mux,pca9548,addr=0x{mux.address:02x} "
            "in config.txt?)") from exc
    return int(target.name.removeprefix("i2c-"))
