"""Omaha high and 8-or-better low: exactly two hole cards and three board cards (RRoP §6, §7; POT-4)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

from dealerpi.cards import STANDARD
from dealerpi.evaluation import high, low, omaha
from dealerpi.evaluation.checks import HandError

std = STANDARD.parse_many


def omaha_high(hole: str, board: str) -> int:
    return omaha.evaluate_high(std(hole), std(board))


def omaha_low(hole: str, board: str) -> int | None:
    return low.evaluate_omaha_low8(std(hole), std(board))


def describe_low(hole: str, board: str) -> str:
    strength = omaha_low(hole, board)
    assert strength is not None
    return low.describe_low(strength)


# --- high: must use exactly two (RRoP §6) ---

def test_four_hearts_on_board_and_one_in_hand_is_not_a_flush() -> None:
    """RRoP §6: one heart in hand cannot complete a four-heart board."""
    strength = omaha_high("Ah2c7d9s", "KhQh5h3hJc")
    assert high.RANKING.category_of(strength).name == "high card"
    assert omaha.describe_high(strength) == "high card, ace high"


def test_two_hearts_in_hand_and_three_on_board_is_a_flush() -> None:
    assert omaha.describe_high(omaha_high("Ah2h7d9s", "KhQh5hJc3c")) == "flush, ace high"


def test_board_trips_with_no_hand_pair_is_only_three_of_a_kind() -> None:
    """Board A-A-A-K-Q: three board cards plus two hand cards cannot also use the kings."""
    assert omaha.describe_high(omaha_high("2c3d4h5s", "AsAdAhKcQs")) == "three of a kind, aces"


def test_board_straight_does_not_play() -> None:
    """A five-card straight on the board needs three board cards and two hand cards that fit."""
    assert omaha.describe_high(omaha_high("KsKdQcQh", "5s6d7c8h9s")) == "one pair, kings"


def test_four_aces_in_hand_make_only_a_pair_of_them() -> None:
    """Board K-K-K-2-3 with A-A-A-A: two aces plus the three kings is kings full of aces, never quads."""
    assert omaha.describe_high(omaha_high("AsAdAcAh", "KsKdKc2h3s")) == "full house, kings full of aces"


def test_hand_pair_and_board_pair_make_a_full_house() -> None:
    assert omaha.describe_high(omaha_high("7s7dQcJh", "KhKd7c4s2h")) == "full house, sevens full of kings"


def test_omaha_strength_is_comparable_with_holdem_for_the_same_five_cards() -> None:
    assert omaha_high("Ah2h7d9s", "KhQh5hJc3c") == high.evaluate_cards(std("Ah2hKhQh5h"))


def test_omaha_high_order_agrees_with_pokerkit() -> None:
    """1,000 random four-card Omaha hands with five-card boards, ordered like PokerKit's OmahaHoldemHand."""
    rng = random.Random(6)
    rows = []
    for _ in range(1000):
        cards = rng.sample(STANDARD.cards, 9)
        ours = omaha.evaluate_high(cards[:4], cards[4:])
        rows.append((ours, OmahaHoldemHand.from_game("".join(cards[:4]), "".join(cards[4:]))))
    rows.sort(key=lambda row: row[0])
    for (ours_a, theirs_a), (ours_b, theirs_b) in pairwise(rows):
        assert (ours_a == ours_b) == (theirs_a == theirs_b)
        assert ours_a == ours_b or theirs_a < theirs_b


def test_five_and_six_card_omaha_still_use_exactly_two() -> None:
    assert omaha.describe_high(omaha_high("AhKh2c3d4s", "QhJhTh9s8s")) == "straight flush, ace high"
    # Six cards in hand, four hearts on board but none in hand: K-9 from hand fill a king-high straight.
    assert omaha.describe_high(omaha_high("Kc9c3d4s5c6d", "QhJhTh2h8s")) == "straight, king high"
    # Board straight Q-J-T-9-8 with no card that fits: still nothing.
    assert omaha.describe_high(omaha_high("Ac2c3d4s5c", "QhJhTh9h8s")) == "high card, ace high"


