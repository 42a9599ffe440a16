"""The whole replay job, as a researcher runs it: ``dealerpi replay DIR`` against PokerKit's load-and-replay.

Goal: ours at least 10 times PokerKit on this 2-core machine, and peak memory flat in the number of hands.
Run from the repository:

    .venv/bin/python bench/bench_replay_job.py [PATH] [--repeats 3] [--copies 4]

PATH defaults to ../shared/phh beside the repository. Each side is one fresh process timed from outside, from
start to exit: interpreter start-up, imports, listing and reading the files, replaying, and the output.

- Ours: ``python -m dealerpi replay PATH`` (every core: ``--jobs`` left to its default), and with ``--jobs 1``
  for the single-process figure.
- PokerKit: this file with ``--pokerkit PATH``: every file loaded with ``HandHistory.load`` (``load_all`` for
  a ``.phhs``), and every hand of a variant the engine plays replayed with ``for state in history`` (the
  hands bench_replay.py times; the few others, stud and draw, are loaded but not replayed). PokerKit has no
  parallel replay of its own.

The two sides take turns, ``--repeats`` times, and each keeps its fastest run (this VM's speed drifts).

Bytecode: before timing, our package is compiled to ``__pycache__`` (``compileall``), as ``pip install``
compiles every installed package, PokerKit's included (its site-packages folder holds the ``.pyc`` files).
Without it, an editable checkout run with ``PYTHONDONTWRITEBYTECODE`` set (as this VM's sessions set it)
compiles our modules again at every start, about 25 ms that no installed user pays.

This VM is shared: when other work keeps more processes running than there are cores, wall times measure the
queue as much as the replay. So the bench also prints each side's CPU seconds (user + system, of its whole
process tree), the load average, and the wall time on free cores worked out from each process's CPU time
(sampled from /proc every 10 ms): the main process runs alone until its first worker appears (start-up,
imports, the first files listed); from then on it and the workers share the cores, and the busiest worker
cannot finish sooner than its own CPU time.

Memory: ours is run on the corpus copied once (N hands) and ``--copies`` times (about 4N hands) into a
temporary folder; printed are the peak of the process tree's summed RSS (sampled) and the largest single
process's peak RSS (``wait4``). The status counts of the copies must be the copies times those of one.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

DEFAULT_PATH = Path(__file__).resolve().parent.parent.parent / "shared" / "phh"
SUMMARY = re.compile(r"^(\d+) hands: (.*); (\d+) unreadable files;", re.MULTILINE)


def pokerkit_job(path: str) -> None:
    """The PokerKit side, run in its own process (imports included in its time, as in ours)."""
    from pokerkit import HandHistory

    from dealerpi.history.replay import VARIANTS

    warnings.simplefilter("ignore")            # PokerKit warns about PHH fields it does not know
    hands = replayed = refused = 0
    for file in sorted(p for p in Path(path).rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file()):
        with file.open("rb") as fp:
            histories = list(HandHistory.load_all(fp)) if file.suffix == ".phhs" else [HandHistory.load(fp)]
        for history in histories:
            hands += 1
            if history.variant not in VARIANTS or any(b < 0 for b in history.blinds_or_straddles or ()):
                continue
            try:
                for _state in history:
                    pass
                replayed += 1
            except ValueError:
                refused += 1
    print(f"{hands} hands loaded, {replayed} replayed, {refused} refused")


class Run:
    """One timed process: wall time, output, peak RSS of its tree (sampled) and of its largest process."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.tree_peak_kb = 0
        self.ticks: dict[int, int] = {}            # CPU clock ticks of each process of the tree, as last seen
        self.root = 0
        self.root_ticks_at_fork: int | None = None  # the main process's ticks when its first worker appeared
        started = time.perf_counter()
        with tempfile.TemporaryFile("w+") as errors:
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, text=True)
            done = threading.Event()
            self.root = proc.pid
            sampler = threading.Thread(target=self._sample, args=(proc.pid, done))
            sampler.start()
            assert proc.stdout is not None
            self.out = proc.stdout.read()          # to the end; the child stays a zombie until...
            _, status, usage = os.wait4(proc.pid, 0)   # ...this reaps it, with the rusage of its whole tree
            self.seconds = time.perf_counter() - started
            done.set()
            sampler.join()
            proc.stdout.close()
            proc.returncode = os.waitstatus_to_exitcode(status)
            self.max_process_kb = usage.ru_maxrss  # Linux: KB; the largest of the process and its children
            self.cpu_seconds = usage.ru_utime + usage.ru_stime    # the whole tree's, workers included
            if proc.returncode not in (0, 1):      # 1: some hand mismatched, a result like any other
                errors.seek(0)
                raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{errors.read()}")

    def _sample(self, pid: int, done: threading.Event) -> None:
        while not done.wait(0.01):
            self.tree_peak_kb = max(self.tree_peak_kb, _tree_sample(pid, self.ticks))
            if self.root_ticks_at_fork is None and len(self.ticks) > 1:
                self.root_ticks_at_fork = self.ticks.get(pid, 0)

    def free_cores_seconds(self, cores: int) -> tuple[float, float]:
        """The wall time on ``cores`` free cores, from CPU times, and the main process's share before its
        workers started. Before, the main process runs alone (start-up, imports, listing); after, it and
        the workers share the cores, and the busiest worker cannot finish sooner than its own CPU time.
        Sampled every 10 ms: the last few ms of a process may be missing."""
        tick = os.sysconf("SC_CLK_TCK")
        root = self.ticks.get(self.root, 0)
        workers = [ticks for pid, ticks in self.ticks.items() if pid != self.root]
        if not workers or self.root_ticks_at_fork is None:
            return root / tick, root / tick
        serial = self.root_ticks_at_fork
        parallel = max(max(workers), (sum(workers) + root - serial) / cores)
        return (serial + parallel) / tick, serial / tick


