"""Issue 23 items 2 and 3: the doctor reads config.txt against the config, the modules the unit's DeviceAllow=
needs at its start, tells a missing /dev/i2c-N from a silent display, reads each button line's idle level, and
runs its device checks with the installed unit's own sandbox (systemd-run properties). The sandbox itself is
checked under a real systemd in tests/systemd/test_real_systemd.py."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from config_kit import MINIMAL, write

from dealerpi.config import load
from dealerpi.doctor.boot import check_config_txt, check_modules
from dealerpi.doctor.checks import Check
from dealerpi.doctor.sandbox import (
    check_button_edges,
    check_idle_levels,
    missing_i2c_dev,
    pressed_and_released,
    service_properties,
    systemd_run_command,
)

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "dealerpi.service"
EXAMPLE = ROOT / "hardware" / "example.toml"


def _lines(checks: Iterable[Check]) -> list[str]:
    return [str(check) for check in checks]


def test_gpiopin_that_is_not_the_configs_interrupt_pin_fails(tmp_path: Path) -> None:
    """x1's INTA goes to GPIO27 in the config; config.txt says gpiopin=22 for 0x21: the kernel would listen on
    the wrong pin and x1's buttons would never fire. x3 has no overlay line at all."""
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("[all]\ndtparam=i2c_arm=on\ndtoverlay=mcp23017,addr=0x20,gpiopin=17\n"
                          "dtoverlay=mcp23017,addr=0x21,gpiopin=22\ndtoverlay=mcp23017,addr=0x22,gpiopin=22\n"
                          "dtoverlay=i2c-mux,pca9548,addr=0x70\ndtoverlay=i2c-mux,pca9548,addr=0x71\n")
    lines = _lines(check_config_txt(load(EXAMPLE), config_txt))
    assert lines == [
        "OK    config.txt expander x0: addr=0x20 gpiopin=17 = interrupt GPIO17",
        "FAIL  config.txt expander x1: dtoverlay=mcp23017,addr=0x21 has gpiopin=22 but expanders.x1.interrupt is "
        "GPIO27: the kernel listens for INTA on the wrong pin; make them the same and reboot",
        "OK    config.txt expander x2: addr=0x22 gpiopin=22 = interrupt GPIO22",
        f"FAIL  config.txt expander x3: no dtoverlay=mcp23017,addr=0x23 in {config_txt}: sudo "
        "hardware/install-config-txt.sh and reboot (docs/install-pi.md step 4)",
        "OK    config.txt multiplexer m0: dtoverlay=i2c-mux,pca9548,addr=0x70 present",
        "OK    config.txt multiplexer m1: dtoverlay=i2c-mux,pca9548,addr=0x71 present",
    ]


def test_mcp23017_overlay_without_gpiopin_means_pin_4(tmp_path: Path) -> None:
    """The overlay's defaults (Raspberry Pi's overlays README, mcp23017): addr 0x20, gpiopin 4."""
    config_txt = tmp_path / "config.txt"
    config_txt.write_text("dtoverlay=mcp23017\n")
    line = _lines(check_config_txt(load(EXAMPLE), config_txt))[0]
    assert line.startswith("FAIL  config.txt expander x0: dtoverlay=mcp23017,addr=0x20 has gpiopin=4 but ")


def _proc_devices(tmp_path: Path, names: list[str]) -> Path:
    path = tmp_path / "devices"
    path.write_text("Character devices:\n  1 mem\n" + "".join(f"{100 + i} {n}\n" for i, n in enumerate(names))
                    + "\nBlock devices:\n  8 sd\n")
    return path


def test_modules_loaded_by_hand_warn_and_missing_ones_fail(tmp_path: Path) -> None:
    """Item 1: cdc_acm loaded now but by no modules-load.d file (the shoe plugged in once) is a WARN: the
    next boot may start the unit first; i2c-dev neither loaded nor listed is a FAIL."""
    empty = tmp_path / "modules-load.d"
    empty.mkdir()
    config = load(write(tmp_path, MINIMAL + '\n[shoe]\nport = "/dev/dealerpi-shoe"\n'))
    lines = _lines(check_modules(config, _proc_devices(tmp_path, ["ttyACM"]), (empty,)))
    assert lines == [
        "WARN  module cdc_acm: loaded now, but no modules-load.d file loads it at boot: the shoe "
        "(DeviceAllow=char-ttyACM) may be refused when the unit starts first; install "
        "systemd/modules-load-dealerpi.conf as /etc/modules-load.d/dealerpi.conf",
        "FAIL  module i2c_dev: not loaded, and no modules-load.d file loads it: the unit's sandbox will refuse the "
        "displays' /dev/i2c-N (DeviceAllow=char-i2c); install systemd/modules-load-dealerpi.conf as "
        "/etc/modules-load.d/dealerpi.conf and reboot",
    ]


