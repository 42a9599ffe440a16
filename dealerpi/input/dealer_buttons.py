"""The dealer console's buttons turned into inputs: a pure state machine with injected time.

- START/NEXT starts the next hand when the table expects one; during a hand it turns the page of the
  dealer screen (alerts, pots and payouts can fill more than one screen).
- EXPOSED declares the last card the shoe read as exposed (EXP rules; the shoe cannot see a card's face),
  MISDEAL declares a misdeal (MIS rules), UNDO takes the last input back. These three change the hand, so
  each waits for CONFIRM (within ``CONFIRM_SECONDS``); any other button cancels. While one waits, the dealer
  screen says what CONFIRM will do and the seconds left (``confirm_lines``); when the time runs out it says
  so ("undo not confirmed: nothing changed") for ``NOTICE_SECONDS`` (issue 14: it used to pass silently).
  The words never name a card: the last card read may be a hole card (hole cards are secret).
- CONFIRM with nothing pending acknowledges the alerts on the dealer screen (clears them).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dealerpi.engine import Card, Misdeal, Start, Undo, Waiting

_LOGGER = logging.getLogger(__name__)

CONFIRM_SECONDS = 5.0
NOTICE_SECONDS = 4.0


ConsoleInput = Start | Card | Misdeal | Undo
"""What the dealer's buttons make: the engine's input records (issue 22), journaled by the daemon's pipeline."""


@dataclass
class ConsoleResult:
    """What one press produced: inputs to journal, and requests to the daemon."""

    inputs: list[ConsoleInput] = field(default_factory=list)
    next_page: bool = False
    clear_alerts: bool = False


def input_words(entry: Mapping[str, Any]) -> str:
    """An input as the dealer confirms taking it back: "seat 3's raise to 12", "the last card read"; never a
    card's name (it may be a hole card)."""
    kind, seat = entry.get("type"), entry.get("seat")
    if kind == "card":
        return "the last card read"
    if kind in ("exposed", "boxed"):
        return f"the {kind} card declared"
    if kind == "act":
        to = entry.get("to")
        return f"seat {seat}'s {str(entry.get('action')).replace('_', '-')}" + (f" to {to}" if to is not None else "")
    if kind == "start":
        return "the start of the hand"
    return f"the {kind}" + (f" of seat {seat}" if seat is not None else "")


class DealerConsole:
    """The console buttons ``start``, ``exposed``, ``misdeal``, ``undo``, ``confirm``."""

    def __init__(self) -> None:
        self.pending: ConsoleInput | None = None
        self.pending_until: float | None = None
        self.asking: tuple[str, str] = ("", "")       # the pending button's name and what CONFIRM will do
        self.notice: str | None = None
        self.notice_until: float | None = None
        self.waiting = Waiting.TABLE
        self.last_card: str | None = None
        self.inputs = 0                                 # the table's accepted inputs, as last told
        self._undo_asked_at: int | None = None          # ``inputs`` when UNDO was pressed
        self._last_t = 0.0

    def set_state(self, waiting: Waiting, last_card: str | None, inputs: int = 0) -> None:
        """What the table waits for next (``DealerView.waiting``), the last card read and how many inputs the
        table has accepted. A pending UNDO said which input it takes back: if another input came (or went)
        since, CONFIRM would take back a different one, so the UNDO is cancelled and the dealer told."""
        self.waiting = waiting
        self.last_card = last_card
        self.inputs = inputs
        if self.pending is not None and self._undo_asked_at is not None and inputs != self._undo_asked_at:
            self._clear()
            self._say("undo cancelled: another input came first", self._last_t)

    def press(self, name: str, t: float, last_input: Mapping[str, Any] | None = None) -> ConsoleResult:
        """A console button pressed at ``t``; ``last_input`` is what an UNDO would take back (None: nothing)."""
        self.tick(t)
        result = ConsoleResult()
        if name == "confirm":
            if self.pending is not None:
                result.inputs.append(self.pending)
            else:
                result.clear_alerts = True
            self._clear()
            return result
        if self.pending is not None:
            self._say(f"{self.asking[0].lower()} cancelled: nothing changed", t)
        self._clear()
        if name == "start":
            if self.waiting is Waiting.START:
                result.inputs.append(Start())
            else:
                result.next_page = True
        elif name == "exposed":
            if self.last_card is None:
                self._say("EXPOSED: no card read yet", t)
            else:
                self._ask(Card("exposed", self.last_card), "EXPOSED",
                          "the last card read was exposed (EXP-1..4, EXP-7)", t)
        elif name == "misdeal":
            self._ask(Misdeal(), "MISDEAL", "misdeal: collect the cards and deal again (MIS-6)", t)
        elif name == "undo":
            if last_input is None:
                self._say("UNDO: nothing to undo", t)
            else:
                self._ask(Undo(), "UNDO", f"take back {input_words(last_input)}", t)
                self._undo_asked_at = self.inputs
        return result

    def tick(self, t: float) -> None:
        """Time passed: a confirmation not given in time lapses, and says so; a notice runs out."""
        self._last_t = t
        if self.pending_until is not None and t > self.pending_until:
            _LOGGER.debug("console: %s not confirmed in time", self.pending)
            name = self.asking[0].lower()
            self._clear()
            self._say(f"{name} not confirmed: nothing changed", t)
        if self.notice_until is not None and t >= self.notice_until:
            self.notice = self.notice_until = None

    def confirm_lines(self, t: float) -> tuple[str, ...]:
        """While a confirmation waits: the header ("UNDO? 5s left") and what CONFIRM will do; else ()."""
        if self.pending_until is None or t > self.pending_until:
            return ()
        left = max(1, math.ceil(self.pending_until - t))
        name, does = self.asking
        return f"{name}? {left}s left", f"CONFIRM: {does}", "any other button: cancel"

    def notice_now(self, t: float) -> str | None:
        return self.notice if self.notice_until is None or t < self.notice_until else None

    def shown(self, t: float) -> object:
        """What the dealer screen shows of the console at ``t``: a redraw is due when it changes."""
        return self.confirm_lines(t), self.notice_now(t)

    def next_deadline(self) -> float | None:
        """When the screen changes by itself: the next second of a countdown, its end, a notice's end."""
        times = [self.notice_until]
        if self.pending_until is not None:
            left = self.pending_until - self._last_t
            times.append(self.pending_until - math.ceil(left) + 1 if left > 1 else self.pending_until + 1e-3)
        return min((x for x in times if x is not None), default=None)

    def _ask(self, entry: ConsoleInput, name: str, does: str, t: float) -> None:
        self.pending, self.pending_until, self.asking = entry, t + CONFIRM_SECONDS, (name, does)
        self.notice = self.notice_until = None

    def _say(self, text: str, t: float) -> None:
        self.notice, self.notice_until = text, t + NOTICE_SECONDS

    def _clear(self) -> None:
        self.pending = self.pending_until = self._undo_asked_at = None
        self.asking = ("", "")
