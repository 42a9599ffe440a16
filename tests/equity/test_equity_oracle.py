"""dealerpi.equity against the independent oracle (tests/equity/oracle.py) on the fixed corpus, to 1e-9; the
same spots through PokerKit's hand evaluators where it plays the book; runs and double boards against a joint
enumeration of every ordered deal (issue 21)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from equity.corpus import CORPUS, Case
from equity.oracle import Value, equities, run_equities
from pokerkit import Hand, OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand

from dealerpi.equity import compute_equities


@pytest.mark.parametrize("case", CORPUS, ids=[case.name for case in CORPUS])
def test_corpus_equals_exhaustive_oracle(case: Case) -> None:
    hands = [case.cards(hand) for hand in case.hands]
    board, dead = case.cards(case.board), case.cards(case.dead)
    expected = equities(case.game, hands, board, dead)
    result = compute_equities(case.game, hands, board, dead)
    assert result.exact and result.stderr is None
    assert result.equities == pytest.approx([float(e) for e in expected], abs=1e-9)
    assert sum(result.equities) == pytest.approx(1.0, abs=1e-12)


def _pokerkit(hand_type: type[Hand], *, low: bool = False) -> Value:
    def value(hole: Sequence[str], board: Sequence[str]) -> Hand | None:
        try:
            return hand_type.from_game("".join(hole), "".join(board))
        except ValueError:   # PokerKit: no qualifying hand (an 8-or-better low)
            if low:
                return None
            raise
    return value


POKERKIT_CASES = [case for case in CORPUS   # PokerKit is slow: hold'em from the flop, Omaha from the turn
                  if case.game != "fileem" and len(case.board) >= (6 if case.game == "nlhe" else 8)]


@pytest.mark.parametrize("case", POKERKIT_CASES, ids=[case.name for case in POKERKIT_CASES])
def test_corpus_equals_enumeration_with_pokerkit_hands(case: Case) -> None:
    """PokerKit values the hands (StandardHighHand; OmahaHoldemHand; OmahaEightOrBetterLowHand), an evaluator
    written apart from DealerPi's: the equities agree to 1e-9."""
    hands = [case.cards(hand) for hand in case.hands]
    board, dead = case.cards(case.board), case.cards(case.dead)
    high_type = StandardHighHand if case.game == "nlhe" else OmahaHoldemHand
    expected = equities(case.game, hands, board, dead, high_value=_pokerkit(high_type),
                        low_value=_pokerkit(OmahaEightOrBetterLowHand, low=True))
    result = compute_equities(case.game, hands, board, dead)
    assert result.equities == pytest.approx([float(e) for e in expected], abs=1e-9)


def test_run_it_twice_from_the_turn_equals_joint_deal() -> None:
    """POT-11 runs: the second river comes from the stub the first left; the average over every ordered pair
    of rivers equals compute_equities(runs=2) (and, by symmetry, the one-run equity)."""
    hands = [("Ah", "As"), ("Kd", "Kc")]
    board = ("2c", "7d", "9h", "3s")
    expected = run_equities("nlhe", hands, [board, board])
    result = compute_equities("nlhe", hands, board, runs=2)
    assert result.equities == pytest.approx([float(e) for e in expected], abs=1e-9)
    assert result.boards == 44   # the two runs' rivers have the same law: one enumeration serves both


def test_second_run_under_way_counts_the_first_runs_cards_out() -> None:
    """Run one finished on the river 2h, run two at the turn: the boards as the engine holds them."""
    hands = [("Ah", "As"), ("Kd", "Kc")]
    first, second = ("2c", "7d", "9h", "Ks", "2h"), ("2c", "7d", "9h", "3s")
    expected = run_equities("nlhe", hands, [first, second])
    result = compute_equities("nlhe", hands, boards=[first, second])
    assert result.equities == pytest.approx([float(e) for e in expected], abs=1e-9)


def test_double_board_omaha_from_the_turn_equals_joint_deal() -> None:
    """seed 001 double board: each board half the pot, both finished from one stub."""
    hands = [("As", "Ks", "Qd", "Jd"), ("9h", "9c", "8h", "7c")]
    top, bottom = ("Ts", "6h", "2s", "3d"), ("Ah", "Kc", "5s", "4h")
    expected = run_equities("plo", hands, [top, bottom])
    result = compute_equities("plo-double", hands, boards=[top, bottom])
    assert result.equities == pytest.approx([float(e) for e in expected], abs=1e-9)
