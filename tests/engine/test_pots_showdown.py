"""Pots and showdown (rules-digest section 6) through the seeds' and the digest's examples."""

from __future__ import annotations

import pytest

from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import Hand, IllegalAction, Phase
from dealerpi.engine.pots import Pot, build_pots


def check_round(hand: Hand) -> None:
    while hand.phase is Phase.BETTING:
        hand.check_or_call()


def test_pot1_seed001_side_pot_example() -> None:
    """POT-1, seed 001: A 200, B 150, C 100 all in: main pot 300 (A, B, C), side pot 100 (A, B), A gets 50 back.
    C holds aces and wins the main pot; B beats A for the side pot."""
    hand = Hand(GAMES["nlhe"], [100, 200, 150], min_bet=2)        # C, A, B in position order
    for player, cards in enumerate((["As", "Ad"], ["7h", "2d"], ["Ks", "Kd"])):
        hand.deal_hole(player, cards)
    hand.bet_or_raise_to(100)                                     # C all in
    hand.bet_or_raise_to(200)                                     # A re-raises all in
    hand.check_or_call()                                          # B calls all in for 150
    assert hand.returned == [0, 50, 0]                            # POT-2: A's uncalled 50 comes back
    assert hand.pots() == [Pot(300, (0, 1, 2)), Pot(100, (1, 2))]
    hand.deal_board(["3c", "8c", "9h"])
    hand.deal_board(["Jd"])
    hand.deal_board(["4s"])
    hand.settle()
    assert hand.stacks == [300, 50, 100]


def test_pot2_seed001_uncalled_part_returned() -> None:
    """POT-2, seed 001: you have 120, your opponent 100; you go all in and are called: 20 back, win or lose."""
    hand = Hand(GAMES["nlhe"], [120, 100], min_bet=2)
    hand.deal_hole(0, ["2c", "7d"])
    hand.deal_hole(1, ["As", "Ah"])
    hand.bet_or_raise_to(120)
    hand.check_or_call()
    assert hand.returned == [20, 0]
    for cards in (["3h", "9s", "Tc"], ["Jd"], ["Qs"]):
        hand.deal_board(cards)
    hand.settle()
    assert hand.stacks == [20, 200]


def test_pot3_odd_chip_to_first_winner_left_of_button() -> None:
    """POT-3: a tied pot's odd chip goes to the first winner clockwise from the button."""
    hand = Hand(GAMES["nlhe"], [100] * 3, antes=[1, 1, 1], min_bet=2, bomb=True)
    for player, cards in enumerate((["2c", "2d"], ["Kh", "Qd"], ["Ks", "Qc"])):
        hand.deal_hole(player, cards)
    hand.deal_board(["5c", "6d", "7h"])
    hand.fold()                                                    # player 0 folds his deuces
    check_round(hand)
    hand.deal_board(["8s"])
    check_round(hand)
    hand.deal_board(["9c"])
    check_round(hand)                                              # both play the board: a tie for 3 chips
    hand.settle()
    assert hand.won == [0, 2, 1]


def test_pot4_hilo_quartering_digest_example() -> None:
    """POT-4: pot 100, A high, B and C tie for low -> 50/25/25; pot 101 -> A gets 51."""
    for antes, expected in (([34, 33, 33], [50, 25, 25]), ([35, 33, 33], [51, 25, 25])):
        hand = Hand(GAMES["plo8"], [1000] * 3, antes=antes, min_bet=2, bomb=True)
        hand.deal_hole(0, ["As", "Ah", "Kh", "Kc"])               # A: trip kings, no low (aces paired)
        hand.deal_hole(1, ["3c", "8d", "9s", "Tc"])               # B: 8-7-4-3-2 low
        hand.deal_hole(2, ["3d", "8h", "Jc", "Jd"])               # C: the same low
        for cards in (["2c", "4d", "7h"], ["Ks"], ["Qs"]):
            hand.deal_board(cards)
            check_round(hand)
        hand.settle()
        assert hand.won == expected


def test_pot4_no_qualifying_low_high_scoops() -> None:
    """POT-4: with no low of 8 or better the high hand wins the whole pot."""
    hand = Hand(GAMES["plo8"], [1000] * 2, antes=[50, 50], min_bet=2, bomb=True)
    hand.deal_hole(0, ["As", "Ah", "Kh", "Kc"])
    hand.deal_hole(1, ["3c", "8d", "9s", "Tc"])
    for cards in (["2c", "Jd", "Qh"], ["Ks"], ["Qs"]):
        hand.deal_board(cards)
        check_round(hand)
    hand.settle()
    assert hand.won == [100, 0]


