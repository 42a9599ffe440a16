"""The dealer console's buttons turned into inputs: a pure state machine with injected time.

- START/NEXT starts the next hand when the table expects one; during a hand it turns the page of the
  dealer screen (alerts, pots and payouts can fill more than one screen).
- EXPOSED declares the last card the shoe read as exposed (EXP rules; the shoe cannot see a card's face),
  MISDEAL declares a misdeal (MIS rules), UNDO takes the last input back. These three change the hand, so
  each waits for CONFIRM (within ``CONFIRM_SECONDS``); any other button cancels.
- CONFIRM with nothing pending acknowledges the alerts on the dealer screen (clears them).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from dealerpi.engine.expectation import Waiting

_LOGGER = logging.getLogger(__name__)

CONFIRM_SECONDS = 5.0


@dataclass
class ConsoleResult:
    """What one press produced: inputs to journal, and requests to the daemon."""

    inputs: list[dict[str, Any]] = field(default_factory=list)
    next_page: bool = False
    clear_alerts: bool = False


class DealerConsole:
    """The console buttons ``start``, ``exposed``, ``misdeal``, ``undo``, ``confirm``."""

    def __init__(self) -> None:
        self.pending: dict[str, Any] | None = None
        self.pending_until: float | None = None
        self.notice: str | None = None
        self.waiting = Waiting.TABLE
        self.last_card: str | None = None

    def set_state(self, waiting: Waiting, last_card: str | None) -> None:
        """What the table waits for next (``DealerView.waiting``) and the last card the shoe read."""
        self.waiting = waiting
        self.last_card = last_card

    def press(self, name: str, t: float) -> ConsoleResult:
        result = ConsoleResult()
        if name == "confirm":
            if self.pending is not None and self.pending_until is not None and t <= self.pending_until:
                result.inputs.append(self.pending)
            elif self.pending is None:
                result.clear_alerts = True
            self._clear()
            return result
        self._clear()
        if name == "start":
            if self.waiting is Waiting.START:
                result.inputs.append({"type": "start"})
            else:
                result.next_page = True
        elif name == "exposed":
            if self.last_card is None:
                self.notice = "EXPOSED: no card read yet"
            else:
                self._ask({"type": "exposed", "card": self.last_card}, f"exposed {self.last_card}? CONFIRM", t)
        elif name == "misdeal":
            self._ask({"type": "misdeal"}, "misdeal? CONFIRM", t)
        elif name == "undo":
            self._ask({"type": "undo"}, "undo last input? CONFIRM", t)
        return result

    def tick(self, t: float) -> None:
        if self.pending_until is not None and t > self.pending_until:
            _LOGGER.debug("console: %s not confirmed in time", self.pending)
            self._clear()

    def next_deadline(self) -> float | None:
        return self.pending_until

    def _ask(self, entry: dict[str, Any], notice: str, t: float) -> None:
        self.pending, self.pending_until, self.notice = entry, t + CONFIRM_SECONDS, notice

    def _clear(self) -> None:
        self.pending = self.pending_until = self.notice = None
