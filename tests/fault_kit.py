"""A fault-injecting file layer for the journal (journal.FileOps): the real system calls, until told to fail.

``FaultyOps().fail("fdatasync", errno.EIO)`` makes every later ``fdatasync`` raise EIO; ``short=True`` on
``write`` writes half the bytes and reports that (a disk filling up mid-line); ``heal()`` ends the fault.
"""

from __future__ import annotations

import errno
import os


class FaultyOps:
    def __init__(self) -> None:
        self.failing: dict[str, int] = {}
        self.short = False
        self.calls: dict[str, int] = {}

    def fail(self, call: str, code: int = errno.EIO, *, short: bool = False) -> None:
        self.failing[call] = code
        self.short = short

    def heal(self) -> None:
        self.failing.clear()
        self.short = False

    def _check(self, call: str) -> None:
        self.calls[call] = self.calls.get(call, 0) + 1
        if call in self.failing:
            code = self.failing[call]
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
