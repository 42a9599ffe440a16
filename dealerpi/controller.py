"""The table's controller: the input pipeline. An input in, the journal, the engine, then what happened out
to the observers, in one order.

    buttons -> debouncer -> seat panel / dealer console -> input ─┐          (button_input.py)
    shoe link -> read (UID, boot, seq) -> deck library -> card ───┤          (shoe_intake.py)
    the console's socket, the timers' ticks, start-up ────────────┴-> submit: journal (fsync) -> table.apply
    -> Applied(entry, outcome, table) to each observer (applied.py) -> screens

Each collaborator has one job in its own module: ``durable.Durable`` (nothing unjournaled counts: appends, the
fault that pauses inputs, the shoe's last read), and the observers of every applied input: the local API
(socket_api.py: the session ledger, request ids, the broadcast stream), ``table_setup.TableSetup`` (the
config's table, a change waiting for the hand's end), ``timers.Timers`` (the main loop's timers, time to the
engine as ticks), ``alert_lines.AlertLines`` (the dealer's alerts, a seat's refusal),
``checkpoints.Checkpoints`` (on the engine's ``HandStarted``); then ``screens.Screens`` (displays, LEDs).
``startup.replay`` rebuilds the table at start-up through the same pipeline. What happened comes from the
engine's events (engine/events.py), not from the input's type.

No exception escapes an entry point (contained.py): a bug is an alert, not a stop. The controller is
synchronous and runs on the asyncio loop's thread (daemon.py hands it every event), so tests, the simulator
and the latency benchmark drive it without a loop. Card values (hole cards) are logged only at DEBUG.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from dealerpi import startup
from dealerpi.alert_lines import AlertLines
from dealerpi.applied import Applied, LocalApi, Observer
from dealerpi.button_input import ButtonInput
from dealerpi.checkpoints import Checkpoints
from dealerpi.config import Config
from dealerpi.contained import contained
from dealerpi.devices import ButtonEdge, Devices
from dealerpi.durable import JOURNAL_PAUSED, Durable
from dealerpi.engine import Outcome, Table  # the engine's face: here and in screens.py
from dealerpi.input import DealerConsole
from dealerpi.journal import Journal, utc_now
from dealerpi.journal_folder import JournalFolder, Recovered
from dealerpi.screens import Screens
from dealerpi.shoe.link import ShoeEvent
from dealerpi.shoe.session import CardRead
from dealerpi.shoe_intake import Decks, ShoeIntake
from dealerpi.table_setup import TableSetup
from dealerpi.table_source import TableSource
from dealerpi.timers import Timers
from dealerpi.views.model import Alert

RECORDS_KEPT = 1      # deals the engine keeps from earlier hands: the journal folder is the evening's record


class Controller:
    """Inputs in, journal and engine in the middle, the observers and the displays out."""

    def __init__(self, config: Config, devices: Devices, journal: Journal | JournalFolder, *,
                 clock: Callable[[], float] = time.monotonic, post: Callable[[ButtonEdge], None] | None = None,
                 decks: Decks | None = None, wall: Callable[[], float] = time.time) -> None:
        self.config, self.devices, self.journal, self.decks = config, devices, journal, decks
        self.clock = clock                 # read each time (a test sets its own)
        self.wall = wall                   # the wall clock: only the ticks' "at" and the restart's catch-up
        self.table = Table()
        self.table.records_kept = RECORDS_KEPT
        self.console = DealerConsole()     # the simulator puts its own in after start-up (daemon.py)
        # the room director's announcement (docs/room.md): display only, not an input of the hand, so not
        # journaled; the room sends it again when the table's view lacks it (after a restart)
        self.announcement = ""
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
        self.setup = TableSetup(self)               # the table input in force and one waiting for the hand's end
        self.timers = Timers(self)
        self.checkpoints = Checkpoints(self)
        self.intake = ShoeIntake(self)              # the shoe's reads into card inputs, exactly once
        self.shoe_health = self.intake.health
        self.observers: list[Observer] = [self.setup, self.timers, self.lines, self.checkpoints]

    # --- the pipeline --------------------------------------------------------------------------------

    def replay(self, entries: list[dict[str, Any]], start: Recovered[Table] | None = None) -> None:
        """Start-up (startup.py): from ``start``'s checkpoint, if any, then ``entries``."""
        fresh = start is None or start.table is None
        if start is not None and start.table is not None:
            self.table = start.table
            self.table.records_kept = RECORDS_KEPT
            self.durable.shoe_position = start.shoe
        startup.replay(self, entries, fresh)

    def restore_checkpoint(self, data: Mapping[str, Any]) -> None:
        """The daemon's own parts of the checkpoint start-up used (before :meth:`replay`)."""
        self.checkpoints.restore(data)

    def submit(self, entry: dict[str, Any]) -> Outcome:
        """Journal ``entry`` durably, then apply it; refusals and alerts go to the displays. While the
        journal fails the input is refused with that reason and not applied (nothing unjournaled counts).
        A ``start`` is journaled with the time (``"at"``, as the console's inputs are): the hand's time in the
        console's hand histories; the engine ignores the key."""
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

    def queue_table(self, entry: dict[str, Any]) -> Outcome:
        """A ``table`` input sent during a hand (the host's page): journaled now, marked ``after_hand``, so it
        is durable before it is acknowledged; the engine refuses it during the hand (a replay does too, and
        then queues it again), and the daemon applies it, journaled again, right after the input that ends
        the hand. A later change replaces it."""
        queued = {**entry, "after_hand": True}
        if not self.durable.append(queued):
            return Outcome(False, f"{JOURNAL_PAUSED} ({self.journal_fault})")
        self.apply(queued, live=False)           # the engine refuses it during the hand: no one is told
        self.setup.pending = queued
        return Outcome(True, None)

    def apply(self, entry: dict[str, Any], live: bool) -> Applied:
        """Apply a journaled ``entry`` and publish it: the one way every observer learns of an input."""
        observers = self.observers if self.local_api is None else [self.local_api, *self.observers]
        for observer in observers:
            observer.before(entry, self.table)
        step = Applied(entry, self.table.apply(entry), self.table, live)
        for observer in observers:
            observer.applied(step)
        return step

    def run_inputs(self, inputs: list[dict[str, Any]], changed_seat: int | None) -> None:
        """What a press or a timer made, through the pipeline; then the displays it changed."""
        for entry in inputs:
            self.submit(entry)
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

    def _handle(self, edge: ButtonEdge) -> None:
        self.buttons.handle(edge)

    def _sit(self, seat: int) -> dict[str, Any]:
        return self.buttons.sit(seat)

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

    def next_deadline(self) -> float | None:
        return self.timers.next_deadline()

    # --- what the socket API, the daemon, the screens and tests read ---------------------------------

    @property
    def api(self) -> Any:      # Any: the simulator's tests reach the API's virtual panel through it
        """The local API (socket_api.ApiServer) when the config has a console; setting it subscribes it."""
        return self.local_api

    @api.setter
    def api(self, api: LocalApi | None) -> None:
        self.local_api = api

    @property
    def journal_fault(self) -> str | None:
        return self.durable.fault

    @journal_fault.setter
    def journal_fault(self, fault: str | None) -> None:
        self.durable.fault = fault

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
    def shoe_online(self) -> bool:
        return self.intake.health.online

    @property
    def dealer_overlay(self) -> tuple[Any, float] | None:
        return self.screens.dealer_overlay

    @dealer_overlay.setter
    def dealer_overlay(self, overlay: tuple[Any, float] | None) -> None:
        self.screens.dealer_overlay = overlay

    def fault_alert(self) -> Alert | None:
        return self.durable.fault_alert()

    def _changed(self) -> None:
        if self.local_api is not None:          # the console pulls the views it shows
            self.local_api.changed()

    def status(self) -> str:
        return self.dealer_view().expect

    def close(self) -> None:
        self.buttons.close()
        self.screens.close()
