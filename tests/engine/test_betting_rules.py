"""Betting rules of rules-digest section 4, each through the digest's or the seed's own example."""

from __future__ import annotations

import pytest

from dealerpi.cards import STANDARD
from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import Hand, IllegalAction, Phase


def dealt(hand: Hand) -> Hand:
    """Deal distinct hole cards to everyone (the cards do not matter to these betting tests)."""
    cards = iter(reversed(STANDARD.cards))   # aces down; the boards below use low cards
    for player in range(hand.n):
        hand.deal_hole(player, [next(cards) for _ in range(hand.game.hole_cards)])
    return hand


def test_bet2_min_reraise_digest_example() -> None:
    """BET-2: blinds 100/200; A bets 600, B raises to 1600, C raises to 3600 -> D's minimum raise is to 5600."""
    hand = dealt(Hand(GAMES["nlhe"], [10_000] * 6, blinds=[100, 200], min_bet=200))
    assert hand.legal().raise_min_to == 400          # BET-1: first raise pre-flop is to twice the big blind
    hand.bet_or_raise_to(600)
    hand.bet_or_raise_to(1600)
    hand.bet_or_raise_to(3600)
    legal = hand.legal()
    assert (legal.call_to, legal.raise_min_to, legal.raise_max_to) == (3600, 5600, 10_000)


def test_bet2_seed001_call_then_raise_to_10_min_reraise_17() -> None:
    """seed 001: 3 called, raise to 10 -> the minimum re-raise is to 17."""
    hand = dealt(Hand(GAMES["nlhe"], [300] * 4, blinds=[1, 3], min_bet=3))
    hand.check_or_call()                               # UTG calls 3
    hand.bet_or_raise_to(10)                           # button raises to 10
    assert hand.legal().raise_min_to == 17


def test_bet2_illegal_raise_rejected_with_reason_and_no_change() -> None:
    """BET-2: a raise below the minimum is refused with the legal span; nothing changes."""
    hand = dealt(Hand(GAMES["nlhe"], [300] * 3, blinds=[1, 3], min_bet=3))
    before = (list(hand.stacks), list(hand.bets), hand.actor)
    with pytest.raises(IllegalAction, match="from 6 to 300"):
        hand.bet_or_raise_to(5)
    assert (list(hand.stacks), list(hand.bets), hand.actor) == before


def test_bet4_seed001_short_allin_does_not_reopen_for_the_bettor() -> None:
    """seed 001 / BET-4: bet 50, next player all-in for 80 -> the bettor may call 80 but not re-raise."""
    hand = dealt(Hand(GAMES["nlhe"], [1000, 80, 1000], blinds=[0, 0], min_bet=10))
    hand.bet_or_raise_to(50)                           # player 0 bets 50 (no blinds: 0 acts first)
    hand.bet_or_raise_to(80)                           # player 1 all-in for 80: a raise of 30 < 50
    legal = hand.legal()                               # player 2 has not acted: may raise, to 80 + 50
    assert (legal.call_to, legal.raise_min_to) == (80, 130)
    hand.check_or_call()
    legal = hand.legal()                               # back to the bettor
    assert hand.actor == 0
    assert (legal.call_to, legal.raise_min_to, legal.raise_max_to) == (80, None, None)


def test_bet4_digest_example_several_short_allins() -> None:
    """BET-4 (TDA 47 addendum): blinds 50-100; on the flop A bets 300; B, C, D go all-in for 500, 650, 800;
    E calls -> F may call 800 or raise to at least 1100; A, 500 behind the action, may raise again."""
    # every player calls 100 pre-flop; then A..F are players 0..5 and act in that order on the flop
    hand = dealt(Hand(GAMES["nlhe"], [5000, 600, 750, 900, 5000, 5000], blinds=[50, 100], min_bet=100))
    for _ in range(5):
        hand.check_or_call()
    hand.check_or_call()                               # the big blind checks his option
    hand.deal_board(["2c", "3d", "4h"])
    hand.bet_or_raise_to(300)
    hand.bet_or_raise_to(500)
    hand.bet_or_raise_to(650)
    hand.bet_or_raise_to(800)
    hand.check_or_call()
    legal = hand.legal()
    assert hand.actor == 5
    assert (legal.call_to, legal.raise_min_to, legal.raise_max_to) == (800, 1100, 4900)
    hand.check_or_call()
    assert hand.actor == 0
    assert hand.legal().raise_min_to == 1100           # 800 - 300 >= 300: reopened for A


def test_bet6_limit_cap_bet_and_three_raises_bb_counts_as_the_bet() -> None:
    """BET-6: a bet and three raises; pre-flop the big blind is the bet, so the cap is 4 small bets."""
    hand = dealt(Hand(GAMES["flhe"], [1000] * 4, blinds=[5, 10], limits=(10, 20)))
    for to in (20, 30, 40):
        assert hand.legal().raise_min_to == to
        hand.bet_or_raise_to(to)
    legal = hand.legal()
    assert (legal.call_to, legal.raise_min_to) == (40, None)


