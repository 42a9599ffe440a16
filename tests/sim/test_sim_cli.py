"""`dealerpi sim` on the command line: the URL it prints, tokens only in the console's files off 127.0.0.1 (never on
the command line), the journal it starts from and resumes."""

from __future__ import annotations

import argparse
import json
import re
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dealerpi.sim.server import START_JOURNAL, main, prepare_journal


def _run(args: list[str], out: Path) -> tuple[subprocess.Popen[bytes], str]:
    log = out.parent / "sim.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "dealerpi", "sim", "--no-browser", "--port", "0",
                                    "--out", str(out), *args], stdout=sink, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90                  # a loaded 2-core machine starts Python slowly
    while time.monotonic() < deadline and process.poll() is None:
        text = log.read_text()
        if "journal: " in text:
            return process, text
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"dealerpi sim did not start:\n{log.read_text()}")


def _status(url: str, token: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Cookie": f"dealerpi_console={token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.slow   # the real sim server started and stopped: 6 s
def test_listening_beyond_loopback_needs_the_token_of_the_pairing_file(tmp_path: Path) -> None:
    """House rules: listeners bind 127.0.0.1 unless told otherwise; then nothing is shown without a token,
    and the tokens are in the console's files (0600), not on stdout or a command line (issue 14)."""
    out = tmp_path / "out"
    process, text = _run(["--host", "0.0.0.0"], out)
    try:
        port = re.search(r"DealerPi simulator on 0\.0\.0\.0:(\d+): the URLs with their tokens are in (\S+)\n", text)
        assert port is not None, text
        pairing = Path(port.group(2))
        assert pairing == out / "console" / "pairing.txt"
        assert stat.S_IMODE(pairing.stat().st_mode) == 0o600
        tokens = json.loads((out / "console" / "tokens.json").read_text())
        for token in tokens.values():
            assert token not in text and token in pairing.read_text()
        base = f"http://127.0.0.1:{port.group(1)}"
        assert _status(f"{base}/panel") == 401
        assert _status(f"{base}/journal.jsonl") == 401
        assert _status(f"{base}/panel", tokens["dealer"]) == 403
        assert _status(f"{base}/panel", tokens["host"]) == 200
    finally:
        process.terminate()
        process.wait(10)


@pytest.mark.slow   # the real sim server started and stopped: 4 s
def test_by_default_it_serves_127_0_0_1_without_a_token(tmp_path: Path) -> None:
    process, text = _run([], tmp_path / "out")
    try:
        url = re.search(r"DealerPi simulator: (http://127\.0\.0\.1:\d+/panel)\n", text)
        assert url is not None, text
        assert _status(url.group(1)) == 200
    finally:
        process.terminate()
        process.wait(10)


def test_there_is_no_token_option(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 14: `ps` showed the token of `sim --token`; the option is gone."""
    with pytest.raises(SystemExit) as exit_:
        main(["--token", "secret"])
    assert exit_.value.code == 2
    assert "unrecognized arguments: --token secret" in capsys.readouterr().err


def _args(tmp_path: Path, journal: Path | None) -> argparse.Namespace:
    return argparse.Namespace(out=tmp_path / "out", journal=journal)


def test_a_given_journal_is_copied_and_an_out_folder_is_resumed(tmp_path: Path) -> None:
    source = tmp_path / "evening.jsonl"
    lines = START_JOURNAL.read_text().splitlines() + [json.dumps({"type": "start"})]
    source.write_text("\n".join(lines))                        # no newline at the end: one is added
    out = prepare_journal(_args(tmp_path, source))
    first = out / "journal" / "000001.jsonl"                   # the journal folder's first segment
    assert first.read_text() == "\n".join(lines) + "\n"
    assert source.read_text() == "\n".join(lines)            # the given file is not changed
    first.write_text(first.read_text() + '{"type": "card", "card": "Ah"}\n')
    assert prepare_journal(_args(tmp_path, None)) == out      # the same --out goes on from its journal
    assert first.read_text().endswith('"Ah"}\n')
    with pytest.raises(FileExistsError, match="fresh --out"):
        prepare_journal(_args(tmp_path, source))


def test_a_damaged_journal_is_refused_before_anything_starts(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "table"}\nnot json\n{"type": "start"}\n')
    assert main(["--no-browser", "--journal", str(bad), "--out", str(tmp_path / "out")]) == 2
    assert not (tmp_path / "out" / "journal").exists()                # nothing half made
    assert "line 2 is not a JSON object" in capsys.readouterr().err
    assert main(["--no-browser", "--journal", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such journal file" in capsys.readouterr().err


def test_the_virtual_shoe_needs_fake_devices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`dealerpi run --shoe virtual` on a config of real devices (devices = "pi") is refused before any device
    is touched (exit status 2); with --fake the same config passes that check (the positive control stops
    at the journal: its folder is a file here; run by hand, not under systemd, the daemon says so and exits
    with 2, docs/journal.md)."""
    from daemon_kit import CONFIG

    from dealerpi.cli import run_table

    config = tmp_path / "table.toml"
    config.write_text(CONFIG.replace('devices = "fake"', 'devices = "pi"'))
    assert run_table(["--config", str(config), "--shoe", "virtual"]) == 2
    assert capsys.readouterr().err == ("dealerpi run: --shoe virtual is the simulator's shoe: add --fake (real devices "
                                       "read the shoe on its port)\n")
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "journal").write_text("not a folder")
    assert run_table(["--config", str(config), "--shoe", "virtual", "--fake"]) == 2
    assert "--shoe virtual" not in capsys.readouterr().err


def test_the_daemon_takes_the_simulators_shoe_only_when_handed_it(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: the daemon imports no simulator. Called without the simulator's parts (as a program other than
    the ``dealerpi`` shell would), ``--shoe virtual --fake`` is refused with one line, before any device or the
    journal is touched (its folder is not made)."""
    from daemon_kit import CONFIG

    from dealerpi.table import daemon

    config = tmp_path / "table.toml"
    config.write_text(CONFIG)
    assert daemon.main(["--config", str(config), "--shoe", "virtual", "--fake"]) == 2
    assert capsys.readouterr().err == ("dealerpi run: --shoe virtual needs the simulator's parts: run it as "
                                       "`dealerpi run` or `dealerpi sim`\n")
    assert not (tmp_path / "state").exists()
