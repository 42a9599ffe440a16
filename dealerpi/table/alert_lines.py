"""What the displays say besides the table itself: the engine's alerts and the refusals, an observer of the
daemon's pipeline.

The dealer's display keeps the last ``MAX_ALERTS`` (views/build.alert_order puts the urgent first). A seat's
own refused action (BET-12, out of turn) is shown on that seat's display only, until its next press or its
next accepted input. When a hand starts the last hand's alerts are done with, and what still holds is said
again (issue 14: players kept on seats the table no longer has).
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Collection, Mapping
from typing import Any

from dealerpi.engine import Outcome, Table
from dealerpi.table.applied import Applied
from dealerpi.views.model import Alert

_LOGGER = logging.getLogger(__name__)

MAX_ALERTS = 8


class AlertLines:
    """The dealer's alerts and each seat's refusal (module docstring); ``seats``: the seats with a panel. An
    observer of the pipeline's live inputs (a replay at start-up says nothing again)."""

    def __init__(self, seats: Collection[int]) -> None:
        self.seats = seats
        self.alerts: collections.deque[Alert] = collections.deque(maxlen=MAX_ALERTS)
        self.seat_alerts: dict[int, Alert] = {}

    def applied(self, step: Applied) -> None:
        if step.live:
            if step.started:
                self.hand_started(step.table)
            self.noted(step.entry, step.outcome)

    def hand_started(self, table: Table) -> None:
        self.alerts.clear()
        self.alerts.extend(table.off_table())

    def noted(self, entry: Mapping[str, Any], outcome: Outcome) -> None:
        """An input was applied (``outcome``): its alerts, or why it was refused and to whom."""
        _LOGGER.debug("input %s -> %s", entry, "accepted" if outcome.accepted else outcome.reason)
        self.alerts.extend(outcome.alerts)
        seat = entry.get("seat")
        if not outcome.accepted:
            _LOGGER.info("refused %s input%s: %s", entry.get("type"), f" from seat {seat}" if seat else "",
                         outcome.reason)
            alert = outcome.alerts[0] if outcome.alerts else Alert("REFUSED", str(outcome.reason))
            if isinstance(seat, int) and seat in self.seats and entry.get("type") == "act":
                self.seat_alerts[seat] = alert
            elif not outcome.alerts:
                self.alerts.append(alert)
        elif isinstance(seat, int):
            self.seat_alerts.pop(seat, None)
