"""``dealerpi doctor`` (issue 13): one line per check with its fix, on a fake Pi 5 tree and on fake devices."""

from __future__ import annotations

import grp
import os
import pwd
import sys
from pathlib import Path
from typing import Any

import pytest
from pi_trees import PI5_NEW, build_gpio, build_muxes

from dealerpi.config import load
from dealerpi.doctor.main import Context, gpiozero_honours_chip, main, run_checks

ROOT = Path(__file__).resolve().parents[2]
ME = pwd.getpwuid(os.getuid()).pw_name


@pytest.mark.parametrize(("version", "honours"), [
    ("2.0", False), ("2.0.1", False), ("2.0.1.post1", True), ("2.0.1.post3", True), ("2.1", True),
    ("1.6.2", False)])
def test_gpiozero_versions_that_honour_chip(version: str, honours: bool) -> None:
    """gpiozero#1162: 2.0 and 2.0.1 overwrite chip=; the fix (PR #1181) shipped in 2.0.1.post1."""
    assert gpiozero_honours_chip(version) is honours


def _config(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    (state / "decks").mkdir(parents=True, exist_ok=True)
    config = tmp_path / "table.toml"
    config.write_text((ROOT / "hardware" / "example.toml").read_text().replace("/var/lib/dealerpi", str(state))
                      .replace('port = "/dev/dealerpi-shoe"', 'port = "loop://"'))
    return config


def _boot(tmp_path: Path, buses: range = range(11, 27)) -> dict[str, Any]:
    """A healthy Pi's /dev (i2c-N for the bus and every mux channel), config.txt (hardware/config.txt after the
    stock file), /proc/devices and modules-load.d (systemd/modules-load-dealerpi.conf installed)."""
    dev = tmp_path / "dev"
    dev.mkdir()
    for bus in [1, *buses]:
        (dev / f"i2c-{bus}").touch()
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("dtparam=audio=on\n" + (ROOT / "hardware" / "config.txt").read_text())
    devices = tmp_path / "devices"
    devices.write_text("Character devices:\n  1 mem\n 89 i2c\n166 ttyACM\n254 gpiochip\n\nBlock devices:\n"
                       "  8 sd\n")
    load_d = tmp_path / "modules-load.d"
    load_d.mkdir()
    (load_d / "dealerpi.conf").write_text((ROOT / "systemd" / "modules-load-dealerpi.conf").read_text())
    return {"dev": dev, "config_txt": config_txt, "proc_devices": devices, "modules_load": (load_d,)}


def test_doctor_on_a_healthy_pi5_tree(tmp_path: Path) -> None:
    """Pi 5, new numbering, all four expanders and both muxes bound, idle_state -2, every display answering:
    every hardware line is OK and names the chip it found and the lines the config uses on it."""
    tree = dict(PI5_NEW)
    bus, info = build_gpio(tmp_path / "gpio", tree)
    i2c = build_muxes(tmp_path / "i2c", {"1-0070": 0x70, "1-0071": 0x71})
    for address in range(0x20, 0x24):
        (i2c / f"1-00{address:02x}").mkdir()
        (i2c / f"1-00{address:02x}" / "driver").symlink_to(i2c.parent / "drivers" / "pca954x")
    probed: list[tuple[int, int]] = []
    config = load(_config(tmp_path))

    def probe(bus: int, address: int) -> bool:
        probed.append((bus, address))
        return True

    ctx = Context(config, fake=False, user=ME, unit=None, sysfs_i2c=i2c, sysfs_gpio=bus, chip_info=info,
                  probe=probe, **_boot(tmp_path))
    lines = [str(check) for check in run_checks(ctx)]
    assert "OK    header chip: gpiochip0 [pinctrl-rp1] (54 lines, on 1f000d0000.gpio); lines used none" in lines
    assert ("OK    expander x3 chip: gpiochip4 [mcp23017] (16 lines, on 1-0023); lines used 0,1,2,3,4,5,6,7,8,9"
            in lines)
    assert "OK    multiplexer m1 idle_state: -2 (disconnects after each transfer)" in lines
    # the dealer display is m1 channel 2: mux m0 has buses 11-18, m1 19-26, so channel 2 of m1 is i2c-21
    assert "OK    dealer display: m1/2@0x3c is i2c-21 0x3c: answers" in lines
    assert sorted(probed) == sorted([(11 + ch, 0x3C) for ch in range(8)] + [(19, 0x3C), (20, 0x3C), (21, 0x3C)])
    hardware = [line for line in lines if line.split(":")[0].split(None, 1)[1].startswith(
        ("header", "expander", "multiplexer", "dealer", "seat"))]
    assert len(hardware) == 5 + 4 + 2 * 2 + 11
    assert all(line.startswith("OK") for line in hardware), hardware
    boot = [line for line in lines if line.split(":")[0].split(None, 1)[1].startswith(("config.txt", "module"))]
    assert len(boot) == 4 + 2 + 1 and all(   # the shoe is loop://: no cdc_acm needed
        line.startswith("OK") for line in boot), boot
    assert "OK    config.txt expander x1: addr=0x21 gpiopin=27 = interrupt GPIO27" in boot


def test_doctor_names_each_fault_with_its_fix(tmp_path: Path) -> None:
    """x1's chip missing, m0 still joining channels, seat 4's display silent (m0 channel 3 = i2c-14)."""
    tree = dict(PI5_NEW)
    del tree[2]                                            # x1 = 1-0021
    bus, info = build_gpio(tmp_path / "gpio", tree)
    i2c = build_muxes(tmp_path / "i2c", {"1-0070": 0x70, "1-0071": 0x71})
    (i2c / "1-0070" / "idle_state").write_text("-1\n")
    config = load(_config(tmp_path))
    ctx = Context(config, fake=False, user=ME, unit=None, sysfs_i2c=i2c, sysfs_gpio=bus, chip_info=info,
                  probe=lambda bus, address: bus != 14, **_boot(tmp_path))
    failed = [str(check) for check in run_checks(ctx) if check.status == "FAIL"]
    assert ("FAIL  expander x1 chip: expander x1: no mcp23017 gpiochip on I2C 1-0021; check "
            "dtoverlay=mcp23017,addr=0x21 in /boot/firmware/config.txt, the chip's address pins and wiring, and "
            "`dmesg | grep -i mcp23`") in failed
    assert ("FAIL  multiplexer m0 idle_state: -1, must be -2 with two or more multiplexers (0x3C displays on two "
            "muxes answer together): install systemd/99-dealerpi-i2c-mux.rules and reboot (docs/install-pi.md "
            "step 8)") in failed
    assert ("FAIL  seat 4 display: m0/3@0x3c is i2c-14 0x3c: no answer; check its cable, power and address "
            "(i2cdetect -y 14)") in failed


def test_doctor_with_fake_devices_exits_0_when_the_paths_are_right(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """What CI runs: fakes stand in for chips and I2C, the rest is checked for the user running the fakes."""
    assert main(["--config", str(_config(tmp_path)), "--fake"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert f"OK    python: {sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro} at " \
           f"{sys.executable}" in out
    assert "SKIP  chip x0: fake (gpiozero MockFactory); lines 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14" in out
    assert f"OK    journal directory: {tmp_path / 'state'} writable by {ME}" in out
    assert "OK    shoe port: loop:// (a pyserial URL)" in out
    assert out[-1].endswith(", 0 failed (fake devices)")


def test_doctor_fails_on_a_journal_directory_the_user_cannot_write(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path)
    (tmp_path / "state").chmod(0o500)
    user = "nobody" if os.getuid() == 0 else ME
    try:
        assert main(["--config", str(config), "--fake", "--user", user]) == 1
    finally:
        (tmp_path / "state").chmod(0o700)
    out = capsys.readouterr().out
    assert (f"FAIL  journal directory: {tmp_path / 'state'} missing or not writable by {user}: "
            f"sudo install -d -o {user} -g {user} -m 0750 {tmp_path / 'state'}") in out


def test_doctor_checks_the_service_users_groups(tmp_path: Path) -> None:
    """On a Pi the service user needs gpio, i2c and dialout (the unit's SupplementaryGroups)."""
    config = load(_config(tmp_path))
    groups = {grp.getgrgid(gid).gr_name for gid in os.getgrouplist(ME, pwd.getpwnam(ME).pw_gid)}
    lacking = [g for g in ("gpio", "i2c", "dialout") if g not in groups]
    ctx = Context(config, fake=False, user=ME, unit=None, sysfs_i2c=tmp_path, sysfs_gpio=tmp_path,
                  chip_info=lambda n: ("", 0), probe=lambda bus, address: True)
    line = next(str(c) for c in run_checks(ctx) if c.what == "groups")
    if lacking:
        assert line == f"FAIL  groups: {ME} lacks {','.join(lacking)}: sudo usermod -aG {','.join(lacking)} {ME}"
    else:
        assert line == f"OK    groups: {ME} is in gpio,i2c,dialout"


def test_doctor_flags_a_unit_without_a_writable_working_directory(tmp_path: Path) -> None:
    """The old unit (no WorkingDirectory=: /, read-only under ProtectSystem=strict) fails the check."""
    unit = tmp_path / "dealerpi.service"
    unit.write_text("\n".join(line for line in (ROOT / "systemd" / "dealerpi.service").read_text().splitlines()
                              if not line.startswith(("WorkingDirectory=", "Environment=LG_WD"))))
    ctx = Context(load(_config(tmp_path)), fake=True, user=ME, unit=unit)
    line = next(str(c) for c in run_checks(ctx) if c.what == "unit working directory")
    assert line == ("FAIL  unit working directory: WorkingDirectory=/ is not writable under ProtectSystem= "
                    "(lgpio's notify pipe, joan2937/lg#22): use /var/lib/dealerpi, the StateDirectory")
    ok = Context(load(_config(tmp_path)), fake=True, user=ME, unit=ROOT / "systemd" / "dealerpi.service")
    line = next(str(c) for c in run_checks(ok) if c.what == "unit working directory")
    assert line.startswith("OK    unit working directory: /var/lib/dealerpi (")
