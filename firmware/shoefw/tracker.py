"""Turns "which tags are in the field now" into "which cards just left the shoe", once each.

The reader sees a tag for as long as it lies in the antenna's field, and a tag at the edge of the field
flickers in and out. So a tag is reported when it is seen after having been unseen for at least
``quiet_ms``; while it keeps being seen (lingering, flickering) it is not reported again. Two different
tags are always two cards, however close together they come, and two tags seen in one scan (two stacked
cards) are both reported, in the reader's order.

A card cannot legitimately leave the shoe twice within a few seconds (the deck is reshuffled between
hands), so a card pushed back into the shoe and dealt again is still one read.
"""

QUIET_MS = 5000
"""How long a tag must be unseen before it counts as a new card leaving the shoe."""
MAX_TRACKED = 64
"""At most this many recent tags are remembered (a deck's worth); the oldest is forgotten first."""


class CardTracker:
    """Remembers when each recent tag was last seen; plain logic with an injected clock (ms)."""

    def __init__(self, quiet_ms: int = QUIET_MS, max_tracked: int = MAX_TRACKED) -> None:
        self.quiet_ms = quiet_ms
        self.max_tracked = max_tracked
        self._last_seen: dict = {}

    def update(self, uids: list, now_ms: int) -> list:
        """Record one scan's UIDs at ``now_ms``; return those that are new cards, in scan order."""
        fresh = []
        for uid in uids:
            last = self._last_seen.get(uid)
            if (last is None or now_ms - last >= self.quiet_ms) and uid not in fresh:
                fresh.append(uid)
            self._last_seen[uid] = now_ms
        self._forget(now_ms)
        return fresh

    def tracked(self) -> int:
        """How many tags are remembered (for tests and memory checks)."""
        return len(self._last_seen)

    def _forget(self, now_ms: int) -> None:
        stale = [uid for uid, seen in self._last_seen.items() if now_ms - seen >= self.quiet_ms]
        for uid in stale:
            del self._last_seen[uid]
        while len(self._last_seen) > self.max_tracked:
            oldest = None
            for uid, seen in self._last_seen.items():
                if oldest is None or seen < self._last_seen[oldest]:
                    oldest = uid
            del self._last_seen[oldest]
