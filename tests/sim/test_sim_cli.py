"""`dealerpi sim` on the command line: the URL it prints, the token off 127.0.0.1, the journal it starts from."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dealerpi.sim.server import START_JOURNAL, main, prepare_journal


def _run(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen([sys.executable, "-m", "dealerpi", "sim", "--no-browser", "--port", "0", *args],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if match := re.search(r"DealerPi simulator: (\S+)", line):
            return process, match.group(1)
        assert line or process.poll() is None, "dealerpi sim stopped"
    raise AssertionError("no URL printed")


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_listening_beyond_loopback_needs_the_printed_token(tmp_path: Path) -> None:
    """House rules: listeners bind 127.0.0.1 unless configured; then nothing is shown without the token."""
    process, url = _run(["--host", "0.0.0.0", "--out", str(tmp_path)])
    try:
        match = re.fullmatch(r"http://[^/:]+:(\d+)/\?token=([\w-]{16,})", url)
        assert match, url
        port, token = match.groups()
        assert _status(f"http://127.0.0.1:{port}/") == 401
        assert _status(f"http://127.0.0.1:{port}/download/journal.jsonl") == 401
        assert _status(f"http://127.0.0.1:{port}/?token={token}") == 200
    finally:
        process.terminate()
        process.wait(10)


def test_by_default_it_serves_127_0_0_1_without_a_token(tmp_path: Path) -> None:
    process, url = _run(["--out", str(tmp_path)])
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)
        assert _status(url) == 200
    finally:
        process.terminate()
        process.wait(10)


def _args(tmp_path: Path, journal: Path | None) -> argparse.Namespace:
    return argparse.Namespace(out=tmp_path / "out", journal=journal)


def test_a_given_journal_is_copied_and_an_out_folder_is_resumed(tmp_path: Path) -> None:
    source = tmp_path / "evening.jsonl"
    lines = START_JOURNAL.read_text().splitlines() + [json.dumps({"type": "start"})]
    source.write_text("\n".join(lines))                        # no newline at the end: one is added
    journal = prepare_journal(_args(tmp_path, source))
    assert journal.read_text() == "\n".join(lines) + "\n"
    assert source.read_text() == "\n".join(lines)            # the given file is not changed
    journal.write_text(journal.read_text() + '{"type": "card", "card": "Ah"}\n')
    assert prepare_journal(_args(tmp_path, None)) == journal   # the same --out goes on from its journal
    assert journal.read_text().endswith('"Ah"}\n')
    with pytest.raises(FileExistsError, match="fresh --out"):
        prepare_journal(_args(tmp_path, source))


def test_a_damaged_journal_is_refused_before_anything_starts(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "table"}\nnot json\n{"type": "start"}\n')
    assert main(["--no-browser", "--journal", str(bad), "--out", str(tmp_path / "out")]) == 2
    assert "line 2 is not a JSON object" in capsys.readouterr().err
    assert main(["--no-browser", "--journal", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such journal file" in capsys.readouterr().err
