"""The evening's books as the daemon's local API serves them: the ledger of buy-ins and cash-outs
(:mod:`dealerpi.books.ledger`) with the host's money notes laid over each session (expenses, charges, paid
marks: :mod:`dealerpi.books.money`), kept in ``ledger-notes.jsonl`` beside the journal.

One object so that the API's module keeps its requests and the books keep their sums (issue 22: a module
under ~600 lines, one concern). The summary is computed again only when the ledger, the seats or the notes
changed: the host's view asks for it after every input.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dealerpi.books import money
from dealerpi.books.ledger import Ledger
from dealerpi.engine import Table
from dealerpi.journal.file import utc_now

_LOGGER = logging.getLogger(__name__)


def notes_path(journal: Any) -> Path | None:
    """The money notes beside the journal (its folder's, or its file's): the daemon's state."""
    folder: Path | None = getattr(journal, "folder", None)
    path = getattr(journal, "path", None)
    if folder is not None:
        return folder.parent / "ledger-notes.jsonl"
    return Path(path).parent / "ledger-notes.jsonl" if path is not None else None


class LedgerBook:
    """The ledger and the money notes of one evening."""

    def __init__(self, ledger: Ledger, journal: Any) -> None:
        self.ledger = ledger
        self.notes = money.Notes(notes_path(journal))     # expenses, charges, paid marks (money.py)
        self._summary: tuple[object, dict[str, Any]] | None = None

    def summary(self, table: Table) -> dict[str, Any]:
        """The ledger (ledger.py) with the money notes (money.py) laid over each session."""
        key = (tuple(self.ledger.events), tuple((s, i.player, i.stack) for s, i in sorted(table.seats.items())),
               tuple(repr(session) for session in self.ledger.sessions), len(self.notes.notes))
        if self._summary is None or self._summary[0] != key:
            summary = self.ledger.summary(table)
            sessions = [money.with_notes(session, self.notes.notes) for session in summary["sessions"]]
            self._summary = (key, {**sessions[-1], "sessions": sessions})
        return self._summary[1]

    def view(self, table: Table) -> dict[str, Any]:
        """The ledger as the host's page gets it: the session in force, and the evening's earlier sessions,
        which no longer change. The session in force is not repeated in that list: it changes at every buy-in,
        and a list whose last item changed is sent whole (issue 22, probe 6: the evening's ledger at every
        buy-in); ``ledger`` (the request, the CSV) has every session."""
        summary = self.summary(table)
        return {**summary, "sessions": summary["sessions"][:-1]}

    def new_journal(self) -> None:
        """The daemon starts a new journal (a new evening): the money notes of the last one are put aside."""
        with contextlib.suppress(OSError):
            if (kept := self.notes.put_aside(utc_now().replace(":", ""))) is not None:
                _LOGGER.info("a new journal: the last evening's ledger notes are in %s", kept)

    def add_note(self, note: object, table: Table) -> dict[str, Any]:
        """An expense, a charge, a paid mark, or the removal of one (money.py): checked, written to the notes
        file (fsync) and only then counted. The answer: accepted (with the note's id) or the reason."""
        if not isinstance(note, Mapping):
            return {"accepted": False, "reason": "ledger_note: note must be a JSON object"}
        summary = self.summary(table)
        number = note.get("session", summary["session"]["number"])
        session = next((s for s in summary["sessions"] if s["session"]["number"] == number), None)
        if session is None:
            return {"accepted": False, "reason": f"ledger_note: no session {number!r} this evening"}
        if (reason := money.check(note, session)) is not None:
            return {"accepted": False, "reason": reason}
        try:
            kept = self.notes.add({**note, "session": number, "at": utc_now()})
        except OSError as exc:
            return {"accepted": False, "reason": f"the ledger's notes file cannot be written: {exc}"}
        return {"accepted": True, "reason": None, "note": kept["id"]}
