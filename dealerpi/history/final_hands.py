"""The table's finished hands, read from its journal as it grows, each once it can no longer change.

The journal is the source of truth (docs/journal.md), so the room gets its hands from it, not from the
pages' views. Each input is applied to a table and its outcome handed to the one recorder of finished hands
(dealerpi/history/recorder.py). When a hand is final is the engine's to say (``HandFinal``,
engine/events.py): once it is complete and the table accepts another input that is not a tick (the next
``start``, or the ``leave`` of a table that stops dealing), no undo can reach it. Until then it is not sent.

A week of hands in a console that is never restarted: the reader keeps one table that keeps the deal before
the hand only (as the daemon's, controller.RECORDS_KEPT), and the last ``keep`` hands for the room's
``resend`` (as many as the journal folder keeps segments, a hand each: all a console restarted later could
read again anyway). ``count`` and the memo count every hand. Measured by bench/bench_console_memory.py.

Only whole lines are read (the daemon appends a line and fsyncs it; a line without its newline is still
being written). The daemon's journal is a folder of segments (dealerpi/journal/folder.py): they are read
in order, as one file would be. ``session`` names the journal: the hash of its first line, so a new
journal numbers its hands from 1 again under a new name.

The folder keeps its newest segments only (about 1000 hands). A console (re)started after segment 1 was
rotated away starts from the oldest checkpoint still there (``Table.from_snapshot``: the table before that
hand, then the hand's inputs), and ``memo`` (a small JSON file in the console's state folder, rewritten
after every final hand) gives back the session's name, its count and the last hand number sent, so the
hands go on being numbered as before and none is sent twice under a new name.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from dealerpi.engine import InputError, Outcome, Table
from dealerpi.history.phh import dumps
from dealerpi.history.recorder import FinishedHand, Recorder
from dealerpi.journal.folder import (
    CHECKPOINT,
    KEEP_SEGMENTS,
    SEGMENT,
    checkpoint_name,
    folder_for,
    load_checkpoint,
    read_new,
)

_LOGGER = logging.getLogger(__name__)


def _bounded(table: Table) -> Table:
    """A table that keeps the deal before this hand's only, as the daemon's does (controller.RECORDS_KEPT):
    the recorder has each deal from the engine's ``HandFinal``, not from the list."""
    table.records_kept = 1
    return table


@dataclass(frozen=True)
class FinalHand:
    seq: int                 # 1, 2, ... in this session: what the room counts to find a gap
    number: int              # the table's hand number (misdealt deals are numbered too, and are no hands)
    players: tuple[str, ...]
    phh: str


class FinalHands:
    """Follows one journal file; :meth:`poll` reads what was appended and returns the hands that became final."""

    keeps_inputs = False                     # each hand's inputs, from the recorder (the console's pages: True)

    def __init__(self, path: Path, memo: Path | None = None, keep: int = KEEP_SEGMENTS) -> None:
        self.path = path
        self.memo = memo
        self.keep = keep
        self._reset()

    def _reset(self) -> None:
        self.session = ""
        self.hands: deque[FinalHand] = deque(maxlen=self.keep)   # the newest hands this reader made
        self.base = 0                        # hands of the session sent before this reader began
        self.made = 0                        # hands this reader made (``hands`` keeps the last ``keep``)
        self._skip_through = 0               # hand numbers up to this one were sent before: not again
        self._offset = 0
        self._position = (0, 0)              # (segment, offset) in the daemon's journal folder
        self._table = _bounded(Table())      # every input: the engine says which hands are final
        self._recorder = Recorder(keep_inputs=self.keeps_inputs)

    @property
    def count(self) -> int:
        """How many hands the session has: what the retained state says and the room counts to."""
        return self.base + self.made

    def poll(self) -> list[FinalHand]:
        folder = folder_for(self.path)
        # the config may name the folder itself (hardware/example*.toml) or the old "journal.jsonl"
        if folder.is_dir():
            if self._position == (0, 0):
                self._begin_in(folder)
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

    def _begin_in(self, folder: Path) -> None:
        """Segment 1 rotated away: begin at the oldest good checkpoint, the session as the memo says."""
        names = [path.name for path in folder.iterdir()]
        segments = sorted(int(m.group(1)) for name in names if (m := SEGMENT.fullmatch(name)))
        if not segments or segments[0] == 1:
            return
        for number in sorted(int(m.group(1)) for name in names if (m := CHECKPOINT.fullmatch(name))):
            try:
                snapshot = load_checkpoint(folder / checkpoint_name(number)).table
                Table.from_snapshot(snapshot)            # refused here, not half-way through the feed below
                base = Table.from_snapshot({**snapshot, "inputs": []})
            except (ValueError, InputError) as exc:
                _LOGGER.warning("%s: checkpoint %d: %s", folder, number, exc)
                continue
            memo = self._read_memo(folder)
            self._table = _bounded(base)
            for entry in snapshot.get("inputs", []):
                self._feed(dict(entry))      # from the hand's start: nothing before it is open (Table.snapshot)
            self._position = (number, 0)
            named = f"c{number}-{hashlib.sha256(repr(snapshot).encode()).hexdigest()[:9]}"   # no memo: a new name
            self.session = str(memo.get("session") or named)
            self.base, self._skip_through = int(memo.get("count", 0)), int(memo.get("number", 0))
            _LOGGER.info("%s: segment 1 is gone: hands from checkpoint %d on, after hand %d", folder, number,
                         self._skip_through)
            return

    def _read_memo(self, folder: Path) -> dict[str, Any]:
        try:
            memo = json.loads(self.memo.read_text(encoding="utf-8")) if self.memo is not None else {}
        except (OSError, ValueError):
            return {}
        return memo if isinstance(memo, dict) and memo.get("journal") == str(folder) else {}

    def _write_memo(self) -> None:
        if self.memo is None or not self.hands:
            return
        memo = {"journal": str(folder_for(self.path)), "session": self.session, "count": self.count,
                "number": self.hands[-1].number}
        temporary = self.memo.with_name(self.memo.name + ".tmp")
        temporary.write_text(json.dumps(memo), encoding="utf-8")
        os.replace(temporary, self.memo)

    def _feed(self, entry: dict[str, Any]) -> list[FinalHand]:
        self._applying(entry)
        outcome = self._table.apply(entry)
        finished = self._recorder.note(entry, outcome)
        self._applied(entry, outcome, finished)
        new = []
        for hand in finished:
            if hand.phh is None or hand.number <= self._skip_through:
                continue                 # a misdealt deal, a hand PHH cannot write, or sent before (the memo)
            final = FinalHand(self.count + 1, hand.number, tuple(hand.phh.players or ()), dumps(hand.phh))
            self.hands.append(final)
            self.made += 1
            new.append(final)
        if new:
            self._write_memo()
        return new

    def _applying(self, entry: dict[str, Any]) -> None:
        """Before ``entry`` is applied (a subclass looks at the table: the console's hand histories)."""

    def _applied(self, entry: dict[str, Any], outcome: Outcome, finished: list[FinishedHand]) -> None:
        """After: the outcome and the deals it made final (the console's hand histories)."""
