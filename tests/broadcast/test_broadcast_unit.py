"""systemd/dealerpi-broadcast.service (issue 21): its own hardened unit, network yes, devices no, running as the
daemon's user (the only one the daemon's PrivateUsers=yes namespace can tell apart from the console's, see
dealerpi/wire/broadcast.py) with a read-only system, a 0700 state folder, exposure at most 2.0 by
``systemd-analyze security --offline=true`` (1.0 on Debian 12 when written)."""

from __future__ import annotations

from pathlib import Path

from systemd_kit import directives, exposure

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dealerpi-broadcast.service"
DAEMON = ROOT / "systemd" / "dealerpi.service"


def test_the_daemons_user_a_read_only_system_and_a_private_state_folder() -> None:
    d = directives(UNIT)
    assert d["ExecStart"] == ["/opt/dealerpi/venv/bin/dealerpi broadcast --config /etc/dealerpi/broadcast.toml"]
    assert d["User"] == directives(DAEMON)["User"] == ["dealerpi"]
    assert directives(DAEMON)["PrivateUsers"] == ["yes"]        # why: any other user is "nobody" to the daemon
    assert (d["ProtectSystem"], d["ReadOnlyPaths"]) == (["strict"], ["/var/lib/dealerpi /etc/dealerpi"])
    assert (d["StateDirectory"], d["StateDirectoryMode"], d["UMask"]) == (["dealerpi-broadcast"], ["0700"], ["0077"])
    assert (d["PrivateDevices"], d["DevicePolicy"]) == (["yes"], ["closed"])
    assert d["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    assert d["IPAddressDeny"] == ["any"]


def test_hardening_exposure_at_most_2_0() -> None:
    score = exposure(UNIT)
    assert score is None or score <= 2.0
    d = directives(UNIT)
    for key in ("NoNewPrivileges", "PrivateTmp", "PrivateUsers", "ProtectHome", "ProtectKernelTunables",
                "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups", "ProtectClock",
                "ProtectHostname", "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID",
                "LockPersonality", "MemoryDenyWriteExecute"):
        assert d[key] == ["yes"], key
