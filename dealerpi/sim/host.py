"""The simulated table: the engine, fake devices and a shoe on a fake serial port, wired as the daemon wires them.

``SimTable`` owns a ``Table`` (the engine), ``FakeDevices`` (gpiozero mock pins and luma dummy displays, from
the config), the seat panels, the journal, and a card shoe: a ``VirtualDeck``, a ``FakeShoe`` at the far end
of a pty and the daemon's ``ShoeLink`` at the near end. Everything the page does goes in as the world would
do it: a click drives a mock pin low, "deal" slides a tag past the fake shoe's reader; everything it shows
comes out of the devices (the dummy displays' frames, the LED pins' levels) or the engine's views.

It stands in for dealerpi.daemon (being written alongside) with the same parts: when the daemon can run
on injected fakes, this module shrinks to building one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dealerpi.config import Config, Pin, gcd_unit
from dealerpi.devices import ButtonBank, ButtonEdge, Debouncer, DisplaySlot, FakeDevices, LedBank
from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import Phase
from dealerpi.engine.records import Outcome
from dealerpi.engine.table import Table
from dealerpi.input import DealerConsole, Key, SeatPanel
from dealerpi.shoe.link import ShoeEvent, ShoeLink, ShoeOffline, ShoeOnline
from dealerpi.sim.deck import VirtualDeck, sim_library
from dealerpi.sim.fake_shoe import FakeShoe
from dealerpi.views.build import dealer_view, expect_words, seat_view
from dealerpi.views.model import Alert, SeatView
from dealerpi.views.render import render_dealer, render_seat

_LOGGER = logging.getLogger(__name__)

LOG_LENGTH = 300
DEALER_ALERTS = 3        # the newest alerts the dealer's display keeps


@dataclass(frozen=True)
class LogEntry:
    """One line of the page's log. ``kind``: input, refused, alert, shoe. Never names a hole card."""

    time: str
    kind: str
    text: str
    rule: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"time": self.time, "kind": self.kind, "text": self.text, "rule": self.rule}


def describe(entry: Mapping[str, Any]) -> str:
    """An input in a few words for the log; a card read does not say which card (hole cards are secret)."""
    kind = entry.get("type")
    if kind == "card":
        return "the shoe read a card"
    if kind == "act":
        to = f" to {entry['to']}" if "to" in entry else ""
        return f"seat {entry.get('seat')} {str(entry.get('action')).replace('_', '-')}{to}"
    if kind in ("show", "muck", "leave", "away", "back", "button", "straddle"):
        return f"seat {entry.get('seat')}: {kind}"
    if kind == "sit":
        return f"{entry.get('player')} sits in seat {entry.get('seat')} with {entry.get('stack')}"
    if kind == "chips":
        return f"seat {entry.get('seat')} adds {entry.get('amount')}"
    if kind == "start":
        return "START: a new hand" if "bomb" not in entry else "START: a bomb pot"
    if kind in ("exposed", "boxed", "burn"):           # a card seen face up by everyone: no secret
        return f"the dealer: {kind} {entry.get('card')}"
    if kind in ("misdeal", "undo", "clock"):
        return f"the dealer: {kind}"
    if kind == "tick":
        return f"{entry.get('seconds')} seconds pass"
    if kind == "run":
        return f"run it {entry.get('times')} times"
    if kind == "table":
        return (f"table: {entry.get('game')}, {entry.get('rules', 'home')} rules, {entry.get('seats')} seats, "
                f"blinds {'/'.join(map(str, entry.get('blinds', [])))}")
    return json.dumps(dict(entry))


