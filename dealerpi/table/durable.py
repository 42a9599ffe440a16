"""Nothing unjournaled counts: every input is appended and fsynced before it is applied (docs/journal.md).

A failed append leaves the input unapplied (a card unACKed: the shoe resends it), shows "journal failing:
inputs paused" with the error on every display, and refuses inputs until a probe on a timer succeeds (after
a failed fsync the file's contents are unknown: PostgreSQL's "fsyncgate"; never acknowledge what was not
durable). A new journal's first record names it (issue 20: ``journal``, a random id, and its time), so the
console's session (the hash of that line, history/final_hands.py) is this journal's alone. The last shoe
read in the journal is where the shoe link resumes (exactly once across a crash, issue 22 probe 1).
"""

from __future__ import annotations

import collections
import errno
import logging
import secrets
from collections.abc import Callable
from typing import Any

from dealerpi.journal.file import Journal, JournalFault, utc_now
from dealerpi.journal.folder import JournalFolder
from dealerpi.views.model import Alert
from dealerpi.wire.inputs import WireError, shoe_read

_LOGGER = logging.getLogger(__name__)

PROBE_EVERY = 2.0          # seconds between attempts to write the journal again after a fault
JOURNAL_PAUSED = "journal failing: inputs paused"


class Durable:
    """The daemon's journal: appends, the fault that pauses inputs and its probe, checkpoints, the shoe's
    last read. ``changed`` is called when the fault begins, changes or ends (every display shows it)."""

    def __init__(self, journal: Journal | JournalFolder, clock: Callable[[], float],
                 alerts: collections.deque[Alert], changed: Callable[[], None]) -> None:
        self.journal, self.clock, self.alerts, self.changed = journal, clock, alerts, changed
        self.fault: str | None = None             # why inputs are paused; None while the journal works
        self.new_journal = False                  # replay found no journal: its first record names it
        self.shoe_position: tuple[str, int] | None = None   # the last read (boot, seq) in the journal
        self._probe_at = 0.0

    def append(self, entry: dict[str, Any]) -> bool:
        """Append ``entry``; False (and inputs paused) if it is not durable."""
        if self.fault is not None:
            return False
        if self.new_journal:
            entry = {**entry, "journal": secrets.token_hex(8), "at": entry.get("at", utc_now())}
        try:
            self.journal.append(entry)
            self.new_journal = False
        except JournalFault as fault:
            self.fault = str(fault)
            self._probe_at = self.clock() + PROBE_EVERY
            self.changed()
            return False
        self.note_read(entry, "the input just journaled")
        return True

    def note_read(self, entry: dict[str, Any], where: str) -> None:
        """The shoe's last read in the journal: where the link resumes, kept across a checkpoint. Only the
        shoe link's own card lines count (issue 22, probe 1): an identity another process wrote into the
        journal before the socket refused it is named in the log and on the dealer display, and ignored."""
        try:
            read = shoe_read(entry)
        except WireError as error:
            _LOGGER.error("%s (a card by %s at %s): %s", where, entry.get("by"), entry.get("at"), error)
            self.alerts.append(Alert("SHOE", f"{where}: a card with a shoe identity the shoe did not send; "
                                             "ignored (see the log)"))
            return
        if read is not None:
            self.shoe_position = (read.boot, read.seq)

    def checkpoint(self, snapshot: dict[str, Any]) -> None:
        """A hand started: the journal goes on in a new segment that starts from the table now, so a
        start-up replays this hand only (journal_folder.py). A failure costs start-up time, never an input."""
        if not isinstance(self.journal, JournalFolder):
            return
        try:
            self.journal.checkpoint(snapshot, self.shoe_position)
        except JournalFault as fault:
            _LOGGER.error("journal checkpoint failed: %s", fault)
            todo = ("free space on the SD card" if fault.code == errno.ENOSPC
                    else "replace the SD card after this session")
            self.alerts.append(Alert("JOURNAL", f"checkpoint failed ({fault}): play on; {todo}"))

    def probe(self, now: float) -> None:
        """While inputs are paused: try the journal again every PROBE_EVERY seconds."""
        if self.fault is None or now < self._probe_at:
            return
        try:
            self.journal.probe()
        except JournalFault as fault:
            self._probe_at = now + PROBE_EVERY
            if str(fault) != self.fault:
                self.fault = str(fault)
                self.changed()
            return
        _LOGGER.warning("journal %s writable again: inputs resume", self.journal.path)
        self.fault = None
        self.alerts.append(Alert("JOURNAL", "journal writable again: inputs resume; check the last input"))
        self.changed()

    def next_probe(self) -> float | None:
        return self._probe_at if self.fault is not None else None

    def fault_alert(self) -> Alert | None:
        """The alert every display shows while the journal fails."""
        if self.fault is None:
            return None
        return Alert("JOURNAL", f"{JOURNAL_PAUSED}: {self.fault}. Free space or replace the SD card")
