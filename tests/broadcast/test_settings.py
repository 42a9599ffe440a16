"""``[broadcast]`` settings: every bad value is an error naming the file and the key; a zero delay needs its
explicit flag (issue 21: "0 only with an explicit flag"); the table's config gives the socket and journal."""

from __future__ import annotations

from pathlib import Path

import pytest
from console_kit import make

from dealerpi.broadcast.settings import SettingsError, load


def _write(tmp_path: Path, body: str) -> Path:
    make(tmp_path)                                       # table.toml with [console] socket = "run/api.sock"
    path = tmp_path / "broadcast.toml"
    path.write_text('[broadcast]\ntable = "table.toml"\n' + body)
    return path


def test_defaults_and_paths_from_the_tables_config(tmp_path: Path) -> None:
    settings = load(_write(tmp_path, ""))
    assert (settings.delay_ms, settings.sync_ms, settings.listen) == (30 * 60_000, 0, "127.0.0.1:8790")
    assert settings.socket == tmp_path / "run" / "api.sock"
    assert settings.journal == tmp_path / "state" / "journal.jsonl"
    assert settings.state == Path("/var/lib/dealerpi-broadcast")


@pytest.mark.parametrize(("body", "message"), [
    ("delay_minutes = 0\n", "broadcast.delay_minutes: 0 shows live hole cards on the broadcast feed: set no_delay "
                            "= true as well if that is what you want"),
    ("delay_minutes = 121\n", "broadcast.delay_minutes: must be a whole number from 0 to 120, not 121"),
    ("delay_minutes = 2.5\n", "broadcast.delay_minutes: must be a whole number from 0 to 120, not 2.5"),
    ("sync_ms = -1\n", "broadcast.sync_ms: must be a whole number from 0 to 10000, not -1"),
    ("listen = \"8790\"\n", "broadcast.listen: must be host:port, e.g. 127.0.0.1:8790, not '8790'"),
    ("no_delay = \"yes\"\n", "broadcast.no_delay: must be true or false"),
    ("delay = 5\n", "broadcast.delay: unknown key (expected one of: table, listen, state, delay_minutes, "
                    "min_delay_minutes, no_delay, sync_ms, mqtt, room_url, room_token_file)"),
    ("delay_minutes = 15\nmin_delay_minutes = 20\n",
     "broadcast.min_delay_minutes: the dynamic delay's least delay, at most delay_minutes (15), not 20"),
    ("min_delay_minutes = 0\n", "broadcast.min_delay_minutes: 0 would show live hole cards after a break: at least 1"),
    ("room_url = \"room:8790\"\n", "broadcast.room_url: the room's page, http://HOST:PORT, not 'room:8790'"),
    ("room_url = \"http://room:8790\"\nroom_token_file = \"nope\"\n",
     "broadcast.room_token_file: {tmp}/nope: No such file or directory"),
])
def test_a_bad_value_names_the_file_and_the_key(tmp_path: Path, body: str, message: str) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(SettingsError) as error:
        load(path)
    assert str(error.value) == f"{path}: {message.format(tmp=tmp_path)}"


def test_the_dynamic_delay_and_the_rooms_statistics(tmp_path: Path) -> None:
    """Issue 21: breaks skipped down to min_delay_minutes (default: the delay, no skip); the room's board token
    read from its file (the file's one line), the URL without its last slash."""
    (tmp_path / "room-token").write_text("abcdefghijklmnopqrstuv\n")
    settings = load(_write(tmp_path, 'delay_minutes = 30\nmin_delay_minutes = 15\nroom_url = "http://room:8790/"\n'))
    assert (settings.delay_ms, settings.floor_ms) == (30 * 60_000, 15 * 60_000)
    assert (settings.room_url, settings.room_token) == ("http://room:8790", "abcdefghijklmnopqrstuv")
    default = load(_write(tmp_path, "delay_minutes = 30\n"))
    assert (default.floor_ms, default.room_url, default.room_token) == (None, None, None)


def test_zero_delay_with_its_flag(tmp_path: Path) -> None:
    assert load(_write(tmp_path, "delay_minutes = 0\nno_delay = true\n")).delay_ms == 0
