"""Running the table across hands through the journal: coming into the game and stepping away.

New players (BLD-6), missed blinds and making them up (BLD-7), away players (DEAL-9, cash), buy-ins and top-ups
(seed 001: 30 to 100 big blinds; seed 003: at least ten small bets). Each test plays whole hands from journal
inputs and checks the button, who posted what (live or dead) and the stacks, hand by hand; the expected values
are worked out by hand from the rule quoted in the docstring. Seats A, B, C, ... of the seeds are 1, 2, 3, ...
"""

from __future__ import annotations

from typing import Any

import pytest
from journal_kit import act, cards, play_of, replay, rules_of, sit, stacks, table

START: dict[str, Any] = {"type": "start"}
DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def button(seat: int) -> dict[str, Any]:
    return {"type": "button", "seat": seat}


def away(seat: int) -> dict[str, Any]:
    return {"type": "away", "seat": seat}


def back(seat: int, *, post: bool = False) -> dict[str, Any]:
    return {"type": "back", "seat": seat, "post": post}


def chips(seat: int, amount: int) -> dict[str, Any]:
    return {"type": "chips", "seat": seat, "amount": amount}


def hole(order: tuple[int, ...]) -> list[dict[str, Any]]:
    return cards(*DECK[: 2 * len(order)])


def folds(*seats: int) -> list[dict[str, Any]]:
    return [act(seat, "fold") for seat in seats]


def post(live: int = 0, dead: int = 0, ante: int = 0) -> dict[str, int]:
    return {"live": live, "dead": dead, "ante": ante}


def where(played: Any) -> tuple[int, int | None, int | None]:
    return play_of(played).plan.button, play_of(played).plan.sb, play_of(played).plan.bb


def play_hand(journal: list[dict[str, Any]], order: tuple[int, ...], fold: tuple[int, ...]) -> Any:
    """Start the next hand, check it deals to ``order``, deal it and fold ``fold`` in turn."""
    journal += [START]
    played, _ = replay(journal)
    assert play_of(played).plan.order == order
    journal += hole(order) + folds(*fold)
    return played


# --- BLD-6 new players ---------------------------------------------------------------------------------------

def four_handed_after_one_hand(rules: str = "home") -> list[dict[str, Any]]:
    """Seats 1-4 of six, button seat 1; hand 1 folds round to the big blind (seat 3), who wins seat 2's 1."""
    journal = [table(rules=rules, seats=6)] + [sit(s) for s in (1, 2, 3, 4)] + [button(1)]
    play_hand(journal, (2, 3, 4, 1), (4, 1, 2))
    return journal


@pytest.mark.parametrize("rules", ["home", "casino"])
def test_bld6_new_player_posts_a_live_big_blind_and_plays_at_once(rules: str) -> None:
    """BLD-6 (RRoP section 4, seed 002 B17): a new player may "put up the amount of the big blind as live money"
    and be dealt in at once. Seat 5 sits down after hand 1 left of the next big blind (seat 4), outside the
    blinds-to-button stretch. Hand 2: button 2, SB 3, BB 4, seat 5 posts 3 live; action still starts left of the
    big blind, with seat 5 (seed 002 B9)."""
    journal = four_handed_after_one_hand(rules) + [{**sit(5), "post": True}, START]
    played, result = replay(journal)
    assert where(played) == (2, 3, 4) and play_of(played).plan.order == (3, 4, 5, 1, 2)
    assert result["hands"][1]["posts"] == {"3": post(1), "4": post(3), "5": post(3)}
    journal += hole(play_of(played).plan.order)
    _, result = replay(journal)
    assert result["next"]["seat"] == 5 and result["next"]["legal"]["check"] is True   # his post is live
    journal += folds(5, 1, 2, 3)
    _, result = replay(journal)
    # Hand 1: seat 2 -1, seat 3 +1. Hand 2: seat 4 wins seat 3's 1 and seat 5's 3.
    assert stacks(result) == {1: 300, 2: 299, 3: 300, 4: 304, 5: 297}
    assert result["rejected"] == []


