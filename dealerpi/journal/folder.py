"""The journal as a folder of segments and checkpoints, so start-up and memory follow the current hand.

The config's ``journal = "state/journal.jsonl"`` names the folder ``state/journal/``::

    000001.jsonl                 inputs, one JSON object per line (journal.py), from the very first
    000002.checkpoint.json       the table before segment 2's first input (written when a hand started)
    000002.jsonl                 the inputs after that checkpoint
    ...                          the highest segment is the live one: appends go there

When a hand starts (an accepted ``start``, after its line is synced) the daemon calls :meth:`checkpoint`:

1. create the next segment, empty, and sync the folder; appends go there from now on;
2. write the checkpoint for it atomically: a temporary file, fsync, rename, fsync the folder (the rename is
   atomic on a POSIX filesystem, and the folder's fsync makes the new name durable: rename(2), fsync(2)).
   The checkpoint records the SHA-256 of the segment and the checkpoint before it, which start-up checks
   (journal_verify.py).

A crash between 1 and 2 leaves a segment without a checkpoint: start-up then takes the one before and
replays both segments, which gives the same table. Start-up loads the newest good checkpoint (its SHA-256
matches and the engine accepts it) and replays only the segments from there on: normally one hand. A damaged
checkpoint falls back to the one before it (hence at least two segments are always kept), and with none
left but the first segment still there, to a replay of everything. Old segments (the evening's hand
histories) are deleted oldest first, beyond ``keep_segments`` or ``keep_bytes``.

The checkpoint's ``table`` is whatever the engine's ``Table.snapshot()`` produced (docs/journal.md), kept
as JSON; this module never imports the engine: the caller passes the function that rebuilds a table from it.
An old single journal file at the config's path is moved into the folder as segment 1 at the first start.
"""

from __future__ import annotations

import errno
import itertools
import json
import logging
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from dealerpi.journal.file import FileOps, Journal, JournalError, JournalFault, describe, fsync_dir, read
from dealerpi.journal.verify import Findings, binding, verify
from dealerpi.journal.verify import checkpoint_name as checkpoint_name  # re-exported: the folder's names
from dealerpi.journal.verify import checksum as checksum
from dealerpi.journal.verify import segment_name as segment_name

_LOGGER = logging.getLogger(__name__)
_T = TypeVar("_T")

FORMAT = 1
SEGMENT = re.compile(r"(\d{6,})\.jsonl")
CHECKPOINT = re.compile(r"(\d{6,})\.checkpoint\.json")
KEEP_SEGMENTS = 1000        # about ten long evenings, one segment per hand
KEEP_BYTES = 64 << 20       # or this many bytes of segments, whichever comes first
MIN_KEEP = 2                # a damaged newest checkpoint falls back to the one before


def folder_for(path: Path) -> Path:
    """``state/journal.jsonl`` -> ``state/journal``; a path without the suffix is the folder itself."""
    return path.with_suffix("") if path.suffix == ".jsonl" else path


def _numbers(folder: Path, pattern: re.Pattern[str]) -> list[int]:
    return sorted(int(m.group(1)) for p in folder.iterdir() if (m := pattern.fullmatch(p.name)))


@dataclass
class Recovered(Generic[_T]):
    """What start-up found: the table the checkpoint rebuilt (None: start from an empty table), the inputs
    after it in order, the shoe's read position the checkpoint recorded, and notes for the log."""

    table: _T | None
    entries: list[dict[str, Any]]
    shoe: tuple[str, int] | None = None
    checkpoint: int | None = None
    notes: list[str] = field(default_factory=list)
    damage: list[str] = field(default_factory=list)   # old segments not as written (start-up does not need them)


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint file's content: the engine's snapshot and what the journal knew before it."""

    table: dict[str, Any]
    shoe: tuple[str, int] | None


def load_checkpoint(path: Path) -> Checkpoint:
    """A checkpoint file's content; ``ValueError`` says what is wrong with it."""
    try:
        document = json.loads(path.read_bytes())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ValueError(f"cannot be read: {error}") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError(f"not a format {FORMAT} checkpoint")
    body = {k: v for k, v in document.items() if k != "sha256"}
    if document.get("sha256") != checksum(body):
        raise ValueError("its SHA-256 does not match (damaged)")
    table, shoe = body.get("table"), body.get("shoe")
    if not isinstance(table, dict):
        raise ValueError('bad "table"')
    if shoe is not None and not (isinstance(shoe, list) and len(shoe) == 2 and isinstance(shoe[0], str)
                                 and isinstance(shoe[1], int)):
        raise ValueError('bad "shoe"')
    return Checkpoint(table, (shoe[0], shoe[1]) if shoe else None)


