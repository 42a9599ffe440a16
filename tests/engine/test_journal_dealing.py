"""Following the deal through the journal: DEAL-1..10 of rules-digest section 1."""

from __future__ import annotations

from journal_kit import act, cards, holding, play_of, replay, rules_of, sit, stacks, table, three_handed


def test_deal1_deal4_holdem_sequence_three_handed() -> None:
    """DEAL-1, DEAL-4: S2 S3 S1 S2 S3 S1 | B F F F | B T | B R, the button (seat 1) gets the last card."""
    journal = three_handed()
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "seat 2"}
    journal += cards("Ah", "Kh", "Qh", "Ad", "Kd", "Qd")
    played, result = replay(journal)
    assert holding(played) == {2: ["Ah", "Ad"], 3: ["Kh", "Kd"], 1: ["Qh", "Qd"]}
    assert result["next"]["expect"] == "action" and result["next"]["seat"] == 1
    journal += [act(1, "call"), act(2, "call"), act(3, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn"}
    journal += cards("2c")
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "flop"}
    journal += cards("3c", "4c", "9s")
    journal += [act(2, "check"), act(3, "check"), act(1, "check")]
    journal += cards("5s", "Tc")
    journal += [act(2, "check"), act(3, "check"), act(1, "check")]
    journal += cards("6s", "Jd")
    journal += [act(2, "check"), act(3, "check"), act(1, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "showdown", "seats": [2, 3, 1]}
    journal += [{"type": "show", "seat": 2}, {"type": "show", "seat": 3}, {"type": "show", "seat": 1}]
    _, result = replay(journal)
    hand = result["hands"][0]
    assert hand["boards"] == [["3c", "4c", "9s", "Tc", "Jd"]]
    assert hand["pots"] == [{"amount": 9, "eligible": [2, 3, 1], "won": {"2": 9}}]   # seat 2: pair of aces
    assert stacks(result) == {1: 297, 2: 306, 3: 297}
    assert result["rejected"] == []


def test_deal2_heads_up_first_card_big_blind_tda() -> None:
    """DEAL-2 (TDA 34-B): heads-up the button posts the SB and the big blind gets the first card."""
    journal = [table(), sit(1), sit(4), {"type": "button", "seat": 1}, {"type": "start"}, *cards("Ah", "Kh")]
    played, _result = replay(journal)
    assert holding(played) == {4: ["Ah"], 1: ["Kh"]}
    assert play_of(played).hand is not None and play_of(played).hand.bets == [3, 1]


def test_deal2_heads_up_first_card_button_seed003() -> None:
    """DEAL-2, seed 003 (online preset): heads-up the dealer (button) receives the first card."""
    journal = [table(rules="online"), sit(1), sit(4), {"type": "button", "seat": 1}, {"type": "start"},
               *cards("Ah", "Kh")]
    played, _ = replay(journal)
    assert holding(played) == {4: ["Kh"], 1: ["Ah"]}


def test_deal5_omaha_four_rounds_of_hole_cards() -> None:
    """DEAL-5: Omaha deals four rounds of hole cards, then the usual board."""
    journal = three_handed(game="plo") + cards(*"As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s".split())
    played, result = replay(journal)
    assert holding(played) == {2: ["As", "Js", "8s", "5s"], 3: ["Ks", "Ts", "7s", "4s"], 1: ["Qs", "9s", "6s", "3s"]}
    assert result["next"]["expect"] == "action"


def test_deal6_file_em_three_hole_cards_flop_of_four_turn_of_two() -> None:
    """DEAL-6, seed 000: 3 hole cards; burn, flop of 4; burn, turn of 2; burn, river of 1 (Hexadec deck)."""
    journal = three_handed(game="fileem-nl") + cards(*"0s Fs Es Ds Cs Bs As 9s 8s".split())
    journal += [act(1, "call"), act(2, "call"), act(3, "check")]
    journal += cards("1h", "2h", "3h", "4h", "5h")                  # burn + flop of four
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["2h", "3h", "4h", "5h"]]
    journal += [act(2, "check"), act(3, "check"), act(1, "check")] + cards("6h", "7h", "8h")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["2h", "3h", "4h", "5h", "7h", "8h"]]
    journal += [act(2, "check"), act(3, "check"), act(1, "check")] + cards("9h", "Ah")
    played, result = replay(journal)
    assert play_of(played).hand is not None
    assert play_of(played).hand.boards == [["2h", "3h", "4h", "5h", "7h", "8h", "Ah"]]
    journal += [act(2, "check"), act(3, "check"), act(1, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "showdown", "seats": [2, 3, 1]}


def test_deal7_mis7_duplicate_card_fouls_the_deck_and_returns_the_bets() -> None:
    """DEAL-7 / MIS-7: a card seen twice in one deal is a fouled deck: stop, return every bet, even after SA."""
    journal = three_handed() + cards("Ah", "Kh", "Qh", "Ad", "Kd", "Qd")
    journal += [act(1, "raise", 9), act(2, "call"), act(3, "call")] + cards("2c", "Ah")
    played, result = replay(journal)
    assert "MIS-7" in rules_of(result)
    assert stacks(result) == {1: 300, 2: 300, 3: 300}
    assert result["hands"][0]["misdeal"] is True
    assert result["next"] == {"expect": "start"}
    journal += [{"type": "start"}]                                   # the redeal keeps the button and the blinds
    played, result = replay(journal)
    assert not played.between_hands and (played.button(), *played.blind_seats()) == (1, 2, 3)
    assert result["hands"][-1]["number"] == 1


def test_deal7_card_of_another_deck_fouls_the_deck() -> None:
    """DEAL-7: a Hexadec card at a standard table is not of the deck: fouled deck (MIS-7)."""
    _, result = replay(three_handed() + cards("Ah", "Fh"))
    assert "MIS-7" in rules_of(result)


def test_deal8_no_board_card_while_betting_is_open_premature() -> None:
    """DEAL-8: a read after the last hole card while pre-flop betting is open is premature (BRD-2)."""
    journal = three_handed() + cards("Ah", "Kh", "Qh", "Ad", "Kd", "Qd", "2c")
    played, result = replay(journal)
    assert "BRD-2" in rules_of(result)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [[]]


def test_deal9_away_player_is_not_dealt_in_cash() -> None:
    """DEAL-9 (cash): a player away when the hand starts gets no cards."""
    journal = [table(), sit(1), sit(2), sit(3), sit(4), {"type": "away", "seat": 4}, {"type": "button", "seat": 1},
               {"type": "start"}]
    played, _ = replay(journal)
    assert play_of(played).plan is not None and 4 not in play_of(played).plan.order


def test_deal10_double_board_bomb_pot_read_order() -> None:
    """DEAL-10, seed 001: burn, flop to the top board, burn, flop to the bottom board; then burn and a turn for
    each board, then the rivers, a burn before every board's card (the digest's decision)."""
    journal = [table(game="plo"), sit(1), sit(2), sit(3), {"type": "button", "seat": 1},
               {"type": "start", "bomb": {"ante": 10, "boards": 2}}]
    journal += cards(*"As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s".split())
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn"}                      # no pre-flop betting in a bomb pot
    journal += cards("2s", "Ah", "Kh", "Qh", "2h", "Jh", "Th", "9h")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["Ah", "Kh", "Qh"], ["Jh", "Th", "9h"]]
    assert result["next"]["expect"] == "action"
    journal += [act(2, "check"), act(3, "check"), act(1, "check")] + cards("8h", "7h", "6h", "5h")
    played, _ = replay(journal)
    assert [list(b) for b in played.board()] == [["Ah", "Kh", "Qh", "7h"], ["Jh", "Th", "9h", "5h"]]
