"""compute_equities and compute_outs: check the spot, finish every board, and add up the shares."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from fractions import Fraction
from math import comb, sqrt

import numpy as np

from dealerpi.equity import boards as board_draws
from dealerpi.equity.evaluate import BoardValues
from dealerpi.equity.result import Card, EquityError, EquityResult, HandEquity, Outs
from dealerpi.equity.showdown import Counter, Values
from dealerpi.equity.spots import Kind, Spot, make_spot
from dealerpi.evaluation.registry import EVALUATORS

_LOGGER = logging.getLogger(__name__)

EXACT_LIMIT = 3_000_000
"""Most boards enumerated exactly for one board of the pot; File 'em beyond it (preflop: C(58, 7) boards) is
Monte Carlo. Every hold'em and Omaha spot is under it (preflop heads-up hold'em: C(48, 5) = 1,712,304)."""
DEFAULT_SAMPLES = 50_000
"""Monte Carlo boards when the enumeration is too big and no sample size is asked for."""


def compute_equities(game: str, hands: Sequence[Sequence[Card]], board: Sequence[Card] = (),
                     dead: Sequence[Card] = (), *, boards: Sequence[Sequence[Card]] | None = None, runs: int = 1,
                     samples: int | None = None, seed: int = 0) -> EquityResult:
    """Each hand's expected share of the pot, counting every card out of the deck.

    ``board``: the board so far (all the game's boards share it); ``boards`` instead: every board of every run
    as dealt so far (the engine's ``hand.boards``), each an equal part of the pot. ``runs``: each board is run
    that many times. ``dead``: cards out of the deck (folded hands, burns). ``samples``: force Monte Carlo
    with this many boards per board; by default every board is enumerated exactly unless there are more than
    ``EXACT_LIMIT`` (File 'em early streets), then ``DEFAULT_SAMPLES`` are drawn with ``seed``.
    Raises EquityError naming the argument at fault.
    """
    spot = make_spot(game, hands, board, dead, boards, runs)
    if samples is not None and samples < 2:
        raise EquityError(f"samples: {samples} is too few boards for Monte Carlo (2 or more)")
    count = len(spot.hands)
    zero = [Fraction(0)] * count
    equity, high, low, scoop, variance = list(zero), list(zero), list(zero), list(zero), list(zero)
    exact, evaluated = True, 0
    values = BoardValues(spot.kind, spot.hands)
    for index, (known, parts) in enumerate(spot.boards):
        weight = Fraction(parts, spot.parts)
        stub = spot.stub(known)
        missing = spot.game.board_size - len(known)
        base = values.features(known).sum(axis=1)
        sampled = missing > 0 and (samples is not None or comb(len(stub), missing) > EXACT_LIMIT)
        if sampled:
            exact = False
            size = samples or DEFAULT_SAMPLES
            chunks = board_draws.sample_sums(values.features(stub), missing, size, seed + index, base)
        else:
            size = comb(len(stub), missing)
            chunks = board_draws.exact_sums(values.features(stub), missing, base)
        counter = Counter(count)
        for chunk in chunks:
            counter.add(*values(chunk))
        sums = counter.tally()
        evaluated += size
        for h in range(count):
            mean = sums.equity[h] / size
            equity[h] += weight * mean
            high[h] += weight * sums.high[h] / size
            low[h] += weight * sums.low[h] / size
            scoop[h] += weight * Fraction(sums.scoops[h], size)
            if sampled:  # the sample variance of the share, over the boards drawn, divided by their number
                spread = (sums.squares[h] / size - mean * mean) * Fraction(size, size - 1)
                variance[h] += weight * weight * spread / size
    hi_lo = spot.kind is Kind.OMAHA8
    errors = [None if exact else sqrt(v) for v in variance]
    result_hands = tuple(
        HandEquity(cards, float(equity[i]),
                   float(high[i]) if hi_lo else None, float(low[i]) if hi_lo else None,
                   float(scoop[i]) if hi_lo else None, errors[i])
        for i, cards in enumerate(spot.hands))
    stderr = None if exact else max(e or 0.0 for e in errors)
    return EquityResult(spot.game.key, result_hands, exact, evaluated, stderr)


def compute_outs(game: str, hands: Sequence[Sequence[Card]], board: Sequence[Card],
                 dead: Sequence[Card] = ()) -> Outs | None:
    """Heads-up outs: the unseen cards (dead cards counted out) after which the other hand leads.

    "Leads" means a bigger share of the pot if the hand ended on that board (hi-lo: high and low halves).
    None when outs do not apply: not exactly two hands, or the next street is not a single card (preflop;
    the river is out; File 'em's two-card turn). Raises EquityError naming the argument at fault.
    """
    spot = make_spot(game, hands, board, dead, None, 1)
    known = spot.boards[0][0]
    ends = [sum(street.board_cards for street in spot.game.streets[:i + 1]) for i in range(len(spot.game.streets))]
    if len(spot.hands) != 2 or not known or len(known) not in ends[:-1]:
        return None
    if spot.game.streets[ends.index(len(known)) + 1].board_cards != 1:
        return None
    stub = spot.stub(known)
    leader = _leaders(*_evaluate(spot, [known]))[0]
    if len(known) + 1 == spot.game.board_size:   # the last card: complete boards, the enumerator's own path
        values = BoardValues(spot.kind, spot.hands)
        after = _leaders(*values(values.features(known).sum(axis=1)[:, None] + values.features(stub)))
    else:
        after = _leaders(*_evaluate(spot, [(*known, card) for card in stub]))
    cards: list[list[Card]] = [[], []]
    ties: list[list[Card]] = [[], []]
    for card, now in zip(stub, after, strict=True):
        for i in (0, 1):
            if now == i and leader != i:
                cards[i].append(card)
            elif now is None and leader == 1 - i:
                ties[i].append(card)
    return Outs(leader, (tuple(cards[0]), tuple(cards[1])), (tuple(ties[0]), tuple(ties[1])))


def _evaluate(spot: Spot, boards: Sequence[Sequence[Card]]) -> tuple[Values, Values | None]:
    """The two hands' values on each (possibly incomplete) board, by the project's own evaluators."""
    high_eval = EVALUATORS["omaha_high" if spot.kind is Kind.OMAHA8 else spot.kind.value]
    high = np.array([[high_eval(hand, board) or 0 for board in boards] for hand in spot.hands], dtype=np.int64)
    if spot.kind is not Kind.OMAHA8:
        return high, None
    low_eval = EVALUATORS["omaha_low8"]
    return high, np.array([[low_eval(hand, board) or 0 for board in boards] for hand in spot.hands], dtype=np.int64)


def _leaders(high: Values, low: Values | None) -> list[int | None]:
    """Per board, the hand with the bigger share of the pot if the hand ended there (None: equal shares)."""
    first_high = np.where(high[0] > high[1], 1.0, np.where(high[0] == high[1], 0.5, 0.0))
    first = first_high
    if low is not None:
        first_low = np.where(low[0] > low[1], 1.0, np.where(low[0] == low[1], 0.5, 0.0))
        first = np.where(low.max(axis=0) > 0, (first_high + first_low) / 2, first_high)
    return [0 if share > 0.5 else 1 if share < 0.5 else None for share in first.tolist()]
