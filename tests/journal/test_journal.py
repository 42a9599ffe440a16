"""The journal (dealerpi/journal/file.py): durable appends, read-back, torn last lines, and SIGKILL survival."""

from __future__ import annotations

import errno
import logging
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from fault_kit import FaultyOps

from dealerpi.journal.file import Journal, JournalError, JournalFault, read

ROOT = Path(__file__).resolve().parents[2]


def test_append_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "state" / "journal.jsonl"
    journal, entries = Journal.open(path)
    assert entries == []
    inputs = [{"type": "table", "game": "nlhe", "rules": "home", "seats": 9, "blinds": [1, 3]},
              {"type": "sit", "seat": 3, "player": "Zoë \"Z\"\nnew line", "stack": 300},
              {"type": "act", "seat": 4, "action": "raise", "to": 120}]
    for entry in inputs:
        journal.append(entry)
    journal.close()
    assert path.read_bytes().count(b"\n") == 3          # one line per input, newlines escaped
    again, entries = Journal.open(path)
    assert entries == inputs and again.count == 3
    again.close()


@pytest.mark.parametrize("tail", [b'{"type":"act","se', b"\0\0\0\0", b'{"type":"start"}', b"\0\0\0\0}\n\0\0"])
def test_torn_last_line_is_moved_aside_then_cut(tmp_path: Path, tail: bytes,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """A last line without its newline (or NUL bytes a power cut left) was never acknowledged: its bytes go
    to a side file (synced) before the journal is cut, so nothing is lost and the next line starts clean."""
    path = tmp_path / "journal.jsonl"
    good = b'{"type":"start"}\n{"type":"card","card":"Ah"}\n'
    path.write_bytes(good + tail)
    with caplog.at_level(logging.WARNING, logger="dealerpi.journal.file"):
        journal, entries = Journal.open(path)
    assert entries == [{"type": "start"}, {"type": "card", "card": "Ah"}]
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    message = caplog.records[0].getMessage()
    assert "torn last line" in message and "journal.jsonl.torn-1" in message
    assert (tmp_path / "journal.jsonl.torn-1").read_bytes() == tail
    journal.append({"type": "undo"})
    journal.close()
    assert path.read_bytes() == good + b'{"type":"undo"}\n'
    path.write_bytes(good + tail)                        # a second torn tail gets a new side file
    Journal.open(path)[0].close()
    assert (tmp_path / "journal.jsonl.torn-2").read_bytes() == tail


@pytest.mark.parametrize("bad", [b"garbage\n", b'{"type":"start"\n', b"[1, 2]\n", b'{"card":"\xff"}\n'])
def test_a_complete_last_line_that_does_not_parse_is_corruption_and_nothing_is_touched(
        tmp_path: Path, bad: bytes) -> None:
    """Issue 12: a complete line (it has its newline) that does not parse is damage, not a torn write:
    refuse, name the file and the line, leave the file as it is."""
    path = tmp_path / "journal.jsonl"
    data = b'{"type":"start"}\n{"type":"card","card":"Ah"}\n' + bad
    path.write_bytes(data)
    with pytest.raises(JournalError, match=r"journal.jsonl: line 3 is not a JSON object"):
        Journal.open(path)
    assert path.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.jsonl"]


def test_a_bad_line_before_the_end_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b'{"type":"start"}\nnot json\n{"type":"undo"}\n')
    with pytest.raises(JournalError, match=r"journal.jsonl: line 2 is not a JSON object"):
        read(path)


GOOD = [{"type": "start"}, {"type": "card", "card": "Ah"}]


@pytest.mark.parametrize(("call", "code", "short", "words"), [
    ("write", errno.ENOSPC, False, "No space left on device (ENOSPC)"),
    ("write", errno.ENOSPC, True, "short write (14 of 28 bytes); disk full? (ENOSPC)"),
    ("write", errno.EROFS, False, "Read-only file system (EROFS)"),
    ("fdatasync", errno.EIO, False, "Input/output error (EIO)"),
])
def test_a_failed_append_is_cut_back_and_reported_never_kept(tmp_path: Path, call: str, code: int, short: bool,
                                                              words: str) -> None:
    """Issue 12 (fsyncgate): a failed write, short write or fdatasync raises JournalFault naming the error;
    the file is cut back to its last good length (no fragment for the next line to glue onto, no phantom
    for the next start to replay); once the fault is gone, appends go on from the good length."""
    ops = FaultyOps()
    path = tmp_path / "journal.jsonl"
    journal, _ = Journal.open(path, ops)
    for entry in GOOD:
        journal.append(entry)
    good = path.read_bytes()
    ops.fail(call, code, short=short)
    with pytest.raises(JournalFault) as caught:
        journal.append({"type": "card", "card": "Kd"})      # 27 characters and a newline: 28 bytes
    assert str(caught.value) == words
    assert path.read_bytes() == good and journal.count == 2
    ops.heal()
    journal.append({"type": "card", "card": "7c"})
    journal.close()
    assert read(path)[0] == [*GOOD, {"type": "card", "card": "7c"}]