def test_bld6_new_player_who_does_not_post_waits_for_the_big_blind() -> None:
    """BLD-6 (RRoP section 4, seed 001 preset "wait for the BB or post"): without a post, seat 5 is not dealt in
    hand 2 (BB seat 4) and comes in on the big blind in hand 3 (button 3, SB 4, BB 5)."""
    journal = four_handed_after_one_hand() + [sit(5)]
    play_hand(journal, (3, 4, 1, 2), (1, 2, 3))
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5) and play_of(played).plan.order == (4, 5, 1, 2, 3)
    assert result["hands"][2]["posts"] == {"4": post(1), "5": post(3)}
    assert result["rejected"] == []


def test_bld6_seed002_b5_new_player_not_dealt_between_the_blinds_and_the_button() -> None:
    """Seed 002 B5: "a new player to the game may not receive a hand between the big blind and the button ... He
    must wait for the button to pass him." Seats 1, 2, 4, 5 of five; hand 1: button 1, SB 2, BB 4. Seat 3 sits down
    asking to post. Hand 2 (dead button): BB 5, SB 4, button 2: seat 3 sits between the button and the blinds and
    waits. Hand 3: BB 1, SB 5, button 4: the button has passed him; he posts 3 live and plays."""
    journal = [table(seats=5), sit(1), sit(2), sit(4), sit(5), button(1)]
    play_hand(journal, (2, 4, 5, 1), (5, 1, 2))
    journal += [{**sit(3), "post": True}, START]
    played, result = replay(journal)
    assert where(played) == (2, 4, 5) and 3 not in play_of(played).plan.order
    assert "BLD-6" in rules_of(result)
    journal += hole(play_of(played).plan.order) + folds(1, 2, 4)
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (4, 5, 1) and play_of(played).plan.order == (5, 1, 2, 3, 4)
    assert result["hands"][2]["posts"] == {"5": post(1), "1": post(3), "3": post(3)}
    assert play_of(played).plan.preflop_first == 2
    assert result["rejected"] == []


def test_bld6_tournament_late_entrant_dealt_in_at_once_except_between_the_small_blind_and_the_button() -> None:
    """BLD-6 / TRN-9 (TDA 8-A, 10-A): in a tournament new players "are dealt in unless the seat is between the SB
    and the button". Seats 1, 2, 4, 5 of six; hand 1: button 1, SB 2, BB 4. Seats 3 and 6 sit down. Hand 2 (dead
    button, the BB moves one player): BB 5, SB 4, button 2: seat 3 sits between the button and the SB and is not
    dealt in; seat 6 plays at once without posting. Hand 3: button 4, SB 5, BB 6: seat 3 plays too."""
    journal = [table(rules="tournament", seats=6, blinds=(50, 100))] + [sit(s, 1000) for s in (1, 2, 4, 5)]
    journal += [button(1)]
    play_hand(journal, (2, 4, 5, 1), (5, 1, 2))
    journal += [sit(3, 1000), sit(6, 1000)]
    played = play_hand(journal, (4, 5, 6, 1, 2), (6, 1, 2, 4))
    assert where(played) == (2, 4, 5)
    played = play_hand(journal, (5, 6, 1, 2, 3, 4), (1, 2, 3, 4, 5))
    assert where(played) == (4, 5, 6)
    _, result = replay(journal)
    assert result["hands"][1]["posts"] == {"4": post(50), "5": post(100)}
    assert result["hands"][2]["posts"] == {"5": post(50), "6": post(100)}
    # Each hand the big blind wins the small blind: seat 4 +50 -50 (hand 2 SB), seat 5 +50 -50, seat 6 +50.
    assert stacks(result) == {1: 1000, 2: 950, 3: 1000, 4: 1000, 5: 1000, 6: 1050}
    assert result["rejected"] == []


# --- BLD-7 missed blinds: seed 001 (home) ----------------------------------------------------------------------