def write_atomically(path: Path, data: bytes) -> None:
    """Write, fsync, rename over ``path``, fsync the folder: afterwards the old or the new file, whole."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o640)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)       # a full disk: leave no half file behind
        raise
    fsync_dir(path.parent)


def _remove_stale_temps(folder: Path) -> None:
    """A checkpoint's temporary file that a kill left (write_atomically never got to its rename): never
    read, so removed at start-up."""
    stale = list(folder.glob("*.checkpoint.json.tmp"))
    for path in stale:
        path.unlink(missing_ok=True)
    if stale:
        fsync_dir(folder)
        _LOGGER.info("journal %s: removed %d temporary checkpoint file(s) a stop cut short", folder, len(stale))


def segments_of(folder: Path) -> list[int]:
    """The segment numbers in ``folder``, checked to be one run (a gap is a segment lost: JournalError)."""
    numbers = _numbers(folder, SEGMENT)
    for before, after in itertools.pairwise(numbers):
        if after != before + 1:
            raise JournalError(f"{folder}: segment {segment_name(before + 1)} is missing (between "
                               f"{segment_name(before)} and {segment_name(after)})")
    return numbers


def entries_from(folder: Path, numbers: list[int]) -> Iterator[dict[str, Any]]:
    """The inputs of the given (closed) segments, in order; a bad line is a JournalError naming it."""
    for number in numbers:
        path = folder / segment_name(number)
        entries, good = read(path)
        if good != path.stat().st_size:
            raise JournalError(f"{path}: the last line is incomplete (line {len(entries) + 1})")
        yield from entries


Check = Callable[[dict[str, Any] | None, list[dict[str, Any]]], dict[str, Any]]
VERIFY_BYTES = 1 << 20      # segments replayed to check the newest checkpoint: about a hundred hands at most


def recover(folder: Path, rebuild: Callable[[dict[str, Any]], _T], numbers: list[int],
            live_entries: list[dict[str, Any]] | None = None, *, newest_first: bool = True,
            findings: Findings | None = None, check: Check | None = None) -> Recovered[_T]:
    """The newest (or oldest) good checkpoint's table and the inputs after it; ``live_entries`` (the live
    segment, already read) stand in for the last segment's file. With ``findings`` (journal_verify.verify)
    a checkpoint found changed is not used, a damaged segment that would be replayed is a JournalError, and
    the others are listed in ``damage``; with ``check`` (a table's snapshot from a checkpoint's, or None for
    an empty table, and the inputs after it) the checkpoint chosen must equal what the journal gives."""
    notes: list[str] = []
    findings = findings or Findings()
    usable = [n for n in _numbers(folder, CHECKPOINT) if numbers and numbers[0] <= n <= numbers[-1]]

    def inputs_from(first: int) -> list[dict[str, Any]]:
        closed = [n for n in numbers if n >= first]
        for number in closed[:-1] if live_entries is not None else closed:
            if number in findings.segments:
                raise JournalError(f"{findings.segments[number]}; start-up needs it (it comes after the last "
                                   "usable checkpoint)")
        if live_entries is None:
            return list(entries_from(folder, closed))
        return [*entries_from(folder, closed[:-1]), *live_entries]

    def done(table: _T | None, first: int, shoe: tuple[str, int] | None = None) -> Recovered[_T]:
        entries = inputs_from(first)
        damage = [fault for number, fault in sorted(findings.segments.items()) if number < first]
        return Recovered(table, entries, shoe, first if table is not None else None, notes, damage)

    for number in reversed(usable) if newest_first else usable:
        path = folder / checkpoint_name(number)
        try:
            if number in findings.checkpoints:
                raise ValueError(findings.checkpoints[number])
            found = load_checkpoint(path)
            if check is not None:
                _check_by_replay(folder, number, found, [n for n in usable if n < number], numbers, findings,
                                 check)
            table = rebuild(found.table)
        except ValueError as error:          # the engine's InputError is a ValueError too
            notes.append(f"checkpoint {path} is not usable ({error}); trying the one "
                         f"{'before' if newest_first else 'after'}")
            continue
        return done(table, number, found.shoe)
    if numbers and numbers[0] != 1:
        raise JournalError(f"{folder}: no usable checkpoint, and the first segment was rotated away; "
                           f"{'; '.join(notes) or 'no checkpoint at all'}")
    return done(None, 1)


def _check_by_replay(folder: Path, number: int, found: Checkpoint, earlier: list[int], numbers: list[int],
                     findings: Findings, check: Check) -> None:
    """Checkpoint ``number`` has no later checkpoint to vouch for it: replay the segments before it from the
    checkpoint before (or from an empty table at segment 1) and compare the tables. ValueError if they
    differ. Skipped (nothing to compare with) when neither is there, a segment between is damaged (that is
    reported on its own), or the replay would be long (an old single journal moved in as segment 1)."""
    start: tuple[int, dict[str, Any] | None] | None = None
    for before in reversed(earlier):
        if before in findings.checkpoints:
            continue
        try:
            start = (before, load_checkpoint(folder / checkpoint_name(before)).table)
            break
        except ValueError:
            continue
    if start is None and numbers[0] == 1:
        start = (1, None)
    if start is None:
        return
    between = list(range(start[0], number))
    if any(n in findings.segments for n in between) or sum(
            (folder / segment_name(n)).stat().st_size for n in between) > VERIFY_BYTES:
        return
    expected = check(start[1], list(entries_from(folder, between)))
    if {key: found.table.get(key) for key in expected} != expected:
        raise ValueError(f"it does not match the journal: {segment_name(between[0])}..{segment_name(between[-1])} "
                         f"replayed from {checkpoint_name(start[0]) if start[1] is not None else 'an empty table'} "
                         "give another table")


def read_folder(folder: Path, rebuild: Callable[[dict[str, Any]], _T]) -> Recovered[_T]:
    """Everything a folder still holds, for ``dealerpi replay --journal FOLDER``, touching nothing: every
    input from segment 1 if it is still there (the whole evening, as one file would give), else from the
    oldest good checkpoint. The live segment's torn tail is left out, as start-up leaves it out."""
    numbers = segments_of(folder)
    if not numbers:
        raise FileNotFoundError(errno.ENOENT, f"not a journal folder (no {segment_name(1)} or later segment)")
    live_entries = read(folder / segment_name(numbers[-1]))[0]
    if numbers[0] == 1:
        return Recovered(None, [*entries_from(folder, numbers[:-1]), *live_entries])
    return recover(folder, rebuild, numbers, live_entries, newest_first=False)


