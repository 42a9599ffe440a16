"""Replay the first HANDS timed hands of a corpus REPEATS times, for counting instructions per replayed hand
with cachegrind (steady where this VM's clock is not; docs/replay.md, "Speed"):

    for r in 1 3; do valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/replay_instructions.py ../shared/phh --hands 600 --repeats $r; done

Instructions per hand = (I refs with 3 repeats - I refs with 1) / (2 * 600): start-up, imports and reading
cancel out. The hands are those bench_replay.py times (the engine's variants, no negative blind), taken from
the files in sorted path order; the action-string cache is cleared before every repeat, as there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from dealerpi.history.phh import HandRecord, clear_parse_cache, load_path
from dealerpi.history.replay import VARIANTS, replay


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args(argv)
    records: list[HandRecord] = []
    for file in sorted(Path(args.path).rglob("*.phh")):
        records += (r for r in load_path(str(file))
                    if r.variant in VARIANTS and not any(b < 0 for b in r.blinds_or_straddles))
        if len(records) >= args.hands:
            break
    records = records[:args.hands]
    for _ in range(args.repeats):
        clear_parse_cache()
        for record in records:
            replay(record)
    print(f"{len(records)} hands replayed {args.repeats} time(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
