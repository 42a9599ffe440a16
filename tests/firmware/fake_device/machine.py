"""A stand-in for MicroPython's ``machine`` module, so firmware/main.py and board.py run on the unix port.

I2C talks to a fake PN532 whose field follows a script counted in scans (not in time, so a slow machine
changes nothing); the watchdog exits with status 3 if it is starved; reset() exits with status 4.
Set FAKE_READER=absent in the environment for a bus where nothing answers.
"""

import os
import sys
import time

from fw_fakes import FakePN532

# MicroPython's own clock functions: this module only runs on the unix port, and CPython's time has neither.
ticks_ms = time.ticks_ms  # type: ignore[attr-defined]
ticks_diff = time.ticks_diff  # type: ignore[attr-defined]

NTAG = b"\x04\xa2\x24\xb2\xc1\x5e\x80"
SMALL = b"\xde\xad\xbe\xef"
# (first scan, last scan, tags in the field): a card lingers, a gap, two cards in quick succession,
# then two stacked cards.
SCRIPT = [
    (20, 60, [(NTAG, 0x00, b"")]),
    (80, 82, [(SMALL, 0x00, b"")]),
    (83, 85, [(b"\x04\x01\x02\x03\x04\x05\x06", 0x00, b"")]),
    (100, 110, [(b"\x04\x11\x11\x11\x11\x11\x11", 0x00, b""), (b"\x04\x22\x22\x22\x22\x22\x22", 0x00, b"")]),
]


class ScriptedChip(FakePN532):
    def __init__(self) -> None:
        super().__init__()
        self.scans = 0
        self.absent = os.getenv("FAKE_READER") == "absent"

    def writeto(self, address: int, buf: bytes) -> None:
        if bytes(buf)[6:7] == b"\x4a":  # InListPassiveTarget
            self.scans += 1
            self.tags = []
            for first, last, tags in SCRIPT:
                if first <= self.scans <= last:
                    self.tags = tags
        super().writeto(address, buf)


class I2C:
    def __init__(self, bus_id: int, sda: object = None, scl: object = None, freq: int | None = None,
                 timeout: int | None = None) -> None:
        self._chip = ScriptedChip()

    def writeto(self, address: int, buf: bytes) -> None:
        self._chip.writeto(address, buf)

    def readfrom(self, address: int, count: int) -> bytes:
        return self._chip.readfrom(address, count)


class Pin:
    IN = 0
    OUT = 1

    def __init__(self, name: object, mode: int | None = None) -> None:
        self._value = 0

    def value(self, value: int | None = None) -> int | None:
        if value is None:
            return self._value
        self._value = value
        return None


class WDT:
    def __init__(self, timeout: int = 5000) -> None:
        self.timeout = timeout
        self._fed: int = ticks_ms()

    def feed(self) -> None:
        now: int = ticks_ms()
        if ticks_diff(now, self._fed) > self.timeout:
            sys.stderr.write("watchdog starved\n")
            sys.exit(3)
        self._fed = now


def reset() -> None:
    sys.exit(4)
