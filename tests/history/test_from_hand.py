"""Writing hands the engine played as PHH (dealerpi.history.from_hand): exact text, and every record replays
to the engine's own final stacks."""

from __future__ import annotations

import pytest

from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import UNKNOWN, Hand
from dealerpi.history.from_hand import record_from_hand
from dealerpi.history.phh import PHHError, dumps, loads
from dealerpi.history.replay import Status, replay


def deal(hand: Hand, *holes: str) -> None:
    for player, cards in enumerate(holes):
        hand.deal_hole(player, [cards[i:i + 2] for i in range(0, len(cards), 2)])


def replays_to_its_stacks(hand: Hand, **setup: list[int]) -> str:
    text = dumps(record_from_hand(hand, **setup))
    result = replay(loads(text, "written.phh"))
    assert (result.status, result.finishing_stacks) == (Status.MATCH, tuple(hand.stacks)), result.reason
    return text


def test_a_fold_out_is_written_exactly() -> None:
    """p3 raises to 6, the blinds fold: p3 wins 1 + 2 (POT-8) -> 99, 98, 103."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    deal(hand, "AsAd", "7c2d", "8h3s")
    hand.bet_or_raise_to(6)
    hand.fold()
    hand.fold()
    record = record_from_hand(hand, blinds=[1, 2, 0], players=["Ann", "Bob", "Cy"], extra={"hand": 7})
    assert dumps(record) == (
        'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        'starting_stacks = [100, 100, 100]\nactions = [\n  "d dh p1 AsAd",\n  "d dh p2 7c2d",\n'
        '  "d dh p3 8h3s",\n  "p3 cbr 6",\n  "p1 f",\n  "p2 f",\n]\nhand = 7\nplayers = ["Ann", "Bob", "Cy"]\n'
        "finishing_stacks = [99, 98, 103]\n")
    assert replays_to_its_stacks(hand, blinds=[1, 2, 0]) == dumps(record_from_hand(hand, blinds=[1, 2, 0]))


def test_heads_up_blinds_and_antes_are_written_sb_first_bld_4() -> None:
    """Engine [BB, SB] = [2, 1] with the big blind's ante 5 is PHH [1, 2] and [0, 5]. The button folds:
    p1 100 - 7 + 8 = 101, p2 99."""
    hand = Hand(GAMES["nlhe"], [100, 100], blinds=[2, 1], antes=[5, 0], min_bet=2)
    deal(hand, "AsAd", "7c2d")
    hand.fold()
    record = record_from_hand(hand, blinds=[2, 1], antes=[5, 0])
    assert (record.blinds_or_straddles, record.antes, record.finishing_stacks) == ((1, 2), (0, 5), (101, 99))
    replays_to_its_stacks(hand, blinds=[2, 1], antes=[5, 0])


def test_unknown_cards_shows_and_mucks_are_written() -> None:
    """p2's cards are unknown until he shows them; p3 mucks. Pot 2 + 2 + 1 (p1's folded small blind) = 5
    to p2: 99, 103, 98."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    hand.deal_hole(0, ["2c", "3d"])
    hand.deal_hole(1, [UNKNOWN, UNKNOWN])
    hand.deal_hole(2, ["9d", "8s"])
    hand.check_or_call()
    hand.fold()
    hand.check_or_call()
    for cards in (["5h", "6c", "7s"], ["Kd"], ["2h"]):
        hand.deal_board(cards)
        hand.check_or_call()
        hand.check_or_call()
    hand.show(1, ["9c", "8d"])
    hand.muck(2)
    text = replays_to_its_stacks(hand, blinds=[1, 2, 0])
    assert '  "d dh p2 ????",\n' in text
    assert '  "p2 sm 9c8d",\n  "p3 sm",\n' in text
    assert hand.stacks == [99, 103, 98]


