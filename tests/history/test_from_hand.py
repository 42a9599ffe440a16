"""Writing hands the engine played as PHH (dealerpi.history.from_hand): exact text, and every record replays
to the engine's own final stacks."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import pytest
from pokerkit import HandHistory

from dealerpi.engine import GAMES, UNKNOWN, Hand, Phase
from dealerpi.history.from_hand import record_from_hand
from dealerpi.history.phh import PHHError, dumps, loads
from dealerpi.history.replay import Status, replay


def deal(hand: Hand, *holes: str) -> None:
    for player, cards in enumerate(holes):
        hand.deal_hole(player, [cards[i:i + 2] for i in range(0, len(cards), 2)])


def replays_to_its_stacks(hand: Hand, *, blinds: list[int], antes: Sequence[int] = (), dead: Sequence[int] = ()) -> str:
    text = dumps(record_from_hand(hand, blinds=blinds, antes=antes, dead=dead))
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


def pokerkit_stacks(text: str) -> tuple[int, ...]:
    """The final stacks PokerKit (the oracle) replays the PHH text to. A killed hand folds even where a check
    is free; PokerKit accepts that fold with a UserWarning ("no reason for this player to fold")."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "There is no reason for this player to fold", UserWarning)
        return tuple(list(HandHistory.loads(text))[-1].stacks)