def seed001_d_misses_his_big_blind() -> list[dict[str, Any]]:
    """Seed 001: "If you are UTG on the previous hand and miss posting your BB ... the person to your left posts
    BB." Six players A-F; hand 1: button A, SB B, BB C, D (seat 4) UTG; it folds to C. D steps away. Hand 2 (dead
    button): BB E (seat 5), SB C, button B; D is not dealt in (DEAL-9, cash); it folds to E."""
    journal = [table(seats=6)] + [sit(s) for s in range(1, 7)] + [button(1)]
    play_hand(journal, (2, 3, 4, 5, 6, 1), (4, 5, 6, 1, 2))
    journal += [away(4), START]
    played, result = replay(journal)
    assert where(played) == (2, 3, 5) and play_of(played).plan.order == (3, 5, 6, 1, 2)
    assert result["hands"][1]["posts"] == {"3": post(1), "5": post(3)}
    assert play_of(played).plan.after.missed == {4: "bb"}                          # the missed-blinds button
    journal += hole(play_of(played).plan.order) + folds(6, 1, 2, 3)
    return journal


def test_bld7_seed001_buy_the_blinds() -> None:
    """Seed 001: "You can 'buy the blinds' by posting SB and BB. The BB stays in front of you, the SB goes into the
    pot, and the person to your left is effectively UTG. Next hand, you will be the button and they will be SB."
    D comes back for hand 3 (button C) and buys: 1 dead and 3 live, the only blind of the hand; E acts first and
    raises to 9; everyone folds, D too. Hand 4: button D, SB E, BB F."""
    journal = seed001_d_misses_his_big_blind() + [back(4, post=True), START]
    played, result = replay(journal)
    assert play_of(played).plan.button == 3 and play_of(played).plan.order == (4, 5, 6, 1, 2, 3)
    assert result["hands"][2]["posts"] == {"4": post(3, 1)}
    journal += hole(play_of(played).plan.order)
    _, result = replay(journal)
    assert result["next"]["seat"] == 5
    journal += [act(5, "raise", 9), *folds(6, 1, 2, 3, 4)]
    _, result = replay(journal)
    # Hand 1: B -1, C +1. Hand 2: C -1, E +1. Hand 3: D -4 (3 live, 1 dead) to E.
    assert stacks(result) == {1: 300, 2: 299, 3: 300, 4: 296, 5: 305, 6: 300}
    journal += [START]
    played, result = replay(journal)
    assert where(played) == (4, 5, 6)
    assert result["hands"][3]["posts"] == {"5": post(1), "6": post(3)}
    assert result["rejected"] == []


def test_bld7_seed001_or_sit_out_one_extra_hand_and_play_in_the_cutoff() -> None:
    """Seed 001: "Alternately, you can sit out one extra hand, the button will skip you, and you can play in the CO
    in the next hand." D is back for hand 3 without posting: he waits (button C, SB E, BB F). Hand 4: BB A, SB F,
    the button skips D to E; D plays in the cutoff and posts nothing."""
    journal = seed001_d_misses_his_big_blind() + [back(4), START]
    played, result = replay(journal)
    assert where(played) == (3, 5, 6) and 4 not in play_of(played).plan.order
    assert result["hands"][2]["posts"] == {"5": post(1), "6": post(3)}
    journal += hole(play_of(played).plan.order) + folds(1, 2, 3, 5) + [START]
    played, result = replay(journal)
    assert where(played) == (5, 6, 1) and play_of(played).plan.order == (6, 1, 2, 3, 4, 5)
    assert play_of(played).plan.order[-2] == 4                                     # the cutoff
    assert result["hands"][3]["posts"] == {"6": post(1), "1": post(3)}
    assert play_of(played).plan.after.missed == {}
    assert result["rejected"] == []


