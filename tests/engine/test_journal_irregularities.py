"""Irregularities through the journal (rules-digest sections 2 and 3), each by the preset's policy.

Three-handed deals below: button seat 1, small blind seat 2, big blind seat 3; hole reads go 2, 3, 1, 2, 3, 1.
"""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, holding, play_of, replay, rules_of, sit, stacks, table, three_handed

HOLE = ("Ah", "Kh", "Qh", "Ad", "Kd", "Qd")


def exposed(card: str) -> dict[str, str]:
    return {"type": "exposed", "card": card}


def boxed(card: str) -> dict[str, str]:
    return {"type": "boxed", "card": card}


def preflop_called() -> list[dict[str, object]]:
    return [act(1, "call"), act(2, "call"), act(3, "check")]


def checks() -> list[dict[str, object]]:
    return [act(2, "check"), act(3, "check"), act(1, "check")]


# --- EXP: exposed and boxed cards ------------------------------------------------------------------------------

def test_exp1_seed001_exposed_card_replaced_by_the_burn_and_read_again_as_burn() -> None:
    """EXP-1, seed 001: the deal goes on, the would-be burn goes to the player, the exposed card is the burn
    (here read again through the shoe as the burn)."""
    journal = three_handed() + cards(*HOLE[:3]) + [exposed("Qh")] + cards(*HOLE[3:])
    played, result = replay(journal)
    assert "EXP-1" in rules_of(result)
    assert result["next"] == {"expect": "card", "for": "seat 1"}
    journal += cards("Jc")
    played, result = replay(journal)
    assert holding(played) == {2: ["Ah", "Ad"], 3: ["Kh", "Kd"], 1: ["Jc", "Qd"]}
    assert result["next"]["expect"] == "action"
    assert not [a for a in result["alerts"] if "Jc" in a["message"]]     # the replacement is a secret hole card
    assert {"line": len(journal), "rule": "EXP-1", "message": "Seat 1 has the replacement for the exposed Qh"} \
        in result["alerts"]
    journal += preflop_called() + cards("Qh", "2c", "3c", "4c")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["2c", "3c", "4c"]]
    assert result["rejected"] == []


def test_exp1_exposed_card_not_read_again_the_next_read_is_the_flop() -> None:
    """EXP-1: the exposed card was the burn; if it is not read again, the next read is the first flop card."""
    journal = three_handed() + cards(*HOLE[:3]) + [exposed("Qh")] + cards(*HOLE[3:], "Jc")
    journal += preflop_called() + cards("2c", "3c", "4c")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["2c", "3c", "4c"]]
    assert result["next"]["expect"] == "action"


def test_exp1_after_an_exposed_card_the_next_card_expected_is_the_first_flop_card() -> None:
    """EXP-1 (RRoP §5 rule 1, seed 001): the exposed Qh is the flop's burn, so once pre-flop betting is over
    the table waits for the first flop card, not for a burn (the shoe sees 2N+1 hole reads, then the flop at
    read 2N+2). Read again through the shoe (DEAL-7's exception) it is taken as the burn all the same."""
    journal = three_handed() + cards(*HOLE[:3]) + [exposed("Qh")] + cards(*HOLE[3:], "Jc") + preflop_called()
    played, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "flop"}
    assert played.expectation().words() == "flop card"
    played, result = replay(journal + cards("2c"))
    assert result["next"] == {"expect": "card", "for": "flop"}     # the second flop card: no burn came between
    played, result = replay(journal + cards("Qh"))                  # the exposed card read again as the burn
    assert result["next"] == {"expect": "card", "for": "flop"}
    played, result = replay(journal + cards("2c", "3c", "4c", *[]) + checks())
    assert result["next"] == {"expect": "burn"}                     # the turn has its own burn (DEAL-3)


