"""Hand categories of a deck and hand size, counted exactly and ordered by rarity.

A hand's category is its rank pattern (the sizes of its groups of equal rank, e.g. ``(2, 2, 2, 1)`` for three
pair in seven cards), or straight, flush or straight flush. A straight, flush or straight flush is counted only
in its own category, never also under "no pair" (high card).

Order: the rarer category ranks higher (counted exactly over every hand of the deck), with one exception:
high card always ranks lowest, below one pair. Without it, seven cards out of ten (seed 000) could always
dodge a pair and one pair would be worth less than nothing. For the standard deck and five cards this rule
gives exactly the usual poker order, which the tests check; for the Hexadec deck and seven cards it defines
Silicon Valley File 'em, whose seed lists no categories (see docs/fileem-rankings.md).

A strength packs the category level (higher is better) above one hex digit per rank, taken group by group
(bigger groups first, then higher ranks), so plain integer comparison orders hands; suits never break ties.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from math import comb, factorial, perm, prod

from dealerpi.cards import Deck

_LOGGER = logging.getLogger(__name__)

STRAIGHT = "straight"
FLUSH = "flush"
STRAIGHT_FLUSH = "straight flush"
HIGH_CARD = "high card"
ONE_PAIR = "one pair"

# Names of rank patterns for the two hand sizes DealerPi plays (5: standard poker, 7: File 'em).
_PATTERN_NAMES: dict[tuple[int, ...], str] = {
    (1, 1, 1, 1, 1): HIGH_CARD,
    (2, 1, 1, 1): ONE_PAIR,
    (2, 2, 1): "two pair",
    (3, 1, 1): "three of a kind",
    (3, 2): "full house",
    (4, 1): "four of a kind",
    (1, 1, 1, 1, 1, 1, 1): HIGH_CARD,
    (2, 1, 1, 1, 1, 1): ONE_PAIR,
    (2, 2, 1, 1, 1): "two pair",
    (2, 2, 2, 1): "three pair",
    (3, 1, 1, 1, 1): "three of a kind",
    (3, 2, 1, 1): "full house",
    (3, 2, 2): "full house and pair",
    (3, 3, 1): "double trips",
    (4, 1, 1, 1): "four of a kind",
    (4, 2, 1): "quads and pair",
    (4, 3): "quads and trips",
}

_STANDARD_RANK_WORDS = {
    "2": ("two", "twos"), "3": ("three", "threes"), "4": ("four", "fours"), "5": ("five", "fives"),
    "6": ("six", "sixes"), "7": ("seven", "sevens"), "8": ("eight", "eights"), "9": ("nine", "nines"),
    "T": ("ten", "tens"), "J": ("jack", "jacks"), "Q": ("queen", "queens"), "K": ("king", "kings"),
    "A": ("ace", "aces"),
}


@dataclass(frozen=True)
class Category:
    """One hand category: its name, its rank pattern (group sizes, largest first) and how many hands have it."""

    name: str
    pattern: tuple[int, ...]
    count: int


def partitions(total: int, largest: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of parts no bigger than ``largest``, parts in falling order."""
    if total == 0:
        yield ()
        return
    for part in range(min(total, largest), 0, -1):
        for rest in partitions(total - part, part):
            yield (part, *rest)


def straight_masks(deck: Deck, size: int) -> dict[int, int]:
    """Rank bitmask of every straight of ``size`` cards -> index of its top rank.

    Bit i stands for the deck's rank i (0 = lowest). The deck's ``wheel_low`` rank (ace, Hexadec 0) also
    plays below the lowest rank, so its straight (A-2-3-4-5; 0-1-2-3-4-5-6) is the lowest.
    """
    ranks = len(deck.ranks)
    masks = {((1 << size) - 1) << low: low + size - 1 for low in range(ranks - size + 1)}
    if deck.wheel_low:
        wheel = (1 << (size - 1)) - 1 | 1 << deck.rank_index[deck.wheel_low]
        masks[wheel] = size - 2
    return masks


def count_categories(deck: Deck, size: int) -> dict[str, Category]:
    """Exact number of ``size``-card hands of the deck in each category, keyed by category name.

    A pattern with groups g1..gk takes k distinct ranks (ordered, divided by the orders of equal-sized
    groups) times C(suits, g) suit choices per group. All-different ranks are split into straight flush,
    flush, straight and high card.
    """
    suits, ranks = len(deck.suits), len(deck.ranks)
    straights = len(straight_masks(deck, size))
    categories: dict[str, Category] = {}
    for pattern in partitions(size, suits):
        rank_ways = perm(ranks, len(pattern)) // prod(factorial(n) for n in Counter(pattern).values())
        suit_ways = prod(comb(suits, group) for group in pattern)
        if len(pattern) == size:  # all ranks different: straights and flushes come out of here
            categories[STRAIGHT_FLUSH] = Category(STRAIGHT_FLUSH, pattern, straights * suits)
            categories[FLUSH] = Category(FLUSH, pattern, (comb(ranks, size) - straights) * suits)
            categories[STRAIGHT] = Category(STRAIGHT, pattern, straights * (suit_ways - suits))
            count = (rank_ways - straights) * (suit_ways - suits)
        else:
            count = rank_ways * suit_ways
        name = _PATTERN_NAMES.get(pattern, "+".join(map(str, pattern)))
        categories[name] = Category(name, pattern, count)
    return categories


