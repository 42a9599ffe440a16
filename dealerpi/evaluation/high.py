"""Standard high hands: the best five of any number of cards (hold'em), from the 52-card deck.

Why hand-written rather than treys or PokerKit: both are several times slower in pure Python (see
bench/bench_evaluation.py), and this module is also the building block of the Omaha evaluators. Both stay in
the tests as oracles.

How: every card has an integer code, ``5**rank`` plus a one in its suit's 4-bit counter above bit 32. The sum
of a hand's codes (started at ``BASE``, which puts 3 in each suit counter) is its key:

* the low 32 bits are the rank multiset in base 5 (at most four cards of a rank, so digits never carry);
* a suit counter reaches 8 (its top bit) only when five or more cards share that suit, so one mask test
  tells a flush.

So evaluating up to seven cards is a sum and a dict lookup. The tables are built at import: every rank
multiset of 5 cards is classified by :mod:`dealerpi.evaluation.rankings` (standard order), then 6 and 7
cards take the best of their 5-card sub-multisets; flush rank sets (5 to 7 ranks of one suit) likewise.
That is 73,775 + 4,719 entries, built in about 0.2 s (bench/bench_evaluation.py prints the time).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import combinations

from dealerpi.cards import STANDARD
from dealerpi.evaluation.checks import check_cards
from dealerpi.evaluation.rankings import ranking_for

_LOGGER = logging.getLogger(__name__)

RANKING = ranking_for(STANDARD, 5)
"""Standard five-card categories, best first (rarity order, which is the usual poker order)."""

_RANKS = len(STANDARD.ranks)
_POWERS = [5**rank for rank in range(_RANKS)]
_SUIT_SHIFT = 32
_RANK_BITS = (1 << _SUIT_SHIFT) - 1
_SUIT_FIELDS = [(suit, _SUIT_SHIFT + 4 * i) for i, suit in enumerate(STANDARD.suits)]
BASE = sum(3 << shift for _, shift in _SUIT_FIELDS)
_FLUSH_BITS = sum(8 << shift for _, shift in _SUIT_FIELDS)
_FLUSH_SUIT = [(suit, 8 << shift) for suit, shift in _SUIT_FIELDS]

CODES: dict[str, int] = {
    rank + suit: _POWERS[r] + (1 << shift) for r, rank in enumerate(STANDARD.ranks) for suit, shift in _SUIT_FIELDS
}
"""Card string -> integer code; a hand's key is ``sum(codes) + BASE`` (see the module docstring)."""
RANK_BIT: dict[str, int] = {card: 1 << STANDARD.rank_of(card) for card in STANDARD.cards}
"""Card string -> its rank's bit, for the ranks of a flush."""


def _build_five_card_ranks() -> dict[int, int]:
    """Non-flush strength of every rank multiset of 5 cards, keyed by its base-5 sum."""
    five: dict[int, int] = {}
    for combo in combinations(range(_RANKS + 4), 5):  # stars and bars: multisets of 5 out of 13 ranks
        counts = [0] * _RANKS
        for slot, position in enumerate(combo):
            counts[position - slot] += 1
        if max(counts) <= 4:
            five[sum(_POWERS[r] * n for r, n in enumerate(counts))] = RANKING.strength(counts, suited=False)
    return five


def _build_rank_table() -> dict[int, int]:
    """Non-flush strength of every rank multiset of 5, 6 and 7 cards, keyed by its base-5 sum."""
    five = _build_five_card_ranks()
    table = dict(five)
    layer = five
    for _ in (6, 7):  # the best five of n cards is the best of the (n-1)-card sets they contain
        bigger: dict[int, int] = {}
        for key, value in layer.items():
            for power in _POWERS:
                if key // power % 5 < 4 and bigger.get(key + power, -1) < value:
                    bigger[key + power] = value
        table.update(bigger)
        layer = bigger
    return table