def test_exp1_home_first_card_exposed_is_replaced_not_a_misdeal() -> None:
    """EXP-1 vs EXP-2, home preset (seed 001): even the first card exposed is replaced like any single card."""
    journal = three_handed() + cards("Ah") + [exposed("Ah")]
    _, result = replay(journal)
    assert "EXP-1" in rules_of(result) and not result["hands"][0]["misdeal"]


def test_exp2_casino_first_card_exposed_is_a_misdeal_and_the_next_reads_are_the_redeal() -> None:
    """EXP-2 (RRoP, TDA 35-A-7), casino preset: the 1st card exposed is a misdeal; the engine declares it."""
    journal = three_handed("casino") + cards("Ah") + [exposed("Ah")]
    played, result = replay(journal)
    assert "EXP-2" in rules_of(result)
    assert result["hands"][0]["misdeal"] is True
    assert result["next"] == {"expect": "card", "for": "seat 2"}
    journal += cards(*HOLE)                                   # Ah may come again after the reshuffle
    played, result = replay(journal)
    assert holding(played) == {2: ["Ah", "Ad"], 3: ["Kh", "Kd"], 1: ["Qh", "Qd"]}
    assert result["hands"][-1]["number"] == 1 and result["rejected"] == []


def test_exp3_two_exposed_cards_misdeal() -> None:
    """EXP-3: two or more down cards exposed by the dealer: misdeal (every preset)."""
    journal = three_handed() + cards(*HOLE[:4]) + [exposed("Qh"), exposed("Ad")]
    _, result = replay(journal)
    assert "EXP-3" in rules_of(result) and result["hands"][0]["misdeal"] is True


def test_exp4_card_exposed_after_action_plays() -> None:
    """EXP-4/EXP-5: a hole card exposed once the action began plays; no misdeal."""
    journal = three_handed() + cards(*HOLE) + [act(1, "call"), exposed("Qh")]
    played, result = replay(journal)
    assert "EXP-4" in rules_of(result) and holding(played)[1] == ["Qh", "Qd"]


def test_exp7_exposed_burn_stays_the_burn() -> None:
    """EXP-7 (house default): an exposed burn stays the burn and play continues."""
    journal = three_handed() + cards(*HOLE) + preflop_called() + cards("2c") + [exposed("2c")] + cards("3c")
    played, result = replay(journal)
    assert "EXP-7" in rules_of(result) and play_of(played).hand is not None and play_of(played).hand.boards == [["3c"]]


def test_exp6_boxed_hole_card_replaced_after_the_round() -> None:
    """EXP-6: a boxed card is a scrap of paper; seat 3's boxed Kh is replaced after all other cards of the
    round (RRoP, TDA 35-D; docs/house-rules.md "replaced after the round"). Both alerts cite EXP-6, none
    EXP-1 (that is the exposed card's rule), and the replacement card is never named."""
    journal = three_handed() + cards(*HOLE[:2]) + [boxed("Kh")] + cards(*HOLE[2:])
    _, result = replay(journal)
    assert {"line": 9, "rule": "EXP-6", "message": "Kh was boxed: seat 3 gets its replacement after the round"} \
        in result["alerts"]
    assert result["next"] == {"expect": "card", "for": "seat 3"}
    journal += cards("Jc")
    played, result = replay(journal)
    assert holding(played) == {2: ["Ah", "Ad"], 3: ["Jc", "Kd"], 1: ["Qh", "Qd"]}
    last = [(a["rule"], a["message"]) for a in result["alerts"] if a["line"] == len(journal)]
    assert last == [("EXP-6", "Seat 3 has the replacement for the boxed Kh, dealt after the round")]
    assert "EXP-1" not in rules_of(result)


def test_exp6_boxed_card_found_in_the_stub_is_out_of_play() -> None:
    """EXP-6: a card found face up in the stub is out of play; if it is read later it is set aside."""
    journal = three_handed() + [boxed("2s")] + cards(*HOLE[:3], "2s", *HOLE[3:])
    played, _result = replay(journal)
    assert holding(played) == {2: ["Ah", "Ad"], 3: ["Kh", "Kd"], 1: ["Qh", "Qd"]}


