"""The simulated table: the daemon's Controller on fake devices, with a card shoe on a fake serial port.

``SimTable`` runs what ``dealerpi run`` runs: the daemon's ``Controller`` (buttons -> debouncer -> seat
panels and console -> journal -> engine -> views -> displays and LEDs) on ``FakeDevices`` (gpiozero mock
pins, luma dummy displays), and the daemon's journal. The shoe is a ``VirtualDeck`` and a ``FakeShoe`` at
the far end of a pty, the daemon's ``ShoeLink`` at the near end, and the simulator's decks in a
``DeckLibrary``. Everything the page does goes in as the world would do it: a click drives a mock pin
low, "deal" slides a tag past the fake shoe's reader. What the page shows comes out of the devices (the
dummy displays' frames, the LED pins' levels) and the engine's views.

The loop is the daemon's ``serve`` loop without systemd (``Controller.tick`` at each deadline); the sim
also keeps a log of what happened, for the page, and shuffles the virtual deck before each deal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dealerpi.config import Config
from dealerpi.controller import Controller
from dealerpi.devices import ButtonEdge, FakeDevices
from dealerpi.engine.games import GAMES
from dealerpi.engine.records import Outcome
from dealerpi.input import Key
from dealerpi.input.console import DealerConsole
from dealerpi.journal import Journal
from dealerpi.shoe.link import ShoeEvent, ShoeLink, ShoeOffline, ShoeOnline
from dealerpi.sim.deck import VirtualDeck, sim_library
from dealerpi.sim.fake_shoe import FakeShoe
from dealerpi.sim.histories import JournalTable
from dealerpi.table_source import settings

_LOGGER = logging.getLogger(__name__)

LOG_LENGTH = 300


@dataclass(frozen=True)
class LogEntry:
    """One line of the page's log. ``kind``: input, refused, alert, shoe, clock. Never names a hole card."""

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
    if kind == "move":
        return f"seat {entry.get('seat')} moves to seat {entry.get('to')}"
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


def cards_of_this_deal(accepted: list[dict[str, Any]]) -> list[str]:
    """The cards read since the deal began (the last START or misdeal), in order: on a restart mid-hand the
    virtual deck must not hold them again (MIS-7)."""
    cards: list[str] = []
    for entry in reversed(accepted):
        if entry.get("type") in ("start", "misdeal"):
            break
        if entry.get("type") == "card" and isinstance(entry.get("card"), str):
            cards.append(entry["card"])
    return cards[::-1]


class _SimConsole(DealerConsole):
    """The daemon's dealer console, but its EXPOSED prompt names the card only when it is on a board.

    On a real table only the dealer reads the dealer display, and the dealer saw the card that was exposed;
    the simulator sends that display's image to every page, so naming a hole card there before CONFIRM would
    show it to every seat (house rules: hole cards are secret). Once confirmed, the exposed card is public
    (EXP-1) and the log names it.
    """

    def __init__(self, is_public: Callable[[str], bool]) -> None:
        super().__init__()
        self._is_public = is_public

    def _ask(self, entry: dict[str, Any], notice: str, t: float) -> None:
        card = entry.get("card")
        if entry.get("type") == "exposed" and isinstance(card, str) and not self._is_public(card):
            notice = "exposed? CONFIRM"           # fits the header beside the button marker
        super()._ask(entry, notice, t)


