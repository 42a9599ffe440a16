"""Equity of a spot: dealerpi.equity's exact enumerator against PokerKit's Monte Carlo and eval7 in a loop.

Goals (issue 21), on this machine: exact preflop for 2-10 hold'em hands <= 50 ms, PLO and Omaha hi-lo <= 80 ms,
flop, turn and river <= 5 ms for every game; and the enumerator's values equal DealerPi's evaluator's on
100,000 random hands. Run:

    .venv/bin/python bench/bench_equity.py [--repeats 5] [--pokerkit-samples 2000] [--no-eval7-preflop]

Ours: the fastest of ``--repeats`` calls (after one untimed call, so numpy's first-use costs are out), in
wall time and in this process's CPU time (eight engineers share two cores here: the CPU time is what a call
costs, the wall time what it took on the loaded machine); the one-off table build is printed apart.
PokerKit (``calculate_equities``, Monte Carlo): one call of ``--pokerkit-samples`` boards per spot, its
estimate and its gap to our exact value; the standard error of a sampled share is about sqrt(p(1 - p) / n).
eval7 (a C evaluator; ``pip install eval7``, not a DealerPi dependency: no aarch64 wheel) values every board
in a plain Python loop, the way the issue measured evaluators. Ratios are of CPU times within this one run:
the machine is shared and its speed drifts.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import sqrt

import numpy as np

from dealerpi.cards import HEXADEC, STANDARD

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class Spot:
    name: str
    game: str
    hands: tuple[str, ...]
    board: str = ""
    goal_ms: float = 5.0
    pokerkit: bool = True
    eval7: bool = False


SPOTS = (
    Spot("AhAs v KdKc preflop", "nlhe", ("AhAs", "KdKc"), goal_ms=50, eval7=True),
    Spot("6-way hold'em preflop", "nlhe", ("AhAs", "KdKc", "QsJs", "Tc9c", "8d8h", "7s2d"), goal_ms=50),
    Spot("10-way hold'em preflop", "nlhe",
         ("AhAs", "KdKc", "QsJs", "Tc9c", "8d8h", "7s2d", "5h5c", "4d3d", "JhTh", "9s9d"), goal_ms=50,
         pokerkit=False),
    Spot("PLO heads-up preflop", "plo", ("AsKsQdJd", "9h9c8h7c"), goal_ms=80),
    Spot("Omaha hi-lo heads-up preflop", "plo8", ("Ah2s3dKc", "QhJhTs9s"), goal_ms=80),
    Spot("hold'em flop", "nlhe", ("AhAs", "KdKc"), "2c7d9h", eval7=True),
    Spot("hold'em turn", "nlhe", ("AhKh", "QsQd", "9h8h"), "Th7h2c3s", eval7=True),
    Spot("hold'em river", "nlhe", ("AhKh", "QsQd", "9h8h"), "Th7h2c3sKd", eval7=True),
    Spot("PLO flop", "plo", ("AsKsQdJd", "9h9c8h7c"), "Ts6h2s"),
    Spot("PLO turn", "plo", ("AsKsQdJd", "9h9c8h7c", "AcAd5s4s"), "Ts6h2s3d"),
    Spot("Omaha hi-lo flop", "plo8", ("Ah2s3dKc", "Ad2c5hQh"), "4c8d9s"),
    Spot("Omaha hi-lo turn", "plo8", ("Ah2s3dKc", "Ad2c5hQh", "KhKdJsTs"), "4c8d9s7h"),
    Spot("File 'em flop", "fileem", ("0h0sFd", "1d2c3h"), "2s7d9hAc", pokerkit=False),
    Spot("File 'em turn", "fileem", ("0h0sFd", "1d2c3h", "EhEsDd"), "2s7d9hAcBdCc", pokerkit=False),
    Spot("File 'em preflop (Monte Carlo)", "fileem", ("0h0sFd", "1d2c3h"), goal_ms=100, pokerkit=False),
)


def _best(call: Callable[[], object], repeats: int) -> tuple[float, float]:
    """The fastest wall time and the smallest CPU time (this process) of ``repeats`` calls."""
    wall = cpu = float("inf")
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        call()
        wall = min(wall, time.perf_counter() - started)
        cpu = min(cpu, time.process_time() - started_cpu)
    return wall, cpu


def _pokerkit(spot: Spot, samples: int) -> tuple[float, list[float]]:
    from pokerkit import Card, Deck, OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand, calculate_equities
    hand_types = {"nlhe": (StandardHighHand,), "plo": (OmahaHoldemHand,),
                  "plo8": (OmahaHoldemHand, OmahaEightOrBetterLowHand)}[spot.game]
    ranges = tuple([list(Card.parse(hand))] for hand in spot.hands)
    started = time.process_time()
    shares = calculate_equities(ranges, list(Card.parse(spot.board)) if spot.board else [],
                                len(spot.hands[0]) // 2, 5, Deck.STANDARD, hand_types, sample_count=samples)
    return time.process_time() - started, list(shares)


def _eval7_loop(spot: Spot) -> tuple[float, list[float]]:
    """Every board, each hand valued by eval7.evaluate, in a plain Python loop (ties split)."""
    import eval7
    hands = [[eval7.Card(c) for c in STANDARD.parse_many(hand)] for hand in spot.hands]
    board = [eval7.Card(c) for c in STANDARD.parse_many(spot.board)] if spot.board else []
    used = {str(card) for hand in hands for card in hand} | {str(card) for card in board}
    stub = [eval7.Card(c) for c in STANDARD.cards if c not in used]
    started = time.process_time()
    totals = [0.0] * len(hands)
    count = 0
    evaluate = eval7.evaluate
    for rest in combinations(stub, 5 - len(board)):
        full = board + list(rest)
        values = [evaluate(hand + full) for hand in hands]
        best = max(values)
        winners = values.count(best)
        for i, value in enumerate(values):
            if value == best:
                totals[i] += 1 / winners
        count += 1
    return time.process_time() - started, [t / count for t in totals]


def _ordering(count: int, seed: int) -> None:
    """The enumerator's values against DealerPi's evaluators on ``count`` random (hand, board) pairs per
    game (1 board in 100 per hand: a hand's tables are folded once, as in an equity)."""
    from dealerpi.equity.evaluate import BoardValues
    from dealerpi.equity.spots import Kind
    from dealerpi.evaluation import fileem, high, low, omaha
    games = [("hold'em", Kind.HOLDEM, STANDARD, 2, 5, high.evaluate, count),
             ("Omaha", Kind.OMAHA, STANDARD, 4, 5, omaha.evaluate_high, count),
             ("Omaha hi-lo low", Kind.OMAHA8, STANDARD, 4, 5, low.evaluate_omaha_low8, count),
             ("File 'em", Kind.FILEEM, HEXADEC, 3, 7, fileem.evaluate, count // 10)]
    for name, kind, deck, hole, size, reference, pairs in games:
        rng = random.Random(seed)
        mismatches = ours_s = theirs_s = 0.0
        per_hand = 100
        for _ in range(pairs // per_hand):
            hand = rng.sample(deck.cards, hole)
            rest = [c for c in deck.cards if c not in hand]
            boards = [rng.sample(rest, size) for _ in range(per_hand)]
            started = time.perf_counter()
            values = BoardValues(kind, [hand])
            sums = np.stack([values.features(board).sum(axis=1) for board in boards], axis=1)
            high_values, low_values = values(sums)
            ours = low_values if kind is Kind.OMAHA8 else high_values
            assert ours is not None
            ours_s += time.perf_counter() - started
            started = time.perf_counter()
            expected = [reference(hand, board) or 0 for board in boards]
            theirs_s += time.perf_counter() - started
            mismatches += sum(int(a != b) for a, b in zip(ours[0].tolist(), expected, strict=True))
        print(f"  {name:<16} {pairs // per_hand * per_hand:>7,} hands: {int(mismatches)} differ "
              f"(ours {ours_s:.2f} s with per-hand folding, DealerPi's evaluator {theirs_s:.2f} s)")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pokerkit-samples", type=int, default=2000)
    parser.add_argument("--no-eval7-preflop", action="store_true", help="skip eval7's 1.7M-board loop")
    parser.add_argument("--ordering-hands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    from dealerpi.equity import compute_equities, warm_up
    imported = time.perf_counter()
    warm_up()
    print(f"import dealerpi.equity: {imported - started:.3f} s; build its tables (warm_up): "
          f"{time.perf_counter() - imported:.3f} s")
    try:
        import eval7  # noqa: F401
        have_eval7 = True
    except ImportError:
        have_eval7 = False
        print("eval7 is not installed (pip install eval7 into the venv to compare): its column is skipped")

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; ours: best of {args.repeats} calls, wall "
          f"and CPU ms; PokerKit ({args.pokerkit_samples:,} samples) and eval7: one call, CPU s; ratios on CPU time")
    print(f"\n{'spot':<32}{'wall':>7}{'cpu':>7}{'goal':>6}  {'PokerKit':<44}{'eval7 loop':<22}")
    for spot in SPOTS:
        def ours(spot: Spot = spot) -> object:
            return compute_equities(spot.game, spot.hands, spot.board)
        result = compute_equities(spot.game, spot.hands, spot.board)
        wall_s, ours_s = _best(ours, args.repeats)
        line = f"{spot.name:<32}{wall_s * 1000:>7.1f}{ours_s * 1000:>7.1f}{spot.goal_ms:>6.0f}  "
        if spot.pokerkit:
            their_s, shares = _pokerkit(spot, args.pokerkit_samples)
            gap = max(abs(a - b) for a, b in zip(shares, result.equities, strict=True))
            worst = max(sqrt(p * (1 - p) / args.pokerkit_samples) for p in result.equities)
            line += f"{their_s:6.2f} s = {their_s / ours_s:>7,.0f}x, gap {gap:.4f} (se~{worst:.4f})  "
        else:
            line += f"{'-':<44}"
        if spot.eval7 and have_eval7 and not (args.no_eval7_preflop and not spot.board):
            their_s, shares = _eval7_loop(spot)
            gap = max(abs(a - b) for a, b in zip(shares, result.equities, strict=True))
            ratio = their_s / ours_s
            line += f"{their_s:8.4f} s = {ratio:>6,.{0 if ratio >= 10 else 2}f}x (gap {gap:.1e})"
        print(line)
        equities = " ".join(f"{e:.6f}" for e in result.equities)
        how = "exact" if result.exact else f"Monte Carlo, stderr {result.stderr:.4f}"
        print(f"{'':<4}{equities}  [{how}, {result.boards:,} boards]")

    print(f"\nordering: the enumerator's values v DealerPi's evaluators (seed {args.seed})")
    _ordering(args.ordering_hands, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