def test_exp6_two_boxed_cards_on_the_deal_misdeal() -> None:
    """EXP-6: two boxed cards on the initial deal: misdeal."""
    journal = three_handed() + cards(*HOLE[:3]) + [boxed("Kh"), boxed("Qh")]
    _, result = replay(journal)
    assert result["hands"][0]["misdeal"] is True


# --- MIS: misdeals ---------------------------------------------------------------------------------------------

def four_handed(rules: str) -> list[dict[str, object]]:
    return [table(rules=rules), sit(1), sit(2), sit(3), sit(4), {"type": "button", "seat": 1}, {"type": "start"},
            *cards("Ah", "Kh", "Qh", "Jh", "Ad", "Kd", "Qd", "Jd")]


def test_mis5_digest_test_utg_and_utg1_fold_tda_allows_a_misdeal() -> None:
    """MIS-5 CONFLICT test: UTG folds, UTG+1 folds. TDA 36 (home): not yet substantial action: misdeal allowed."""
    journal = four_handed("home") + [act(4, "fold"), act(1, "fold"), {"type": "misdeal"}]
    _, result = replay(journal)
    assert result["rejected"] == [] and result["hands"][0]["misdeal"] is True
    assert stacks(result) == {1: 300, 2: 299, 3: 297, 4: 300}      # the redeal: the same blinds, posted once


def test_mis5_digest_test_utg_and_utg1_fold_rrop_refuses_the_misdeal() -> None:
    """MIS-5 CONFLICT test under RRoP (casino): two players acted: the hand must be played."""
    journal = four_handed("casino") + [act(4, "fold"), act(1, "fold"), {"type": "misdeal"}]
    _, result = replay(journal)
    assert [r["line"] for r in result["rejected"]] == [len(journal)]
    assert "MIS-5" in result["rejected"][0]["reason"]


def test_mis6_redeal_keeps_button_blinds_and_straddles_seed001() -> None:
    """MIS-6, seed 001: the button does not move and the blinds and straddles stay for the redeal."""
    journal = [table(), sit(1), sit(2), sit(3), sit(4), {"type": "button", "seat": 1}, {"type": "start"},
               {"type": "straddle", "seat": 4}, *cards("Ah", "Kh"), {"type": "misdeal"}]
    played, result = replay(journal)
    assert result["hands"][0]["misdeal"] is True
    assert play_of(played).plan is not None and play_of(played).plan.button == 1
    assert play_of(played).hand is not None and play_of(played).hand.bets == [1, 3, 6, 0]     # seats 2, 3, 4, 1
    assert result["next"] == {"expect": "card", "for": "seat 2"}


def test_mis2_one_extra_card_is_the_burn_two_are_a_misdeal() -> None:
    """MIS-2: one extra card after the starting hands becomes the burn; two or more: misdeal."""
    _, one = replay(three_handed() + cards(*HOLE) + [{"type": "extra", "count": 1}])
    assert "MIS-2" in rules_of(one) and not one["hands"][0]["misdeal"]
    _, two = replay(three_handed() + cards(*HOLE) + [{"type": "extra", "count": 2}])
    assert two["hands"][0]["misdeal"] is True


# --- BRD: board irregularities ---------------------------------------------------------------------------------

def dealt_to_flop(rules: str = "home", **extra: Any) -> list[dict[str, object]]:
    return three_handed(rules, **extra) + cards(*HOLE) + preflop_called() + cards("2c", "3c", "4c", "9s")


def test_brd1_seed002_b2_four_card_flop_void_reshuffle_burn_again() -> None:
    """BRD-1, seed 002 B2: the flop is void; the burn stays out; reshuffle, burn again, new flop."""
    journal = dealt_to_flop() + cards("Tc")
    played, result = replay(journal)
    assert "BRD-1" in rules_of(result)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [[]]
    assert result["next"] == {"expect": "burn"}
    journal += cards("9s", "3c", "Tc", "5h")                  # the four cards went back: they may come again
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "Tc", "5h"]]
    assert result["rejected"] == []


