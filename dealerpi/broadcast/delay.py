"""The secure delay: what the table did leaves this process ``delay`` after it happened, never sooner.

The line holds the table's inputs (not pictures of the table): the session applies each to a second table,
the delayed one, when it comes due, and draws the frame then (:mod:`dealerpi.broadcast.session`). Every
input carries the table's own time (``ms``, the daemon's clock when it applied it), so the delayed output
replays the hand at the pace it was played. The auto delay counts from the session's first hand: until its
start plus the delay the feed shows a countdown, then it goes on air. No client can ask for another
moment: :meth:`DelayLine.release` is driven by this process's clock only, and the delay is fixed for the
life of the line (a shorter delay needs a restart that drops the session, session.py).

The board-sync delay: an input that adds a board card leaves ``sync_ms`` later still, so the graphic never
shows a card before the camera does (the shoe reads a card before it is turned on the table); nothing
overtakes what is before it.
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
    _waiting: deque[tuple[int, Any]] = field(default_factory=deque)
    _last_due: int = 0

    def add(self, ms: int, item: Any, *, board_changed: bool = False) -> None:
        """``item``, made at the table's time ``ms``: due ``delay`` later (and ``sync_ms`` more when it adds
        a board card), never before the item before it."""
        due = ms + self.delay_ms + (self.sync_ms if board_changed else 0)
        self._last_due = max(due, self._last_due)
        self._waiting.append((self._last_due, item))

    def release(self, now_ms: int) -> list[Any]:
        """The items due by ``now_ms``, oldest first."""
        released = []
        while self._waiting and self._waiting[0][0] <= now_ms:
            released.append(self._waiting.popleft()[1])
        return released

    def status(self, now_ms: int) -> dict[str, Any]:
        """For the countdown page: ``waiting`` (no hand yet), ``filling`` (seconds until on air), ``on_air``."""
        if self.first_hand_ms is None:
            return {"state": "waiting", "delay_s": self.delay_ms // 1000}
        left = self.first_hand_ms + self.delay_ms - now_ms
        if left > 0:
            return {"state": "filling", "seconds_left": -(-left // 1000), "delay_s": self.delay_ms // 1000}
        return {"state": "on_air", "delay_s": self.delay_ms // 1000}
