"""Hold'em and Omaha (high and 8-or-better low) on many 52-card boards at once, by table folding.

Every complete board is reduced once to three small numbers shared by all hands:

* its rank class: which of the 6,175 five-card rank multisets it is. A card's rank key is SKPokerEval's
  five-card key (github.com/kennethshackleton/SKPokerEval, ``RANK_KEYS``): the sums of any five of them,
  at most four of a rank, are all different, so the sum of a board's keys indexes a dense table of classes;
* its flush index: the suit holding three or more of its cards (4 if none) and that suit's rank mask;
* (hi-lo) its set of distinct low ranks, read off the class.

Every hand is folded beforehand into tables of its best value per rank class, per flush index and per low
set; on each board a hand's value is then two or three array lookups. The values are those of
:mod:`dealerpi.evaluation` (:class:`~dealerpi.evaluation.rankings.Ranking` strengths, low as ``LOW_LIMIT -
mask``), so hands compare exactly as DealerPi's showdown compares them (tests/equity check it).

Why a flush can be judged apart: with a hand's two (hold'em) or exactly two (Omaha) suited cards, five or
more cards of one suit leave too few others for a full house or quads, so a flush beats every non-flush value
that hand can make on that board, and a straight flush beats everything.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from dealerpi.cards import STANDARD
from dealerpi.evaluation.high import RANKING
from dealerpi.evaluation.low import LOW_LIMIT

_LOGGER = logging.getLogger(__name__)

Ints = npt.NDArray[np.int64]
Values32 = npt.NDArray[np.int32]

RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
"""SKPokerEval's five-card rank keys, deuce to ace: every multiset of five ranks (four of a kind at most) has
its own sum (tests/equity checks all 6,175)."""
_RANKS = 13
_RANK_KEY_ARRAY = np.array(RANK_KEYS, dtype=np.int64)
_FIVE_OF_SEVEN = np.array(list(combinations(range(7), 5)), dtype=np.int64)
_THREE_OF_FIVE = np.array(list(combinations(range(5), 3)), dtype=np.int64)
_SUITS = 4
_NO_SUIT = 4                       # the flush index's suit when no suit has three cards on the board
_MASKS = 1 << _RANKS
_LOW_BIT = [1 << (rank + 1) if rank <= 6 else 0 for rank in range(_RANKS - 1)] + [1]
"""Bit of a rank in a low set: ace bit 0, deuce bit 1 ... eight bit 7; nine and up none."""

CARD_RANK = np.array([STANDARD.rank_of(card) for card in STANDARD.cards], dtype=np.int64)
CARD_SUIT = np.array([STANDARD.suits.index(card[1]) for card in STANDARD.cards], dtype=np.int64)
CARD_INDEX = {card: i for i, card in enumerate(STANDARD.cards)}


@dataclass(frozen=True, slots=True)
class Tables:
    """The hand-independent tables, built once per process (a few tenths of a second here)."""

    class_of_key: npt.NDArray[np.int16]   # rank-key sum of five cards -> rank class (-1: none)
    class_counts: Ints                    # (6175, 13) cards of each rank in the class
    class_ranks: Ints                     # (6175, 5) the class's ranks
    five_value: Ints                      # (6175,) value of five unsuited cards of the class
    flush_five: Ints                      # (8192,) value of five suited cards by rank mask (0 unless 5 bits)
    flush_best: Ints                      # (8192,) best five suited cards of a mask (0 under 5 bits)
    class_low: Ints                       # (6175,) the class's set of distinct low ranks
    suit_of_count: Ints                   # sum of 8**suit over five cards -> suit with 3+ cards, or 4
    mask_row: Ints                        # rank mask of 3..5 ranks (one suit on a board) -> row, else -1
    subset_triples: Ints                  # per row, the mask's 3-rank subsets, padded with 0


@cache
def tables() -> Tables:
    """Build the tables from DealerPi's own ranking (Ranking.strength), once per process."""
    classes = [c for c in combinations_with_replacement(range(_RANKS), 5) if max(c.count(r) for r in c) <= 4]
    ranks = np.array(classes, dtype=np.int64)
    counts = np.zeros((len(classes), _RANKS), dtype=np.int64)
    for i, combo in enumerate(classes):
        for rank in combo:
            counts[i, rank] += 1
    keys = np.array(RANK_KEYS, dtype=np.int64)[ranks].sum(axis=1)
    class_of_key = np.full(5 * RANK_KEYS[-1] + 1, -1, dtype=np.int16)   # room for five aces (no class)
    class_of_key[keys] = np.arange(len(classes), dtype=np.int16)
    five_value = np.array([RANKING.strength(list(row), suited=False) for row in counts], dtype=np.int64)
    flush_five = np.zeros(_MASKS, dtype=np.int64)
    flush_best = np.zeros(_MASKS, dtype=np.int64)
    for mask in sorted(range(_MASKS), key=int.bit_count):
        bits = [r for r in range(_RANKS) if mask >> r & 1]
        if len(bits) == 5:
            flush_five[mask] = flush_best[mask] = RANKING.strength([mask >> r & 1 for r in range(_RANKS)],
                                                                   suited=True)
        elif len(bits) > 5:
            flush_best[mask] = max(flush_best[mask & ~(1 << r)] for r in bits)
    low_bits = np.array(_LOW_BIT, dtype=np.int64)
    class_low = np.bitwise_or.reduce(low_bits[ranks], axis=1)
    suit_of_count = np.full(8**_SUITS, _NO_SUIT, dtype=np.int64)
    for word in range(8**_SUITS):
        for suit in range(_SUITS):
            if word >> 3 * suit & 7 >= 3:
                suit_of_count[word] = suit
    subset_masks = [m for m in range(_MASKS) if 3 <= m.bit_count() <= 5]
    triples = np.zeros((len(subset_masks), 10), dtype=np.int64)
    for i, mask in enumerate(subset_masks):
        bits = [1 << r for r in range(_RANKS) if mask >> r & 1]
        for j, three in enumerate(combinations(bits, 3)):
            triples[i, j] = sum(three)
    mask_row = np.full(_MASKS, -1, dtype=np.int64)
    mask_row[subset_masks] = np.arange(len(subset_masks))
    return Tables(class_of_key, counts, ranks, five_value, flush_five, flush_best, class_low, suit_of_count,
                  mask_row, triples)


