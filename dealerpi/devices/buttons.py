"""Buttons: gpiozero input edges handed to the event loop, and our own debouncer.

gpiozero's mock pins ignore ``bounce_time`` (and lgpio's kernel debounce does not reach lines behind an
MCP23017 interrupt), so debouncing that matters is done here, as a pure state machine with injected time.
The gpiozero callbacks run on a library thread; they only stamp the edge and hand it to ``post`` (in the
daemon, ``loop.call_soon_threadsafe``). Nothing else happens on that thread.

The stamp is the time the pin changed, not the time the callback runs (issue 23: under 1,000 presses a second
a late callback stamped a release and the next press within the debounce time, and the press was lost).
gpiozero hands the pin's own time of the edge to the device before the callback (``_fire_events(ticks,
...)``; lgpio's is the kernel's event timestamp, lgPthAlerts.c) and says how long ago it was
(``active_time``/``inactive_time``); the edge is stamped that long before now on our clock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from dealerpi.config import Pin
from dealerpi.devices.ports import PushButton

_LOGGER = logging.getLogger(__name__)

MAX_LATE = 2.0      # an edge "older" than this is a clock that stepped, not a late callback: stamped now
SAME_CLOCK = 1.0    # the pins' clock and ours read within this: one clock (time.monotonic, in the daemon)


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
        button.when_activated = lambda: self._post(ButtonEdge(key, True, self._stamp(button, button.active_time)))
        button.when_deactivated = lambda: self._post(ButtonEdge(key, False,
                                                                self._stamp(button, button.inactive_time)))
        self.buttons[key] = button
        return button

    def _stamp(self, button: PushButton, since: float | None) -> float:
        """The edge's time on our clock: now, less how long ago the pin changed (``since``, on the pin
        factory's clock). Only when that clock is ours: gpiozero's ``ticks()`` is ``time.monotonic()``, the
        daemon's clock; a test or bench that injects its own clock gets the time it injects.

        gpiozero 2.0.1's ``LGPIOFactory.ticks()`` is monotonic while lgpio stamps an edge on CLOCK_REALTIME
        (lgUtil.c ``lguTimestamp``, which lgPthAlerts.c compares the kernel's event ``timestamp_ns`` with),
        so there ``since`` comes out decades negative: the offset between the two clocks is added back."""
        now = self._clock()
        if since is None or abs(button.pin_factory.ticks() - now) > SAME_CLOCK:
            return now
        if since < -MAX_LATE:
            since += time.time() - time.monotonic()
        return now - since if 0.0 <= since < MAX_LATE else now

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()
        self.buttons.clear()
