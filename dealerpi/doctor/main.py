"""``dealerpi doctor --config FILE [--fake] [--user NAME] [--unit FILE] [--config-txt FILE] [--sandbox]``: is
this machine ready for the table?

One line per check, each with its fix: Python, the gpiozero/lgpio/luma versions, the chips the daemon will
open (found by label, with the lines the config uses on each), config.txt's overlays against the config and
the modules the unit needs at its start (doctor_boot), each I2C address answering (or its /dev/i2c-N
missing), each multiplexer's ``idle_state``, the shoe's port, the journal directory writable by the service
user, that user's groups, and the unit's working directory (lgpio's notify pipe, joan2937/lg#22). With
``--fake`` (or ``devices = "fake"``) the hardware lines say what the fakes stand in for, and the rest is
checked as for a Pi, for the user running the fakes. ``--sandbox`` then runs the device checks again inside
the unit's own sandbox (doctor_sandbox). Exit status 1 if any line is FAIL.
"""

from __future__ import annotations

import argparse
import grp
import importlib.metadata
import os
import pwd
import re
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from dealerpi.config import Config, ConfigError, load
from dealerpi.devices.gpio import (
    DEV,
    SYSFS_GPIO,
    SYSFS_I2C,
    ChipInfo,
    HardwareMissing,
    expander_chip,
    header_chip,
    i2c_device_name,
    list_chips,
    mux_channel_bus,
    mux_idle_state,
    read_chip_info,
)
from dealerpi.doctor.boot import CONFIG_TXT, MODULES_LOAD, PROC_DEVICES, check_config_txt, check_modules
from dealerpi.doctor.checks import Check
from dealerpi.doctor.sandbox import inside_checks, lgpio_edges, missing_i2c_dev, run_in_sandbox

SERVICE_USER = "dealerpi"
GROUPS = ("gpio", "i2c", "dialout")          # the unit's SupplementaryGroups=
INSTALLED_UNIT = Path("/etc/systemd/system/dealerpi.service")
SOURCE_UNIT = Path(__file__).resolve().parents[1] / "systemd" / "dealerpi.service"


@dataclass
class Context:
    """What the checks look at; tests point the paths at fake trees."""

    config: Config
    fake: bool
    user: str
    unit: Path | None
    sysfs_i2c: Path = SYSFS_I2C
    sysfs_gpio: Path = SYSFS_GPIO
    chip_info: ChipInfo = read_chip_info
    probe: Callable[[int, int], bool] | None = None      # (bus, address) -> answers; None: smbus2 quick write
    dev: Path = DEV
    config_txt: Path = CONFIG_TXT
    proc_devices: Path = PROC_DEVICES
    modules_load: tuple[Path, ...] = MODULES_LOAD


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def gpiozero_honours_chip(version: str) -> bool:
    """gpiozero 2.0.1.post1 and later pass ``chip=`` through (gpiozero#1162); 2.0 and 2.0.1 do not."""
    match = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?(?:\.post(\d+))?", version)
    if match is None:
        return False
    major, minor, micro, post = (int(part or 0) for part in match.groups())
    return (major, minor, micro, post) >= (2, 0, 1, 1)


def check_versions(ctx: Context) -> Iterator[Check]:
    python = sys.version_info
    yield Check("OK" if python >= (3, 11) else "FAIL", "python",
                f"{python.major}.{python.minor}.{python.micro} at {sys.executable}"
                + ("" if python >= (3, 11) else "; DealerPi needs 3.11+ (Raspberry Pi OS Bookworm has 3.11)"))
    gpiozero = _version("gpiozero")
    if gpiozero is None:
        yield Check("FAIL", "gpiozero", "not installed; pip install -c hardware/constraints-aarch64.txt '.[pi]'")
    elif not gpiozero_honours_chip(gpiozero):
        yield Check("WARN" if ctx.fake else "FAIL", "gpiozero",
                    f"{gpiozero} ignores LGPIOFactory(chip=N) (gpiozero#1162): expander lines would open on the "
                    "header; make the venv without --system-site-packages and install with the constraints file")
    else:
        yield Check("OK", "gpiozero", f"{gpiozero} (honours chip=, gpiozero#1162)")
    lgpio = _version("lgpio")
    if lgpio is None:
        yield Check("SKIP" if ctx.fake else "FAIL", "lgpio",
                    "not installed" + (" (only the Pi needs it)" if ctx.fake else
                                       "; pip install -c hardware/constraints-aarch64.txt '/opt/dealerpi/src[pi]'"))
    else:
        yield Check("OK", "lgpio", lgpio)
    if _version("RPi.GPIO") is not None:
        yield Check("WARN", "RPi.GPIO", "installed but unused (and it does not work on a Pi 5): pip uninstall RPi.GPIO")
    for name in ("luma.core", "luma.oled"):
        version = _version(name)
        yield Check("OK" if version else "FAIL", name, version or "not installed; reinstall DealerPi")


