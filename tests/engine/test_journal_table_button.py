"""Running the table across hands through the journal: the button and the blinds (BLD-1..BLD-5).

Every test plays whole hands from journal inputs (sit, start, cards, actions, leave) and checks, hand after
hand, where the button is, who posted what (live or dead) and the stacks. Expected values are worked out by hand
from the rule quoted in each docstring (rules digest section 5, seeds 001 and 002), not taken from a run.
Seats A, B, C, ... of the seeds' examples are seats 1, 2, 3, ...
"""

from __future__ import annotations

from typing import Any

import pytest
from journal_kit import act, cards, play_of, replay, sit, stacks, table

START: dict[str, Any] = {"type": "start"}
DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def button(seat: int) -> dict[str, Any]:
    return {"type": "button", "seat": seat}


def leave(seat: int) -> dict[str, Any]:
    return {"type": "leave", "seat": seat}


def hole(order: tuple[int, ...], per_player: int = 2) -> list[dict[str, Any]]:
    """Hole cards for a hand whose cards do not matter: distinct cards, one round at a time."""
    return cards(*DECK[: len(order) * per_player])


def deal(order: tuple[int, ...], hands: dict[int, list[str]]) -> list[dict[str, Any]]:
    """The hole-card reads of ``hands`` when the shoe deals round by round in ``order`` (DEAL-1, DEAL-4)."""
    rounds = len(hands[order[0]])
    return cards(*[hands[seat][k] for k in range(rounds) for seat in order])


def folds(*seats: int) -> list[dict[str, Any]]:
    return [act(seat, "fold") for seat in seats]


def post(live: int = 0, dead: int = 0, ante: int = 0) -> dict[str, int]:
    return {"live": live, "dead": dead, "ante": ante}


def where(played: Any) -> tuple[int, int | None, int | None]:
    plan = play_of(played).plan
    return plan.button, plan.sb, plan.bb


# Five players (seats 1-5), button seat 1: the small blind is seat 2, the big blind seat 3; the shoe deals
# 2, 3, 4, 5, 1. The board of the all-in hands below pairs nothing the losers hold.
FIVE = (2, 3, 4, 5, 1)
BOARD = ["Qs", "Kc", "9d", "4h", "Qc", "Js", "Qd", "3s"]          # burn, flop, burn, turn, burn, river
WINNER = ["Ah", "Ad"]
LOSERS = [["7h", "2d"], ["7c", "2h"]]
OTHERS = [["2c", "3d"], ["4c", "5d"], ["6c", "8d"], ["Tc", "Td"]]


def five_handed(short: dict[int, int] | None = None, seats: int = 5, rules: str = "home") -> list[dict[str, Any]]:
    short = short or {}
    return [table(rules=rules, seats=seats)] + [sit(s, short.get(s, 300)) for s in (1, 2, 3, 4, 5)] + [button(1)]


def hands_for(winner: int, losers: tuple[int, ...], order: tuple[int, ...] = FIVE) -> dict[int, list[str]]:
    others, beaten = iter(OTHERS), iter(LOSERS)
    return {seat: WINNER if seat == winner else next(beaten) if seat in losers else next(others) for seat in order}


# --- BLD-1 positions ---------------------------------------------------------------------------------------------

def test_bld1_positions_deal_order_and_first_to_act_over_two_hands() -> None:
    """BLD-1 (seed 002 B9, seed 001 "Positions"): SB is the first seat left of the button, BB the next; pre-flop
    action starts left of the BB; after the flop the first active player left of the button acts first. DEAL-1:
    the SB gets the first card, the button the last. The next hand the button moves one seat (seats 1-6)."""
    journal = [table(seats=6)] + [sit(s) for s in range(1, 7)] + [button(1), START]
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "seat 2"}
    journal += hole((2, 3, 4, 5, 6, 1))
    _, result = replay(journal)
    assert result["next"]["seat"] == 4                                # UTG, left of the big blind (seat 3)
    assert result["hands"][0]["button"] == 1
    assert result["hands"][0]["posts"] == {"2": post(1), "3": post(3)}
    journal += [act(4, "call"), *folds(5, 6, 1), act(2, "call"), act(3, "check")]
    journal += cards("2c", "3c", "4c", "9h")                          # burn, flop
    played, result = replay(journal)
    assert result["next"]["seat"] == 2                                # the SB acts first after the flop
    journal += [act(2, "check"), act(3, "check"), act(4, "bet", 3), *folds(2, 3)]
    played, result = replay(journal)
    # Seat 4 wins 3 (SB) + 3 (BB) + 3 (its own call) = 9 and gets its uncalled bet back.
    assert stacks(result) == {1: 300, 2: 297, 3: 297, 4: 306, 5: 300, 6: 300}
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (2, 3, 4) and play_of(played).plan.order == (3, 4, 5, 6, 1, 2)
    assert result["hands"][1]["button"] == 2
    assert result["hands"][1]["posts"] == {"3": post(1), "4": post(3)}
    assert result["next"] == {"expect": "card", "for": "seat 3"}
    assert result["rejected"] == []