@dataclass(frozen=True, slots=True)
class Boards:
    """B complete boards reduced once: rank class, flush index (suit * 8192 + that suit's rank mask), and the
    distinct classes and flush indices among them."""

    rank_class: npt.NDArray[np.int16]
    flush_index: Ints
    classes: Ints | None          # None: too many boards to be worth listing; fold every class
    flushes: Ints | None


_LIST_UP_TO = 20_000
"""Boards in a chunk up to which the classes and flush indices they reach are listed (postflop: a few dozen
to fold); a bigger chunk (preflop) reaches nearly all, and every one is folded without listing."""
_KEY_BITS = 20                       # five rank keys sum below 2**19; the suit counters go above


def features(cards: Sequence[str]) -> Ints:
    """Per card (a column): its rank key plus ``8**suit << 20`` (five cards: a count per suit below 8), and
    its own bit ``1 << 13 * suit + rank`` (a board's sum is then each suit's rank mask side by side)."""
    ids = np.array([CARD_INDEX[c] for c in cards], dtype=np.int64)
    ranks, suits = CARD_RANK[ids], CARD_SUIT[ids]
    words = np.array(RANK_KEYS, dtype=np.int64)[ranks] + np.left_shift(8**suits, _KEY_BITS)
    return np.stack((words, np.left_shift(1, suits * _RANKS + ranks))).reshape(2, -1)


def reduce_boards(sums: Ints) -> Boards:
    """Reduce complete boards, given by the (2, B) sums of their cards' :func:`features`, to their numbers."""
    table = tables()
    suit = table.suit_of_count[sums[0] >> _KEY_BITS]
    flush_index = np.right_shift(sums[1], suit * _RANKS)
    flush_index &= _MASKS - 1
    flush_index += suit * _MASKS
    rank_class = table.class_of_key[sums[0] & ((1 << _KEY_BITS) - 1)]
    if sums.shape[1] > _LIST_UP_TO:
        return Boards(rank_class, flush_index, None, None)
    classes = np.flatnonzero(np.bincount(rank_class, minlength=len(table.class_ranks)))
    flushes = np.flatnonzero(np.bincount(flush_index, minlength=(_NO_SUIT + 1) * _MASKS))
    return Boards(rank_class, flush_index, classes, flushes)


def _ids(hand: Sequence[str]) -> Ints:
    return np.array([CARD_INDEX[c] for c in hand], dtype=np.int64)


def _impossible(hand_ranks: Ints) -> npt.NDArray[np.bool_]:
    """Rank classes the hand's own cards rule out (five of a rank between them)."""
    extra = np.bincount(hand_ranks, minlength=_RANKS)
    result: npt.NDArray[np.bool_] = np.any(tables().class_counts + extra > 4, axis=1)
    return result


def _suit_masks(ids: Ints) -> list[list[int]]:
    """Per suit, the rank bits of the hand's cards of that suit."""
    masks: list[list[int]] = [[] for _ in range(_SUITS)]
    for card in ids:
        masks[CARD_SUIT[card]].append(1 << int(CARD_RANK[card]))
    return masks


_EVERY_CLASS = np.arange(6175)
_EVERY_FLUSH = np.arange((_NO_SUIT + 1) * _MASKS)


