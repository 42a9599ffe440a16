"""The table's displays and LEDs: one observer of the daemon's pipeline, which draws what changed.

After an input every seat's view and the dealer's are built again from the table (views/build.py: each seat's
view has its own cards only, secrecy by construction) and drawn only where the picture changed
(views/render.py): a full OLED frame costs about 25 ms on I2C, so ten seats redrawn for nothing would cost a
quarter of a second. Each ``DisplaySlot`` survives a display falling off the bus. The LEDs follow each seat's
view (its turn, the button). The console process is told of every change (``changed``) and pulls the views.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
from collections.abc import Callable
from typing import Protocol

from PIL import Image

from dealerpi.config import Config
from dealerpi.devices import Devices, DisplaySlot, LedBank
from dealerpi.engine import Table, Waiting
from dealerpi.input import DealerConsole, SeatPanel
from dealerpi.shoe.health import ShoeHealth
from dealerpi.views.build import alert_order, dealer_view, seat_view
from dealerpi.views.model import Alert, DealerView, SeatView
from dealerpi.views.render import dealer_pages, render_dealer, render_seat


class ScreenSource(Protocol):
    """What the screens read of the daemon: the table and what the daemon has to say."""

    table: Table
    console: DealerConsole          # read each time: the simulator puts its own in after start-up
    alerts: collections.deque[Alert]
    seat_alerts: dict[int, Alert]
    last_card: str | None
    announcement: str               # the room director's (docs/room.md), on the dealer's display
    shoe_health: ShoeHealth

    def fault_alert(self) -> Alert | None: ...


class Screens:
    """The seat displays and LEDs and the dealer display of one table (module docstring)."""

    def __init__(self, config: Config, devices: Devices, clock: Callable[[], float], panels: dict[int, SeatPanel],
                 source: ScreenSource, changed: Callable[[], None]) -> None:
        self.clock, self.panels, self.source, self.changed = clock, panels, source, changed
        self.leds = LedBank(devices.led)
        self.seat_slots: dict[int, DisplaySlot] = {}
        for panel in config.seats:
            for name, pin in panel.leds.items():
                self.leds.add((panel.seat, name), pin)
            self.seat_slots[panel.seat] = DisplaySlot(
                f"seat {panel.seat} ({panel.display.where()})", functools.partial(devices.open_display, panel.display),
                clock)
        self.dealer_slot = DisplaySlot(f"dealer ({config.dealer.display.where()})",
                                       lambda: devices.open_display(config.dealer.display), clock)
        self.engine_views: dict[int, SeatView] = {}
        self.dealer_page = 0
        self.dealer_overlay: tuple[Image.Image, float] | None = None   # (image, until): a pairing QR the host asked for
        self._shown: dict[object, object] = {}       # display key -> the view last drawn on it
        self._console_shown: object = None            # the dealer console's confirmation as last drawn

    def refresh(self) -> None:
        """Recompute every view from the table and redraw what changed."""
        source, table = self.source, self.source.table
        expectation = table.expectation()
        showdown = set(expectation.seats) if expectation.waiting is Waiting.SHOWDOWN else set()
        for seat, panel in self.panels.items():
            view = seat_view(table, seat, alert=source.fault_alert() or source.seat_alerts.get(seat))
            self.engine_views[seat] = view
            panel.set_view(view)
            panel.showdown = seat in showdown
            self.leds.set((seat, "action"), view.your_action)
            self.leds.set((seat, "dealer"), view.is_button)
            self.refresh_seat(seat)
        self.refresh_dealer()

    def refresh_seat(self, seat: int) -> None:
        view = self.engine_views.get(seat)
        if view is None:
            return
        shown = self.panels[seat].overlay(view)
        if self._shown.get(seat) != shown:
            self._shown[seat] = shown
            self.seat_slots[seat].show(render_seat(shown))
            self.changed()                   # a seat's frame is part of the virtual-hardware panel's view

    def dealer_view(self) -> DealerView:
        source = self.source
        fault = source.fault_alert()
        alerts = alert_order(source.alerts)
        view = dealer_view(source.table, (fault, *alerts) if fault is not None else alerts,
                           shoe_online=source.shoe_health.online)
        source.console.set_state(view.waiting, source.last_card, source.table.accepted_count)
        now = self.clock()
        confirm = source.console.confirm_lines(now)
        if confirm:                                  # a pending EXPOSED / MISDEAL / UNDO, with its seconds
            view = dataclasses.replace(view, expect=confirm[0], confirm=confirm[1:])
        elif (notice := source.console.notice_now(now)) is not None:
            view = dataclasses.replace(view, expect=notice)
        if source.announcement:
            view = dataclasses.replace(view, notes=(f"ROOM: {source.announcement}", *view.notes))
        return view

    def show_on_dealer(self, image: Image.Image, seconds: float) -> None:
        """Put ``image`` on the dealer display for ``seconds`` or until a console button is pressed."""
        self.dealer_overlay = (image, self.clock() + seconds)
        self._shown.pop("dealer", None)
        self.dealer_slot.show(image)

    def refresh_dealer(self) -> None:
        self.changed()
        if self.dealer_overlay is not None:
            if self.clock() < self.dealer_overlay[1]:
                return
            self.dealer_overlay = None
        view = self.dealer_view()
        if self._shown.get("dealer") == (view, self.dealer_page):
            return
        self._shown["dealer"] = (view, self.dealer_page)
        self._console_shown = self.source.console.shown(self.clock())
        self.dealer_slot.show(render_dealer(view, self.dealer_page % dealer_pages(view)))

    def tick(self, now: float) -> None:
        """Timers: the pairing code's time is up, a confirmation's second went by, a display to retry."""
        if self.dealer_overlay is not None and now >= self.dealer_overlay[1]:
            self.refresh_dealer()
        if self.source.console.shown(now) != self._console_shown:     # a second less to confirm, a lapse, a notice gone
            self.refresh_dealer()
        for slot in (*self.seat_slots.values(), self.dealer_slot):
            slot.poll()

    def next_deadline(self) -> float | None:
        return self.dealer_overlay[1] if self.dealer_overlay is not None else None

    def close(self) -> None:
        self.leds.close()
