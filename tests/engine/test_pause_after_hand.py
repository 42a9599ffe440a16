"""``pause`` with ``after_hand`` and ``resume`` with ``pause_after`` (TRN-5, TDA RP-8: on the bubble every table
plays exactly one hand per hand-for-hand round). The pause is decided by the journal alone: the table is held
once hand N is over, so a START pressed right after that hand is refused, whatever the room's messages do.

Three seats of 300, blinds 1/3, button seat 1: seat 2 posts 1, seat 3 posts 3; hole cards go seat 2, 3, 1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from journal_kit import act, cards, replay, sit, table

from dealerpi.engine.inputs import InputError
from dealerpi.engine.state import TableState
from dealerpi.engine.table import Table

START: dict[str, Any] = {"type": "start"}
H4H = "hand-for-hand"
HELD = "TRN-5: the table is paused (hand-for-hand): no hand starts until it is resumed"
HOLE = cards("Ah", "Kh", "Qh", "Jh", "Th", "9h")
FOLDS = [act(1, "fold"), act(2, "fold")]          # seat 3 wins the blinds: 1 + 3


def pause(after: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "pause", "reason": H4H}
    return entry if after is None else {**entry, "after_hand": after}


def resume(after: int | None = None) -> dict[str, Any]:
    return {"type": "resume"} if after is None else {"type": "resume", "pause_after": after}


def dealt(**extra: Any) -> list[dict[str, Any]]:
    """Hand 1 started, no card read yet."""
    return [table(seats=3, **extra), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, START]


def test_trn5_pause_after_hand_during_the_hand_refuses_the_start_pressed_right_after_it() -> None:
    """TRN-5: the room's ``pause`` after hand 1 arrives during hand 1 and is taken; the table is not held yet
    (``paused`` None, ``pausing`` names the hand). The last fold ends hand 1 and the very next input, the
    dealer's START, is refused with the TRN-5 reason: there is no window between the hand's end and the pause.
    Hand 1: seats 1 and 2 fold, seat 3 wins 1 + 3: stacks 300, 299, 301."""
    during = [*dealt(), *HOLE, pause(1)]
    played, result = replay(during)
    assert result["rejected"] == []
    assert (played.paused, played.pausing, played.between_hands) == (None, (H4H, 1), False)
    journal = [*during, *FOLDS, START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": HELD}]
    assert (played.paused, played.pausing, played.hand_number) == (H4H, None, 1)
    assert {s: i.stack for s, i in played.seats.items()} == {1: 300, 2: 299, 3: 301}


def test_trn5_a_pause_after_a_hand_already_over_holds_at_once() -> None:
    """Between hands, ``after_hand`` 1 when hand 1 is over (the room asks for the hand the table last played):
    held at once, START refused."""
    journal = [*dealt(), *HOLE, *FOLDS, pause(1), START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": HELD}]
    assert (played.paused, played.pausing) == (H4H, None)


def test_trn5_mis7_the_redeal_of_the_paused_hand_is_still_dealt() -> None:
    """MIS-7: Ah read twice in hand 1 fouls the deck: the deal is void and hand 1 is dealt again (MIS-6: the
    same hand number). A pause after hand 1 does not hold on the voided deal: the redeal's START is taken
    (hand_number stays 1); once the redeal ends (seats 1 and 2 fold), START is refused. The same when the
    pause comes between the void and the redeal."""
    for journal in ([*dealt(), pause(1), *cards("Ah", "Ah")], [*dealt(), *cards("Ah", "Ah"), pause(1)]):
        played, result = replay(journal)
        assert played.between_hands and played.state.redeal is not None
        assert (played.paused, played.pausing) == (None, (H4H, 1))
        journal = [*journal, START, *HOLE, *FOLDS, START]
        played, result = replay(journal)
        assert result["rejected"] == [{"line": len(journal), "reason": HELD}]
        assert (played.hand_number, played.paused) == (1, H4H)


def test_trn5_mis6_a_misdeal_keeps_the_hand_and_the_pause_waits_for_its_end() -> None:
    """MIS-6: a misdeal after two hole cards is redealt inside hand 1; the pause after hand 1 still waits, and
    holds when the redealt hand 1 ends."""
    journal = [*dealt(), *cards("Ah", "Kh"), pause(1), {"type": "misdeal"}, *HOLE]
    played, _ = replay(journal)
    assert (played.hand_number, played.paused, played.pausing) == (1, None, (H4H, 1))
    journal = [*journal, *FOLDS, START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": HELD}]


def test_trn5_resume_with_pause_after_lets_exactly_one_hand_be_played() -> None:
    """One hand-for-hand round is one input: held after hand 1, ``resume`` with ``pause_after`` 2 lets hand 2
    start (button seat 2 by BLD-1) and holds the table, same reason, once hand 2 is over: the second START is
    refused. After hand 1: 300, 299, 301. Hand 2: seat 3 posts 1, seat 1 posts 3; seats 2 and 3 fold, seat 1
    wins 1 + 3: seat 1 300 + 1 = 301, seat 2 299, seat 3 301 - 1 = 300."""
    journal = [*dealt(), *HOLE, *FOLDS, pause(1), resume(2), START]
    played, result = replay(journal)
    assert result["rejected"] == [] and played.hand_number == 2 and played.button() == 2
    assert (played.paused, played.pausing) == (None, (H4H, 2))
    journal = [*journal, *HOLE, act(2, "fold"), act(3, "fold"), START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": HELD}]
    assert (played.hand_number, played.paused) == (2, H4H)
    assert {s: i.stack for s, i in played.seats.items()} == {1: 301, 2: 299, 3: 300}


def test_trn5_resume_with_pause_after_and_a_reason_holds_again_with_that_reason() -> None:
    """The room held the table to move players; its hand-for-hand round resumes it for hand 2 and has it held
    again as hand-for-hand: after hand 2 START is refused naming the new reason."""
    journal = [*dealt(), *HOLE, *FOLDS, {"type": "pause", "reason": "the room moves players"},
               {"type": "resume", "pause_after": 2, "reason": H4H}, START, *HOLE, act(2, "fold"), act(3, "fold"),
               START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": HELD}]
    assert played.paused == H4H


def test_trn5_resume_that_would_leave_the_table_held_and_a_second_pause_are_refused() -> None:
    """After hand 1, ``resume`` with ``pause_after`` 1 would hold the table at once: refused, naming the
    hand to ask for (2). A second pause while one waits for its hand, or while one holds, is refused; a
    ``resume`` of a table not paused is refused."""
    journal = [*dealt(), *HOLE, pause(1), pause(), pause(2), *FOLDS, pause(3), resume(1), resume(), resume()]
    _, result = replay(journal)
    base = len(dealt()) + len(HOLE)
    assert result["rejected"] == [
        {"line": base + 2, "reason": "cannot pause the table during a hand"},
        {"line": base + 3, "reason": "the table is already to be paused after hand #1"},
        {"line": base + 6, "reason": "the table is already paused"},
        {"line": base + 7, "reason": "resume: pause_after 1 would keep the table paused: hand #1 is over "
                                     "(TRN-5: pause_after 2 plays one more hand)"},
        {"line": base + 9, "reason": "the table is not paused"},
    ]


def test_trn5_resume_calls_off_a_pause_still_waiting_for_its_hand() -> None:
    """A ``resume`` during hand 1 calls off the pause asked for after it: hand 2 starts."""
    journal = [*dealt(), *HOLE, pause(1), resume(), *FOLDS, START]
    played, result = replay(journal)
    assert result["rejected"] == [] and played.hand_number == 2 and played.pausing is None


def test_trn5_start_at_an_open_showdown_says_to_end_the_hand_first() -> None:
    """START normally settles a showdown left open and deals the next hand; with the pause due after this hand
    it is refused and says how to end the hand (show or muck): the refusal changes nothing. Hand 1 checked
    down (seat 1 and 2 call 3, seat 3 checks; flop 3d 4s 7c, turn 9c, river Td after burns 2c, 8d, 2s): the
    showdown waits for seats 2, 3, 1. Shown: seat 3 Kh Th pairs the Td, seat 1 Qh 9h the 9c, seat 2 has ace
    high: seat 3 wins 3 + 3 + 3 = 9."""
    checks = [act(2, "check"), act(3, "check"), act(1, "check")]
    showdown = [*dealt(), pause(1), *HOLE, act(1, "call"), act(2, "call"), act(3, "check"),
                *cards("2c", "3d", "4s", "7c"), *checks, *cards("8d", "9c"), *checks, *cards("2s", "Td"), *checks]
    journal = [*showdown, START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason":
                                   "TRN-5: the table is paused (hand-for-hand) once hand #1 is over: show or muck "
                                   "the hands to end it; no hand starts until the table is resumed"}]
    assert played.expectation().words() == "showdown: seat 2 seat 3 seat 1" and played.pausing == (H4H, 1)
    journal = [*showdown, *({"type": "show", "seat": s} for s in (2, 3, 1)), START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": HELD}]
    assert {s: i.stack for s, i in played.seats.items()} == {1: 297, 2: 297, 3: 306}


def pause_state(played: Table) -> tuple[str | None, tuple[str, int] | None]:
    """Read afresh after each input (a property checked once would stay narrowed to that value)."""
    return played.paused, played.pausing


def test_trn5_undo_takes_back_the_pause_and_the_hand_end_that_held_it() -> None:
    """Undo of the last fold (which ended hand 1 and so held the table) makes the pause wait again; undo of
    the pause itself leaves no pause."""
    table_ = Table()
    for entry in [*dealt(), *HOLE, pause(1), *FOLDS]:
        assert table_.apply(entry).accepted, entry
    assert table_.paused == H4H
    assert table_.apply({"type": "undo"}).accepted
    assert (*pause_state(table_), table_.between_hands) == (None, (H4H, 1), False)
    assert table_.apply({"type": "undo"}).accepted and table_.apply({"type": "undo"}).accepted   # fold, pause
    assert pause_state(table_) == (None, None)


def test_trn1_a_pause_waiting_for_its_hand_leaves_the_level_clock_running_until_it_holds() -> None:
    """TRN-1/TRN-5: level 1 is 20 minutes (1200 s). During hand 1, 100 s pass, the pause after hand 1 is
    taken, 100 s pass (the hand is still played on the clock: 200 s); hand 1 ends, the pause holds and 600 s
    pass (ignored); ``resume`` with ``pause_after`` 2, 50 s pass: 200 + 50 = 250 s into level 1."""
    levels = [{"blinds": [1, 3], "minutes": 20}, {"blinds": [2, 6], "minutes": 20}]
    base = [*dealt(rules="tournament", levels=levels), *HOLE, {"type": "tick", "seconds": 100}, pause(1),
            {"type": "tick", "seconds": 100}, *FOLDS, {"type": "tick", "seconds": 600}]
    played, result = replay(base)
    assert result["rejected"] == []
    assert played.levels is not None and (played.levels.elapsed, played.levels.paused) == (200, True)
    played, _ = replay([*base, resume(2), {"type": "tick", "seconds": 50}])
    assert played.levels is not None and (played.levels.elapsed, played.levels.paused) == (250, False)


def test_trn5_the_checkpoint_and_the_journal_replay_agree_on_a_waiting_and_a_held_pause() -> None:
    """The checkpoint taken while the pause waits (mid-hand) and when it holds rebuilds an equal table, and
    the rest of the journal applied to the restored table gives the same state as replaying it all."""
    during = [*dealt(), *HOLE, pause(1), act(1, "fold")]
    played, _ = replay(during)
    restored = Table.from_snapshot(json.loads(json.dumps(played.snapshot())))
    assert restored.state == played.state and restored.pausing == (H4H, 1)
    assert restored.apply(act(2, "fold")).accepted
    whole, _ = replay([*during, act(2, "fold")])
    assert restored.state == whole.state and restored.paused == H4H
    again = Table.from_snapshot(json.loads(json.dumps(whole.snapshot())))
    assert again.state == whole.state and not again.apply(START).accepted


def test_the_pause_after_record_reads_back_and_a_bad_one_is_named() -> None:
    """``TableState`` JSON: ``pause_after`` is the hand the pause waits for, or null; a checkpoint written
    before it existed has no key (a pause there holds); one without a pause is refused naming the key."""
    played, _ = replay([*dealt(), *HOLE, pause(1)])
    data = played.state.as_json()
    assert (data["paused"], data["pause_after"]) == (H4H, 1)
    assert TableState.from_json(json.loads(json.dumps(data))) == played.state
    del data["pause_after"]
    assert TableState.from_json(data).pause_after is None
    data["paused"], data["pause_after"] = None, 2
    with pytest.raises(InputError, match='table state: bad "pause_after" \\(no pause\\)'):
        TableState.from_json(data)


@pytest.mark.parametrize(("entry", "reason"), [
    ({"type": "pause", "after_hand": 0}, 'pause: "after_hand" must be a hand number (1 or more), not 0'),
    ({"type": "pause", "after_hand": "2"}, "pause: \"after_hand\" must be a hand number (1 or more), not '2'"),
    ({"type": "pause", "after_hand": True}, 'pause: "after_hand" must be a hand number (1 or more), not True'),
    ({"type": "resume", "pause_after": -1}, 'resume: "pause_after" must be a hand number (1 or more), not -1'),
    ({"type": "resume", "reason": H4H}, 'resume: "reason" is the next pause\'s: it goes with "pause_after"'),
    ({"type": "resume", "pause_after": 2, "reason": "x" * 81}, 'resume: "reason" must be at most 80 characters'),
])
def test_a_bad_hand_number_names_the_key(entry: dict[str, Any], reason: str) -> None:
    _, result = replay([*dealt(), entry])
    assert result["rejected"] == [{"line": len(dealt()) + 1, "reason": reason}]
