"""Seven-card high-hand evaluations per second: ours against treys and PokerKit, on the same random hands.

Goal (issue): at least 4x treys in pure Python. Run:

    .venv/bin/python bench/bench_evaluation.py [--hands 100000] [--pokerkit-hands 5000] [--seed 1]

Every library gets its own card representation prepared before the clock starts (our strings, treys ints,
PokerKit Card objects); the timed loop is only the evaluation call. Ours and treys take turns, ``--repeats``
times, and each keeps its fastest run: this shared VM's speed drifts within a minute, and taking turns
makes both meet the same machine. PokerKit is about 100 times slower, so by default it gets the
first 5,000 of the same hands. Also printed: the import-time table build, and the Omaha and File 'em
evaluators for scale.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time
from collections.abc import Callable, Sequence

from dealerpi.cards import HEXADEC, STANDARD

_LOGGER = logging.getLogger(__name__)


def _best_rate(loop: Callable[[], object], count: int, repeats: int = 3) -> float:
    """Evaluations per second of the fastest of ``repeats`` runs of ``loop`` (which does ``count`` of them)."""
    fastest = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        loop()
        fastest = min(fastest, time.perf_counter() - started)
    return count / fastest


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--pokerkit-hands", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [rng.sample(STANDARD.cards, 7) for _ in range(args.hands)]
    holes, boards = [h[:2] for h in hands], [h[2:] for h in hands]

    started = time.perf_counter()
    from dealerpi.evaluation import fileem, high, omaha
    imported = time.perf_counter()
    high.build_tables()                  # built on first use; build them before timing (the engine has no clock)
    print(f"import dealerpi.evaluation.high etc. and build the tables: {time.perf_counter() - started:.3f} s "
          f"(tables {time.perf_counter() - imported:.3f} s)")

    from pokerkit import Card as PokerKitCard
    from pokerkit import StandardHighHand
    from treys import Card as TreysCard
    from treys import Evaluator

    treys_code = {card: TreysCard.new(card) for card in STANDARD.cards}
    treys_holes = [[treys_code[c] for c in hole] for hole in holes]
    treys_boards = [[treys_code[c] for c in board] for board in boards]
    treys = Evaluator()
    pk_count = min(args.pokerkit_hands, args.hands)
    pk_card = {card: next(iter(PokerKitCard.parse(card))) for card in STANDARD.cards}
    pk_holes = [[pk_card[c] for c in hole] for hole in holes[:pk_count]]
    pk_boards = [[pk_card[c] for c in board] for board in boards[:pk_count]]

    evaluate, treys_evaluate, pk_evaluate = high.evaluate, treys.evaluate, StandardHighHand.from_game
    ours_rate = treys_rate = 0.0
    for _ in range(args.repeats):
        ours_rate = max(ours_rate, _best_rate(
            lambda: [evaluate(h, b) for h, b in zip(holes, boards, strict=True)], args.hands, repeats=1))
        treys_rate = max(treys_rate, _best_rate(
            lambda: [treys_evaluate(h, b) for h, b in zip(treys_holes, treys_boards, strict=True)], args.hands,
            repeats=1))
    pk_rate = _best_rate(lambda: [pk_evaluate(h, b) for h, b in zip(pk_holes, pk_boards, strict=True)],
                         pk_count, repeats=1)

    print(f"7-card high hands, {args.hands:,} random hands (seed {args.seed}), Python {sys.version.split()[0]}")
    print(f"  dealerpi high.evaluate     {ours_rate:>12,.0f} evals/s")
    print(f"  treys Evaluator.evaluate   {treys_rate:>12,.0f} evals/s   ours = {ours_rate / treys_rate:.1f}x")
    print(f"  PokerKit StandardHighHand  {pk_rate:>12,.0f} evals/s   ours = {ours_rate / pk_rate:.0f}x "
          f"({pk_count:,} hands)")

    omaha_hands = [rng.sample(STANDARD.cards, 9) for _ in range(2_000)]
    omaha_rate = _best_rate(lambda: [omaha.evaluate_high(h[:4], h[4:]) for h in omaha_hands], len(omaha_hands))
    fileem_hands = [rng.sample(HEXADEC.cards, 10) for _ in range(300)]
    fileem_rate = _best_rate(lambda: [fileem.evaluate(h[:3], h[3:]) for h in fileem_hands], len(fileem_hands))
    print(f"  dealerpi Omaha high (4+5)  {omaha_rate:>12,.0f} evals/s")
    print(f"  dealerpi File 'em (3+7)    {fileem_rate:>12,.0f} evals/s ({1000 / fileem_rate:.2f} ms each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