def test_when_even_the_cut_fails_the_next_append_cuts_first(tmp_path: Path) -> None:
    """An EIO on fsync, then the truncate fails too (the disk went read-only): the fragment's fate is
    unknown, so the next append (or probe) first cuts back to the good length and syncs."""
    ops = FaultyOps()
    path = tmp_path / "journal.jsonl"
    journal, _ = Journal.open(path, ops)
    journal.append(GOOD[0])
    ops.fail("fdatasync", errno.EIO)
    ops.fail("ftruncate", errno.EROFS)
    with pytest.raises(JournalFault, match=r"EIO"):
        journal.append(GOOD[1])
    assert path.read_bytes() == b'{"type":"start"}\n{"type":"card","card":"Ah"}\n'   # the line is still there
    with pytest.raises(JournalFault, match=r"Read-only file system \(EROFS\)"):
        journal.probe()
    ops.heal()
    journal.probe()
    assert path.read_bytes() == b'{"type":"start"}\n'
    journal.append({"type": "undo"})
    assert read(path)[0] == [GOOD[0], {"type": "undo"}]
    assert not list(tmp_path.glob(".*probe"))                 # the probe file is gone


CHILD = textwrap.dedent("""
    import os, sys, time
    import dealerpi.journal.file as journal_module
    from pathlib import Path

    if sys.argv[2] == "split":
        # write each line in two halves with a pause between: a kill can land mid-line, as a power cut would
        real_write = os.write
        def split_write(fd, data):
            half = max(1, len(data) // 2)
            real_write(fd, data[:half])
            time.sleep(0.0005)
            return half + real_write(fd, data[half:])
        journal_module.os.write = split_write
    journal, entries = journal_module.Journal.open(Path(sys.argv[1]))
    n = len(entries)
    while True:
        journal.append({"type": "tick", "seconds": n, "pad": "x" * (n % 97)})
        sys.stdout.write(f"{n}\\n")     # acknowledged: the input is durable
        sys.stdout.flush()
        n += 1
""")


@pytest.mark.slow   # a child SIGKILLed at random points: 6 s
def test_sigkill_at_random_points_leaves_a_complete_prefix(tmp_path: Path) -> None:
    """Kill a writer 60 times at random moments; every acknowledged input must be read back, in order,
    with nothing invented (a prefix of the sequence the writer was producing)."""
    path = tmp_path / "journal.jsonl"
    rnd = random.Random(20240611)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    highest_ack = -1
    kills = torn = 0
    for round_number in range(60):
        mode = "split" if round_number % 2 else "whole"
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), mode], stdout=subprocess.PIPE, env=env)
        first = b""
        if mode == "split":
            assert child.stdout is not None
            first = child.stdout.readline()     # writing has begun: the kill lands among the writes
            time.sleep(rnd.uniform(0.0, 0.02))
        else:
            time.sleep(rnd.uniform(0.03, 0.15))  # anywhere, start-up and read-back included
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        out = first + out
        kills += child.returncode == -signal.SIGKILL
        acks = [int(line) for line in out.decode().split()]
        if acks:
            highest_ack = max(highest_ack, acks[-1])
        entries, good = read(path)
        torn += path.exists() and good < path.stat().st_size
        assert entries == [{"type": "tick", "seconds": n, "pad": "x" * (n % 97)} for n in range(len(entries))]
        assert len(entries) >= highest_ack + 1, "an acknowledged input was lost"
    assert kills >= 50
    assert highest_ack > 30         # the writer got going
    assert torn >= 3                # and kills did land mid-line (the split writes make that likely)
    print(f"kills {kills}, acknowledged {highest_ack + 1}, torn lines recovered {torn}")
