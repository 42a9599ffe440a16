"""A seat panel's three buttons turned into actions: a pure state machine with injected time.

FOLD, CHECK/CALL and BET/RAISE are the whole keyboard, yet a player must be able to enter any legal amount,
and the usual sizes quickly. docs/seat-panel.md is the user's guide; in short:

- Your action, not entering: FOLD folds (if you could check, it asks first: FOLD again folds, CALL
  checks), CHECK/CALL checks or calls, BET/RAISE opens amount entry at the minimum raise.
- Entering: a BET tap steps through the presets MIN, 1/2 POT, POT, ALL-IN (pot-limit: up to POT; fixed
  limit: its one size), CALL adds one step (the chip unit: the largest chip both blinds are made of), FOLD
  takes one off, holding either repeats and speeds up, FOLD at the minimum cancels the entry, and holding BET
  confirms. Confirming takes a deliberate hold, so no tap or pause ever bets by accident.
- Not your action: FOLD and CHECK/CALL still go to the engine, which refuses an out-of-turn action with an
  alert (BET-12); BET/RAISE only says "not your turn".
- At the showdown, when the table waits for this seat's hand: CHECK/CALL shows it, FOLD mucks it.

Nothing here reads a clock: every call carries the time ``t`` (seconds), and :meth:`SeatPanel.next_deadline`
says when :meth:`SeatPanel.tick` must be called (a held button, a guard that runs out, a notice to clear).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from enum import StrEnum

from dealerpi.config import InputTiming
from dealerpi.engine import Act, Muck, Show, Structure
from dealerpi.views.model import SeatView

_LOGGER = logging.getLogger(__name__)

NOTICE_SECONDS = 2.0
# the panel's notices, each one row of the seat's screen (21 columns: tests/views/test_lines_fit.py)
FOLD_AGAIN = "FOLD again = fold"
NOT_YOUR_TURN = "not your turn"
NO_RAISE = "no raise: CALL/FOLD"
SHOW_OR_MUCK = "CALL=show FOLD=muck"
NOTICES = (FOLD_AGAIN, NOT_YOUR_TURN, NO_RAISE, SHOW_OR_MUCK)

PanelInput = Act | Show | Muck
"""What a seat's buttons make: the engine's input records (issue 22), journaled by the daemon's pipeline."""
FAST_AFTER = 8       # repeats at one step before the step grows
FASTER_AFTER = 20


class Key(StrEnum):
    FOLD = "fold"
    CALL = "call"
    BET = "bet"


class Mode(StrEnum):
    IDLE = "idle"
    FOLD_GUARD = "fold guard"
    ENTRY = "entry"


@dataclass(frozen=True)
class Preset:
    amount: int
    label: str


