"""The device factory: chosen once from the config (``fake`` or ``pi``) and passed in, never global.

Both kinds make the same things: gpiozero ``DigitalInputDevice`` (buttons) and ``LED`` objects for
:class:`~dealerpi.config.Pin` lines, and luma devices for :class:`~dealerpi.config.DisplayConfig` entries.
The fake uses gpiozero's ``MockFactory`` (one per chip) and luma.core's ``dummy`` device, and adds what
tests and the simulator drive:
:meth:`FakeDevices.press`, :meth:`FakeDevices.release`, :meth:`FakeDevices.image`.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from gpiozero import LED, DigitalInputDevice
from luma.core.device import dummy
from PIL import Image

from dealerpi.config import Config, DisplayConfig, Pin
from dealerpi.devices.gpio import (
    SYSFS_GPIO,
    SYSFS_I2C,
    Chip,
    ChipInfo,
    HardwareMissing,
    expander_chip,
    header_chip,
    lgpio_factory,
    line_name,
    list_chips,
    mock_factories,
    mux_channel_bus,
    mux_idle_state,
    read_chip_info,
)
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

    def missing(self) -> list[str]:
        """What the config names that is not there (yet), one line each with its fix. Fakes never miss."""
        return []

    def all_displays(self) -> list[DisplayConfig]:
        """Every display of the table: the dealer's first."""
        return [self.config.dealer.display, *(panel.display for panel in self.config.seats)]

    def button(self, pin: Pin) -> PushButton:
        """A button closing to GND (pull-up on). Debouncing is ours (devices.buttons), not gpiozero's.

        A ``DigitalInputDevice`` and not a ``Button``: gpiozero 2.0's ``Button`` adds ``HoldMixin``, whose
        ``HoldThread`` wakes every 0.1 s for as long as the process lives (``holding.wait(0.1)`` in
        gpiozero/mixins.py), one thread per button: 350 wake-ups a second on a 10-seat table (35 buttons), for a
        hold we time ourselves from the edges. ``Button.when_pressed`` is ``when_activated`` there
        (gpiozero/input_devices.py), so the edges are the same."""
        button: PushButton = DigitalInputDevice(line_name(pin.line), pull_up=True, bounce_time=None,
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
    """lgpio pins (one factory per gpiochip, found by label) and I2C OLEDs with the partial-update drivers."""

    kind = "pi"

    def __init__(self, config: Config, *, sysfs_i2c: Path = SYSFS_I2C, sysfs_gpio: Path = SYSFS_GPIO,
                 chip_info: ChipInfo = read_chip_info, factory_class: Any = None) -> None:
        super().__init__(config)
        self._sysfs_i2c = sysfs_i2c
        self._sysfs_gpio = sysfs_gpio
        self._chip_info = chip_info
        self._factory_class = factory_class
        self._factories: dict[str | None, PinFactory] = {}
        self._chips: dict[str | None, Chip] | None = None

    def chips(self) -> dict[str | None, Chip]:
        """The header's chip (key None) and each expander's, by label; raises HardwareMissing naming each
        chip that is not there. Found once, then kept: numbers do not change while the kernel runs."""
        if self._chips is None:
            listed = list_chips(self._sysfs_gpio, self._chip_info)
            found: dict[str | None, Chip] = {}
            problems = []
            for name in (None, *self._expanders):
                try:
                    found[name] = header_chip(listed) if name is None else expander_chip(self._expanders[name],
                                                                                          listed)
                except HardwareMissing as exc:
                    problems.append(str(exc))
            if problems:
                raise HardwareMissing("; ".join(problems))
            for name, chip in found.items():
                _LOGGER.info("%s: %s", f"expander {name}" if name else "header", chip)
            self._chips = found
        return self._chips

    def missing(self) -> list[str]:
        """What the config names that the kernel does not have (yet), one fix each; empty when all is there.

        With two or more multiplexers a mux still joining its channel after a transfer (``idle_state`` not -2)
        counts as missing: displays at 0x3C behind two muxes would answer together until the udev rule
        (systemd/99-dealerpi-i2c-mux.rules) or the overlay's ``disconnect_on_idle`` has set it.
        """
        problems = []
        try:
            self.chips()
        except HardwareMissing as exc:
            problems.append(str(exc))
        for display in self.all_displays():
            if display.mux is None:
                continue
            try:
                assert display.channel is not None
                mux_channel_bus(self._muxes[display.mux], display.channel, self._sysfs_i2c)
            except HardwareMissing as exc:
                if str(exc) not in problems:
                    problems.append(str(exc))
        if len(self._muxes) > 1:
            for mux in self._muxes.values():
                state = mux_idle_state(mux, self._sysfs_i2c)
                if state is not None and state != -2:
                    problems.append(f"multiplexer {mux.name}: idle_state is {state}, not -2 (disconnect on idle); "
                                    "install systemd/99-dealerpi-i2c-mux.rules (docs/install-pi.md step 8)")
        return problems

    def pin_factory(self, chip: str | None) -> PinFactory:
        if chip not in self._factories:
            found = self.chips()[chip]
            _LOGGER.info("opening %s for %s", found, f"expander {chip}" if chip else "the header")
            self._factories[chip] = lgpio_factory(found.number, self._factory_class)
        return self._factories[chip]

    def open_display(self, display: DisplayConfig) -> Screen:
        from dealerpi.devices.oled import DRIVERS, WindowI2C

        if display.mux is not None:
            assert display.channel is not None
            port = mux_channel_bus(self._muxes[display.mux], display.channel, self._sysfs_i2c)
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
