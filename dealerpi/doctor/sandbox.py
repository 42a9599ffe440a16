"""``dealerpi doctor --sandbox``: the checks run the way dealerpi.service runs, inside its own sandbox.

The plain doctor runs as whoever started it, outside the unit's ``DevicePolicy=closed``/``DeviceAllow=``,
``PrivateUsers=``, ``ProtectSystem=strict`` and ``PrivateNetwork=``, so it can pass where the service cannot
open a chip, a bus or the shoe (issue 23 item 2). ``--sandbox`` starts the doctor again as a transient
service (``systemd-run``) with every sandbox property of the installed unit, and that copy, started with
``--inside-sandbox``, opens what the daemon opens: each gpiochip, each display's /dev/i2c-N (and asks the
display's address), the shoe's port, a file in the journal folder, lgpio's notify pipe in the working
directory, and each button line, read as the daemon reads it (pull-up requested) for its idle level.

A device refused by the sandbox fails with EPERM ("Operation not permitted": the unit's cgroup device
program), one refused by file permissions with EACCES (the groups), one that is not there with ENOENT, and a
node whose driver has no device behind it with ENXIO/ENODEV: each gets its own fix.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from dealerpi.config import Config, Pin
from dealerpi.devices.gpio import (
    DEV,
    SYSFS_I2C,
    Chip,
    HardwareMissing,
    expander_chip,
    header_chip,
    list_chips,
    mux_channel_bus,
)
from dealerpi.doctor.checks import Check
from dealerpi.journal.folder import folder_for

# Directives of the unit that are about how it runs, not what it may touch: left out of the transient unit.
# RuntimeDirectory= above all: a transient unit with the same one would remove /run/dealerpi (the console's
# socket) when it stops; RemoveIPC= likewise concerns the IPC objects of the user the running daemon shares.
NOT_SANDBOX = frozenset({
    "Type", "NotifyAccess", "ExecStart", "ExecStartPre", "ExecStartPost", "ExecStop", "ExecStopPost", "ExecReload",
    "WatchdogSec", "TimeoutStartSec", "TimeoutStopSec", "TimeoutSec", "Restart", "RestartSec",
    "RestartPreventExitStatus", "SuccessExitStatus", "RuntimeDirectory", "RuntimeDirectoryMode",
    "RuntimeDirectoryPreserve", "RemoveIPC",
})

# Bias flag for a line request, as gpiozero's LGPIOFactory asks for pull_up=True (lgpio.SET_PULL_UP).
_LGPIO_SET_PULL_UP = 32


def service_properties(unit: Path) -> list[str]:
    """``Key=value`` of each sandbox directive in the unit's ``[Service]`` section, then in its drop-ins
    (``dealerpi.service.d/*.conf`` beside it, in name order), as systemd reads them: a later line overrides,
    a list line adds, an empty one resets, and systemd-run's properties follow the same rules."""
    properties = []
    for path in [unit, *sorted((unit.parent / f"{unit.name}.d").glob("*.conf"))]:
        section = ""
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if line.startswith("[") and line.endswith("]"):
                section = line
            elif section == "[Service]" and "=" in line and not line.startswith(("#", ";")):
                key, _, value = line.partition("=")
                if key.strip() not in NOT_SANDBOX:
                    properties.append(f"{key.strip()}={value.strip()}")
    return properties


def systemd_run_command(unit: Path, config: Path, python: str = sys.executable, buttons: bool = False) -> list[str]:
    """The ``systemd-run`` line that runs ``doctor --inside-sandbox`` with the unit's sandbox (``--pipe``: the
    prompts of ``--buttons`` reach the terminal)."""
    return ["systemd-run", "--quiet", "--wait", "--pipe", "--collect", "--service-type=exec",
            "--unit=dealerpi-doctor-sandbox", *(f"--property={p}" for p in service_properties(unit)),
            "--", python, "-m", "dealerpi", "doctor", "--inside-sandbox", "--config", str(config.resolve()),
            *(["--buttons"] if buttons else [])]


def run_in_sandbox(unit: Path, config: Path, buttons: bool = False) -> int:
    """Run the inside checks under ``unit``'s sandbox; their lines go to stdout. Needs root, as systemd-run does."""
    if shutil.which("systemd-run") is None:
        print("FAIL  sandbox: no systemd-run here; the sandbox checks need systemd (the Pi has it)")
        return 1
    if os.geteuid() != 0:
        print("FAIL  sandbox: run as root (sudo): systemd-run starts the checks as the unit's user in its sandbox")
        return 1
    done = subprocess.run(systemd_run_command(unit, config, buttons=buttons), check=False)
    if done.returncode == 255:       # systemd-run --wait: the service was killed by a signal (EXIT_EXCEPTION)
        print("FAIL  sandbox: the checks in the service's sandbox were killed by a signal; see journalctl -u "
              "dealerpi-doctor-sandbox (a system call the unit's filter kills, or a library built for another CPU)")
        return 1
    return done.returncode


def _opened(path: Path, flags: int) -> OSError | None:
    try:
        os.close(os.open(path, flags | os.O_CLOEXEC))
    except OSError as exc:
        return exc
    return None


def device_check(what: str, path: Path, allow: str, flags: int = os.O_RDWR) -> Check:
    """Open a device node as the service would; each errno with its own fix."""
    if not path.exists():
        return Check("FAIL", what, f"no {path}")
    error = _opened(path, flags)
    if error is None:
        return Check("OK", what, f"{path} opens in the service's sandbox")
    if error.errno == errno.EPERM:
        return Check("FAIL", what, f"{path}: the unit's sandbox refuses it (Operation not permitted): "
                                   f"DeviceAllow={allow} found no such driver in /proc/devices when the unit "
                                   "started; install systemd/modules-load-dealerpi.conf as "
                                   "/etc/modules-load.d/dealerpi.conf and reboot (docs/install-pi.md step 8)")
    if error.errno == errno.EACCES:
        return Check("FAIL", what, f"{path}: permission denied for {_me()}: check the node's group "
                                   "(ls -l) and the unit's SupplementaryGroups=")
    if error.errno in (errno.ENXIO, errno.ENODEV):
        return Check("WARN", what, f"{path}: allowed, but no device behind it ({error.strerror}): plugged in?")
    return Check("FAIL", what, f"{path}: {error.strerror}")


def _me() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return f"uid {os.getuid()}"


def check_identity() -> Iterator[Check]:
    groups = sorted({str(gid) for gid in os.getgroups()})
    yield Check("OK", "sandbox", f"running as {_me()} (uid {os.getuid()}, groups {','.join(groups)}) in "
                                 f"{os.getcwd()}")


def check_journal(config: Config) -> Iterator[Check]:
    """A file made, synced and removed in the journal's folder (or where the daemon would make it)."""
    folder = folder_for(config.journal)
    where = folder if folder.exists() else folder.parent
    try:
        with tempfile.NamedTemporaryFile(dir=where, prefix=".doctor-") as probe:
            probe.write(b"x")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        yield Check("FAIL", "journal in the sandbox", f"cannot write in {where}: {exc.strerror}; it must be under "
                                                      "the unit's StateDirectory (/var/lib/dealerpi)")
        return
    yield Check("OK", "journal in the sandbox", f"{where} writable")


def check_lgpio_pipe() -> Iterator[Check]:
    """``import lgpio`` makes its notify pipe in the working directory (joan2937/lg#22)."""
    try:
        importlib.import_module("lgpio")
    except ImportError as exc:
        yield Check("FAIL", "lgpio in the sandbox", f"import lgpio failed in {os.getcwd()}: {exc}")
        return
    except OSError as exc:
        yield Check("FAIL", "lgpio in the sandbox", f"import lgpio failed in {os.getcwd()} ({exc}): its notify "
                                                    "pipe needs a writable working directory (LG_WD)")
        return
    yield Check("OK", "lgpio in the sandbox", f"imported in {os.getcwd()}")


def check_shoe(config: Config) -> Iterator[Check]:
    port = config.shoe_port
    if "://" in port:
        kind = port.split("://", 1)[0]
        if kind in ("socket", "rfc2217"):
            yield Check("FAIL", "shoe in the sandbox", f"{port}: a network shoe cannot work under the unit "
                                                       "(PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX)")
        else:
            yield Check("OK", "shoe in the sandbox", f"{port} (a pyserial URL, no device)")
        return
    yield device_check("shoe in the sandbox", Path(port), "char-ttyACM/char-ttyUSB",
                       os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)


Probe = Callable[[int, int], bool]


def check_buses(config: Config, probe: Probe, dev: Path = DEV) -> Iterator[Check]:
    """Each display's /dev/i2c-N opened in the sandbox, then its address asked (an SMBus quick write)."""
    displays = [("dealer display", config.dealer.display), *((f"seat {p.seat} display", p.display)
                                                             for p in config.seats)]
    for name, display in displays:
        try:
            bus = display.bus if display.mux is None else mux_channel_bus(
                next(m for m in config.muxes if m.name == display.mux), display.channel or 0, SYSFS_I2C)
        except HardwareMissing as exc:
            yield Check("FAIL", f"{name} in the sandbox", str(exc))
            continue
        assert bus is not None
        node = dev / f"i2c-{bus}"
        if not node.exists():
            yield Check("FAIL", f"{name} in the sandbox", missing_i2c_dev(bus, node))
            continue
        opened = device_check(f"{name} in the sandbox", node, "char-i2c")
        if opened.status != "OK":
            yield opened
            continue
        answers = probe(bus, display.address)
        yield Check("OK" if answers else "FAIL", f"{name} in the sandbox",
                    f"{node} 0x{display.address:02x} " + ("answers" if answers else
                                                           "opens but nothing answers: check its cable, power and "
                                                           f"address (i2cdetect -y {bus})"))


def missing_i2c_dev(bus: int, node: Path) -> str:
    """Why /dev/i2c-N is missing, never "check its cable": with no /dev/i2c-* at all the i2c-dev module is not
    loaded (it makes a node for every bus); with others there, the kernel has no bus N."""
    if not any(node.parent.glob("i2c-*")):
        return (f"no {node} and no /dev/i2c-* at all: the i2c-dev module is not loaded (install "
                "systemd/modules-load-dealerpi.conf as /etc/modules-load.d/dealerpi.conf, or sudo modprobe i2c-dev)")
    return (f"no {node}: the kernel has no I2C bus {bus} (i2cdetect -l lists them; dtparam=i2c_arm=on and the "
            "i2c-mux overlays in /boot/firmware/config.txt)")


Reader = Callable[[int, int], int]     # (chip number, line) -> level; raises OSError/RuntimeError when busy


def lgpio_read(chip: int, line: int) -> int:
    """The line's level with pull-up requested, as gpiozero's ``pull_up=True`` claims it."""
    lgpio: Any = importlib.import_module("lgpio")      # untyped; imported here: only the Pi has a chip to open
    handle = lgpio.gpiochip_open(chip)
    try:
        lgpio.gpio_claim_input(handle, line, _LGPIO_SET_PULL_UP)
        try:
            return int(lgpio.gpio_read(handle, line))
        finally:
            lgpio.gpio_free(handle, line)
    finally:
        lgpio.gpiochip_close(handle)


def button_pins(config: Config) -> list[tuple[str, Pin]]:
    found = [(f"dealer {name}", pin) for name, pin in config.dealer.buttons.items()]
    for panel in config.seats:
        found += [(f"seat {panel.seat} {name}", pin) for name, pin in panel.buttons.items()]
    return found


def check_idle_levels(config: Config, chips: dict[str | None, int], read: Reader) -> Iterator[Check]:
    """Each button line at idle reads high (buttons pull the line to ground when pressed). A low line is a
    pressed or shorted button, or a missing pull-up: the MCP23017 lines have none of their own that Linux
    turns on (the mcp23s08 driver has no set_config, so the pull-up request is dropped; hardware/wiring.md)."""
    for what, pin in button_pins(config):
        number = chips.get(pin.chip)
        if number is None:
            continue                                   # its chip is missing: the chip's own line says so
        try:
            level = read(number, pin.line)
        except Exception as exc:  # lgpio raises its own error type for a busy line
            yield Check("SKIP", f"{what} idle level", f"{pin} cannot be claimed ({exc}): the running daemon holds "
                                                     "it; sudo systemctl stop dealerpi, then run the doctor again")
            continue
        if level:
            yield Check("OK", f"{what} idle level", f"{pin} reads high (pulled up)")
        else:
            fix = ("its 10 kOhm pull-up to 3V3 is missing (the MCP23017's own pull-ups are never on under Linux)"
                   if pin.chip is not None else "it is pressed or shorted to GND")
            yield Check("FAIL", f"{what} idle level", f"{pin} reads low with no press: {fix}; hardware/wiring.md")


EdgeWait = Callable[[int, int, float], list[int]]    # (chip, line, seconds) -> levels seen: 0 fell, 1 rose


def pressed_and_released(levels: list[int]) -> bool:
    """A press (a falling edge: buttons pull to GND) and, after it, a release (a rising edge)."""
    return 0 in levels and 1 in levels[levels.index(0):]


def lgpio_edges(chip: int, line: int, seconds: float) -> list[int]:
    """The edges the kernel reports on a line claimed as gpiozero claims a button (alerts on both edges,
    pull-up requested), until a press and a release or ``seconds``. On an MCP23017 an edge only arrives
    through its INTA wire to the header pin config.txt's ``gpiopin=`` names, so this checks that path too."""
    lgpio: Any = importlib.import_module("lgpio")
    levels: list[int] = []
    handle = lgpio.gpiochip_open(chip)
    try:
        lgpio.gpio_claim_alert(handle, line, lgpio.BOTH_EDGES, _LGPIO_SET_PULL_UP)
        callback = lgpio.callback(handle, line, lgpio.BOTH_EDGES,
                                  lambda _chip, _gpio, level, _tick: levels.append(int(level)))
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline and not pressed_and_released(levels):
                time.sleep(0.02)
        finally:
            callback.cancel()
            lgpio.gpio_free(handle, line)
    finally:
        lgpio.gpiochip_close(handle)
    return levels


def check_button_edges(config: Config, chips: dict[str | None, int], wait: EdgeWait, seconds: float = 15.0,
                       say: Callable[[str], None] = print) -> Iterator[Check]:
    """``--buttons``: asks for each button in turn and waits for its press and release, as the daemon would
    see them (issue 23 item 2: the doctor tested no button edge)."""
    interrupts = {e.name: e.interrupt for e in config.expanders}
    for what, pin in button_pins(config):
        number = chips.get(pin.chip)
        if number is None:
            continue
        say(f"press and release {what} ({pin}) within {seconds:g} s")
        try:
            levels = wait(number, pin.line, seconds)
        except Exception as exc:  # lgpio raises its own error type for a busy line
            yield Check("SKIP", f"{what} edge", f"{pin} cannot be claimed ({exc}): sudo systemctl stop dealerpi")
            continue
        if pressed_and_released(levels):
            yield Check("OK", f"{what} edge", f"{pin}: press and release seen ({len(levels)} edges with bounce)")
        elif 0 in levels:
            yield Check("FAIL", f"{what} edge", f"{pin}: pressed but no release in {seconds:g} s: a button stuck "
                                                "down or a line shorted to GND")
        elif pin.chip is not None:
            yield Check("FAIL", f"{what} edge", f"{pin}: no edge in {seconds:g} s: check the button, its 10 kOhm "
                                                f"pull-up, and {pin.chip}'s INTA wire to {interrupts[pin.chip]} "
                                                "(config.txt's gpiopin=)")
        else:
            yield Check("FAIL", f"{what} edge", f"{pin}: no edge in {seconds:g} s: check the button's wires to "
                                                f"{pin} and GND")


def chip_numbers(config: Config, chips: list[Chip]) -> dict[str | None, int]:
    """The number of each chip the config uses that is there (a missing one is the chip check's FAIL)."""
    numbers: dict[str | None, int] = {}
    with contextlib.suppress(HardwareMissing):
        numbers[None] = header_chip(chips).number
    for expander in config.expanders:
        with contextlib.suppress(HardwareMissing):
            numbers[expander.name] = expander_chip(expander, chips).number
    return numbers


def inside_checks(config: Config, fake: bool, probe: Probe, read: Reader = lgpio_read,
                  edges: EdgeWait | None = None) -> list[Check]:
    """What ``--inside-sandbox`` checks, already inside the unit's sandbox; with ``edges``, each button's press
    and release too."""
    checks = [*check_identity(), *check_journal(config), *check_shoe(config)]
    if fake:
        checks.append(Check("SKIP", "devices in the sandbox", "fake devices: no chip, bus or line to open"))
        return checks
    checks += check_lgpio_pipe()
    chips = list_chips()
    numbers = chip_numbers(config, chips)
    for name, number in numbers.items():
        checks.append(device_check(f"chip {name or 'header'} in the sandbox", DEV / f"gpiochip{number}",
                                   "char-gpiochip"))
    checks += check_buses(config, probe, DEV)
    checks += check_idle_levels(config, numbers, read)
    if edges is not None:
        checks += check_button_edges(config, numbers, edges, say=lambda text: print(text, flush=True))
    return checks