def test_mis4_a_hand_killed_out_of_turn_folds_at_its_turn_and_replays() -> None:
    """MIS-4/POT-9: p3 (the button) raises to 6; before p1 acts, the dealer kills p2's hand (the big blind,
    out of turn). PHH players act only in turn: the record folds p2 at his turn, right after p1's call.
    p1 and p3 check it down and show (p1 first, POT-6); p3's aces beat p1's kings. Pot 6 + 6 + p2's big blind
    2 = 14:
    p3 100 - 6 + 14 = 108, p1 94, p2 98. Our replay and PokerKit's both give those stacks."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    deal(hand, "KsKd", "7c2d", "AsAd")
    hand.bet_or_raise_to(6)
    hand.kill(1)
    hand.check_or_call()
    for street in (["2h", "5c", "9d"], ["Js"], ["4c"]):
        hand.deal_board(street)
        hand.check_or_call()
        hand.check_or_call()
    hand.show(0)
    hand.show(2)
    assert hand.stacks == [94, 98, 108]
    record = record_from_hand(hand, blinds=[1, 2, 0])
    assert record.actions == ("d dh p1 KsKd", "d dh p2 7c2d", "d dh p3 AsAd", "p3 cbr 6", "p1 cc",
                              "p2 f # killed", "d db 2h5c9d", "p1 cc", "p3 cc", "d db Js", "p1 cc", "p3 cc",
                              "d db 4c", "p1 cc", "p3 cc", "p1 sm KsKd", "p3 sm AsAd")
    text = replays_to_its_stacks(hand, blinds=[1, 2, 0])
    assert pokerkit_stacks(text) == (94, 98, 108)


def test_deal9_an_absent_players_killed_hand_is_written_and_replays() -> None:
    """DEAL-9 (TDA 30): p2, the big blind, is absent: dealt in, blinds posted, hand killed before the first
    card. p3 (the button) folds and p1 (the small blind) wins at once: his 1 back and p2's forfeit 2:
    p1 100 - 1 + 3 = 102, p2 98, p3 100. In PHH p1 calls to 2 and p2 folds at his turn: p1 wins 2 + 2 = 4,
    100 - 2 + 4 = the same 102."""
    hand = Hand(GAMES["nlhe"], [100, 100, 100], blinds=[1, 2, 0], min_bet=2)
    hand.kill(1, forfeit=True)
    deal(hand, "KsKd", "7c2d", "AsAd")
    hand.fold()
    assert hand.phase is Phase.COMPLETE and hand.stacks == [102, 98, 100]
    record = record_from_hand(hand, blinds=[1, 2, 0])
    assert record.actions == ("d dh p1 KsKd", "d dh p2 7c2d", "d dh p3 AsAd", "p3 f", "p1 cc", "p2 f # killed")
    text = replays_to_its_stacks(hand, blinds=[1, 2, 0])
    assert pokerkit_stacks(text) == (102, 98, 100)


def test_deal9_heads_up_absent_player_hand_ends_before_the_deal() -> None:
    """DEAL-9 heads-up: the absent p1 (the big blind) is killed at once, so p2 (the button, small blind) wins
    before any card is dealt: 100 + 2 = 102, p1 98. PHH needs hole cards: they are written unknown; p2 calls
    to 2, p1 folds in turn: p2 wins 4, the same 102."""
    hand = Hand(GAMES["nlhe"], [100, 100], blinds=[2, 1], min_bet=2)
    hand.kill(0, forfeit=True)
    assert hand.phase is Phase.COMPLETE and hand.stacks == [98, 102]
    record = record_from_hand(hand, blinds=[2, 1])
    assert record.actions == ("d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 f # killed")
    text = replays_to_its_stacks(hand, blinds=[2, 1])
    assert pokerkit_stacks(text) == (98, 102)


def test_a_dead_blind_with_antes_that_phh_would_layer_raises() -> None:
    """POT-1, BLD-10: antes 10; p1 (6 chips) posts the small blind 1 then 5 of his ante, all in; p3 also
    posts a dead small blind 5 (in the main pot whole, the table's money). p3 calls 2, p2 checks it down, p1's
    aces win. Table: main pot 3 x 6 = 18 + the dead 5 = 23 to p1. PHH has only antes, so p3's dead 5 would be
    written into his ante (15) and layered: p1 would win 18. The record is refused, not written wrong."""
    hand = Hand(GAMES["nlhe"], [6, 100, 100], blinds=[1, 2, 0], antes=[10, 10, 10], dead=[0, 0, 5], min_bet=2)
    deal(hand, "AsAd", "7c2d", "8h3s")
    hand.check_or_call()                       # p3 calls 2
    hand.check_or_call()                       # p2 checks
    for street in (["Kh", "9d", "4c"], ["Jd"], ["5h"]):
        hand.deal_board(street)
        hand.check_or_call()
        hand.check_or_call()
    hand.settle()
    assert hand.won[0] == 23
    with pytest.raises(PHHError, match="dead blind, written as an ante, would make a side-pot layer"):
        record_from_hand(hand, blinds=[1, 2, 0], antes=[10, 10, 10], dead=[0, 0, 5])


def test_pot11_running_the_board_once_is_the_ordinary_deal() -> None:
    """POT-11: all in pre-flop, the players agree to run it once: the record is the ordinary deal (PHH has no
    step for it). Board 2c3c4c 9s Td: p1's aces beat p2's kings; p1 wins 100 + 100 = 200, p2 0."""
    hand = Hand(GAMES["nlhe"], [100, 100], blinds=[2, 1], min_bet=2)
    deal(hand, "AhAd", "KhKd")
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    hand.run_it(1)
    for street in (["2c", "3c", "4c"], ["9s"], ["Td"]):
        hand.deal_board(street)
    hand.settle()
    assert hand.stacks == [200, 0]
    record = record_from_hand(hand, blinds=[2, 1])
    assert record.actions == ("d dh p1 AhAd", "d dh p2 KhKd", "p2 cbr 100", "p1 cc", "d db 2c3c4c", "d db 9s",
                              "d db Td")
    replays_to_its_stacks(hand, blinds=[2, 1])


def test_a_hand_without_its_log_is_not_written() -> None:
    """A hand played with keep_log=False (as the replay plays them) has no steps to write: a clear error,
    not an empty record."""
    hand = Hand(GAMES["nlhe"], [100, 100], blinds=[2, 1], min_bet=2, keep_log=False)
    deal(hand, "AsAd", "7c2d")
    hand.fold()
    with pytest.raises(ValueError, match="played without its log"):
        record_from_hand(hand, blinds=[2, 1])
