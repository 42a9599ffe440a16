"""Equities worked by hand: river results, turn outs counted over the unseen cards, dead cards (issue 21)."""

from __future__ import annotations

import pytest

from dealerpi.equity import EquityError, compute_equities, compute_outs


def test_river_aces_beat_kings_outright() -> None:
    """No straight or flush is possible on 2c 7d 9h 3s Jc: the aces win the whole pot."""
    result = compute_equities("nlhe", ["AhAs", "KdKc"], ["2c", "7d", "9h", "3s", "Jc"])
    assert result.equities == (1.0, 0.0)
    assert result.exact and result.boards == 1 and result.stderr is None


def test_river_royal_flush_on_board_splits() -> None:
    """Both hands play the board's royal flush: the pot is split, 0.5 each."""
    result = compute_equities("nlhe", ["AhAs", "KdKh"], "AcKcQcJcTc")
    assert result.equities == (0.5, 0.5)


def test_turn_kings_have_two_outs_of_44() -> None:
    """AhAs v KdKc on 2c 7d 9h 3s: 52 - 4 hole - 4 board = 44 unseen rivers; only Ks and Kh win for the
    kings (no straight or flush draw reaches five), so kings 2/44, aces 42/44."""
    result = compute_equities("nlhe", ["AhAs", "KdKc"], "2c7d9h3s")
    assert result.equities == pytest.approx((42 / 44, 2 / 44), abs=1e-12)
    assert result.boards == 44


def test_turn_dead_king_leaves_one_out_of_43() -> None:
    """The same turn with Kh folded by a third player: 43 unseen rivers, the kings have only Ks."""
    result = compute_equities("nlhe", ["AhAs", "KdKc"], "2c7d9h3s", dead=["Kh"])
    assert result.equities == pytest.approx((42 / 43, 1 / 43), abs=1e-12)
    assert result.boards == 43


def test_turn_outs_are_the_two_kings() -> None:
    outs = compute_outs("nlhe", ["AhAs", "KdKc"], "2c7d9h3s")
    assert outs is not None
    assert outs.leader == 0
    assert sorted(outs.cards[1]) == ["Kh", "Ks"] and outs.cards[0] == ()
    assert outs.ties == ((), ())


def test_duplicate_card_names_the_argument() -> None:
    with pytest.raises(EquityError, match="^board: Kc is already in hand 2$"):
        compute_equities("nlhe", ["AhAs", "KdKc"], "Kc7d9h")
