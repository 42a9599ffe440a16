"""File 'em category counts and order (seed 000; docs/fileem-rankings.md), and the same rule on 52 cards."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from math import comb

import pytest

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.evaluation import fileem
from dealerpi.evaluation.rankings import Category, count_categories, order_by_rarity, ranking_for
from dealerpi.evaluation.rankings_cli import format_rankings, main

# Hand-derived counts of seven-card Hexadec hands (16 ranks x 4 suits): choose the ranks of the groups,
# then the suits of each group (C(4,4)=1, C(4,3)=4, C(4,2)=6, C(4,1)=4). 11 straights (10 windows + the
# 0-1-2-3-4-5-6), C(16,7) = 11,440 sets of seven different ranks.
FILEEM_COUNTS = {
    "straight flush": 11 * 4,
    "quads and trips": 16 * 15 * 1 * 4,
    "flush": (comb(16, 7) - 11) * 4,
    "quads and pair": 16 * 15 * 14 * 1 * 6 * 4,
    "double trips": comb(16, 2) * 14 * 4 * 4 * 4,
    "straight": 11 * (4**7 - 4),
    "full house and pair": 16 * comb(15, 2) * 4 * 6 * 6,
    "four of a kind": 16 * comb(15, 3) * 1 * 4**3,
    "three pair": comb(16, 3) * 13 * 6**3 * 4,
    "full house": 16 * 15 * comb(14, 2) * 4 * 6 * 4**2,
    "three of a kind": 16 * comb(15, 4) * 4 * 4**4,
    "two pair": comb(16, 2) * comb(14, 3) * 6**2 * 4**3,
    "one pair": 16 * comb(15, 5) * 6 * 4**5,
    "high card": (comb(16, 7) - 11) * (4**7 - 4),
}

# Five-card hands of the 52-card deck, as published (e.g. Wikipedia "Poker probability"), usual order.
STANDARD_COUNTS = {
    "straight flush": 40, "four of a kind": 624, "full house": 3744, "flush": 5108, "straight": 10200,
    "three of a kind": 54912, "two pair": 123552, "one pair": 1098240, "high card": 1302540,
}


def test_fileem_counts_match_the_hand_derivation_and_sum_to_all_hands() -> None:
    counts = {name: c.count for name, c in count_categories(HEXADEC, 7).items()}
    assert counts == FILEEM_COUNTS
    assert sum(counts.values()) == comb(64, 7) == 621_216_192


def test_fileem_order_is_rarest_first_with_high_card_last() -> None:
    """The brief's rule: rarer ranks higher; one pair ranks above high card although high card is rarer."""
    names = [c.name for c in fileem.RANKING.categories]
    assert names == list(FILEEM_COUNTS)  # FILEEM_COUNTS is written in the order derived by hand
    assert FILEEM_COUNTS["high card"] < FILEEM_COUNTS["one pair"]


def test_the_same_rule_gives_the_usual_order_and_counts_for_standard_poker() -> None:
    ranking = ranking_for(STANDARD, 5)
    assert {c.name: c.count for c in ranking.categories} == STANDARD_COUNTS
    assert [c.name for c in ranking.categories] == list(STANDARD_COUNTS)
    assert ranking.total == comb(52, 5)


def _rank_count_vectors(ranks: int, cards: int, most: int) -> Iterator[tuple[int, ...]]:
    if ranks == 1:
        if cards <= most:
            yield (cards,)
        return
    for here in range(min(cards, most) + 1):
        for rest in _rank_count_vectors(ranks - 1, cards - here, most):
            yield (here, *rest)


def _is_straight(ranks: list[int]) -> bool:
    """Seven different rank indexes (1=0 ... 0=15) in a row, or 0-1-2-3-4-5-6 with the 0 low."""
    ordered = sorted(ranks)
    return ordered == list(range(ordered[0], ordered[0] + 7)) or ordered == [0, 1, 2, 3, 4, 5, 15]