def test_bld7_seed001_missing_the_small_blind_after_the_big_blind_is_ignored() -> None:
    """Seed 001: "If you post BB but then miss the SB, we usually don't care and just let you have the button next
    round ... There is no SB this round." Seat 3 posts the BB in hand 1 and is away for hand 2: dead SB on seat 3,
    BB seat 4, button 2. Back for hand 3: he has the button, owes nothing."""
    journal = [table(seats=5)] + [sit(s) for s in range(1, 6)] + [button(1)]
    play_hand(journal, (2, 3, 4, 5, 1), (4, 5, 1, 2))
    journal += [away(3), START]
    played, result = replay(journal)
    assert where(played) == (2, None, 4) and play_of(played).plan.order == (4, 5, 1, 2)
    assert result["hands"][1]["posts"] == {"4": post(3)}
    journal += hole(play_of(played).plan.order) + folds(5, 1, 2) + [back(3), START]
    played, result = replay(journal)
    assert where(played) == (3, 4, 5) and play_of(played).plan.order == (4, 5, 1, 2, 3)
    assert result["hands"][2]["posts"] == {"4": post(1), "5": post(3)}
    assert play_of(played).plan.after.missed == {}
    journal += hole(play_of(played).plan.order) + folds(1, 2, 3, 4)
    _, result = replay(journal)
    assert stacks(result) == {1: 300, 2: 299, 3: 301, 4: 299, 5: 301}
    assert result["rejected"] == []


# --- BLD-7 missed blinds: seed 002 (casino) ----------------------------------------------------------------------

def test_bld7_seed002_b15_b16_big_bet_makes_up_one_big_blind_between_the_blinds_then_no_button() -> None:
    """Seed 002 B15: at big-bet poker a player who missed blinds posts "the amount of the big blind only" (live);
    B16: he "may make up a blind between the blinds, and does not take any more blinds or get the button that
    round". No dead button (B11b), blinds 5/10, seats 1-6. Seat 5 is away for hands 2 and 3: hand 2 button 2, SB 3,
    BB 4; hand 3 button 3, SB 4, the BB skips seat 5 to seat 6 (he missed it). Back for hand 4 asking to post:
    button 4, the SB skips him to 6, BB 1; seat 5 posts 10 live. Hand 5: the button skips him to 6, SB 1, BB 2."""
    journal = [table(rules="casino", blinds=(5, 10))] + [sit(s, 1000) for s in range(1, 7)] + [button(1)]
    play_hand(journal, (2, 3, 4, 5, 6, 1), (4, 5, 6, 1, 2))
    journal += [away(5)]
    play_hand(journal, (3, 4, 6, 1, 2), (6, 1, 2, 3))
    played = play_hand(journal, (4, 6, 1, 2, 3), (1, 2, 3, 4))
    assert where(played) == (3, 4, 6)
    journal += [back(5, post=True), START]
    played, result = replay(journal)
    assert where(played) == (4, 6, 1) and play_of(played).plan.order == (5, 6, 1, 2, 3, 4)
    assert result["hands"][3]["posts"] == {"5": post(10), "6": post(5), "1": post(10)}
    assert play_of(played).plan.preflop_first == 2
    journal += hole(play_of(played).plan.order) + folds(2, 3, 4, 5, 6)
    played = play_hand(journal, (1, 2, 3, 4, 5, 6), (3, 4, 5, 6, 1))
    assert where(played) == (6, 1, 2)
    _, result = replay(journal)
    assert result["hands"][4]["posts"] == {"1": post(5), "2": post(10)}
    # Each hand the big blind wins the small blind (5); hand 4 also seat 5's folded 10.
    assert stacks(result) == {1: 1010, 2: 1000, 3: 1000, 4: 1000, 5: 990, 6: 1000}
    assert result["rejected"] == []


def test_bld7_seed002_b14_b16_limit_waits_for_the_button_then_posts_the_sum_excess_dead() -> None:
    """Seed 002 B16: "At limit play, a missed blind ... may not be made up between the blinds. He must wait for the
    button to pass." B14a: "the player must post an amount equal to the sum of the blinds. The excess amount over
    the bring-in becomes dead money". Limit casino ("No Missed Blinds", dead button), 5/10. Seat 5 is away for
    hands 2 and 3 (hand 3: BB 6, he missed the big blind), back asking to post before hand 4 (button 4, SB 6,
    BB 1): between the blinds, he waits, and the small blind passes him too. Hand 5 (button 6, SB 1, BB 2): he
    posts 10 live and 5 dead."""
    journal = [table("flhe", "casino", blinds=(5, 10), limits=[10, 20])] + [sit(s, 1000) for s in range(1, 7)]
    journal += [button(1)]
    play_hand(journal, (2, 3, 4, 5, 6, 1), (4, 5, 6, 1, 2))
    journal += [away(5)]
    play_hand(journal, (3, 4, 6, 1, 2), (6, 1, 2, 3))
    played = play_hand(journal, (4, 6, 1, 2, 3), (1, 2, 3, 4))
    assert where(played) == (3, 4, 6)
    journal += [back(5, post=True)]
    played = play_hand(journal, (6, 1, 2, 3, 4), (2, 3, 4, 6))
    assert where(played) == (4, 6, 1)
    played = play_hand(journal, (1, 2, 3, 4, 5, 6), (3, 4, 5, 6, 1))
    assert where(played) == (6, 1, 2)
    _, result = replay(journal)
    assert result["hands"][3]["posts"] == {"6": post(5), "1": post(10)}
    assert result["hands"][4]["posts"] == {"1": post(5), "2": post(10), "5": post(10, 5)}
    assert stacks(result) == {1: 1000, 2: 1015, 3: 1000, 4: 1000, 5: 985, 6: 1000}
    assert result["rejected"] == []