class HandTables:
    """One hand folded into its best high value per rank class and per flush index (and, hi-lo, its best low
    per rank class). Filled on demand for the classes and flush indices boards reach: all 6,175 classes
    preflop, a few dozen from the flop on, so a postflop spot pays only for what it uses."""

    def __init__(self, hand: Sequence[str], *, omaha: bool, low: bool) -> None:
        table = tables()
        self.omaha = omaha
        self.ids = _ids(hand)
        self.by_class = np.zeros(len(table.class_ranks), dtype=np.int32)   # strengths < 2**24
        self.class_done = np.zeros(len(table.class_ranks), dtype=bool)
        self.by_flush = np.zeros((_NO_SUIT + 1) * _MASKS, dtype=np.int32)
        self.flush_done = np.zeros((_NO_SUIT + 1) * _MASKS, dtype=bool)
        self.impossible = _impossible(CARD_RANK[self.ids])
        self.suit_bits = _suit_masks(self.ids)
        self.low_by_class = _fold_low(self.ids) if low else None

    def high(self, boards: Boards) -> Values32:
        """The hand's high value on each board."""
        self._fill(boards)
        result: Values32 = self.by_class[boards.rank_class]
        np.maximum(result, self.by_flush[boards.flush_index], out=result)
        return result

    def low(self, boards: Boards) -> Values32:
        """The hand's 8-or-better low on each board (0: none)."""
        assert self.low_by_class is not None
        result: Values32 = self.low_by_class[boards.rank_class]
        return result

    def _fill(self, boards: Boards) -> None:
        classes = _EVERY_CLASS if boards.classes is None else boards.classes
        classes = classes[~self.class_done[classes]]
        if len(classes):
            values = self._omaha_classes(classes) if self.omaha else self._holdem_classes(classes)
            values[self.impossible[classes]] = 0
            self.by_class[classes] = values
            self.class_done[classes] = True
        flushes = _EVERY_FLUSH if boards.flushes is None else boards.flushes
        flushes = flushes[~self.flush_done[flushes]]
        if len(flushes):
            self.by_flush[flushes] = self._omaha_flushes(flushes) if self.omaha else self._holdem_flushes(flushes)
            self.flush_done[flushes] = True

    def _holdem_classes(self, classes: Ints) -> Ints:
        """Best five of the two hole cards and the board's five: the best of the 21 five-card rank multisets."""
        table = tables()
        ranks = np.concatenate((table.class_ranks[classes],
                                np.broadcast_to(CARD_RANK[self.ids], (len(classes), 2))), axis=1)
        sums = _RANK_KEY_ARRAY[ranks][:, _FIVE_OF_SEVEN].sum(axis=2)
        result: Ints = table.five_value[table.class_of_key[sums]].max(axis=1)
        return result

    def _omaha_classes(self, classes: Ints) -> Ints:
        """Exactly two hole cards and three board cards: the best of 6 pairs x 10 triples (RRoP §6; seed 002)."""
        table = tables()
        keys = _RANK_KEY_ARRAY
        pairs = np.array([keys[CARD_RANK[a]] + keys[CARD_RANK[b]] for a, b in combinations(self.ids, 2)])
        triples = keys[table.class_ranks[classes]][:, _THREE_OF_FIVE].sum(axis=2)
        result: Ints = table.five_value[table.class_of_key[triples[:, :, None] + pairs]].max(axis=(1, 2))
        return result

    def _holdem_flushes(self, flushes: Ints) -> Ints:
        own = np.array([sum(bits) for bits in self.suit_bits] + [0], dtype=np.int64)
        result: Ints = tables().flush_best[(flushes & (_MASKS - 1)) | own[flushes >> _RANKS]]
        return result

    def _omaha_flushes(self, flushes: Ints) -> Ints:
        table = tables()
        result = np.zeros(len(flushes), dtype=np.int64)
        rows = table.mask_row[flushes & (_MASKS - 1)]
        for suit, bits in enumerate(self.suit_bits):
            chosen = np.flatnonzero(((flushes >> _RANKS) == suit) & (rows >= 0))
            if len(bits) < 2 or not len(chosen):
                continue
            pairs = np.array([a | b for a, b in combinations(bits, 2)], dtype=np.int64)
            triples = table.subset_triples[rows[chosen]]
            result[chosen] = table.flush_five[triples[:, :, None] | pairs].max(axis=(1, 2))
        return result


def _fold_low(ids: Ints) -> Values32:
    """Best 8-or-better low per rank class, as :func:`dealerpi.evaluation.low.evaluate_omaha_low8` values;
    0 for none. It depends only on the hand's set of low ranks (at most 163 sets, each folded once)."""
    hand_set = 0
    for card in ids:
        hand_set |= _LOW_BIT[int(CARD_RANK[card])]
    return _low_by_class(hand_set)


@cache
def _low_by_class(hand_set: int) -> Values32:
    """POT-4: two different low hole ranks and three different low board ranks, none shared; the lowest
    highest-card-first (the smaller mask). Bit r of a set is rank r + 1 (ace = 1), the low module's bit r + 1."""
    hand_bits = [1 << r for r in range(8) if hand_set >> r & 1]
    pairs = [a | b for a, b in combinations(hand_bits, 2)]
    by_set = np.zeros(256, dtype=np.int64)
    if pairs:
        for board_set in range(256):
            board_bits = [1 << r for r in range(8) if board_set >> r & 1]
            lows = [p | sum(t) for p in pairs for t in combinations(board_bits, 3) if not p & sum(t)]
            if lows:
                by_set[board_set] = LOW_LIMIT - 2 * min(lows)
    result: Values32 = by_set[tables().class_low].astype(np.int32)
    result.setflags(write=False)
    return result
