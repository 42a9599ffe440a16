"""Hand values on many boards at once (first version: the project's evaluators, one board at a time)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from dealerpi.equity.boards import Draws
from dealerpi.equity.result import Card
from dealerpi.equity.showdown import Values
from dealerpi.equity.spots import Kind
from dealerpi.evaluation.registry import EVALUATORS

_LOGGER = logging.getLogger(__name__)


def board_values(kind: Kind, hands: Sequence[Sequence[Card]], known: Sequence[Card], stub: Sequence[Card],
                 draws: Draws) -> tuple[Values, Values | None]:
    """High values (H, B) and, in hi-lo, low values (0: no low) of every hand on each board."""
    high_eval = EVALUATORS["omaha_high" if kind is Kind.OMAHA8 else kind.value]
    low_eval = EVALUATORS["omaha_low8"]
    high = np.zeros((len(hands), len(draws)), dtype=np.int64)
    low = np.zeros_like(high) if kind is Kind.OMAHA8 else None
    for b, row in enumerate(draws):
        board = (*known, *(stub[i] for i in row))
        for h, hand in enumerate(hands):
            high[h, b] = high_eval(hand, board) or 0
            if low is not None:
                low[h, b] = low_eval(hand, board) or 0
    return high, low
