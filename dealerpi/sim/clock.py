"""The tournament clock of the simulator: levels of rising blinds, each ``minutes`` long (TRN-1).

Time lives at the edge, so the clock is here and not in the engine: when a level ends, the next blinds go
to the table as a ``table`` input (the last one, with new blinds), between hands as every ``table`` input
must (a level that ends during a hand starts with the next hand, as at a real tournament). The level still
began when the last one ran out: a long hand does not delay the levels after it.

The daemon and the console have the real tournament clock (the engine's level schedule fed by journaled
ticks, dealerpi/level_time.py, docs/console.md "Tournaments"); this one goes when the simulator becomes the
console over virtual hardware.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from dealerpi.engine.expectation import Waiting
from dealerpi.sim.host import SimTable
from dealerpi.table_source import settings

_LOGGER = logging.getLogger(__name__)

# Each level's blinds as a multiple of the first level's (1/3 -> 2/6 -> 3/9 -> 5/15 ...).
LEVEL_FACTORS = (1, 2, 3, 5, 8, 10, 15, 20, 30, 50, 80, 100)


class TournamentClock:
    """Levels of ``minutes`` each from the table's blinds now; ``start`` runs it, ``stop`` ends it."""

    def __init__(self, sim: SimTable, *, minutes: int, on_tick: Callable[[], None],
                 clock: Callable[[], float] | None = None) -> None:
        self.sim = sim
        self.seconds = minutes * 60
        self.on_tick = on_tick
        self.level = 0
        self.pending = False          # the level is over; its successor starts between hands
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self._level_started = 0.0
        self._base: dict[str, Any] | None = None

    def _now(self) -> float:
        return self._clock() if self._clock else asyncio.get_running_loop().time()

    def start(self) -> str | None:
        """Start level 1 at the table's blinds now; an error for the page if there is no table yet."""
        base = next(({"type": "table", **settings(e)} for e in reversed(self.sim.table.accepted)
                     if e.get("type") == "table"), None)
        if base is None:
            return "set the table first"
        self._base = base
        self.level, self.pending = 0, False
        self._level_started = self._now()
        self.sim.note("clock", f"tournament clock started: level 1, {self.seconds // 60} minutes a level", "TRN-1")
        self._task = asyncio.create_task(self._run(), name="tournament clock")
        return None

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def remaining(self) -> int:
        return max(0, int(self.seconds - (self._now() - self._level_started)))

    def blinds(self, level: int) -> list[int]:
        assert self._base is not None
        factor = LEVEL_FACTORS[min(level, len(LEVEL_FACTORS) - 1)]
        return [b * factor for b in self._base["blinds"]]

    def text(self) -> str:
        if self._base is None:
            return ""
        small, big = self.blinds(self.level)
        if self.pending:
            return f"level {self.level + 1} {small}/{big}: over; level {self.level + 2} starts with the next hand"
        minutes, seconds = divmod(self.remaining(), 60)
        return f"level {self.level + 1} {small}/{big}: {minutes}:{seconds:02d} left"

    def poll(self) -> None:
        """End the level when its time is up; start the next one as soon as no hand is being played."""
        if not self.pending and self.remaining() == 0:
            self.pending = True
        if self.pending and self.sim.table.expectation().waiting is Waiting.START:
            self._next_level()

    def _next_level(self) -> None:
        assert self._base is not None
        level = self.level + 1
        factor = LEVEL_FACTORS[min(level, len(LEVEL_FACTORS) - 1)]
        entry = dict(self._base, blinds=self.blinds(level))
        if "limits" in self._base:
            entry["limits"] = [b * factor for b in self._base["limits"]]
        if self._base.get("ante"):
            entry["ante"] = self._base["ante"] * factor
        outcome = self.sim.submit(entry)
        if outcome.accepted:
            self.level, self.pending = level, False
            # TRN-1 without drift: the level began when the last one ran out, not when the hand ended (issue 14)
            self._level_started += self.seconds
            self.sim.note("clock", f"level {level + 1}: blinds {'/'.join(map(str, entry['blinds']))}", "TRN-1")
        else:
            _LOGGER.warning("the next level was refused: %s", outcome.reason)

    async def _run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                self.poll()
                self.on_tick()
                await asyncio.sleep(1)