def test_fixed_limit_writes_the_small_and_big_bet() -> None:
    hand = Hand(GAMES["flhe"], [200, 200, 200], blinds=[5, 10, 0], limits=(10, 20))
    deal(hand, "AhKh", "QcQd", "7s7c")
    hand.bet_or_raise_to(20)
    hand.fold()
    hand.fold()
    record = record_from_hand(hand, blinds=[5, 10, 0])
    assert (record.small_bet, record.big_bet, record.min_bet) == (10, 20, None)
    replays_to_its_stacks(hand, blinds=[5, 10, 0])


def test_a_dead_blind_is_written_as_an_ante() -> None:
    """A dead small blind of 1 by p3 is dead money like an ante: p3 raises to 6 and wins 1 + 2 + his own 1
    back: 99, 98, 103."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], dead=[0, 0, 1], min_bet=2)
    deal(hand, "AsAd", "7c2d", "8h3s")
    hand.bet_or_raise_to(6)
    hand.fold()
    hand.fold()
    assert record_from_hand(hand, blinds=[1, 2, 0], dead=[0, 0, 1]).antes == (0, 0, 1)
    replays_to_its_stacks(hand, blinds=[1, 2, 0], dead=[0, 0, 1])


def test_a_retracted_street_and_a_swapped_hole_card_are_written_as_they_ended_brd_1_exp_1() -> None:
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    deal(hand, "AsAd", "7c2d", "8h3s")
    hand.swap_hole(0, "As", "Ks")
    hand.check_or_call()
    hand.fold()
    hand.check_or_call()
    hand.deal_board(["Kc", "9d", "4h"])
    hand.retract_street()
    hand.deal_board(["Qc", "9d", "4h"])
    hand.check_or_call()
    hand.bet_or_raise_to(10)
    hand.fold()
    text = replays_to_its_stacks(hand, blinds=[1, 2, 0])
    assert '  "d dh p1 KsAd",\n' in text
    assert '"d db Kc9d4h"' not in text and '  "d db Qc9d4h",\n' in text


def test_an_unfinished_hand_has_no_finishing_stacks() -> None:
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    deal(hand, "AsAd", "7c2d", "8h3s")
    assert record_from_hand(hand, blinds=[1, 2, 0]).finishing_stacks is None


def test_what_phh_cannot_say_raises() -> None:
    hand = Hand(GAMES["nlhe"], [10, 10], blinds=[2, 1], min_bet=2)
    deal(hand, "AsAd", "7c2d")
    hand.bet_or_raise_to(10)
    hand.check_or_call()
    hand.run_it(2)
    with pytest.raises(PHHError, match="no notation for several boards, runs"):
        record_from_hand(hand, blinds=[2, 1])
    with pytest.raises(PHHError, match="'fileem-nl' has no PHH variant code"):
        record_from_hand(Hand(GAMES["fileem-nl"], [10, 10], blinds=[2, 1], min_bet=2), blinds=[2, 1])
    killed = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    deal(killed, "AsAd", "7c2d", "8h3s")
    killed.kill(0)
    with pytest.raises(PHHError, match="'kill'"):
        record_from_hand(killed, blinds=[1, 2, 0])


def test_table_hands_read_one_card_at_a_time_are_written_one_street_per_line() -> None:
    """PHH writes a street's board cards on one line ("d db 2c3c4c"); the table deals them one read at a time."""
    hand = Hand(GAMES["nlhe"], [100, 100], blinds=[2, 1], min_bet=2)
    hand.deal_hole(0, ["Ah", "Ad"])
    hand.deal_hole(1, ["Kh", "Kd"])
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    for card in ("2c", "3c", "4c", "9s", "Tc"):          # all in: the board comes out one card at a time
        hand.deal_board([card])
    hand.settle()
    actions = record_from_hand(hand, blinds=[2, 1]).actions
    assert [a for a in actions if a.startswith("d db")] == ["d db 2c3c4c", "d db 9s", "d db Tc"]
