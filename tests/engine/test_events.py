"""The engine says what happened (issue 22): ``Outcome.events``, and when a hand is final (UNDO's reach).

Three-handed hold'em, 1/3, button seat 1: seat 2 posts the small blind, seat 3 the big blind, and the hand is
dealt from seat 2 (BLD-1). Hole cards go round twice: seat 2 As Jc, seat 3 Kd Td, seat 1 Qh 9s. Seat 1 and
seat 2 fold pre-flop: seat 3's uncalled 2 comes back and he wins the pot of 2 (1 + 1, POT-1).
A complete hand is final once the table accepts another input that is not a tick (events.py); an undo stops
there."""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, three_handed

from dealerpi.engine import HandFinal, HandStarted, Left, Outcome, Sat, Table, Undone

HOLE = cards("As", "Kd", "Qh", "Jc", "Td", "9s")
UNDO = {"type": "undo"}


def _apply(table: Table, entries: list[dict[str, Any]]) -> list[Outcome]:
    outcomes = [table.apply(entry) for entry in entries]
    assert all(outcome.accepted for outcome in outcomes), [o.reason for o in outcomes]
    return outcomes


def _played() -> tuple[Table, Outcome]:
    """Hand 1 played to its end: the outcome of the fold that ended it."""
    table = Table()
    _apply(table, three_handed()[:-1])
    _apply(table, [{"type": "start"}, *HOLE, act(1, "fold")])
    return table, _apply(table, [act(2, "fold")])[0]


def test_a_sit_a_start_and_a_leave_are_said_with_seat_player_button_and_the_seats_dealt_bld_1() -> None:
    table = Table()
    outcomes = _apply(table, three_handed())
    assert [o.events for o in outcomes] == [
        (), (Sat(1, "P1"),), (Sat(2, "P2"),), (Sat(3, "P3"),), (), (HandStarted(1, 1, (2, 3, 1)),)]
    assert [o.events for o in _apply(table, HOLE)] == [()] * 6


def test_the_input_that_ends_a_hand_does_not_make_it_final_an_undo_reopens_it() -> None:
    """The dealer's UNDO of a wrong last fold brings the hand back into play: not final yet."""
    table, ended = _played()
    assert ended.events == ()
    undone = table.apply(UNDO)
    assert undone.accepted and undone.events == (Undone(1, reopened=1),)
    assert not table.between_hands


def test_a_tick_does_not_fix_a_complete_hand_the_level_clock_would_cut_the_undo_trn_1() -> None:
    table, _ = _played()
    assert _apply(table, [{"type": "tick", "seconds": 5}])[0].events == ()
    assert table.apply(UNDO).events == (Undone(1, reopened=None),)      # the tick
    assert table.apply(UNDO).events == (Undone(1, reopened=1),)         # the fold


def test_a_leave_after_the_hand_makes_it_final_with_its_record_and_the_undo_stops_there() -> None:
    """Issue 20 item 8: a table that stops dealing (its players taken away) has its last hand final."""
    table, _ = _played()
    [left] = _apply(table, [{"type": "leave", "seat": 1}])
    final, gone = left.events
    assert gone == Left(1, "P1")
    assert isinstance(final, HandFinal)
    record = final.record
    assert (record.number, record.button, record.seats, record.misdeal) == (1, 1, (2, 3, 1), False)
    assert record.hole == {2: ["As", "Jc"], 3: ["Kd", "Td"], 1: ["Qh", "9s"]}
    assert [(pot.amount, pot.won) for pot in record.pots] == [(2, ((3, 2),))]
    assert final.dealt is not None
    assert (final.dealt.number, final.dealt.seats, final.dealt.players, final.dealt.blinds) == (
        1, (2, 3, 1), ("P2", "P3", "P1"), (1, 3, 0))
    assert table.apply(UNDO).events == (Undone(1, reopened=None),)      # the leave
    refused = table.apply(UNDO)
    assert (refused.accepted, refused.reason) == (False, "nothing to undo: hand #1 is over and final")
    assert table.last_input() is None


def test_a_start_makes_the_hand_final_before_it_deals_the_next_bld_1() -> None:
    table, _ = _played()
    [started] = _apply(table, [{"type": "start"}])
    final, new = started.events
    assert isinstance(final, HandFinal) and final.record.number == 1
    assert new == HandStarted(2, 2, (3, 1, 2))


def test_a_misdealt_deal_is_final_with_its_hand_and_has_no_dealt_hand_mis_6() -> None:
    table = Table()
    _apply(table, three_handed())
    _apply(table, [*cards("As", "Kd"), {"type": "misdeal"}, *HOLE, act(1, "fold"), act(2, "fold")])
    events = _apply(table, [{"type": "start"}])[0].events
    assert [(type(e).__name__, e.record.misdeal if isinstance(e, HandFinal) else None) for e in events] == [
        ("HandFinal", True), ("HandFinal", False), ("HandStarted", None)]
    assert isinstance(events[0], HandFinal) and events[0].dealt is None


def test_a_fouled_deal_is_final_at_the_start_that_deals_it_again_with_the_same_number_mis_7() -> None:
    table = Table()
    _apply(table, three_handed())
    _apply(table, cards("As", "Zz"))                                   # no card of the deck: fouled
    final, again = _apply(table, [{"type": "start"}])[0].events
    assert isinstance(final, HandFinal) and (final.record.number, final.record.fouled, final.dealt) == (1, True, None)
    assert again == HandStarted(1, 1, (2, 3, 1))


def test_a_snapshot_between_a_hand_and_its_fixing_input_rebuilds_the_same_reach() -> None:
    """The checkpoint still begins at the hand's start; replaying it fixes the hand again."""
    table, _ = _played()
    _apply(table, [{"type": "sit", "seat": 4, "player": "P4", "stack": 300}])
    rebuilt = Table.from_snapshot(table.snapshot())
    assert rebuilt.apply(UNDO).accepted
    assert rebuilt.apply(UNDO).reason == "nothing to undo: hand #1 is over and final"


def _open(table: Table) -> list[tuple[int, bool]]:
    return [(deal.number, deal.misdeal) for deal in table.open_deals]


def test_open_deals_are_the_deals_an_undo_may_still_change_until_the_input_that_fixes_them_mis_6() -> None:
    """``dealerpi replay --journal`` lists the recorder's final deals, then these (Table.open_deals). A misdeal
    after two cards (MIS-6) is a deal of hand 1, open while the redeal is played; the redeal, complete, is
    open too (the UNDO of the last fold would reopen it); the leave fixes both: none is open then."""
    table = Table()
    _apply(table, three_handed())
    assert _open(table) == []
    _apply(table, [*cards("As", "Kd"), {"type": "misdeal"}])
    assert _open(table) == [(1, True)]
    _apply(table, [*HOLE, act(1, "fold"), act(2, "fold")])
    assert _open(table) == [(1, True), (1, False)]
    assert table.apply(UNDO).events == (Undone(1, reopened=1),)
    assert _open(table) == [(1, True)]
    _apply(table, [act(2, "fold")])
    [leave] = _apply(table, [{"type": "leave", "seat": 1}])
    assert [(e.record.number, e.record.misdeal) for e in leave.events if isinstance(e, HandFinal)] == [
        (1, True), (1, False)]
    assert _open(table) == []