def test_bld1_empty_seats_are_skipped() -> None:
    """BLD-1: positions go to players, not chairs: with seats 2 and 5 empty and the button on seat 1, the SB is
    seat 3 and the BB seat 4; the shoe deals 3, 4, 6, 1."""
    journal = [table(seats=6), sit(1), sit(3), sit(4), sit(6), button(1), START]
    played, result = replay(journal)
    assert where(played) == (1, 3, 4) and play_of(played).plan.order == (3, 4, 6, 1)
    assert result["hands"][0]["posts"] == {"3": post(1), "4": post(3)}
    journal += hole((3, 4, 6, 1)) + folds(6, 1, 3)
    _, result = replay(journal)
    assert stacks(result) == {1: 300, 3: 299, 4: 301, 6: 300}


# --- BLD-3 seed 002's example, both methods --------------------------------------------------------------------

SEED002 = (2, 3, 4, 5, 6, 1)        # six players A-F, A (seat 1) on the button: B posts $5, C $10


def seed002_first_hand(game: str, **extra: Any) -> list[dict[str, Any]]:
    """Seed 002 B12's example: "Player A has the button, Player B has the $5 blind, and Player C has the $10
    blind"; it folds round to C, who wins B's $5. Then "Player C quits the game"."""
    journal = [table(game, "casino", blinds=(5, 10), **extra)] + [sit(s, 1000) for s in range(1, 7)]
    journal += [button(1), START] + hole(SEED002) + folds(4, 5, 6, 1, 2)
    journal += [leave(3)]
    return journal


def test_bld3_seed002_example_no_missed_blinds_limit() -> None:
    """Seed 002 B11b/B12a (limit casino game: "No Missed Blinds"): "the next deal would have Player D take the big
    blind, the empty chair (where Player C had been sitting) assigned a dead little blind, and Player B the button.
    The following deal would have Player E take the big blind, Player D the small blind, and the empty chair
    vacated by Player C assigned the button ... player B would have the privilege of last-action on two
    consecutive deals."""
    journal = seed002_first_hand("flhe", limits=[10, 20])
    played, result = replay(journal)
    assert result["hands"][0]["button"] == 1
    assert result["hands"][0]["posts"] == {"2": post(5), "3": post(10)}
    assert stacks(result) == {1: 1000, 2: 995, 4: 1000, 5: 1000, 6: 1000}           # C left with 1005

    journal += [START]
    played, result = replay(journal)
    assert where(played) == (2, None, 4)                                 # B button, dead SB on C's chair
    assert result["hands"][1]["button"] == 2
    assert result["hands"][1]["posts"] == {"4": post(10)}                # nobody posts the dead little blind
    assert play_of(played).plan.order == (4, 5, 6, 1, 2) and play_of(played).plan.preflop_first == 5
    journal += hole(play_of(played).plan.order) + folds(5, 6, 1, 2)               # D takes back his own blind
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5)                                    # the button on the empty chair
    assert result["hands"][2]["button"] == 3
    assert result["hands"][2]["posts"] == {"4": post(5), "5": post(10)}
    assert play_of(played).plan.order == (4, 5, 6, 1, 2)                          # B (seat 2) has last action again
    journal += hole(play_of(played).plan.order) + folds(6, 1, 2, 4)
    _, result = replay(journal)
    assert stacks(result) == {1: 1000, 2: 995, 4: 995, 5: 1005, 6: 1000}
    assert result["rejected"] == []