def _build_flush_table() -> dict[int, int]:
    """Strength of every set of 5, 6 or 7 ranks of one suit, keyed by its rank bitmask."""
    table: dict[int, int] = {}
    for size in (5, 6, 7):
        for ranks in combinations(range(_RANKS), size):
            mask = sum(1 << r for r in ranks)
            if size == 5:
                counts = [1 if r in ranks else 0 for r in range(_RANKS)]
                table[mask] = RANKING.strength(counts, suited=True)
            else:
                table[mask] = max(table[mask & ~(1 << r)] for r in ranks)
    return table


# The tables are filled on first use, not at import: the daemon reaches READY sooner, and tools that never
# evaluate a hand never pay for them. The first evaluation builds the five-card rank table and the flush table
# (fast); a 6- or 7-card rank multiset missing from the table is then worked out from its 5-card subsets and
# remembered. ``build_tables()`` fills everything at once (the benchmark does, before timing).
_RANK_TABLE: dict[int, int] = {}
_FLUSH_TABLE: dict[int, int] = {}


def start_tables() -> None:
    """Build the five-card rank table and the flush table, once (a parent process calls it before forking its
    replay workers, so they share one copy instead of building one each)."""
    if not _FLUSH_TABLE:
        _FLUSH_TABLE.update(_build_flush_table())
        _RANK_TABLE.update(_build_five_card_ranks())


def _rank_value(key: int, count: int) -> int:
    """Non-flush strength of a rank multiset of ``count`` cards: the best of its subsets one card smaller."""
    value = _RANK_TABLE.get(key)
    if value is None:
        value = max(_rank_value(key - power, count - 1) for power in _POWERS if key // power % 5)
        _RANK_TABLE[key] = value
    return value


def build_tables() -> None:
    """Fill both tables completely (every 5, 6 and 7 card rank multiset)."""
    start_tables()
    _RANK_TABLE.update(_build_rank_table())


def evaluate(hole: Sequence[str], board: Sequence[str]) -> int:
    """Strength of the best five of hole + board (5 or more standard cards); bigger is better."""
    return evaluate_cards((*hole, *board))


def evaluate_cards(cards: Sequence[str]) -> int:
    """Strength of the best five of ``cards`` (5 or more distinct standard cards)."""
    count = len(cards)
    if count > 7:
        check_cards(cards, STANDARD, minimum=5)
        return max(evaluate_cards(seven) for seven in combinations(cards, 7))
    try:
        key = sum(map(CODES.__getitem__, cards), BASE)
    except KeyError:
        check_cards(cards, STANDARD, minimum=5)
        raise
    if count < 5 or len(set(cards)) != count:
        check_cards(cards, STANDARD, minimum=5)
    try:
        if key & _FLUSH_BITS:
            # Five or more of one suit among at most seven cards leave at most two others, too few for a full
            # house or quads, so the flush table alone decides.
            suit = next(suit for suit, bit in _FLUSH_SUIT if key & bit)
            return _FLUSH_TABLE[sum(RANK_BIT[card] for card in cards if card[1] == suit)]
        return _RANK_TABLE[key & _RANK_BITS]
    except KeyError:
        start_tables()
        if key & _FLUSH_BITS:
            return evaluate_cards(cards)
        return _rank_value(key & _RANK_BITS, count)


def five_card_strength(key: int, rank_mask: int) -> int:
    """Strength of exactly five valid, distinct cards from their key (``sum(codes) + BASE``) and the OR
    of their ``RANK_BIT`` values (used only when the five are suited). For the Omaha evaluator's inner loop.
    """
    try:
        if key & _FLUSH_BITS:
            return _FLUSH_TABLE[rank_mask]
        return _RANK_TABLE[key & _RANK_BITS]
    except KeyError:
        if _FLUSH_TABLE:
            raise
        start_tables()
        return five_card_strength(key, rank_mask)


def describe(strength: int) -> str:
    """Words for a high-hand strength: "flush, ace high", "full house, kings full of fives"."""
    return RANKING.describe(strength)
