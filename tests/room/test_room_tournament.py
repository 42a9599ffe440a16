"""Multi-table tournament pieces (issue 15 item 5): TRN-9 seat draw, TRN-8 balancing, TRN-5 hand-for-hand,
TRN-4 / TDA RP-8-A sharing across tables. Layouts and places worked by hand in each docstring."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from books_kit import JournaledTable
from money_kit import money_settings
from mtt_kit import play
from tda_kit import worst_seats

from dealerpi.engine import Finish, Standings
from dealerpi.room.director.seating import due_big_blind, entry_seats, present, worst_seat
from dealerpi.room.director.tournament import (
    Layout,
    clock_off,
    draw_seats,
    halted,
    hand_for_hand_due,
    next_hand_may_start,
    settle_round,
)
from dealerpi.views.roles import public_view

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


def seats_view(players: dict[int, str], button: int, sb: int | None, bb: int, seats: int = 9,
               **more: object) -> dict[str, object]:
    """A table's public view between hands with the engine's plan of its next hand."""
    return {"in_hand": False, "next_hand": {"button": button, "sb": sb, "bb": bb},
            "seats": {str(s): {"player": players.get(s), "stack": 5000 if s in players else 0}
                      for s in range(1, seats + 1)}, **more}


def test_trn8_the_player_due_the_big_blind_moves_to_the_worst_seat_never_the_small_blind() -> None:
    """Table a (9 seats, 8 players, seat 9 empty): next hand button 3, SB 4, BB 5: Eve is due the big blind.
    Table b (9 seats, 5 players at 1, 2, 3, 5, 6): next hand button 2, SB 3, BB 5. Seat 4 is empty, after
    the SB and before the BB: there Eve is the next big blind (TDA 11: even twice), the worst position.
    8 - 5 = 3: b is three short of a, so it halts until balanced (R11-D)."""
    a = seats_view({1: "Al", 2: "Bo", 3: "Cy", 4: "Di", 5: "Eve", 6: "Fy", 7: "Gus", 8: "Hal"}, 3, 4, 5)
    b = seats_view({1: "Ike", 2: "Jo", 3: "Kim", 5: "Lu", 6: "Mo"}, 2, 3, 5)
    assert due_big_blind(a) == "Eve"
    assert worst_seat(b, 9) == 4
    assert halted([Layout(t, 9, present(v), 0, 0) for t, v in (("a", a), ("b", b))]) == ["b"]


def test_trn8_tda8_never_the_small_blind_nor_between_it_and_the_button() -> None:
    """Table b: players at 1, 2, 6; next hand button 2, SB 6, BB 1 (dead button: 3, 4, 5 are empty between
    the button and the SB, TDA 8: nobody new is dealt in there): the empty seats after the SB toward the BB
    are 7, 8, 9; 7 is the seat due the big blind next. With 7, 8 and 9 taken, only 3, 4, 5 are empty: no seat
    for a moved player, nor for a late entrant. With a dead small blind (next hand button 2, no SB, BB 6),
    the seats between the button and the BB (3, 4, 5) would be the small blind: never."""
    b = seats_view({1: "Ike", 2: "Jo", 6: "Mo"}, 2, 6, 1)
    assert worst_seat(b, 9) == 7
    assert entry_seats(b, 9) == [7, 8, 9]
    full_after = seats_view({1: "Ike", 2: "Jo", 6: "Mo", 7: "x", 8: "y", 9: "z"}, 2, 6, 1)
    assert worst_seat(full_after, 9) is None and entry_seats(full_after, 9) == []
    dead = seats_view({1: "Ike", 2: "Jo", 6: "Mo"}, 2, None, 6)
    assert worst_seat(dead, 9) == 7 and entry_seats(dead, 9) == [7, 8, 9]


def test_rp6_an_all_in_player_is_in_the_hand_not_gone() -> None:
    """RP-6, TDA 11: during a hand a player at 0 who started it with chips is all in, still at the table;
    between hands a player at 0 is out."""
    view = seats_view({1: "Ike", 2: "Jo", 6: "Mo"}, 2, 6, 1, in_hand=True, starting_stacks=[[1, 900], [2, 5000],
                                                                                           [6, 5000]])
    view["seats"]["1"]["stack"] = 0                                  # type: ignore[index]
    assert present(view) == {1: "Ike", 2: "Jo", 6: "Mo"}
    assert present({**view, "in_hand": False}) == {2: "Jo", 6: "Mo"}


def test_trn5_hand_for_hand_on_the_bubble_waits_for_every_table_and_caps_the_clock() -> None:
    """3 places paid: hand-for-hand with 4 left, not 5 nor 3. Tables a, b, c: b finished, a and c not: no new
    hand; all three finished: yes. A hand of 170 s takes 120 s off the clock (2 minutes at most), 45 s
    takes 45."""
    assert [hand_for_hand_due(left, 3) for left in (5, 4, 3)] == [False, True, False]
    assert not next_hand_may_start(["a", "b", "c"], {"b"})
    assert next_hand_may_start(["a", "b", "c"], {"a", "b", "c"})
    assert (clock_off(170, 120), clock_off(45, 120)) == (120, 45)


def test_trn4_rp8a_busts_in_one_hand_for_hand_round_share_across_tables() -> None:
    """Seed 001's pool $300 paid 50/30/20; 5 left. Hand-for-hand: Al busts at table a and Bo at table b in
    the same round: they share places 4 and 5, both unpaid: 0 each. Then 3 left, 3 paid, no longer
    hand-for-hand: Cy (start 400) and Di (start 900) bust on one hand at table a: Di 2nd ($90), Cy 3rd ($60).
    Positive control: the same two busts hand-for-hand share 2nd and 3rd: (90 + 60) / 2 = $75 each."""
    standings = Standings(pool=300, remaining=5)
    standings = settle_round(standings, [(["Al"], {"Al": 100}), (["Bo"], {"Bo": 50})], True)
    assert sorted(standings.finishes, key=lambda f: f.player) == [Finish("Al", 4, 0), Finish("Bo", 4, 0)]
    two = Standings(pool=300, remaining=3)
    after = settle_round(two, [(["Cy", "Di"], {"Cy": 400, "Di": 900})], False)
    assert sorted(after.finishes, key=lambda f: f.place) == [Finish("Di", 2, 90), Finish("Cy", 3, 60)]
    shared = settle_round(two, [(["Cy"], {"Cy": 400}), (["Di"], {"Di": 900})], True)
    assert sorted(shared.finishes, key=lambda f: f.player) == [Finish("Cy", 2, 75), Finish("Di", 2, 75)]


def test_tda11_dead_small_blind_the_seat_after_the_last_big_blind_is_the_worst_position(tmp_path: Path) -> None:
    """Found by the 60-entry run (test_room_money_60.py). Engine table of 8 seats, players on 1, 2, 3, 5, 6,
    7, button 1: the hand's SB is 2, BB 3; seat 3 busts and leaves. TRN-7 dead button: the next hand's button
    is 2 (the last SB), the small blind is dead on 3 (the last BB's seat, now empty), the BB is the first
    player after 3: seat 5. A new player on 4 (after the last BB) would be that big blind at once: the worst
    position (TDA 11), and a late entrant may take it (TDA 8: not the SB, not between it and the button);
    only 3 (the dead SB's seat) is the small blind. The engine's own plan of each seat agrees (tda_kit)."""
    table = JournaledTable(tmp_path / "t1.jsonl")
    assert table.submit(money_settings(["t1"], seats=8).table_input(0)).accepted
    for seat in (1, 2, 3, 5, 6, 7):
        assert table.submit({"type": "sit", "seat": seat, "player": f"S{seat}", "stack": 5000}).accepted
    assert table.submit({"type": "button", "seat": 1}).accepted
    assert table.table.next_blind_seats() == (1, 2, 3)
    play(table, ["S3"])
    assert table.submit({"type": "leave", "seat": 3}).accepted
    view = public_view(table.table)
    assert view["next_hand"] == {"button": 2, "sb": None, "bb": 5} and view["last_blinds"] == [2, 3]
    assert worst_seats(table.table, "New", 5000) == [4]
    assert worst_seat(view, 8) == 4
    assert entry_seats(view, 8) == [4, 8]
