"""Who wins each board, as shares of the pot: ties split evenly, hi-lo halves, quartering, scoops.

Input: the hands' values on B complete boards, an (H, B) array each for high and (hi-lo) low, bigger is better,
0 for "no qualifying low". Each board is reduced to its winners: a bit pattern of the hands with the best
high value, and one of the best low (0 when no low qualifies). Boards are then only counted per pattern,
in integers, and the shares are worked out once per pattern as exact fractions: the sums are exact however
many boards there are, so an exact enumeration gives the exact equity (to the last bit of a float).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

_LOGGER = logging.getLogger(__name__)

Values = npt.NDArray[np.signedinteger[Any]]
Codes = npt.NDArray[np.int64]
_DENSE_UP_TO = 6
"""Up to this many hands the (high, low) patterns are counted in a dense table (4**6 entries); above, sorted."""


@dataclass(frozen=True, slots=True)
class Tally:
    """Sums over boards, one entry per hand: share of the pot, its square, high and low parts, scoops."""

    equity: list[Fraction]
    squares: list[Fraction]
    high: list[Fraction]
    low: list[Fraction]
    scoops: list[int]


def _pattern(values: Values) -> Codes:
    """Per board, bit h set when hand h has the best value."""
    if len(values) == 2:  # heads-up: the common case, in two comparisons
        pattern: Codes = (values[0] >= values[1]).astype(np.int64)
        pattern += (values[1] >= values[0]) << 1
        return pattern
    best = values.max(axis=0)
    pattern = np.zeros(values.shape[1], dtype=np.int64)
    for h, row in enumerate(values):
        pattern |= (row == best).astype(np.int64) << h
    return pattern


@dataclass
class Counter:
    """Boards counted by (high winners, low winners) pattern, over as many chunks of boards as come."""

    hands: int
    counts: dict[int, int] = field(default_factory=dict)
    dense: Values | None = None

    def add(self, high: Values, low: Values | None) -> None:
        code = _pattern(high)
        if low is not None:
            has_low = low.max(axis=0) > 0
            code |= (_pattern(low) * has_low) << self.hands
        width = self.hands * (1 if low is None else 2)
        if self.hands <= _DENSE_UP_TO:
            counted = np.bincount(code, minlength=1 << width)
            self.dense = counted if self.dense is None else self.dense + counted
            return
        codes, counts = np.unique(code, return_counts=True)
        for c, n in zip(codes.tolist(), counts.tolist(), strict=True):
            self.counts[c] = self.counts.get(c, 0) + n

    def tally(self) -> Tally:
        """POT-4: the low half to the best qualifying low, split evenly; without a low the high takes all."""
        counts = dict(self.counts)
        if self.dense is not None:
            counts.update((int(c), int(self.dense[c])) for c in np.flatnonzero(self.dense))
        mask = (1 << self.hands) - 1
        zero = [Fraction(0)] * self.hands
        equity, squares, high, low = list(zero), list(zero), list(zero), list(zero)
        scoops = [0] * self.hands
        for code, count in counts.items():
            high_winners, low_winners = code & mask, code >> self.hands
            pot = Fraction(1, 2) if low_winners else Fraction(1)
            high_share = pot / high_winners.bit_count()
            low_share = pot / low_winners.bit_count() if low_winners else Fraction(0)
            for h in range(self.hands):
                won_high = high_share if high_winners >> h & 1 else Fraction(0)
                won_low = low_share if low_winners >> h & 1 else Fraction(0)
                share = won_high + won_low
                equity[h] += count * share
                squares[h] += count * share * share
                high[h] += count * won_high
                low[h] += count * won_low
                if share == 1:
                    scoops[h] += count
        return Tally(equity, squares, high, low, scoops)