class SimTable:
    """See the module docstring. Build it, ``await start()``, then drive it; ``await stop()`` at the end."""

    def __init__(self, config: Config, journal_path: Path, *, deck_rng: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.devices = FakeDevices(config)
        self.table = Table()
        self.clock = clock
        self.journal_path = journal_path
        self._journal = journal_path.open("a", encoding="utf-8")
        self.log: deque[LogEntry] = deque(maxlen=LOG_LENGTH)
        self.alerts: deque[Alert] = deque(maxlen=DEALER_ALERTS)
        self.seat_alerts: dict[int, Alert] = {}
        self.panels: dict[int, SeatPanel] = {}
        self.console = DealerConsole()
        self.library = sim_library()
        self._listeners: list[Callable[[], None]] = []
        self._debouncer = Debouncer(config.timing.debounce_ms / 1000)
        self._buttons = ButtonBank(self.devices.button, clock, self._post_edge)
        self._leds = LedBank(self.devices.led)
        self._pins: dict[tuple[int | str, str], Pin] = {}
        self._displays: dict[int | str, DisplaySlot] = {}
        for panel in config.seats:
            for name, pin in panel.buttons.items():
                self._buttons.add((panel.seat, name), pin)
                self._pins[(panel.seat, name)] = pin
            for name, pin in panel.leds.items():
                self._leds.add((panel.seat, name), pin)
                self._pins[(panel.seat, f"led-{name}")] = pin
            self._displays[panel.seat] = self._slot(f"seat {panel.seat}", panel.display)
        for name, pin in config.dealer.buttons.items():
            self._buttons.add(("dealer", name), pin)
            self._pins[("dealer", name)] = pin
        self._displays["dealer"] = self._slot("dealer", config.dealer.display)
        self._rng = deck_rng
        self.deck = VirtualDeck(GAMES[str(config.table.get("game", "nlhe"))].deck, deck_rng)
        self.shoe = FakeShoe()
        self.link = ShoeLink(self.shoe.url, on_card=self._on_card, on_event=self._on_shoe_event)
        self.shoe_online = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._last_card: str | None = None

    def _slot(self, name: str, display: Any) -> DisplaySlot:
        return DisplaySlot(name, lambda: self.devices.open_display(display), self.clock)

    # --- life ----------------------------------------------------------------------------------------

    def load(self, lines: list[str]) -> None:
        """Replay a journal's inputs (before ``start``): the table becomes what they make it."""
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError as exc:
                self.note("refused", f"journal line {number} is not JSON: {exc.msg}")
                continue
            self.submit(entry, quiet=True)
        self.note("input", f"loaded {len(lines)} journal lines")

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.shoe.start()
        await self.link.start()
        self._sync_deck()
        self.refresh()

    async def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        await self.link.stop()
        await self.shoe.stop()
        # gpiozero's Button stops a hold thread that polls every 0.1 s: closed one by one, 35 buttons
        # take ~2 s, so they are closed side by side
        await asyncio.gather(*(asyncio.to_thread(button.close) for button in self._buttons.buttons.values()))
        self._buttons.close()
        self._leds.close()
        self.devices.close()
        self._journal.close()

    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    # --- inputs --------------------------------------------------------------------------------------

    def submit(self, entry: Mapping[str, Any], *, quiet: bool = False) -> Outcome:
        """Journal one input (durably, first), apply it, log what came of it, and update the devices."""
        self._journal.write(json.dumps(dict(entry), separators=(", ", ": ")) + "\n")
        self._journal.flush()
        os.fsync(self._journal.fileno())
        outcome = self.table.apply(entry)
        seat = entry.get("seat") if entry.get("type") == "act" else None
        if outcome.accepted:
            self.seat_alerts.clear()
            if entry.get("type") == "table":
                self.panels.clear()            # new blinds: a new chip unit for amount entry
            if entry.get("type") == "start":
                self.alerts.clear()
            if not quiet:
                self.note("input", describe(entry))
        else:
            if isinstance(seat, int):
                self.seat_alerts[seat] = outcome.alerts[0] if outcome.alerts else Alert("REFUSED", outcome.reason or "")
            self.note("refused", f"{describe(entry)}: refused: {outcome.reason}")
        for alert in outcome.alerts:
            self.alerts.appendleft(alert)
            self.note("alert", alert.message, alert.rule)
        self._sync_deck()
        if not quiet:
            self.refresh()
        return outcome

    def note(self, kind: str, text: str, rule: str | None = None) -> None:
        if kind != "input":
            _LOGGER.info("%s%s", f"{rule}: " if rule else "", text)
        self.log.append(LogEntry(time.strftime("%H:%M:%S"), kind, text, rule))

    def _sync_deck(self) -> None:
        """The deck of the game in play, shuffled before each deal and redeal, as the dealer does."""
        config = self.table.config
        if config is not None and config.game.deck is not self.deck.deck:
            self.deck = VirtualDeck(config.game.deck, self._rng)
            self._last_card = None
        hand, deal = self.table.hand, self.table.deal
        if hand is not None and deal is not None and hand.phase is not Phase.COMPLETE and not deal.read_order \
                and self.deck.dealt:
            self.deck.shuffle()
            self._last_card = None

    # --- the shoe ------------------------------------------------------------------------------------

    def deal(self, card: str | None = None) -> str | None:
        """Slide the next card (or the named one) out of the shoe; return an error for the page, or None."""
        if card is None:
            uid = self.deck.deal()
            if uid is None:
                return "the deck is empty: press Shuffle"
        else:
            try:
                uid = self.deck.pick(card)
            except ValueError as exc:
                return str(exc)
        self.shoe.deal(uid)
        return None

    def flag(self, kind: str) -> str | None:
        """The dealer flags the last card dealt as ``exposed`` (EXP-1..4) or ``boxed`` (EXP-6)."""
        if self._last_card is None:
            return "no card has been dealt yet"
        self.submit({"type": kind, "card": self._last_card})
        return None

    def shuffle(self) -> None:
        self.deck.shuffle()
        self._last_card = None
        self.note("shoe", "the deck was shuffled")
        self.refresh()

    def _on_card(self, uid: str) -> None:
        found = self.library.card_for(uid)
        if found is None:
            self.note("alert", f"unknown RFID tag {uid}: not a card of any deck")
            self.refresh()
            return
        card = found[1]
        self._last_card = card
        self.submit({"type": "card", "card": card})

    def _on_shoe_event(self, event: ShoeEvent) -> None:
        if isinstance(event, ShoeOnline):
            self.shoe_online = True
            self.note("shoe", "the shoe is online")
        elif isinstance(event, ShoeOffline):
            self.shoe_online = False
            self.note("shoe", f"the shoe is offline: {event.reason}")
        else:
            self.note("shoe", f"shoe: {event}")
        self.refresh()

    # --- buttons -------------------------------------------------------------------------------------

    def press(self, key: tuple[int | str, str]) -> None:
        """Close a button's contact on its mock pin, as a finger would."""
        self.devices.press(self._pins[key])

    def release(self, key: tuple[int | str, str]) -> None:
        self.devices.release(self._pins[key])

    def has_button(self, key: tuple[int | str, str]) -> bool:
        return key in self._pins

    def _post_edge(self, edge: ButtonEdge) -> None:
        # gpiozero calls this on whatever thread changed the pin: hand the edge to the loop, nothing more
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._edge, edge)

    def _edge(self, edge: ButtonEdge) -> None:
        for accepted in self._debouncer.edge(edge):
            self._button(accepted)
        self._schedule()

    def _button(self, edge: ButtonEdge) -> None:
        where, name = edge.key  # type: ignore[misc]
        if where == "dealer":
            if edge.pressed:
                self.console.set_state(self.expect_words(), self._last_card)
                result = self.console.press(name, edge.t)
                if result.clear_alerts:
                    self.alerts.clear()
                if self.console.notice:
                    self.note("input", f"console: {self.console.notice}")
                for entry in result.inputs:
                    self.submit(entry)
            self.refresh()
            return
        panel = self._panel(where)
        entries = panel.press(Key(name), edge.t) if edge.pressed else panel.release(Key(name), edge.t)
        for entry in entries:
            self.submit(entry)
        self.refresh()

    def _panel(self, seat: int) -> SeatPanel:
        if seat not in self.panels:
            config = self.table.config
            unit = gcd_unit([config.small_blind, config.big_blind]) if config else 1
            self.panels[seat] = SeatPanel(seat, self.config.timing, unit)
            self.panels[seat].set_view(self._seat_view(seat))
        return self.panels[seat]

    def _schedule(self) -> None:
        """Wake up for the next debounce deadline, long press, repeat, guard or notice."""
        if self._loop is None:
            return
        deadlines = [d for d in [self._debouncer.next_deadline(), self.console.next_deadline(),
                                 *(p.next_deadline() for p in self.panels.values())] if d is not None]
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if deadlines:
            delay = max(0.0, min(deadlines) - self.clock())
            self._timer = self._loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        now = self.clock()
        for edge in self._debouncer.poll(now):
            self._button(edge)
        self.console.tick(now)
        for panel in list(self.panels.values()):
            for entry in panel.tick(now):
                self.submit(entry)
        self.refresh()

    # --- outputs -------------------------------------------------------------------------------------

    def seats_in_play(self) -> list[int]:
        config = self.table.config
        count = config.seats if config else int(self.config.table.get("seats", 10))
        return [panel.seat for panel in self.config.seats if panel.seat <= count]

    def refresh(self) -> None:
        """Draw every display from the views and set every LED, as the daemon does after each input."""
        for seat in self.seats_in_play():
            panel = self._panel(seat)
            panel.set_view(self._seat_view(seat))
            view = panel.overlay(seat_view(self.table, seat, alert=self.seat_alerts.get(seat)))
            self._displays[seat].show(render_seat(view))
            self._leds.set((seat, "action"), view.your_action)
            self._leds.set((seat, "dealer"), view.is_button)
        for seat in self._displays:
            if isinstance(seat, int) and seat not in self.seats_in_play():
                self._leds.set((seat, "action"), False)
                self._leds.set((seat, "dealer"), False)
        view = dealer_view(self.table, tuple(self.alerts), shoe_online=self.shoe_online)
        if self.console.notice:
            view = replace(view, notes=(*view.notes, self.console.notice))
        self._displays["dealer"].show(render_dealer(view))
        self._changed()
        self._schedule()

    def _seat_view(self, seat: int) -> SeatView:
        return seat_view(self.table, seat)

    def image(self, where: int | str) -> Any:
        """The frame the fake display of seat ``where`` (or ``"dealer"``) holds now."""
        display = self.config.dealer.display if where == "dealer" else \
            next(p.display for p in self.config.seats if p.seat == where)
        return self.devices.image(display)

    def led(self, seat: int, name: str) -> bool | None:
        """Whether the seat's LED is lit, read back from its mock pin; None if the seat has no such LED."""
        pin = self._pins.get((seat, f"led-{name}"))
        return None if pin is None else self.devices.led_lit(pin)

    def expect_words(self) -> str:
        return expect_words(self.table.next_expectation())
