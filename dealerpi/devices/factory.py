"""The device factory: chosen once from the config (``fake`` or ``pi``) and passed in, never global.

Both kinds make the same things: gpiozero ``Button`` and ``LED`` objects for :class:`~dealerpi.config.Pin`
lines, and luma devices for :class:`~dealerpi.config.DisplayConfig` entries. The fake uses gpiozero's
``MockFactory`` (one per chip) and luma.core's ``dummy`` device, and adds what tests and the simulator drive:
:meth:`FakeDevices.press`, :meth:`FakeDevices.release`, :meth:`FakeDevices.image`.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from gpiozero import LED, Button
from luma.core.device import dummy
from PIL import Image

from dealerpi.config import Config, DisplayConfig, Pin
from dealerpi.devices.gpio import SYSFS_I2C, expander_chip, lgpio_factory, line_name, mock_factories, mux_channel_bus
from dealerpi.devices.ports import Closeable, Led, MockLine, PinFactory, PushButton, Screen

_LOGGER = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64


class Devices(ABC):
    """Makes buttons, LEDs and displays for one table."""

    kind: str

    def __init__(self, config: Config) -> None:
        self.config = config
        self._expanders = {e.name: e for e in config.expanders}
        self._muxes = {m.name: m for m in config.muxes}
        self._made: list[Closeable] = []

    @abstractmethod
    def pin_factory(self, chip: str | None) -> PinFactory:
        """The gpiozero pin factory of one chip (None = the header)."""

    def button(self, pin: Pin) -> PushButton:
        """A button closing to GND (pull-up on). Debouncing is ours (devices.buttons), not gpiozero's."""
        button: PushButton = Button(line_name(pin.line), pull_up=True, bounce_time=None,
                        pin_factory=self.pin_factory(pin.chip))
        self._made.append(button)
        return button

    def led(self, pin: Pin) -> Led:
        led: Led = LED(line_name(pin.line), pin_factory=self.pin_factory(pin.chip))
        self._made.append(led)
        return led

    @abstractmethod
    def open_display(self, display: DisplayConfig) -> Screen:
        """A luma device for ``display``; may raise OSError or luma's errors (DisplaySlot catches them)."""

    def close(self) -> None:
        for thing in reversed(self._made):
            thing.close()
        self._made.clear()


class FakeDevices(Devices):
    """Mock pins and dummy displays, for tests and the simulator."""

    kind = "fake"

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self.factories = mock_factories([None, *self._expanders])
        self.displays: dict[DisplayConfig, dummy] = {}
        self.broken: set[DisplayConfig] = set()   # displays that fail to open or draw, for tests

    def pin_factory(self, chip: str | None) -> PinFactory:
        return self.factories[chip]

    def mock_pin(self, pin: Pin) -> MockLine:
        return self.factories[pin.chip].pin(line_name(pin.line))

    def press(self, pin: Pin) -> None:
        """Close the button on ``pin`` (drive the line low), as a finger would."""
        self.mock_pin(pin).drive_low()

    def release(self, pin: Pin) -> None:
        self.mock_pin(pin).drive_high()

    def led_lit(self, pin: Pin) -> bool:
        return bool(self.mock_pin(pin).state)

    def open_display(self, display: DisplayConfig) -> Screen:
        if display in self.broken:
            raise OSError(5, f"Input/output error ({display.where()})")
        device = _BreakableDummy(self, display, width=WIDTH, height=HEIGHT, rotate=display.rotate,
                                 mode="1")
        self.displays[display] = device
        return device

    def image(self, display: DisplayConfig) -> Image.Image | None:
        """The last frame shown on ``display`` (None before the first)."""
        device = self.displays.get(display)
        return None if device is None else device.image


class _BreakableDummy(dummy):  # type: ignore[misc]
    """luma's dummy device that raises like a real one when its display is in ``FakeDevices.broken``."""

    def __init__(self, owner: FakeDevices, where: DisplayConfig, **kwargs: Any) -> None:
        self._owner = owner
        self._where = where
        super().__init__(**kwargs)

    def display(self, image: Image.Image) -> None:
        if self._where in self._owner.broken:
            raise OSError(5, "Input/output error")
        super().display(image)


class PiDevices(Devices):
    """lgpio pins (one factory per gpiochip) and I2C OLEDs with the partial-update drivers."""

    kind = "pi"

    def __init__(self, config: Config, sysfs: Path = SYSFS_I2C) -> None:
        super().__init__(config)
        self._sysfs = sysfs
        self._factories: dict[str | None, PinFactory] = {}

    def pin_factory(self, chip: str | None) -> PinFactory:
        if chip not in self._factories:
            number = None if chip is None else expander_chip(self._expanders[chip], self._sysfs)
            _LOGGER.info("opening gpiochip %s for %s", "auto" if number is None else number, chip or "header")
            self._factories[chip] = lgpio_factory(number)
        return self._factories[chip]

    def open_display(self, display: DisplayConfig) -> Screen:
        from dealerpi.devices.oled import DRIVERS, WindowI2C

        if display.mux is not None:
            assert display.channel is not None
            port = mux_channel_bus(self._muxes[display.mux], display.channel, self._sysfs)
        else:
            assert display.bus is not None
            port = display.bus
        serial = WindowI2C(port=port, address=display.address)   # luma's i2c, one transfer per window
        return DRIVERS[display.driver](serial, width=WIDTH, height=HEIGHT, rotate=display.rotate)

    def close(self) -> None:
        super().close()
        for factory in self._factories.values():
            factory.close()
        self._factories.clear()


def make_devices(config: Config, *, fake: bool = False) -> Devices:
    """The one place the device kind is chosen: ``--fake`` or ``devices = "fake"`` give the fakes."""
    if fake or config.devices == "fake":
        return FakeDevices(config)
    return PiDevices(config)
