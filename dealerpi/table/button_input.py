"""The table's buttons into inputs: the seat panels and the dealer's console, after the debouncer.

gpiozero's edges (``ButtonBank``) reach :meth:`ButtonInput.edge` on the loop's thread; the debouncer accepts the
first edge of a press at once and the contact's chatter never (devices/buttons.py). A seat's FOLD/CALL/BET
become that seat's inputs through its panel (input/seat.py, docs/seat-panel.md); BET on an empty seat sits a
player there. A console button is the dealer's (input/console.py): START, EXPOSED, MISDEAL, UNDO, CONFIRM;
while a pairing code is on the dealer display the first console button only takes it away. What a press
made goes to the pipeline (``run_inputs``): journaled, applied, then the displays.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from dealerpi.config import Config, gcd_unit
from dealerpi.devices import ButtonBank, ButtonEdge, Debouncer, Devices
from dealerpi.engine import Sit, Table
from dealerpi.input import DealerConsole, Key, SeatPanel
from dealerpi.table.applied import Submitted
from dealerpi.table.screens import Screens
from dealerpi.views.model import Alert


class ButtonSource(Protocol):
    """What the buttons need of the daemon: the table, the dealer's console (the simulator puts its own in
    after start-up, so it is read each time), the screens, the alerts, and the pipeline."""

    table: Table
    console: DealerConsole
    screens: Screens
    alerts: collections.deque[Alert]
    seat_alerts: dict[int, Alert]

    def run_inputs(self, inputs: Sequence[Submitted], changed_seat: int | None,
                   tags: Mapping[str, Any] | None = None) -> None: ...


class ButtonInput:
    """Every button of one table (module docstring); ``presses`` counts presses per bank (status panel)."""

    def __init__(self, daemon: ButtonSource, config: Config, devices: Devices, clock: Callable[[], float],
                 post: Callable[[ButtonEdge], None]) -> None:
        self.daemon = daemon
        self.debouncer = Debouncer(config.timing.debounce_ms / 1000)
        unit = gcd_unit(config.table.get("blinds", [1, 1]))
        self.panels = {p.seat: SeatPanel(p.seat, config.timing, unit) for p in config.seats}
        self.presses: collections.Counter[str] = collections.Counter()
        self.bank = ButtonBank(devices.button, clock, post)
        for panel in config.seats:
            for name in ("fold", "call", "bet"):
                self.bank.add(("seat", panel.seat, Key(name)), panel.buttons[name])
        for name, pin in config.dealer.buttons.items():
            self.bank.add(("console", name), pin)

    def edge(self, edge: ButtonEdge) -> None:
        """A raw button edge: what the debouncer lets through is handled at once."""
        for accepted in self.debouncer.edge(edge):
            self.handle(accepted)

    def handle(self, edge: ButtonEdge) -> None:
        """One debounced edge."""
        match edge.key:
            case ("seat", int() as seat, Key() as key):
                self._seat(seat, key, edge)
            case ("console", str() as name):
                self._console(name, edge)

    def _seat(self, seat: int, key: Key, edge: ButtonEdge) -> None:
        daemon = self.daemon
        if edge.pressed:
            self.presses[f"seat {seat}"] += 1
            daemon.seat_alerts.pop(seat, None)     # a refusal is shown until the seat's next press
            view = daemon.screens.engine_views.get(seat)
            if key is Key.BET and view is not None and view.player is None:
                daemon.run_inputs([self.sit(seat)], changed_seat=seat)
                return
        panel = self.panels[seat]
        inputs = panel.press(key, edge.t) if edge.pressed else panel.release(key, edge.t)
        daemon.run_inputs(inputs, changed_seat=seat)

    def _console(self, name: str, edge: ButtonEdge) -> None:
        daemon, screens = self.daemon, self.daemon.screens
        if not edge.pressed:
            return
        self.presses["dealer"] += 1
        if screens.dealer_overlay is not None:
            screens.dealer_overlay = None       # any console button takes the pairing code away, nothing else
            screens.refresh_dealer()
            return
        result = daemon.console.press(name, edge.t, daemon.table.last_input())
        if result.clear_alerts:
            daemon.alerts.clear()
        if result.next_page:
            screens.dealer_page += 1
        daemon.run_inputs(result.inputs, changed_seat=None)

    def sit(self, seat: int) -> Sit:
        """BET on an empty seat sits a player there with the table's ``starting_stack`` (or 100 big blinds);
        the dealer can UNDO it. Names and chip counts beyond that come from the simulator or a replayed journal.
        (``buy_in`` is a tournament's entry fee in money, not chips.)"""
        config = self.daemon.table.config
        stack = config.panel_stack if config is not None else 0     # 0: refused, no table
        return Sit(seat, f"Seat {seat}", stack)

    def tick(self, now: float) -> None:
        """Timers: debounced releases, long presses (a panel's hold), the console's confirmations."""
        for edge in self.debouncer.poll(now):
            self.handle(edge)
        for seat, panel in self.panels.items():
            before = (panel.mode, panel.amount, panel.notice)
            inputs = panel.tick(now)
            if inputs:
                self.daemon.run_inputs(inputs, changed_seat=seat)
            elif (panel.mode, panel.amount, panel.notice) != before:
                self.daemon.screens.refresh_seat(seat)
        self.daemon.console.tick(now)

    def next_deadline(self) -> float | None:
        times = [self.debouncer.next_deadline(), self.daemon.console.next_deadline(),
                 *(panel.next_deadline() for panel in self.panels.values())]
        return min((t for t in times if t is not None), default=None)

    def close(self) -> None:
        self.bank.close()