def read_new(folder: Path, position: tuple[int, int]) -> tuple[list[bytes], tuple[int, int]]:
    """For a reader that follows the journal as it grows (``tail -f`` across segments): the whole lines
    written after ``position`` (segment, byte offset; start at (0, 0)), in order, and the position after
    them. A segment rotated away before it was read is skipped."""
    segment, offset = position
    lines: list[bytes] = []
    for number in _numbers(folder, SEGMENT):
        if number < segment:
            continue
        if number != segment:
            segment, offset = number, 0
        try:
            with (folder / segment_name(number)).open("rb") as file:
                file.seek(offset)
                data = file.read()
        except FileNotFoundError:
            continue
        end = data.rfind(b"\n") + 1
        lines += data[:end].splitlines()
        offset += end
    return lines, (segment, offset)


class JournalFolder:
    """The daemon's journal: appends to the live segment; checkpoints and rotation between hands."""

    def __init__(self, folder: Path, journal: Journal, number: int, *, keep_segments: int = KEEP_SEGMENTS,
                 keep_bytes: int = KEEP_BYTES, ops: FileOps = os) -> None:
        self.folder = folder
        self.journal = journal
        self._sizes: dict[int, int] | None = None     # segment -> bytes, read once when first needed
        self.number = number          # the live segment's number
        self.keep_segments = max(MIN_KEEP, keep_segments)
        self.keep_bytes = keep_bytes
        self._ops = ops

    @classmethod
    def open(cls, path: Path, rebuild: Callable[[dict[str, Any]], _T], *, keep_segments: int = KEEP_SEGMENTS,
             keep_bytes: int = KEEP_BYTES, ops: FileOps = os,
             check: Check | None = None) -> tuple[JournalFolder, Recovered[_T]]:
        """Open the journal for the config's ``path``: the folder, the live segment (its torn tail set
        aside), and what to start from, every kept segment and checkpoint checked (journal_verify.py; with
        ``check``, the newest checkpoint against the journal too). JournalError (a damaged line, a missing
        segment, damage in what start-up replays) names the file."""
        folder = folder_for(path)
        folder.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(folder)
        numbers = segments_of(folder)
        if path != folder and path.is_file():
            if numbers:
                raise JournalError(f"both a journal file {path} and segments in {folder}: move one of them away")
            os.replace(path, folder / segment_name(1))     # an old single journal becomes segment 1
            fsync_dir(folder)
            fsync_dir(path.parent)
            _LOGGER.warning("journal %s moved to %s (segment 1)", path, folder / segment_name(1))
            numbers = [1]
        live = numbers[-1] if numbers else 1
        journal, live_entries = Journal.open(folder / segment_name(live), ops)
        try:
            findings = verify(folder, numbers or [1])
            recovered = recover(folder, rebuild, numbers or [1], live_entries, findings=findings, check=check)
        except BaseException:
            journal.close()
            raise
        for note in [*recovered.notes, *recovered.damage]:
            _LOGGER.warning("%s", note)
        _LOGGER.info("journal %s: segment %d, checkpoint %s, %d inputs to replay", folder, live,
                     recovered.checkpoint, len(recovered.entries))
        store = cls(folder, journal, live, keep_segments=keep_segments, keep_bytes=keep_bytes, ops=ops)
        try:
            store._rotate(keep_from=min(recovered.checkpoint or 1, live - 1))
        except OSError as error:
            _LOGGER.error("journal %s: cannot delete old segments: %s", folder, describe(error))
        return store, recovered

    # the Journal interface the controller uses
    @property
    def path(self) -> Path:
        return self.journal.path

    @property
    def count(self) -> int:
        return self.journal.count

    def append(self, entry: dict[str, Any]) -> None:
        self.journal.append(entry)

    def probe(self) -> None:
        self.journal.probe()

    def close(self) -> None:
        self.journal.close()

    def checkpoint(self, snapshot: dict[str, Any], shoe: tuple[str, int] | None) -> None:
        """Between hands: start the next segment, then write its checkpoint (``snapshot``: the table now,
        before any input of the new segment; and the shoe's last journaled read, which start-up needs and the
        new segment will not hold). JournalFault if a step failed; the inputs
        stay safe in the segments either way, only start-up replays more."""
        number = self.number + 1
        path = self.folder / segment_name(number)
        fd = self._start_segment(path)
        self.journal.close()
        if self._sizes is not None:
            self._sizes[self.number] = self.journal.size
            self._sizes[number] = 0
        self.journal = Journal(path, fd, 0, self._ops)
        self.number = number
        try:
            before = binding(self.folder / segment_name(number - 1), self.folder / checkpoint_name(number - 1))
            body = {"format": FORMAT, "segment": number, "shoe": list(shoe) if shoe else None, "table": snapshot,
                    "before": before}
            document = {**body, "sha256": checksum(body)}
            write_atomically(self.folder / checkpoint_name(number),
                             json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode())
            self._rotate(keep_from=number - 1)
        except OSError as error:
            raise JournalFault(f"cannot write checkpoint {checkpoint_name(number)}: {describe(error)}",
                               error.errno) from error

    def _start_segment(self, path: Path) -> int:
        """Create the next segment and make its name durable; its descriptor. An empty file of that name is
        what an earlier failed start left (its unlink failed too): it is taken, not refused ("File exists" at
        every later hand was issue 23). If the folder's fsync fails the new name may not survive a power cut,
        so no input may go there: the file is removed again (best effort) and appends stay in the live
        segment, whose name is durable; the next hand's start tries again."""
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
        except OSError as error:
            raise JournalFault(f"cannot start segment {path.name}: {describe(error)}", error.errno) from error
        if os.fstat(fd).st_size:
            os.close(fd)
            raise JournalFault(f"cannot start segment {path.name}: it exists and holds inputs (look at it and "
                               "move it away)", errno.EEXIST)
        try:
            fsync_dir(self.folder, self._ops)
        except OSError as error:
            os.close(fd)
            try:
                path.unlink()
            except OSError as unlink_error:
                _LOGGER.error("journal %s: cannot remove %s again (%s); the next start takes it", self.folder,
                              path.name, describe(unlink_error))
            raise JournalFault(f"cannot start segment {path.name}: {describe(error)}", error.errno) from error
        return fd

    def _rotate(self, keep_from: int) -> None:
        """Delete the oldest segments (and their checkpoints) beyond the count or the size kept, never
        segment ``keep_from`` or later (the last two, or what start-up replayed). The sizes are known from
        start-up and each segment's close, so a hand's start costs no scan of a folder of a thousand files
        (that scan was 10 ms of CPU at the p99 of a press, bench_latency.py)."""
        if self._sizes is None:
            self._sizes = {n: (self.folder / segment_name(n)).stat().st_size
                           for n in _numbers(self.folder, SEGMENT)}
        sizes = self._sizes
        total = sum(sizes.values())
        gone = []
        while (oldest := min(sizes)) < keep_from and (len(sizes) > self.keep_segments or total > self.keep_bytes):
            total -= sizes.pop(oldest)
            (self.folder / checkpoint_name(oldest)).unlink(missing_ok=True)
            (self.folder / segment_name(oldest)).unlink()
            gone.append(oldest)
        if gone:
            fsync_dir(self.folder)
            _LOGGER.info("journal %s: rotated out segments %d..%d", self.folder, gone[0], gone[-1])