def test_brd1_rrop_four_card_flop_new_flop_without_burn() -> None:
    """BRD-1 (RRoP): the flop is redealt without a new burn."""
    journal = dealt_to_flop(policies={"four_card_flop": "rrop"}) + cards("Tc")
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "flop"}


def test_brd1_tda_four_card_flop_one_picked_as_the_next_burn() -> None:
    """BRD-1 (TDA 39-A): one of the four is picked as the next burn; the other three are the flop; the turn
    then comes with no further burn."""
    journal = dealt_to_flop(policies={"four_card_flop": "tda"}) + cards("Tc")
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn choice", "cards": ["3c", "4c", "9s", "Tc"]}
    journal += [{"type": "burn", "card": "4c"}]
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "9s", "Tc"]]
    journal += checks()
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "turn"}


def test_brd2_premature_flop_burn_stays_new_flop_without_burn() -> None:
    """BRD-2: flop dealt before pre-flop betting finished: the burn stays, the flop goes back, betting is
    completed, the new flop comes with no second burn."""
    journal = three_handed() + cards(*HOLE) + [act(1, "call")] + cards("2c", "3c", "4c", "9s")
    played, result = replay(journal)
    assert "BRD-2" in rules_of(result)
    journal += [act(2, "call"), act(3, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "flop"}
    journal += cards("9s", "5h", "3c")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["9s", "5h", "3c"]]
    assert result["rejected"] == []


def flop_then(rules: str = "home", **extra: Any) -> list[dict[str, object]]:
    return three_handed(rules, **extra) + cards(*HOLE) + preflop_called() + cards("2c", "3c", "4c", "9s")


def test_brd3_premature_turn_rrop_trace() -> None:
    """BRD-3 (RRoP): B2 T* | bet | B3 T | bet | reshuffle | R (no burn); T* may be read at the river."""
    journal = flop_then() + [act(2, "check")] + cards("5s", "Tc")
    _, result = replay(journal)
    assert "BRD-3" in rules_of(result)
    journal += [act(3, "check"), act(1, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn"}
    journal += cards("6s", "Jd") + checks()
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "river"}
    journal += cards("Tc")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "4c", "9s", "Jd", "Tc"]]
    assert result["rejected"] == []


def test_brd3_premature_turn_tda_trace() -> None:
    """BRD-3 (TDA RP-5-B): B2 T* | bet | reshuffle | T | bet | B3 R."""
    journal = flop_then(policies={"premature_turn": "tda"}) + [act(2, "check")] + cards("5s", "Tc")
    journal += [act(3, "check"), act(1, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "turn"}
    journal += cards("Tc") + checks()
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn"}
    journal += cards("6s", "Jd")
    played, _ = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "4c", "9s", "Tc", "Jd"]]


def test_brd4_premature_river_burn_stays_river_without_burn() -> None:
    """BRD-4: premature river: the burn stays; the card goes back; after betting the river comes with no burn."""
    journal = flop_then() + checks() + cards("5s", "Tc") + [act(2, "check")] + cards("6s", "Jd")
    _, result = replay(journal)
    assert "BRD-4" in rules_of(result)
    journal += [act(3, "check"), act(1, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "river"}
    journal += cards("Jd")
    played, _ = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "4c", "9s", "Tc", "Jd"]]


def test_brd6_two_cards_turned_for_the_turn() -> None:
    """BRD-6: too many cards turned on the turn: the extra goes back; the river is dealt as usual."""
    journal = flop_then() + checks() + cards("5s", "Tc", "Jd")
    played, result = replay(journal)
    assert "BRD-6" in rules_of(result)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "4c", "9s", "Tc"]]
    journal += checks() + cards("6s", "Jd")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "4c", "9s", "Tc", "Jd"]]
    assert result["rejected"] == []


# --- undo ------------------------------------------------------------------------------------------------------

