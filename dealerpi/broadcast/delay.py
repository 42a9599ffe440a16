"""The secure delay: what the table did leaves this process ``delay`` after it happened, never sooner.

The line holds the table's inputs (not pictures of the table): the session applies each to a second table,
the delayed one, when it comes due, and draws the frame then (:mod:`dealerpi.broadcast.session`). Every
input carries the table's own time (``ms``, the daemon's clock when it applied it), so the delayed output
replays the hand at the pace it was played. The auto delay counts from the session's first hand: until its
start plus the delay the feed shows a countdown, then it goes on air. No client can ask for another
moment: :meth:`DelayLine.release` is driven by this process's clock only.

The board-sync delay: an input that adds a board card leaves ``sync_ms`` later still, so the graphic never
shows a card before the camera does (the shoe reads a card before it is turned on the table); nothing
overtakes what is before it.

The dynamic delay (PokerGFX's "skip breaks"): while the delayed table is on a tournament break (TRN-1:
between hands, no hand can start, so no hole card exists at the table), the break's dead air is dropped:
the inputs of the break leave as soon as they are ``floor_ms`` old, and the delay shrinks by what was
skipped, for good. The invariant, for every input whatever the breaks: it leaves no sooner than
``floor_ms`` (plus ``sync_ms`` for a board card) after the table applied it, so no hole card is ever shown
less than the floor after it was dealt; the delay only shrinks by a break's dead air, never below the
floor, and nothing else (no client, no setting during a session) shortens it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass
class DelayLine:
    delay_ms: int                      # the delay now: the configured one less the breaks skipped
    sync_ms: int = 0
    first_hand_ms: int | None = None
    floor_ms: int | None = None        # the least delay (``min_delay_minutes``); None: the delay, no skip
    _waiting: deque[tuple[int, bool, bool, Any]] = field(default_factory=deque)   # ms, board, on break, item
    _last_due: int = 0
    _on_break: bool = False            # the last input let out left the table on a break

    @property
    def floor(self) -> int:
        return self.delay_ms if self.floor_ms is None else min(self.floor_ms, self.delay_ms)

    def add(self, ms: int, item: Any, *, board_changed: bool = False, on_break: bool = False) -> None:
        """``item``, made at the table's time ``ms`` (after which the table is ``on_break`` or not): due
        ``delay`` later (and ``sync_ms`` more when it adds a board card), never before the item before it."""
        self._waiting.append((ms, board_changed, on_break, item))

    def release(self, now_ms: int) -> list[Any]:
        """The items due by ``now_ms``, oldest first; during a break of the delayed table, every item of it
        at least the floor old (the delay shrinks by the dead air skipped, never below the floor)."""
        released = []
        while self._waiting:
            ms, board, on_break, item = self._waiting[0]
            sync = self.sync_ms if board else 0
            due = max(self._last_due, ms + self.delay_ms + sync)
            if due > now_ms and self._on_break and ms + self.floor + sync <= now_ms:
                self.delay_ms = max(self.floor, now_ms - ms - sync)   # the break's dead air is dropped
                due = max(self._last_due, ms + self.delay_ms + sync)
            if due > now_ms:
                break
            self._waiting.popleft()
            self._last_due, self._on_break = due, on_break
            released.append(item)
        return released

    def status(self, now_ms: int) -> dict[str, Any]:
        """For the countdown page: ``waiting`` (no hand yet), ``filling`` (seconds until on air), ``on_air``."""
        if self.first_hand_ms is None:
            return {"state": "waiting", "delay_s": self.delay_ms // 1000}
        left = self.first_hand_ms + self.delay_ms - now_ms
        if left > 0:
            return {"state": "filling", "seconds_left": -(-left // 1000), "delay_s": self.delay_ms // 1000}
        return {"state": "on_air", "delay_s": self.delay_ms // 1000}