def test_bld3_seed002_example_no_dead_button_big_bet() -> None:
    """Seed 002 B11b/B12b (no-limit casino game: "No Dead Button"): "the next deal would have Player E take the big
    blind, Player D the small blind, and Player 8 [B] the button. The following deal, the button would go to
    Player D. With this method, Player D would escape taking his big blind"."""
    journal = seed002_first_hand("nlhe")
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (2, 4, 5)
    assert result["hands"][1]["button"] == 2
    assert result["hands"][1]["posts"] == {"4": post(5), "5": post(10)}
    assert play_of(played).plan.order == (4, 5, 6, 1, 2) and play_of(played).plan.preflop_first == 6
    journal += hole(play_of(played).plan.order) + folds(6, 1, 2, 4)               # E wins D's small blind
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (4, 5, 6)                                    # D has the button: no big blind for D
    assert result["hands"][2]["button"] == 4
    assert result["hands"][2]["posts"] == {"5": post(5), "6": post(10)}
    assert play_of(played).plan.order == (5, 6, 1, 2, 4)
    journal += hole(play_of(played).plan.order) + folds(1, 2, 4, 5)
    _, result = replay(journal)
    # Hand 1: B -5. Hand 2: D -5, E +5. Hand 3: E -5, F +5.
    assert stacks(result) == {1: 1000, 2: 995, 4: 995, 5: 1000, 6: 1005}
    assert result["rejected"] == []


# --- BLD-3 (seed 001): going broke at the home game's dead button --------------------------------------------

def test_seed001_broke_before_the_small_blind_the_small_blind_is_dead() -> None:
    """Seed 001: "If someone goes broke the hand before their SB, the SB is 'dead', nobody has to pay it. The person
    who would normally have posted BB still posts it." Seat 3 (this hand's BB, next hand's SB) calls all-in for
    90 against seat 4's aces and leaves. Next hand: button seat 2, no SB, BB seat 4. The hand after, seat 3 would
    have had the button: "If someone goes broke the hand before their B, there is a dead button"."""
    journal = five_handed({3: 90}) + [START] + deal(FIVE, hands_for(4, (3,)))
    journal += [act(4, "all_in"), *folds(5, 1, 2), act(3, "call")] + cards(*BOARD)
    _, result = replay(journal)
    # Seat 4 wins 90 + 90 + seat 2's dead small blind of 1 = 181 and keeps the 210 nobody called.
    assert stacks(result) == {1: 300, 2: 299, 3: 0, 4: 391, 5: 300}
    journal += [leave(3), START]
    played, result = replay(journal)
    assert where(played) == (2, None, 4)
    assert result["hands"][1]["posts"] == {"4": post(3)}
    assert play_of(played).plan.order == (4, 5, 1, 2)
    journal += hole(play_of(played).plan.order) + folds(5, 1, 2) + [START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5) and play_of(played).plan.order == (4, 5, 1, 2)     # dead button; seat 2 is last
    assert result["hands"][2]["posts"] == {"4": post(1), "5": post(3)}
    assert result["rejected"] == []


def test_seed001_broke_before_the_big_blind_the_seat_is_just_dead() -> None:
    """Seed 001: "If someone goes broke the hand before their BB, the person to their left is BB, the person to
    their right is SB, and the seat is just dead." Seat 4 (UTG, next hand's BB) goes all-in for 90 and loses to
    seat 5's aces. Next hand: button 2, SB 3, BB 5. Then the dead button method goes on: BB seat 1, SB seat 5
    (last BB), button seat 3 (last SB)."""
    journal = five_handed({4: 90}) + [START] + deal(FIVE, hands_for(5, (4,)))
    journal += [act(4, "all_in"), act(5, "call"), *folds(1, 2, 3)] + cards(*BOARD)
    _, result = replay(journal)
    # Seat 5 wins 90 + 90 + both blinds (1 + 3) = 184.
    assert stacks(result) == {1: 300, 2: 299, 3: 297, 4: 0, 5: 394}
    journal += [leave(4), START]
    played, result = replay(journal)
    assert where(played) == (2, 3, 5) and play_of(played).plan.order == (3, 5, 1, 2)
    assert result["hands"][1]["posts"] == {"3": post(1), "5": post(3)}
    journal += hole(play_of(played).plan.order) + folds(1, 2, 3) + [START]
    played, result = replay(journal)
    assert where(played) == (3, 5, 1)
    assert result["hands"][2]["posts"] == {"5": post(1), "1": post(3)}
    journal += hole(play_of(played).plan.order) + folds(2, 3, 5)
    _, result = replay(journal)
    # Hand 2: seat 5 wins seat 3's small blind. Hand 3: seat 1 wins seat 5's small blind.
    assert stacks(result) == {1: 301, 2: 299, 3: 296, 5: 394}
    assert result["rejected"] == []


