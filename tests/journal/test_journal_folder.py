"""The journal folder (dealerpi/journal/folder.py): a segment per hand from a checkpoint of the table, start-up
from the newest good checkpoint (issue 12, item 3), fallbacks, rotation, and ``replay --journal FOLDER``.

The live table is the daemon's own ``Controller`` fed a scripted evening (tests/journal_kit.py); a restart is
``JournalFolder.open`` + ``Controller.replay``, as ``serve`` does. "The same table" is compared as the
engine's snapshot plus the seats, button and what the table waits for.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest
from daemon_kit import CONFIG, FakeDecks, untimed
from fault_kit import FaultyOps
from journal_kit import scripted_session

from dealerpi.config import ConfigError, load
from dealerpi.devices import FakeDevices
from dealerpi.engine import Table
from dealerpi.history.final_hands import FinalHands
from dealerpi.history.journal_replay import Replayed, replay_entries, summary
from dealerpi.history.journal_replay import main as replay_main
from dealerpi.journal.file import FileOps, JournalError
from dealerpi.journal.folder import (
    KEEP_BYTES,
    KEEP_SEGMENTS,
    JournalFolder,
    checkpoint_name,
    checksum,
    entries_from,
    segment_name,
    segments_of,
)
from dealerpi.table.controller import Controller

SCRIPT = scripted_session(seed=12, hands=6)
STARTS = [n for n, e in enumerate(SCRIPT) if e["type"] == "start"]


def boot(tmp_path: Path, ops: FileOps = os, *, keep_segments: int = KEEP_SEGMENTS,
         keep_bytes: int = KEEP_BYTES) -> tuple[Controller, list[dict[str, Any]]]:
    """The daemon's start-up over ``tmp_path``'s journal folder; returns the controller and what it replayed."""
    (tmp_path / "table.toml").write_text(CONFIG)
    config = load(tmp_path / "table.toml")
    used: list[dict[str, Any]] = []              # the checkpoint start-up used, as daemon.open_journal keeps it

    def rebuild(data: dict[str, Any]) -> Table:
        table = Table.from_snapshot(data)
        used.append(data)
        return table

    journal, recovered = JournalFolder.open(config.journal, rebuild, ops=ops, keep_segments=keep_segments,
                                             keep_bytes=keep_bytes)
    controller = Controller(config, FakeDevices(config), journal, decks=FakeDecks())
    controller.restore_checkpoint(used[-1] if used else {})
    controller.replay(recovered.entries, recovered)
    return controller, recovered.entries


def same_table(table: Table) -> dict[str, Any]:
    state = summary(Replayed(table))
    snapshot = table.snapshot()
    snapshot["inputs"] = untimed(snapshot["inputs"])      # the start's time is the journal's, not the table's
    return {"snapshot": snapshot, **{key: state[key] for key in ("seats", "button", "next")}}


def reference(inputs: list[dict[str, Any]]) -> dict[str, Any]:
    table = Table()
    for entry in inputs:
        table.apply(entry)
    return same_table(table)


def play(controller: Controller, inputs: list[dict[str, Any]]) -> None:
    """Inputs as presses and reads would submit them (the first start-up journaled the config's table,
    which is the script's first input)."""
    for entry in inputs:
        assert controller.submit(entry).accepted, entry


def folder(tmp_path: Path) -> Path:
    return tmp_path / "state" / "journal"


def test_a_hand_starts_a_segment_from_a_checkpoint_and_start_up_replays_that_hand_only(tmp_path: Path) -> None:
    """Six hands: segment 1 holds the set-up and hand 1's start; each start opens the next segment, whose
    checkpoint is the table right after that start (Table.snapshot(): the record before the hand plus the
    start). Killed mid-hand 6, the restart replays only hand 6's inputs after its start."""
    cut = STARTS[5] + 9                               # nine inputs into hand 6
    controller, _ = boot(tmp_path)
    play(controller, SCRIPT[1:cut])
    assert segments_of(folder(tmp_path)) == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(p.name for p in folder(tmp_path).glob("*.checkpoint.json")) == [
        checkpoint_name(n) for n in (2, 3, 4, 5, 6, 7)]
    assert untimed(list(entries_from(folder(tmp_path), [1]))[:1]) == SCRIPT[:1]
    # segment n + 1 holds hand n + 1's inputs after its start, up to the next start (inclusive)
    assert untimed(list(entries_from(folder(tmp_path), [3]))) == SCRIPT[STARTS[1] + 1:STARTS[2] + 1]
    controller.journal.close()
    restarted, replayed = boot(tmp_path)
    assert untimed(replayed) == SCRIPT[STARTS[5] + 1:cut]
    assert same_table(restarted.table) == reference(SCRIPT[:cut])
    play(restarted, SCRIPT[cut:])                     # and it plays on exactly as the uninterrupted table
    assert same_table(restarted.table) == reference(SCRIPT)


def test_a_crash_between_the_new_segment_and_its_checkpoint_replays_one_segment_more(tmp_path: Path) -> None:
    controller, _ = boot(tmp_path)
    play(controller, SCRIPT[1:STARTS[3] + 4])
    controller.journal.close()
    (folder(tmp_path) / checkpoint_name(5)).unlink()   # segment 5 exists, its checkpoint was never written
    restarted, replayed = boot(tmp_path)
    assert untimed(replayed) == SCRIPT[STARTS[2] + 1:STARTS[3] + 4]       # from checkpoint 4: segments 4 and 5
    assert same_table(restarted.table) == reference(SCRIPT[:STARTS[3] + 4])


@pytest.mark.parametrize("damage", ["flip", "truncate", "refused"])
def test_a_damaged_checkpoint_falls_back_to_the_one_before(tmp_path: Path, damage: str,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    """A flipped byte (the SHA-256 no longer matches), a cut file, or a snapshot the engine refuses."""
    controller, _ = boot(tmp_path)
    play(controller, SCRIPT[1:STARTS[4] + 2])
    controller.journal.close()
    newest = folder(tmp_path) / checkpoint_name(6)
    data = newest.read_bytes()
    if damage == "flip":
        at = data.index(b'"stack":') + 8
        newest.write_bytes(data[:at] + bytes([data[at] ^ 1]) + data[at + 1:])
    elif damage == "truncate":
        newest.write_bytes(data[:len(data) // 2])
    else:                                             # well formed, hash right, but not a table the engine takes
        document = json.loads(data)
        body = {k: v for k, v in document.items() if k != "sha256"}
        body["table"]["inputs"] = [{"type": "act", "seat": 9, "action": "fold"}]
        newest.write_text(json.dumps({**body, "sha256": checksum(body)}))
    restarted, replayed = boot(tmp_path)
    assert untimed(replayed) == SCRIPT[STARTS[3] + 1:STARTS[4] + 2]
    assert same_table(restarted.table) == reference(SCRIPT[:STARTS[4] + 2])
    assert any(f"checkpoint {newest} is not usable" in r.getMessage() for r in caplog.records)


def test_old_segments_are_rotated_out_by_count_and_by_size_keeping_two(tmp_path: Path) -> None:
    controller, _ = boot(tmp_path, keep_segments=3)
    play(controller, SCRIPT[1:STARTS[5] + 1])
    assert segments_of(folder(tmp_path)) == [5, 6, 7]  # six starts made segments 1..7; the newest three kept
    assert sorted(p.name for p in folder(tmp_path).glob("*.checkpoint.json")) == [
        checkpoint_name(n) for n in (5, 6, 7)]
    controller.journal.close()
    restarted, _ = boot(tmp_path, keep_bytes=1)      # all are over the size: the two start-up needs are kept
    assert segments_of(folder(tmp_path)) == [6, 7]
    assert same_table(restarted.table) == reference(SCRIPT[:STARTS[5] + 1])
    play(restarted, SCRIPT[STARTS[5] + 1:])
    assert same_table(restarted.table) == reference(SCRIPT)
    restarted.journal.close()


def test_replay_of_a_rotated_folder_starts_from_its_oldest_good_checkpoint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    controller, _ = boot(tmp_path, keep_segments=3)
    play(controller, SCRIPT[1:])
    controller.journal.close()
    assert replay_main(["--journal", str(folder(tmp_path)), "--json"]) == 0
    out = capsys.readouterr()
    assert out.err == ("dealerpi replay: the first segments were rotated away; from checkpoint "
                       "000005.checkpoint.json\n")
    result = json.loads(out.out)
    expected = summary(replay_entries(SCRIPT))
    assert {k: result[k] for k in ("seats", "button", "next")} == {k: expected[k] for k in ("seats", "button", "next")}
    assert [h["number"] for h in result["hands"]] == [4, 5, 6]     # hand 4 is in the checkpoint, 5 and 6 after


def test_an_old_single_journal_becomes_segment_one_and_the_first_start_up_checkpoints(tmp_path: Path) -> None:
    legacy = tmp_path / "state" / "journal.jsonl"
    legacy.parent.mkdir()
    legacy.write_text("".join(json.dumps(e) + "\n" for e in SCRIPT[:STARTS[4] + 3]))
    restarted, replayed = boot(tmp_path)
    assert not legacy.exists() and segments_of(folder(tmp_path)) == [1, 2]
    assert untimed(replayed) == SCRIPT[:STARTS[4] + 3]
    assert same_table(restarted.table) == reference(SCRIPT[:STARTS[4] + 3])
    restarted.journal.close()
    again, replayed = boot(tmp_path)                 # the second start-up replays nothing: the checkpoint
    assert untimed(replayed) == []
    assert same_table(again.table) == reference(SCRIPT[:STARTS[4] + 3])


def test_a_missing_segment_or_no_usable_start_is_refused_naming_the_files(tmp_path: Path) -> None:
    controller, _ = boot(tmp_path)
    play(controller, SCRIPT[1:STARTS[3] + 1])
    controller.journal.close()
    (folder(tmp_path) / segment_name(2)).rename(tmp_path / "away.jsonl")
    with pytest.raises(JournalError, match=r"segment 000002.jsonl is missing \(between 000001.jsonl and 000003"):
        boot(tmp_path)
    (folder(tmp_path) / segment_name(1)).unlink()
    for number in (3, 4, 5):
        (folder(tmp_path) / checkpoint_name(number)).write_text("{}")
    with pytest.raises(JournalError, match=r"no usable checkpoint, and the first segment was rotated away"):
        boot(tmp_path)
    legacy = tmp_path / "state" / "journal.jsonl"
    legacy.write_text("")
    with pytest.raises(JournalError, match=r"both a journal file .*journal.jsonl and segments in"):
        boot(tmp_path)


def test_replay_of_a_journal_folder_gives_the_same_as_the_single_file(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``dealerpi replay --journal FOLDER``: segments in order, the same JSON as the one-file journal."""
    controller, _ = boot(tmp_path)
    play(controller, SCRIPT[1:])
    controller.journal.close()
    single = tmp_path / "single.jsonl"
    single.write_text("".join(json.dumps(e) + "\n" for e in SCRIPT))
    assert replay_main(["--journal", str(single), "--json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    assert replay_main(["--journal", str(folder(tmp_path)), "--json"]) == 0
    from_folder = json.loads(capsys.readouterr().out)
    assert from_folder == from_file
    assert len(from_file["hands"]) == len(STARTS)
    assert summary(replay_entries(SCRIPT))["seats"] == from_file["seats"]
    assert os.listdir(tmp_path / "state") == ["journal"]


def test_the_rooms_final_hands_follow_the_folder_across_segments(tmp_path: Path) -> None:
    """The console's room bridge reads finished hands from the journal (history/final_hands.py): over the
    daemon's folder it reads the segments in order, as it would read one file; a hand is final once the
    next start is accepted, so six starts make five final hands. Each start is journaled with its time
    ("at"; given here, the daemon's wall clock otherwise), which each hand's PHH carries (PHH's time keys)."""
    controller, _ = boot(tmp_path)
    script = [{**e, "at": "2026-11-24T21:00:00Z"} if e.get("type") == "start" else e for e in SCRIPT]
    final = FinalHands(tmp_path / "state" / "journal.jsonl")
    play(controller, script[1:STARTS[2] + 3])
    assert [h.number for h in final.poll()] == [1, 2]
    play(controller, script[STARTS[2] + 3:])
    assert [h.number for h in final.poll()] == [3, 4, 5]
    assert final.poll() == []
    assert all('\ntime = 21:00:00\ntime_zone = "UTC"\n' in h.phh for h in final.hands)
    single = tmp_path / "single.jsonl"
    single.write_text("".join(json.dumps(e) + "\n" for e in script))
    assert [h.phh for h in FinalHands(single).poll()] == [h.phh for h in final.hands]


def test_the_configs_journal_keep_reaches_the_folder(tmp_path: Path) -> None:
    """[journal_keep] segments / mib: what rotation keeps; a value out of range names the key."""
    path = tmp_path / "table.toml"
    path.write_text(CONFIG + "\n[journal_keep]\nsegments = 3\nmib = 2\n")
    config = load(path)
    assert (config.journal_keep_segments, config.journal_keep_bytes) == (3, 2 * 1024 * 1024)
    path.write_text(CONFIG + "\n[journal_keep]\nsegments = 1\n")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert any("journal_keep.segments" in error for error in caught.value.errors)


def test_a_checkpoint_that_cannot_be_written_is_an_alert_and_costs_only_start_up_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills between hands: the new segment exists, its checkpoint write fails (no half file is
    left); the dealer is told, play goes on in the new segment, and a restart replays from the checkpoint
    before (one hand more), giving the same table."""
    controller, _ = boot(tmp_path)
    play(controller, SCRIPT[1:STARTS[2]])

    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("dealerpi.journal.folder.write_atomically", full)
    play(controller, SCRIPT[STARTS[2]:STARTS[2] + 5])
    assert [a.message for a in controller.alerts if a.rule == "JOURNAL"] == [
        "checkpoint failed (cannot write checkpoint 000004.checkpoint.json: No space left on device (ENOSPC)): "
        "play on; free space on the SD card"]
    assert segments_of(folder(tmp_path)) == [1, 2, 3, 4]
    assert not list(folder(tmp_path).glob("*.tmp"))
    monkeypatch.undo()
    controller.journal.close()
    restarted, replayed = boot(tmp_path)
    assert untimed(replayed) == SCRIPT[STARTS[1] + 1:STARTS[2] + 5]          # from checkpoint 3: segments 3 and 4
    assert same_table(restarted.table) == reference(SCRIPT[:STARTS[2] + 5])
    assert (folder(tmp_path) / checkpoint_name(5)).exists()          # start-up went past a start: a checkpoint now


def test_one_eio_on_the_folders_fsync_at_a_start_is_shown_and_the_next_hand_starts_the_segment(
        tmp_path: Path) -> None:
    """Issue 23, item 7a: one EIO on the folder's fsync when hand 2 starts (its segment 000003.jsonl made, its
    name not durable). The empty file is not left behind, hand 2 is journaled on in segment 2 (whose name is
    durable: nothing acknowledged lives in a file that may vanish), the dealer is told with one instruction,
    and hand 3's start makes segment 3 and its checkpoint: no "File exists" at every later hand."""
    ops = FaultyOps()
    controller, _ = boot(tmp_path, ops)
    play(controller, SCRIPT[1:STARTS[1]])
    ops.fail("fsync", errno.EIO, times=1)
    play(controller, SCRIPT[STARTS[1]:STARTS[2]])
    assert [a.message for a in controller.alerts if a.rule == "JOURNAL"] == [
        "checkpoint failed (cannot start segment 000003.jsonl: Input/output error (EIO)): play on; "
        "replace the SD card after this session"]
    assert segments_of(folder(tmp_path)) == [1, 2]
    play(controller, SCRIPT[STARTS[2]:STARTS[2] + 3])
    assert [a.message for a in controller.alerts if a.rule == "JOURNAL"] == []
    assert segments_of(folder(tmp_path)) == [1, 2, 3]
    assert (folder(tmp_path) / checkpoint_name(3)).exists()
    assert untimed(list(entries_from(folder(tmp_path), [2]))) == SCRIPT[STARTS[0] + 1:STARTS[2] + 1]
    controller.journal.close()
    restarted, replayed = boot(tmp_path)
    assert untimed(replayed) == SCRIPT[STARTS[2] + 1:STARTS[2] + 3]
    assert same_table(restarted.table) == reference(SCRIPT[:STARTS[2] + 3])


def test_an_empty_segment_a_failed_start_could_not_remove_is_taken_by_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23, item 7a: the folder's fsync fails and so does the removal of the new, empty segment; the
    next hand's start takes that empty file as its segment (a file holding inputs would be refused)."""
    ops = FaultyOps()
    controller, _ = boot(tmp_path, ops)
    play(controller, SCRIPT[1:STARTS[1]])
    ops.fail("fsync", errno.EIO, times=1)
    real_unlink = Path.unlink

    def stuck(path: Path, missing_ok: bool = False) -> None:
        if path.name == segment_name(3):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS))
        real_unlink(path, missing_ok)

    monkeypatch.setattr(Path, "unlink", stuck)
    play(controller, SCRIPT[STARTS[1]:STARTS[2]])
    monkeypatch.undo()
    assert segments_of(folder(tmp_path)) == [1, 2, 3]
    assert (folder(tmp_path) / segment_name(3)).stat().st_size == 0
    play(controller, SCRIPT[STARTS[2]:STARTS[2] + 3])
    assert [a.message for a in controller.alerts if a.rule == "JOURNAL"] == []
    assert (folder(tmp_path) / checkpoint_name(3)).exists()
    assert untimed(list(entries_from(folder(tmp_path), [3]))) == SCRIPT[STARTS[2] + 1:STARTS[2] + 3]
