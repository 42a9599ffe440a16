"""A fault-injecting file layer for the journal (journal.FileOps): the real system calls, until told to fail.

``FaultyOps().fail("fdatasync", errno.EIO)`` makes every later ``fdatasync`` raise EIO; ``short=True`` on
``write`` writes half the bytes and reports that (a disk filling up mid-line); ``times=1`` fails only the next
call (one I/O error, then the disk works again); ``heal()`` ends the fault.
"""

from __future__ import annotations

import errno
import os


class FaultyOps:
    def __init__(self) -> None:
        self.failing: dict[str, int] = {}
        self.remaining: dict[str, int] = {}     # call -> failures left, for a fault that passes by itself
        self.short = False
        self.calls: dict[str, int] = {}

    def fail(self, call: str, code: int = errno.EIO, *, short: bool = False, times: int | None = None) -> None:
        self.failing[call] = code
        self.short = short
        if times is not None:
            self.remaining[call] = times

    def heal(self) -> None:
        self.failing.clear()
        self.remaining.clear()
        self.short = False

    def _check(self, call: str) -> None:
        self.calls[call] = self.calls.get(call, 0) + 1
        if call in self.failing:
            code = self.failing[call]
            if call in self.remaining:
                self.remaining[call] -= 1
                if not self.remaining[call]:
                    del self.failing[call], self.remaining[call]
            raise OSError(code, os.strerror(code))

    def write(self, fd: int, data: bytes, /) -> int:
        if self.short and "write" in self.failing:
            self.calls["write"] = self.calls.get("write", 0) + 1
            return os.write(fd, data[: len(data) // 2])    # half a line reaches the file, then the disk is full
        self._check("write")
        return os.write(fd, data)

    def fdatasync(self, fd: int, /) -> None:
        self._check("fdatasync")
        os.fdatasync(fd)

    def fsync(self, fd: int, /) -> None:
        self._check("fsync")
        os.fsync(fd)

    def ftruncate(self, fd: int, length: int, /) -> None:
        self._check("ftruncate")
        os.ftruncate(fd, length)
