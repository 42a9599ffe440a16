"""The daemon's word to systemd (READY, STATUS, WATCHDOG, EXTEND_TIMEOUT): one notifier for the start-up wait
(``hardware_wait.py``) and the main loop (``daemon.py``)."""

from __future__ import annotations

import os


class SystemdNotifier:
    """systemd notifications through the ``sdnotify`` package; silent when
    not run by systemd. ``watchdog_interval``: a third of the unit's WatchdogSec, how often to ping."""

    def __init__(self) -> None:
        import sdnotify  # type: ignore[import-untyped]

        self._notifier = sdnotify.SystemdNotifier()
        usec = os.environ.get("WATCHDOG_USEC")
        self.watchdog_interval = int(usec) / 3e6 if usec and usec.isdigit() else None

    def notify(self, text: str) -> None:
        self._notifier.notify(text)