def test_fewer_than_two_hole_or_three_board_cards_is_refused() -> None:
    with pytest.raises(HandError, match="exactly two hole cards and three board cards; got 4 hole and 2"):
        omaha_high("AhKh2c3d", "QhJh")
    with pytest.raises(HandError, match="at least 5 cards, got 4"):
        omaha_high("Ah", "QhJhTh")


# --- low, 8 or better (POT-4; RRoP §7) ---

def test_eight_low_qualifies() -> None:
    """POT-4: A-2-3-4-8 is a qualifying low."""
    assert describe_low("Ah2dKcQs", "3c4s8dJhQd") == "8-4-3-2-A low"


def test_nine_low_does_not_qualify() -> None:
    """POT-4: low qualifies at 8 or better; A-2-3-4-9 is no low."""
    assert omaha_low("Ah2dKcQs", "3c4s9dJhQd") is None


def test_hand_card_pairing_the_board_is_counterfeited() -> None:
    """A-2 in hand on a 2-5-7 board makes A-2-2-5-7: a pair is no low."""
    assert omaha_low("Ah2dKcQs", "2c5s7dJhKd") is None
    assert describe_low("Ah2d3cKs", "2c5s7dJhKd") == "7-5-3-2-A low"  # a third low card rescues it


def test_straights_and_flushes_do_not_count_against_a_low() -> None:
    """RRoP §7 ace-to-five: 5-4-3-2-A suited is the best low (and a straight flush for high)."""
    wheel = omaha_low("Ah2hKcKs", "3h4h5hJcQd")
    assert wheel == omaha_low("Ah2dKcKs", "3c4s5hJcQd") == low.LOW_LIMIT - 0b111110  # ranks A..5: the best
    assert wheel is not None and low.describe_low(wheel) == "5-4-3-2-A low"
    assert omaha.describe_high(omaha_high("Ah2hKcKs", "3h4h5hJcQd")) == "straight flush, five high"


def test_lows_compare_from_the_top_card_down() -> None:
    """7-6-5-4-3 beats 8-4-3-2-A; 8-5-4-2-A beats 8-6-3-2-A (RRoP §7)."""
    seven = omaha_low("7h6dKcKs", "5c4s3dJhQd")
    eight = omaha_low("Ah2dKcKs", "3c4s8dJhQd")
    eight_five = omaha_low("Ah2dKcKs", "4c5s8dJhQd")
    eight_six = omaha_low("Ah2dKcKs", "3c6s8dJhQd")
    assert seven is not None and eight is not None and eight_five is not None and eight_six is not None
    assert seven > eight
    assert eight_five > eight_six


def test_low_uses_exactly_two_hole_cards() -> None:
    """A-2-3-4 in hand on 5-6-7: two from hand and three from board make 7-6-5-2-A, not a wheel."""
    assert describe_low("Ah2d3c4s", "5c6s7dJhQd") == "7-6-5-2-A low"


def test_board_with_two_low_cards_makes_no_low() -> None:
    assert omaha_low("Ah2d3c4s", "7c8sKdJhQd") is None


def test_omaha_low_agrees_with_pokerkit() -> None:
    """1,000 random Omaha hands: same qualifying lows and same order as OmahaEightOrBetterLowHand."""
    rng = random.Random(8)
    rows = []
    for _ in range(1000):
        cards = rng.sample(STANDARD.cards, 9)
        hole, board = "".join(cards[:4]), "".join(cards[4:])
        ours = low.evaluate_omaha_low8(cards[:4], cards[4:])
        try:
            theirs = OmahaEightOrBetterLowHand.from_game(hole, board)
        except ValueError:
            assert ours is None, f"{hole} {board}: we see a low, PokerKit none"
            continue
        assert ours is not None, f"{hole} {board}: PokerKit sees {theirs}, we see no low"
        rows.append((ours, theirs))
    assert len(rows) > 200
    rows.sort(key=lambda row: row[0])
    for (ours_a, theirs_a), (ours_b, theirs_b) in pairwise(rows):
        assert (ours_a == ours_b) == (theirs_a == theirs_b)
        assert ours_a == ours_b or theirs_a < theirs_b


def test_describe_low_refuses_a_strength_that_is_not_a_low() -> None:
    with pytest.raises(ValueError, match="not an 8-or-better low strength"):
        low.describe_low(low.LOW_LIMIT - 0b111)
