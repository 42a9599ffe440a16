"""The delayed frame's equities and dead cards from the broadcast's own table (issue 21): the cards out of the
deck are the folded hands, the burns and exposed cards in the order read; hi-lo gives high, low and scoop.
Spots worked by hand; the engine is driven directly (it is pure), as the broadcast process drives it."""

from __future__ import annotations

import concurrent.futures
from typing import Any

from dealerpi.broadcast.frames import broadcast_frame, dead_cards, hands_complete
from dealerpi.broadcast.odds import Odds
from dealerpi.engine import Table


def _table(game: str, deal: list[str], actions: list[str], then_check: bool = True) -> Table:
    """Ann (seat 1, button), Bob (2), Cy (3); ``deal`` in the order the table asks; ``actions`` by the seat
    to act, in turn, then checks (or, without ``then_check``, the table is left waiting for the action)."""
    table = Table()
    entries: list[dict[str, Any]]
    entries = [{"type": "table", "game": game, "rules": "home", "seats": 3, "blinds": [1, 2]},
               *({"type": "sit", "seat": s, "player": n, "stack": 200} for s, n in ((1, "Ann"), (2, "Bob"),
                                                                                   (3, "Cy"))),
               {"type": "start"}]
    for entry in entries:
        assert table.apply(entry).accepted
    cards, moves = iter(deal), iter(actions)
    while True:
        expectation = table.expectation()
        if expectation.waiting.value in ("card", "burn"):
            card = next(cards, None)
            if card is None:
                return table
            outcome = table.apply({"type": "card", "card": card})
        elif expectation.waiting.value == "action":
            action = next(moves, "check" if then_check else None)
            if action is None:
                return table
            outcome = table.apply({"type": "act", "seat": expectation.seat, "action": action})
        else:
            return table
        assert outcome.accepted, outcome.reason


def _frame(table: Table) -> dict[str, Any]:
    frame = broadcast_frame(table, 0)
    odds = Odds(lambda: 0)
    odds.add(table, frame)
    concurrent.futures.wait(odds.pending())
    odds.collect()
    odds.close()
    return frame


def test_plo8_river_bob_has_the_low_cy_the_high_half_each_no_scoop() -> None:
    """Omaha hi-lo, river Ks Qs 7d 4c 3h: Bob Ad 2c 8h 8c makes 7-4-3-2-A (A2 with 7 4 3) and only a pair of
    eights high; Cy Kd Kh Jc Tc makes three kings and no low (no card of 8 or less). Bob wins the low half,
    Cy the high half: equity 0.5 each, Bob's all low, Cy's all high, neither scoops. Ann folded 5s 6d 9h Jd;
    the burns were 2s 3d 9d: all seven out of the deck, in the order read."""
    deal = ["Ad", "Kd", "5s", "2c", "Kh", "6d", "8h", "Jc", "9h", "8c", "Tc", "Jd",
            "2s", "Ks", "Qs", "7d", "3d", "4c", "9d", "3h"]
    table = _table("plo8", deal, ["fold", "call"])
    assert table.expectation().waiting.value == "showdown"
    assert hands_complete(table)
    assert dead_cards(table) == ["5s", "6d", "9h", "Jd", "2s", "3d", "9d"]
    frame = _frame(table)
    assert frame["seats"]["2"]["equity"] == {"equity": 0.5, "high": 0.0, "low": 0.5, "scoop": 0.0}
    assert frame["seats"]["3"]["equity"] == {"equity": 0.5, "high": 0.5, "low": 0.0, "scoop": 0.0}
    assert frame["seats"]["1"]["equity"] is None and frame["seats"]["1"]["folded"] is True
    assert frame["exact"] is True and frame["outs"] is None          # the river: no next card


