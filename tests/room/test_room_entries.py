"""Issue 20 defect 5: the field's size decides the payouts, and late registration ends at the bubble (TRN-4,
TRN-9). The director alone (no broker, no tables): its registration, start and standings."""

from __future__ import annotations

from typing import Any

import pytest

from dealerpi.engine import Standings
from dealerpi.room.director.mtt import Director, TournamentError, new_state
from dealerpi.room.director.mtt_config import TournamentSettings, parse_tournament

ROWS = [{"players": 4, "percents": [65, 35]}, {"players": 10, "percents": [50, 30, 20]}]


def settings(**more: object) -> TournamentSettings:
    raw = {"tables": ["t1", "t2"], "seats": 6, "buy_in": 100, "starting_stack": 5000, "payouts": [50, 30, 20],
           "levels": [{"blinds": [50, 100], "minutes": 60}], **more}
    parsed, errors = parse_tournament(raw, "room.toml")
    assert parsed is not None, errors
    return parsed


def started(tournament: TournamentSettings, names: list[str]) -> Director:
    director = Director(tournament, new_state("x"))
    for name in names:
        director.register(name, 0.0)
    director.start(7, 1000.0)
    return director


@pytest.mark.parametrize(("field", "prizes"), [(3, [260, 140]), (4, [260, 140]), (5, [250, 150, 100])])
def test_trn4_payout_rows_by_field_size_pay_the_row_of_the_actual_field(field: int, prizes: list[int]) -> None:
    """Rows: up to 4 players 65/35, up to 10 players 50/30/20. 3 players (pool 300): 65 % = 195, 35 % = 105;
    4 players (pool 400): 260 and 140, two places; 5 players (pool 500): 250, 150, 100. (Before: the last row
    for any field: 4 players paid three places.) Shown on the page the same."""
    director = started(settings(payouts=ROWS), ["Ann", "Bob", "Cy", "Dee", "Eve"][:field])
    expected = [195, 105] if field == 3 else prizes
    summary = director.summary({}, 1000.0)
    assert (summary["prizes"], summary["paid"]) == (expected, len(expected))


def test_trn4_a_payout_list_longer_than_the_field_is_refused_naming_the_key() -> None:
    """Three places paid (50/30/20) for two players: one prize could never be paid. The start is refused with
    the key named; with a third player it starts."""
    director = Director(settings(), new_state("x"))
    director.register("Ann", 0.0)
    director.register("Bob", 0.0)
    with pytest.raises(TournamentError, match=r"^tournament\.payouts in room\.toml: 3 places paid for 2 players; "
                                              r"register 1 more or pay fewer places \(TRN-4\)$"):
        director.start(7, 1000.0)
    assert director.state["phase"] == "registering"
    director.register("Cy", 0.0)
    director.start(7, 1000.0)
    assert director.state["phase"] == "running"


def test_trn9_late_registration_after_the_bubble_is_refused_with_the_reason() -> None:
    """Late registration open at any level (``late_entry_levels = 0``), 3 paid. Five entrants: a late entrant
    is taken while 5 are left; once one is out, 4 left = 3 paid + 1 (the bubble, TRN-5), a registration is
    refused with the reason, and so is an alternate still waiting for a seat (not entered: refund him), so
    that nobody who is in the money drops back out of it (before: two players who had cashed 45 each dropped
    to 0)."""
    director = started(settings(late_entry_levels=0), ["Ann", "Bob", "Cy", "Dee", "Eve"])
    director.register("Fay", 1010.0)
    assert director.state["alternates"] == ["Fay"]
    director.state["standings"]["remaining"] = 4                         # Eve out, 5th
    director.state["standings"]["finishes"] = [["Eve", 5, 0]]
    assert Standings(500, 4, (50, 30, 20)).remaining == 4
    with pytest.raises(TournamentError, match=r"^TRN-9: late registration closed at the bubble: 4 players left, "
                                              r"3 paid$"):
        director.register("Gus", 1020.0)
    director.step({}, lambda cid: None, 1020.0)
    assert director.state["alternates"] == []
    assert director.summary({}, 1020.0)["refused"] == [
        "room: late registration Fay: TRN-9: late registration closed at the bubble before a seat opened: not "
        "entered, refund the buy-in"]


def test_trn4_once_there_is_a_winner_one_player_is_left_not_none() -> None:
    """Issue 20: the page said "players 0 of 19" once the tournament had its winner. Ann and Bob, 2 paid
    (70/30 of 200: 140, 60): Bob busts, Ann wins: 1 player left of 2, the places 1. Ann 140, 2. Bob 60."""
    director = started(settings(payouts=[70, 30]), ["Ann", "Bob"])
    director.state["standings"] = {"pool": 200, "remaining": 1, "percents": [70, 30], "finishes": [["Bob", 2, 60]]}
    views: dict[str, dict[str, Any]]
    views = {t: {"hand": 3, "in_hand": False, "paused": None, "seats": {}} for t in ("t1", "t2")}
    director.state["plan"] = []
    director.step(views, lambda cid: {"accepted": True}, 1000.0)
    summary = director.summary(views, 1000.0)
    assert (summary["phase"], summary["remaining"], summary["entrants"], summary["finishes"]) == \
        ("finished", 1, 2, [["Ann", 1, 140], ["Bob", 2, 60]])


def test_trn4_while_registering_the_page_shows_the_row_of_the_field_so_far() -> None:
    """Rows: up to 4 players 2 paid, up to 10 players 3 paid. Three registered: 2 places paid (not the last
    row's 3); a fifth: 3."""
    director = Director(settings(payouts=ROWS), new_state("x"))
    for name in ("Ann", "Bob", "Cy"):
        director.register(name, 0.0)
    assert director.summary({}, 0.0)["paid"] == 2
    for name in ("Dee", "Eve"):
        director.register(name, 0.0)
    assert director.summary({}, 0.0)["paid"] == 3
