"""Straddles (BLD-9) and antes (BLD-10) through the journal: who posts what, who acts when, and the stacks.

Expected values are worked out by hand from the rule quoted in each docstring (rules digest section 5, seeds 001
and 002, TDA 2024 RP-11). Seats A, B, C, ... of seed 001's example are seats 1, 2, 3, ...
"""

from __future__ import annotations

from typing import Any

import pytest
from journal_kit import act, cards, replay, rules_of, sit, stacks, table

START: dict[str, Any] = {"type": "start"}
DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def straddle(seat: int) -> dict[str, Any]:
    return {"type": "straddle", "seat": seat}


def hole(count: int) -> list[dict[str, Any]]:
    return cards(*DECK[: 2 * count])


def folds(*seats: int) -> list[dict[str, Any]]:
    return [act(seat, "fold") for seat in seats]


def post(live: int = 0, dead: int = 0, ante: int = 0) -> dict[str, int]:
    return {"live": live, "dead": dead, "ante": ante}


# --- BLD-9 straddles -------------------------------------------------------------------------------------------

def seed001_straddled() -> list[dict[str, Any]]:
    """Seed 001's example: "Player A posts SB (1 chip). Player B posts BB (3 chips). Player C posts a straddle (6).
    Player D posts a straddle (12)." Six seats, F (seat 6) on the button; both straddles come before any card."""
    journal = [table(seats=6)] + [sit(s) for s in range(1, 7)] + [{"type": "button", "seat": 6}, START]
    journal += [straddle(3), straddle(4)] + hole(6)
    return journal


def test_bld9_seed001_example_nobody_raises_the_last_straddler_may_check() -> None:
    """Seed 001: "Player E calls 12. It then folds around to player A. Player A may call 12, raise to 24 or higher,
    or fold ... If nobody raises, and only calls or folds, then each next player can call, raise, or fold, except
    the final player who (having already put 12 into the pot) may check, raise, or fold." A, B and C call."""
    journal = seed001_straddled()
    _, result = replay(journal)
    assert result["hands"][0]["posts"] == {"1": post(1), "2": post(3), "3": post(6), "4": post(12)}
    assert [a["message"] for a in result["alerts"] if a["rule"] == "BLD-9"] == [
        "Seat 3 straddles 6", "Seat 4 straddles 12"]
    assert result["next"]["seat"] == 5                                    # E acts first, left of the last straddle
    assert result["next"]["legal"]["call"] == 12
    journal += [act(5, "call"), act(6, "fold")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "action", "seat": 1,
                              "legal": {"fold": True, "check": False, "call": 12, "raise": [24, 300]}}
    journal += [act(1, "call"), act(2, "call"), act(3, "call")]
    _, result = replay(journal)
    assert result["next"]["seat"] == 4 and result["next"]["legal"]["check"] is True
    assert result["next"]["legal"]["raise"] == [24, 300]
    journal += [act(4, "check")]
    _, result = replay(journal)
    assert result["next"] == {"expect": "burn"}
    assert stacks(result) == {1: 288, 2: 288, 3: 288, 4: 288, 5: 288, 6: 300}
    assert result["rejected"] == []


def test_bld9_seed001_example_a_raise_to_24_leaves_no_option_to_check() -> None:
    """Seed 001: "If one of the remaining players raises to 24, action proceeds with no 'option' to check." A
    raises to 24; B and C fold; D (12 in) must call 12 more, raise (to at least 36) or fold. D folds and A wins
    B's 3, C's 6, D's 12 and E's 12 once E folds too."""
    journal = seed001_straddled() + [act(5, "call"), act(6, "fold"), act(1, "raise", 24), *folds(2, 3)]
    _, result = replay(journal)
    assert result["next"] == {"expect": "action", "seat": 4,
                              "legal": {"fold": True, "check": False, "call": 24, "raise": [36, 300]}}
    journal += folds(4, 5)
    _, result = replay(journal)
    assert stacks(result) == {1: 300 + 3 + 6 + 12 + 12, 2: 297, 3: 294, 4: 288, 5: 288, 6: 300}
    assert result["rejected"] == []


def test_bld9_seed001_re_straddles_double_but_never_the_button_nor_a_sleeper_nor_after_a_card() -> None:
    """Seed 001: "UTG may elect to straddle but only before they receive their cards ... Each subsequent position
    may also straddle but only if the player before them straddled, and each straddle must double the previous
    one ... There are no button straddles or straddles from positions besides the first to act". E re-straddles to
    24; F (the button) may not; D may not straddle before C (no sleeper); nobody straddles once a card is out."""
    base = [table(seats=6)] + [sit(s) for s in range(1, 7)] + [{"type": "button", "seat": 6}, START]
    _, result = replay(base + [straddle(4)])
    assert len(result["rejected"]) == 1 and "BLD-9" in result["rejected"][0]["reason"]
    _, result = replay(base + [straddle(3), straddle(4), straddle(5), straddle(6)])
    assert [r["line"] for r in result["rejected"]] == [len(base) + 4]
    assert "button" in result["rejected"][0]["reason"]
    assert result["hands"][0]["posts"]["5"] == post(24)
    _, result = replay(base + cards("As") + [straddle(3)])
    assert [r["line"] for r in result["rejected"]] == [len(base) + 2]
    assert "before the first card" in result["rejected"][0]["reason"]