def test_the_shipped_modules_load_file_and_debians_etc_modules_count(tmp_path: Path) -> None:
    """systemd/modules-load-dealerpi.conf names cdc_acm; raspi-config writes i2c-dev (with a dash) to
    /etc/modules, which systemd-modules-load reads too."""
    load_d = tmp_path / "modules-load.d"
    load_d.mkdir()
    (load_d / "dealerpi.conf").write_text((ROOT / "systemd" / "modules-load-dealerpi.conf").read_text())
    etc_modules = tmp_path / "modules"
    etc_modules.write_text("# /etc/modules\ni2c-dev\n")
    config = load(write(tmp_path, MINIMAL + '\n[shoe]\nport = "/dev/dealerpi-shoe"\n'))
    lines = _lines(check_modules(config, _proc_devices(tmp_path, ["ttyACM", "i2c"]), (load_d,)))
    assert lines == ["OK    module cdc_acm: loaded at boot (modules-load.d); 'ttyACM' is in /proc/devices",
                     "OK    module i2c_dev: loaded at boot (modules-load.d); 'i2c' is in /proc/devices"]
    only_etc = _lines(check_modules(config, _proc_devices(tmp_path, []), (etc_modules,)))
    assert only_etc[1] == "OK    module i2c_dev: loaded at boot (modules-load.d); 'i2c' is not yet in /proc/devices"
    assert only_etc[0].startswith("FAIL  module cdc_acm: not loaded")


def test_missing_i2c_node_is_never_check_its_cable(tmp_path: Path) -> None:
    """No /dev/i2c-* at all: i2c-dev is not loaded; others there but not this one: no such bus."""
    dev = tmp_path / "dev"
    dev.mkdir()
    assert missing_i2c_dev(7, dev / "i2c-7").startswith(f"no {dev / 'i2c-7'} and no /dev/i2c-* at all: the i2c-dev "
                                                        "module is not loaded")
    (dev / "i2c-1").touch()
    assert missing_i2c_dev(7, dev / "i2c-7") == (
        f"no {dev / 'i2c-7'}: the kernel has no I2C bus 7 (i2cdetect -l lists them; dtparam=i2c_arm=on and the "
        "i2c-mux overlays in /boot/firmware/config.txt)")


def test_idle_levels_flag_a_low_expander_line_and_skip_a_busy_one() -> None:
    """Item 3: x0:1 (seat 1 CALL) reads low at idle: the external pull-up is missing (the MCP23017's own are
    never on under Linux); a header line low is a pressed or shorted button; a line the daemon holds is
    skipped with how to read it."""
    config = load(EXAMPLE)
    chips: dict[str | None, int] = {"x0": 4, "x1": 5, "x2": 6, "x3": 7}

    def read(chip: int, line: int) -> int:
        if (chip, line) == (5, 0):
            raise OSError("GPIO busy")
        return 0 if (chip, line) == (4, 1) else 1

    lines = _lines(check_idle_levels(config, chips, read))
    assert "OK    seat 1 fold idle level: x0:0 reads high (pulled up)" in lines
    assert ("FAIL  seat 1 call idle level: x0:1 reads low with no press: its 10 kOhm pull-up to 3V3 is missing "
            "(the MCP23017's own pull-ups are never on under Linux); hardware/wiring.md") in lines
    busy = [line for line in lines if line.startswith("SKIP")]
    assert busy == ["SKIP  seat 4 fold idle level: x1:0 cannot be claimed (GPIO busy): the running daemon holds it; "
                    "sudo systemctl stop dealerpi, then run the doctor again"]
    assert len(lines) == 10 * 3 + 5                     # every button: 10 seats of 3, the dealer's 5


def test_header_line_low_is_a_pressed_or_shorted_button(tmp_path: Path) -> None:
    config = load(write(tmp_path, MINIMAL.replace('devices = "fake"', 'devices = "pi"')))
    lines = _lines(check_idle_levels(config, {None: 0}, lambda chip, line: 0 if line == 5 else 1))
    assert "FAIL  seat 1 call idle level: GPIO5 reads low with no press: it is pressed or shorted to GND; " \
           "hardware/wiring.md" in lines