# --- BLD-7 missed blinds: seed 003 (online) ----------------------------------------------------------------------

def test_bld7_seed003_missed_big_blind_posts_a_live_big_blind_and_a_dead_small_blind() -> None:
    """Seed 003: "misses his/her turn to place the Big Blind ... Post ... a live Bet equal to the Big Blind, plus
    an additional 'Dead' (non-active) Bet, equal to the Small Blind". Online limit 1/2 (limits 2/4), no dead
    button, seats 1-5. Seat 4 away for hand 2 (button 2, SB 3, BB 5: he missed the BB); back asking to post for
    hand 3: button 3, SB 5, BB 1 and he sits between the button and the blinds: he waits. Hand 4: button 5, SB 1,
    BB 2; he posts 2 live and 1 dead."""
    journal = [table("flhe", "online", seats=5, blinds=(1, 2), limits=[2, 4])] + [sit(s, 100) for s in range(1, 6)]
    journal += [button(1)]
    play_hand(journal, (2, 3, 4, 5, 1), (4, 5, 1, 2))
    journal += [away(4)]
    played = play_hand(journal, (3, 5, 1, 2), (1, 2, 3))
    assert where(played) == (2, 3, 5)
    journal += [back(4, post=True)]
    played = play_hand(journal, (5, 1, 2, 3), (2, 3, 5))
    assert where(played) == (3, 5, 1)
    played = play_hand(journal, (1, 2, 3, 4, 5), (3, 4, 5, 1))
    assert where(played) == (5, 1, 2)
    _, result = replay(journal)
    assert result["hands"][3]["posts"] == {"1": post(1), "2": post(2), "4": post(2, 1)}
    # Hands 1-3: each big blind wins the small blind (1): seat 2 -1, seat 3 +1 -1, seat 5 +1 -1, seat 1 +1.
    # Hand 4: seat 1 -1; seat 2 wins that 1 and seat 4's 2 live and 1 dead.
    assert stacks(result) == {1: 100, 2: 103, 3: 100, 4: 97, 5: 100}
    assert result["rejected"] == []


# --- DEAL-9 away players (cash) ------------------------------------------------------------------------------------

def test_deal9_cash_away_player_gets_no_cards_and_keeps_his_stack() -> None:
    """DEAL-9 (seed 001: "If you are not within arms reach of your chair when the next hand is dealt, you will not
    receive cards"): seat 4 is away; the shoe deals 2, 3, 1 and seat 4's stack does not move."""
    journal = [table(), sit(1), sit(2), sit(3), sit(4), away(4), button(1), START]
    played, result = replay(journal)
    assert play_of(played).plan.order == (2, 3, 1)
    journal += hole((2, 3, 1))
    _, result = replay(journal)
    assert result["next"]["seat"] == 1
    journal += folds(1, 2)
    _, result = replay(journal)
    assert stacks(result) == {1: 300, 2: 299, 3: 301, 4: 300}
    assert result["rejected"] == []


# --- buy-ins and top-ups (seed 001, seed 003) --------------------------------------------------------------------

