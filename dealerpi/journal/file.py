"""The journal: every input, one JSON object per line, made durable before the engine applies it.

Why an fsync'd append-only text file and not SQLite in WAL mode: the journal is only ever appended to and
read from the start, inputs come at human pace (a few a second at most, so one fsync each is cheap), and a
text file is what the replay tool, ``tail -f`` and a person debugging a hand can read. SQLite would bring
the same durability (``synchronous=FULL``) with a schema and a binary file for no gain here.

Durability: :meth:`Journal.append` writes the whole line with one ``os.write`` on an ``O_APPEND`` descriptor
and returns only after ``os.fdatasync`` (for an append it also syncs the new file size); the caller
acknowledges the input (applies it, lights the displays, ACKs the shoe's read) only after that.

A failed append (an ``OSError`` from the write or the sync, or a short write) raises :class:`JournalFault`
after cutting the file back to its last good length and syncing that. PostgreSQL's lesson from "fsyncgate"
(https://wiki.postgresql.org/wiki/Fsync_Errors): after a failed fsync the kernel may have dropped the dirty
pages and marked them clean, so retrying the fsync proves nothing and the line's state on disk is unknown.
The line is therefore cut away (never half kept, never a phantom on the next start), the input is not
applied, and the caller pauses inputs until :meth:`Journal.probe` shows that the file can be cut, written
and synced again. If even the cut fails, the next append or probe cuts first.

Reading back: a crash can leave at most one torn line at the end (no newline: a write cut short; or NUL
bytes, which some filesystems leave after a power cut). It was never acknowledged. It is copied into a side
file ``<name>.torn-<n>`` (synced) before the journal is cut, so no byte is lost. A complete line that does
not parse is not a crash artefact but damage: :class:`JournalError` names the file and line, and nothing
is touched.
"""

from __future__ import annotations

import datetime
import errno
import json
import logging
import os
from pathlib import Path
from typing import Any, Protocol

_LOGGER = logging.getLogger(__name__)


class JournalError(ValueError):
    """The journal cannot be read as a whole (a damaged line before the end); the message names file and line."""


class JournalFault(Exception):
    """An append failed; the input was not journaled (and must not be applied). ``str()`` is for the dealer;
    ``code`` is the errno behind it (ENOSPC asks for space, an I/O error for another SD card)."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class FileOps(Protocol):
    """The few system calls the journal makes; ``os`` itself in the daemon, a fault-injecting layer in tests."""

    def write(self, fd: int, data: bytes, /) -> int: ...
    def fdatasync(self, fd: int, /) -> None: ...
    def fsync(self, fd: int, /) -> None: ...
    def ftruncate(self, fd: int, length: int, /) -> None: ...


def utc_now() -> str:
    """The time an input is journaled with (``"at"``), UTC to the second: ``2026-11-24T00:12:00Z``."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        entry = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return None
    return entry if isinstance(entry, dict) else None


def read_entries(path: Path, data: bytes) -> tuple[list[dict[str, Any]], int]:
    """The inputs in ``data`` (the bytes of ``path``) and the length of its good part (where a torn tail
    starts). A complete line that does not parse raises :class:`JournalError`."""
    entries: list[dict[str, Any]] = []
    good = 0
    number = 0
    while good < len(data):
        number += 1
        end = data.find(b"\n", good)
        line = data[good:end] if end >= 0 else data[good:]
        entry = _parse(line) if end >= 0 else None
        if entry is None:
            if end < 0 or (b"\0" in line and not data[end + 1:].strip(b"\0\n")):
                break               # a torn last line: a write a crash cut short, never acknowledged
            raise JournalError(f"{path}: line {number} is not a JSON object: {line[:60]!r}")
        entries.append(entry)
        good = end + 1
    return entries, good


def read(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The inputs in ``path`` and the byte length of its good part. A missing file is an empty journal."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], 0
    return read_entries(path, data)


def _set_aside(path: Path, tail: bytes) -> Path:
    """Copy a torn tail into ``<name>.torn-<n>`` (a new name each time) and make it durable."""
    number = 1
    while (side := path.with_name(f"{path.name}.torn-{number}")).exists():
        number += 1
    fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o640)
    try:
        os.write(fd, tail)
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(path.parent)
    return side


