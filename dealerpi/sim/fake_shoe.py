"""The simulator's card shoe: the shoe's side of the link, at the far end of a pseudo-terminal.

The daemon's side is the real one: ``dealerpi.shoe.link.ShoeLink`` opens the pty's slave end with
``serial.serial_for_url`` exactly as it opens /dev/ttyACM0, and decodes the frames with the shared codec.
This side speaks the same protocol as the firmware (firmware/shoefw/protocol.py): each card is a ``C``
frame with the next read number, kept until the host's cumulative ``A`` covers it and resent every
``retry`` seconds until then; ``H`` is answered by a heartbeat and every unacknowledged read; a ``B``
heartbeat goes out every ``beat`` seconds. It is written again here, small, because the firmware package
is not installed with dealerpi (it runs on the Pico and imports ``codec`` as a top-level module).

A pty and not pyserial's ``loop://``: a loop port has one end, so the host would read back its own HELLO
and ACKs. A pty is two ends, and the host side is a real serial device. POSIX only (Linux, macOS).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import tty

from dealerpi.shoe.codec import Ack, Beat, Card, Decoder, Hello, encode

_LOGGER = logging.getLogger(__name__)


class FakeShoe:
    """A shoe on a pty: ``url`` is the path the host opens; ``deal(uid)`` slides one card out."""

    def __init__(self, *, beat: float = 1.0, retry: float = 1.0, boot: str | None = None) -> None:
        self.boot = boot or secrets.token_hex(4).upper()
        self.beat = beat
        self.retry = retry
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)        # no echo, no line editing: a byte is a byte, as on the USB CDC port
        os.set_blocking(self._master, False)
        self.url = os.ttyname(self._slave)
        self._decoder = Decoder()
        self._unacked: list[tuple[int, str]] = []
        self.newest = 0
        self.cards = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        loop.add_reader(self._master, self._readable)
        self._task = asyncio.create_task(self._beats(), name="fake-shoe beats")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        asyncio.get_running_loop().remove_reader(self._master)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def deal(self, uid: str) -> int:
        """One card leaves the shoe: number the read and send it; return its read number."""
        self.newest += 1
        self.cards += 1
        self._unacked.append((self.newest, uid))
        self._write(encode(Card(self.boot, self.newest, uid)))
        return self.newest

    @property
    def pending(self) -> int:
        """Reads the host has not acknowledged yet."""
        return len(self._unacked)

    def _first(self) -> int:
        return self._unacked[0][0] if self._unacked else self.newest + 1

    def _heartbeat(self) -> None:
        self._write(encode(Beat(self.boot, self._first(), self.newest, 0)))

    def _resend(self) -> None:
        for seq, uid in self._unacked:
            self._write(encode(Card(self.boot, seq, uid)))

    async def _beats(self) -> None:
        loop = asyncio.get_running_loop()
        last_resend = loop.time()
        while True:
            self._heartbeat()
            if self._unacked and loop.time() - last_resend >= self.retry:
                self._resend()
                last_resend = loop.time()
            await asyncio.sleep(self.beat)

    def _readable(self) -> None:
        try:
            data = os.read(self._master, 4096)
        except BlockingIOError:
            return
        except OSError:                 # EIO while no one has the slave open: nothing to read
            return
        for frame in self._decoder.feed(data):
            if isinstance(frame, Ack) and frame.boot == self.boot:
                self._unacked = [(seq, uid) for seq, uid in self._unacked if seq > frame.seq]
            elif isinstance(frame, Hello):
                self._heartbeat()
                self._resend()

    def _write(self, data: bytes) -> None:
        try:
            os.write(self._master, data)
        except OSError as exc:          # a full pty buffer (the host stopped reading): the resend covers it
            _LOGGER.debug("fake shoe write failed: %s", exc)