def test_sandbox_properties_are_the_units_without_how_it_runs() -> None:
    """The transient unit gets every sandbox line of dealerpi.service, in order, but not Type=, ExecStart=,
    WatchdogSec=, Restart*= or RuntimeDirectory= (a second unit with it would remove /run/dealerpi, the
    console's socket, when it stops)."""
    properties = service_properties(UNIT)
    keys = [p.split("=", 1)[0] for p in properties]
    assert {"Type", "ExecStart", "WatchdogSec", "Restart", "RuntimeDirectory", "NotifyAccess"}.isdisjoint(keys)
    for wanted in ("User=dealerpi", "SupplementaryGroups=gpio i2c dialout", "DevicePolicy=closed",
                   "DeviceAllow=char-ttyACM rw", "DeviceAllow=char-i2c rw", "PrivateUsers=yes",
                   "PrivateNetwork=yes", "ProtectSystem=strict", "StateDirectory=dealerpi",
                   "WorkingDirectory=/var/lib/dealerpi", "Environment=LG_WD=/var/lib/dealerpi",
                   "SystemCallFilter=~@privileged @resources @mount @debug @cpu-emulation @obsolete @raw-io "
                   "@reboot @swap @module @clock"):
        assert wanted in properties, wanted
    command = systemd_run_command(UNIT, Path("/etc/dealerpi/dealerpi.toml"), python="/opt/dealerpi/venv/bin/python")
    assert command[:7] == ["systemd-run", "--quiet", "--wait", "--pipe", "--collect", "--service-type=exec",
                           "--unit=dealerpi-doctor-sandbox"]
    assert command[-8:] == ["--", "/opt/dealerpi/venv/bin/python", "-m", "dealerpi", "doctor", "--inside-sandbox",
                            "--config", "/etc/dealerpi/dealerpi.toml"]
    assert "--property=DeviceAllow=char-ttyACM rw" in command


def test_sandbox_properties_follow_the_units_drop_ins(tmp_path: Path) -> None:
    """A host's drop-in that loosens the sandbox (docs/install-pi.md step 10 names PrivateUsers= as the first
    line to try without) is what the service runs with, so the doctor's sandbox has it too, after the unit's."""
    unit = tmp_path / "dealerpi.service"
    unit.write_text(UNIT.read_text())
    (tmp_path / "dealerpi.service.d").mkdir()
    (tmp_path / "dealerpi.service.d" / "10-loosen.conf").write_text("[Service]\nPrivateUsers=no\nTimeoutStartSec=90\n")
    properties = service_properties(unit)
    assert properties[-1] == "PrivateUsers=no"
    assert properties.index("PrivateUsers=yes") < properties.index("PrivateUsers=no")
    assert not any(p.startswith("TimeoutStartSec=") for p in properties)


def test_press_and_release_is_a_fall_then_a_rise() -> None:
    assert pressed_and_released([0, 1]) and pressed_and_released([0, 1, 0, 1]) and pressed_and_released([1, 0, 1])
    assert not pressed_and_released([]) and not pressed_and_released([0]) and not pressed_and_released([1, 0])


def test_button_edges_asks_for_each_button_and_names_the_interrupt_wire() -> None:
    """Item 2 (--buttons): each button is asked for in turn; x0:0 pressed and released (with bounce) is OK,
    x0:1 silent names x0's INTA wire to GPIO17 (an MCP23017 edge only arrives through it), x0:2 held down
    is a stuck button, x1:0 held by the daemon is skipped."""
    config = load(EXAMPLE)
    chips: dict[str | None, int] = {"x0": 4, "x1": 5, "x2": 6, "x3": 7}
    seen: dict[tuple[int, int], list[int]] = {(4, 0): [0, 1, 0, 1], (4, 1): [], (4, 2): [0]}
    prompts: list[str] = []

    def wait(chip: int, line: int, seconds: float) -> list[int]:
        assert seconds == 15.0
        if (chip, line) == (5, 0):
            raise OSError("GPIO busy")
        return seen.get((chip, line), [0, 1])

    lines = _lines(check_button_edges(config, chips, wait, say=prompts.append))
    assert prompts[:3] == ["press and release dealer start (x3:3) within 15 s",
                           "press and release dealer exposed (x3:4) within 15 s",
                           "press and release dealer misdeal (x3:5) within 15 s"]
    assert len(prompts) == len(lines) == 35
    assert "OK    seat 1 fold edge: x0:0: press and release seen (4 edges with bounce)" in lines
    assert ("FAIL  seat 1 call edge: x0:1: no edge in 15 s: check the button, its 10 kOhm pull-up, and x0's INTA "
            "wire to GPIO17 (config.txt's gpiopin=)") in lines
    assert ("FAIL  seat 1 bet edge: x0:2: pressed but no release in 15 s: a button stuck down or a line shorted to "
            "GND") in lines
    assert "SKIP  seat 4 fold edge: x1:0 cannot be claimed (GPIO busy): sudo systemctl stop dealerpi" in lines
    assert sum(line.startswith("OK") for line in lines) == 35 - 3


def test_buttons_are_passed_to_the_sandboxed_run() -> None:
    command = systemd_run_command(UNIT, Path("/etc/dealerpi/dealerpi.toml"), python="py", buttons=True)
    assert command[-3:] == ["--config", "/etc/dealerpi/dealerpi.toml", "--buttons"]