def test_bet6_limit_cap_lifted_heads_up_rrop_policy() -> None:
    """BET-6 (RRoP): heads-up the raises are unlimited; with cap_heads_up (TDA 48) the cap holds."""
    uncapped = dealt(Hand(GAMES["flhe"], [1000] * 2, blinds=[10, 5], limits=(10, 20), cap_heads_up=False))
    capped = dealt(Hand(GAMES["flhe"], [1000] * 2, blinds=[10, 5], limits=(10, 20), cap_heads_up=True))
    for hand in (uncapped, capped):
        for to in (20, 30, 40):
            hand.bet_or_raise_to(to)
    assert uncapped.legal().raise_min_to == 50
    assert capped.legal().raise_min_to is None


def test_bet7_limit_allin_half_a_bet_or_more_is_a_full_bet() -> None:
    """BET-7: on a $20 street a $15 all-in (half a bet or more) may be raised to $35."""
    hand = dealt(Hand(GAMES["flhe"], [1000, 1000, 15], blinds=[0, 0], limits=(10, 20)))
    hand.check_or_call()
    hand.check_or_call()
    hand.check_or_call()                               # pre-flop checked through, no blinds
    hand.deal_board(["2c", "3c", "4c"])
    for _ in range(3):
        hand.check_or_call()
    hand.deal_board(["5c"])                            # turn: big bet 20
    hand.check_or_call()
    hand.check_or_call()
    assert hand.legal().raise_min_to == 15             # player 2 has only 15 behind: bets all-in 15
    hand.bet_or_raise_to(15)
    assert (hand.actor, hand.legal().raise_min_to) == (0, 35)


def test_bet7_limit_allin_under_half_a_bet_others_complete() -> None:
    """BET-7: under half a bet does not reopen; a player who has not acted may complete to the full bet."""
    hand = dealt(Hand(GAMES["flhe"], [1000, 14, 1000], blinds=[0, 0], limits=(10, 20)))
    for _ in range(3):
        hand.check_or_call()
    hand.deal_board(["2c", "3c", "4c"])
    hand.bet_or_raise_to(10)                           # player 0 bets 10
    hand.bet_or_raise_to(14)                           # player 1 all-in for 14: under half a bet more
    assert hand.legal().raise_min_to == 20             # player 2 completes to 20
    hand.check_or_call()                               # player 2 calls 14
    assert (hand.actor, hand.legal().call_to, hand.legal().raise_min_to) == (0, 14, None)


def test_bet8_pot_limit_max_digest_example() -> None:
    """BET-8: pot 100, a bet of 50 -> the maximum is a raise to 250."""
    hand = dealt(Hand(GAMES["plhe"], [1000] * 3, antes=[34, 33, 33], min_bet=10, bomb=True))
    hand.deal_board(["2c", "3d", "4h"])                # pot 100 of antes
    hand.bet_or_raise_to(50)
    assert hand.legal().raise_max_to == 250


def test_bet8_plo_first_player_may_bet_700_at_100_200() -> None:
    """BET-8: PLO 100/200, the first player may bet 700 in total (call 200 plus the pot of 500)."""
    hand = dealt(Hand(GAMES["plo"], [5000] * 4, blinds=[100, 200], min_bet=200))
    assert hand.legal().raise_max_to == 700


def test_bet8_short_big_blind_counts_as_full_in_the_pot_limit() -> None:
    """BET-8: pre-flop the pot is counted as if the full blinds were posted (BB all-in for 150 of 200)."""
    hand = dealt(Hand(GAMES["plo"], [5000, 150, 5000, 5000], blinds=[100, 200], min_bet=200))
    assert hand.legal().raise_max_to == 700


def test_bet13_big_blind_option() -> None:
    """BET-13: when pre-flop has only calls, the big blind may check or raise."""
    hand = dealt(Hand(GAMES["nlhe"], [300] * 3, blinds=[1, 3], min_bet=3))
    hand.check_or_call()
    hand.check_or_call()
    assert hand.actor == 1
    legal = hand.legal()
    assert (legal.check, legal.raise_min_to) == (True, 6)
    hand.check_or_call()
    assert hand.phase is Phase.DEAL_BOARD


def test_bet14_short_allin_big_blind_seed002_b24() -> None:
    """BET-14 / seed 002 B24: blinds 50/100, BB all-in for 60: UTG must call 100 or raise to at least 200,
    and the BB wins at most 60 from each player."""
    hand = dealt(Hand(GAMES["nlhe"], [1000, 60, 1000, 1000], blinds=[50, 100], min_bet=100))
    legal = hand.legal()
    assert (hand.actor, legal.call_to, legal.raise_min_to) == (2, 100, 200)
    hand.check_or_call()
    hand.fold()
    hand.check_or_call()                               # SB completes to 100
    pots = hand.pots()
    assert [(p.amount, p.eligible) for p in pots] == [(180, (0, 1, 2)), (80, (0, 2))]


def test_out_of_turn_action_is_refused_bet12() -> None:
    """BET-12: an action by a player who is not to act is refused; nothing changes."""
    hand = dealt(Hand(GAMES["nlhe"], [300] * 3, blinds=[1, 3], min_bet=3))
    with pytest.raises(IllegalAction, match="out of turn"):
        hand.fold(player=0)
    assert hand.actor == 2 and not any(hand.folded)
