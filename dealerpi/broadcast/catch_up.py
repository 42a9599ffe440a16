"""The inputs the broadcast missed (it was down, or its link to the daemon was), read from the table's journal.

The daemon says where its journal ends at each event and at ``hello`` (``[segment, byte offset]``,
:mod:`dealerpi.wire.broadcast`); the broadcast kept where it was. The lines between the two are read
from the journal folder (readable by the ``dealerpi`` group, as the console's hand histories read it:
:mod:`dealerpi.history.final_hands`). The journal keeps no time for most inputs (a card, a button press),
so a missed input is stamped with the time of the last input before it that has one (a ``start``'s or a
console input's ``"at"``, or the last event the broadcast saw): its content is all there, its pace within
the gap is not.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from dealerpi.broadcast.store import Stamped
from dealerpi.journal.folder import segment_name


class Gap(ValueError):
    """The journal no longer has the lines between two positions (a segment rotated away): the message says
    which."""


def lines_between(folder: Path, start: list[int], end: list[int]) -> list[bytes]:
    """The journal lines after ``start`` up to ``end`` (both [segment, offset])."""
    lines: list[bytes] = []
    for number in range(start[0], end[0] + 1):
        path = folder / segment_name(number)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise Gap(f"{path} is gone: the inputs in it cannot be read") from None
        low = start[1] if number == start[0] else 0
        high = end[1] if number == end[0] else len(data)
        lines += [line for line in data[low:high].split(b"\n") if line.strip()]
    return lines


def at_ms(text: object) -> int | None:
    """A journal ``"at"`` (``2026-11-24T00:12:00Z``) in ms, or None."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return int(moment.timestamp() * 1000)


def missed(folder: Path, start: list[int], end: list[int], last_ms: int) -> list[Stamped]:
    """The journal's inputs between ``start`` and ``end``, stamped as the module docstring says. Refused
    inputs are there too: the broadcast's table refuses them again (the engine is pure)."""
    stamped: list[Stamped] = []
    for number, line in enumerate(lines_between(folder, start, end), 1):
        try:
            entry: Any = json.loads(line)
        except ValueError:
            raise Gap(f"{folder}: a damaged line after segment {start[0]} offset {start[1]} (line {number})") from None
        last_ms = max(last_ms, at_ms(entry.get("at")) or last_ms)
        stamped.append(Stamped(dict(entry), None, last_ms))
    if stamped:
        stamped[-1].position = list(end)
    return stamped
