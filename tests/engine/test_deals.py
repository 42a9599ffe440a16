"""Deals at the final table (issue 20): ICM (Malmuth-Harville) and chip-chop proposals, and the ``deal`` input.

Worked by hand. Three players, 5,000 / 3,000 / 2,000 chips (10,000), prizes 50 / 30 / 20:
- ICM: A is 1st with 1/2; 2nd with 3/10 x 5/7 + 2/10 x 5/8 = 19/56; 3rd with 9/56: A = 25 + 30 x 19/56 +
  20 x 9/56 = 1075/28 (38.39). B: 1st 3/10; 2nd 1/2 x 3/5 + 1/5 x 3/8 = 3/8; 3rd 13/40: B = 15 + 11.25 + 6.5 =
  131/4 (32.75). C: 1st 1/5; 2nd 1/2 x 2/5 + 3/10 x 2/7 = 2/7; 3rd 18/35: C = 10 + 60/7 + 72/7 = 202/7 (28.86).
  In whole units: 38, 32, 28 (98), the two units left to the largest remainders, C (.86) and B (.75): 38/33/29.
- Chip chop: everyone gets the lowest prize, 20; the other 40 by chips: 20 + 20, 20 + 12, 20 + 8 = 40/32/28.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from journal_kit import act, cards, replay, sit, table

from dealerpi.deal_cli import main as deal_main
from dealerpi.engine.deals import DealError, check_deal, chip_chop_values, icm_values, proposals, whole_units
from dealerpi.engine.table import Table

STACKS = {"A": 5000, "B": 3000, "C": 2000}


def test_icm_three_players_exactly_as_worked_by_hand() -> None:
    assert icm_values([5000, 3000, 2000], [50, 30, 20]) == (Fraction(1075, 28), Fraction(131, 4), Fraction(202, 7))
    assert proposals(STACKS, [50, 30, 20]) == {"icm": {"A": 38, "B": 33, "C": 29},
                                               "chip_chop": {"A": 40, "B": 32, "C": 28}}


def test_icm_heads_up_is_the_chip_share_of_the_difference() -> None:
    """Heads-up 3,000 v 1,000 for 70 / 30: A wins with 3/4: 3/4 x 70 + 1/4 x 30 = 60; B 40."""
    assert icm_values([3000, 1000], [70, 30]) == (Fraction(60), Fraction(40))


def test_icm_ten_equal_stacks_share_evenly_and_places_beyond_the_prizes_pay_nothing() -> None:
    """Ten equal stacks (the largest final table, exact) for 50 / 30 / 20: each is worth 100 / 10 = 10."""
    assert icm_values([1000] * 10, [50, 30, 20]) == (Fraction(10),) * 10


def test_chip_chop_guarantees_the_lowest_prize_and_whole_units_add_up() -> None:
    assert chip_chop_values([5000, 3000, 2000], [50, 30, 20]) == (Fraction(40), Fraction(32), Fraction(28))
    # 100 in thirds: 33.33 each; the unit left goes to the bigger stack (B), ties to the one named first
    assert whole_units([Fraction(100, 3)] * 3, [10, 20, 10]) == (33, 34, 33)


def test_a_deal_is_checked_against_the_prizes_still_to_pay() -> None:
    players, prizes = ["A", "B", "C"], [50, 30, 20]
    check_deal({"A": 40, "B": 32, "C": 28}, players, prizes)
    with pytest.raises(DealError, match="pays 99; the prizes still to pay add up to 100"):
        check_deal({"A": 40, "B": 31, "C": 28}, players, prizes)
    with pytest.raises(DealError, match=r"C would get less than the lowest prize still to pay \(20\)"):
        check_deal({"A": 50, "B": 31, "C": 19}, players, prizes)
    with pytest.raises(DealError, match="every player still in"):
        check_deal({"A": 60, "B": 40}, players, prizes)
    with pytest.raises(DealError, match="2 to 10 players"):
        icm_values([1] * 11, [100])


# --- the deal input at the table -------------------------------------------------------------------------------

def final_table() -> list[dict[str, Any]]:
    """Four entrants at 25 (pool 100, 50/30/20); Dee busts in hand 1 (4th, nothing): three left at the final
    table. Hand 1: button seat 1 (Ann), Bob SB 50, Cy BB 100; Dee (seat 4) is first to act and goes all in
    for 600 with 8d 7d; Ann folds, Bob folds, Cy calls with aces; the board 2d 2h 9c Kc 3h gives Cy aces up and Dee
    nothing: Cy wins 600 + 600 + Bob's 50: Ann 1,000, Bob 950, Cy 1,650; Dee is out, 4th."""
    return [table(rules="tournament", seats=4, blinds=(50, 100), buy_in=25),
            sit(1, 1000, "Ann"), sit(2, 1000, "Bob"), sit(3, 1000, "Cy"), sit(4, 600, "Dee"),
            {"type": "button", "seat": 1}, {"type": "start"},
            *cards("2c", "Ah", "7d", "9s", "3c", "As", "8d", "Ts"),
            act(4, "all_in"), act(1, "fold"), act(2, "fold"), act(3, "call"),
            *cards("Jh", "2d", "2h", "9c", "Jd", "Kc", "Qd", "3h")]


