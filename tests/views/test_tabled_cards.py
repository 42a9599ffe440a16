"""The board (and every role) shows the hole cards tabled at the showdown (POT-5, POT-7), never a live hand's
hole card nor a mucked or folded one (issue 14). Each test has its positive control: the same search finds the
secret cards in the table's own record, so a search that finds nothing in the views means something."""

from __future__ import annotations

import json
import re
from typing import Any

from dealerpi.engine import Table
from dealerpi.views.roles import role_view

STATUS: dict[str, Any] = {"alerts": (), "shoe_online": True}
# dealt from seat 2 (left of the button, seat 1) round twice (DEAL-4): seat 2 Kd Qc, seat 3 8c 9c, seat 1 5d 4s
HOLE = ["Kd", "8c", "5d", "Qc", "9c", "4s"]
SECRET = re.compile(r"(?<![A-Za-z0-9])(8c|9c|5d|4s)(?![A-Za-z0-9])")     # seat 3 mucks, seat 1 folds


def apply(table: Table, *entries: dict[str, Any]) -> None:
    for entry in entries:
        outcome = table.apply(entry)
        assert outcome.accepted, (entry, outcome.reason)


def dealt_hand() -> Table:
    """Ann (seat 1, button), Bob (2, small blind 1), Cy (3, big blind 3); the hole cards HOLE."""
    table = Table()
    apply(table, {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]},
          *({"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))),
          {"type": "start"}, *({"type": "card", "card": c} for c in HOLE))
    assert (table.hole_cards(1), table.hole_cards(2), table.hole_cards(3)) == (("5d", "4s"), ("Kd", "Qc"),
                                                                              ("8c", "9c"))
    return table


def views(table: Table) -> dict[str, dict[str, Any]]:
    return {role: role_view(role, table, STATUS, {}) for role in ("board", "dealer", "host")}


def test_pot7_shown_cards_are_on_every_page_mucked_and_folded_ones_never() -> None:
    """Ann folds; Bob and Cy check it down on 2d 3c 7d Td 2c (burns Jh 6h Ac). At the showdown Cy mucks
    (8c 9c) and Bob shows Kd Qc (a pair of twos, the board's): Bob's two cards are tabled, so public; Cy's
    mucked hand and Ann's folded one are in no view, during the hand or after it."""
    table = dealt_hand()
    apply(table, *({"type": "act", "seat": s, "action": a} for s, a in ((1, "fold"), (2, "call"), (3, "check"))))
    for street in (["Jh", "2d", "3c", "7d"], ["6h", "Td"], ["Ac", "2c"]):
        apply(table, *({"type": "card", "card": c} for c in street),
              {"type": "act", "seat": 2, "action": "check"}, {"type": "act", "seat": 3, "action": "check"})
    assert table.expectation().words() == "showdown: seat 2 seat 3"
    for role, view in views(table).items():
        assert [view["seats"][s]["cards"] for s in "123"] == [[], [], []], role   # a live hand: none yet
    apply(table, {"type": "muck", "seat": 3})
    for role, view in views(table).items():
        assert [view["seats"][s]["cards"] for s in "123"] == [[], [], []], role
    apply(table, {"type": "show", "seat": 2})
    record = table.records[-1]
    assert sorted(SECRET.findall(json.dumps(record.hole))) == ["4s", "5d", "8c", "9c"]   # the positive control
    for role, view in views(table).items():
        assert [view["seats"][s]["cards"] for s in "123"] == [[], ["Kd", "Qc"], []], role
        assert view["payouts"] == [[2, 6]], role                    # 1 + 3 blinds + Bob's call of 2
        assert SECRET.findall(json.dumps(view)) == [], role
    apply(table, {"type": "start"})                                  # the next hand: the shown cards go
    for role, view in views(table).items():
        assert all(seat["cards"] == [] for seat in view["seats"].values()), role


def test_pot5_all_in_hands_are_face_up_before_the_board_the_folded_one_is_not() -> None:
    """Ann folds, Bob moves all in for 250, Cy calls: nobody can bet, so both hands are turned face up at once
    (POT-5), before any board card; Ann's folded 5d 4s stay secret."""
    table = dealt_hand()
    apply(table, {"type": "act", "seat": 1, "action": "fold"}, {"type": "act", "seat": 2, "action": "all_in"})
    for role, view in views(table).items():
        assert all(seat["cards"] == [] for seat in view["seats"].values()), role   # Cy still to act
    apply(table, {"type": "act", "seat": 3, "action": "call"})
    assert table.board() == ((),)
    for role, view in views(table).items():
        assert [view["seats"][s]["cards"] for s in "123"] == [[], ["Kd", "Qc"], ["8c", "9c"]], role
        assert re.findall(r"5d|4s", json.dumps(view)) == [], role
