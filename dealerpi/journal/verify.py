"""What start-up checks of the journal folder: checkpoints bound to the journal's content (issue 23).

Each checkpoint records the SHA-256 of the segment before it and of the checkpoint before it
(``"before": {"segment": ..., "checkpoint": ...}``), taken when it is written, from the bytes on disk. So a
checkpoint vouches for the evening up to it, and start-up can tell, for every segment and checkpoint the
folder keeps, that it is as written, without parsing or replaying it: a line cut short, edited, swapped,
doubled or removed in a closed segment changes its SHA-256; a checkpoint replaced or edited (even with its own
``sha256`` recomputed) no longer matches what the next one recorded. The newest checkpoint has no successor
to vouch for it: start-up replays the segment before it from the checkpoint before and compares the tables
(journal_folder.recover), one hand of work.

Why this and not a number or a chained hash in every line: the lines stay the inputs, unchanged, which
``tail -f``, the replay tool, the console's readers and the tests read as they are, and which a person may
still repair by hand (the repaired segment is then reported, not refused, if start-up does not need it).
What it does not cover: the live segment (the hand in progress) is checked only by parsing, as before: a
line doubled or swapped there by hand is not found.

Cost (bench/bench_startup_verify.py): after a week of hands, 1,000 segments and checkpoints kept, 41 ms on
this project's VM, of a 56 ms ``open_journal``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealerpi.journal.file import JournalError, read_entries

_LOGGER = logging.getLogger(__name__)


def segment_name(number: int) -> str:
    return f"{number:06d}.jsonl"


def checkpoint_name(number: int) -> str:
    return f"{number:06d}.checkpoint.json"


def checksum(body: dict[str, Any]) -> str:
    """A checkpoint's own ``sha256``: of its other keys, as canonical JSON."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of a file's bytes, None if it is not there."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def binding(segment: Path, checkpoint: Path) -> dict[str, str | None]:
    """What a new checkpoint records of the segment and the checkpoint before it (None: not there)."""
    return {"segment": file_sha256(segment), "checkpoint": file_sha256(checkpoint)}


@dataclass
class Findings:
    """Start-up's check of the kept segments and checkpoints: what is not as written, and why."""

    segments: dict[int, str] = field(default_factory=dict)      # closed segment -> the fault, naming its file
    checkpoints: dict[int, str] = field(default_factory=dict)   # checkpoint -> why it is not to be used


def _whole(data: bytes) -> dict[str, Any] | None:
    """A checkpoint document whose own SHA-256 matches, else None."""
    try:
        document = json.loads(data)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(document, dict):
        return None
    body = {k: v for k, v in document.items() if k != "sha256"}
    return document if document.get("sha256") == checksum(body) else None


def _segment_fault(path: Path, data: bytes, recorded_by: str | None) -> str | None:
    """What is wrong with a closed segment's bytes: a line that does not parse, a cut last line, or (when a
    checkpoint recorded its hash and the bytes differ) lines not as written. None if nothing is found."""
    try:
        entries, good = read_entries(path, data)
    except JournalError as error:
        return str(error)
    if good != len(data):
        return f"{path}: the last line is incomplete (line {len(entries) + 1})"
    if recorded_by is not None:
        return f"{path}: not as written (a line changed, moved, doubled or removed since {recorded_by} recorded it)"
    return None


def verify(folder: Path, numbers: list[int]) -> Findings:
    """Check every closed segment of ``numbers`` (all but the live one) and every checkpoint kept.

    From the newest checkpoint back: a checkpoint is vouched for by its successor's record of its bytes (one
    SHA-256, no parse of its canonical form), or, with no vouched successor, by its own ``sha256``; a
    vouched checkpoint's record then vouches for the checkpoint and the segment before it."""
    findings = Findings()
    if not numbers:
        return findings
    first, live = numbers[0], numbers[-1]
    kept = [n for n in range(first, live + 1) if (folder / checkpoint_name(n)).exists()]
    raw = {n: (folder / checkpoint_name(n)).read_bytes() for n in kept}
    records: dict[int, dict[str, Any]] = {}      # vouched checkpoint -> its "before" record
    vouched_by: int | None = None                # the checkpoint whose record covers the one looked at
    for number in reversed(kept):
        recorded = records.get(number + 1, {}).get("checkpoint") if vouched_by == number + 1 else None
        if recorded is not None and hashlib.sha256(raw[number]).hexdigest() != recorded:
            findings.checkpoints[number] = (f"it does not match what {checkpoint_name(number + 1)} recorded of "
                                            "it: changed since")
            vouched_by = None
            continue
        document = json.loads(raw[number]) if recorded is not None else _whole(raw[number])
        before = document.get("before") if isinstance(document, dict) else None
        if isinstance(before, dict):
            records[number] = before
            vouched_by = number
        else:
            vouched_by = None
    for number in numbers[:-1]:
        path = folder / segment_name(number)
        data = path.read_bytes()
        recorded = records.get(number + 1, {}).get("segment")
        if recorded is not None and recorded == hashlib.sha256(data).hexdigest():
            continue                                   # as written: no need to parse it
        fault = _segment_fault(path, data, checkpoint_name(number + 1) if recorded is not None else None)
        if fault is not None:
            findings.segments[number] = fault
    return findings
