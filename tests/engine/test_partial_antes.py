"""Antes in the side pots (POT-1, BLD-10): each player's own ante is his contribution and a partial ante makes
a layer; a big-blind ante is the table's, dead money in the main pot whole.

The casino hands are played from journal inputs at no-limit 5/10 with a 10 ante, four players: button on
seat 1, so seat 2 posts the small blind, seat 3 the big blind, seat 4 is first to act (deal order 2, 3, 4, 1).
Every expected pot is worked out in the docstring from POT-1 (seed 001: "You can never win more money than
you had in your stack from each player in the hand"; seed 004: the all-in player "can win, from each opponent
that called his Bet, an amount that is equal to the value of his All-in").
"""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, replay, sit, stacks, table

from dealerpi.engine.games import GAMES
from dealerpi.engine.hand import Hand
from dealerpi.engine.pots import Pot

# Hole cards in deal order (2, 3, 4, 1): seat 2 7c 2d, seat 3 Kc Kd, seat 4 Ac Ad, seat 1 9h 8h.
HOLE = cards("7c", "Kc", "Ac", "9h", "2d", "Kd", "Ad", "8h")
# Burn, flop, burn, turn, burn, river: the board Qs Jh 5d 8c 3h pairs nobody, so aces beat kings beat 7-high.
FLOP, TURN, RIVER = cards("4c", "Qs", "Jh", "5d"), cards("6s", "8c"), cards("9c", "3h")


def casino(short: int, short_seat: int) -> list[dict[str, Any]]:
    """Four seats of 1,000 at casino no-limit 5/10, ante 10, but ``short_seat`` holds ``short``."""
    journal: list[dict[str, Any]] = [table(rules="casino", blinds=(5, 10), ante=10)]
    journal += [sit(seat, short if seat == short_seat else 1000) for seat in (1, 2, 3, 4)]
    return journal + [{"type": "button", "seat": 1}, {"type": "start"}]


def check_down(*seats: int) -> list[dict[str, Any]]:
    """Flop, turn and river checked through by ``seats`` in turn."""
    journal: list[dict[str, Any]] = []
    for street in (FLOP, TURN, RIVER):
        journal += street + [act(seat, "check") for seat in seats]
    return journal


def shown(*seats: int) -> list[dict[str, Any]]:
    return [{"type": "show", "seat": seat} for seat in seats]


def pots(result: dict[str, Any]) -> list[tuple[int, list[int], dict[str, int]]]:
    return [(p["amount"], p["eligible"], p["won"]) for p in result["hands"][-1]["pots"]]


def test_pot1_bld10_all_in_on_a_partial_ante_wins_the_main_pot() -> None:
    """POT-1, BLD-10: seat 4 holds 6 chips and antes all 6. Seat 1 antes 10 and folds; seats 2 and 3 ante 10,
    post 5 and 10, seat 2 calls to 10, and both check to the river. Seat 4's aces are best.

    In: seat 1 10, seat 2 10 + 10 = 20, seat 3 10 + 10 = 20, seat 4 6; 56 in all.
    Main pot: 6 from each of the 4 contributors = 24, seats 2, 3, 4 (seat 1 folded); seat 4 wins it.
    Side pot: (10 - 6) + (20 - 6) + (20 - 6) = 4 + 14 + 14 = 32, seats 2 and 3; seat 3's kings win it.
    Stacks: seat 4 24; seat 1 1,000 - 10 = 990; seat 2 1,000 - 20 = 980; seat 3 1,000 - 20 + 32 = 1,012
    (24 + 990 + 980 + 1,012 = 3,006 = 3 x 1,000 + 6)."""
    journal = casino(6, 4) + HOLE + [act(1, "fold"), act(2, "call"), act(3, "check")]
    journal += check_down(2, 3) + shown(2, 3, 4)
    _, result = replay(journal)
    assert result["hands"][-1]["posts"]["4"] == {"live": 0, "dead": 0, "ante": 6}
    assert pots(result) == [(24, [2, 3, 4], {"4": 24}), (32, [2, 3], {"3": 32})]
    assert stacks(result) == {1: 990, 2: 980, 3: 1012, 4: 24}