def order_by_rarity(categories: Sequence[Category]) -> tuple[Category, ...]:
    """Best first: rarer ranks higher, except that high card is always last (below one pair)."""
    counts = [category.count for category in categories]
    if len(set(counts)) != len(counts):
        raise ValueError(f"two categories have the same count, so rarity cannot order them: {counts}")
    ordered = sorted(categories, key=lambda category: (category.name == HIGH_CARD, category.count))
    return tuple(ordered)


@dataclass(frozen=True)
class Ranking:
    """The categories of one deck and hand size, best first, and how to pack and read a strength."""

    deck: Deck
    size: int
    categories: tuple[Category, ...]
    _level: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_pattern: dict[tuple[int, ...], int] = field(init=False, repr=False, compare=False)
    _straights: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        top = len(self.categories) - 1
        level = {category.name: top - i for i, category in enumerate(self.categories)}
        by_pattern = {c.pattern: level[c.name] for c in self.categories if c.name not in _NOT_PATTERNS}
        object.__setattr__(self, "_level", level)
        object.__setattr__(self, "_by_pattern", by_pattern)
        object.__setattr__(self, "_straights", straight_masks(self.deck, self.size))

    @property
    def total(self) -> int:
        """Number of hands of ``size`` cards in the deck (the categories' counts add up to it)."""
        return comb(len(self.deck), self.size)

    def strength(self, counts: Sequence[int], *, suited: bool) -> int:
        """Strength of exactly ``size`` cards given their count per rank index; ``suited``: all one suit."""
        groups = sorted(((count, rank) for rank, count in enumerate(counts) if count), reverse=True)
        ranks = [rank for _, rank in groups]
        if len(groups) == self.size:
            mask = sum(1 << rank for rank in ranks)
            top = self._straights.get(mask)
            if top is not None:
                return self._pack(self._level[STRAIGHT_FLUSH if suited else STRAIGHT], [top])
            if suited:
                return self._pack(self._level[FLUSH], ranks)
        elif suited:
            raise ValueError(f"cards of one suit cannot hold a pair: counts {list(counts)}")
        return self._pack(self._by_pattern[tuple(count for count, _ in groups)], ranks)

    def _pack(self, level: int, ranks: Sequence[int]) -> int:
        value = level
        for i in range(self.size):
            value = value << 4 | (ranks[i] if i < len(ranks) else 0)
        return value

    def category_of(self, strength: int) -> Category:
        """The category a strength belongs to."""
        level = strength >> 4 * self.size
        if not 0 <= level < len(self.categories):
            raise ValueError(f"{strength} is not a {self.deck.name} {self.size}-card strength")
        return self.categories[len(self.categories) - 1 - level]

    def ranks_of(self, strength: int) -> list[int]:
        """The rank indexes packed in a strength, group by group (one per group; a straight's top only)."""
        category = self.category_of(strength)
        digits = [strength >> 4 * (self.size - 1 - i) & 15 for i in range(self.size)]
        return digits[:1] if category.name in (STRAIGHT, STRAIGHT_FLUSH) else digits[:len(category.pattern)]

    def describe(self, strength: int) -> str:
        """Words for the dealer display: "flush, ace high", "three pair, F's, C's and 9's"."""
        category = self.category_of(strength)
        ranks = self.ranks_of(strength)
        if category.name in (STRAIGHT, STRAIGHT_FLUSH, FLUSH, HIGH_CARD):
            return f"{category.name}, {self._rank_name(ranks[0])} high"
        groups = [self._rank_name(r, plural=True) for r, size in zip(ranks, category.pattern, strict=True)
                  if size > 1]
        if category.pattern[0] == 3 and category.pattern[1] == 2:  # full house: "kings full of fives"
            return f"{category.name}, {groups[0]} full of {_join(groups[1:])}"
        return f"{category.name}, {_join(groups)}"

    def _rank_name(self, rank: int, *, plural: bool = False) -> str:
        symbol = self.deck.ranks[rank]
        if self.deck.name == "standard":
            return _STANDARD_RANK_WORDS[symbol][plural]
        return f"{symbol}'s" if plural else symbol

    def format_table(self) -> str:
        """The category table, best first: name, exact count, probability and "1 in N"."""
        total = self.total
        lines = [f"{'category':<22}{'hands':>15}{'probability':>16}{'1 in':>14}"]
        for category in self.categories:
            share = category.count / total
            lines.append(f"{category.name:<22}{category.count:>15,}{share:>16.10f}{1 / share:>14,.1f}")
        lines.append(f"{'total':<22}{total:>15,}{1:>16.10f}")
        return "\n".join(lines)


_NOT_PATTERNS = frozenset((STRAIGHT, FLUSH, STRAIGHT_FLUSH))


def _join(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def ranking_for(deck: Deck, size: int) -> Ranking:
    """The rarity ranking of ``size``-card hands of ``deck`` (see the module docstring)."""
    return Ranking(deck, size, order_by_rarity(list(count_categories(deck, size).values())))
