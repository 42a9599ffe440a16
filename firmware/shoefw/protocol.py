"""The shoe's side of the link: scan, number the reads, send, resend until the host acknowledges.

Sans-I/O with an injected clock: ``step(now_ms)`` scans once and queues frames, ``receive(data, now_ms)``
takes the host's bytes, ``take_output()`` returns the bytes to write to USB. board.py feeds it; the tests
feed it from a fake reader and a pseudo-terminal.

- Each new card (see tracker.py) gets the next read number and is sent as a ``C`` frame at once.
- Reads stay in the ring (ring.py) until the host's cumulative ``A`` covers them. While some are
  unacknowledged they are resent every ``retry_ms``, at most ``RESEND_BURST`` at a time.
- ``H`` (HELLO, sent by the host after it opens the port) is answered by a heartbeat and then every
  unacknowledged read, oldest first.
- A heartbeat ``B`` every ``beat_ms`` carries the resendable window and the reader-fault flag.
- A reader that raises is counted, never fatal: after ``RESET_AFTER`` failed scans in a row the reader is
  re-initialised (and again after every further ``RESET_AFTER``) and the heartbeat flags a fault.
"""

from codec import FLAG_READER_FAULT, Ack, Beat, Card, Decoder, Hello, encode, uid_hex

from shoefw.ring import ReadRing
from shoefw.tracker import CardTracker

BEAT_MS = 1000
RETRY_MS = 1000
RESEND_BURST = 16
RESET_AFTER = 3


class ShoeProtocol:
    """Protocol state of the shoe: read numbering, resends, heartbeats, reader health."""

    def __init__(self, reader: object, boot: str, *, tracker: CardTracker | None = None,
                 ring: ReadRing | None = None, beat_ms: int = BEAT_MS, retry_ms: int = RETRY_MS) -> None:
        self.reader = reader
        self.boot = boot
        self.tracker = tracker if tracker is not None else CardTracker()
        self.ring = ring if ring is not None else ReadRing()
        self.beat_ms = beat_ms
        self.retry_ms = retry_ms
        self.decoder = Decoder()
        self._out: list = []
        self._last_beat: int | None = None
        self._last_send = 0
        self.failed_scans = 0  # in a row
        self.scan_errors = 0
        self.reader_resets = 0
        self.reset_errors = 0
        self.cards = 0
        self.stale_acks = 0
        self.unexpected = 0

    def counters(self) -> dict:
        """The shoe's own counts: reads, reader trouble, and what it dropped from the host."""
        counts = self.decoder.counters()
        counts.update({
            "cards": self.cards,
            "scan_errors": self.scan_errors,
            "reader_resets": self.reader_resets,
            "reset_errors": self.reset_errors,
            "overwritten": self.ring.overwritten,
            "stale_acks": self.stale_acks,
            "unexpected": self.unexpected,
        })
        return counts

    def flags(self) -> int:
        return FLAG_READER_FAULT if self.failed_scans >= RESET_AFTER else 0

    def step(self, now_ms: int) -> list:
        """Scan once, queue a frame per new card, a heartbeat or resends when due; return the new UIDs."""
        fresh = []
        try:
            uids = self.reader.scan()
        except Exception:  # any driver failure (I2C NACK, timeout, bad frame): count, retry, never die
            self._scan_failed()
        else:
            self.failed_scans = 0
            fresh = self.tracker.update([uid_hex(raw) for raw in uids], now_ms)
            for uid in fresh:
                self._send(Card(self.boot, self.ring.add(uid), uid))
                self.cards += 1
                self._last_send = now_ms
        if self._last_beat is None or now_ms - self._last_beat >= self.beat_ms:
            self._beat(now_ms)
        if self.ring.pending(1) and now_ms - self._last_send >= self.retry_ms:
            self._resend(now_ms, RESEND_BURST)
        return fresh

    def receive(self, data: bytes, now_ms: int) -> None:
        """Take bytes from the host: apply ACKs, answer HELLO."""
        for frame in self.decoder.feed(data):
            if isinstance(frame, Ack):
                if frame.boot != self.boot or not self.ring.ack(frame.seq):
                    self.stale_acks += 1  # for an earlier boot, or for reads never made
            elif isinstance(frame, Hello):
                self._beat(now_ms)
                self._resend(now_ms, None)
            else:
                self.unexpected += 1

    def take_output(self) -> bytes:
        """The bytes queued for the host since the last call."""
        out = b"".join(self._out)
        self._out = []
        return out

    def _send(self, frame: object) -> None:
        self._out.append(encode(frame))

    def _beat(self, now_ms: int) -> None:
        self._last_beat = now_ms
        self._send(Beat(self.boot, self.ring.first(), self.ring.newest, self.flags()))

    def _resend(self, now_ms: int, limit: int | None) -> None:
        for seq, uid in self.ring.pending(limit):
            self._send(Card(self.boot, seq, uid))
        self._last_send = now_ms

    def _scan_failed(self) -> None:
        self.scan_errors += 1
        self.failed_scans += 1
        if self.failed_scans % RESET_AFTER == 0:
            self.reset_reader()

    def reset_reader(self) -> bool:
        """(Re-)initialise the reader; a failure is counted and the next scans will try again."""
        self.reader_resets += 1
        try:
            self.reader.reset()
        except Exception:  # no reader, or a dead one: the heartbeat's fault flag tells the host
            self.reset_errors += 1
            return False
        return True
