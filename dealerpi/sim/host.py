"""The old simulator's table (``SimTable``), kept only for the tournament clock of :mod:`dealerpi.sim.clock`.

``dealerpi sim`` no longer uses it: it runs the daemon itself (:mod:`dealerpi.sim.server`). The tournament
clock moves into the console (issue 14, the console-game part); this module and ``clock.py`` go with it.

``SimTable`` is the daemon's ``Controller`` on ``FakeDevices`` over a journal, keeping the accepted inputs
(``JournalTable``) the clock reads, and a log of what the clock did.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dealerpi.config import Config
from dealerpi.controller import Controller
from dealerpi.devices import FakeDevices
from dealerpi.engine.records import Outcome
from dealerpi.journal import Journal
from dealerpi.sim.histories import JournalTable
from dealerpi.table_source import settings

LOG_LENGTH = 300


@dataclass(frozen=True)
class LogEntry:
    """One line of the clock's log: ``kind`` (clock), the words, the rule."""

    time: str
    kind: str
    text: str
    rule: str | None = None


class SimTable:
    """The table the tournament clock drives: ``open`` it, ``submit`` inputs, ``await stop()`` at the end."""

    def __init__(self, config: Config, journal: Journal, entries: list[dict[str, Any]]) -> None:
        tables = [e for e in entries if e.get("type") == "table"]
        if tables:    # the journal's game is the game: the daemon would otherwise switch to the config's
            config = replace(config, table=settings(tables[-1]))
        self.journal = journal
        self.devices = FakeDevices(config)
        self.log: deque[LogEntry] = deque(maxlen=LOG_LENGTH)
        self.controller = Controller(config, self.devices, journal)
        self.controller.table = JournalTable()
        if tables:    # ... so it is the config the daemon last applied (table_source.py): nothing to record
            self.controller.table_source.config_seen = settings(tables[-1])
        self.controller.replay(entries)

    @classmethod
    def open(cls, config: Config, journal_path: Path) -> SimTable:
        """The table over the journal at ``journal_path`` (read back, as the daemon reads its own)."""
        journal, entries = Journal.open(journal_path)
        return cls(config, journal, entries)

    @property
    def table(self) -> Any:
        return self.controller.table

    def submit(self, entry: dict[str, Any]) -> Outcome:
        """An input: journaled and applied as the daemon does."""
        outcome: Outcome = self.controller.submit(entry)
        self.controller.refresh()
        return outcome

    def note(self, kind: str, text: str, rule: str | None = None) -> None:
        self.log.append(LogEntry(time.strftime("%H:%M:%S"), kind, text, rule))

    async def stop(self) -> None:
        self.controller.close()
        self.devices.close()
        self.journal.close()
