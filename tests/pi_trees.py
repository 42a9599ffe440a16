"""Fake sysfs trees of real Pis, for chip selection by label (no Pi needed).

Each tree is the gpiochips ``gpiodetect`` reports on that model and kernel, as ``number: (label, lines,
parent device path under /sys/devices)``. Sources: raspberrypi/linux PR #6144 (Pi 5 before and after the
header moved to gpiochip0 and the SoC chips to 10+), WiringPi/WiringPi#280 (Pi 5 on 6.6.20 and 6.6.47, Pi 4
on 6.6.47), mattjlewis/diozero#121 (Pi 4 on 5.x). An MCP23017 hangs off its I2C device (``1-0020``) with the
label ``mcp23017`` (the kernel's pinctrl-mcp23s08 I2C driver).
"""

from __future__ import annotations

import types
from pathlib import Path

from dealerpi.devices.gpio import ChipInfo

Tree = dict[int, tuple[str, int, str]]

PI4_I2C1 = "platform/soc/fe804000.i2c/i2c-1"
PI5_I2C1 = "platform/axi/1000120000.pcie/1f00074000.i2c/i2c-1"
PI5_RP1 = ("pinctrl-rp1", 54, "platform/axi/1000120000.pcie/1f000d0000.gpio")
PI5_SOC = [("gpio-brcmstb@107d508500", 32, "platform/soc@107c000000/107d508500.gpio"),
           ("gpio-brcmstb@107d508520", 4, "platform/soc@107c000000/107d508520.gpio"),
           ("gpio-brcmstb@107d517c00", 17, "platform/soc@107c000000/107d517c00.gpio"),
           ("gpio-brcmstb@107d517c20", 6, "platform/soc@107c000000/107d517c20.gpio")]

# Pi 4: the header is gpiochip0; the expanders probe out of address order (0x21 before 0x20).
PI4: Tree = {0: ("pinctrl-bcm2711", 58, "platform/soc/fe200000.gpio"),
             1: ("raspberrypi-exp-gpio", 8, "platform/soc/soc:firmware/soc:firmware:gpio"),
             2: ("mcp23017", 16, f"{PI4_I2C1}/1-0021"), 3: ("mcp23017", 16, f"{PI4_I2C1}/1-0020"),
             4: ("mcp23017", 16, f"{PI4_I2C1}/1-0023"), 5: ("mcp23017", 16, f"{PI4_I2C1}/1-0022")}
# Pi 5 before kernel 6.6.47: the SoC's chips are 0-3 and the header is gpiochip4.
PI5_OLD: Tree = {**dict(enumerate(PI5_SOC)), 4: PI5_RP1,
                 5: ("mcp23017", 16, f"{PI5_I2C1}/1-0020"), 6: ("mcp23017", 16, f"{PI5_I2C1}/1-0021"),
                 7: ("mcp23017", 16, f"{PI5_I2C1}/1-0022"), 8: ("mcp23017", 16, f"{PI5_I2C1}/1-0023")}
# Pi 5 since 6.6.47: the header is gpiochip0, the SoC's chips 10-13, and the expanders take the free numbers
# from 1 up, so expander 0x23 is gpiochip4: the number the header had on the older kernel (and the one
# gpiozero's default picks on a Pi 5 when /dev/gpiochip4 exists).
PI5_NEW: Tree = {0: PI5_RP1, **{10 + i: chip for i, chip in enumerate(PI5_SOC)},
                 1: ("mcp23017", 16, f"{PI5_I2C1}/1-0020"), 2: ("mcp23017", 16, f"{PI5_I2C1}/1-0021"),
                 3: ("mcp23017", 16, f"{PI5_I2C1}/1-0022"), 4: ("mcp23017", 16, f"{PI5_I2C1}/1-0023")}


def build_gpio(root: Path, tree: Tree) -> tuple[Path, ChipInfo]:
    """``root/bus/gpio/devices/gpiochipN`` linked to its device under ``root/devices``, as the kernel does,
    and the label reader that stands for GPIO_GET_CHIPINFO_IOCTL on ``/dev/gpiochipN``."""
    bus = root / "bus" / "gpio" / "devices"
    bus.mkdir(parents=True, exist_ok=True)
    for number, (_label, _lines, parent) in tree.items():
        device = root / "devices" / parent / f"gpiochip{number}"
        device.mkdir(parents=True, exist_ok=True)
        (bus / f"gpiochip{number}").symlink_to(device)

    def info(number: int) -> tuple[str, int]:
        label, lines, _parent = tree[number]
        return label, lines

    return bus, info


def build_muxes(root: Path, muxes: dict[str, int], *, idle_state: int = -2, first_bus: int = 11) -> Path:
    """``root/bus/i2c/devices``: each mux (``"1-0070"``) with its driver link, ``idle_state`` and eight
    ``channel-N`` links to ``i2c-M`` adapters, numbered on from ``first_bus`` as the kernel does."""
    i2c = root / "bus" / "i2c" / "devices"
    i2c.mkdir(parents=True, exist_ok=True)
    drivers = root / "bus" / "i2c" / "drivers" / "pca954x"
    drivers.mkdir(parents=True, exist_ok=True)
    bus = first_bus
    for name in muxes:
        mux = i2c / name
        mux.mkdir()
        (mux / "driver").symlink_to(drivers)
        (mux / "idle_state").write_text(f"{idle_state}\n")
        for channel in range(8):
            (i2c / f"i2c-{bus}").mkdir()
            (mux / f"channel-{channel}").symlink_to(i2c / f"i2c-{bus}")
            bus += 1
    return i2c


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
