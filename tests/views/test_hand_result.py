"""What the phone's bar and the TV board read besides the seats (hand_result.py, issue 19): the waiting kind, the
time to the break, the boards' labels and the result in words, on the engine's own table (no daemon)."""

from __future__ import annotations

import json
from typing import Any

from views.test_tournament_view import example

from dealerpi.engine import Table
from dealerpi.evaluation.registry import EVALUATORS, describe
from dealerpi.views.hand_result import board_labels, break_in, hand_result, next_input
from dealerpi.views.roles import public_view, role_view


def test_trn1_the_break_is_the_level_left_plus_the_levels_before_it() -> None:
    """docs/tournaments.md's sit-and-go: 19:30 left in level 2 and the break next: 1170 s; at level 1's start
    (20-minute levels) the break is level 1 and level 2 away: 2400 s; a tick of 60 s takes 60 off."""
    table = Table()
    for line in example():
        table.apply(json.loads(line))
    assert break_in(table) == 1170
    fresh = Table()
    fresh.apply(json.loads(example()[0]))
    assert break_in(fresh) == 2400
    fresh.apply({"type": "tick", "seconds": 60})
    assert break_in(fresh) == 2340
    assert public_view(fresh)["break_in"] == 2340


def test_a_cash_table_has_no_break_and_waits_for_its_start() -> None:
    """No table yet: the table input is expected; a cash table has no break; a paused one (TRN-5) says why,
    so the bar offers Resume rather than a START the table would refuse."""
    table = Table()
    assert next_input(table) == {"expect": "table"}
    table.apply({"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]})
    assert break_in(table) is None
    assert next_input(table) == {"expect": "start"}
    table.apply({"type": "pause", "reason": "dinner"})
    assert next_input(table) == {"expect": "start", "paused": "dinner"}      # TRN-5: Resume, not START


def test_pot11_seed001_a_double_board_bomb_pot_run_twice_is_labelled_and_named() -> None:
    """Seed 001's bomb pot on two boards, Ann and Bob all in on the ante of 100, run twice (POT-11): four boards,
    run-major (dealing.py: board index = run x boards + board). Ann's aces and Bob's kings with no board
    helping either: Ann wins every board, the whole pot of 200, "one pair, aces"."""
    table = Table()
    for entry in ({"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]},
                  {"type": "sit", "seat": 1, "player": "Ann", "stack": 100},
                  {"type": "sit", "seat": 2, "player": "Bob", "stack": 100},
                  {"type": "button", "seat": 1},
                  {"type": "start", "bomb": {"ante": 100, "boards": 2}}):
        assert table.apply(entry).accepted, entry
    assert board_labels(table) == ["Board 1", "Board 2"]
    for card in ("Kd", "Ah", "Kc", "As"):                 # from seat 2, left of the button
        assert table.apply({"type": "card", "card": card}).accepted
    assert table.apply({"type": "run", "times": 2}).accepted
    # dealt as dealing.py lays it out: each run street by street, each board after its own burn; no board pairs,
    # brings three of a suit, or makes a straight with an ace or a king
    boards = [["2c", "7h", "9s", "Jd", "4c"], ["3d", "8c", "Th", "5s", "2h"],
              ["4h", "6c", "9c", "Qs", "2d"], ["3c", "7d", "Td", "5h", "8s"]]
    burns = iter(["2s", "3s", "4s", "4d", "5c", "5d", "6d", "6h", "6s", "7c", "8d", "8h"])
    for first, second in ((0, 1), (2, 3)):
        for street in (slice(0, 3), slice(3, 4), slice(4, 5)):
            for board in (first, second):
                for card in [next(burns), *boards[board][street]]:
                    assert table.apply({"type": "card", "card": card}).accepted, card
    assert [list(board) for board in table.board()] == boards
    assert board_labels(table) == ["Run 1 · Board 1", "Run 1 · Board 2", "Run 2 · Board 1", "Run 2 · Board 2"]
    result = hand_result(table)
    assert result is not None
    assert result["winners"] == [{"seat": 1, "player": "Ann", "chips": 200, "hand": "one pair, aces",
                                  "text": "Ann wins 200 with one pair, aces"}]
    assert result["pots"] == [{"name": "Pot", "amount": 200, "split": False,
                               "shares": [{"seat": 1, "player": "Ann", "chips": 200}]}]


def test_pot5_pot7_a_mucked_hand_is_never_named() -> None:
    """Ann shows two pair, nines and fives; Bob mucks a king-high flush (POT-7: he may, and forfeits): every
    role's view names Ann's hand and never Bob's. The positive control: the same evaluator on Bob's cards says
    "flush, king high", and the words would be found if they were there (the host's histories name mucked
    hands, docs/console.md)."""
    table = Table()
    entry: dict[str, Any]
    for entry in ({"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]},
                  {"type": "sit", "seat": 1, "player": "Ann", "stack": 100},
                  {"type": "sit", "seat": 2, "player": "Bob", "stack": 100},
                  {"type": "button", "seat": 1}, {"type": "start"}):
        assert table.apply(entry).accepted, entry
    hole = {2: ["Kh", "2h"], 1: ["9s", "5d"]}
    for card in (hole[2][0], hole[1][0], hole[2][1], hole[1][1]):        # from seat 2, left of the button
        assert table.apply({"type": "card", "card": card}).accepted
    street_cards = iter(["2c", "5h", "9h", "Jh", "3s", "3c", "4s", "7d"])   # burn, flop, burn, turn, burn, river
    while (waiting := table.expectation()).waiting.value != "showdown":
        if waiting.waiting.value == "action":
            entry = {"type": "act", "seat": waiting.seat, "action": "call" if waiting.legal and
                     waiting.legal.call_to else "check"}
        else:
            entry = {"type": "card", "card": next(street_cards)}
        assert table.apply(entry).accepted, entry
    board = ["5h", "9h", "Jh", "3c", "7d"]
    assert [list(b) for b in table.board()] == [board]
    flush = EVALUATORS["high"](hole[2], board)
    assert flush is not None and describe("high", flush) == "flush, king high"    # the positive control
    for seat, kind in ((1, "show"), (2, "muck")):
        assert table.apply({"type": kind, "seat": seat}).accepted
    result = hand_result(table)
    assert result is not None
    assert [w["text"] for w in result["winners"]] == ["Ann wins 6 with two pair, nines and fives"]
    for role in ("board", "dealer", "host"):
        text = json.dumps(role_view(role, table, {}, {}))
        assert "two pair, nines and fives" in text, role
        assert "flush" not in text and "Kh" not in text, role
