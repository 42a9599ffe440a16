"""systemd/dealerpi-console.service (issue 14): its own hardened unit, network yes, devices no, exposure at
most 2.0 by ``systemd-analyze security --offline=true`` (1.1 on Debian 12 when written), no token on the
command line. Where the tool is missing the directives the score is made of are checked instead."""

from __future__ import annotations

from pathlib import Path

from systemd_kit import directives, exposure

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dealerpi-console.service"
DAEMON = ROOT / "systemd" / "dealerpi.service"


def test_own_user_network_yes_devices_no_and_no_token_on_the_command_line() -> None:
    d = directives(UNIT)
    assert d["ExecStart"] == ["/opt/dealerpi/venv/bin/dealerpi console --config /etc/dealerpi/dealerpi.toml"]
    assert (d["User"], d["SupplementaryGroups"]) == (["dealerpi-console"], ["dealerpi"])
    assert (d["PrivateDevices"], d["DevicePolicy"]) == (["yes"], ["closed"])
    assert d["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]
    assert "PrivateNetwork" not in d
    assert (d["StateDirectoryMode"], d["UMask"]) == (["0700"], ["0077"])


def test_the_daemon_keeps_off_the_network_and_makes_the_socket_directory() -> None:
    d = directives(DAEMON)
    assert (d["PrivateNetwork"], d["RestrictAddressFamilies"]) == (["yes"], ["AF_UNIX"])
    assert (d["RuntimeDirectory"], d["RuntimeDirectoryMode"]) == (["dealerpi"], ["0750"])


def test_hardening_exposure_at_most_2_0() -> None:
    score = exposure(UNIT)
    if score is not None:
        assert score <= 2.0
    else:
        d = directives(UNIT)
        for key in ("NoNewPrivileges", "PrivateTmp", "PrivateUsers", "ProtectHome", "ProtectKernelTunables",
                    "ProtectKernelModules", "ProtectKernelLogs", "ProtectControlGroups", "ProtectClock",
                    "ProtectHostname", "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID",
                    "LockPersonality", "MemoryDenyWriteExecute"):
            assert d[key] == ["yes"], key
        assert (d["ProtectSystem"], d["CapabilityBoundingSet"], d["IPAddressDeny"]) == (["strict"], [""], ["any"])
