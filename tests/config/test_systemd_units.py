"""systemd/dealerpi.service and the shoe's udev rule (issue 5).

The hardening score comes from ``systemd-analyze security --offline=true`` when the tool is installed (it
is on Debian 12, where this was written: 0.4). Where it is missing the test checks the directives that
score is made of instead, so it never silently passes on nothing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dealerpi.service"
RULE = ROOT / "systemd" / "99-dealerpi-shoe.rules"

HARDENING = {
    "NoNewPrivileges": "yes", "PrivateTmp": "yes", "PrivateNetwork": "yes", "PrivateUsers": "yes",
    "ProtectSystem": "strict", "ProtectHome": "yes", "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes", "ProtectControlGroups": "yes",
    "ProtectClock": "yes", "ProtectHostname": "yes", "RestrictNamespaces": "yes", "RestrictRealtime": "yes",
    "RestrictSUIDSGID": "yes", "LockPersonality": "yes", "MemoryDenyWriteExecute": "yes",
    "CapabilityBoundingSet": "", "RestrictAddressFamilies": "AF_UNIX", "IPAddressDeny": "any",
    "DevicePolicy": "closed", "SystemCallArchitectures": "native",
}


def directives() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def test_service_is_notify_with_watchdog_restart_and_a_dedicated_user() -> None:
    d = directives()
    assert d["Type"] == ["notify"]
    assert d["WatchdogSec"] == ["10"]
    assert d["Restart"] == ["on-failure"]
    assert d["User"] == ["dealerpi"]
    assert d["SupplementaryGroups"] == ["gpio i2c dialout"]
    assert d["ExecStart"] == ["/opt/dealerpi/venv/bin/dealerpi run --config /etc/dealerpi/dealerpi.toml"]
    assert sorted(d["DeviceAllow"]) == ["char-gpiochip rw", "char-i2c rw", "char-ttyACM rw", "char-ttyUSB rw"]


def test_hardening_exposure_at_most_1_0() -> None:
    tool = shutil.which("systemd-analyze")
    if tool is not None:
        result = subprocess.run([tool, "security", "--offline=true", str(UNIT)], capture_output=True,
                                text=True, check=False, timeout=60)
        match = re.search(r"Overall exposure level for dealerpi\.service: (\d+\.\d+)", result.stdout)
        assert match is not None, result.stdout + result.stderr
        assert float(match.group(1)) <= 1.0
    else:
        d = directives()
        assert {key: d.get(key, [None])[-1] for key in HARDENING} == HARDENING


def test_udev_rule_names_the_pico_shoe() -> None:
    rules = [line for line in RULE.read_text().splitlines() if line and not line.startswith("#")]
    assert len(rules) == 1
    keys = dict(re.findall(r'([A-Z_]+(?:\{[A-Za-z_]+\})?)(?:==|\+=|=)"([^"]*)"', rules[0]))
    assert keys == {"SUBSYSTEM": "tty", "ATTRS{idVendor}": "2e8a", "ATTRS{idProduct}": "0005",
                    "SYMLINK": "dealerpi-shoe", "GROUP": "dialout", "MODE": "0660",
                    "ENV{ID_MM_DEVICE_IGNORE}": "1"}
