"""The daemon's timers: one turn of the main loop, and elapsed time handed to the engine.

``daemon.serve`` calls the controller's ``tick`` after every wake-up and sleeps until :meth:`Timers.next_deadline`:
the buttons' timers (a debounced release, a panel's hold, a console confirmation), the screens' (a pairing
code's end, a display to retry), the journal's probe while it fails, and the clocks. The engine has no
clock: a running player clock (TRN-2) or level clock (TRN-1) gets whole seconds as journaled ``tick`` inputs
(level_time.Ticks), and at start-up the seconds the daemon was down come off the level clock as one tick
(level_time.LevelTime, TRN-1 without drift). The wall clock is read only here and for a ``start``'s time.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from dealerpi.engine import Outcome, Table
from dealerpi.level_time import LevelTime, Ticks, utc
from dealerpi.table.applied import Applied, Submitted
from dealerpi.table.button_input import ButtonInput
from dealerpi.table.durable import Durable
from dealerpi.table.screens import Screens
from dealerpi.views.model import Alert


class TimerSource(Protocol):
    """What the timers need of the daemon: its clocks (read each time: a test sets its own), the parts with
    timers, and the pipeline."""

    clock: Callable[[], float]
    wall: Callable[[], float]
    table: Table
    buttons: ButtonInput
    screens: Screens
    durable: Durable
    alerts: collections.deque[Alert]

    def submit(self, entry: Submitted, tags: Mapping[str, Any] | None = None) -> Outcome: ...
    def run_inputs(self, inputs: Sequence[Submitted], changed_seat: int | None,
                   tags: Mapping[str, Any] | None = None) -> None: ...


class Timers:
    """The main loop's turn and the engine's time (module docstring); an observer of the pipeline for the
    wall time counted into the level clock (``level_time``, kept in each checkpoint)."""

    def __init__(self, daemon: TimerSource) -> None:
        self.daemon = daemon
        self.ticks = Ticks()                      # elapsed time to the engine, as tick inputs
        self.level_time = LevelTime()             # the wall time counted into the level clock (TRN-1)

    def applied(self, step: Applied) -> None:
        self.level_time.note(step.entry, step.outcome.accepted)

    def tick(self) -> None:
        """One turn: every timer that is due."""
        daemon = self.daemon
        now = daemon.clock()
        daemon.buttons.tick(now)
        daemon.screens.tick(now)
        daemon.durable.probe(now)
        self.pass_time(now)

    def pass_time(self, now: float, step: float | None = None) -> None:
        """The tick input due now, if a clock runs (``step`` 1.0: TRN-5, a pause stops the clock where it is)."""
        if (tick := self.ticks.due(self.daemon.table, now, step)) is not None:
            self.daemon.run_inputs([tick], changed_seat=None, tags={"at": utc(self.daemon.wall())})

    def catch_up(self) -> None:
        """Start-up, TRN-1 without drift (level_time.py): the seconds the daemon was down come off the running
        level clock, as one journaled tick; a wall clock behind the journal adds nothing and says so."""
        wall = self.daemon.wall()
        tick, trouble = self.level_time.catch_up(self.daemon.table, wall)
        if trouble is not None:
            self.daemon.alerts.append(Alert("TRN-1", trouble))
        if tick is not None:
            self.daemon.submit(tick, {"at": utc(wall)})      # the wall time: level_time.py counts from it

    def next_deadline(self) -> float | None:
        daemon = self.daemon
        times = [daemon.buttons.next_deadline(), daemon.screens.next_deadline(), daemon.durable.next_probe()]
        return min((t for t in times if t is not None), default=None)
