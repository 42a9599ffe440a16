"""Start-up on a Pi whose hardware is not all there yet: the daemon waits, says what is missing on every
display that opens (one instruction) and keeps systemd from timing it out (issue 13). The daemon's job, not
the devices': they only report what is missing (:meth:`Devices.missing`); drawing the message is a view's.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from dealerpi.config import DisplayConfig
from dealerpi.devices import Devices
from dealerpi.devices.display import DISPLAY_ERRORS
from dealerpi.devices.gpio import HardwareMissing
from dealerpi.table.systemd_notify import SystemdNotifier
from dealerpi.views.model import Alert, DealerView
from dealerpi.views.render import render_dealer

_LOGGER = logging.getLogger(__name__)
WAIT_EVERY = 2.0    # seconds between looks while a chip or multiplexer channel is missing


def wait_for_hardware(devices: Devices, *, wait: bool, notify: Callable[[str], None] | None = None,
                      sleep: Callable[[float], None] = time.sleep, every: float = WAIT_EVERY) -> None:
    """Return once every chip and multiplexer channel the config names is there, its pin factories made.

    At boot the mcp23017 and i2c-mux drivers may bind after the daemon starts, so with ``wait`` (the unit's
    ``--wait-for-hardware``) a missing chip is waited for, not a traceback and a restart loop: every ``every``
    seconds it looks again, shows what is missing on each display that works, tells systemd (STATUS, and
    EXTEND_TIMEOUT_USEC so that TimeoutStartSec does not kill the wait) and logs each change once. Without
    ``wait`` (by hand) it raises :class:`HardwareMissing` at once. A pin factory that opens the wrong chip
    raises :class:`HardwareError` (no wait fixes that).
    """
    notify = notify or SystemdNotifier().notify
    shown: list[str] = []
    screens: dict[DisplayConfig, Any] = {}
    try:
        while missing := devices.missing():
            if not wait:
                raise HardwareMissing("; ".join(missing))
            if missing != shown:
                _LOGGER.warning("waiting for hardware (looking again every %gs): %s", every, "; ".join(missing))
                _show(devices, screens, missing)
                shown = missing
            notify(f"STATUS=waiting for hardware: {missing[0]}\nWATCHDOG=1\n"
                   f"EXTEND_TIMEOUT_USEC={int(every * 3 * 1_000_000)}")
            sleep(every)
    except KeyboardInterrupt:
        raise HardwareMissing("stopped while waiting for hardware: " + "; ".join(shown)) from None
    finally:
        for screen in screens.values():
            screen.persist = True                   # keep the message up until the table draws over it
            with contextlib.suppress(*DISPLAY_ERRORS):
                screen.cleanup()
    if shown:
        _LOGGER.info("all hardware is there now: starting")
    for chip in (None, *(expander.name for expander in devices.config.expanders)):
        devices.pin_factory(chip)                  # each chip's factory checked now, not mid-start-up


def _show(devices: Devices, screens: dict[DisplayConfig, Any], missing: list[str]) -> None:
    """What is missing, on every display that can be opened (the first fault, one instruction)."""
    what = missing[0].split(";")[0]
    more = f" (+{len(missing) - 1} more)" if len(missing) > 1 else ""
    image = render_dealer(DealerView(0, "WAITING FOR HARDWARE",
                                     alerts=(Alert("HARDWARE", f"{what}{more}. Run dealerpi doctor"),)))
    for display in devices.all_displays():
        try:
            if display not in screens:
                screens[display] = devices.open_display(display)
            screens[display].display(image)
        except DISPLAY_ERRORS:
            screens.pop(display, None)
