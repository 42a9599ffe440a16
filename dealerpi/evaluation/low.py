"""Ace-to-five low, eight or better: the low half of Omaha high-low (POT-4; RRoP §7).

Rules: the ace is the lowest card; straights and flushes do not count against a low; a low needs five
different ranks, all eight or lower ("8-or-better"), so a pair disqualifies; in Omaha exactly two of the
hand and three of the board make it, and a hand card that pairs the board is "counterfeited".

Lows compare from the highest card down (7-6-5-4-3 beats 8-4-3-2-A; 8-5-4-2-A beats 8-6-3-2-A). Bit i of
a rank mask stands for rank i (ace = 1 ... eight = 8); for two sets of five ranks, comparing the masks as
integers is exactly that comparison, smaller being better. The strength is ``LOW_LIMIT - mask`` so that,
as for every evaluator, the bigger number is the better hand.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import combinations

from dealerpi.evaluation.omaha import check_omaha

_LOGGER = logging.getLogger(__name__)

LOW_LIMIT = 1 << 9
"""Above every low mask (ranks 1..8 use bits 1..8)."""

_LOW_VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}
_LOW_NAMES = "?A2345678"


def _low_bits(cards: Sequence[str], take: int) -> set[int]:
    """Masks of every ``take`` cards with different ranks, all eight or lower."""
    bits = [1 << _LOW_VALUE[card[0]] for card in cards if card[0] in _LOW_VALUE]
    masks = set()
    for combo in combinations(bits, take):
        mask = sum(combo)
        if mask.bit_count() == take:
            masks.add(mask)
    return masks


def evaluate_omaha_low8(hole: Sequence[str], board: Sequence[str]) -> int | None:
    """Strength of the best 8-or-better low (two of ``hole`` + three of ``board``), or None if none."""
    check_omaha(hole, board)
    hole_masks = _low_bits(hole, 2)
    board_masks = _low_bits(board, 3)
    lows = [h | b for h in hole_masks for b in board_masks if not h & b]
    return LOW_LIMIT - min(lows) if lows else None


def describe_low(strength: int) -> str:
    """Words for a low strength, highest card first: "8-6-4-2-A low"."""
    mask = LOW_LIMIT - strength
    if not 0 < mask < LOW_LIMIT or mask & 1 or mask.bit_count() != 5:
        raise ValueError(f"{strength} is not an 8-or-better low strength")
    return "-".join(_LOW_NAMES[r] for r in range(8, 0, -1) if mask >> r & 1) + " low"