def test_bld9_seed002_b8_one_straddle_of_twice_the_big_blind_action_left_of_it_and_live() -> None:
    """Seed 002 B8: "Only one straddle is permitted on a deal" (a); "always at least twice the size of the big
    blind" at the set size (b), here 20 at 5/10; "The action before the flop is initiated by the person on the
    immediate left of the straddler" (d); "The straddle is a live blind; that player may raise" (e). Casino no-limit,
    six seats, button seat 1: SB 2, BB 3, straddle seat 4."""
    journal = [table(rules="casino", blinds=(5, 10))] + [sit(s, 1000) for s in range(1, 7)]
    journal += [{"type": "button", "seat": 1}, START, straddle(4), straddle(5)] + hole(6)
    _, result = replay(journal)
    assert [r["line"] for r in result["rejected"]] == [11]
    assert "only one straddle" in result["rejected"][0]["reason"]
    assert result["hands"][0]["posts"] == {"2": post(5), "3": post(10), "4": post(20)}
    assert result["next"]["seat"] == 5 and result["next"]["legal"]["call"] == 20
    journal += [act(5, "call"), *folds(6, 1), act(2, "call"), act(3, "call")]
    _, result = replay(journal)
    assert result["next"]["seat"] == 4
    assert result["next"]["legal"]["check"] is True and result["next"]["legal"]["raise"] == [40, 1000]
    assert stacks(result) == {1: 1000, 2: 980, 3: 980, 4: 980, 5: 980, 6: 1000}


@pytest.mark.parametrize("rules", ["online", "tournament"])
def test_bld9_no_straddles_online_or_in_tournaments(rules: str) -> None:
    """BLD-9: seed 003 has no straddle; the TDA has no straddle rule (tournaments): refused."""
    journal = [table(rules=rules, blinds=(1, 2)), sit(1, 100), sit(2, 100), sit(3, 100), START, straddle(1)]
    _, result = replay(journal)
    assert len(result["rejected"]) == 1 and "straddles are off" in result["rejected"][0]["reason"]


# --- BLD-10 antes ----------------------------------------------------------------------------------------------

def tournament(level: dict[str, Any], stack_3: int = 1000) -> list[dict[str, Any]]:
    """Three players, button seat 1 (SB 2, BB 3), one level of the table's schedule (TRN-1)."""
    return [table(rules="tournament", levels=[{"minutes": 20, **level}]), sit(1, 1000), sit(2, 1000),
            sit(3, stack_3), {"type": "button", "seat": 1}, START]


def test_bld10_every_player_antes_dead_money_not_part_of_the_bet() -> None:
    """BLD-10 (seeds 000, 004: antes in later levels; seed 004: "an ante is dead money: it is not part of any bet
    and does not open the betting"): blinds 50/100, ante 10 from all three. Seat 1 still faces a call of 100 and a
    minimum raise to 200. Folded to the BB: he wins the 30 of antes and the SB's 50."""
    journal = tournament({"blinds": [50, 100], "ante": 10}) + hole(3)
    _, result = replay(journal)
    assert result["hands"][0]["posts"] == {"1": post(0, 0, 10), "2": post(50, 0, 10), "3": post(100, 0, 10)}
    assert result["next"]["seat"] == 1
    assert result["next"]["legal"]["call"] == 100 and result["next"]["legal"]["raise"] == [200, 990]
    journal += folds(1, 2)
    _, result = replay(journal)
    assert stacks(result) == {1: 990, 2: 940, 3: 1070}
    assert result["hands"][0]["pots"][0]["amount"] == 30 + 50 + 50       # the BB's unmatched 50 goes back


def test_bld10_big_blind_ante_paid_by_the_big_blind_for_the_table() -> None:
    """BLD-10 (TDA RP-11): with a big-blind ante the big blind pays one ante for the table (100 at 50/100)."""
    journal = tournament({"blinds": [50, 100], "bb_ante": 100}) + hole(3)
    _, result = replay(journal)
    assert result["hands"][0]["posts"] == {"2": post(50), "3": post(100, 0, 100)}
    assert result["next"]["legal"]["call"] == 100
    journal += folds(1, 2)
    _, result = replay(journal)
    assert stacks(result) == {1: 1000, 2: 950, 3: 1050}


def test_bld10_short_big_blind_pays_the_blind_first_then_the_ante_tda_2024() -> None:
    """BLD-10 (TDA 2024 RP-11): "A short BB pays the big blind first, then the ante." Seat 3 has 150 at 50/100 with
    a big-blind ante of 100: 100 live, 50 ante, all in. Seat 1 still faces the full 100 (B24: betting as if the
    full amount were posted). Folded round, seat 3 gets his 150 back and the SB's 50."""
    journal = tournament({"blinds": [50, 100], "bb_ante": 100}, stack_3=150) + hole(3)
    _, result = replay(journal)
    assert result["hands"][0]["posts"] == {"2": post(50), "3": post(100, 0, 50)}
    assert result["next"]["seat"] == 1 and result["next"]["legal"]["call"] == 100
    journal += folds(1, 2)
    _, result = replay(journal)
    assert stacks(result) == {1: 1000, 2: 950, 3: 200}
    assert "BLD-10" in rules_of(result)