def presets(view: SeatView) -> list[Preset]:
    """The quick sizes for ``view``'s seat, as to-amounts within [min raise, max raise], smallest first.

    Half pot and pot are the pot-limit sizes (BET-8): the bet faced plus the pot after calling, or half of
    that pot. When two sizes coincide one name is kept: ALL-IN over everything, then POT, 1/2 POT, MIN,
    and MAX (the pot-limit ceiling) last, so a pot-limit pot raise reads POT. Fixed limit has one size, no
    name (or ALL-IN when it is all the seat's chips).
    """
    low, high = view.min_raise_to, view.max_raise_to
    if low is None or high is None:
        return []
    faced = view.bet + view.to_call
    pot_after_call = view.pot + view.to_call
    all_in = high == view.bet + view.stack
    if view.structure is Structure.FIXED_LIMIT:     # BET-5: one size (BET-7: or all-in for less); no pot sizes
        return [Preset(amount, "ALL-IN" if all_in and amount == high else "") for amount in sorted({low, high})]
    sizes = [] if all_in else [(high, "MAX")]
    sizes += [(low, "MIN"), (faced + pot_after_call // 2, "1/2 POT"), (faced + pot_after_call, "POT")]
    if all_in:
        sizes.append((high, "ALL-IN"))
    by_amount: dict[int, str] = {}
    for amount, label in sizes:
        by_amount[max(low, min(high, amount))] = label
    return [Preset(amount, label) for amount, label in sorted(by_amount.items())]


class SeatPanel:
    """One seat's buttons, entry state and notices. Feed it views, presses, releases and ticks; it
    returns the ``act`` inputs to journal."""

    def __init__(self, seat: int, timing: InputTiming, unit: int) -> None:
        self.seat = seat
        self.unit = max(1, unit)
        self.long_press = timing.long_press_ms / 1000
        self.repeat = timing.repeat_ms / 1000
        self.fold_guard = timing.fold_guard_ms / 1000
        self.view: SeatView | None = None
        self.mode = Mode.IDLE
        self.amount = 0
        self.notice: str | None = None
        self._notice_until: float | None = None
        self._guard_until: float | None = None
        self._held: dict[Key, float] = {}        # key -> press time
        self._repeats: dict[Key, int] = {}
        self._next_repeat: dict[Key, float] = {}
        self._bet_can_confirm = False            # the BET press that opened the entry never confirms it
        self.showdown = False                    # the table waits for this seat to show or muck

    # --- what the panel shows ------------------------------------------------------------------------

    def overlay(self, view: SeatView) -> SeatView:
        """``view`` with this panel's amount entry and notice merged in, for the renderer."""
        if self.mode is Mode.ENTRY:
            return dataclasses.replace(view, entry=self.amount, entry_label=self._label(), notice=None)
        notice = self.notice if self.notice or not self.showdown else SHOW_OR_MUCK
        if notice is None and view.notice is None and view.entry is None:
            return view                     # nothing to merge (the usual case: no copy)
        return dataclasses.replace(view, entry=None, entry_label="", notice=notice)

    def _label(self) -> str:
        assert self.view is not None
        return next((p.label for p in presets(self.view) if p.amount == self.amount), "")

    # --- inputs --------------------------------------------------------------------------------------

    def set_view(self, view: SeatView) -> None:
        """A new view from the engine: leave entry if the action moved on, keep the amount legal."""
        self.view = view
        if not view.your_action or view.min_raise_to is None or view.max_raise_to is None:
            if self.mode is not Mode.IDLE:
                _LOGGER.debug("seat %d: %s ends, the action moved on", self.seat, self.mode)
            self.mode = Mode.IDLE
            self._guard_until = None
            return
        if self.mode is Mode.ENTRY:
            self.amount = max(view.min_raise_to, min(view.max_raise_to, self.amount))

    def press(self, key: Key, t: float) -> list[PanelInput]:
        self._held[key] = t
        self._repeats[key] = 0
        self._next_repeat[key] = t + self.long_press
        view = self.view
        if view is None:
            return []
        if self.showdown and key is not Key.BET:
            return [Show(self.seat) if key is Key.CALL else Muck(self.seat)]
        if not view.your_action:
            return self._out_of_turn(key, view, t)
        if self.mode is Mode.ENTRY:
            return self._entry_press(key, view, t)
        if self.mode is Mode.FOLD_GUARD:
            self.mode, self._guard_until = Mode.IDLE, None
            self._set_notice(None, t)
            if key is Key.FOLD:
                return [self._act("fold")]
            if key is Key.CALL:
                return [self._act("check")]
        if key is Key.FOLD:
            if view.can_check:
                # folding when a check is free is almost always a slip: ask once
                self.mode, self._guard_until = Mode.FOLD_GUARD, t + self.fold_guard
                self._set_notice(FOLD_AGAIN, None)
                return []
            return [self._act("fold")]
        if key is Key.CALL:
            return [self._call_or_check(view)]
        return self._open_entry(view, t)

    def release(self, key: Key, t: float) -> list[PanelInput]:
        pressed_at = self._held.pop(key, None)
        self._next_repeat.pop(key, None)
        if pressed_at is None or self.mode is not Mode.ENTRY or key is not Key.BET:
            return []
        if not self._bet_can_confirm:
            self._bet_can_confirm = True          # the opening press is over; later holds confirm
            return []
        if t - pressed_at < self.long_press:
            self._step_preset()
        return []

    def tick(self, t: float) -> list[PanelInput]:
        """Time passed: long presses, repeats, the fold guard and notices."""
        out: list[PanelInput] = []
        if self._guard_until is not None and t >= self._guard_until:
            self.mode, self._guard_until = Mode.IDLE, None
            self._set_notice(None, t)
        if self._notice_until is not None and t >= self._notice_until:
            self._set_notice(None, t)
        if self.mode is not Mode.ENTRY or self.view is None:
            return out
        for key, due in list(self._next_repeat.items()):
            if t < due:
                continue
            if key is Key.BET:
                self._next_repeat.pop(key)
                if self._bet_can_confirm:
                    self._held.pop(key, None)      # the release after a confirm does nothing
                    out.append(self._confirm())
                    return out
                continue
            count = self._repeats.get(key, 0) + 1
            self._repeats[key] = count
            self._next_repeat[key] = due + self.repeat
            self._adjust(+1 if key is Key.CALL else -1, count, cancel_at_min=False)
        return out

    def next_deadline(self) -> float | None:
        times = [x for x in (self._guard_until, self._notice_until) if x is not None]
        if self.mode is Mode.ENTRY:
            times += self._next_repeat.values()
        return min(times, default=None)

    # --- the parts -----------------------------------------------------------------------------------

    def _out_of_turn(self, key: Key, view: SeatView, t: float) -> list[PanelInput]:
        if key is Key.BET or view.status != "in":
            self._set_notice(NOT_YOUR_TURN, t + NOTICE_SECONDS)
            return []
        # the engine refuses it and tells the dealer (BET-12); the journal keeps what happened
        return [self._act("fold") if key is Key.FOLD else self._call_or_check(view)]

    def _call_or_check(self, view: SeatView) -> Act:
        if view.can_check or view.to_call == 0:
            return self._act("check")
        if view.stack and view.to_call >= view.stack:
            return self._act("all_in")
        return self._act("call")

    def _open_entry(self, view: SeatView, t: float) -> list[PanelInput]:
        if view.min_raise_to is None:
            self._set_notice(NO_RAISE, t + NOTICE_SECONDS)
            return []
        self.mode = Mode.ENTRY
        self.amount = presets(view)[0].amount
        self._bet_can_confirm = False
        self._set_notice(None, t)
        return []

    def _entry_press(self, key: Key, view: SeatView, t: float) -> list[PanelInput]:
        if key is Key.BET:
            self._bet_can_confirm = True
            return []                              # tap or hold: decided on release or by tick
        self._adjust(+1 if key is Key.CALL else -1, 0, cancel_at_min=key is Key.FOLD)
        return []

    def _adjust(self, direction: int, repeats: int, *, cancel_at_min: bool) -> None:
        assert self.view is not None and self.view.min_raise_to is not None
        assert self.view.max_raise_to is not None
        low, high = self.view.min_raise_to, self.view.max_raise_to
        if direction < 0 and self.amount <= low:
            if cancel_at_min:
                self.mode = Mode.IDLE            # going below the minimum leaves entry; nothing is bet
            return
        step = self.unit * (25 if repeats > FASTER_AFTER else 5 if repeats > FAST_AFTER else 1)
        self.amount = max(low, min(high, self.amount + direction * step))

    def _step_preset(self) -> None:
        assert self.view is not None
        sizes = presets(self.view)
        self.amount = next((p.amount for p in sizes if p.amount > self.amount), sizes[0].amount)

    def _confirm(self) -> Act:
        view = self.view
        assert view is not None
        amount, self.mode = self.amount, Mode.IDLE
        if amount == view.bet + view.stack:
            return self._act("all_in")
        return self._act("bet" if view.to_call == 0 and view.bet == 0 else "raise", amount)

    def _act(self, action: str, to: int | None = None) -> Act:
        entry = Act(self.seat, action, to)
        _LOGGER.debug("seat %d: %s", self.seat, entry)
        return entry

    def _set_notice(self, text: str | None, until: float | None) -> None:
        self.notice = text
        self._notice_until = until if text is not None else None
