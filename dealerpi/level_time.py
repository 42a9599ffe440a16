"""The level clock across restarts: the time the table was down still comes off the level (TRN-1, no drift).

The engine has no clock: the daemon hands it elapsed seconds as journaled ``tick`` inputs (controller.py), and
the engine's ``LevelClock`` carries what is left over from one level into the next, so level k starts at the
clock's start + the durations of the steps before it (+ any pause), whatever the hands do: a level that ends
during a hand applies from the next hand, and the next level still ends on time. What a tick alone cannot know
is the time the daemon was not running (a restart, a power cut): a tournament's clock does not stop when the
table's computer does. So each tick is journaled with the wall time (``"at"``, UTC), and at start-up the
daemon journals one more tick for the seconds between the last time counted and now, if the level clock runs.

The wall clock is read only here and in the controller, never by the engine. A Pi without a real-time clock
may start with its clock behind until NTP sets it (fake-hwclock restores the last shutdown's time): if the
clock is behind the journal, nothing is added and the dealer is told.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dealerpi.engine import Tick

if TYPE_CHECKING:
    from dealerpi.engine import Table

_LOGGER = logging.getLogger(__name__)

COUNTED = frozenset({"tick", "table", "pause", "resume"})    # inputs after which the time up to now is counted


def utc(seconds: float) -> str:
    """``2026-11-24T00:12:00Z`` for a wall time in seconds since the epoch."""
    return datetime.datetime.fromtimestamp(int(seconds), datetime.UTC).isoformat().replace("+00:00", "Z")


def parse_utc(text: object) -> float | None:
    """The wall time an ``at`` names; None when it is not one."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment.timestamp() if moment.tzinfo is not None else None


@dataclass
class LevelTime:
    """``counted_at``: the wall time up to which time has reached the engine (the ``at`` of the last tick, or of
    the table, pause or resume input after which the level clock counts from then)."""

    counted_at: float | None = None

    def note(self, entry: Mapping[str, Any], accepted: bool) -> None:
        if accepted and entry.get("type") in COUNTED and (at := parse_utc(entry.get("at"))) is not None:
            self.counted_at = at

    def owed(self, now: float) -> int | None:
        """Whole seconds from the last time counted to ``now``; None when nothing is known or the clock is
        behind the journal (negative)."""
        if self.counted_at is None or now < self.counted_at:
            return None
        return int(now - self.counted_at)

    def snapshot(self) -> dict[str, Any]:
        return {"counted_at": self.counted_at}

    @classmethod
    def restore(cls, data: object) -> LevelTime:
        value = data.get("counted_at") if isinstance(data, Mapping) else None
        return cls(float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None)

    def catch_up(self, table: Table, now: float) -> tuple[Tick | None, str | None]:
        """Start-up: the tick for the seconds the daemon was down, if the level clock runs; or, with the wall
        clock behind the journal, no tick and what to tell the dealer. The daemon journals it with ``now`` as
        its ``"at"`` (timers.py)."""
        levels = table.levels
        if levels is None or levels.paused:
            return None, None
        owed = self.owed(now)
        if owed is None and self.counted_at is not None:
            _LOGGER.warning("the system clock (%s) is behind the journal's last tick (%s): the level clock goes on "
                            "without the time the table was down", utc(now), utc(self.counted_at))
            return None, ("System clock behind the journal: level time lost while down. Check the time (NTP) and "
                          "the tournament clock")
        if owed:
            _LOGGER.info("the level clock: %d s passed while the table was down", owed)
            return Tick(owed), None
        return None, None


class Ticks:
    """The engine has no clock: while a player clock (TRN-2) or the level clock (TRN-1) runs, elapsed whole
    seconds reach it as journaled ``tick`` inputs, every second for a player clock, every 5 s for levels."""

    def __init__(self) -> None:
        self._last: float | None = None        # when time was last handed to the engine
        self._fresh: object = None             # TRN-2: the fresh clock (new decision) timing started for

    def due(self, table: Table, now: float, step: float | None = None) -> Tick | None:
        """The tick input due at ``now`` (monotonic seconds), if any; the daemon journals it with the wall time
        as its ``"at"`` (timers.py)."""
        clock = table.clock
        if clock is None and (table.levels is None or table.levels.paused):
            self._last = None
            return None
        fresh = clock is not None and clock.elapsed == 0 and clock is not self._fresh
        if self._last is None or fresh:        # a clock just started (a new decision): count from now,
            self._last = now                   # not from the last tick (TDA 29: ties go to the player)
            self._fresh = clock
            return None
        step = step or (1.0 if clock is not None else 5.0)
        if now - self._last < step:
            return None
        seconds = int(now - self._last)
        self._last += seconds
        return Tick(seconds)
