"""Issue 20 defect 3: hand sessions are one journal's. The session was the hash of the journal's first line,
the config's table input, which has no time: three tables with one config had one session, and so did a new
journal of a table whose config had not changed; the room keeps a hand under (table, session, seq), so a new
journal's hands 1, 2 were taken for the old ones (dropped without a word) and its hand 3 stored beside them.
The daemon now writes a new journal's first record with an id drawn at the edge (``journal``) and its time;
the engine ignores both."""

from __future__ import annotations

import shutil
from pathlib import Path

from room_kit import table_playing

from dealerpi.room.store import Store


def test_issue20_a_new_journal_with_the_same_config_is_a_new_session_and_no_hand_is_dropped(tmp_path: Path) -> None:
    """The issue's steps: t2 plays 3 hands; it is stopped, its state (journal) and its console's memo moved
    away; started again with the same config it plays 4. The room stores 3 + 4 = 7 hands, the new ones under
    a new session numbered 1-4 (before: the same session, new hands 1 and 2 dropped, 4 stored in all). Two
    tables with one config (t1, t3 here) have two sessions."""
    first = table_playing(tmp_path / "t2", 3)
    old = first.poll()
    shutil.move(tmp_path / "t2", tmp_path / "t2-old")             # state/ and console/ moved away
    second = table_playing(tmp_path / "t2", 4)
    new = second.poll()
    assert [h.seq for h in old] == [1, 2, 3] and [h.seq for h in new] == [1, 2, 3, 4]
    assert first.session != second.session
    store = Store(tmp_path / "room.sqlite")
    try:
        stored = [store.add_hand("t2", reader.session, hand.seq, hand.number, hand.phh)
                  for reader, hands in ((first, old), (second, new)) for hand in hands]
        assert stored == [True] * 7
        assert store.hand_count() == 7
        assert store.contiguous("t2", second.session) == 4
    finally:
        store.close()
    others = [table_playing(tmp_path / name, 1) for name in ("t1", "t3")]
    for reader in others:
        reader.poll()
    assert len({reader.session for reader in (*others, first, second)}) == 4