class Journal:
    """An open journal file: :meth:`open` reads it back, :meth:`append` adds one input durably."""

    def __init__(self, path: Path, fd: int, size: int, ops: FileOps = os) -> None:
        self.path = path
        self._fd = fd
        self._ops = ops
        self.size = size              # the last good length: everything before it is synced
        self.count = 0
        self._cut_pending = False     # an append failed and the cut back to ``size`` did not succeed yet

    @classmethod
    def open(cls, path: Path, ops: FileOps = os) -> tuple[Journal, list[dict[str, Any]]]:
        """Open (or create) the journal at ``path``; return it and the inputs already in it."""
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        data = path.read_bytes() if existed else b""
        entries, good = read_entries(path, data)
        if good < len(data):
            side = _set_aside(path, data[good:])
            _LOGGER.warning("journal %s: a torn last line (%d bytes, never acknowledged) was moved to %s",
                            path, len(data) - good, side)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
        try:
            if os.fstat(fd).st_size != good:
                os.ftruncate(fd, good)              # cut the torn tail so the next line starts clean
                os.fsync(fd)
            if not existed:
                fsync_dir(path.parent)              # the new file's name is durable too
        except OSError:
            os.close(fd)
            raise
        journal = cls(path, fd, good, ops)
        journal.count = len(entries)
        _LOGGER.info("journal %s: %d inputs read back", path, len(entries))
        return journal, entries

    def append(self, entry: dict[str, Any]) -> None:
        """Write ``entry`` as one line and sync; when this returns, the input survives a crash.

        Raises :class:`JournalFault` (the file cut back to its last good length where possible) otherwise.
        """
        line = (json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        try:
            if self._cut_pending:
                self._cut()
            written = self._ops.write(self._fd, line)
            if written != len(line):
                raise OSError(errno.ENOSPC, f"short write ({written} of {len(line)} bytes); disk full?")
            self._ops.fdatasync(self._fd)
        except OSError as error:
            self._failed(error)
            raise JournalFault(describe(error), error.errno) from error
        self.size += len(line)
        self.count += 1

    def probe(self) -> None:
        """After a fault: cut back to the last good length, sync, and write and sync a probe file beside the
        journal. Returns when appends can be trusted again; raises :class:`JournalFault` otherwise."""
        probe = self.path.with_name(f".{self.path.name}.probe")
        try:
            self._cut()
            fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o640)
            try:
                data = b"{}\n" * 100
                if self._ops.write(fd, data) != len(data):
                    raise OSError(errno.ENOSPC, "short write; disk full?")
                self._ops.fdatasync(fd)
            finally:
                os.close(fd)
                probe.unlink(missing_ok=True)
        except OSError as error:
            self._cut_pending = True
            raise JournalFault(describe(error), error.errno) from error

    def _failed(self, error: OSError) -> None:
        self._cut_pending = True
        try:
            self._cut()
        except OSError as cut_error:
            _LOGGER.error("journal %s: cannot cut back to %d bytes after a failed append: %s",
                          self.path, self.size, cut_error)
        _LOGGER.error("journal %s: append failed (%s); the input was not journaled", self.path, describe(error))

    def _cut(self) -> None:
        """Drop whatever a failed append left after the last good length, and sync that."""
        self._ops.ftruncate(self._fd, self.size)
        self._ops.fsync(self._fd)
        self._cut_pending = False

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def describe(error: OSError) -> str:
    """``No space left on device (ENOSPC)``: the words and the code a person can search for."""
    code = errno.errorcode.get(error.errno or 0)
    text = error.strerror or str(error)
    return f"{text} ({code})" if code else text


def fsync_dir(directory: Path, ops: FileOps = os) -> None:
    """Make the folder's names durable (a new file, a rename, a removal): fsync(2) on the folder."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        ops.fsync(fd)
    finally:
        os.close(fd)
