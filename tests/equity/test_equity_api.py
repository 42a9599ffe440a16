"""The API's promises beyond the numbers: Monte Carlo seeded and within its stated error, outs only where
they apply, and the table daemon and the engine never load numpy or the equity package (issue 21)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from equity.oracle import board_shares

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.equity import EquityError, compute_equities, compute_outs


def test_monte_carlo_is_seeded_and_within_its_error_of_the_exact_value() -> None:
    """The flop spot is exact with 990 boards; 4,000 sampled boards land within 4 standard errors of it, and
    the same seed draws the same boards."""
    exact = compute_equities("nlhe", ["AhAs", "KdKc"], "2c7d9h")
    sampled = compute_equities("nlhe", ["AhAs", "KdKc"], "2c7d9h", samples=4000, seed=7)
    again = compute_equities("nlhe", ["AhAs", "KdKc"], "2c7d9h", samples=4000, seed=7)
    assert not sampled.exact and sampled.boards == 4000
    assert sampled == again
    assert sampled.stderr is not None and 0.002 < sampled.stderr < 0.01
    for hand, truth in zip(sampled.hands, exact.equities, strict=True):
        assert hand.stderr is not None
        assert abs(hand.equity - truth) < 4 * hand.stderr


def test_fileem_preflop_falls_back_to_monte_carlo() -> None:
    """C(58, 7) = 300,674,088 boards is over the exact limit: Monte Carlo by default, with its error."""
    result = compute_equities("fileem", ["0h0sFd", "1d2c3h"])
    assert not result.exact and result.stderr is not None and result.stderr < 0.01


def test_double_board_from_a_common_flop_equals_one_board() -> None:
    """Both boards of plo-double start from the same flop and are finished from one stub: each has the law
    of a single board, so the equity equals the single-board one (each board half the pot)."""
    double = compute_equities("plo-double", ["AsKsQdJd", "9h9c8h7c"], "Ts6h2s")
    single = compute_equities("plo", ["AsKsQdJd", "9h9c8h7c"], "Ts6h2s")
    assert double.equities == pytest.approx(single.equities, abs=1e-12)


@pytest.mark.parametrize(("hands", "board"), [
    (["AhAs", "KdKc"], ""),                          # preflop: the flop is three cards
    (["AhAs", "KdKc"], "2c7d9h3s4h"),                # the river: nothing to come
    (["AhAs", "KdKc", "QsQh"], "2c7d9h"),            # three hands: outs are heads-up only
])
def test_outs_apply_heads_up_before_a_one_card_street(hands: list[str], board: str) -> None:
    assert compute_outs("nlhe", hands, board) is None


def test_fileem_outs_only_before_its_one_card_river() -> None:
    """File 'em's turn brings two cards (DEAL-6, seed 000): no single-card outs on the flop; on the turn the
    river is one card."""
    assert compute_outs("fileem", ["0h0sFd", "1d2c3h"], "2s7d9hAc") is None
    outs = compute_outs("fileem", ["0h0sFd", "1d2c3h"], "2s7d9hAcBdCc")
    assert outs is not None and outs.leader is not None


def test_outs_count_dead_cards_out() -> None:
    """True outs: with Kh folded, only Ks is left for the kings."""
    outs = compute_outs("nlhe", ["AhAs", "KdKc"], "2c7d9h3s", dead=["Kh"])
    assert outs is not None and outs.cards == ((), ("Ks",))


def test_one_hand_has_all_the_pot_and_bad_runs_are_refused() -> None:
    assert compute_equities("nlhe", ["AhAs"], "2c7d9h3s").equities == (1.0,)
    with pytest.raises(EquityError, match=r"^runs: 0 is not a number of runs"):
        compute_equities("nlhe", ["AhAs", "KdKc"], runs=0)
    with pytest.raises(EquityError, match=r"^game: 'stud' is not a game DealerPi deals"):
        compute_equities("stud", ["AhAs", "KdKc"])


def test_daemon_and_engine_do_not_load_numpy() -> None:
    """The engine stays pure and the daemon light: importing them loads neither numpy nor dealerpi.equity.
    Positive control: importing dealerpi.equity in the same way does load numpy."""
    probe = "import sys, {0}; print('numpy' in sys.modules, 'dealerpi.equity' in sys.modules)"
    for module, expected in (("dealerpi.table.daemon, dealerpi.engine.table", "False False"),
                             ("dealerpi.equity", "True True")):
        done = subprocess.run([sys.executable, "-c", probe.format(module)], capture_output=True, text=True,
                              timeout=120, check=True)
        assert done.stdout.strip() == expected, module


def test_samples_on_a_complete_board_is_the_one_board() -> None:
    """Nothing left to draw: Monte Carlo has nothing to sample, the river is valued as it is."""
    result = compute_equities("nlhe", ["AhAs", "KdKc"], "2c7d9h3sJc", samples=1000)
    assert result.equities == (1.0, 0.0) and result.exact and result.boards == 1


@pytest.mark.parametrize(("game", "hands", "board"), [
    ("nlhe", ("AhKh", "QsQd"), "Th7h2c3s"),
    ("plo8", ("Ah2s3dKc", "Ad2c5hQh"), "4c8d9s7h"),
    ("plo8", ("Ah2s3dKc", "Ad2c5hQh"), "4c8d9s"),
    ("fileem", ("0h0sFd", "1d2c3h"), "2s7d9hAcBdCc"),
])
def test_outs_equal_a_count_by_dealerpis_evaluators(game: str, hands: tuple[str, str], board: str) -> None:
    """Every unseen card dealt next, the pot shared by oracle.board_shares (DealerPi's evaluators): the cards
    after which the other hand has the bigger share are the outs."""
    deck = HEXADEC if game == "fileem" else STANDARD
    parsed = [deck.parse_many(hand) for hand in hands]
    known = deck.parse_many(board)
    now = board_shares(game, parsed, known)
    leader = None if now[0] == now[1] else int(now[1] > now[0])
    expected: list[list[str]] = [[], []]
    for card in deck.cards:
        if card in known or any(card in hand for hand in parsed):
            continue
        after = board_shares(game, parsed, (*known, card))
        ahead = None if after[0] == after[1] else int(after[1] > after[0])
        if ahead is not None and ahead != leader:
            expected[ahead].append(card)
    outs = compute_outs("fileem" if game == "fileem" else game, list(hands), board)
    assert outs is not None and outs.leader == leader
    assert [list(cards) for cards in outs.cards] == expected


def test_warm_up_builds_every_table_before_the_first_hand() -> None:
    """In a fresh process: nothing is built at import (the daemon-side cost is nil), everything after warm_up."""
    probe = ("from dealerpi.equity import warm_up, standard, hexadec\n"
             "before = standard.tables.cache_info().currsize, hexadec.mask_tables.cache_info().currsize\n"
             "warm_up()\n"
             "print(before, (standard.tables.cache_info().currsize, hexadec.mask_tables.cache_info().currsize))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "(0, 0) (1, 1)"