def _lines_by_chip(config: Config) -> dict[str | None, list[int]]:
    used: dict[str | None, set[int]] = {}
    pins = [*config.dealer.buttons.values()]
    for panel in config.seats:
        pins += [*panel.buttons.values(), *panel.leds.values()]
    for pin in pins:
        used.setdefault(pin.chip, set()).add(pin.line)
    return {chip: sorted(lines) for chip, lines in used.items()}


def check_chips(ctx: Context) -> Iterator[Check]:
    lines = _lines_by_chip(ctx.config)
    names: list[str | None] = [None, *(e.name for e in ctx.config.expanders)]
    if ctx.fake:
        for name in names:
            yield Check("SKIP", f"chip {name or 'header'}", f"fake (gpiozero MockFactory); lines "
                        f"{','.join(map(str, lines.get(name, []))) or 'none'}")
        return
    chips = list_chips(ctx.sysfs_gpio, ctx.chip_info)
    for name in names:
        what = "header chip" if name is None else f"expander {name} chip"
        try:
            found = header_chip(chips) if name is None else expander_chip(
                next(e for e in ctx.config.expanders if e.name == name), chips)
        except HardwareMissing as exc:
            yield Check("FAIL", what, str(exc))
            continue
        used = lines.get(name, [])
        beyond = [line for line in used if line >= found.lines]
        yield Check("FAIL" if beyond else "OK", what,
                    f"{found}; lines used {','.join(map(str, used)) or 'none'}"
                    + (f"; lines {beyond} do not exist on it: check the config" if beyond else ""))


def _smbus_probe(bus: int, address: int) -> bool:
    """An SMBus quick write, as i2cdetect does: the address acknowledges or not."""
    from smbus2 import SMBus

    try:
        with SMBus(bus) as smbus:
            smbus.write_quick(address)
    except OSError:
        return False
    return True


def check_i2c(ctx: Context) -> Iterator[Check]:
    config = ctx.config
    if ctx.fake:
        yield Check("SKIP", "i2c", f"fake: {1 + len(config.seats)} displays are luma dummy devices")
        return
    for expander in config.expanders:
        yield _bound(ctx, f"expander {expander.name}", expander.bus, expander.address, "mcp23017")
    for mux in config.muxes:
        yield _bound(ctx, f"multiplexer {mux.name}", mux.bus, mux.address, "i2c-mux,pca9548")
        state = mux_idle_state(mux, ctx.sysfs_i2c)
        if state == -2:
            yield Check("OK", f"multiplexer {mux.name} idle_state", "-2 (disconnects after each transfer)")
        else:
            yield Check("FAIL" if len(config.muxes) > 1 else "WARN", f"multiplexer {mux.name} idle_state",
                        f"{'missing' if state is None else state}, must be -2 with two or more multiplexers "
                        "(0x3C displays on two muxes answer together): install systemd/99-dealerpi-i2c-mux.rules "
                        "and reboot (docs/install-pi.md step 8)")
    probe = ctx.probe or _smbus_probe
    for name, display in [("dealer display", config.dealer.display),
                          *((f"seat {p.seat} display", p.display) for p in config.seats)]:
        try:
            bus = display.bus if display.mux is None else mux_channel_bus(
                next(m for m in config.muxes if m.name == display.mux), display.channel or 0, ctx.sysfs_i2c)
        except HardwareMissing as exc:
            yield Check("FAIL", name, str(exc))
            continue
        assert bus is not None
        if not (ctx.dev / f"i2c-{bus}").exists():
            yield Check("FAIL", name, f"{display.where()}: {missing_i2c_dev(bus, ctx.dev / f'i2c-{bus}')}")
            continue
        answers = probe(bus, display.address)
        yield Check("OK" if answers else "FAIL", name,
                    f"{display.where()} is i2c-{bus} 0x{display.address:02x}: "
                    + ("answers" if answers else "no answer; check its cable, power and address (i2cdetect -y "
                       f"{bus})"))


