"""The host's status panel (issue 14): the shoe, the journal, each display and each button bank, as the
daemon knows them.

- Shoe: online or offline (and the link's reason), the card reader's fault, reads lost and restarts since
  the daemon started (:class:`dealerpi.shoe.health.ShoeHealth`).
- Journal: its inputs, a write fault (inputs paused), and the space left where it is written (a full SD card
  is the fault docs/what-happens-when.md starts with).
- Each display: working, or failing and retried (:class:`dealerpi.devices.display.DisplaySlot`).
- Each button bank (the dealer's console, each seat's three buttons): where its lines are (the header or an
  MCP23017 expander), and the presses counted since the start. The daemon opens every line at start-up and
  waits for a missing expander before it runs (``wait_for_hardware``, issue 13), so a running daemon found
  every bank; a bank that stops answering later is not something a GPIO line reports (a released button
  and a dead expander read the same), so the count is the check: press a button, watch its bank count.
"""

from __future__ import annotations

import collections
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dealerpi.config import Config, Pin

MB = 1 << 20


def free_mb(path: Path) -> int | None:
    """Megabytes free for an unprivileged writer on ``path``'s filesystem (None if it cannot be read)."""
    try:
        stat = os.statvfs(path if path.is_dir() else path.parent)
    except OSError:
        return None
    return stat.f_bavail * stat.f_frsize // MB


def _where(config: Config, pins: Mapping[str, Pin], fake: bool) -> str:
    chips = sorted({pin.chip or "" for pin in pins.values()})
    lines = ", ".join(f"{name} {pin}" for name, pin in pins.items())
    if fake:
        return f"fake lines ({lines})"
    expanders = {e.name: e for e in config.expanders}
    places = [f"expander {c} (I2C bus {expanders[c].bus}, 0x{expanders[c].address:02x})" if c in expanders
              else "the Pi's header" for c in chips]
    return f"{' and '.join(places)}: {lines}"


def banks(config: Config, presses: collections.Counter[str], fake: bool) -> list[dict[str, Any]]:
    """Each button bank: its name, where its lines are, and the presses counted since the start."""
    out = [{"name": "dealer console", "where": _where(config, config.dealer.buttons, fake),
            "presses": presses["dealer"]}]
    for panel in config.seats:
        name = f"seat {panel.seat}"
        out.append({"name": name, "where": _where(config, panel.buttons, fake), "presses": presses[name]})
    return out


def displays(slots: list[Any]) -> list[dict[str, Any]]:
    """Each display (the dealer's first): working, or failing with its failures counted while it is retried."""
    return [{"name": slot.name, "ok": not slot.failed, "failures": slot.failures} for slot in slots]
