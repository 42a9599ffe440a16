"""Silicon Valley File 'em (seed 000; DEAL-6): best seven of three hole and seven board Hexadec cards."""

from __future__ import annotations

import pytest

from dealerpi.cards import HEXADEC, CardError
from dealerpi.evaluation import fileem
from dealerpi.evaluation.checks import HandError

hexa = HEXADEC.parse_many

# One seven-card hand per category, best category first. The order is the one derived by hand in
# docs/fileem-rankings.md from the exact counts (rarest first, high card last).
CATEGORY_EXAMPLES = [
    ("straight flush", "1s2s3s4s5s6s7s"),
    ("quads and trips", "FsFhFdFc9s9h9d"),
    ("flush", "1s2s3s4s5s6s8s"),
    ("quads and pair", "FsFhFdFc9s9h2d"),
    ("double trips", "FsFhFd9s9h9d2c"),
    ("straight", "1s2h3d4c5s6h7d"),
    ("full house and pair", "FsFhFd9s9h2d2c"),
    ("four of a kind", "FsFhFdFc9s5h2d"),
    ("three pair", "FsFh9s9h2d2c5s"),
    ("full house", "FsFhFd9s9h2d5c"),
    ("three of a kind", "FsFhFd9s5h2d7c"),
    ("two pair", "FsFh9s9h2d5c7s"),
    ("one pair", "FsFh9s3h2d5c7s"),
    ("high card", "Fs9h3d2c5s7h0d"),
]


def best(hole: str, board: str) -> int:
    return fileem.evaluate(hexa(hole), hexa(board))


def category(strength: int) -> str:
    return fileem.RANKING.category_of(strength).name


@pytest.mark.parametrize(("name", "cards"), CATEGORY_EXAMPLES)
def test_each_category_is_recognised(name: str, cards: str) -> None:
    assert category(best("", cards)) == name


def test_categories_rank_in_the_documented_order() -> None:
    """docs/fileem-rankings.md: straight flush > quads and trips > flush > ... > one pair > high card."""
    strengths = [best("", cards) for _, cards in CATEGORY_EXAMPLES]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)


def test_zero_plays_low_in_the_lowest_straight() -> None:
    """Seed 000 / digest decisions: 0-1-2-3-4-5-6 is a straight, the lowest one."""
    wheel = best("", "0s1h2d3c4s5h6d")
    assert fileem.describe(wheel) == "straight, 6 high"
    assert best("", "1s2h3d4c5s6h7d") > wheel > best("", "FsFhFd9s9h2d2c")  # above full house and pair


def test_zero_is_the_top_of_the_highest_straight() -> None:
    top = best("", "AsBhCdDcEsFh0d")
    assert fileem.describe(top) == "straight, 0 high"
    assert top > best("", "9sAhBdCcDsEhFd")


def test_nine_and_a_are_neighbours() -> None:
    """1 < ... < 9 < A < ... < F < 0: 5-6-7-8-9-A-B is a straight."""
    assert fileem.describe(best("", "5s6h7d8c9sAhBd")) == "straight, B high"


def test_no_wraparound_straight() -> None:
    assert category(best("", "Fs0h1d2c3s4h5d")) == "high card"


def test_six_of_a_suit_is_not_a_flush() -> None:
    """A File 'em flush is seven cards of one suit."""
    assert category(best("", "1s2s3s4s5s6s9h")) == "high card"


def test_best_seven_of_ten_take_quads_with_the_best_pair() -> None:
    """F-F-F-F, 9-9, 5-5, 2, 3: quads and pair (F's and 9's, kicker 5) beats three pair and plain quads."""
    strength = best("FsFh9s", "FdFc9h5s5h2s3d")
    assert fileem.describe(strength) == "quads and pair, F's and 9's"
    assert strength == best("", "FsFhFdFc9s9h5d")


def test_one_pair_beats_the_highest_no_pair_hand() -> None:
    """With ten cards the player could always dodge a pair; one pair still ranks above high card."""
    strength = best("1s1h0d", "FcEsDhBd9c7s5h")
    assert fileem.describe(strength) == "one pair, 1's"
    assert strength > best("", "0dFcEsDhBd9c7s")


def test_a_straight_is_chosen_over_three_of_a_kind() -> None:
    assert fileem.describe(best("8s8h2d", "3c4s5h6d7c8cEs")) == "straight, 8 high"


def test_player_may_use_no_hole_card_and_then_splits() -> None:
    """Seed 000: playing the board, everyone holds the same hand."""
    board = "AsBsCsDsEsFs0s"
    assert best("1h2h3h", board) == best("4c5c9d", board)
    assert fileem.describe(best("1h2h3h", board)) == "straight flush, 0 high"


def test_player_may_use_all_three_hole_cards() -> None:
    assert fileem.describe(best("4h5h6h", "0s1h2d3cAsCdEh")) == "straight, 6 high"


def test_suits_never_break_ties() -> None:
    """Seed 000: "the card's numerical rank is of sole importance; suit values are irrelevant"."""
    assert best("FsFh9s", "9h2d5c7s1d3d4c") == best("FdFc9d", "9c2s5h7h1c3c4s")


def test_kickers_break_ties_seed_000_quads_example() -> None:
    """Seed 000: in Z-Z-Z-Z-D-E the D and E are kickers (Z read as the zero); the third kicker counts too."""
    assert best("", "0s0h0d0cDsEh5d") > best("", "0s0h0d0cDsEh4d")
    assert best("", "0s0h0d0cDsEh1d") > best("", "0s0h0d0cDsCh9d")


def test_ties_compare_bigger_groups_first() -> None:
    """Three pair: the highest pair first, then the next, then the kicker."""
    assert best("", "FsFh2s2h3d3c1s") > best("", "EsEhDsDh9d9cBs")
    assert best("", "FsFh9s9h2d2c5s") > best("", "FsFh9s9h2d2c4s")


@pytest.mark.parametrize(("cards", "words"), [
    ("FsFh9s9h2d2c5s", "three pair, F's, 9's and 2's"),
    ("FsFhFd9s9h2d2c", "full house and pair, F's full of 9's and 2's"),
    ("FsFhFdFc9s9h9d", "quads and trips, F's and 9's"),
    ("FsFhFd9s9h9d2c", "double trips, F's and 9's"),
    ("1s2s3s4s5s6s8s", "flush, 8 high"),
    ("Fs9h3d2c5s7h0d", "high card, 0 high"),
])
def test_describe_for_the_dealer_display(cards: str, words: str) -> None:
    assert fileem.describe(best("", cards)) == words


def test_fewer_than_seven_cards_is_refused() -> None:
    with pytest.raises(HandError, match="at least 7 cards, got 6"):
        best("FsFh9s", "9h2d5c")


def test_standard_only_card_is_refused() -> None:
    """DEAL-7: a 52-card card at a Hexadec table ("Ts": no rank T) is not in the deck."""
    with pytest.raises(CardError, match="'Ts' is not a card of the hexadec deck"):
        fileem.evaluate(("Ts", "Fh", "9s"), hexa("9h2d5c7s1d3d4c"))


def test_repeated_card_is_refused() -> None:
    with pytest.raises(HandError, match="9h appears twice"):
        best("FsFh9h", "9h2d5c7s1d3d4c")
