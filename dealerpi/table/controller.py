"""The table's controller: the input pipeline. Buttons and cards in, the journal, the engine, then the
engine's outcome to the observers.

The wiring, one direction only:

    buttons -> debouncer -> seat panel / dealer console -> inputs -> journal (fsync) -> table.apply
    shoe link -> read (UID, boot, seq) -> deck library -> {"type": "card", "shoe": {boot, seq}} -> the same path
    outcome -> socket API (ledger, request ids), table set-up, level time, checkpoint on HandStarted -> screens

Each observer has one job in its own module: ``durable.Durable`` (nothing unjournaled counts: appends,
the fault that pauses inputs, checkpoints, the shoe's last read), ``table_setup.TableSetup`` (the config's
table, a change waiting for the hand's end), ``level_time`` (elapsed time to the engine as ticks),
``alert_lines.AlertLines`` (the dealer's alerts, a seat's refusal), ``screens.Screens`` (displays, LEDs);
and on the way in ``shoe_intake.ShoeIntake`` (the shoe's reads into card inputs, exactly once).
What happened comes from the engine's events (engine/events.py), not from the input's type.

No exception escapes a callback or :meth:`Controller.tick`: a bug is an alert, not a stop.

:class:`Controller` is synchronous and runs on the asyncio loop's thread (daemon.py hands it every event), so
tests, the simulator and the latency benchmark drive it without a loop. Card values (hole cards) are logged
only at DEBUG.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Concatenate, ParamSpec, TypeVar

from dealerpi.config import Config, gcd_unit
from dealerpi.devices import ButtonBank, ButtonEdge, Debouncer, Devices
from dealerpi.engine import HandStarted, Outcome, Table  # the engine's face: here and in screens.py
from dealerpi.input import DealerConsole, Key, SeatPanel
from dealerpi.journal.file import Journal, utc_now
from dealerpi.journal.folder import JournalFolder, Recovered
from dealerpi.level_time import LevelTime, Ticks
from dealerpi.shoe.link import ShoeEvent
from dealerpi.shoe.session import CardRead
from dealerpi.table.alert_lines import AlertLines
from dealerpi.table.durable import JOURNAL_PAUSED, Durable
from dealerpi.table.screens import Screens
from dealerpi.table.setup import TableSetup
from dealerpi.table.shoe_intake import ShoeIntake
from dealerpi.table.source import TableSource
from dealerpi.views.model import Alert

_LOGGER = logging.getLogger(__name__)

RECORDS_KEPT = 1      # deals the engine keeps from earlier hands: the journal folder is the evening's record

_P = ParamSpec("_P")
_T = TypeVar("_T")


def _contained(default: _T) -> Callable[[Callable[Concatenate[Controller, _P], _T]],
                                         Callable[Concatenate[Controller, _P], _T]]:
    """An entry point from a device thread, the shoe link or the main loop: a bug in it becomes a log
    record with its traceback and a dealer alert, and the table keeps running (never a stopped daemon)."""
    def wrap(method: Callable[Concatenate[Controller, _P], _T]) -> Callable[Concatenate[Controller, _P], _T]:
        @functools.wraps(method)
        def guarded(self: Controller, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
            try:
                return method(self, *args, **kwargs)
            except Exception as error:
                _LOGGER.exception("internal error in %s", method.__name__)
                self.alerts.append(Alert("ERROR", f"internal error ({type(error).__name__}): see the log; "
                                                  "restart the table if it repeats"))
                with contextlib.suppress(Exception):
                    self.refresh_dealer()
                return default
        return guarded
    return wrap


def _hand_started(outcome: Outcome) -> bool:
    """The engine dealt a hand (its event, not the input's type: a refused or undone start deals none)."""
    return any(isinstance(event, HandStarted) for event in outcome.events)


class Controller:
    """Buttons and cards in, journal and engine in the middle, displays and LEDs out."""

    def __init__(self, config: Config, devices: Devices, journal: Journal | JournalFolder, *,
                 clock: Callable[[], float] = time.monotonic,
                 post: Callable[[ButtonEdge], None] | None = None,
                 decks: Any = None, wall: Callable[[], float] = time.time) -> None:
        self.config = config
        self.wall = wall                  # the wall clock: only the ticks' "at" and the restart's catch-up
        self.devices = devices
        self.journal = journal
        self.clock = clock
        self.table = Table()
        self.table.records_kept = RECORDS_KEPT
        self.decks = decks
        self.debouncer = Debouncer(config.timing.debounce_ms / 1000)
        unit = gcd_unit(config.table.get("blinds", [1, 1]))
        self.panels = {p.seat: SeatPanel(p.seat, config.timing, unit) for p in config.seats}
        self.console = DealerConsole()
        self.lines = AlertLines(self.panels)        # the dealer's alerts and each seat's refusal
        self.alerts, self.seat_alerts = self.lines.alerts, self.lines.seat_alerts
        # the room director's announcement (docs/room.md): display only, not an input of the hand, so not
        # journaled; the room sends it again when the table's view lacks it (after a restart)
        self.announcement = ""
        self.presses: collections.Counter[str] = collections.Counter()   # per button bank, for the same
        self.last_card: str | None = None
        self.ticks = Ticks()                        # elapsed time to the engine, as tick inputs
        self.buttons = ButtonBank(devices.button, clock, post or self.on_edge)
        for panel in config.seats:
            for name in ("fold", "call", "bet"):
                self.buttons.add(("seat", panel.seat, Key(name)), panel.buttons[name])
        for name, pin in config.dealer.buttons.items():
            self.buttons.add(("console", name), pin)
        self.api: Any = None         # the local API (dealerpi.table.api.server): told of every input and change
        self.screens = Screens(config, devices, lambda: self.clock(), self.panels, self, self._changed)
        self.seat_slots, self.dealer_slot = self.screens.seat_slots, self.screens.dealer_slot
        self.engine_views = self.screens.engine_views
        self.refresh, self.refresh_seat, self.refresh_dealer = (self.screens.refresh, self.screens.refresh_seat,
                                                                self.screens.refresh_dealer)
        self.dealer_view, self.show_on_dealer = self.screens.dealer_view, self.screens.show_on_dealer
        self.setup = TableSetup(self)               # the table input in force and one waiting for the hand's end
        self.level_time = LevelTime()               # the wall time counted into the level clock (TRN-1)
        self.durable = Durable(journal, lambda: self.clock(), self.alerts, lambda: self.refresh())
        self.intake = ShoeIntake(self)              # the shoe's reads into card inputs, exactly once
        self.shoe_health = self.intake.health

    # --- start-up ------------------------------------------------------------------------------------

    def replay(self, entries: list[dict[str, Any]], start: Recovered[Table] | None = None) -> None:
        """Rebuild the table from the journal (from ``start``'s checkpoint, if any, then ``entries``), then
        make sure it runs the configured game and stakes. If that replay went past the start of a hand (an
        old single journal, inputs added while the daemon was down, a checkpoint that failed), a checkpoint
        now keeps the next start-up to this hand."""
        if start is not None and start.table is not None:
            self.table = start.table
            self.table.records_kept = RECORDS_KEPT
            self.shoe_position = start.shoe
        # issue 20: a new journal's first record names it (``journal``: a random id, and its time), so the
        # console's session (the hash of that line, history/final_hands.py) is this journal's alone
        self.durable.new_journal = not entries and (start is None or start.table is None)
        if self.durable.new_journal and self.api is not None:
            self.api.new_journal()               # a new evening: the ledger's notes of the last one are put aside
        started = False
        for number, entry in enumerate(entries, start=1):
            outcome = self._apply(entry)
            started |= _hand_started(outcome)
            self.setup.replayed(entry, outcome.accepted)
            self.durable.note_read(entry, f"journal input {number}")
        if started:               # a hand began since the checkpoint: start from here next time
            self._checkpoint()
        self.setup.check_config()
        self._catch_up()
        _LOGGER.info("table ready: %d inputs replayed, hand #%d", len(entries), self.table.hand_number)
        self.refresh()

    def restore_checkpoint(self, data: Mapping[str, Any]) -> None:
        """The daemon's own parts of the checkpoint start-up used (before :meth:`replay`)."""
        self.setup.source = TableSource.restore(data.get("table_source"))
        self.level_time = LevelTime.restore(data.get("level_time"))

    def _catch_up(self) -> None:
        """TRN-1 without drift (level_time.py): the seconds the daemon was down come off the running level
        clock, as one journaled tick; a wall clock behind the journal adds nothing and says so."""
        tick, trouble = self.level_time.catch_up(self.table, self.wall())
        if trouble is not None:
            self.alerts.append(Alert("TRN-1", trouble))
        if tick is not None:
            self.submit(tick)

    # --- inputs --------------------------------------------------------------------------------------

    def queue_table(self, entry: dict[str, Any]) -> Outcome:
        """A ``table`` input sent during a hand (the host's page): journaled now, marked ``after_hand``, so it
        is durable before it is acknowledged; the engine refuses it during the hand (a replay does too, and
        then queues it again), and the daemon applies it, journaled again, right after the input that ends
        the hand. A later change replaces it."""
        queued = {**entry, "after_hand": True}
        if not self.durable.append(queued):
            return Outcome(False, f"{JOURNAL_PAUSED} ({self.journal_fault})")
        self._apply(queued)
        self.setup.pending = queued
        return Outcome(True, None)

    def submit(self, entry: dict[str, Any]) -> Outcome:
        """Journal ``entry`` durably, then apply it; refusals and alerts go to the displays. While the
        journal fails the input is refused with that reason and not applied (nothing unjournaled counts).
        A ``start`` is journaled with the time (``"at"``, as the console's inputs are): the hand's time in the
        console's hand histories; the engine ignores the key."""
        if entry.get("type") == "start" and "at" not in entry:
            entry = {**entry, "at": utc_now()}
        if entry.get("type") == "pause":            # TRN-5: the clock stops where it is, not at the last tick
            self._pass_time(self.clock(), step=1.0)
        if not self.durable.append(entry):
            return Outcome(False, f"{JOURNAL_PAUSED} ({self.journal_fault})")
        outcome = self._apply(entry)
        if entry.get("type") == "card" and isinstance(entry.get("card"), str):
            self.last_card = entry["card"]       # read by the shoe or typed (manual): what EXPOSED names
        if _hand_started(outcome):
            self.lines.hand_started(self.table)
            self._checkpoint()
        self.lines.noted(entry, outcome)
        if self.setup.pending is not None:
            self.setup.apply_pending()           # the hand this input ended was the last one on the old table
        return outcome

    def _checkpoint(self) -> None:
        snapshot = self.table.snapshot()
        if self.api is not None:          # the session ledger and the console's request ids live on
            snapshot["console"] = self.api.checkpoint_data()
        snapshot["table_source"] = self.setup.source.snapshot()
        snapshot["level_time"] = self.level_time.snapshot()
        self.durable.checkpoint(snapshot)

    def _apply(self, entry: dict[str, Any]) -> Outcome:
        if self.api is None:
            outcome = self.table.apply(entry)
        else:
            self.api.before(entry, self.table)
            outcome = self.table.apply(entry)
            self.api.after(entry, outcome, self.table)
        self.setup.source.note(entry, outcome.accepted)
        self.level_time.note(entry, outcome.accepted)
        return outcome

    def fault_alert(self) -> Alert | None:
        return self.durable.fault_alert()

    @_contained(None)
    def on_edge(self, edge: ButtonEdge) -> None:
        """A raw button edge, on the loop's thread."""
        for accepted in self.debouncer.edge(edge):
            self._handle(accepted)

    def _handle(self, edge: ButtonEdge) -> None:
        key_parts: tuple[Any, ...] = edge.key  # type: ignore[assignment]
        kind, rest = key_parts[0], key_parts[1:]
        if edge.pressed:
            self.presses[f"seat {rest[0]}" if kind == "seat" else "dealer"] += 1
        if kind == "seat":
            seat, key = rest
            panel = self.panels[seat]
            if edge.pressed:
                self.seat_alerts.pop(seat, None)     # a refusal is shown until the seat's next press
                view = self.screens.engine_views.get(seat)
                if key is Key.BET and view is not None and view.player is None:
                    self._run_inputs([self._sit(seat)], changed_seat=seat)
                    return
            inputs = panel.press(key, edge.t) if edge.pressed else panel.release(key, edge.t)
            self._run_inputs(inputs, changed_seat=seat)
        elif edge.pressed and self.dealer_overlay is not None:
            self.dealer_overlay = None          # any console button takes the pairing code away, nothing else
            self.refresh_dealer()
        elif edge.pressed:
            result = self.console.press(rest[0], edge.t, self.table.last_input())
            if result.clear_alerts:
                self.alerts.clear()
            if result.next_page:
                self.screens.dealer_page += 1
            self._run_inputs(result.inputs, changed_seat=None)

    def _run_inputs(self, inputs: list[dict[str, Any]], changed_seat: int | None) -> None:
        for entry in inputs:
            self.submit(entry)
        if inputs:
            self.refresh()
        elif changed_seat is not None:
            self.refresh_seat(changed_seat)
        else:
            self.refresh_dealer()

    def _sit(self, seat: int) -> dict[str, Any]:
        """BET on an empty seat sits a player there with the table's ``starting_stack`` (or 100 big blinds);
        the dealer can UNDO it. Names and chip counts beyond that come from the simulator or a replayed journal.
        (``buy_in`` is a tournament's entry fee in money, not chips.)"""
        stack = self.table.config.panel_stack if self.table.config is not None else 0   # 0: refused, no table
        return {"type": "sit", "seat": seat, "player": f"Seat {seat}", "stack": stack}

    @_contained(False)
    def on_read(self, read: CardRead) -> bool:
        """A read from the shoe's link (shoe_intake.py); True once durable, so the link ACKs it."""
        return self.intake.read(read)

    @_contained(None)
    def on_card(self, uid: str) -> None:
        """A tag read without an identity (the simulator, tests)."""
        self.intake.card(uid, None)

    @_contained(None)
    def on_shoe_event(self, event: ShoeEvent) -> None:
        self.intake.event(event)

    @property
    def shoe_online(self) -> bool:
        return self.intake.health.online

    @_contained(None)
    def tick(self) -> None:
        """Timers: debounced releases, long presses, notices, console confirmations, display retries."""
        now = self.clock()
        for edge in self.debouncer.poll(now):
            self._handle(edge)
        for seat, panel in self.panels.items():
            before = (panel.mode, panel.amount, panel.notice)
            inputs = panel.tick(now)
            if inputs:
                self._run_inputs(inputs, changed_seat=seat)
            elif (panel.mode, panel.amount, panel.notice) != before:
                self.refresh_seat(seat)
        self.console.tick(now)
        self.screens.tick(now)
        self.durable.probe(now)
        self._pass_time(now)

    def _pass_time(self, now: float, step: float | None = None) -> None:
        if (tick := self.ticks.due(self.table, now, self.wall(), step)) is not None:
            self._run_inputs([tick], changed_seat=None)

    def next_deadline(self) -> float | None:
        times = [self.debouncer.next_deadline(), self.console.next_deadline(),
                 self.screens.next_deadline(),
                 self.durable.next_probe(),
                 *(panel.next_deadline() for panel in self.panels.values())]
        return min((t for t in times if t is not None), default=None)

    # --- what the socket API, the daemon and tests read -------------------------------------------

    @property
    def journal_fault(self) -> str | None:
        return self.durable.fault

    @journal_fault.setter
    def journal_fault(self, fault: str | None) -> None:
        self.durable.fault = fault

    @property
    def shoe_position(self) -> tuple[str, int] | None:
        return self.durable.shoe_position

    @shoe_position.setter
    def shoe_position(self, position: tuple[str, int] | None) -> None:
        self.durable.shoe_position = position

    @property
    def pending_table(self) -> dict[str, Any] | None:
        return self.setup.pending

    @pending_table.setter
    def pending_table(self, entry: dict[str, Any] | None) -> None:
        self.setup.pending = entry

    @property
    def table_source(self) -> TableSource:
        return self.setup.source

    @table_source.setter
    def table_source(self, source: TableSource) -> None:
        self.setup.source = source

    # --- outputs (screens.py) ---------------------------------------------------------------------

    def _changed(self) -> None:
        if self.api is not None:          # the console pulls the views it shows
            self.api.changed()

    @property
    def dealer_overlay(self) -> tuple[Any, float] | None:
        return self.screens.dealer_overlay

    @dealer_overlay.setter
    def dealer_overlay(self, overlay: tuple[Any, float] | None) -> None:
        self.screens.dealer_overlay = overlay

    def status(self) -> str:
        return self.dealer_view().expect

    def close(self) -> None:
        self.buttons.close()
        self.screens.close()
