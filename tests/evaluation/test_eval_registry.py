"""The evaluator names the engine's game definitions use, and describe() for the dealer display."""

from __future__ import annotations

import pytest

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.evaluation.registry import EVALUATORS, describe

std, hexa = STANDARD.parse_many, HEXADEC.parse_many


def test_the_four_evaluators_are_registered() -> None:
    assert sorted(EVALUATORS) == ["fileem", "high", "omaha_high", "omaha_low8"]


@pytest.mark.parametrize(("name", "hole", "board", "words"), [
    ("high", std("AhKh"), std("QhJhTh2c3d"), "straight flush, ace high"),
    ("omaha_high", std("AhKh2c3d"), std("QhJhTh9s8s"), "straight flush, ace high"),
    ("omaha_low8", std("Ah2dKcQs"), std("3c4s8dJhQd"), "8-4-3-2-A low"),  # POT-4
    ("fileem", hexa("FsFh9s"), hexa("9h2d2c5s1d3h7c"), "three pair, F's, 9's and 2's"),  # seed 000
])
def test_evaluate_then_describe(name: str, hole: tuple[str, ...], board: tuple[str, ...], words: str) -> None:
    strength = EVALUATORS[name](hole, board)
    assert strength is not None
    assert describe(name, strength) == words


def test_omaha_low8_without_a_qualifying_low_is_none() -> None:
    """POT-4: with no qualifying low the high hand takes the whole pot; the evaluator says None."""
    assert EVALUATORS["omaha_low8"](std("KhKdQcJs"), std("9c9s8dJhQd")) is None


def test_bigger_is_better_for_every_evaluator() -> None:
    aces = EVALUATORS["high"](std("AsAd"), std("2c7d9hJsKc"))
    kings = EVALUATORS["high"](std("KsKd"), std("2c7d9hJsQc"))
    assert aces is not None and kings is not None and aces > kings
    low_7 = EVALUATORS["omaha_low8"](std("Ah2dKcQs"), std("3c4s7dJhQd"))
    low_8 = EVALUATORS["omaha_low8"](std("Ah2dKcQs"), std("3c4s8dJhQd"))
    assert low_7 is not None and low_8 is not None and low_7 > low_8


def test_describe_refuses_an_unknown_evaluator() -> None:
    with pytest.raises(ValueError, match="unknown evaluator 'razz'; known: high, omaha_high"):
        describe("razz", 1)


def test_describe_refuses_a_strength_from_nowhere() -> None:
    with pytest.raises(ValueError, match="is not a standard 5-card strength"):
        describe("high", 1 << 40)
