"""``dealerpi broadcast``: a bad config is the settings' lines on stderr and status 2, never a traceback; a
damaged state file names itself and the process stops with status 1 (issue 21, house rules)."""

from __future__ import annotations

from pathlib import Path

import pytest
from console_kit import make

from dealerpi.cli import main


def test_a_bad_config_says_the_key_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make(tmp_path)
    config = tmp_path / "broadcast.toml"
    config.write_text('[broadcast]\ntable = "table.toml"\ndelay_minutes = 500\n')
    assert main(["broadcast", "--config", str(config)]) == 2
    assert capsys.readouterr().err == (f"{config}: broadcast.delay_minutes: must be a whole number from 0 to 120, "
                                       "not 500\n")
    missing = tmp_path / "none.toml"
    assert main(["broadcast", "--config", str(missing)]) == 2
    assert capsys.readouterr().err == f"{missing}: No such file or directory\n"


def test_a_damaged_session_file_is_named_and_status_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make(tmp_path)
    config = tmp_path / "broadcast.toml"
    config.write_text('[broadcast]\ntable = "table.toml"\nlisten = "127.0.0.1:0"\nstate = "bstate"\n')
    (tmp_path / "bstate").mkdir(mode=0o700)
    (tmp_path / "bstate" / "session.json").write_text("{not json")
    assert main(["broadcast", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"dealerpi broadcast: {tmp_path / 'bstate' / 'session.json'}: not JSON (")
    assert err.endswith("delete the folder's files to start a new session (the delayed feed then waits a full "
                        "delay again)\n")
    assert "Traceback" not in err