def deal(prizes: dict[str, int], agreed: list[str]) -> dict[str, Any]:
    return {"type": "deal", "prizes": prizes, "agreed": agreed}


def test_trn4_a_deal_replaces_the_prizes_and_the_places_are_played_out() -> None:
    """Three left, 100 to pay (50/30/20). They agree Ann 34, Bob 33, Cy 33 (everyone above 20). Then Ann busts
    first: 3rd place, paid 34 (not 20) as agreed; the winner's and runner-up's prizes are theirs by the deal too."""
    journal = [*final_table(), deal({"Ann": 34, "Bob": 33, "Cy": 33}, ["Ann", "Bob", "Cy"])]
    played, result = replay(journal)
    assert result["rejected"] == []
    assert [a["message"] for a in result["alerts"] if a["message"].startswith("Deal")] == [
        "Deal: Ann 34, Bob 33, Cy 33; every player agreed; the places are still played out"]
    standings = played.state.standings
    assert standings is not None and standings.remaining == 3
    final = standings.bust(["Ann"], {"Ann": 1000}).bust(["Bob"], {"Bob": 950}).win("Cy")
    assert [(f.player, f.place, f.prize) for f in final.results()] == [("Cy", 1, 33), ("Bob", 2, 33),
                                                                       ("Ann", 3, 34), ("Dee", 4, 0)]


def test_trn4_a_deal_needs_every_player_and_the_right_money() -> None:
    """Refused: one player has not agreed; the amounts add to 99; Cy below the lowest prize still to pay (20)."""
    journal = [*final_table(), deal({"Ann": 34, "Bob": 33, "Cy": 33}, ["Ann", "Bob"]),
               deal({"Ann": 34, "Bob": 33, "Cy": 32}, ["Ann", "Bob", "Cy"]),
               deal({"Ann": 50, "Bob": 31, "Cy": 19}, ["Ann", "Bob", "Cy"])]
    _, result = replay(journal)
    assert [r["reason"] for r in result["rejected"]] == [
        "a deal needs every player still in to agree; not agreed: Cy",
        "deal: the deal pays 99; the prizes still to pay add up to 100",
        "deal: Cy would get less than the lowest prize still to pay (20)"]


def test_a_deal_survives_the_checkpoint() -> None:
    """The deal is in the table's record, so a restarted table pays it too."""
    played, _ = replay([*final_table(), deal({"Ann": 34, "Bob": 33, "Cy": 33}, ["Ann", "Bob", "Cy"])])
    restored = Table.from_snapshot(played.snapshot())
    assert restored.state.standings == played.state.standings


def test_deal_command_prints_both_proposals(capsys: pytest.CaptureFixture[str]) -> None:
    assert deal_main(["--prizes", "50,30,20", "A=5000", "B=3000", "C=2000", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"icm": {"A": 38, "B": 33, "C": 29}' in out and '"chip_chop": {"A": 40, "B": 32, "C": 28}' in out
    assert deal_main(["--prizes", "50,30,20", "A=0"]) == 2
    assert "NAME=CHIPS" in capsys.readouterr().err
