"""systemd/dealerpi-room.service (issue 15): the room in its own hardened unit, network yes, devices no, the
database in its StateDirectory (docs/room.md)."""

from __future__ import annotations

from pathlib import Path

from systemd_kit import directives, exposure

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dealerpi-room.service"


def test_room_unit_runs_the_room_as_its_own_user_without_devices() -> None:
    found = {key: values[-1] for key, values in directives(UNIT).items()}
    assert found["ExecStart"] == "/opt/dealerpi/venv/bin/dealerpi room --config /etc/dealerpi/room.toml"
    assert (found["User"], found["StateDirectory"], found["StateDirectoryMode"]) == \
        ("dealerpi-room", "dealerpi-room", "0700")
    assert "SupplementaryGroups" not in found                 # not in the dealerpi group: no table's journal
    assert (found["PrivateDevices"], found["DevicePolicy"], found["ProtectSystem"]) == ("yes", "closed", "strict")
    assert found["IPAddressDeny"] == "any" and "192.168.0.0/16" in found["IPAddressAllow"]
    docs = (ROOT / "docs" / "room.md").read_text()
    assert 'database = "/var/lib/dealerpi-room/room.sqlite"' in docs      # inside the StateDirectory
    level = exposure(UNIT)
    assert level is None or level <= 1.0, level