def test_enumeration_over_rank_multisets_agrees_with_the_counts() -> None:
    """Brute force, written independently: every rank multiset, weighted by its suit choices."""
    tally: Counter[str] = Counter()
    pattern_names = {(c.pattern, c.name) for c in fileem.RANKING.categories}
    name_of = {pattern: name for pattern, name in pattern_names if name not in ("straight", "flush",
                                                                                 "straight flush")}
    for vector in _rank_count_vectors(16, 7, 4):
        ways = 1
        for count in vector:
            ways *= comb(4, count)
        pattern = tuple(sorted((c for c in vector if c), reverse=True))
        if len(pattern) < 7:
            tally[name_of[pattern]] += ways
            continue
        suited, unsuited = 4, ways - 4  # all seven in one suit: 4 ways out of 4**7
        if _is_straight([r for r, c in enumerate(vector) if c]):
            tally["straight flush"] += suited
            tally["straight"] += unsuited
        else:
            tally["flush"] += suited
            tally["high card"] += unsuited
    assert dict(tally) == FILEEM_COUNTS


def _classify(cards: list[str]) -> str:
    """Independent classifier of exactly seven Hexadec cards (no evaluator code)."""
    groups = tuple(sorted(Counter(card[0] for card in cards).values(), reverse=True))
    if len(groups) == 7:
        straight = _is_straight([HEXADEC.rank_of(card) for card in cards])
        flush = len({card[1] for card in cards}) == 1
        if straight or flush:
            return {(True, True): "straight flush", (True, False): "straight", (False, True): "flush"}[
                (straight, flush)]
    return {(1,) * 7: "high card", (2, 1, 1, 1, 1, 1): "one pair", (2, 2, 1, 1, 1): "two pair",
            (2, 2, 2, 1): "three pair", (3, 1, 1, 1, 1): "three of a kind", (3, 2, 1, 1): "full house",
            (3, 2, 2): "full house and pair", (3, 3, 1): "double trips", (4, 1, 1, 1): "four of a kind",
            (4, 2, 1): "quads and pair", (4, 3): "quads and trips"}[groups]


def test_random_hands_are_classified_like_the_counts_predict() -> None:
    """20,000 seeded random seven-card hands: the evaluator agrees hand by hand with an independent
    classifier, and each category's frequency lies within 5 standard deviations of its exact probability."""
    rng = random.Random(64)
    draws = 20_000
    seen: Counter[str] = Counter()
    for _ in range(draws):
        cards = rng.sample(HEXADEC.cards, 7)
        name = fileem.RANKING.category_of(fileem.evaluate((), cards)).name
        assert name == _classify(cards), cards
        seen[name] += 1
    total = comb(64, 7)
    for name, count in FILEEM_COUNTS.items():
        p = count / total
        expected = draws * p
        assert abs(seen[name] - expected) <= 5 * (draws * p * (1 - p)) ** 0.5 + 1, (name, seen[name], expected)
    assert seen["one pair"] > seen["high card"] > seen["two pair"] > seen["three of a kind"]


def test_order_by_rarity_refuses_equal_counts() -> None:
    with pytest.raises(ValueError, match="same count"):
        order_by_rarity([Category("a", (2,), 5), Category("b", (1, 1), 5)])


def test_format_rankings_prints_best_first_with_counts_and_probability() -> None:
    lines = format_rankings("fileem").splitlines()
    assert lines[0].startswith("Silicon Valley File 'em (seed 000)")
    rows = lines[3:-1]
    assert [row[:22].strip() for row in rows] == list(FILEEM_COUNTS)
    assert rows[0].split()[-3:] == ["44", "0.0000000708", "14,118,549.8"]  # 44 / 621,216,192
    assert lines[-1].split() == ["total", "621,216,192", "1.0000000000"]


def test_cli_prints_the_fileem_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "fileem"]) == 0
    out = capsys.readouterr().out
    assert "three pair" in out and "6,289,920" in out


def test_cli_prints_the_holdem_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "holdem"]) == 0
    assert "1,302,540" in capsys.readouterr().out


def test_cli_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "poker"]) == 2
    assert "invalid choice: 'poker'" in capsys.readouterr().err
