"""The host's side of the shoe protocol, sans-I/O: bytes in, events and reply bytes out.

Rules (the wire format is in codec.py):

- Reads are delivered in order, each exactly once: read ``seq`` of the current boot is delivered only
  when it is ``last + 1``. A repeat (``seq <= last``, e.g. resent after a lost ACK) is dropped and
  counted; a read after a gap (the one before it was corrupted) is dropped and counted, and comes again
  with the shoe's resend.
- After each batch that held card frames, one cumulative ACK for ``last`` is queued. The link sends it
  after the daemon's callback has taken the reads, so a read is never acknowledged before it is handed on.
  A read the daemon could not make durable (its journal failed) is handed back with :meth:`HostSession.refuse`:
  ``last`` goes back to the read before it and the queued ACK with it, so the shoe keeps the read and
  resends it (every RETRY_MS, firmware/shoefw/protocol.py).
- The heartbeat's window ``first..newest`` says what the shoe can still resend. On a boot the host has
  not seen, it starts at ``first - 1`` (earlier reads were acknowledged to someone else, e.g. before a
  daemon restart), or at ``newest`` with ``skip_backlog`` (enrollment ignores the reads made before
  it started). Card frames of
  an unseen boot wait for that window. If reads the host never got fall out of the window, or the shoe
  restarts with reads still undelivered, ``ReadsLost`` says which, so the dealer can be told.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from dealerpi.shoe.codec import FLAG_READER_FAULT, HELLO, Ack, Beat, Card, Decoder, Hello, encode

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class CardRead:
    """A card left the shoe: its tag's UID and where the read sits in the shoe's numbering."""

    uid: str
    boot: str
    seq: int


@dataclass(frozen=True)
class ReadsLost:
    """Reads ``first..last`` of ``boot`` will never arrive (the shoe restarted or its buffer overflowed)."""

    boot: str
    first: int
    last: int

    @property
    def count(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class ShoeRestarted:
    """The shoe booted again (power cut, watchdog, reset): its read numbers start over."""

    old_boot: str
    new_boot: str


@dataclass(frozen=True)
class ReaderFault:
    """The shoe's RFID reader stopped answering (``active``) or works again."""

    active: bool


SessionEvent = CardRead | ReadsLost | ShoeRestarted | ReaderFault


class HostSession:
    """Dedupe, order and loss accounting for one shoe, across any number of reconnects."""

    def __init__(self, *, resume_from: tuple[str, int] | None = None, skip_backlog: bool = False) -> None:
        self.decoder = Decoder()
        self.boot: str | None = resume_from[0] if resume_from else None
        self.last = resume_from[1] if resume_from else 0
        self.skip_backlog = skip_backlog
        self.reader_fault = False
        self._window_known = False  # a heartbeat of self.boot has been seen since start
        self._newest = self.last  # newest read of self.boot known to exist
        self._hello_pending = False
        self._out: list[Ack | Hello] = []  # frames to send, encoded by data_to_send
        self.shoe_frames = 0  # valid frames of the kinds a shoe sends: proof that a shoe is there
        self.delivered = 0
        self.repeats = 0
        self.gaps = 0
        self.early = 0
        self.lost = 0
        self.skipped = 0
        self.unexpected = 0

    def counters(self) -> dict[str, int]:
        """Decoder counts plus what the session delivered and dropped, by reason."""
        return {
            **self.decoder.counters(),
            "delivered": self.delivered,
            "repeats": self.repeats,
            "gaps": self.gaps,
            "early": self.early,
            "lost": self.lost,
            "skipped": self.skipped,
            "unexpected": self.unexpected,
        }

    def connected(self) -> None:
        """A (re)opened port: forget any half line and greet the shoe so it resends what is pending."""
        self.decoder.reset()
        self.hello()

    def hello(self) -> None:
        self._hello_pending = True
        self._out.append(HELLO)

    def data_to_send(self) -> bytes:
        out = b"".join(encode(frame) for frame in self._out)
        self._out.clear()
        return out

    def refuse(self, read: CardRead) -> None:
        """``read`` (and any later read of this batch) was not taken: acknowledge only the reads before it,
        and deliver it again when the shoe resends it."""
        if read.boot != self.boot or read.seq > self.last:
            return  # the shoe restarted within the batch, or already refused: nothing to take back
        self.delivered -= self.last - read.seq + 1
        self.last = read.seq - 1
        self._out = [Ack(f.boot, min(f.seq, self.last)) if isinstance(f, Ack) and f.boot == read.boot else f
                     for f in self._out]

    def receive_data(self, data: bytes) -> list[SessionEvent]:
        """Take bytes from the shoe; return what happened, in order."""
        events: list[SessionEvent] = []
        cards_seen = False
        for frame in self.decoder.feed(data):
            if isinstance(frame, Card):
                self.shoe_frames += 1
                cards_seen = self._card(frame, events) or cards_seen
            elif isinstance(frame, Beat):
                self.shoe_frames += 1
                self._beat(frame, events)
            else:  # ACK or HELLO: only the host sends those; an echoing port or a confused device
                self.unexpected += 1
        if cards_seen and self.boot is not None:
            self._out.append(Ack(self.boot, self.last))
        return events

    def _card(self, frame: Card, events: list[SessionEvent]) -> bool:
        """Deliver, drop as a repeat, or drop after a gap; False if the frame's boot has no window yet."""
        if frame.boot != self.boot or not self._window_known:
            self.early += 1  # wait for this boot's window; the shoe resends after HELLO
            if not self._hello_pending:
                self.hello()
            return False
        self._newest = max(self._newest, frame.seq)
        if frame.seq <= self.last:
            self.repeats += 1
        elif frame.seq == self.last + 1:
            self.last = frame.seq
            self.delivered += 1
            events.append(CardRead(frame.uid, frame.boot, frame.seq))
        else:
            self.gaps += 1
        return True

    def _beat(self, frame: Beat, events: list[SessionEvent]) -> None:
        self._hello_pending = False
        if frame.boot != self.boot:
            first_contact = self.boot is None
            if self.boot is not None:
                _LOGGER.warning("shoe restarted (boot %s -> %s)", self.boot, frame.boot)
                events.append(ShoeRestarted(self.boot, frame.boot))
                if self._newest > self.last:
                    self._lose(self.boot, self.last + 1, self._newest, events)
            self.boot = frame.boot
            self.last = frame.first - 1
            self._newest = frame.newest
            self._window_known = True
            if first_contact and self.skip_backlog and frame.newest > self.last:
                self.skipped += frame.newest - self.last
                self.last = frame.newest
                self._out.append(Ack(self.boot, self.last))
        else:
            self._window_known = True
            self._newest = max(self._newest, frame.newest)
            if frame.first - 1 > self.last:
                self._lose(frame.boot, self.last + 1, frame.first - 1, events)
                self.last = frame.first - 1
            elif frame.first <= self.last:
                self._out.append(Ack(self.boot, self.last))  # our last ACK was lost
        fault = bool(frame.flags & FLAG_READER_FAULT)
        if fault != self.reader_fault:
            self.reader_fault = fault
            events.append(ReaderFault(fault))

    def _lose(self, boot: str, first: int, last: int, events: list[SessionEvent]) -> None:
        lost = ReadsLost(boot, first, last)
        self.lost += lost.count
        _LOGGER.warning("shoe reads %d..%d of boot %s are lost", first, last, boot)
        events.append(lost)
