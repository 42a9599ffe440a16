"""The bridge's hands after the daemon's journal folder rotated segment 1 away (docs/room.md): a console
started then begins at the oldest checkpoint and, with its memo, goes on numbering the session's hands as
before; without the memo it names a new session (the control)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from daemon_kit import CONFIG, FakeDecks
from journal_kit import scripted_session

from dealerpi.config import load
from dealerpi.devices import FakeDevices
from dealerpi.engine import Table
from dealerpi.history.final_hands import FinalHand, FinalHands
from dealerpi.journal.folder import JournalFolder
from dealerpi.table.controller import Controller

SCRIPT = scripted_session(seed=7, hands=12)
STARTS = [n for n, e in enumerate(SCRIPT) if e["type"] == "start"]


def test_a_console_started_after_rotation_goes_on_with_the_sessions_numbering(tmp_path: Path) -> None:
    """Twelve hands, four old segments kept, readers keeping their last 2 hands (the bridge keeps as many as
    the journal folder keeps segments). Reader A follows the whole evening; its memo is copied when hand 9
    starts (hands 1-8 final and sent: count 8, last number 8, though A keeps hands 7 and 8 only) and the
    console is down from there. Reader B starts after the last input, segment 1 long gone: it must give
    exactly A's hands after hand 8, with A's seq numbers, session and count 11. C, without a memo, names a
    new session and counts from 1 (the control)."""
    assert len(STARTS) == 12
    (tmp_path / "table.toml").write_text(CONFIG)
    config = load(tmp_path / "table.toml")
    journal, recovered = JournalFolder.open(config.journal, Table.from_snapshot, keep_segments=4)
    controller = Controller(config, FakeDevices(config), journal, decks=FakeDecks())
    controller.replay(recovered.entries, recovered)
    memo_a, memo_b = tmp_path / "a.json", tmp_path / "b.json"
    reader = FinalHands(config.journal, memo_a, keep=2)
    given: list[FinalHand] = []
    for index, entry in enumerate(SCRIPT[1:], start=1):
        assert controller.submit(entry).accepted, entry
        given += reader.poll()
        if index == STARTS[8]:
            assert [h.seq for h in reader.hands] == [7, 8]
            assert json.loads(memo_a.read_text()) | {"session": ""} == {
                "journal": str(tmp_path / "state" / "journal"), "session": "", "count": 8, "number": 8}
            shutil.copy(memo_a, memo_b)
    assert [(h.seq, h.number) for h in given] == [(n, n) for n in range(1, 12)]    # hand 12 is not final yet
    assert not (tmp_path / "state" / "journal" / "000001.jsonl").exists()
    later = FinalHands(config.journal, memo_b, keep=2)
    after = [(h.seq, h.number, h.phh) for h in given if h.number > 8]
    assert [seq for seq, _, _ in after] == [9, 10, 11]
    assert [(h.seq, h.number, h.phh) for h in later.poll()] == after
    assert [h.seq for h in later.hands] == [10, 11]
    assert (later.session, later.count) == (reader.session, 11) and reader.count == 11
    fresh = FinalHands(config.journal, tmp_path / "none.json")
    fresh.poll()
    assert fresh.session != reader.session and fresh.hands[0].seq == 1
