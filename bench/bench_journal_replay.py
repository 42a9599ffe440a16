"""``dealerpi replay --journal`` over an evening's journal: this tree against another, in one run.

    git archive <commit> dealerpi | tar -x -C /tmp/before
    .venv/bin/python bench/bench_journal_replay.py --before /tmp/before [--hands 1200] [--repeats 5]

bench_latency's 10-seat table plays ``--hands`` hands into a journal as the daemon writes it, as one file and
as the daemon's folder (a segment and a checkpoint per hand; beyond 1000 hands the first segments are
rotated away, so the folder's replay begins at a checkpoint). Each tree then replays both in its own fresh
process (``PYTHONPATH`` the tree), taking turns ``--repeats`` times; each process times
``dealerpi.history.journal_replay.main(["--journal", PATH, "--json"])`` in-process (reading, the fold, the JSON
printed to /dev/null: the command's own work, not the interpreter's start-up) and the fastest run of each
side is kept, because this VM is shared and its speed drifts. Printed: the seconds and the ratio
this tree / the other (goal <= 1.0: the replay no slower than before, issue 22). The two trees' outputs must
be equal, or the bench says so and fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.config import load  # noqa: E402

TIMED = """
import contextlib, hashlib, io, sys, time
try:
    from dealerpi.history.journal_replay import main
except ImportError:                      # a tree from before issue 22's package move
    from dealerpi.journal_replay import main
out = io.StringIO()
started = time.perf_counter()
with contextlib.redirect_stdout(out):
    status = main(["--journal", sys.argv[1], "--json"])
elapsed = time.perf_counter() - started
print(elapsed, status, hashlib.sha256(out.getvalue().encode()).hexdigest()[:16])
"""


def timed(tree: Path, journal: Path) -> tuple[float, str]:
    """One fresh process of ``tree``: the seconds the replay took and a hash of what it printed."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", TIMED, str(journal)], env=env, capture_output=True, text=True,
                          check=True, cwd=tree)
    seconds, status, digest = done.stdout.split()
    if status != "0":
        raise SystemExit(f"{tree}: replay --journal {journal} exited {status}: {done.stderr}")
    return float(seconds), digest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the other tree (holding dealerpi/)")
    parser.add_argument("--hands", type=int, default=1200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        config_path = bench_latency.write_config(Path(folder))
        single = Path(folder) / "journal.jsonl"
        inputs = bench_latency.write_history(config_path, args.hands, single=single)
        journals = {"one file": single, "folder": load(config_path).journal}
        print(f"{args.hands} hands, {inputs} inputs; fastest of {args.repeats} runs each, taking turns")
        for name, journal in journals.items():
            best = {"before": float("inf"), "this tree": float("inf")}
            digests: dict[str, set[str]] = {"before": set(), "this tree": set()}
            for _ in range(args.repeats):
                for side, tree in (("before", args.before), ("this tree", ROOT)):
                    seconds, digest = timed(tree, journal)
                    best[side] = min(best[side], seconds)
                    digests[side].add(digest)
            same = digests["before"] == digests["this tree"] and len(digests["before"]) == 1
            failed |= not same
            print(f"{name:>9}: before {best['before']:.3f} s, this tree {best['this tree']:.3f} s, "
                  f"ratio {best['this tree'] / best['before']:.3f}; output {'equal' if same else 'DIFFERS'}")
    print(f"before: {args.before}; this tree: {ROOT}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
