"""``dealerpi replay PATH...``: replay PHH hand histories through the engine and compare the results.

Prints one line per hand that did not replay cleanly (mismatch, invalid) and a summary; ``--json`` prints
one JSON object instead. Exit status 0 only if no hand mismatched and every file could be read.
``dealerpi replay --journal FILE`` replays a table journal instead (dealerpi.journal_replay).
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dealerpi.history.phh import Amount, HandRecord, PHHError, find_files, load_file
from dealerpi.history.replay import ReplayResult, Status, replay

_LOGGER = logging.getLogger(__name__)

FAILING = (Status.MISMATCH, Status.INVALID)
"""Statuses that make the exit status 1."""


def main(argv: list[str]) -> int:
    if "--journal" in argv or any(arg.startswith("--journal=") for arg in argv):
        journal_main: Callable[[list[str]], int] = importlib.import_module(
            "dealerpi.journal_replay").main
        return journal_main(argv)
    parser = argparse.ArgumentParser(
        prog="dealerpi replay", description="Replay PHH hand histories through the engine and compare the results.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".phh or .phhs files, or folders of them")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every hand")
    parser.add_argument("--journal", metavar="FILE", help="replay a table journal instead")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    results, unreadable = replay_paths(args.paths)
    seconds = time.perf_counter() - started
    summary = _summary(results, unreadable, seconds)
    if args.json:
        print(json.dumps({"hands": [_hand_json(r) for r in results], "unreadable": unreadable,
                          "summary": summary}, indent=1))
    else:
        for failure in unreadable:
            print(f"{failure['file']}: invalid: {failure['reason']}")
        for result in results:
            if result.status in FAILING:
                print(f"{result.record.name}: {result.status.value}: {result.reason}")
        counts = ", ".join(f"{count} {status}" for status, count in summary["statuses"].items())
        print(f"{summary['hands']} hands: {counts or 'none'}; {len(unreadable)} unreadable files; "
              f"{seconds:.2f} s, {summary['hands_per_second']:.0f} hands/s (reading included)")
    failed = unreadable or any(r.status in FAILING for r in results)
    return 1 if failed else 0


def replay_paths(paths: Sequence[str | Path]) -> tuple[list[ReplayResult], list[dict[str, str]]]:
    """Replay every hand under the paths; files that cannot be read are listed with the reason."""
    results: list[ReplayResult] = []
    unreadable: list[dict[str, str]] = []
    for path in paths:
        try:
            files = find_files(path)
        except PHHError as exc:
            unreadable.append({"file": str(path), "reason": str(exc)})
            continue
        for file in files:
            try:
                records: list[HandRecord] = load_file(file)
            except PHHError as exc:
                unreadable.append({"file": str(file), "reason": str(exc)})
                continue
            results += [replay(record) for record in records]
    return results, unreadable


def _summary(results: list[ReplayResult], unreadable: list[dict[str, str]], seconds: float) -> dict[str, Any]:
    counts = Counter(r.status.value for r in results)
    ordered = {s.value: counts[s.value] for s in Status if counts[s.value]}
    return {"hands": len(results), "statuses": ordered, "unreadable_files": len(unreadable),
            "seconds": round(seconds, 3), "hands_per_second": len(results) / seconds if seconds else 0.0}


def _hand_json(result: ReplayResult) -> dict[str, Any]:
    record = result.record
    out: dict[str, Any] = {
        "file": record.source, "index": record.index, "variant": record.variant, "status": result.status.value,
        "finishing_stacks": _amounts(result.finishing_stacks), "recorded": _amounts(result.recorded),
    }
    if result.reason:
        out["reason"] = result.reason
    return out


def _amounts(values: Sequence[Amount] | None) -> list[int | float] | None:
    if values is None:
        return None
    return [int(v) if isinstance(v, int) or v == v.to_integral_value() else float(v) for v in values]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

