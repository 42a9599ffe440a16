"""Start-up: the table rebuilt from the journal, then brought up to the config and the clock.

``daemon.serve`` opens the journal folder (journal_folder.py: the newest good checkpoint and the inputs
after it); the controller takes the checkpoint's table, and :func:`replay` applies the inputs after it through
the same pipeline as live ones (``live`` False: nothing is journaled again, the observers that speak to the
dealer stay silent), noting the shoe's last read (where the link resumes, exactly once). Then:

- a replay that went past the start of a hand (an old single journal, inputs added while the daemon was down,
  a checkpoint that failed) writes a checkpoint now, so the next start-up replays this hand only;
- a new journal's first record names it (issue 20) and the console's ledger puts the last evening's notes aside;
- the config's ``[table]`` against the journal's (table_setup.py, issue 12/14);
- the seconds the daemon was down come off a running level clock (TRN-1, timers.py).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from dealerpi.engine import Table
from dealerpi.journal.folder import Recovered
from dealerpi.table.applied import Applied, LocalApi
from dealerpi.table.checkpoints import Checkpoints
from dealerpi.table.durable import Durable
from dealerpi.table.setup import TableSetup
from dealerpi.table.timers import Timers

_LOGGER = logging.getLogger(__name__)

RECORDS_KEPT = 1      # deals the engine keeps from earlier hands: the journal folder is the evening's record


class ReplaySource(Protocol):
    """What start-up needs of the daemon: the pipeline without the journal, and the parts it brings up."""

    table: Table
    durable: Durable
    setup: TableSetup
    timers: Timers
    checkpoints: Checkpoints
    local_api: LocalApi | None

    def apply(self, entry: dict[str, Any], live: bool) -> Applied: ...
    def refresh(self) -> None: ...


def replay(daemon: ReplaySource, entries: list[dict[str, Any]], start: Recovered[Table] | None) -> None:
    """Apply ``entries`` (journaled already) after ``start``'s checkpoint, if any; then the steps of the module
    docstring."""
    if start is not None and start.table is not None:
        daemon.table = start.table
        daemon.table.records_kept = RECORDS_KEPT
        daemon.durable.shoe_position = start.shoe
    daemon.durable.new_journal = not entries and (start is None or start.table is None)
    if daemon.durable.new_journal and daemon.local_api is not None:
        daemon.local_api.new_journal()       # a new evening: the ledger's notes of the last one are put aside
    started = False
    for number, entry in enumerate(entries, start=1):
        started |= daemon.apply(entry, live=False).started
        daemon.durable.note_read(entry, f"journal input {number}")
    if started:               # a hand began since the checkpoint: start from here next time
        daemon.checkpoints.write()
    daemon.setup.check_config()
    daemon.timers.catch_up()
    _LOGGER.info("table ready: %d inputs replayed, hand #%d", len(entries), daemon.table.hand_number)
    daemon.refresh()
