"""Silicon Valley File 'em (seed 000) on many Hexadec boards at once: the best seven of ten cards.

Ten cards (three hole, seven board) give C(10, 7) = 120 seven-card hands. Instead of valuing them all, each
category is tried directly on the ten cards' rank counts, as DealerPi's ranking packs it
(:class:`~dealerpi.evaluation.rankings.Ranking`: the category's level, then one rank per group, bigger groups
first, then higher ranks):

* a rank pattern (e.g. 3+2+2) is made by taking, group by group, the highest rank not yet used that has enough
  cards; taking the highest each time is optimal (if a better hand used rank r for this group, swapping in
  the higher rank with enough cards keeps it a hand of the pattern), and it gives the lexicographically best ranks;
* a straight from the mask of ranks present, a flush or straight flush from the mask of a suit with seven or
  more cards (tables of 65,536 masks).

A pattern taken this way may in fact be a straight or a flush, which is then found and valued higher on its
own, so the best of the candidates is the best hand. tests/equity checks every value against
:func:`dealerpi.evaluation.fileem.evaluate`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from dealerpi.cards import HEXADEC
from dealerpi.evaluation.fileem import HAND_SIZE, RANKING
from dealerpi.evaluation.rankings import FLUSH, STRAIGHT, STRAIGHT_FLUSH, straight_masks

_LOGGER = logging.getLogger(__name__)

Ints = npt.NDArray[np.int64]

_RANKS = len(HEXADEC.ranks)
_SUITS = len(HEXADEC.suits)
_LEVEL_SHIFT = 4 * HAND_SIZE
CARD_RANK = np.array([HEXADEC.rank_of(card) for card in HEXADEC.cards], dtype=np.int64)
CARD_SUIT = np.array([HEXADEC.suits.index(card[1]) for card in HEXADEC.cards], dtype=np.int64)
CARD_INDEX = {card: i for i, card in enumerate(HEXADEC.cards)}


def _level(name: str) -> int:
    names = [category.name for category in RANKING.categories]
    return len(names) - 1 - names.index(name)


def _patterns() -> list[tuple[int, tuple[int, ...]]]:
    """(level, group sizes) of every rank-pattern category, best first."""
    special = (STRAIGHT, FLUSH, STRAIGHT_FLUSH)
    return [(_level(c.name), c.pattern) for c in RANKING.categories if c.name not in special]


@cache
def mask_tables() -> tuple[Ints, Ints]:
    """(straight value by rank-present mask, best flush or straight flush by suited rank mask), 0 for none."""
    masks = np.arange(1 << _RANKS, dtype=np.int64)
    straight = np.zeros(1 << _RANKS, dtype=np.int64)
    flush = np.zeros(1 << _RANKS, dtype=np.int64)
    straight_level, flush_level, sf_level = _level(STRAIGHT), _level(FLUSH), _level(STRAIGHT_FLUSH)
    by_top = sorted(straight_masks(HEXADEC, HAND_SIZE).items(), key=lambda item: item[1])
    for mask, top in by_top:  # ascending tops: a higher straight overwrites a lower one
        has = (masks & mask) == mask
        straight[has] = straight_level << _LEVEL_SHIFT | top << _LEVEL_SHIFT - 4
        flush[has] = sf_level << _LEVEL_SHIFT | top << _LEVEL_SHIFT - 4
    # A flush (no straight flush) packs its seven highest ranks, highest first: drop the lowest ranks of a
    # mask until seven are left, then read them off from the top.
    popcount = ((masks[:, None] >> np.arange(_RANKS)) & 1).sum(axis=1)
    enough = np.flatnonzero((popcount >= HAND_SIZE) & (flush == 0))
    kept = masks[enough]
    for _ in range(_RANKS - HAND_SIZE):
        extra = popcount[kept] > HAND_SIZE
        kept[extra] &= kept[extra] - 1
    packed = np.full(len(kept), flush_level, dtype=np.int64)
    for _ in range(HAND_SIZE):
        highest = np.frexp(kept)[1].astype(np.int64) - 1
        packed = packed << 4 | highest
        kept ^= np.left_shift(1, highest)
    flush[enough] = packed
    return straight, flush


def features(cards: Sequence[str]) -> Ints:
    """Per card: a one in its rank's 3-bit counter, a one in its suit's 4-bit counter, and its own bit
    ``1 << 16 * suit + rank`` (as int64: sums of distinct bits wrap exactly; read back as uint64)."""
    ids = np.array([CARD_INDEX[c] for c in cards], dtype=np.int64)
    ranks, suits = CARD_RANK[ids], CARD_SUIT[ids]
    bits = np.left_shift(np.uint64(1), (suits * _RANKS + ranks).astype(np.uint64)).view(np.int64)
    return np.stack((np.left_shift(1, 3 * ranks), np.left_shift(1, 4 * suits), bits)).reshape(3, -1)


def values(hands: Sequence[Sequence[str]], sums: Ints) -> Ints:
    """Each hand's File 'em value on each board (H, B), the boards given by the (3, B) sums of their seven
    cards' :func:`features`.

    The rank-pattern and straight values depend only on the ten cards' rank counts, and boards repeat rank
    multisets a lot (from the flop, the three cards to come make at most 816), so they are worked out once per
    distinct board rank word and spread back; a flush needs seven of a suit, looked up board by board.
    """
    straight, flush = mask_tables()
    words, inverse = np.unique(sums[0], return_inverse=True)
    suit_shifts = 4 * np.arange(_SUITS)
    bit_shifts = _RANKS * np.arange(_SUITS, dtype=np.uint64)
    owns = [features(hand).sum(axis=1) for hand in hands]
    # every hand's distinct ten-card rank words in one call: its cost is per numpy call, not per row
    ten_card = np.concatenate([words + own[0] for own in owns])
    by_rank = _by_rank_counts(ten_card[:, None] >> 3 * np.arange(_RANKS) & 7, straight).reshape(len(hands), -1)
    result = np.empty((len(hands), sums.shape[1]), dtype=np.int64)
    for h, own in enumerate(owns):
        best = by_rank[h][inverse]
        suits = (sums[1] + own[1])[:, None] >> suit_shifts & 15
        suited = suits >= HAND_SIZE
        if suited.any():
            bits = ((sums[2] + own[2]).view(np.uint64)[:, None] >> bit_shifts & np.uint64(0xFFFF)).astype(np.int64)
            best = np.maximum(best, np.where(suited, flush[bits], 0).max(axis=1))
        result[h] = best
    return result


def _by_rank_counts(counts: Ints, straight: Ints) -> Ints:
    """The best straight or rank pattern of each row of ten cards' rank counts (U, 16).

    Per row, ``at_least[g]`` is the mask of ranks with g or more cards; a group takes the highest rank of that
    mask not used yet (``frexp`` gives the highest bit), so each step is a few operations on U numbers.
    """
    weights = np.left_shift(1, np.arange(_RANKS))
    at_least = {size: ((counts >= size) * weights).sum(axis=1) for size in range(1, 5)}
    best: Ints = straight[at_least[1]]
    for level, pattern in _patterns():
        used = np.zeros(len(counts), dtype=np.int64)
        ok = np.ones(len(counts), dtype=bool)
        packed = np.zeros(len(counts), dtype=np.int64)
        for size in pattern:
            avail = at_least[size] & ~used
            ok &= avail > 0
            rank = np.maximum(np.frexp(avail)[1].astype(np.int64) - 1, 0)
            used |= np.left_shift(1, rank)
            packed = packed << 4 | rank
        packed <<= 4 * (HAND_SIZE - len(pattern))
        best = np.maximum(best, np.where(ok, level << _LEVEL_SHIFT | packed, 0))
    return best
