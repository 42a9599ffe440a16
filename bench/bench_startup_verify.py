"""What start-up's check of the journal folder costs after a week of hands (issue 23, item 7b).

    .venv/bin/python bench/bench_startup_verify.py [--week 1260] [--runs 5]

bench_latency's 10-seat table plays 10 hands and a week of hands (7 evenings x 6 h x 30 hands an hour =
1,260 by default) into journal folders as the daemon writes them (a segment and a bound checkpoint per hand;
rotation keeps the last 1,000, the default ``[journal_keep]``). For each it times, median of ``--runs``:

- ``verify``: journal_verify.verify alone (every kept segment hashed against its successor's record, every
  checkpoint's record read), and the bytes it reads;
- ``open``: the daemon's whole ``open_journal`` (the check, the replay of the segment before the newest
  checkpoint to compare tables, the newest checkpoint rebuilt, the live segment read).

Goal (docs/journal.md): the week's start-up check well under the second of READY's budget.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.config import load  # noqa: E402
from dealerpi.journal.folder import folder_for, segments_of  # noqa: E402
from dealerpi.journal.verify import verify  # noqa: E402
from dealerpi.table.daemon import open_journal  # noqa: E402


def measure(config_path: Path, runs: int) -> dict[str, float]:
    config = load(config_path)
    folder = folder_for(config.journal)
    numbers = segments_of(folder)
    size = sum(p.stat().st_size for p in folder.iterdir())
    verify_times, open_times = [], []
    for _ in range(runs):
        start = time.perf_counter()
        findings = verify(folder, numbers)
        verify_times.append(time.perf_counter() - start)
        assert not findings.segments and not findings.checkpoints, findings
        start = time.perf_counter()
        journal, recovered, _ = open_journal(config)
        open_times.append(time.perf_counter() - start)
        journal.close()
        assert recovered.checkpoint == numbers[-1] and not recovered.damage, (recovered.checkpoint, recovered.notes)
    return {"segments": len(numbers), "mib": size / (1 << 20), "verify_ms": statistics.median(verify_times) * 1000,
            "open_ms": statistics.median(open_times) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--week", type=int, default=1260)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as top:
        for hands in (10, args.week):
            config_path = bench_latency.write_config(Path(top) / str(hands))
            bench_latency.write_history(config_path, hands)
            results[hands] = measure(config_path, args.runs)
    for hands, r in results.items():
        print(f"{hands:5d} hands: {r['segments']} segments kept ({r['mib']:.1f} MiB with checkpoints); "
              f"verify {r['verify_ms']:.1f} ms, open_journal {r['open_ms']:.1f} ms")
    small, week = results[10], results[args.week]
    print(f"week / 10 hands: verify x{week['verify_ms'] / small['verify_ms']:.1f}, "
          f"open_journal x{week['open_ms'] / small['open_ms']:.1f}; the check is "
          f"{week['verify_ms'] / week['open_ms']:.0%} of the week's open_journal")


if __name__ == "__main__":
    main()
