"""PHH replays per second: ours (dealerpi.history.replay) against PokerKit's HandHistory, on the same hands.

Goal: ours at least 20 times PokerKit. Run from the repository:

    .venv/bin/python bench/bench_replay.py [PATH] [--repeats 3] [--profile]

PATH defaults to ../shared/phh beside the repository. The files are parsed once, by our reader, before any
clock starts; PokerKit gets the same records as ``HandHistory`` objects built from our fields (no TOML
parsing on either side). Timed: ours ``replay(record)`` (engine set-up, every action, the showdown, the
comparison); PokerKit ``for state in history`` (state set-up, every action with its automations). Only the
hands both can play are timed (the engine's variants, no negative blinds); each loop runs ``--repeats``
times and the fastest is kept, because the machine is shared. Also printed: on how many timed hands the two
finish with the same stacks. ``--profile`` prints where our replay spends its time.

The speed of this shared VM drifts by a third within a minute, and a PokerKit pass takes seconds where ours
takes a fraction of one, so whole passes rarely meet the same machine. The second figure, "chunked", cuts the
hands into chunks of ``--chunk`` hands and times each chunk on both sides in turn, ``--repeats`` times,
keeping each side's fastest time per chunk: both sides then meet the same machine within a second.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import logging
import pstats
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pokerkit import HandHistory

from dealerpi.history.phh import HandRecord, clear_parse_cache, load_path
from dealerpi.history.replay import VARIANTS, replay

_LOGGER = logging.getLogger(__name__)

DEFAULT_PATH = Path(__file__).resolve().parent.parent.parent / "shared" / "phh"


def _fastest(loop: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        loop()
        best = min(best, time.perf_counter() - started)
    return best


def _pokerkit_history(record: HandRecord) -> HandHistory:
    fields = {key: getattr(record, key) for key in ("bring_in", "small_bet", "big_bet", "min_bet")}
    return HandHistory(
        variant=record.variant, ante_trimming_status=bool(record.ante_trimming_status),
        antes=list(record.antes), blinds_or_straddles=list(record.blinds_or_straddles),
        starting_stacks=list(record.starting_stacks), actions=list(record.actions),
        **{key: value for key, value in fields.items() if value is not None},
    )


def _pokerkit_stacks(history: HandHistory) -> list[object] | None:
    final = None
    try:
        for state in history:
            final = state
    except ValueError:
        return None
    return None if final is None else list(final.stacks)


def _time_each(work: Callable[[Any], object], items: Sequence[object]) -> float:
    started = time.perf_counter()
    for item in items:
        work(item)
    return time.perf_counter() - started


def _chunked(records: list[HandRecord], histories: list[HandHistory], size: int, repeats: int) -> tuple[float, float]:
    """Total of each side's fastest time per chunk, the two sides taking turns on every chunk."""
    ours = theirs = 0.0
    for start in range(0, len(records), size):
        chunk, chunk_histories = records[start:start + size], histories[start:start + size]
        best_ours = best_theirs = float("inf")
        for _ in range(repeats):
            clear_parse_cache()
            best_ours = min(best_ours, _time_each(replay, chunk))
            best_theirs = min(best_theirs, _time_each(_pokerkit_stacks, chunk_histories))
        ours += best_ours
        theirs += best_theirs
    return ours, theirs


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=str(DEFAULT_PATH))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=100, help="hands per chunk of the chunked timing")
    parser.add_argument("--profile", action="store_true", help="profile our replays and print the top 25")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    records = list(load_path(args.path))
    parsed = time.perf_counter() - started
    timed = [r for r in records if r.variant in VARIANTS and not any(b < 0 for b in r.blinds_or_straddles)]
    histories = [_pokerkit_history(r) for r in timed]
    print(f"{len(records)} hands parsed in {parsed:.2f} s ({len(records) / parsed:.0f} hands/s, our reader); "
          f"{len(timed)} timed (the engine's variants)")

    # The two sides take turns, so that both meet the same machine (a shared VM's speed drifts); best of each.
    ours = theirs = float("inf")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # PokerKit warns about PHH fields it does not know
        for _ in range(args.repeats):
            clear_parse_cache()                  # every pass parses the action strings afresh, as PokerKit does
            ours = min(ours, _fastest(lambda: [replay(r) for r in timed], 1))
            theirs = min(theirs, _fastest(lambda: [_pokerkit_stacks(h) for h in histories], 1))
        their_stacks = [_pokerkit_stacks(h) for h in histories]
    our_stacks = [replay(r).finishing_stacks for r in timed]
    same = sum(1 for a, b in zip(our_stacks, their_stacks, strict=True)
               if a is not None and b is not None and list(a) == b)
    print(f"ours:     {len(timed) / ours:9.0f} hands/s ({ours:.3f} s)")
    print(f"PokerKit: {len(timed) / theirs:9.0f} hands/s ({theirs:.3f} s)")
    print(f"ratio:    {theirs / ours:9.1f}x (goal >= 20x), whole passes")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours_chunked, theirs_chunked = _chunked(timed, histories, args.chunk, args.repeats)
    print(f"chunked:  ours {len(timed) / ours_chunked:.0f} hands/s, PokerKit {len(timed) / theirs_chunked:.0f} "
          f"hands/s, ratio {theirs_chunked / ours_chunked:.1f}x (goal >= 20x)")
    print(f"same final stacks on {same} of {len(timed)} timed hands")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for record in timed:
            replay(record)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
