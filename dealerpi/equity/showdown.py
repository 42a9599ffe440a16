"""Who wins each board, as shares of the pot: ties split evenly, hi-lo halves, quartering, scoops.

Input: the hands' values on B complete boards, an (H, B) array each for high and (hi-lo) low, bigger is better,
0 for "no qualifying low". Output: per hand the sum over the boards of its share, so exact enumeration divides
by B and Monte Carlo also gets the sum of squares for its standard error.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

_LOGGER = logging.getLogger(__name__)

Values = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Tally:
    """Sums over boards, one entry per hand: share of the pot, its square, high and low parts, scoops."""

    equity: Floats
    squares: Floats
    high: Floats
    low: Floats
    scoops: Floats

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.equity + other.equity, self.squares + other.squares, self.high + other.high,
                     self.low + other.low, self.scoops + other.scoops)


def _split(values: Values) -> Floats:
    """Each hand's share of one pot per board (1/k to each of k tied best hands)."""
    best = values.max(axis=0)
    winners = values == best
    share: Floats = winners / winners.sum(axis=0)
    return share


def tally(high: Values, low: Values | None) -> Tally:
    """Sum each hand's pot share over the boards (POT-4: the low half to the best qualifying low, if any;
    otherwise the high hand takes the whole pot)."""
    high_share = _split(high)
    if low is None:
        zero = np.zeros(high.shape[0])
        return Tally(high_share.sum(axis=1), (high_share * high_share).sum(axis=1), high_share.sum(axis=1),
                     zero, (high_share == 1).sum(axis=1).astype(np.float64))
    has_low = low.max(axis=0) > 0
    low_share = np.where(has_low, _split(low), 0.0)
    high_part = np.where(has_low, 0.5 * high_share, high_share)
    low_part = 0.5 * low_share
    share = high_part + low_part
    scoop = (high_share == 1) & (~has_low | (low_share == 1))
    return Tally(share.sum(axis=1), (share * share).sum(axis=1), high_part.sum(axis=1), low_part.sum(axis=1),
                 scoop.sum(axis=1).astype(np.float64))
