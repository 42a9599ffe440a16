"""The journal: every input, one JSON object per line, made durable before the engine applies it.

Why an fsync'd append-only text file and not SQLite in WAL mode: the journal is only ever appended to and
read from the start, inputs come at human pace (a few a second at most, so one fsync each is cheap), and a
text file is what the replay tool, ``tail -f`` and a person debugging a hand can read. SQLite would bring
the same durability (``synchronous=FULL``) with a schema and a binary file for no gain here.

Durability: :meth:`Journal.append` writes the whole line with one ``os.write`` on an ``O_APPEND`` descriptor
and returns only after ``os.fdatasync`` (for an append it also syncs the new file size); the caller
acknowledges the input (applies it, lights the displays) after that. A crash can therefore lose at most
an input that was never acknowledged, and can leave at most
one torn line at the end (a power cut mid-write; some filesystems also leave NUL bytes there). Reading back
drops such a tail with a WARNING and truncates it away, so the next append starts on a clean line. A bad
line anywhere else is not a crash artefact, and loading stops with an error naming the file and line.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

_LOGGER = logging.getLogger(__name__)


class JournalError(ValueError):
    """The journal cannot be read as a whole (a damaged line before the end)."""


def _parse(line: bytes) -> dict[str, Any] | None:
    try:
        entry = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return None
    return entry if isinstance(entry, dict) else None


def read(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The inputs in ``path`` and the byte length of its good part (where a torn tail starts).

    A missing file is an empty journal.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], 0
    entries: list[dict[str, Any]] = []
    good = 0
    number = 0
    while good < len(data):
        number += 1
        end = data.find(b"\n", good)
        entry = _parse(data[good:end]) if end >= 0 else None
        if entry is None:
            if end < 0 or not data[end + 1:].strip(b"\0\n\r\t "):
                # only the final line is bad: a write that a crash cut short, never acknowledged
                _LOGGER.warning("journal %s: dropping a torn last line (%d bytes) at line %d",
                                path, len(data) - good, number)
                break
            raise JournalError(f"{path}: line {number} is not a JSON object: {data[good:end][:60]!r}")
        entries.append(entry)
        good = end + 1
    return entries, good


class Journal:
    """An open journal: :meth:`open` reads it back, :meth:`append` adds one input durably."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd
        self.count = 0

    @classmethod
    def open(cls, path: Path) -> tuple[Journal, list[dict[str, Any]]]:
        """Open (or create) the journal at ``path``; return it and the inputs already in it."""
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        entries, good = read(path)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
        try:
            if os.fstat(fd).st_size != good:
                os.ftruncate(fd, good)              # cut the torn tail so the next line starts clean
                os.fsync(fd)
            if not existed:
                _fsync_dir(path.parent)             # the new file's name is durable too
        except OSError:
            os.close(fd)
            raise
        journal = cls(path, fd)
        journal.count = len(entries)
        _LOGGER.info("journal %s: %d inputs read back", path, len(entries))
        return journal, entries

    def append(self, entry: dict[str, Any]) -> None:
        """Write ``entry`` as one line and fsync; when this returns, the input survives a crash."""
        line = (json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        written = os.write(self._fd, line)
        while written < len(line):                 # a short write (full disk, signal): finish the line
            written += os.write(self._fd, line[written:])
        os.fdatasync(self._fd)
        self.count += 1

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
