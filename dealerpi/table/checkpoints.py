"""The journal's checkpoints at the daemon: written when a hand starts, read back at start-up.

A checkpoint is the table's snapshot plus the daemon's own parts that the segments before it no longer hold
(journal_folder.py: a start-up replays from the newest checkpoint only): the local API's (the session ledger
and the request ids with their answers, ``console``), where the table in force came from (``table_source``,
table_source.py) and the wall time counted into the level clock (``level_time``, TRN-1). An observer of the
pipeline: the engine's ``HandStarted`` of a live input, not the input's type, writes one (a refused or undone
start deals no hand). A failed write costs start-up time, never an input (durable.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from dealerpi.engine import Table
from dealerpi.level_time import LevelTime
from dealerpi.table.applied import Applied, LocalApi
from dealerpi.table.durable import Durable
from dealerpi.table.setup import TableSetup
from dealerpi.table.source import TableSource
from dealerpi.table.timers import Timers


class CheckpointSource(Protocol):
    """The parts a checkpoint is made of."""

    table: Table
    durable: Durable
    setup: TableSetup
    timers: Timers
    local_api: LocalApi | None


class Checkpoints:
    """Writes and restores the daemon's checkpoints (module docstring)."""

    def __init__(self, daemon: CheckpointSource) -> None:
        self.daemon = daemon

    def applied(self, step: Applied) -> None:
        if step.live and step.started:
            self.write()

    def write(self) -> None:
        """The table now, with the daemon's parts, as the start of the journal's next segment."""
        daemon = self.daemon
        snapshot = daemon.table.snapshot()
        if daemon.local_api is not None:       # the session ledger and the console's request ids live on
            snapshot["console"] = daemon.local_api.checkpoint_data()
        snapshot["table_source"] = daemon.setup.source.snapshot()
        snapshot["level_time"] = daemon.timers.level_time.snapshot()
        daemon.durable.checkpoint(snapshot)

    def restore(self, data: Mapping[str, Any]) -> None:
        """The daemon's own parts of the checkpoint start-up used (before the replay; the API restores its own,
        ``console``, in daemon.py)."""
        self.daemon.setup.source = TableSource.restore(data.get("table_source"))
        self.daemon.timers.level_time = LevelTime.restore(data.get("level_time"))
