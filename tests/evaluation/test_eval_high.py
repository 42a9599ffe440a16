"""Standard high hands: best five of any number of cards (hold'em; RRoP §5), checked against treys."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from treys import Card, Evaluator

from dealerpi.cards import STANDARD, CardError
from dealerpi.evaluation import high
from dealerpi.evaluation.checks import HandError

std = STANDARD.parse_many


def strength(text: str) -> int:
    return high.evaluate_cards(std(text))


def assert_same_order(ours: list[int], treys_ranks: list[int]) -> None:
    """Ours (bigger = better) and treys' (smaller = better) must order every hand the same way.

    After sorting by our strength, treys' rank must fall strictly wherever ours rises and stay equal
    wherever ours is equal; that makes the two orders identical on the sample.
    """
    pairs = sorted(zip(ours, treys_ranks, strict=True))
    for (ours_a, treys_a), (ours_b, treys_b) in pairwise(pairs):
        if ours_a == ours_b:
            assert treys_a == treys_b, f"we tie {ours_a:#x}, treys has {treys_a} and {treys_b}"
        else:
            assert treys_a > treys_b, f"we order {ours_a:#x} < {ours_b:#x}, treys {treys_a} vs {treys_b}"


@pytest.mark.parametrize(("size", "hands"), [pytest.param(7, 100_000, marks=pytest.mark.slow),   # 6 s
                                             (6, 10_000), (5, 10_000)])
def test_order_agrees_with_treys_on_random_hands(size: int, hands: int) -> None:
    """Hold'em showdown (RRoP §5): 100,000 random seven-card hands, plus flop and turn sizes."""
    rng = random.Random(20240 + size)
    treys_code = {card: Card.new(card) for card in STANDARD.cards}
    evaluator = Evaluator()
    ours, theirs = [], []
    for _ in range(hands):
        cards = rng.sample(STANDARD.cards, size)
        ours.append(high.evaluate(cards[:2], cards[2:]))
        theirs.append(evaluator.evaluate([treys_code[c] for c in cards[:2]], [treys_code[c] for c in cards[2:]]))
    assert_same_order(ours, theirs)
    assert len(set(ours)) > 1000 if size == 7 else len(set(ours)) > 500  # the sample really spreads


def test_wheel_is_the_lowest_straight() -> None:
    """A-2-3-4-5: the ace plays low (RRoP §5), below 2-3-4-5-6, above three aces."""
    wheel = strength("As2d3c4h5s9dKc")
    assert high.describe(wheel) == "straight, five high"
    assert strength("2s3d4c5h6s9dKc") > wheel > strength("AsAdAc4h5s9dKc")


def test_steel_wheel_beats_four_aces_and_loses_to_six_high_straight_flush() -> None:
    steel = strength("As2s3s4s5sAdAh")
    assert high.describe(steel) == "straight flush, five high"
    assert strength("2s3s4s5s6sAdAh") > steel > strength("AsAdAcAh5s9dKc")


def test_no_wraparound_straight() -> None:
    """Q-K-A-2-3 is not a straight: ace high only."""
    assert high.describe(strength("QsKdAc2h3s")) == "high card, ace high"


def test_royal_is_the_best_hand() -> None:
    royal = strength("AhKhQhJhTh2c3d")
    assert high.describe(royal) == "straight flush, ace high"
    assert royal > strength("KhQhJhTh9h2c3d")


def test_only_the_best_five_count_sixth_and_seventh_cards_do_not_break_ties() -> None:
    """Board A-A-K-Q-J: a 3 or a 2 in hand plays no part, so the hands split (RRoP §3 Ties)."""
    assert strength("AsAdKcQhJs3c2d") == strength("AsAdKcQhJs4c5d")


def test_kicker_decides_within_one_pair() -> None:
    assert strength("AsAd9c7h5s3c2d") > strength("AsAd8c7h5s3c2d")


def test_three_pairs_play_the_best_two_and_the_best_kicker() -> None:
    """K-K-Q-Q-5-5-7: kings and queens with a seven; the fives cannot beat the seven as kicker."""
    assert strength("KsKdQcQh5s5c7d") == strength("KsKdQcQh7d2c3s")
    assert high.describe(strength("KsKdQcQh5s5c7d")) == "two pair, kings and queens"


def test_two_trips_make_the_higher_full_house() -> None:
    hand = strength("AsAdAcKhKsKc2d")
    assert high.describe(hand) == "full house, aces full of kings"
    assert hand == strength("AsAdAcKhKs2c3d")


def test_six_suited_cards_play_the_top_five_of_the_flush() -> None:
    assert strength("Ah9h7h5h3h2hKd") == strength("Ah9h7h5h3hKd2c")
    assert high.describe(strength("Ah9h7h5h3h2hKd")) == "flush, ace high"


def test_flush_compares_all_five_cards() -> None:
    assert strength("Ah9h7h5h3hKdQc") > strength("Ah9h7h5h2hKdQc")


def test_more_than_seven_cards_take_the_best_five() -> None:
    hand = strength("2c7d9hJsKc4d5h6s3c")  # nine cards holding 2-3-4-5-6-7
    assert hand == strength("3c4d5h6s7d")
    assert high.describe(hand) == "straight, seven high"


@pytest.mark.parametrize(("text", "words"), [
    ("AsAdAcAh5s9dKc", "four of a kind, aces"),
    ("KhKdKc5s5c", "full house, kings full of fives"),
    ("7h7d7c2s5c9dJh", "three of a kind, sevens"),
    ("QhQd2c3s5c9dJh", "one pair, queens"),
    ("2c3d4h5s7c9dJh", "high card, jack high"),
    ("TsJsQsKs9s", "straight flush, king high"),
])
def test_describe_for_the_dealer_display(text: str, words: str) -> None:
    assert high.describe(strength(text)) == words


def test_unknown_card_names_the_card_and_the_deck() -> None:
    with pytest.raises(CardError, match=r"'1s' is not a card of the standard deck"):
        high.evaluate(("As", "1s"), std("2c3d4h5s7c"))


def test_hexadec_card_is_refused() -> None:
    with pytest.raises(CardError, match=r"'0s'"):
        high.evaluate(("0s", "Ks"), std("2c3d4h5s7c"))


def test_repeated_card_is_refused() -> None:
    """DEAL-7: a duplicate card is a fouled deck; the evaluator refuses it rather than guess."""
    with pytest.raises(HandError, match="Ks appears twice"):
        high.evaluate(("Ks", "Ks"), std("2c3d4h5s7c"))


def test_fewer_than_five_cards_is_refused() -> None:
    with pytest.raises(HandError, match="at least 5 cards, got 4"):
        high.evaluate(("As", "Ks"), std("2c3d"))