def test_seed001_broke_before_the_button_dead_button_then_it_goes_to_their_left() -> None:
    """Seed 001: "If someone goes broke the hand before their B, there is a 'dead button'. Blinds remain the same
    as they would have been, but the button rests on the empty spot and the person to their right is still the CO
    as they would have been. On the next hand, the button goes to their left." Seat 2 (the SB) moves all-in for
    90 and loses to the BB's aces."""
    journal = five_handed({2: 90}) + [START] + deal(FIVE, hands_for(3, (2,)))
    journal += [*folds(4, 5, 1), act(2, "all_in"), act(3, "call")] + cards(*BOARD)
    _, result = replay(journal)
    assert stacks(result) == {1: 300, 2: 0, 3: 390, 4: 300, 5: 300}
    journal += [leave(2), START]
    played, result = replay(journal)
    assert where(played) == (2, 3, 4)                                     # the button rests on the empty chair
    assert result["hands"][1]["button"] == 2
    assert result["hands"][1]["posts"] == {"3": post(1), "4": post(3)}
    assert play_of(played).plan.order == (3, 4, 5, 1) and play_of(played).plan.order[-1] == 1   # seat 1 still acts last
    journal += hole(play_of(played).plan.order) + folds(5, 1, 3) + [START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5)                                     # the button goes to their left
    assert result["hands"][2]["posts"] == {"4": post(1), "5": post(3)}
    assert result["rejected"] == []


def test_seed001_several_broke_at_once_dead_small_blind_and_dead_button() -> None:
    """Seed 001: "If multiple people go broke at once, you adjust the blinds using dead positions as needed to make
    sure nobody misses their turn paying the blinds or having the button." Both blinds (seats 2 and 3, 90 each)
    call seat 4's all-in and lose. Next hand: the BB moves one player to seat 4, a dead SB on seat 3, a dead
    button on seat 2. The hand after: SB seat 4, BB seat 5, the dead button on seat 3."""
    journal = five_handed({2: 90, 3: 90}) + [START] + deal(FIVE, hands_for(4, (2, 3)))
    journal += [act(4, "all_in"), *folds(5, 1), act(2, "call"), act(3, "call")] + cards(*BOARD)
    _, result = replay(journal)
    assert stacks(result) == {1: 300, 2: 0, 3: 0, 4: 480, 5: 300}         # 300 - 90 + 3 x 90
    journal += [leave(2), leave(3), START]
    played, result = replay(journal)
    assert where(played) == (2, None, 4) and play_of(played).plan.order == (4, 5, 1)
    assert result["hands"][1]["posts"] == {"4": post(3)}
    journal += hole(play_of(played).plan.order) + folds(5, 1) + [START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5) and play_of(played).plan.order == (4, 5, 1)
    assert result["hands"][2]["posts"] == {"4": post(1), "5": post(3)}
    assert result["rejected"] == []


# --- BLD-2 tournament: the dead button, busts through the journal -----------------------------------------------

def tournament_five(short: dict[int, int]) -> list[dict[str, Any]]:
    journal = [table(rules="tournament", seats=5, blinds=(50, 100))]
    journal += [sit(s, short.get(s, 3000)) for s in (1, 2, 3, 4, 5)] + [button(1), START]
    return journal