def test_seed001_buy_in_30_to_100_big_blinds_refused_with_the_limits() -> None:
    """Seed 001: "The minimum buy-in is 30 BBs ... and the maximum buy-in is 100 BBs." At 1/3: 90 to 300 chips. A
    refused sit-down names the limit and changes nothing."""
    journal = [table(), sit(1, 89), sit(2, 301), sit(3, 90), sit(4, 300)]
    _, result = replay(journal)
    assert [r["line"] for r in result["rejected"]] == [2, 3]
    assert "minimum buy-in is 90 chips" in result["rejected"][0]["reason"]
    assert "30 big blinds" in result["rejected"][0]["reason"]
    assert "maximum is 300 chips" in result["rejected"][1]["reason"]
    assert "100 big blinds" in result["rejected"][1]["reason"]
    assert stacks(result) == {3: 90, 4: 300}


def test_seed003_buy_in_at_least_ten_small_bets() -> None:
    """Seed 003: "the minimum Buy-in amount is 10 times the Lower Limit Stake of that particular table". Limits 2/4:
    at least 20 chips; seed 003 sets no maximum."""
    journal = [table("flhe", "online", blinds=(1, 2), limits=[2, 4]), sit(1, 19), sit(2, 20), sit(3, 5000)]
    _, result = replay(journal)
    assert [r["line"] for r in result["rejected"]] == [2]
    assert "minimum buy-in is 20 chips" in result["rejected"][0]["reason"]
    assert "10 small bets" in result["rejected"][0]["reason"]
    assert stacks(result) == {2: 20, 3: 5000}


def test_seed001_top_up_between_hands_only_never_above_the_maximum() -> None:
    """Seed 001: "You can top up to the table limit any time (between hands)." Seat 2 has 299 after the small blind
    of hand 1 (folded): a top-up is refused during hand 2, 2 more is refused (301 > 300), 1 more is accepted. A
    top-up has no minimum."""
    journal = [table(), sit(1), sit(2), sit(3), button(1), START] + hole((2, 3, 1)) + folds(1, 2)
    _, result = replay(journal + [START, chips(2, 1)])
    assert result["rejected"] == [{"line": len(journal) + 2, "reason": "cannot add chips during a hand"}]
    journal += [chips(2, 2), chips(2, 1)]
    _, result = replay(journal)
    assert [r["line"] for r in result["rejected"]] == [len(journal) - 1]
    assert "maximum is 300 chips" in result["rejected"][0]["reason"]
    assert "at most 1 more" in result["rejected"][0]["reason"]
    assert stacks(result) == {1: 300, 2: 300, 3: 301}


def test_seed001_broke_player_buys_in_again_at_the_minimum() -> None:
    """Seed 001: a player who lost his stack buys in again: that is a buy-in, so the 30 big blinds minimum holds
    (90 chips at 1/3); 60 is refused, 90 accepted. Seat 3 (90) calls seat 1's all-in with 7-2 against aces."""
    journal = [table(), sit(1), sit(2), sit(3, 90), button(1), START]
    journal += cards("Ah", "7h", "Kc", "Ad", "2d", "Kd")                 # deal order 2, 3, 1
    journal += [act(1, "all_in"), act(2, "fold"), act(3, "call")]
    journal += cards("Qs", "Kh", "9d", "4h", "Qc", "Js", "Qd", "3s")
    _, result = replay(journal)
    assert stacks(result) == {1: 391, 2: 299, 3: 0}                       # 300 - 90 + 90 + 90 + 1
    journal += [chips(3, 60), chips(3, 90)]
    _, result = replay(journal)
    assert len(result["rejected"]) == 1 and "minimum buy-in is 90 chips" in result["rejected"][0]["reason"]
    assert stacks(result)[3] == 90


def test_tournament_no_top_ups() -> None:
    """Seed 001 tournament: "a single buy-in ... will provide a set number of chips": no chips are added."""
    journal = [table(rules="tournament", blinds=(50, 100)), sit(1, 1500), sit(2, 1500), chips(1, 500)]
    _, result = replay(journal)
    assert result["rejected"] == [{"line": 4, "reason": "no top-ups in a tournament"}]
    assert stacks(result) == {1: 1500, 2: 1500}
