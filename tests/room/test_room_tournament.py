"""Multi-table tournament pieces (issue 15 item 5): TRN-9 seat draw, TRN-8 balancing, TRN-5 hand-for-hand,
TRN-4 / TDA RP-8-A sharing across tables. Layouts and places worked by hand in each docstring."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dealerpi.engine.payouts import Finish, Standings
from dealerpi.room.tournament import (
    Layout,
    Move,
    balance,
    clock_off,
    draw_seats,
    due_big_blind,
    halted,
    hand_for_hand_due,
    next_hand_may_start,
    settle_round,
    worst_seat,
)

PLAYERS = [f"p{i:02d}" for i in range(20)]


def test_trn9_draw_20_players_over_three_tables_of_nine_is_even_and_random() -> None:
    """20 players, tables of 9, 9, 9: sizes 7, 7, 6 (differ by one at most), every player once, no seat twice.
    Random: over 300 draws each player lands at each table (a fixed assignment would not), and seat 1 of
    table a is taken by at least 15 different players."""
    tables = {"a": 9, "b": 9, "c": 9}
    rng = random.Random(15)
    holders = set()
    where: dict[str, set[str]] = {p: set() for p in PLAYERS}
    for _ in range(300):
        drawn = draw_seats(PLAYERS, tables, rng)
        assert sorted(drawn) == sorted(PLAYERS)
        assert sorted(Counter(t for t, _ in drawn.values()).values()) == [6, 7, 7]
        assert len(set(drawn.values())) == 20 and all(1 <= s <= 9 for _, s in drawn.values())
        holders |= {p for p, place in drawn.items() if place == ("a", 1)}
        for player, (table, _) in drawn.items():
            where[player].add(table)
    assert all(found == {"a", "b", "c"} for found in where.values())
    assert len(holders) >= 15
    with pytest.raises(ValueError, match="do not fit"):
        draw_seats(PLAYERS, {"a": 9, "b": 9}, rng)


def test_trn8_the_player_due_the_big_blind_moves_to_the_worst_seat_never_the_small_blind() -> None:
    """Table a (9 seats, 8 players, seat 9 empty): last hand SB 3, BB 4: the next big blind is seat 5, Eve.
    Table b (9 seats, 5 players at 1, 2, 3, 5, 6): last hand SB 2, BB 3. The big blind reaches seat 4 first
    (empty, after BB 3, before 5): Eve goes to b4 and posts the big blind there next hand (TRN-8: even twice).
    8 - 5 = 3: b is three short of a, so it halts until balanced."""
    a = Layout("a", 9, {1: "Al", 2: "Bo", 3: "Cy", 4: "Di", 5: "Eve", 6: "Fy", 7: "Gus", 8: "Hal"}, 3, 4)
    b = Layout("b", 9, {1: "Ike", 2: "Jo", 3: "Kim", 5: "Lu", 6: "Mo"}, 2, 3)
    assert due_big_blind(a) == 5
    assert balance([a, b]) == Move("Eve", "a", 5, "b", 4)
    assert halted([a, b]) == ["b"]
    assert balance([a, Layout("b", 9, {**b.players, 4: "Ned", 7: "Oz"}, 2, 3)]) is None   # 8 and 7: balanced


def test_trn8_never_between_the_small_blind_and_the_button() -> None:
    """Table b: players at 1, 2, 6; last hand SB 2, BB 6; empty 3, 4, 5 lie between the SB and the BB (next
    hand: button 2, SB 6, so they would sit between button and small blind, TDA 8); the big blind reaches
    7, 8, 9 next (empty, after BB 6): the worst seat is 7."""
    b = Layout("b", 9, {1: "Ike", 2: "Jo", 6: "Mo"}, 2, 6)
    assert worst_seat(b) == 7
    full_after = Layout("b", 9, {1: "Ike", 2: "Jo", 6: "Mo", 7: "x", 8: "y", 9: "z"}, 2, 6)
    assert worst_seat(full_after) is None          # only 3, 4, 5 are empty: none may be taken


def test_trn5_hand_for_hand_on_the_bubble_waits_for_every_table_and_caps_the_clock() -> None:
    """3 places paid: hand-for-hand with 4 left, not 5 nor 3. Tables a, b, c: b finished, a and c not: no new
    hand; all three finished: yes. A hand of 170 s takes 120 s off the clock (2 minutes at most), 45 s
    takes 45."""
    assert [hand_for_hand_due(left, 3) for left in (5, 4, 3)] == [False, True, False]
    assert not next_hand_may_start(["a", "b", "c"], {"b"})
    assert next_hand_may_start(["a", "b", "c"], {"a", "b", "c"})
    assert (clock_off(170), clock_off(45)) == (120, 45)


def test_trn4_rp8a_busts_in_one_hand_for_hand_round_share_across_tables() -> None:
    """Seed 001's pool $300 paid 50/30/20; 5 left. Hand-for-hand: Al busts at table a and Bo at table b in
    the same round: they share places 4 and 5, both unpaid: 0 each. Then 3 left, 3 paid, no longer
    hand-for-hand: Cy (start 400) and Di (start 900) bust on one hand at table a: Di 2nd ($90), Cy 3rd ($60).
    Positive control: the same two busts hand-for-hand share 2nd and 3rd: (90 + 60) / 2 = $75 each."""
    standings = Standings(pool=300, remaining=5)
    standings = settle_round(standings, {"a": (["Al"], {"Al": 100}), "b": (["Bo"], {"Bo": 50})}, True)
    assert sorted(standings.finishes, key=lambda f: f.player) == [Finish("Al", 4, 0), Finish("Bo", 4, 0)]
    two = Standings(pool=300, remaining=3)
    after = settle_round(two, {"a": (["Cy", "Di"], {"Cy": 400, "Di": 900})}, False)
    assert sorted(after.finishes, key=lambda f: f.place) == [Finish("Di", 2, 90), Finish("Cy", 3, 60)]
    shared = settle_round(two, {"a": (["Cy"], {"Cy": 400}), "b": (["Di"], {"Di": 900})}, True)
    assert sorted(shared.finishes, key=lambda f: f.player) == [Finish("Cy", 2, 75), Finish("Di", 2, 75)]