def _bound(ctx: Context, what: str, bus: int, address: int, overlay: str) -> Check:
    device = ctx.sysfs_i2c / i2c_device_name(bus, address)
    if (device / "driver").exists():
        return Check("OK", what, f"{device.name} has its kernel driver ({(device / 'driver').resolve().name})")
    return Check("FAIL", what, f"no driver bound at {device}; check dtoverlay={overlay},addr=0x{address:02x} in "
                               "/boot/firmware/config.txt, the wiring and dmesg")


def _writable_by(path: Path, user: str) -> bool:
    """Whether ``user`` (with its groups) may create files in the directory ``path``."""
    try:
        entry = pwd.getpwnam(user)
        info = path.stat()
    except (KeyError, OSError):
        return False
    if entry.pw_uid == 0:
        return True
    gids = {entry.pw_gid, *os.getgrouplist(user, entry.pw_gid)}
    if info.st_uid == entry.pw_uid:
        return bool(info.st_mode & stat.S_IWUSR)
    if info.st_gid in gids:
        return bool(info.st_mode & stat.S_IWGRP)
    return bool(info.st_mode & stat.S_IWOTH)


def check_files(ctx: Context) -> Iterator[Check]:
    config, user = ctx.config, ctx.user
    port = config.shoe_port
    if "://" in port:
        yield Check("OK", "shoe port", f"{port} (a pyserial URL)")
    elif Path(port).exists():
        yield Check("OK", "shoe port", f"{port} -> {Path(port).resolve()}")
    else:
        yield Check("WARN", "shoe port", f"{port} absent: plug the shoe's Pico in; install "
                                         "systemd/99-dealerpi-shoe.rules (the table runs without it: deal by hand)")
    for what, directory in (("journal directory", config.journal.parent), ("decks directory", config.decks)):
        if _writable_by(directory, user):
            yield Check("OK", what, f"{directory} writable by {user}")
        else:
            yield Check("FAIL", what, f"{directory} missing or not writable by {user}: "
                                      f"sudo install -d -o {user} -g {user} -m 0750 {directory}")
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        yield Check("FAIL", "service user", f"no user {user}: docs/install-pi.md step 6 (useradd)")
        return
    have = {grp.getgrgid(gid).gr_name for gid in os.getgrouplist(user, entry.pw_gid)}
    lacking = [group for group in GROUPS if group not in have]
    if ctx.fake:
        yield Check("SKIP", "groups", f"{user} is in {','.join(sorted(have))} (fake devices need none)")
    elif lacking:
        yield Check("FAIL", "groups", f"{user} lacks {','.join(lacking)}: sudo usermod -aG {','.join(lacking)} {user}")
    else:
        yield Check("OK", "groups", f"{user} is in {','.join(GROUPS)}")


def unit_directives(path: Path) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit file, each key's values in order."""
    found: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def sandbox_writable(directives: dict[str, list[str]], path: str) -> bool:
    """Whether ``path`` stays writable under ProtectSystem=strict: a StateDirectory= or in ReadWritePaths=."""
    allowed = [f"/var/lib/{name}" for value in directives.get("StateDirectory", []) for name in value.split()]
    allowed += [p.lstrip("-") for value in directives.get("ReadWritePaths", []) for p in value.split()]
    if directives.get("ProtectSystem", ["no"])[-1] not in ("strict", "full", "yes"):
        allowed.append("/var")
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in allowed)


