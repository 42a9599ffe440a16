"""The console process's memory over a week of hands: flat once its windows are full.

    .venv/bin/python bench/bench_console_memory.py [--hands 300,1000,3000]

bench_latency's 10-seat table plays the largest count of hands into a journal folder as the daemon writes
it (a segment per hand, old segments rotated away beyond 1000: dealerpi/journal/folder.py). After every
hand the console's readers follow it as they do on the Pi: the room bridge's
:class:`~dealerpi.history.final_hands.FinalHands` and the pages'
:class:`~dealerpi.console.histories.HandHistories`; the bridge's ``resend`` walks its hands once a hand
(console/mqtt_bridge.py, no broker needed). At each count: the objects the garbage collector tracks
(``gc.get_objects()`` after a full collection) and the process's VmRSS, as ratios to the first count within
this one run (this VM's speed and memory drift between runs). Goal: 3000 / 1000 within 1.05 for both once
the windows (1000 hands) are full; RSS is the allocator's high-water mark and only ever rises a little.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bench_latency  # noqa: E402  (beside this script)

from dealerpi.config import load  # noqa: E402
from dealerpi.console.histories import HandHistories  # noqa: E402
from dealerpi.history.final_hands import FinalHands  # noqa: E402


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", default="300,1000,3000", help="hand counts to measure at")
    args = parser.parse_args(argv)
    counts = sorted(int(n) for n in args.hands.split(","))
    figures: dict[int, tuple[int, float, int, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        config_path = bench_latency.write_config(Path(folder))
        journal = load(config_path).journal
        bridge = FinalHands(journal, Path(folder) / "room-hands.json")
        pages = HandHistories(journal)

        def after_hand(number: int) -> None:
            bridge.poll()
            pages.poll()
            sum(1 for hand in bridge.hands if hand.seq > bridge.count - 5)    # the room's resend after N
            if number in counts:
                gc.collect()
                figures[number] = (len(gc.get_objects()), rss_mib(), bridge.count, len(pages.played))

        bench_latency.write_history(config_path, counts[-1], after_hand=after_hand)
    first = counts[0]
    objects0, rss0 = figures[first][0], figures[first][1]
    print(f"{'hands':>6} {'tracked objects':>16} {'ratio':>6} {'VmRSS MiB':>10} {'ratio':>6} {'sent':>5} {'pages':>6}")
    for count in counts:
        objects, rss, sent, played = figures[count]
        print(f"{count:>6} {objects:>16,} {objects / objects0:>6.2f} {rss:>10.1f} {rss / rss0:>6.2f} "
              f"{sent:>5} {played:>6}")
    if len(counts) < 2:
        return 0
    full, last = figures[counts[-2]], figures[counts[-1]]
    flat = last[0] <= 1.05 * full[0] and last[1] <= 1.05 * full[1]
    print(f"{counts[-1]} / {counts[-2]} hands: objects {last[0] / full[0]:.3f}, VmRSS {last[1] / full[1]:.3f} "
          f"(goal <= 1.05): {'flat' if flat else 'GROWING'}")
    return 0 if flat else 1


if __name__ == "__main__":
    sys.exit(main())
