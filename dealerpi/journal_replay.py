"""Replaying a table journal (one JSON input per line) through the table: ``dealerpi replay --journal FILE``.

The replay is the same fold the daemon does at start-up, so what it prints is exactly the table the daemon
would rebuild. This module reads the file; the table itself never touches files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any

from dealerpi.engine.table import Table


def replay_lines(lines: Iterable[str]) -> tuple[Table, list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply every line; return the table, the rejected inputs and the alerts, each with its line number."""
    table = Table()
    rejected: list[dict[str, Any]] = []
    alerts: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            entry = json.loads(text)
        except json.JSONDecodeError as error:
            rejected.append({"line": number, "reason": f"not JSON: {error.msg} at column {error.colno}"})
            continue
        outcome = table.apply(entry)
        if not outcome.accepted:
            rejected.append({"line": number, "reason": outcome.reason})
        alerts += [{"line": number, "rule": a.rule, "message": a.message} for a in outcome.alerts]
    return table, rejected, alerts


def summary(table: Table, rejected: list[dict[str, Any]], alerts: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay's JSON object (docs/journal.md)."""
    seats: dict[str, dict[str, Any]] = {}
    for seat, info in sorted(table.seats.items()):
        stack = info.stack
        if table.hand is not None and table.plan is not None and seat in table.plan.order \
                and table.hand.phase.value != "complete":
            stack = table.hand.stacks[table.plan.order.index(seat)]
        seats[str(seat)] = {"player": info.player, "stack": stack}
    hands = [record.as_json() for record in table.records]
    if table.record is not None:
        hands.append(table.record.as_json())
    button = table.lineup.button if table.plan is None else table.plan.button
    result: dict[str, Any] = {"seats": seats, "button": button, "hands": hands, "rejected": rejected,
                              "alerts": alerts, "next": table.expectation().as_json()}
    if table.levels is not None:
        result["level"] = table.levels.describe()
    if table.standings is not None:
        result["tournament"] = {"pool": table.standings.pool, "remaining": table.standings.remaining,
                                "places": [{"player": f.player, "place": f.place, "prize": f.prize}
                                           for f in table.standings.results()]}
    return result


def _text(result: dict[str, Any]) -> str:
    lines = [f"button: seat {result['button']}"]
    lines += [f"seat {seat}: {info['player']} {info['stack']}" for seat, info in result["seats"].items()]
    for hand in result["hands"]:
        head = f"hand {hand['number']} (button seat {hand['button']})" + (" MISDEAL" if hand["misdeal"] else "")
        lines.append(head)
        for board in hand["boards"]:
            lines.append("  board " + " ".join(board))
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
    parser.add_argument("--journal", required=True, help="a journal file, one JSON input per line")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        with open(args.journal, encoding="utf-8") as handle:
            table, rejected, alerts = replay_lines(handle)
    except OSError as error:
        print(f"dealerpi replay: cannot read {args.journal}: {error.strerror}", file=sys.stderr)
        return 2
    result = summary(table, rejected, alerts)
    print(json.dumps(result, indent=2) if args.json else _text(result))
    return 0