def check_unit(ctx: Context) -> Iterator[Check]:
    if ctx.unit is None or not ctx.unit.exists():
        yield Check("SKIP" if ctx.fake else "WARN", "unit", f"{INSTALLED_UNIT} not installed yet (step 10)")
        return
    directives = unit_directives(ctx.unit)
    workdir = (directives.get("WorkingDirectory") or ["/"])[-1]
    problems = []
    if not sandbox_writable(directives, workdir):
        problems.append(f"WorkingDirectory={workdir} is not writable under ProtectSystem= (lgpio's notify pipe, "
                        "joan2937/lg#22): use /var/lib/dealerpi, the StateDirectory")
    if not ctx.fake and not _writable_by(Path(workdir), directives.get("User", [SERVICE_USER])[-1]):
        problems.append(f"{workdir} missing or not writable by the service user: systemctl restart dealerpi "
                        "makes it (StateDirectory=), or sudo install -d -o dealerpi -g dealerpi -m 0750 " + workdir)
    yield Check("FAIL" if problems else "OK", "unit working directory",
                "; ".join(problems) or f"{workdir} ({ctx.unit}), writable under the sandbox")


def check_boot(ctx: Context) -> Iterator[Check]:
    """config.txt against the config, and the modules DeviceAllow= needs at the unit's start (doctor_boot)."""
    if ctx.fake:
        return
    yield from check_config_txt(ctx.config, ctx.config_txt)
    yield from check_modules(ctx.config, ctx.proc_devices, ctx.modules_load)


CHECKS = (check_versions, check_chips, check_boot, check_i2c, check_files, check_unit)


def run_checks(ctx: Context) -> list[Check]:
    return [check for function in CHECKS for check in function(ctx)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dealerpi doctor", description="Check this machine for the table.")
    parser.add_argument("--config", type=Path, default=Path("/etc/dealerpi/dealerpi.toml"))
    parser.add_argument("--fake", action="store_true", help="check as for `dealerpi run --fake`")
    parser.add_argument("--user", help=f"the service user (default: {SERVICE_USER}; with fakes: you)")
    parser.add_argument("--unit", type=Path, help=f"the unit file (default: {INSTALLED_UNIT}, else the source's)")
    parser.add_argument("--config-txt", type=Path, default=CONFIG_TXT,
                        help="the firmware config (default: %(default)s)")
    parser.add_argument("--sandbox", action="store_true",
                        help="also run the device checks inside the unit's sandbox (systemd-run, as root)")
    parser.add_argument("--buttons", action="store_true",
                        help="with --sandbox: ask for each button in turn and wait for its press and release")
    parser.add_argument("--inside-sandbox", action="store_true", help=argparse.SUPPRESS)   # what --sandbox runs
    args = parser.parse_args(argv)
    try:
        config = load(args.config)
    except ConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    fake = args.fake or config.devices == "fake"
    if args.inside_sandbox:
        edges = lgpio_edges if args.buttons else None
        return _report(inside_checks(config, fake, _smbus_probe, edges=edges), fake, "in the service's sandbox")
    user = args.user or (pwd.getpwuid(os.getuid()).pw_name if fake else SERVICE_USER)
    unit = args.unit or next((p for p in (INSTALLED_UNIT, SOURCE_UNIT) if p.exists()), None)
    status = _report(run_checks(Context(config, fake, user, unit, config_txt=args.config_txt)), fake, "")
    if not (args.sandbox or args.buttons):          # --buttons runs in the sandbox too
        return status
    if unit is None:
        print("FAIL  sandbox: no unit file to take the sandbox from (--unit)")
        return 1
    sys.stdout.flush()
    return max(status, run_in_sandbox(unit, args.config, buttons=args.buttons))


def _report(checks: list[Check], fake: bool, where: str) -> int:
    for check in checks:
        print(check)
    failed = sum(check.status == "FAIL" for check in checks)
    print(f"{len(checks)} checks, {failed} failed" + (f" {where}" if where else "")
          + (" (fake devices)" if fake else ""), flush=True)
    return 1 if failed else 0
