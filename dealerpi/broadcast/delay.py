"""The secure delay: a broadcast frame leaves this process ``delay`` after the table made it, never sooner.

A frame carries the table's own time (``ms``, the daemon's clock when the input was applied), so the
delayed output replays the hand at the pace it was played. The auto delay counts from the session's first
hand: until its start plus the delay the feed shows a countdown, then it goes on air. No client can ask
for another moment: :meth:`DelayLine.release` is driven by this process's clock only, and the delay is
fixed for the life of the line (a shorter delay needs a restart that drops the session, server.py).

The board-sync delay: a frame that adds a board card leaves ``sync_ms`` later still, so the graphic never
shows a card before the camera does (the shoe reads a card before it is turned on the table); frames never
overtake each other.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass
class DelayLine:
    delay_ms: int
    sync_ms: int = 0
    first_hand_ms: int | None = None
    current: dict[str, Any] | None = None                 # the last frame released: what a new client sees
    _waiting: deque[tuple[int, dict[str, Any]]] = field(default_factory=deque)
    _last_due: int = 0
    _last_board: Any = None

    def add(self, frame: dict[str, Any]) -> None:
        """A frame made at ``frame["ms"]``; frames before the session's first hand are not broadcast."""
        if self.first_hand_ms is None or frame["ms"] < self.first_hand_ms:
            return
        due = frame["ms"] + self.delay_ms
        if frame.get("board") != self._last_board:
            due += self.sync_ms
            self._last_board = frame.get("board")
        self._last_due = max(due, self._last_due)
        self._waiting.append((self._last_due, frame))

    def release(self, now_ms: int) -> list[dict[str, Any]]:
        """The frames due by ``now_ms``, oldest first."""
        released = []
        while self._waiting and self._waiting[0][0] <= now_ms:
            released.append(self._waiting.popleft()[1])
        if released:
            self.current = released[-1]
        return released

    def waiting(self) -> int:
        return len(self._waiting)

    def status(self, now_ms: int) -> dict[str, Any]:
        """For the countdown page: ``waiting`` (no hand yet), ``filling`` (seconds until on air), ``on_air``."""
        if self.first_hand_ms is None:
            return {"state": "waiting", "delay_s": self.delay_ms // 1000}
        left = self.first_hand_ms + self.delay_ms - now_ms
        if left > 0:
            return {"state": "filling", "seconds_left": -(-left // 1000), "delay_s": self.delay_ms // 1000}
        return {"state": "on_air", "delay_s": self.delay_ms // 1000}
