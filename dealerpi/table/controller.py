"""The table's controller: the input pipeline (docs/architecture.md).

    buttons (button_input.py), the shoe (shoe_intake.py), the console's socket, the timers (timers.py)
    -> submit: journal (durable.py, fsync) -> table.apply -> Applied(entry, outcome, table) to each observer
    in one order (applied.py): the local API, TableSetup, Timers, AlertLines, Checkpoints -> screens.py

Each observer has one job in its own module; start-up (startup.py) replays the journal through the same
pipeline. What happened comes from the engine's events, not from the input's type. A bug in an entry point
is an alert, not a stop (contained.py). Synchronous, on the asyncio loop's thread (daemon.py): tests, the
simulator and the benchmarks drive it without a loop. Hole cards are logged only at DEBUG.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image

from dealerpi.config import Config
from dealerpi.devices import ButtonEdge, Devices
from dealerpi.engine import Outcome, Table, to_json  # the engine's face: here and in screens.py
from dealerpi.input import DealerConsole
from dealerpi.journal.file import Journal, utc_now
from dealerpi.journal.folder import JournalFolder, Recovered
from dealerpi.shoe.link import ShoeEvent
from dealerpi.shoe.session import CardRead
from dealerpi.table import startup
from dealerpi.table.alert_lines import AlertLines
from dealerpi.table.applied import Applied, LocalApi, Observer, Submitted
from dealerpi.table.button_input import ButtonInput
from dealerpi.table.checkpoints import Checkpoints
from dealerpi.table.contained import contained
from dealerpi.table.durable import JOURNAL_PAUSED, Durable
from dealerpi.table.screens import Screens
from dealerpi.table.setup import TableSetup
from dealerpi.table.shoe_intake import Decks, ShoeIntake
from dealerpi.table.source import TableSource
from dealerpi.table.startup import RECORDS_KEPT
from dealerpi.table.timers import Timers


class Controller:
    """Inputs in, journal and engine in the middle, the observers and the displays out."""

    def __init__(self, config: Config, devices: Devices, journal: Journal | JournalFolder, *,
                 clock: Callable[[], float] = time.monotonic, post: Callable[[ButtonEdge], None] | None = None,
                 decks: Decks | None = None, wall: Callable[[], float] = time.time) -> None:
        self.config, self.devices, self.journal, self.decks = config, devices, journal, decks
        self.clock, self.wall = clock, wall      # read each time (a test sets its own); wall: timers.py only
        self.table = Table()
        self.table.records_kept = RECORDS_KEPT
        self.console = DealerConsole()     # the simulator puts its own in after start-up (daemon.py)
        self.announcement = ""             # the room director's (docs/room.md): shown, not an input, not journaled
        self.last_card: str | None = None  # read by the shoe or typed (manual): what EXPOSED names
        self.local_api: LocalApi | None = None
        self.buttons = ButtonInput(self, config, devices, lambda: self.clock(), post or self.on_edge)
        self.panels, self.presses = self.buttons.panels, self.buttons.presses
        self.lines = AlertLines(self.panels)        # the dealer's alerts and each seat's refusal
        self.alerts, self.seat_alerts = self.lines.alerts, self.lines.seat_alerts
        self.screens = Screens(config, devices, lambda: self.clock(), self.panels, self, self._changed)
        self.seat_slots, self.dealer_slot = self.screens.seat_slots, self.screens.dealer_slot
        self.engine_views = self.screens.engine_views
        self.refresh, self.refresh_seat, self.refresh_dealer = (self.screens.refresh, self.screens.refresh_seat,
                                                                self.screens.refresh_dealer)
        self.dealer_view, self.show_on_dealer = self.screens.dealer_view, self.screens.show_on_dealer
        self.durable = Durable(journal, lambda: self.clock(), self.alerts, lambda: self.refresh())
        self.fault_alert = self.durable.fault_alert          # the alert every display shows while it fails
        self.setup = TableSetup(self)               # the table input in force and one waiting for the hand's end
        self.timers, self.checkpoints = Timers(self), Checkpoints(self)
        self.intake = ShoeIntake(self)              # the shoe's reads into card inputs, exactly once
        self.shoe_health = self.intake.health
        self.observers: list[Observer] = [self.setup, self.timers, self.lines, self.checkpoints]
        self.queue_table = self.setup.queue         # a host's table change during a hand
        self.restore_checkpoint = self.checkpoints.restore    # its parts, before :meth:`replay`
        self.next_deadline = self.timers.next_deadline

    # --- the pipeline --------------------------------------------------------------------------------

    def replay(self, entries: list[dict[str, Any]], start: Recovered[Table] | None = None) -> None:
        """Start-up (startup.py): from ``start``'s checkpoint, if any, then ``entries``."""
        startup.replay(self, entries, start)

    def submit(self, entry: Submitted, tags: Mapping[str, Any] | None = None) -> Outcome:
        """Journal ``entry`` (fsync), then apply it; while the journal fails it is refused with that reason and
        not applied. A record is written in its journal form (``to_json``), a dict as it is (applied.Submitted);
        the daemon's ``tags`` follow its keys (the shoe's read, a tick's wall time). A ``start`` is journaled
        with its time (``"at"``: the hand's time in the hand histories)."""
        if not isinstance(entry, dict):
            entry = to_json(entry)
        if tags:
            entry = {**entry, **tags}
        if entry.get("type") == "start" and "at" not in entry:
            entry = {**entry, "at": utc_now()}
        if entry.get("type") == "pause":            # TRN-5: the clock stops where it is, not at the last tick
            self.timers.pass_time(self.clock(), step=1.0)
        if not self.durable.append(entry):
            return Outcome(False, f"{JOURNAL_PAUSED} ({self.journal_fault})")
        outcome = self.apply(entry, live=True).outcome
        if entry.get("type") == "card" and isinstance(entry.get("card"), str):
            self.last_card = entry["card"]
        if self.setup.pending is not None:
            self.setup.apply_pending()           # the hand this input ended was the last one on the old table
        return outcome

    def apply(self, entry: dict[str, Any], live: bool) -> Applied:
        """Apply a journaled ``entry`` and publish it: the one way every observer learns of an input."""
        if self.local_api is not None:           # the first observer (api.setter): the ledger looks before
            self.local_api.before(entry, self.table)
        step = Applied(entry, self.table.apply(entry), self.table, live)
        for observer in self.observers:
            observer.applied(step)
        return step

    def run_inputs(self, inputs: Sequence[Submitted], changed_seat: int | None,
                   tags: Mapping[str, Any] | None = None) -> None:
        """What a press or a timer made, through the pipeline; then the displays it changed."""
        for entry in inputs:
            self.submit(entry, tags)
        if inputs:
            self.refresh()
        elif changed_seat is not None:
            self.refresh_seat(changed_seat)
        else:
            self.refresh_dealer()

    # --- entry points: device threads, the shoe link, the main loop -----------------------------------

    @contained(None)
    def on_edge(self, edge: ButtonEdge) -> None:
        """A raw button edge, on the loop's thread (button_input.py)."""
        self.buttons.edge(edge)

    @contained(False)
    def on_read(self, read: CardRead) -> bool:
        """A read from the shoe's link (shoe_intake.py); True once durable, so the link ACKs it."""
        return self.intake.read(read)

    @contained(None)
    def on_card(self, uid: str) -> None:
        """A tag read without an identity (the simulator, tests)."""
        self.intake.card(uid, None)

    @contained(None)
    def on_shoe_event(self, event: ShoeEvent) -> None:
        self.intake.event(event)

    @contained(None)
    def tick(self) -> None:
        """Timers (timers.py): releases, long presses, notices, confirmations, display retries, the clocks."""
        self.timers.tick()

    # --- what the socket API, the daemon, the screens and tests read ---------------------------------

    @property
    def api(self) -> LocalApi | None:     # the local API (table/api/server.py), as the pipeline sees it
        return self.local_api

    @api.setter
    def api(self, api: LocalApi | None) -> None:        # the pipeline's first observer, or none
        old, self.local_api = self.local_api, api
        self.observers = [*([api] if api is not None else []), *(o for o in self.observers if o is not old)]

    @property
    def journal_fault(self) -> str | None:
        return self.durable.fault

    @property
    def shoe_position(self) -> tuple[str, int] | None:
        return self.durable.shoe_position

    @property
    def pending_table(self) -> dict[str, Any] | None:
        return self.setup.pending

    @property
    def table_source(self) -> TableSource:
        return self.setup.source

    @property
    def dealer_overlay(self) -> tuple[Image.Image, float] | None:
        return self.screens.dealer_overlay

    @dealer_overlay.setter
    def dealer_overlay(self, overlay: tuple[Image.Image, float] | None) -> None:
        self.screens.dealer_overlay = overlay

    def _changed(self) -> None:
        if self.local_api is not None:          # the console pulls the views it shows
            self.local_api.changed()

    def status(self) -> str:
        return self.dealer_view().expect

    def close(self) -> None:
        self.buttons.close()
        self.screens.close()
