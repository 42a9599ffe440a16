"""Replaying a table journal (one JSON input per line) through the table: ``dealerpi replay --journal FILE``.

The replay is the same fold the daemon does at start-up, so what it prints is exactly the table the daemon
would rebuild. The file is read by the daemon's own reader (``dealerpi.journal.file.read``): a file the daemon
refuses to start from is refused here with the same message naming the file and line, and a torn last line
is dropped as the daemon drops it. This module reads the file; the table itself never touches files.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dealerpi.engine.table import Table
from dealerpi.journal.file import JournalError, read
from dealerpi.journal.folder import checkpoint_name, read_folder
from dealerpi.wire.inputs import WireError, shoe_read


def replay_lines(lines: Iterable[str]) -> tuple[Table, list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply every line (tests write journals as text); a line that is not a JSON object is rejected."""
    entries: list[Mapping[str, Any] | str] = []
    for line in lines:
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError as error:
            entries.append(f"not JSON: {error.msg} at column {error.colno}")
    return replay_entries(entries)


def replay_entries(entries: Iterable[Mapping[str, Any] | str], start: Table | None = None) -> tuple[
        Table, list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply every input in order (line N is the N-th) to ``start`` (or an empty table); return the table,
    the rejected inputs and the alerts, each with its line number. A string stands for a line that could not
    be read, and is its reason."""
    table = start if start is not None else Table()
    rejected: list[dict[str, Any]] = []
    alerts: list[dict[str, Any]] = []
    for number, entry in enumerate(entries, start=1):
        if isinstance(entry, str):
            rejected.append({"line": number, "reason": entry})
            continue
        outcome = table.apply(entry)
        if not outcome.accepted:
            rejected.append({"line": number, "reason": outcome.reason})
        alerts += [{"line": number, "rule": a.rule, "message": a.message} for a in outcome.alerts]
        try:
            shoe_read(entry)          # what start-up says of a shoe identity the shoe link did not write
        except WireError as error:
            alerts.append({"line": number, "rule": "SHOE", "message": str(error)})
    return table, rejected, alerts


def summary(table: Table, rejected: list[dict[str, Any]], alerts: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay's JSON object (docs/journal.md)."""
    seats: dict[str, dict[str, Any]] = {}
    for seat in sorted(table.seats):
        now = table.seat(seat)                         # stacks as they are now, during a hand too
        seats[str(seat)] = {"player": now.player, "stack": now.stack}
    hands = [record.as_json() for record in table.records]
    if table.record is not None:
        hands.append(table.record.as_json())
    result: dict[str, Any] = {"seats": seats, "button": table.button(), "hands": hands, "rejected": rejected,
                              "alerts": alerts, "next": table.expectation().as_json()}
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
    start: Table | None = None
    try:
        if path.is_dir():                 # the daemon's journal folder: its segments in order
            found = read_folder(path, Table.from_snapshot)
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
    result = summary(*replay_entries(entries, start))
    print(json.dumps(result, indent=2) if args.json else _text(result))
    return 0
