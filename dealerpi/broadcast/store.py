"""The broadcast's own state folder: the session and its inputs with their times, kept for the delay.

Hole cards are on this disk, so the folder is 0700 and its files 0600 (the unit's StateDirectoryMode and
UMask say the same). ``session.json`` says the delay the session was started with, when its first hand
started (the auto delay counts from there) and the table it starts from (a :meth:`Table.snapshot`, the
journal position and the time); ``events.jsonl`` has one line per input the table accepted after it:
``{"entry", "position", "ms"}``, the time being the table's own (the daemon's wall clock when it applied
the input). A restart of the broadcast process reads both, so the delayed hour is there again with the
pace it was played at; what came while it was down is read from the table's journal
(:mod:`dealerpi.broadcast.catch_up`).

The session is rewritten (:meth:`Store.compact`) once its start lies more than the delay plus a hand in the
past, so the files hold the delayed window and the hand before it, not the evening.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealerpi.webkit.pairing import write_private

VERSION = 1


@dataclass
class Stamped:
    """One accepted input, where the journal ended after it, and when the table applied it (ms, wall)."""

    entry: dict[str, Any]
    position: list[int] | None
    ms: int

    def as_json(self) -> dict[str, Any]:
        return {"entry": self.entry, "position": self.position, "ms": self.ms}


@dataclass
class Session:
    delay_ms: int
    base: dict[str, Any]              # {"snapshot", "position", "ms"}: the table the session starts from
    first_hand_ms: int | None = None
    floor_ms: int | None = None       # the dynamic delay's least delay (None: no skip)
    skipped_ms: int = 0               # the breaks' dead air skipped so far: the delay now is delay_ms less this

    def as_json(self) -> dict[str, Any]:
        return {"version": VERSION, "delay_ms": self.delay_ms, "base": self.base, "first_hand_ms": self.first_hand_ms,
                "floor_ms": self.floor_ms, "skipped_ms": self.skipped_ms}


class StoreError(ValueError):
    """A damaged state file: the message names it."""


class Store:
    """See the module docstring."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)
        self.session_path = folder / "session.json"
        self.events_path = folder / "events.jsonl"

    def load(self) -> tuple[Session, list[Stamped]] | None:
        """The stored session and its inputs; None when there is none. A damaged file is a StoreError naming
        it and the line (a torn last line, cut by a power loss, is dropped: the journal still has it)."""
        try:
            data = json.loads(self.session_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except ValueError as exc:
            raise StoreError(f"{self.session_path}: not JSON ({exc}); delete the folder's files to start a "
                             "new session (the delayed feed then waits a full delay again)") from None
        try:
            if data["version"] != VERSION:
                return None
            floor = data.get("floor_ms")
            session = Session(int(data["delay_ms"]), dict(data["base"]), data.get("first_hand_ms"),
                              None if floor is None else int(floor), int(data.get("skipped_ms", 0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"{self.session_path}: bad key {exc}") from None
        events: list[Stamped] = []
        try:
            lines = self.events_path.read_bytes().split(b"\n")
        except FileNotFoundError:
            lines = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                events.append(Stamped(dict(item["entry"]), item["position"], int(item["ms"])))
            except (ValueError, KeyError, TypeError) as exc:
                if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                    break            # the last line, cut short: the journal still has that input
                raise StoreError(f"{self.events_path}: line {number} is damaged ({exc})") from None
        return session, events

    def start(self, session: Session, events: Sequence[Stamped] = ()) -> None:
        """A new session (or the same one compacted): both files replaced."""
        write_private(self.events_path, "".join(json.dumps(e.as_json()) + "\n" for e in events))
        write_private(self.session_path, json.dumps(session.as_json()))

    def save_session(self, session: Session) -> None:
        write_private(self.session_path, json.dumps(session.as_json()))

    def append(self, stamped: Stamped) -> None:
        fd = os.open(self.events_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, (json.dumps(stamped.as_json()) + "\n").encode())
            os.fdatasync(fd)
        finally:
            os.close(fd)

    def drop(self) -> None:
        """Forget the session: the hole cards it kept are gone from this disk."""
        for path in (self.events_path, self.session_path):
            path.unlink(missing_ok=True)
