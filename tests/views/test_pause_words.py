"""Issue 15: while the room holds a table (TRN-5 hand-for-hand, a break, TRN-8 moves and halts) the dealer's display
says so between hands, at once, with one instruction; before, it said "start" and the dealer learnt of the pause
only when START was refused.

The display's header holds ``HEADER_ROOM`` = 21 - 4 = 17 columns and the lines below it 21 (render.py); the room's
reasons are worded so that the header says PAUSED (or BREAK) and the rule, the next line why, the last what to do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from daemon_kit import make, screen
from journal_kit import act, cards, replay, sit, table

from dealerpi.views.build import dealer_view
from dealerpi.views.render import dealer_lines, render_dealer
from dealerpi.views.roles import role_view
from dealerpi.wire.pauses import BREAK, H4H, HALT, MOVES

START: dict[str, Any] = {"type": "start"}
# three seats of 300, blinds 1/3, button 1: SB seat 2 posts 1, BB seat 3 posts 3; seats 1 and 2 fold. POT-2: the
# uncalled 3 - 1 = 2 goes back to seat 3, and the pot pushed to seat 3 is 1 + 1 = 2
FIRST_HAND = [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, START,
              *cards("Ah", "Kh", "Qh", "Jh", "Th", "9h"), act(1, "fold"), act(2, "fold")]


def header_and_lines(entries: list[dict[str, Any]]) -> tuple[str, tuple[str, ...]]:
    played, result = replay(entries)
    assert result["rejected"] == []
    view = dealer_view(played)
    return view.expect, dealer_lines(view)


@pytest.mark.parametrize(("reason", "expect", "lines"), [
    (H4H, "PAUSED: TRN-5 hand-for-hand: wait for the room", ("  hand-for-hand:", "  wait for the room")),
    (BREAK, "BREAK (TRN-1): wait for the room", ("  wait for the room",)),
    (MOVES, "PAUSED: TRN-8 moving players: wait for the room", ("  moving players:", "  wait for the room")),
    (HALT, "PAUSED: TRN-8 table 3 short: wait for the room", ("  table 3 short:", "  wait for the room")),
])
def test_trn5_trn8_the_rooms_pause_is_on_the_dealer_display_between_hands(
        reason: str, expect: str, lines: tuple[str, ...]) -> None:
    """Each pause the room sends (dealerpi/room/director/mtt.py's reasons, imported: the words cannot drift from them)
    replaces "start": the header (at most 17 columns) says PAUSED or BREAK with the rule, the lines under it why
    and "wait for the room"; the hand's push (POT-2: 1 + 1 = 2, see FIRST_HAND) and the hand line follow
    unchanged."""
    got_expect, got_lines = header_and_lines([*FIRST_HAND, {"type": "pause", "reason": reason}])
    assert got_expect == expect
    assert got_lines == (*lines, "push 2 to seat 3", "hand #1 button 1")


def test_the_hand_over_unpaused_the_dealer_reads_start() -> None:
    """Without a pause the header is the engine's word, "start", and a resume brings it back."""
    assert header_and_lines(FIRST_HAND)[0] == "start"
    resumed = [*FIRST_HAND, {"type": "pause", "reason": H4H}, {"type": "resume"}]
    assert header_and_lines(resumed)[0] == "start"


@pytest.mark.parametrize(("pause", "expect"), [
    ({"type": "pause", "reason": "the host paused the clock"}, "PAUSED: the host paused the clock: wait for resume"),
    ({"type": "pause"}, "PAUSED: wait for resume"),
])
def test_trn5_another_pause_names_its_reason_and_waits_for_resume(pause: dict[str, Any], expect: str) -> None:
    """A pause not from the room (the host console's "Pause the clock", a reasonless one) says its reason, if
    any, and to wait for the resume: nothing says "wait for the room" when the room did not pause it."""
    assert header_and_lines([*FIRST_HAND, pause])[0] == expect


def test_the_dealer_and_host_pages_say_the_pause_the_board_gets_no_dealer_words() -> None:
    """The console's dealer and host pages show ``expect``: the same words as the display; the public board has
    no ``expect`` (its clock says "paused", clock.js) and carries the reason only as ``paused``."""
    played, _ = replay([*FIRST_HAND, {"type": "pause", "reason": H4H}])
    for role in ("dealer", "host"):
        assert role_view(role, played, {}, {})["expect"] == "PAUSED: TRN-5 hand-for-hand: wait for the room"
    board = role_view("board", played, {}, {})
    assert "expect" not in board and board["paused"] == H4H


def test_trn5_the_daemon_redraws_the_dealer_display_when_the_room_pauses(tmp_path: Path) -> None:
    """Through the daemon as the room's bridge reaches it (socket_api.py: submit, then refresh): the pause is
    journaled and at once the dealer's display is the paused screen, before anyone presses START."""
    config, devices, controller, _ = make(tmp_path)
    assert controller.dealer_view().expect == "start"
    assert controller.submit({"type": "pause", "reason": H4H}).accepted
    controller.refresh()
    view = controller.dealer_view()
    assert view.expect == "PAUSED: TRN-5 hand-for-hand: wait for the room"
    assert screen(devices, config.dealer.display) == render_dealer(view).tobytes()
    assert render_dealer(view).tobytes() != render_dealer(dealer_view(replay(FIRST_HAND)[0])).tobytes()


def test_trn5_a_pause_after_the_hand_shows_the_moment_the_hand_is_over() -> None:
    """The room's hand-for-hand pause comes during hand 1 with ``after_hand`` 1: while the hand is played the
    dealer reads the hand's next step (seat 1 to act: UTG of three, button 1); the last fold ends it, and the
    same view says the pause, with no START pressed."""
    dealt = FIRST_HAND[:-2]
    waiting = [*dealt, {"type": "pause", "reason": H4H, "after_hand": 1}]
    assert header_and_lines(waiting)[0] == "action on seat 1"
    assert header_and_lines([*waiting, *FIRST_HAND[-2:]])[0] == "PAUSED: TRN-5 hand-for-hand: wait for the room"
