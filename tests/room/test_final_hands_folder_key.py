"""The room bridge's reader when the table config names the journal folder itself (``journal =
"/var/lib/dealerpi/journal"``, as hardware/example*.toml do): the same hands as with the old
``journal.jsonl`` key. Found by tests/systemd (issue 23): the console's bridge under a real systemd met an
IsADirectoryError, its task died unseen, and not one hand reached the room's SQLite."""

from __future__ import annotations

from pathlib import Path

from daemon_kit import CONFIG, FakeDecks
from journal_kit import scripted_session

from dealerpi.config import load
from dealerpi.devices import FakeDevices
from dealerpi.engine import Table
from dealerpi.history.final_hands import FinalHands
from dealerpi.journal.folder import JournalFolder
from dealerpi.table.controller import Controller

SCRIPT = scripted_session(seed=7, hands=3)


def test_the_folder_key_gives_the_same_hands_as_the_jsonl_key(tmp_path: Path) -> None:
    """Three scripted hands, the third not final until a fourth start: hands 1 and 2, once each, through
    either key (docs/journal.md: an old "journal.jsonl" names the same folder)."""
    assert 'journal = "state/journal.jsonl"' in CONFIG
    (tmp_path / "table.toml").write_text(CONFIG.replace('journal = "state/journal.jsonl"',
                                                        'journal = "state/journal"'))
    config = load(tmp_path / "table.toml")
    assert config.journal == tmp_path / "state" / "journal"
    journal, recovered = JournalFolder.open(config.journal, Table.from_snapshot)
    controller = Controller(config, FakeDevices(config), journal, decks=FakeDecks())
    controller.replay(recovered.entries, recovered)
    for entry in SCRIPT[1:]:
        assert controller.submit(entry).accepted, entry
    by_folder = FinalHands(config.journal).poll()
    by_file = FinalHands(tmp_path / "state" / "journal.jsonl").poll()
    assert [(h.seq, h.number) for h in by_folder] == [(1, 1), (2, 2)]
    assert [(h.seq, h.number, h.phh) for h in by_folder] == [(h.seq, h.number, h.phh) for h in by_file]
