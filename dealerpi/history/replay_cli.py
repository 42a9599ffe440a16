"""``dealerpi replay PATH...``: replay PHH hand histories through the engine and compare the results.

Prints one line per hand that did not replay cleanly (mismatch, invalid) and per file that could not be read,
then a summary; ``--json`` prints one JSON object instead. Both are printed as the hands are replayed
(dealerpi.history.replay_jobs, on every core unless ``--jobs`` says otherwise), so a corpus of any size takes
the same memory. Exit status 0 only if no hand mismatched and every file could be read.
``dealerpi replay --journal FILE`` replays a table journal instead (dealerpi.history.journal_replay).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from dealerpi.history.replay import Status
from dealerpi.history.replay_jobs import FileReport, default_jobs, replay_stream

FAILING = (Status.MISMATCH.value, Status.INVALID.value)
"""Statuses that make the exit status 1."""


class _Tally:
    """What the summary needs; everything else is printed and forgotten."""

    def __init__(self) -> None:
        self.statuses: Counter[str] = Counter()
        self.unreadable: list[dict[str, str]] = []
        self.started = time.perf_counter()

    def add(self, report: FileReport) -> None:
        if report.unreadable is not None:
            self.unreadable.append({"file": report.file, "reason": report.unreadable})
        self.statuses.update(hand.status for hand in report.hands)

    def failed(self) -> bool:
        return bool(self.unreadable) or any(self.statuses[status] for status in FAILING)

    def summary(self) -> dict[str, Any]:
        seconds = time.perf_counter() - self.started
        hands = self.statuses.total()
        return {"hands": hands, "statuses": {s.value: self.statuses[s.value] for s in Status if self.statuses[s.value]},
                "unreadable_files": len(self.unreadable), "seconds": round(seconds, 3),
                "hands_per_second": hands / seconds if seconds else 0.0}


def main(argv: list[str]) -> int:
    if "--journal" in argv or any(arg.startswith("--journal=") for arg in argv):
        journal_main: Callable[[list[str]], int] = importlib.import_module(
            "dealerpi.history.journal_replay").main
        return journal_main(argv)
    parser = argparse.ArgumentParser(
        prog="dealerpi replay", description="Replay PHH hand histories through the engine and compare the results.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".phh or .phhs files, or folders of them")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every hand")
    parser.add_argument("--jobs", type=_jobs, default=default_jobs(), metavar="N",
                        help="processes replaying at once (default: every core, here %(default)s)")
    parser.add_argument("--journal", metavar="FILE", help="replay a table journal instead")
    args = parser.parse_args(argv)

    tally = _Tally()
    reports = replay_stream(args.paths, jobs=args.jobs, with_json=args.json)
    try:
        (_print_json if args.json else _print_text)(reports, tally, sys.stdout)
        sys.stdout.flush()      # here, where a closed pipe is caught, rather than at exit
    except BrokenPipeError:     # the reader stopped (| head): not an error to show, but the job is not done
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # Python's docs on SIGPIPE
        return 1
    return 1 if tally.failed() else 0


def _print_text(reports: Iterable[FileReport], tally: _Tally, out: TextIO) -> None:
    for report in reports:
        tally.add(report)
        if report.unreadable is not None:
            out.write(f"{report.file}: invalid: {report.unreadable}\n")
        for hand in report.hands:
            if hand.status in FAILING:
                out.write(f"{hand.name}: {hand.status}: {hand.reason}\n")
    summary = tally.summary()
    counts = ", ".join(f"{count} {status}" for status, count in summary["statuses"].items())
    out.write(f"{summary['hands']} hands: {counts or 'none'}; {summary['unreadable_files']} unreadable files; "
              f"{summary['seconds']:.2f} s, {summary['hands_per_second']:.0f} hands/s (reading included)\n")


def _print_json(reports: Iterable[FileReport], tally: _Tally, out: TextIO) -> None:
    """``{"hands": [...], "unreadable": [...], "summary": {...}}``, laid out as ``json.dumps(indent=1)`` would,
    one hand at a time."""
    out.write('{\n "hands": [')
    first = True
    for report in reports:
        tally.add(report)
        for hand in report.hands:
            out.write(("\n  " if first else ",\n  ") + _nested(hand.json, 2))
            first = False
    out.write("]" if first else "\n ]")
    out.write(f',\n "unreadable": {_nested(tally.unreadable, 1)},\n "summary": {_nested(tally.summary(), 1)}\n}}\n')


def _nested(value: object, depth: int) -> str:
    return json.dumps(value, indent=1).replace("\n", "\n" + " " * depth)


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"--jobs takes a whole number of processes, at least 1 (got {text!r})")
    return jobs


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