def test_undo_takes_back_exactly_the_last_accepted_input() -> None:
    """undo: the table equals the replay of the journal without the undone input."""
    base = three_handed() + cards(*HOLE) + [act(1, "raise", 9), act(2, "call")]
    with_undo, result_undo = replay([*base, act(3, "fold"), {"type": "undo"}])
    without, result_without = replay(base)
    for key in ("seats", "hands", "next"):
        assert result_undo[key] == result_without[key]
    assert holding(with_undo) == holding(without)
    _again, result_again = replay([*base, act(3, "fold"), {"type": "undo"}, act(3, "call")])
    assert result_again["next"] == {"expect": "burn"}


# --- POT-11: run it N times through the shoe -------------------------------------------------------------------

def test_pot11_run_it_twice_each_run_burns_before_each_card() -> None:
    """POT-11, seed 001: all in pre-flop, all agree to run it twice: B F F F B T B R, then the same again."""
    journal = three_handed() + cards(*HOLE) + [act(1, "all_in"), act(2, "call"), act(3, "fold")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn"}
    journal += [{"type": "run", "times": 2}]
    journal += cards("2s", "2c", "3c", "4c", "3s", "5d", "4s", "9h")           # run 1
    journal += cards("5s", "Tc", "Jc", "7c", "6s", "8c", "7s", "Td")           # run 2
    _, result = replay(journal)
    hand = result["hands"][0]
    assert hand["boards"] == [["2c", "3c", "4c", "5d", "9h"], ["Tc", "Jc", "7c", "8c", "Td"]]
    # run 1: seat 2's aces beat seat 1's queens; run 2 (T-J-7-8-T, no hole club): aces and tens beat queens
    # and tens. Pot: 300 + 300 + seat 3's folded big blind 3 = 603, both runs to seat 2.
    assert hand["pots"] == [{"amount": 603, "eligible": [2, 1], "won": {"2": 603}}]
    assert stacks(result) == {1: 0, 2: 603, 3: 297}


def test_pot11_run_refused_when_the_stub_cannot_serve_it() -> None:
    """POT-11: Omaha with 9 seats allows two runs, not three (4N + 8 per run out of 52)."""
    journal = [table(game="plo", seats=9, policies={"buy_in_min_bb": 0})]
    journal += [sit(seat, stack=10) for seat in range(1, 10)]
    journal += [{"type": "button", "seat": 1}, {"type": "start", "bomb": {"ante": 10, "boards": 1}}]
    deck = [r + s for r in "AKQJT98765432" for s in "shdc"]
    journal += cards(*deck[:36])
    three = [*journal, {"type": "run", "times": 3}]
    _, result = replay(three)
    assert [r["line"] for r in result["rejected"]] == [len(three)] and "stub" in result["rejected"][0]["reason"]
    _, result = replay([*journal, {"type": "run", "times": 2}])
    assert result["rejected"] == []


def test_pot11_run_it_off_in_the_casino_preset() -> None:
    """POT-11 is a home-game rule (seed 001): the casino preset runs the board once."""
    journal = three_handed("casino") + cards(*HOLE) + [act(1, "all_in"), act(2, "call"), act(3, "fold")]
    _, result = replay([*journal, {"type": "run", "times": 2}])
    assert "at most 1" in result["rejected"][0]["reason"]


def test_mis3_the_button_short_a_card_gets_the_next_read() -> None:
    """MIS-3: the button dealt too few cards may receive two consecutive cards: until the button has its cards,
    the next read is his (the display says "card to seat 1"), even the card the dealer meant as the burn."""
    journal = three_handed() + cards(*HOLE[:5])
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "seat 1"}
    played, result = replay(journal + cards("2c"))
    assert holding(played)[1] == ["Qh", "2c"]
    assert result["next"]["expect"] == "action"


