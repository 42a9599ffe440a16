"""Buttons: gpiozero input edges handed to the event loop, and our own debouncer.

gpiozero's mock pins ignore ``bounce_time`` (and lgpio's kernel debounce does not reach lines behind an
MCP23017 interrupt), so debouncing that matters is done here, as a pure state machine with injected time.
The gpiozero callbacks run on a library thread; they only stamp the edge with the clock and hand it to
``post`` (in the daemon, ``loop.call_soon_threadsafe``). Nothing else happens on that thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from dealerpi.config import Pin
from dealerpi.devices.ports import PushButton

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class ButtonEdge:
    """A button went down (``pressed``) or up at monotonic time ``t`` (seconds)."""

    key: Hashable
    pressed: bool
    t: float


class Debouncer:
    """Accept an edge at once, then ignore the contact's chatter for ``debounce`` seconds.

    The first edge of a press is reported with no delay (low latency). Edges inside the dead time only
    update the raw level; when the dead time ends, :meth:`poll` reports the raw level if it differs from
    the last reported one, so a short tap whose release fell in the dead time is still seen as a release.
    """

    def __init__(self, debounce: float) -> None:
        self.debounce = debounce
        self._stable: dict[Hashable, bool] = {}
        self._raw: dict[Hashable, bool] = {}
        self._dead_until: dict[Hashable, float] = {}

    def edge(self, edge: ButtonEdge) -> list[ButtonEdge]:
        """Feed one raw edge; return the edges to act on (none or this one)."""
        self._raw[edge.key] = edge.pressed
        if edge.t < self._dead_until.get(edge.key, float("-inf")):
            return []
        return self._accept(edge.key, edge.pressed, edge.t)

    def poll(self, now: float) -> list[ButtonEdge]:
        """Report levels that settled when a dead time ended at or before ``now``."""
        out: list[ButtonEdge] = []
        for key, until in list(self._dead_until.items()):
            if until <= now and self._raw.get(key) is not None and self._raw[key] != self._stable.get(key, False):
                out += self._accept(key, self._raw[key], until)
        return out

    def next_deadline(self) -> float | None:
        """When :meth:`poll` may have something to report, or None."""
        pending = [until for key, until in self._dead_until.items()
                   if self._raw.get(key) is not None and self._raw[key] != self._stable.get(key, False)]
        return min(pending, default=None)

    def _accept(self, key: Hashable, pressed: bool, t: float) -> list[ButtonEdge]:
        if pressed == self._stable.get(key, False):
            return []
        self._stable[key] = pressed
        self._dead_until[key] = t + self.debounce
        return [ButtonEdge(key, pressed, t)]


class ButtonBank:
    """gpiozero inputs whose edges are stamped by ``clock`` and handed to ``post``.

    ``button_for(key, pin)`` is the device factory's ``button``; buttons are active low with the pull-up
    on (they close to GND, hardware/pinout.md).
    """

    def __init__(self, make_button: Callable[[Pin], PushButton], clock: Callable[[], float],
                 post: Callable[[ButtonEdge], None]) -> None:
        self._make_button = make_button
        self._clock = clock
        self._post = post
        self.buttons: dict[Hashable, PushButton] = {}

    def add(self, key: Hashable, pin: Pin) -> PushButton:
        """Watch the button on ``pin``; its edges are posted with ``key``."""
        button = self._make_button(pin)
        button.when_activated = lambda: self._post(ButtonEdge(key, True, self._clock()))
        button.when_deactivated = lambda: self._post(ButtonEdge(key, False, self._clock()))
        self.buttons[key] = button
        return button

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
