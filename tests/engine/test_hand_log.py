"""The hand's log (engine/hand_log.py): one typed record per step, in order, by player index."""

from __future__ import annotations

from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import Hand, Phase
from dealerpi.engine.hand_log import (
    BetOrRaisedTo,
    BoardDealt,
    CheckedOrCalled,
    Folded,
    HoleDealt,
    HoleSwapped,
    Killed,
    Mucked,
    RunsAgreed,
    Shown,
    StreetRetracted,
)


def played_with_a_swap_and_a_void_flop(hand: Hand) -> None:
    """EXP-1 then BRD-1: p2's exposed 7c is replaced by 9h; a void flop is taken back before anyone acted."""
    hand.deal_hole(0, ["Ks", "Kd"])
    hand.deal_hole(1, ["7c", "2d"])
    hand.deal_hole(2, ["As", "Ad"])
    hand.swap_hole(1, "7c", "9h")
    hand.bet_or_raise_to(6)
    hand.check_or_call()
    hand.fold()
    hand.deal_board(["2h", "5c", "9d"])
    hand.retract_street()
    hand.deal_board(["Jh", "5c", "9d"])
    hand.check_or_call()
    hand.bet_or_raise_to(10)
    hand.check_or_call()
    for card in ("Qs", "4c"):
        hand.deal_board([card])
        hand.check_or_call()
        hand.check_or_call()
    hand.show(0)
    hand.muck(2)


def test_every_step_is_one_typed_record_in_order_exp_1_brd_1_pot_7() -> None:
    """p3 raises to 6, p1 calls, p2 folds; flop redealt (BRD-1, the void flop is street 1); p3 bets 10 on it,
    p1 calls; checked down; p1 shows, p3 mucks. Pot 16 + 16 + p2's 2 = 34 to p1: 100 - 16 + 34 = 118,
    p2 98, p3 84."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    played_with_a_swap_and_a_void_flop(hand)
    assert hand.log == [
        HoleDealt(0, ("Ks", "Kd")), HoleDealt(1, ("7c", "2d")), HoleDealt(2, ("As", "Ad")),
        HoleSwapped(1, "7c", "9h"),
        BetOrRaisedTo(2, 6), CheckedOrCalled(0), Folded(1),
        BoardDealt(0, ("2h", "5c", "9d")), StreetRetracted(1), BoardDealt(0, ("Jh", "5c", "9d")),
        CheckedOrCalled(0), BetOrRaisedTo(2, 10), CheckedOrCalled(0),
        BoardDealt(0, ("Qs",)), CheckedOrCalled(0), CheckedOrCalled(2),
        BoardDealt(0, ("4c",)), CheckedOrCalled(0), CheckedOrCalled(2),
        Shown(0, ("Ks", "Kd")), Mucked(2),
    ]
    assert hand.stacks == [118, 98, 84]


def test_a_kill_and_agreed_runs_are_logged_mis_4_pot_11() -> None:
    """MIS-4: p2's hand is killed out of turn; p1 and p3 are all in for 100 pre-flop and agree to run it
    twice (POT-11)."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    for player, cards in enumerate((["Ks", "Kd"], ["7c", "2d"], ["As", "Ad"])):
        hand.deal_hole(player, cards)
    hand.bet_or_raise_to(100)
    hand.kill(1)
    hand.check_or_call()
    hand.run_it(2)
    assert hand.log is not None
    assert hand.log[3:] == [BetOrRaisedTo(2, 100), Killed(1), CheckedOrCalled(0), RunsAgreed(2)]


def test_a_hand_not_keeping_its_log_plays_the_same() -> None:
    """keep_log=False (the replay's hand) keeps no log and ends with the same stacks, 118, 98, 84."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2, keep_log=False)
    played_with_a_swap_and_a_void_flop(hand)
    assert (hand.log, hand.phase, hand.stacks) == (None, Phase.COMPLETE, [118, 98, 84])