def _tree_sample(pid: int, ticks: dict[int, int]) -> int:
    """The RSS (KB) of ``pid`` and its descendants; their CPU ticks so far go into ``ticks``."""
    total = 0
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:                            # gone (or, before the wait, a zombie): nothing resident
        return 0
    fields = stat[stat.rindex(")") + 2:].split()   # after "pid (name) ": state is field 3, utime 14, stime 15
    ticks[pid] = max(ticks.get(pid, 0), int(fields[11]) + int(fields[12]))
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            total += int(line.split()[1])
    return total + sum(_tree_sample(int(child), ticks) for child in children)


def _summary(out: str) -> tuple[int, str]:
    match = SUMMARY.search(out)
    if match is None:
        raise SystemExit(f"no summary line in:\n{out}")
    return int(match.group(1)), match.group(2)


def _counts(text: str) -> dict[str, int]:
    return {status: int(count) for count, status in (part.split(" ", 1) for part in text.split(", "))}


def _compile_ours() -> None:
    """Our package's bytecode, as an install has it (module docstring, "Bytecode")."""
    import compileall

    import dealerpi

    if not compileall.compile_dir(Path(dealerpi.__file__).parent, quiet=1):
        raise SystemExit("compileall failed on the dealerpi package")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT_PATH))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--copies", type=int, default=4, help="copies of the corpus for the memory figure")
    parser.add_argument("--pokerkit", metavar="PATH", help=argparse.SUPPRESS)   # the PokerKit side's process
    args = parser.parse_args(argv)
    if args.pokerkit:
        pokerkit_job(args.pokerkit)
        return 0

    if not Path(args.path).exists():
        raise SystemExit(f"{args.path}: no such corpus (give PATH)")
    _compile_ours()
    ours = [sys.executable, "-m", "dealerpi", "replay"]
    theirs = [sys.executable, __file__, "--pokerkit"]
    best: dict[str, Run] = {}
    load_before = os.getloadavg()[0]
    for _ in range(args.repeats):              # the sides take turns, so that both meet the same machine
        for name, command in (("ours", [*ours, args.path]), ("ours --jobs 1", [*ours, "--jobs", "1", args.path]),
                              ("PokerKit", [*theirs, args.path])):
            run = Run(command)
            if name not in best or run.seconds < best[name].seconds:
                best[name] = run
    hands, statuses = _summary(best["ours"].out)
    print(f"{hands} hands ({statuses}); PokerKit: {best['PokerKit'].out.strip()}")
    print(f"cores: {os.cpu_count()}, default --jobs: {len(os.sched_getaffinity(0))}; load average (1 min) "
          f"{load_before:.1f} before, {os.getloadavg()[0]:.1f} after: above the cores, other work shares them")
    pokerkit = best["PokerKit"].seconds
    pokerkit_cpu = best["PokerKit"].cpu_seconds
    for name in ("ours", "ours --jobs 1", "PokerKit"):
        run = best[name]
        print(f"{name:14} {run.seconds:6.2f} s  {hands / run.seconds:5.0f} hands/s  PokerKit / this: "
              f"{pokerkit / run.seconds:5.1f}x   CPU {run.cpu_seconds:6.2f} s, PokerKit / this: "
              f"{pokerkit_cpu / run.cpu_seconds:5.1f}x")
    print(f"goal: ours (every core) >= 10x PokerKit: {pokerkit / best['ours'].seconds:.1f}x")
    cores = len(os.sched_getaffinity(0))
    ours_free, ours_serial = best["ours"].free_cores_seconds(cores)
    pokerkit_free, _ = best["PokerKit"].free_cores_seconds(cores)
    print(f"on {cores} free cores, from the CPU times of the runs above: ours {ours_free:.2f} s ({ours_serial:.2f} s "
          f"before the workers start), PokerKit {pokerkit_free:.2f} s: {pokerkit_free / ours_free:.1f}x")

    with tempfile.TemporaryDirectory(prefix="bench_replay_job-") as tmp:
        rows = []
        for copies in (1, args.copies):
            folder = Path(tmp) / f"x{copies}"
            for copy in range(copies):
                shutil.copytree(args.path, folder / f"copy{copy}")
            run = Run([*ours, str(folder)])
            rows.append((copies, run))
            copy_hands, copy_statuses = _summary(run.out)
            expected = {status: count * copies for status, count in _counts(statuses).items()}
            if copy_hands != hands * copies or _counts(copy_statuses) != expected:
                raise SystemExit(f"{copies} copies gave {copy_hands} hands ({copy_statuses}), not {copies} x one")
        for copies, run in rows:
            print(f"memory, {hands * copies:6} hands: tree peak {run.tree_peak_kb / 1024:6.1f} MB, largest "
                  f"process {run.max_process_kb / 1024:6.1f} MB ({run.seconds:.2f} s)")
        (_, small), (_, large) = rows
        print(f"peak ratio {args.copies}N / N: tree {large.tree_peak_kb / small.tree_peak_kb:.2f}, largest process "
              f"{large.max_process_kb / small.max_process_kb:.2f} (flat: about 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