def test_mis4_wrong_number_of_cards_after_substantial_action_kills_that_hand() -> None:
    """MIS-4 (TDA 38): a wrong number of cards found after substantial action: that hand is dead; the deal goes
    on normally with one burn per street."""
    journal = three_handed() + cards(*HOLE) + [act(1, "raise", 9), act(2, "call"), {"type": "dead", "seat": 3}]
    played, result = replay(journal)
    assert "MIS-4" in rules_of(result)
    assert result["next"] == {"expect": "burn"}
    journal += cards("2c", "3c", "4c", "9s")
    played, result = replay(journal)
    assert play_of(played).hand is not None and play_of(played).hand.boards == [["3c", "4c", "9s"]]
    assert result["next"]["seat"] == 2


def test_mis7_a_fouled_bomb_pot_is_redealt_as_the_same_bomb_pot() -> None:
    """MIS-6/MIS-7: the next start after a fouled deck replays the same deal: here a bomb pot, antes only."""
    journal = [table(), sit(1), sit(2), sit(3), {"type": "button", "seat": 1},
               {"type": "start", "bomb": {"ante": 10, "boards": 1}}, *cards("Ah", "Ah"), {"type": "start"}]
    played, result = replay(journal)
    assert result["hands"][0]["misdeal"] is True
    hand = play_of(played).hand
    assert hand is not None and hand.bets == [0, 0, 0] and hand.pot_total() == 30
    assert result["hands"][-1]["posts"] == {"1": {"live": 0, "dead": 0, "ante": 10},
                                            "2": {"live": 0, "dead": 0, "ante": 10},
                                            "3": {"live": 0, "dead": 0, "ante": 10}}


FOULED = [table(), sit(1, 200), sit(2), sit(3), {"type": "button", "seat": 1}, {"type": "start"}, *cards("Ah", "Ah")]


def test_mis7_mis6_no_seat_change_between_a_fouled_deck_and_its_redeal() -> None:
    """MIS-7 then MIS-6 (TDA 35-C, seed 001): the fouled deal is played again as an exact re-play: the same
    players, stacks, button and blinds, no new player seated. So between the fouled deck and the START of its
    redeal every change the redeal could not follow is refused with that reason, and nothing changes: a player
    away or back, a new player, a top-up, a seat move, a cash-out, the button, the table (its ante)."""
    refused = [{"type": "away", "seat": 2}, {"type": "back", "seat": 2}, sit(4),
               {"type": "chips", "seat": 1, "amount": 1}, {"type": "move", "seat": 1, "to": 5},
               {"type": "leave", "seat": 3}, {"type": "button", "seat": 2},
               table(ante=1)]
    played, result = replay(FOULED + refused)
    assert [r["line"] for r in result["rejected"]] == list(range(len(FOULED) + 1, len(FOULED) + len(refused) + 1))
    for rejection in result["rejected"]:
        assert rejection["reason"].endswith("hand #1 is dealt again first (MIS-7 fouled deck), exactly as it was: "
                                            "the same players, stacks, button and blinds (MIS-6); press START")
    assert result["rejected"][0]["reason"].startswith("cannot mark seat 2 away now: ")
    assert sorted(played.seats) == [1, 2, 3] and not played.seats[2].away
    assert stacks(result) == {1: 200, 2: 300, 3: 300}


def test_mis7_mis6_after_the_redeal_starts_seat_changes_are_taken_as_in_any_hand() -> None:
    """MIS-6: once the redeal is under way the table is in an ordinary hand: a new player sits down and waits
    for the next hand, a player not in the hand may go away; the redeal keeps its three players (seats 2, 3, 1)
    and its blinds (seat 2 posts 1, seat 3 posts 3)."""
    journal = FOULED + [{"type": "start"}, sit(4), {"type": "away", "seat": 4}]
    played, result = replay(journal)
    assert result["rejected"] == []
    assert played.dealt_seats() == (2, 3, 1)
    assert result["hands"][-1]["posts"] == {"2": {"live": 1, "dead": 0, "ante": 0},
                                            "3": {"live": 3, "dead": 0, "ante": 0}}
    assert played.seats[4].away
