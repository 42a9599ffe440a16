"""What the host's status panel says of the shoe (issue 14): online or offline and why, the card reader,
the reads lost and the restarts since the daemon started. The dealer is told each event as an alert when
it happens (alerts.py); this keeps the standing state, which an alert scrolled away no longer shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealerpi.shoe.link import ShoeEvent, ShoeOffline, ShoeOnline
from dealerpi.shoe.session import ReaderFault, ReadsLost, ShoeRestarted


@dataclass
class ShoeHealth:
    online: bool = False
    offline_reason: str | None = None    # the link's last reason, while offline
    reader_fault: bool = False           # the RFID reader does not answer (the shoe says so)
    reads_lost: int = 0                  # reads that will never arrive (DEAL-4: count the cards)
    restarts: int = 0                    # the shoe booted again (power, watchdog, reset)

    def note(self, event: ShoeEvent) -> None:
        if isinstance(event, ShoeOnline):
            self.online, self.offline_reason = True, None
        elif isinstance(event, ShoeOffline):
            self.online, self.offline_reason = False, event.reason
        elif isinstance(event, ReadsLost):
            self.reads_lost += event.count
        elif isinstance(event, ShoeRestarted):
            self.restarts += 1
        elif isinstance(event, ReaderFault):
            self.reader_fault = event.active

    def as_json(self) -> dict[str, Any]:
        return {"online": self.online, "offline_reason": self.offline_reason, "reader_fault": self.reader_fault,
                "reads_lost": self.reads_lost, "restarts": self.restarts}