class _Controller(Controller):
    """The daemon's Controller, telling the simulator what came of each input (for the page's log)."""

    def __init__(self, *args: Any, on_outcome: Callable[[Mapping[str, Any], Outcome], None], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.table = JournalTable()
        self._on_outcome = on_outcome
        self.console = _SimConsole(lambda card: any(card in board for board in self.table.board()))

    def submit(self, entry: dict[str, Any]) -> Any:
        outcome = super().submit(entry)
        self._on_outcome(entry, outcome)
        return outcome


class SimTable:
    """See the module docstring. ``open`` it, ``await start()``, drive it, ``await stop()`` at the end."""

    def __init__(self, config: Config, journal: Journal, entries: list[dict[str, Any]], *,
                 deck_rng: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        tables = [e for e in entries if e.get("type") == "table"]
        if tables:    # the journal's game is the game: the daemon would otherwise switch to the config's
            config = replace(config, table=settings(tables[-1]))
        self.config = config
        self.clock = clock
        self.journal = journal
        self.devices = FakeDevices(config)
        self.log: deque[LogEntry] = deque(maxlen=LOG_LENGTH)
        self._listeners: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.controller = _Controller(config, self.devices, journal, clock=clock, post=self._post_edge,
                                      decks=sim_library(), on_outcome=self._outcome)
        self._rng = deck_rng
        self.deck = VirtualDeck(GAMES[str(config.table.get("game", "nlhe"))].deck, deck_rng)
        self.shoe = FakeShoe()
        self.link = ShoeLink(self.shoe.url, on_card=self._on_card, on_event=self._on_shoe_event)
        if tables:    # ... so it is the config the daemon last applied (table_source.py): nothing to record
            self.controller.table_source.config_seen = settings(tables[-1])
        self.controller.replay(entries)
        self._sync_deck()
        if not self.table.between_hands and not self.table.awaiting_first_card:
            self.deck.take_out(cards_of_this_deal(self.table.accepted))
        self.note("input", f"{len(entries)} journal lines read back")

    @classmethod
    def open(cls, config: Config, journal_path: Path, **kwargs: Any) -> SimTable:
        """The table over the journal at ``journal_path`` (read back, as the daemon reads its own)."""
        journal, entries = Journal.open(journal_path)
        return cls(config, journal, entries, **kwargs)

    @property
    def table(self) -> Any:
        return self.controller.table

    @property
    def journal_path(self) -> Path:
        return self.journal.path

    # --- life ----------------------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.shoe.start()
        await self.link.start()
        self._task = asyncio.create_task(self._run(), name="sim table")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.link.stop()
        await self.shoe.stop()
        # gpiozero's Button stops a hold thread that polls every 0.1 s: closed one by one, 35 buttons
        # take ~2 s, so they are closed side by side
        buttons = self.controller.buttons.buttons.values()
        await asyncio.gather(*(asyncio.to_thread(button.close) for button in buttons))
        self.controller.close()
        self.devices.close()
        self.journal.close()

    async def _run(self) -> None:
        """The daemon's main loop: the controller's timers at their deadlines, at least once a second."""
        while True:
            self.controller.tick()
            self._changed()
            deadline = self.controller.next_deadline()
            now = self.clock()
            timeout = min(1.0, max(0.0, deadline - now)) if deadline is not None else 1.0
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()

    # --- inputs --------------------------------------------------------------------------------------

    def submit(self, entry: dict[str, Any]) -> Outcome:
        """An input from the page (setup, a flagged card): journaled and applied as the daemon does."""
        outcome: Outcome = self.controller.submit(entry)
        self.controller.refresh()
        self._changed()
        return outcome

    def _outcome(self, entry: Mapping[str, Any], outcome: Outcome) -> None:
        if outcome.accepted:
            self.note("input", describe(entry))
        else:
            self.note("refused", f"{describe(entry)}: refused: {outcome.reason}")
        for alert in outcome.alerts:
            self.note("alert", alert.message, alert.rule)
        self._sync_deck()

    def note(self, kind: str, text: str, rule: str | None = None) -> None:
        self.log.append(LogEntry(time.strftime("%H:%M:%S"), kind, text, rule))

    def _sync_deck(self) -> None:
        """The deck of the game in play, shuffled before each deal and redeal, as the dealer does."""
        config = self.table.config
        if config is not None and config.game.deck is not self.deck.deck:
            self.deck = VirtualDeck(config.game.deck, self._rng)
        if self.table.awaiting_first_card and self.deck.dealt:
            self.deck.shuffle()

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
        """The dealer flags the last card read as ``exposed`` (EXP-1..4) or ``boxed`` (EXP-6)."""
        card = self.controller.last_card
        if card is None or not self.deck.dealt:
            return "no card has been dealt since the shuffle"
        self.submit({"type": kind, "card": card})
        return None

    def shuffle(self) -> None:
        self.deck.shuffle()
        self.note("shoe", "the deck was shuffled")
        self._changed()

    def _on_card(self, uid: str) -> None:
        self.controller.on_card(uid)
        self._changed()

    def _on_shoe_event(self, event: ShoeEvent) -> None:
        if isinstance(event, ShoeOnline | ShoeOffline):
            self.controller.on_shoe_online(isinstance(event, ShoeOnline))
            self.note("shoe", "the shoe is online" if isinstance(event, ShoeOnline)
                      else f"the shoe is offline: {event.reason}")
        else:
            self.note("shoe", f"shoe: {event}")
        self._changed()

    # --- buttons -------------------------------------------------------------------------------------

    def _pin(self, where: int | str, name: str) -> Any:
        if where == "dealer":
            return self.config.dealer.buttons.get(name)
        panel = next((p for p in self.config.seats if p.seat == where), None)
        return None if panel is None else panel.buttons.get(name)

    def has_button(self, where: int | str, name: str) -> bool:
        return (where == "dealer" or name in tuple(Key)) and self._pin(where, name) is not None

    def press(self, where: int | str, name: str) -> None:
        """Close a button's contact on its mock pin (drive it low), as a finger would."""
        self.devices.press(self._pin(where, name))

    def release(self, where: int | str, name: str) -> None:
        self.devices.release(self._pin(where, name))

    def _post_edge(self, edge: ButtonEdge) -> None:
        # gpiozero calls this on whatever thread changed the pin: hand the edge to the loop, nothing more
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._edge, edge)

    def _edge(self, edge: ButtonEdge) -> None:
        self.controller.on_edge(edge)
        self._wake.set()
        self._changed()

    # --- outputs -------------------------------------------------------------------------------------

    def seats_in_play(self) -> list[int]:
        config = self.table.config
        count = config.seats if config else int(self.config.table.get("seats", 10))
        return [panel.seat for panel in self.config.seats if panel.seat <= count]

    def image(self, where: int | str) -> Any:
        """The frame the fake display of seat ``where`` (or ``"dealer"``) holds now."""
        display = self.config.dealer.display if where == "dealer" else \
            next(p.display for p in self.config.seats if p.seat == where)
        return self.devices.image(display)

    def led(self, seat: int, name: str) -> bool | None:
        """Whether the seat's LED is lit, read back from its mock pin; None if the seat has no such LED."""
        panel = next(p for p in self.config.seats if p.seat == seat)
        pin = panel.leds.get(name)
        return None if pin is None else self.devices.led_lit(pin)

    @property
    def alerts(self) -> tuple[Any, ...]:
        return tuple(self.controller.alerts)

    @property
    def shoe_online(self) -> bool:
        return self.controller.shoe_online

    def expect_words(self) -> str:
        words: str = self.table.expectation().words()
        return words
