"""Omaha high: exactly two cards from the hand and exactly three from the board (RRoP §6; seed 002).

The hand may hold four or more cards (Omaha, five- and six-card Omaha); the board three to five. Every
two-card pair of the hand meets every three-card set of the board, and each five-card sum of codes is one
table lookup in :mod:`dealerpi.evaluation.high`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import combinations

from dealerpi.cards import STANDARD
from dealerpi.evaluation import high
from dealerpi.evaluation.checks import HandError, check_cards

_LOGGER = logging.getLogger(__name__)


def check_omaha(hole: Sequence[str], board: Sequence[str]) -> None:
    """Raise unless the cards are distinct standard cards with at least two in hand and three on board."""
    check_cards((*hole, *board), STANDARD, minimum=5)
    if len(hole) < 2 or len(board) < 3:
        raise HandError(f"Omaha plays exactly two hole cards and three board cards; got {len(hole)} "
                        f"hole and {len(board)} board cards")


def evaluate_high(hole: Sequence[str], board: Sequence[str]) -> int:
    """Strength of the best Omaha high hand (two of ``hole`` + three of ``board``), comparable with high's."""
    check_omaha(hole, board)
    codes, bits = high.CODES, high.RANK_BIT
    pairs = [(codes[a] + codes[b], bits[a] | bits[b]) for a, b in combinations(hole, 2)]
    triples = [(codes[a] + codes[b] + codes[c] + high.BASE, bits[a] | bits[b] | bits[c])
               for a, b, c in combinations(board, 3)]
    strength = high.five_card_strength
    return max(strength(pair_key + triple_key, pair_bits | triple_bits)
               for pair_key, pair_bits in pairs for triple_key, triple_bits in triples)


def describe_high(strength: int) -> str:
    """Words for an Omaha high strength (the same categories as hold'em)."""
    return high.describe(strength)