def test_no_equity_on_a_half_dealt_flop_nor_before_the_last_hole_card() -> None:
    """Hold'em: with five hole cards of six dealt there is no spot; with the burn and one flop card neither
    (a flop is three cards); with the flop's three it is computed. Bob Ah Kh v Cy 9c 9d on 9h 5h 2c, Ann's
    folded Qh Jh and the burn Th out of the deck: 42 unseen cards (6 hearts: 2h 3h 4h 6h 7h 8h), 861
    turn-and-river pairs. Bob's flush needs one heart: 861 - C(36,2) = 231 pairs have one, less those that
    give Cy a full house or quads: the 41 with 2h (it pairs the board), and for each of the other five
    hearts the 9 partners 9s 5c 5d 5s 2d 2s and its own rank's three other suits (45): 145. Without a heart,
    a 3 and a 4 (a wheel): 3 x 3 = 9. Bob 154/861, Cy 707/861 (no tie)."""
    deal = ["Ah", "9c", "Qh", "Kh", "9d", "Jh", "Th", "9h", "5h", "2c"]
    assert not hands_complete(_table("nlhe", deal[:5], []))
    partial = _table("nlhe", deal[:8], ["fold", "call"])
    assert [list(board) for board in partial.board()] == [["9h"]] and not hands_complete(partial)
    flop = _table("nlhe", deal, ["fold", "call"])
    assert hands_complete(flop) and dead_cards(flop) == ["Qh", "Jh", "Th"]
    frame = _frame(flop)
    assert abs(frame["seats"]["2"]["equity"]["equity"] - 154 / 861) < 1e-9
    assert abs(frame["seats"]["3"]["equity"]["equity"] - 707 / 861) < 1e-9


def test_the_action_says_who_is_to_act_and_how_much_to_call() -> None:
    """Blinds 1/2: Ann (button, first to act three-handed) folds; Bob, the small blind, is to act with 1 to
    call (2 - 1); after Bob raises to 6, Cy (big blind, 2 in) has 4 to call."""
    deal = ["Ah", "9c", "Qh", "Kh", "9d", "Jh"]
    table = _table("nlhe", deal, ["fold"], then_check=False)
    frame = broadcast_frame(table, 0)
    assert (frame["to_call"]["seat"], frame["to_call"]["to_call"]) == (2, 1)
    assert frame["last_action"] == "Ann folds"
    assert table.apply({"type": "act", "seat": 2, "action": "raise", "to": 6}).accepted
    frame = broadcast_frame(table, 0)
    assert (frame["to_call"]["seat"], frame["to_call"]["to_call"]) == (3, 4)
    assert frame["last_action"] == "Bob bets or raises to 6"


def test_run_twice_each_board_is_half_the_pot() -> None:
    """POT-11, run twice from before the flop: Ann folds Qh Jh, Bob (Ah Kh) is all in, Cy (9c 9d) calls.
    Run 1: 9h 5h 2c 3s 7h, Bob's flush: Bob has won that half. While run 2 is dealt, its flop half turned
    is no spot; with run 2 not begun the spot has both boards, each half the pot: Bob has 0.5 from run 1
    and some of run 2, Cy only some of run 2 (his pair wins a fair share of boards against ace-king), so
    0.5 < Bob < 1 and the two add to 1."""
    table = Table()
    entries: list[dict[str, Any]]
    entries = [{"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 2]},
               *({"type": "sit", "seat": s, "player": n, "stack": 200} for s, n in ((1, "Ann"), (2, "Bob"),
                                                                                   (3, "Cy"))),
               {"type": "start"},
               *({"type": "card", "card": c} for c in ["Ah", "9c", "Qh", "Kh", "9d", "Jh"]),
               {"type": "act", "seat": 1, "action": "fold"}, {"type": "act", "seat": 2, "action": "all_in"},
               {"type": "act", "seat": 3, "action": "call"}, {"type": "run", "times": 2},
               *({"type": "card", "card": c} for c in ["Th", "9h", "5h", "2c", "8d", "3s", "6c", "7h"])]
    for entry in entries:
        outcome = table.apply(entry)
        assert outcome.accepted, (entry, outcome.reason)
    assert [list(board) for board in table.board()] == [["9h", "5h", "2c", "3s", "7h"], []]
    assert dead_cards(table) == ["Qh", "Jh", "Th", "8d", "6c"]
    frame = _frame(table)
    bob, cy = (frame["seats"][seat]["equity"]["equity"] for seat in "23")
    assert 0.5 < bob < 1 and 0 < cy < 0.5 and abs(bob + cy - 1) < 1e-9
    for card in ["8s", "4d"]:                          # run 2's burn and its first flop card
        assert table.apply({"type": "card", "card": card}).accepted
    assert not hands_complete(table)
