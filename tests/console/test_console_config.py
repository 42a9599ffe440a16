"""The config's [console] section (docs/console.md): defaults, paths relative to the file, errors by key."""

from __future__ import annotations

from pathlib import Path

import pytest
from daemon_kit import CONFIG

from dealerpi.config import ConfigError, ConsoleSettings, load


def write(tmp_path: Path, section: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG + section)
    return path


def test_no_section_no_local_api(tmp_path: Path) -> None:
    assert load(write(tmp_path, "")).console is None


def test_defaults_and_relative_paths(tmp_path: Path) -> None:
    assert load(write(tmp_path, "\n[console]\n")).console == ConsoleSettings(
        Path("/run/dealerpi/api.sock"), "127.0.0.1:8765", Path("/var/lib/dealerpi-console"))
    settings = load(write(tmp_path, '\n[console]\nsocket = "run/api.sock"\nlisten = "0.0.0.0:9000"\n')).console
    assert settings is not None
    assert settings.socket == tmp_path / "run" / "api.sock"
    assert settings.listen_address() == ("0.0.0.0", 9000)
    assert ConsoleSettings(listen="[::1]:8765").listen_address() == ("::1", 8765)


def test_errors_name_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, '\n[console]\nlisten = "8765"\nport = 1\nsocket = "/' + "x" * 120 + '"\n')
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert caught.value.errors == [
        f"{path}: console.port: unknown key (expected one of: socket, listen, state)",
        f"{path}: console.socket: /{'x' * 120} is longer than a Unix socket path may be (107 bytes)",
        f"{path}: console.listen: must be host:port, e.g. 127.0.0.1:8765 or 0.0.0.0:8765, not '8765'",
    ]
