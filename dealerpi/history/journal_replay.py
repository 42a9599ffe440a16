"""Replaying a table journal (one JSON input per line) through the table: ``dealerpi replay --journal FILE``.

The replay is the same fold the daemon does at start-up, so what it prints is exactly the table the daemon
would rebuild. The file is read by the daemon's own reader (``dealerpi.journal.file.read``): a file the daemon
refuses to start from is refused here with the same message naming the file and line, and a torn last line
is dropped as the daemon drops it. This module reads the file; the table itself never touches files.

The hands it lists are the one recorder's (dealerpi/history/recorder.py: the deals the engine says are final,
as the room's bridge and the console's pages get them), then the deals an undo may still change
(``Table.open_deals``) and the one in play: every deal, in order, without a second rule for which are final.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealerpi.engine import DealRecord, Outcome, Table
from dealerpi.history.recorder import Recorder
from dealerpi.journal.file import JournalError, read
from dealerpi.journal.folder import checkpoint_name, read_folder
from dealerpi.wire.inputs import WireError, shoe_read


@dataclass
class Replayed:
    """The fold of a journal: the table, the lines refused and the alerts (each with its line number), and
    the deals the recorder was told are final, in order."""

    table: Table
    rejected: list[dict[str, Any]] = field(default_factory=list)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    final: list[DealRecord] = field(default_factory=list)
    recorder: Recorder = field(default_factory=Recorder, repr=False)

    def apply(self, entry: Mapping[str, Any]) -> Outcome:
        """Apply one input and record the deals it made final."""
        outcome = self.table.apply(entry)
        if outcome.events:
            self.final += [hand.record for hand in self.recorder.note(entry, outcome)]
        return outcome

    @property
    def hands(self) -> list[DealRecord]:
        """Every deal: the final ones, those an undo may still change, and the one in play."""
        playing = self.table.record
        return [*self.final, *self.table.open_deals, *([playing] if playing is not None else [])]


def from_checkpoint(snapshot: dict[str, Any]) -> Replayed:
    """The replay from a checkpoint (``Table.from_snapshot``'s document): the table before its hand, then
    the hand's inputs through the recorder, so that its deals are listed as one file's replay lists them;
    ``InputError`` (a ``ValueError``) when the checkpoint is bad, as ``Table.from_snapshot`` says it."""
    Table.from_snapshot(snapshot)                 # refused here, with its reason, not half-way through below
    replayed = Replayed(Table.from_snapshot({**snapshot, "inputs": []}))
    for entry in snapshot["inputs"]:
        replayed.apply(entry)
    return replayed


def replay_entries(entries: Iterable[Mapping[str, Any] | str], start: Replayed | None = None) -> Replayed:
    """Apply every input in order (line N is the N-th) to ``start`` (or an empty table); a string stands for
    a line that could not be read, and is its reason."""
    replayed = start if start is not None else Replayed(Table())
    rejected, alerts = replayed.rejected, replayed.alerts
    for number, entry in enumerate(entries, start=1):
        if isinstance(entry, str):
            rejected.append({"line": number, "reason": entry})
            continue
        outcome = replayed.apply(entry)
        if not outcome.accepted:
            rejected.append({"line": number, "reason": outcome.reason})
        alerts += [{"line": number, "rule": a.rule, "message": a.message} for a in outcome.alerts]
        try:
            shoe_read(entry)          # what start-up says of a shoe identity the shoe link did not write
        except WireError as error:
            alerts.append({"line": number, "rule": "SHOE", "message": str(error)})
    return replayed


def summary(replayed: Replayed) -> dict[str, Any]:
    """The replay's JSON object (docs/journal.md)."""
    table = replayed.table
    seats: dict[str, dict[str, Any]] = {}
    for seat in sorted(table.seats):
        now = table.seat(seat)                         # stacks as they are now, during a hand too
        seats[str(seat)] = {"player": now.player, "stack": now.stack}
    hands = [record.as_json() for record in replayed.hands]
    result: dict[str, Any] = {"seats": seats, "button": table.button(), "hands": hands,
                              "rejected": replayed.rejected, "alerts": replayed.alerts,
                              "next": table.expectation().as_json()}
    if table.levels is not None:
        result["level"] = table.levels.describe()
    if table.standings is not None:
        result["tournament"] = {"pool": table.standings.pool, "remaining": table.standings.remaining,
                                "places": [{"player": f.player, "place": f.place, "prize": f.prize}
                                           for f in table.standings.results()]}
    return result


def _text(result: dict[str, Any]) -> str:
    button = result["button"]
    lines = [f"button: seat {button}" if button is not None else "button: not yet placed"]
    lines += [f"seat {seat}: {info['player']} {info['stack']}" for seat, info in result["seats"].items()]
    for hand in result["hands"]:
        head = f"hand {hand['number']} (button seat {hand['button']})" + (" MISDEAL" if hand["misdeal"] else "")
        lines.append(head)
        lines += ["  board " + " ".join(board) for board in hand["boards"] if board]   # none before the flop
        for pot in hand["pots"]:
            won = ", ".join(f"seat {s} {c}" for s, c in pot["won"].items())
            lines.append(f"  pot {pot['amount']} (seats {pot['eligible']}): {won}")
        lines += [f"  {a['rule']}: {a['message']}" for a in hand["irregularities"]]
    lines += [f"line {r['line']} rejected: {r['reason']}" for r in result["rejected"]]
    lines += [f"line {a['line']} {a['rule']}: {a['message']}" for a in result["alerts"]]
    lines.append("next: " + json.dumps(result["next"]))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dealerpi replay --journal")
    parser.add_argument("--journal", required=True,
                        help="a journal file (one JSON input per line) or the daemon's journal folder")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s: %(message)s")
    path = Path(args.journal)
    start: Replayed | None = None
    try:
        if path.is_dir():                 # the daemon's journal folder: its segments in order
            found = read_folder(path, from_checkpoint)
            start, entries = found.table, found.entries
            if found.checkpoint is not None:
                print(f"dealerpi replay: the first segments were rotated away; from checkpoint "
                      f"{checkpoint_name(found.checkpoint)}", file=sys.stderr)
        elif not path.is_file():
            raise FileNotFoundError(2, "No such file or directory")
        else:
            entries, _good = read(path)   # the daemon's reader: it refuses what the daemon refuses
    except OSError as error:
        print(f"dealerpi replay: cannot read {path}: {error.strerror or error}", file=sys.stderr)
        return 2
    except JournalError as error:
        print(f"dealerpi replay: {error}; the daemon would not start from this journal", file=sys.stderr)
        return 2
    result = summary(replay_entries(entries, start))
    print(json.dumps(result, indent=2) if args.json else _text(result))
    return 0
