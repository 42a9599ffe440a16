"""The table's game and stakes at the daemon: the config's ``[table]`` against the journal's, and a table
change that waits for the hand in play to end.

Issue 12: what differs between the config and the journal is logged and shown to the dealer, and applied
between hands only, so a hand in play ends with the game, stakes and panel steps it was dealt with. Issue 14
(table_source.py): the config wins only if the host edited its ``[table]`` since the daemon last applied it;
otherwise the journal's table (with the console's changes) stands. A host's change made during a hand is
journaled at once (``after_hand``) and applied, journaled again, right after the input that ends the hand.
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Mapping
from typing import Any, Protocol

from dealerpi.config import Config, gcd_unit
from dealerpi.engine import InputError, Outcome, Table, parse_config
from dealerpi.input import SeatPanel
from dealerpi.table.applied import Applied
from dealerpi.table.change import against_journal
from dealerpi.table.durable import JOURNAL_PAUSED, Durable
from dealerpi.table.source import TableSource
from dealerpi.views.model import Alert

_LOGGER = logging.getLogger(__name__)


class SetupSource(Protocol):
    """What the table's set-up needs of the daemon: the table, the config, the panels, and the pipeline."""

    table: Table
    config: Config
    panels: dict[int, SeatPanel]
    alerts: collections.deque[Alert]
    durable: Durable

    def submit(self, entry: dict[str, Any]) -> Outcome: ...
    def apply(self, entry: dict[str, Any], live: bool) -> Applied: ...


def _is_table(entry: Mapping[str, Any]) -> bool:
    """``entry`` holds a whole table (a queued change the host made mid-hand); a line without one (a page's,
    journaled before the socket checked inputs: issue 22, probe 3) is not queued at start-up."""
    try:
        parse_config(entry)
    except InputError as error:
        _LOGGER.error("a queued table change in the journal is not a table (%s): not applied", error)
        return False
    return True


class TableSetup:
    """The table input in force and the one waiting (module docstring); an observer of the pipeline for who
    sent the table in force and, at start-up, a change the journal holds for the hand's end."""

    def __init__(self, daemon: SetupSource) -> None:
        self.daemon = daemon
        self.pending: dict[str, Any] | None = None    # a table input (config, host) waiting for a hand's end
        self.source = TableSource()                   # who sent the table in force; the config's last applied

    def applied(self, step: Applied) -> None:
        self.source.note(step.entry, step.outcome.accepted)
        if not step.live:
            self.replayed(step.entry, step.outcome.accepted)

    def queue(self, entry: dict[str, Any]) -> Outcome:
        """A host's ``table`` input during a hand: journaled now (``after_hand``: durable before it is
        acknowledged) and applied, which the engine refuses during the hand (a replay does too, and then
        queues it again, :meth:`replayed`); applied again, journaled again, right after the input that ends
        the hand. A later change replaces it."""
        queued = {**entry, "after_hand": True}
        if not self.daemon.durable.append(queued):
            return Outcome(False, f"{JOURNAL_PAUSED} ({self.daemon.durable.fault})")
        self.daemon.apply(queued, live=False)     # refused during the hand: no one is told (not live)
        self.pending = queued
        return Outcome(True, None)

    def replayed(self, entry: Mapping[str, Any], accepted: bool) -> None:
        """A journal line at start-up: a table applied, or a host's change queued mid-hand (not applied)."""
        if entry.get("type") == "table" and accepted:
            self.pending = None
        elif entry.get("type") == "table" and entry.get("after_hand") and _is_table(entry):
            self.pending = dict(entry)

    def check_config(self) -> None:
        """Start-up: the config's ``[table]`` against the journal's table (module docstring). Players on seats
        the new table lacks stay on record (the engine says so): the host moves them or cashes them out."""
        daemon = self.daemon
        table, config = daemon.table, daemon.config
        wanted = {**config.table_input(), "by": "config"}
        if not self.source.config_edited(wanted) and table.config is not None:
            if against_journal(table.config, wanted) is not None:
                _LOGGER.info("%s: [table] is as the daemon last applied it: the journal's table, set from %s, "
                             "stands", config.source, self.source.words())
            daemon.alerts.extend(table.off_table())
            self.apply_pending()
            return
        changes = against_journal(table.config, wanted)
        if changes:
            text = "; ".join(changes)
            when = "now" if table.table_may_change() else "when this hand ends"
            _LOGGER.warning("%s: the config's [table] differs from the journal's table: %s; applied %s",
                            config.source, text, when)
            daemon.alerts.append(Alert("TABLE", f"Config differs from the journal: {text}. Applied {when}"))
            if when != "now" and (lacking := sorted(set(table.seats) - set(daemon.panels))):
                _LOGGER.warning("seats %s are in the journal's hand but have no panel in %s", lacking, config.source)
                daemon.alerts.append(Alert("TABLE", f"Seats {', '.join(map(str, lacking))} have no panel in this "
                                                    "config: put the old config back until this hand ends"))
        # journaled even when equal: it records the config applied (and the table's own alerts say who is
        # still to move or cash out, after a restart too)
        self.pending = wanted
        self.apply_pending()

    def apply_pending(self) -> None:
        """The waiting table input, once the table may change (between hands); the panels' amount step
        follows the table in force (docs/seat-panel.md: the largest chip both blinds are made of)."""
        daemon = self.daemon
        if self.pending is not None and daemon.table.table_may_change():
            entry, self.pending = self.pending, None
            entry = {k: v for k, v in entry.items() if k != "after_hand"}
            outcome = daemon.submit(entry)
            if not outcome.accepted and daemon.durable.fault is not None:
                self.pending = entry                  # not journaled: tried again after the next input
            elif not outcome.accepted:
                _LOGGER.error("the config's table settings were refused: %s", outcome.reason)
        config = daemon.table.config
        if config is not None:
            unit = gcd_unit((config.small_blind, config.big_blind))
            for panel in daemon.panels.values():
                panel.unit = unit
