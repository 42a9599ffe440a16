"""The journal (dealerpi/journal.py): durable appends, read-back, torn last lines, and SIGKILL survival."""

from __future__ import annotations

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

from dealerpi.journal import Journal, JournalError, read

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


@pytest.mark.parametrize("tail", [b'{"type":"act","se', b"\0\0\0\0", b'{"type":"start"}', b"garbage\n\0\0"])
def test_torn_last_line_is_dropped_with_a_warning_and_cut(tmp_path: Path, tail: bytes,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "journal.jsonl"
    good = b'{"type":"start"}\n{"type":"card","card":"Ah"}\n'
    path.write_bytes(good + tail)
    with caplog.at_level(logging.WARNING, logger="dealerpi.journal"):
        journal, entries = Journal.open(path)
    assert entries == [{"type": "start"}, {"type": "card", "card": "Ah"}]
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "torn last line" in caplog.records[0].getMessage()
    journal.append({"type": "undo"})
    journal.close()
    assert path.read_bytes() == good + b'{"type":"undo"}\n'


def test_a_bad_line_before_the_end_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b'{"type":"start"}\nnot json\n{"type":"undo"}\n')
    with pytest.raises(JournalError, match=r"journal.jsonl: line 2 is not a JSON object"):
        read(path)


CHILD = textwrap.dedent("""
    import os, sys, time
    import dealerpi.journal as journal_module
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