def test_bld2_small_blind_busts_the_button_moves_onto_the_empty_seat() -> None:
    """BLD-2 (TDA 32): "SB busts -> the button moves onto the empty SB seat; the old BB posts SB." Seat 2 (SB,
    1000) moves all-in and loses to the BB's aces; a busted tournament player leaves the table by himself."""
    journal = tournament_five({2: 1000}) + deal(FIVE, hands_for(3, (2,)))
    journal += [*folds(4, 5, 1), act(2, "all_in"), act(3, "call")] + cards(*BOARD)
    played, result = replay(journal)
    assert stacks(result) == {1: 3000, 3: 4000, 4: 3000, 5: 3000}
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (2, 3, 4) and play_of(played).plan.order == (3, 4, 5, 1)
    assert result["hands"][1]["button"] == 2
    assert result["hands"][1]["posts"] == {"3": post(50), "4": post(100)}
    assert result["rejected"] == []


def test_bld2_big_blind_busts_no_small_blind_then_the_button_on_the_empty_seat() -> None:
    """BLD-2 (TDA 32): "BB busts -> the button moves to the old SB; there is no SB that hand; the next hand, the
    button goes onto the empty seat." Seat 3 (BB, 1000) calls seat 4's all-in and loses."""
    journal = tournament_five({3: 1000}) + deal(FIVE, hands_for(4, (3,)))
    journal += [act(4, "all_in"), *folds(5, 1, 2), act(3, "call")] + cards(*BOARD)
    _, result = replay(journal)
    assert stacks(result) == {1: 3000, 2: 2950, 4: 4050, 5: 3000}          # 3000 + 1000 + the SB's 50
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (2, None, 4)
    assert result["hands"][1]["posts"] == {"4": post(100)}
    journal += hole(play_of(played).plan.order) + folds(5, 1, 2) + [START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5)
    assert result["hands"][2]["button"] == 3
    assert result["hands"][2]["posts"] == {"4": post(50), "5": post(100)}
    assert result["rejected"] == []


# --- BLD-4 heads-up, BLD-5 three to two ---------------------------------------------------------------------

def test_bld4_heads_up_button_posts_the_small_blind_acts_first_preflop_last_after() -> None:
    """BLD-4 (TDA 34-B, seeds 000, 003): heads-up the button posts the SB and the other player the BB; the button
    acts first pre-flop and last after the flop (DEAL-2: the BB gets the first card). The button alternates."""
    journal = [table(), sit(1), sit(4), button(1), START]
    _, result = replay(journal)
    assert result["hands"][0]["posts"] == {"1": post(1), "4": post(3)}
    assert result["next"] == {"expect": "card", "for": "seat 4"}
    journal += hole((4, 1))
    _, result = replay(journal)
    assert result["next"]["seat"] == 1
    journal += [act(1, "call"), act(4, "check")] + cards("2c", "3c", "4c", "9h")
    _, result = replay(journal)
    assert result["next"]["seat"] == 4                                   # the BB acts first after the flop
    journal += [act(4, "bet", 3), act(1, "fold"), START]
    _, result = replay(journal)
    assert result["hands"][1]["button"] == 4
    assert result["hands"][1]["posts"] == {"4": post(1), "1": post(3)}
    journal += hole((1, 4)) + [act(4, "fold")]
    _, result = replay(journal)
    assert stacks(result) == {1: 297 + 1, 4: 303 - 1}
    assert result["rejected"] == []


@pytest.mark.parametrize("rules", ["home", "casino"])
@pytest.mark.parametrize(("leaves", "heads_up_button", "heads_up_bb"), [(1, 3, 2), (2, 3, 1), (3, 2, 1)])
def test_bld5_three_to_two_nobody_posts_the_big_blind_twice(rules: str, leaves: int, heads_up_button: int,
                                                            heads_up_bb: int) -> None:
    """BLD-5 (TDA 34-B): from three players to two, "the player who just posted the BB becomes SB and button"
    (seat 3 here, when he stays). When the big blind himself leaves, the BB moves on clockwise to the next player
    (seat 1) and nobody posts it twice."""
    journal = [table(rules=rules), sit(1), sit(2), sit(3), button(1), START] + hole((2, 3, 1))
    journal += folds(1, 2) + [leave(leaves), START]
    played, result = replay(journal)
    assert where(played) == (heads_up_button, heads_up_button, heads_up_bb)
    assert result["hands"][1]["posts"] == {str(heads_up_button): post(1), str(heads_up_bb): post(3)}
    assert play_of(played).plan.order == (heads_up_bb, heads_up_button)
    assert result["rejected"] == []
