"""A hand's set-up, worked out once per game and structure (engine/hand_setup.py), and the forced bets a
player who covers them posts at once; a short stack is posted step by step (BLD-10). Players are in position
order: 0 the small blind, 1 the big blind, 2 the button."""

from __future__ import annotations

from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import Hand
from dealerpi.engine.hand_setup import hand_setup

NLHE = GAMES["nlhe"]


def test_hands_of_one_structure_share_one_setup_and_other_stakes_get_their_own() -> None:
    """Same game, players and stakes (lists or tuples alike): the same object; a 10/20 game: another."""
    first = hand_setup(NLHE, 3, [5, 10], [10, 10, 10], [], 10, None, 4, True, None, False, None)
    again = hand_setup(NLHE, 3, (5, 10), (10, 10, 10), (), 10, None, 4, True, None, False, None)
    other = hand_setup(NLHE, 3, (10, 20), (10, 10, 10), (), 20, None, 4, True, None, False, None)
    assert first is again
    assert other is not first
    assert (first.blinds, first.antes, first.forced, first.opening_level, first.preflop_first) == (
        (5, 10, 0), (10, 10, 10), (15, 20, 10), 10, 2)


def test_bld10_covered_stacks_post_blinds_and_antes_at_once() -> None:
    """NL 5/10, ante 10, three stacks of 1,000: 1,000 - 5 - 10 = 985, 1,000 - 10 - 10 = 980, 1,000 - 10 = 990;
    the bets hold the blinds only (5, 10, 0), the antes are dead money (10 each), the pot 15 + 20 + 10 = 45;
    the button (player 2) will act first, facing 10."""
    hand = Hand(NLHE, [1000, 1000, 1000], blinds=(5, 10), antes=(10, 10, 10), min_bet=10)
    assert hand.stacks == [985, 980, 990]
    assert hand.bets == [5, 10, 0]
    assert hand.dead_paid == [10, 10, 10] and hand.table_dead == [0, 0, 0]
    assert hand.contributed == [15, 20, 10] and hand.pot_total() == 45
    assert hand.phantom == 0 and hand.with_chips == 3
    assert hand.preflop_first == 2 and hand.current == 10


def test_bld10_a_big_blind_ante_is_the_tables_and_an_exact_stack_is_all_in() -> None:
    """NL 5/10 with a big-blind ante of 10 (player 1 alone antes: the table's money, BLD-10); the big blind
    holds exactly 10 + 10 = 20 and posts it all: 0 behind, all-in, so two players have chips behind."""
    hand = Hand(NLHE, [1000, 20, 1000], blinds=(5, 10), antes=(0, 10, 0), min_bet=10)
    assert hand.stacks == [995, 0, 1000]
    assert hand.table_dead == [0, 10, 0] and hand.dead_paid == [0, 10, 0]
    assert hand.with_chips == 2


def test_bld10_a_short_stack_posts_the_blind_first_then_what_is_left_of_the_ante() -> None:
    """The big blind holds 15 at 5/10, ante 10: he posts the blind (10), then 5 of the ante; the others
    post in full. Stacks 1,000 - 15 = 985, 0, 990; bets 5, 10, 0; dead money 10, 5, 10; nothing phantom (the
    blind was posted whole)."""
    hand = Hand(NLHE, [1000, 15, 1000], blinds=(5, 10), antes=(10, 10, 10), min_bet=10)
    assert hand.stacks == [985, 0, 990]
    assert hand.bets == [5, 10, 0]
    assert hand.dead_paid == [10, 5, 10]
    assert hand.contributed == [15, 15, 10]
    assert hand.phantom == 0 and hand.with_chips == 2
