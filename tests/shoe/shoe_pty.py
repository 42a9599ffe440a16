"""The shoe's firmware logic at the far end of a pseudo-terminal, for end-to-end tests of the host link.

A thread plays the Pico's main loop (firmware/shoefw/board.py) with a scripted reader: read the host's
bytes, scan once, write frames. The host opens ``path``, a symlink to the current pty, the way udev's
/dev/serial/by-id/ name follows a USB device. ``unplug()`` closes the pty's master side (the host's reads
fail, as when the USB cable is pulled) while the firmware state lives on, as in a Pico powered apart
from USB; ``plug()`` makes a new pty and moves the symlink.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import tty
from pathlib import Path

from fw_fakes import ScriptedReader
from shoefw.protocol import ShoeProtocol


class PtyShoe:
    def __init__(self, path: Path, *, boot: str = "0BADCAFE", retry_ms: int = 300, beat_ms: int = 200,
                 loop_s: float = 0.003) -> None:
        self.path = path
        self.reader = ScriptedReader()
        self.protocol = ShoeProtocol(self.reader, boot, retry_ms=retry_ms, beat_ms=beat_ms)
        self.drop_from_host = False  # lose the host's bytes (its ACKs and HELLOs) while set
        self.lock = threading.Lock()
        self._master: int | None = None
        self._loop_s = loop_s
        self._t0 = time.monotonic()
        self._stop = threading.Event()
        self.plug()
        self._thread = threading.Thread(target=self._run, name="pty-shoe", daemon=True)
        self._thread.start()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: a byte is a byte, as on the CDC port
        os.set_blocking(master, False)
        link = self.path.with_name(self.path.name + ".new")
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(slave))
        os.replace(link, self.path)
        os.close(slave)
        with self.lock:
            self._master = master

    def unplug(self) -> None:
        with self.lock:
            if self._master is not None:
                os.close(self._master)
                self._master = None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.unplug()

    def deal(self, uid: bytes, timeout: float = 5.0) -> None:
        """Slide one card out: its tag enters the field, is read, lingers a few scans, leaves."""
        with self.lock:
            before = self.protocol.cards
            self.reader.field = [uid]
        deadline = time.monotonic() + timeout
        while True:
            with self.lock:
                if self.protocol.cards > before:
                    scans = self.reader.scans
                    break
            if time.monotonic() > deadline:
                raise AssertionError("the shoe never read the card")
            time.sleep(0.001)
        while True:  # linger for three more scans
            with self.lock:
                if self.reader.scans >= scans + 3:
                    self.reader.field = []
                    return
            time.sleep(0.001)

    def _run(self) -> None:
        while not self._stop.is_set():
            now = int((time.monotonic() - self._t0) * 1000)
            with self.lock:
                data = self._read()
                if data and not self.drop_from_host:
                    self.protocol.receive(data, now)
                self.protocol.step(now)
                self._write(self.protocol.take_output())
            time.sleep(self._loop_s)

    def _read(self) -> bytes:
        if self._master is None:
            return b""
        try:
            return os.read(self._master, 4096)
        except (BlockingIOError, OSError):  # EIO while no one has the port open: nothing to read
            return b""

    def _write(self, data: bytes) -> None:
        if self._master is None or not data:
            return  # unplugged: the Pico's USB stack drops what is written
        with contextlib.suppress(OSError):  # no host reading, or its buffer is full: dropped, as on the Pico
            os.write(self._master, data)
