"""The shoe's ring buffer of recent reads: what the host has not acknowledged yet can be resent.

Reads are numbered 1, 2, 3... from boot, so read ``seq`` lives in slot ``seq % capacity`` and the ring
holds reads ``newest - capacity + 1 .. newest``. The host's cumulative ACK moves ``acked`` forward;
``first()`` is the oldest read still to be delivered. When more than ``capacity`` reads go unacknowledged
(host away for a long time) the oldest are overwritten and counted in ``overwritten``; the heartbeat's
``first`` then tells the host exactly which reads it can no longer get.

It lives in RAM, so it survives the host closing and reopening the USB port or a cable glitch while the
Pico stays powered (see hardware/shoe.md on powering the shoe), not a reset of the Pico.
"""

from codec import MAX_SEQ

CAPACITY = 128


class ReadRing:
    """Numbered reads with a cumulative ACK; sans-I/O."""

    def __init__(self, capacity: int = CAPACITY, max_seq: int = MAX_SEQ) -> None:
        self.capacity = capacity
        self.max_seq = max_seq
        self._slots: list = [None] * capacity
        self.newest = 0
        self.acked = 0
        self.overwritten = 0

    def add(self, uid: str) -> int:
        """Store a new read; return its sequence number."""
        if self.newest >= self.max_seq:
            raise OverflowError("read numbers exhausted; reboot for a new boot id")
        self.newest += 1
        if self.newest - self.acked > self.capacity:
            self.overwritten += 1  # the read in this slot was never acknowledged
        self._slots[self.newest % self.capacity] = uid
        return self.newest

    def first(self) -> int:
        """The oldest read the host still needs and the ring still has (``newest + 1`` if none)."""
        return max(self.acked + 1, self.newest - self.capacity + 1)

    def ack(self, seq: int) -> bool:
        """Apply a cumulative ACK; return False for one that acknowledges reads never made."""
        if seq > self.newest:
            return False
        if seq > self.acked:
            self.acked = seq
        return True

    def pending(self, limit: int | None = None) -> list:
        """``(seq, uid)`` of the reads not yet acknowledged, oldest first, at most ``limit`` of them."""
        last = self.newest
        start = self.first()
        if limit is not None:
            last = min(last, start + limit - 1)
        return [(seq, self._slots[seq % self.capacity]) for seq in range(start, last + 1)]