def test_pot1_bld10_all_in_on_exactly_the_ante_wins_the_main_pot() -> None:
    """POT-1, BLD-10: the same hand with seat 4 holding exactly 10, the whole ante: he is all in on it.

    Main pot: 10 from each of the 4 = 40, seats 2, 3, 4; seat 4 wins it.
    Side pot: (20 - 10) + (20 - 10) = 20 (seat 1's 10 is all in the main pot), seats 2 and 3; seat 3 wins.
    Stacks: seat 4 40, seat 1 990, seat 2 980, seat 3 1,000 - 20 + 20 = 1,000 (sum 3,010)."""
    journal = casino(10, 4) + HOLE + [act(1, "fold"), act(2, "call"), act(3, "check")]
    journal += check_down(2, 3) + shown(2, 3, 4)
    _, result = replay(journal)
    assert pots(result) == [(40, [2, 3, 4], {"4": 40}), (20, [2, 3], {"3": 20})]
    assert stacks(result) == {1: 990, 2: 980, 3: 1000, 4: 40}


def test_bld10_pot1_short_big_blind_posts_blind_first_and_wins_15_from_each() -> None:
    """BLD-10 (TDA 2024: blind first, then the ante), POT-1: seat 3, the big blind, holds 15: he posts the
    blind 10, then 5 of the 10 ante, and is all in. Seats 4, 1 and 2 call 10 and check to the river; seat 3
    holds the aces (the kings go to seat 4, seat 4's aces to seat 3).

    In: seat 3 10 + 5 = 15; seats 4, 1, 2 10 ante + 10 = 20 each; 75 in all.
    Main pot: 15 from each of the 4 = 60, all four seats; seat 3 wins it.
    Side pot: 3 x (20 - 15) = 15, seats 1, 2, 4; seat 4's kings win it.
    Stacks: seat 3 60 (he put in 15 and wins 15 from each of 3 opponents: 15 + 45); seat 4 1,000 - 20 + 15 =
    995; seats 1 and 2 980 (sum 60 + 995 + 980 + 980 = 3,015 = 3 x 1,000 + 15)."""
    hole = cards("7c", "Ac", "Kc", "9h", "2d", "Ad", "Kd", "8h")      # 2: 7c 2d, 3: Ac Ad, 4: Kc Kd, 1: 9h 8h
    journal = casino(15, 3) + hole + [act(4, "call"), act(1, "call"), act(2, "call")]
    journal += check_down(2, 4, 1) + shown(2, 4, 1, 3)
    _, result = replay(journal)
    assert result["hands"][-1]["posts"]["3"] == {"live": 10, "dead": 0, "ante": 5}
    assert pots(result) == [(60, [2, 3, 4, 1], {"3": 60}), (15, [2, 4, 1], {"4": 15})]
    assert stacks(result) == {1: 980, 2: 980, 3: 60, 4: 995}


def test_bld10_big_blind_ante_is_the_tables_and_stays_whole_in_the_main_pot() -> None:
    """BLD-10 (TDA RP-11: the big blind pays one ante for the table), POT-1. The worked example of the poker
    timer's guide (robinapps.com, "Big Blind Ante"): blinds 4,000/8,000, big-blind ante 8,000; a player with
    only 1,000 plays a three-way pot against the blinds: "If that participant wins, they win 11k (their own
    1k wager, plus 1k from each opponent, plus the 8k ante)".

    In position order: small blind (50,000), big blind (50,000), button (1,000). The button calls all in for
    1,000, the small blind completes to 8,000, the big blind checks.
    Main pot: 3 x 1,000 + the whole 8,000 ante = 11,000, all three. Side pot: 2 x (8,000 - 1,000) = 14,000."""
    hand = Hand(GAMES["nlhe"], [50_000, 50_000, 1_000], blinds=[4_000, 8_000, 0], antes=[0, 8_000, 0],
                min_bet=8_000)
    for player, hole in enumerate((["7c", "2d"], ["Kc", "Kd"], ["Ac", "Ad"])):
        hand.deal_hole(player, hole)
    hand.check_or_call()                       # the button: all in for 1,000
    hand.check_or_call()                       # the small blind completes
    hand.check_or_call()                       # the big blind checks
    assert hand.pots() == [Pot(11_000, (0, 1, 2)), Pot(14_000, (0, 1))]
