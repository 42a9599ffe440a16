"""The table's finished hands, read from its journal as it grows, each once it can no longer change.

The journal is the source of truth (docs/journal.md), so the room gets its hands from it, not from the
pages' views. A hand is final once the next ``start`` is accepted: an undo reaches back to the last
``start`` and no further (docs/journal.md, ``undo``), so every input before an accepted ``start`` is fixed.
Until then the last hand is not sent (the room sees it when the next hand starts). A hand that a ``start``
finishes (a showdown left open) is final one ``start`` later.

Only whole lines are read (the daemon appends a line and fsyncs it; a line without its newline is still
being written). The daemon's journal is a folder of segments (dealerpi/journal_folder.py): they are read
in order, as one file would be. ``session`` names the journal: the hash of its first line, so a new
journal (a new evening) numbers its hands from 1 again under a new name.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from dealerpi.history.phh import dumps
from dealerpi.journal_folder import folder_for, read_new
from dealerpi.sim.histories import HandRecorder, JournalTable

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class FinalHand:
    seq: int                 # 1, 2, ... in this session: what the room counts to find a gap
    number: int              # the table's hand number (misdealt deals are numbered too, and are no hands)
    players: tuple[str, ...]
    phh: str


class FinalHands:
    """Follows one journal file; :meth:`poll` reads what was appended and returns the hands that became final."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reset()

    def _reset(self) -> None:
        self.session = ""
        self.hands: list[FinalHand] = []
        self._offset = 0
        self._position = (0, 0)              # (segment, offset) in the daemon's journal folder
        self._live = JournalTable()          # every input, to see which are accepted and which undone
        self._cut = 0                        # accepted inputs before this index are final
        self._recorder = HandRecorder()      # fed the final inputs only

    def poll(self) -> list[FinalHand]:
        folder = folder_for(self.path)
        if folder != self.path and folder.is_dir():
            lines, self._position = read_new(folder, self._position)
            return self._lines(lines)
        try:
            with self.path.open("rb") as file:
                size = file.seek(0, 2)
                if size < self._offset or (self._offset and self._first_line(file) != self.session):
                    _LOGGER.info("%s: a new journal: its hands are a new session", self.path)
                    self._reset()
                file.seek(self._offset)
                data = file.read()
        except FileNotFoundError:
            return []
        end = data.rfind(b"\n") + 1
        self._offset += end
        return self._lines(data[:end].splitlines())

    def _lines(self, lines: list[bytes]) -> list[FinalHand]:
        new: list[FinalHand] = []
        for line in lines:
            if not self.session:
                self.session = hashlib.sha256(line).hexdigest()[:12]
            try:
                entry = json.loads(line)
            except ValueError:
                _LOGGER.warning("%s: a line that is not JSON is skipped (the daemon refuses it too)", self.path)
                continue
            if isinstance(entry, dict):
                new += self._feed(entry)
        return new

    @staticmethod
    def _first_line(file: BinaryIO) -> str:
        file.seek(0)
        return hashlib.sha256(file.readline().rstrip(b"\n")).hexdigest()[:12]

    def _feed(self, entry: dict[str, object]) -> list[FinalHand]:
        live = self._live
        if not (live.apply(entry).accepted and entry.get("type") == "start"):
            return []
        # the start's index: an undo of this start alone gives the table back these same inputs
        final, self._cut = live.accepted[self._cut:-1], len(live.accepted) - 1
        new = []
        for item in final:
            for record in self._recorder.feed(item):
                hand = FinalHand(len(self.hands) + 1, int(record.extra.get("hand", 0)),
                                 tuple(record.players or ()), dumps(record))
                self.hands.append(hand)
                new.append(hand)
        return new
