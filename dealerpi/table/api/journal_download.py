"""The host's journal download over the daemon's socket (``journal`` requests): whole lines, in chunks, between
hands only. Apart from the server (one job: the file's chunks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from dealerpi.engine import Table
from dealerpi.journal.folder import segment_name, segments_of
from dealerpi.wire import api
from dealerpi.wire.protocol import PANEL

JOURNAL_CHUNK = 24 * 1024    # journal bytes an answer carries: JSON-escaped, well under MAX_MESSAGE


def journal_chunk(table: Table, journal: object, role: str, at: object) -> dict[str, Any]:
    """Whole journal lines from ``at`` ([segment, byte offset]; [0, 0] first), at most :data:`JOURNAL_CHUNK`
    bytes, and where the next chunk starts (None at the end): the console's journal download. The host's
    only, and between hands only: during a hand its card lines are the live hole cards (house rules).
    Redacting them instead would leave a file that no longer rebuilds the table."""
    if role not in ("host", PANEL):
        return {"error": {"message": "the journal is the host's"}}
    if not table.between_hands:
        return {"error": {"message": "the journal holds the hole cards of the hand in progress: download it "
                                     "when the hand is over"}}
    if not (isinstance(at, list) and len(at) == 2 and all(isinstance(n, int) and n >= 0 for n in at)):
        return {"error": {"message": "journal: at is [segment, offset]"}}
    folder: Path | None = getattr(journal, "folder", None)    # a JournalFolder's
    if folder is None:
        return {"error": {"message": "this journal is not a journal folder"}}
    segment, offset = at
    for number in segments_of(folder):
        if number < segment:
            continue
        if number != segment:
            segment, offset = number, 0
        with (folder / segment_name(number)).open("rb") as file:
            file.seek(offset)
            data = file.read(JOURNAL_CHUNK)
        end = data.rfind(b"\n") + 1
        if end:
            return {"result": msgspec.to_builtins(api.JournalChunk(data[:end].decode(), (number, offset + end)))}
    return {"result": msgspec.to_builtins(api.JournalChunk("", None))}

