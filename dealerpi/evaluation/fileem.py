"""Silicon Valley File 'em (seed 000): the best seven-card hand out of three hole and seven board cards.

Hexadec deck: ranks 1 < 2 < ... < 9 < A < ... < F < 0, the 0 also plays low in 0-1-2-3-4-5-6 (rules digest,
decisions). A player uses any number of hole cards, none to three (DEAL-6). The categories and their order
come from :mod:`dealerpi.evaluation.rankings` (rarity over the 64-card deck, see docs/fileem-rankings.md).

How: a card's code is a one in its rank's 4-bit counter (bits 0..63) plus a one in its suit's 4-bit counter
(above bit 64). ``_BASE`` puts 1 in each suit counter, so a counter reaches 8 only when all seven cards share
the suit. The best hand is the best of every seven-card subset (120 out of ten): each is the total key minus
the dropped cards' codes, classified once per distinct key. No table, because File 'em needs a few
evaluations per showdown, not millions: about half a millisecond each (bench/bench_evaluation.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import combinations

from dealerpi.cards import HEXADEC
from dealerpi.evaluation.checks import check_cards
from dealerpi.evaluation.rankings import ranking_for

_LOGGER = logging.getLogger(__name__)

HAND_SIZE = 7
RANKING = ranking_for(HEXADEC, HAND_SIZE)
"""File 'em categories, best first."""

_RANKS = len(HEXADEC.ranks)
_SUIT_SHIFT = 4 * _RANKS
_SUIT_SHIFTS = [_SUIT_SHIFT + 4 * i for i in range(len(HEXADEC.suits))]
_BASE = sum(1 << shift for shift in _SUIT_SHIFTS)
_SUITED_BITS = sum(8 << shift for shift in _SUIT_SHIFTS)
_CODES: dict[str, int] = {
    card: (1 << 4 * HEXADEC.rank_of(card)) + (1 << _SUIT_SHIFTS[HEXADEC.suits.index(card[1])])
    for card in HEXADEC.cards
}


def _strength_of_key(key: int) -> int:
    counts = [key >> 4 * rank & 15 for rank in range(_RANKS)]
    return RANKING.strength(counts, suited=bool(key & _SUITED_BITS))


def evaluate(hole: Sequence[str], board: Sequence[str]) -> int:
    """Strength of the best seven of hole + board (seven or more Hexadec cards); bigger is better."""
    cards = (*hole, *board)
    check_cards(cards, HEXADEC, minimum=HAND_SIZE)
    codes = [_CODES[card] for card in cards]
    total = sum(codes, _BASE)
    keys = {total - sum(dropped) for dropped in combinations(codes, len(codes) - HAND_SIZE)}
    return max(map(_strength_of_key, keys))


def describe(strength: int) -> str:
    """Words for a File 'em strength: "three pair, F's, C's and 9's", "straight, 6 high"."""
    return RANKING.describe(strength)
