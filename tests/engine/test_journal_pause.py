"""``pause`` and ``resume`` through the journal (TRN-5 hand-for-hand, a break): between hands only; while the
table is paused a ``start`` is refused with the reason; the table's own level clock stops; the pause survives
the checkpoint (``Table.snapshot``) and a replay of the journal.

TRN-5 (digest, TDA RP-8): hand-for-hand, the next hand starts at any table only when every table finished the
current one; the room pauses each table at the end of a hand and resumes them all together.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from console_kit import start
from journal_kit import act, cards, replay, sit, table

from dealerpi.engine.inputs import InputError
from dealerpi.engine.state import TableState
from dealerpi.engine.table import Table

START: dict[str, Any] = {"type": "start"}
PAUSE: dict[str, Any] = {"type": "pause", "reason": "hand-for-hand"}
RESUME: dict[str, Any] = {"type": "resume"}
HOLE = cards("Ah", "Kh", "Qh", "Jh", "Th", "9h")
LEVELS = [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "minutes": 20}]


def tick(seconds: int) -> dict[str, Any]:
    return {"type": "tick", "seconds": seconds}


def first_hand() -> list[dict[str, Any]]:
    """Three seats of 300, button 1: SB seat 2, BB seat 3; seat 1 and seat 2 fold, seat 3 wins the blinds."""
    return [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, START, *HOLE,
            act(1, "fold"), act(2, "fold")]


def test_trn5_a_paused_table_refuses_start_with_the_reason_until_resumed() -> None:
    """TRN-5: after hand 1 the table is paused for hand-for-hand; START is refused naming TRN-5 and the
    reason; after ``resume`` START deals hand 2 (button 2 by BLD-1)."""
    journal = [*first_hand(), PAUSE, START]
    played, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason":
                                   "TRN-5: the table is paused (hand-for-hand): no hand starts until it is resumed"}]
    assert played.paused == "hand-for-hand" and played.hand_number == 1
    played, result = replay([*journal[:-1], RESUME, START])
    assert result["rejected"] == [] and played.paused is None
    assert played.hand_number == 2 and played.button() == 2


def test_trn5_pause_without_a_reason_says_only_that_the_table_is_paused() -> None:
    """A pause for a break the floor calls has no reason: the refusal says only TRN-5 and the pause."""
    _, result = replay([*first_hand(), {"type": "pause"}, START])
    assert result["rejected"][0]["reason"] == "TRN-5: the table is paused: no hand starts until it is resumed"


def test_trn5_pause_is_refused_during_a_hand_and_twice_and_resume_when_not_paused() -> None:
    """Between hands only: a hand in play is played out first (TRN-5). A second pause and a resume of a table
    that is not paused are refused, so a repeated command is seen, never silently taken."""
    base = [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, START, *HOLE]
    journal = [*base, PAUSE]
    _, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal), "reason": "cannot pause the table during a hand"}]
    journal = [*first_hand(), PAUSE, PAUSE, RESUME, RESUME]
    _, result = replay(journal)
    assert result["rejected"] == [{"line": len(journal) - 2, "reason": "the table is already paused"},
                                  {"line": len(journal), "reason": "the table is not paused"}]


def test_trn5_the_tables_own_level_clock_stops_while_paused() -> None:
    """TRN-1/TRN-5: level 1 is 20 minutes (1200 s). 1199 s pass, the table is paused, 600 s pass (ignored:
    waiting for the other tables takes nothing off the level), it resumes, 1 s passes: 1199 + 1 = 1200 s
    of play, so level 2 (100/200) has just begun, 0 s into it."""
    journal = [table(rules="tournament", seats=3, levels=LEVELS), sit(1, 15000), sit(2, 15000), sit(3, 15000),
               {"type": "button", "seat": 1}, tick(1199), PAUSE, tick(600)]
    played, _ = replay(journal)
    assert played.levels is not None and (played.levels.index, played.levels.elapsed) == (0, 1199)
    played, _ = replay([*journal, RESUME, tick(1)])
    assert played.levels is not None and (played.levels.index, played.levels.elapsed) == (1, 0)
    assert not played.levels.paused


def test_trn5_a_pause_survives_the_checkpoint_and_the_restored_table_still_refuses_start() -> None:
    """The checkpoint (record before the last start + the inputs since, through JSON text) rebuilds the paused
    table; the restored table refuses START as the original did and deals after ``resume``."""
    played, _ = replay([*first_hand(), PAUSE])
    restored = Table.from_snapshot(json.loads(json.dumps(played.snapshot())))
    assert restored.state == played.state and restored.paused == "hand-for-hand"
    outcome = restored.apply(START)
    assert not outcome.accepted and outcome.reason is not None and outcome.reason.startswith("TRN-5")
    assert restored.apply(RESUME).accepted and restored.apply(START).accepted and restored.hand_number == 2


def test_the_paused_record_reads_back_from_json_and_a_bad_one_is_named() -> None:
    """``TableState`` JSON: ``paused`` is the reason or null; a checkpoint written before pause existed has no
    key (not paused); anything else is refused naming the key."""
    played, _ = replay([*first_hand(), PAUSE])
    data = played.state.as_json()
    assert data["paused"] == "hand-for-hand"
    assert TableState.from_json(json.loads(json.dumps(data))) == played.state
    del data["paused"]
    assert TableState.from_json(data).paused is None
    data["paused"] = 1
    with pytest.raises(InputError, match='table state: bad "paused"'):
        TableState.from_json(data)


@pytest.mark.parametrize(("entry", "reason"), [
    ({"type": "pause", "reason": 5}, 'pause: "reason" must be a string, not 5'),
    ({"type": "pause", "reason": "x" * 81}, 'pause: "reason" must be at most 80 characters'),
])
def test_a_bad_pause_names_the_key(entry: dict[str, Any], reason: str) -> None:
    _, result = replay([*first_hand(), entry])
    assert result["rejected"] == [{"line": len(first_hand()) + 1, "reason": reason}]


def test_trn5_the_daemon_restarted_from_its_journal_folder_is_still_paused(tmp_path: Path) -> None:
    """The daemon (fake devices, the journal folder with its checkpoint at hand 1's start): Ann, Bob, Cy play
    hand 1 (Ann and Bob fold), the table is paused; after a restart (checkpoint + the inputs after it) it is
    still paused and START is still refused; ``resume`` lets hand 2 start."""
    _config, controller, _api = start(tmp_path)
    for entry in [{"type": "sit", "seat": s, "player": p, "stack": 250} for s, p in ((1, "Ann"), (2, "Bob"),
                                                                                      (3, "Cy"))] + [START]:
        assert controller.submit(entry).accepted, entry
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")
    for seat in (1, 2):
        assert controller.submit(act(seat, "fold")).accepted
    assert controller.submit(PAUSE).accepted
    controller.journal.close()
    _config, controller, _api = start(tmp_path)
    assert controller.table.paused == "hand-for-hand" and controller.table.hand_number == 1
    refused = controller.submit(START)
    assert (refused.accepted, refused.reason) == \
        (False, "TRN-5: the table is paused (hand-for-hand): no hand starts until it is resumed")
    assert controller.submit(RESUME).accepted and controller.submit(START).accepted
    assert controller.table.hand_number == 2