def test_pot8_last_live_hand_wins_unshown() -> None:
    """POT-8: if all but one fold, the last live hand wins without showing."""
    hand = Hand(GAMES["nlhe"], [300] * 3, blinds=[1, 3], min_bet=3)
    for player, cards in enumerate((["2c", "2d"], ["Kh", "Qd"], ["Ks", "Qc"])):
        hand.deal_hole(player, cards)
    hand.bet_or_raise_to(9)
    hand.fold()
    hand.fold()
    assert hand.phase is Phase.COMPLETE
    assert hand.stacks == [299, 297, 304] and not any(hand.shown)


def test_muck_refused_for_the_last_live_hand_of_a_pot() -> None:
    """POT-8: the last live hand of a pot cannot be mucked; it wins."""
    hand = Hand(GAMES["nlhe"], [100, 100], antes=[1, 1], min_bet=2)
    hand.deal_hole(0, ["2c", "2d"])
    hand.deal_hole(1, ["Kh", "Qd"])
    for cards in ([], ["3h", "9s", "Tc"], ["Jd"], ["4s"]):
        if cards:
            hand.deal_board(cards)
        check_round(hand)
    hand.muck(0)
    with pytest.raises(IllegalAction, match="last live hand"):
        hand.muck(1)
    hand.show(1)
    assert hand.phase is Phase.COMPLETE and hand.stacks == [99, 101]


def test_pot11_seed001_run_it_twice_example() -> None:
    """POT-11, seed 001: flop Ac Ah Tc; A (Ad Kd) all in, B (9c 8c) calls; run 1 5d Qd (A wins), run 2 7h 2c
    (B's flush): the pot is chopped."""
    hand = Hand(GAMES["nlhe"], [100, 100], min_bet=2)
    hand.deal_hole(0, ["Ad", "Kd"])
    hand.deal_hole(1, ["9c", "8c"])
    check_round(hand)
    hand.deal_board(["Ac", "Ah", "Tc"])
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    hand.run_it(2)
    hand.deal_board(["5d"], 0)
    hand.deal_board(["Qd"], 0)
    hand.deal_board(["7h"], 1)
    hand.deal_board(["2c"], 1)
    hand.settle()
    assert hand.boards == [["Ac", "Ah", "Tc", "5d", "Qd"], ["Ac", "Ah", "Tc", "7h", "2c"]]
    assert hand.stacks == [100, 100]


def test_pot11_odd_chip_between_runs_goes_to_the_first_run() -> None:
    """Digest decision for POT-11: a pot cut into N shares, remainder chips to the earlier run."""
    hand = Hand(GAMES["nlhe"], [100, 100], antes=[1, 0], min_bet=2)
    hand.deal_hole(0, ["Ad", "Kd"])
    hand.deal_hole(1, ["9c", "8c"])
    check_round(hand)
    hand.deal_board(["Ac", "Ah", "Tc"])
    hand.bet_or_raise_to(99)
    hand.check_or_call()                          # pot 199
    hand.run_it(2)
    for board, cards in ((0, ["5d", "Qd"]), (1, ["7h", "2c"])):
        hand.deal_board(cards, board)
    hand.settle()
    assert hand.won == [100, 99]


def test_pot12_double_board_bomb_pot_each_board_half() -> None:
    """POT-12, seed 001: double-board PLO bomb pot; each board is worth half the pot."""
    hand = Hand(GAMES["plo-double"], [500] * 2, antes=[20, 20], min_bet=10, bomb=True)
    hand.deal_hole(0, ["As", "Ah", "Kh", "Kc"])
    hand.deal_hole(1, ["Qc", "Qd", "Js", "Jd"])
    hand.deal_board(["Ad", "7c", "2s"], 0)
    hand.deal_board(["Qs", "7d", "3s"], 1)
    for street in (["8h"], ["9h"]):
        check_round(hand)
        hand.deal_board(street, 0)
        hand.deal_board([{"8h": "4c", "9h": "5c"}[street[0]]], 1)
    check_round(hand)
    hand.settle()
    assert hand.won == [20, 20]                    # board 1: aces for player 0; board 2: queens for player 1


def test_build_pots_folded_chips_count_but_never_win() -> None:
    """POT-1: folded chips count toward the layers, but a folded player is never eligible."""
    pots = build_pots([50, 100, 100, 30], live=[False, True, True, True], all_in=[False, False, True, True])
    assert pots == [Pot(120, (1, 2, 3)), Pot(160, (1, 2))]


def test_pots_mid_round_keep_players_who_can_still_call() -> None:
    """POT-1 during a betting round: a player who has not yet answered an all-in is still eligible."""
    hand = Hand(GAMES["nlhe"], [300, 300, 20], blinds=[1, 3], min_bet=3)
    for player, cards in enumerate((["2c", "2d"], ["Kh", "Qd"], ["Ks", "Qc"])):
        hand.deal_hole(player, cards)
    hand.bet_or_raise_to(20)                       # the button is all in for 20; the blinds have not acted
    assert hand.pots() == [Pot(24, (0, 1, 2))]
