"""LEDs: gpiozero ``LED`` per line, written only when their state changes.

An LED behind an MCP23017 costs an I2C write, so setting all twenty LEDs after every input would put
twenty transactions on the bus; the bank remembers what it wrote and skips the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable

from dealerpi.config import Pin
from dealerpi.devices.ports import Led

_LOGGER = logging.getLogger(__name__)


class LedBank:
    """Named LEDs (keys such as ``(3, "action")``) switched by :meth:`set`."""

    def __init__(self, make_led: Callable[[Pin], Led]) -> None:
        self._make_led = make_led
        self.leds: dict[Hashable, Led] = {}
        self._lit: dict[Hashable, bool] = {}

    def add(self, key: Hashable, pin: Pin) -> Led:
        led = self._make_led(pin)
        led.off()
        self.leds[key] = led
        self._lit[key] = False
        return led

    def set(self, key: Hashable, lit: bool) -> bool:
        """Light or darken one LED; return True if that changed it. Unknown keys are ignored
        (a header-only table has no seat LEDs)."""
        if key not in self.leds or self._lit[key] == lit:
            return False
        try:
            self.leds[key].value = lit
        except OSError as exc:   # an expander that dropped off the bus: the table goes on
            _LOGGER.warning("LED %s: %s", key, exc)
            return False
        self._lit[key] = lit
        return True

    def is_lit(self, key: Hashable) -> bool:
        return self._lit.get(key, False)

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        self.leds.clear()
