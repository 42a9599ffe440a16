"""The doctor's boot-time checks: the firmware's ``config.txt`` against the table's config, and the kernel
modules that must be loaded before dealerpi.service starts.

``config.txt``: each MCP23017 needs ``dtoverlay=mcp23017,addr=0x2N,gpiopin=P`` with ``P`` the header pin its
INTA goes to, which is the config's ``interrupt``; a ``gpiopin=`` that does not match leaves the kernel
listening on the wrong pin (the overlay's default is 4: Raspberry Pi's overlays README, "mcp23017"), and the
buttons of that expander never fire. Lines under a model filter such as ``[pi4]`` are read as if they applied
(the doctor does not know which section the firmware picked); DealerPi's own block opens with ``[all]``.

Modules: ``DeviceAllow=char-ttyACM`` and ``char-i2c`` are resolved against /proc/devices when the unit starts
(systemd src/core/bpf-devices.c, ``bpf_devices_allow_list_major``), so cdc_acm and i2c-dev must be loaded by
systemd-modules-load (systemd/modules-load-dealerpi.conf), not later when the shoe is plugged in.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from dealerpi.config import Config
from dealerpi.doctor.checks import Check

CONFIG_TXT = Path("/boot/firmware/config.txt")
PROC_DEVICES = Path("/proc/devices")
# systemd-modules-load's directories (modules-load.d(5)), and Debian's /etc/modules (read through the
# /etc/modules-load.d/modules.conf link; raspi-config's do_i2c writes i2c-dev there).
MODULES_LOAD = (Path("/etc/modules-load.d"), Path("/run/modules-load.d"), Path("/usr/lib/modules-load.d"),
                Path("/lib/modules-load.d"), Path("/etc/modules"))
MCP23017_DEFAULT_GPIOPIN = 4
# module name -> (its /proc/devices name, what needs it)
MODULES = {"cdc_acm": ("ttyACM", "the shoe (DeviceAllow=char-ttyACM)"),
           "i2c_dev": ("i2c", "the displays' /dev/i2c-N (DeviceAllow=char-i2c)")}


def overlays(text: str, name: str) -> list[dict[str, str]]:
    """The parameters of each ``dtoverlay=name,...`` line (``addr=0x20`` -> ``{"addr": "0x20"}``)."""
    found = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line.startswith("dtoverlay="):
            continue
        parts = [part.strip() for part in line.removeprefix("dtoverlay=").split(",")]
        if parts[0] == name:
            found.append({key: value for key, _, value in (part.partition("=") for part in parts[1:])})
    return found


def _number(text: str | None, default: int) -> int | None:
    if text is None or text == "":
        return default
    try:
        return int(text, 0)
    except ValueError:
        return None


def check_config_txt(config: Config, path: Path = CONFIG_TXT) -> Iterator[Check]:
    if not config.expanders and not config.muxes:
        return
    try:
        text = path.read_text(errors="replace")
    except OSError as exc:
        yield Check("FAIL", "config.txt", f"cannot read {path} ({exc.strerror}): the overlays of "
                                          "hardware/config.txt go there (docs/install-pi.md step 4)")
        return
    mcps = overlays(text, "mcp23017")
    for expander in config.expanders:
        what = f"config.txt expander {expander.name}"
        lines = [o for o in mcps if _number(o.get("addr"), 0x20) == expander.address]
        if not lines:
            yield Check("FAIL", what, f"no dtoverlay=mcp23017,addr=0x{expander.address:02x} in {path}: "
                                      "sudo hardware/install-config-txt.sh and reboot (docs/install-pi.md step 4)")
            continue
        pin = _number(lines[-1].get("gpiopin"), MCP23017_DEFAULT_GPIOPIN)
        want = expander.interrupt.line
        if expander.interrupt.chip is not None or pin != want:
            yield Check("FAIL", what, f"dtoverlay=mcp23017,addr=0x{expander.address:02x} has gpiopin={pin} but "
                                      f"expanders.{expander.name}.interrupt is {expander.interrupt}: the kernel "
                                      "listens for INTA on the wrong pin; make them the same and reboot")
            continue
        yield Check("OK", what, f"addr=0x{expander.address:02x} gpiopin={pin} = interrupt {expander.interrupt}")
    muxes = [_number(o.get("addr"), 0x70) for o in overlays(text, "i2c-mux")]
    for mux in config.muxes:
        found = mux.address in muxes
        yield Check("OK" if found else "FAIL", f"config.txt multiplexer {mux.name}",
                    f"dtoverlay=i2c-mux,pca9548,addr=0x{mux.address:02x}"
                    + (" present" if found else f" missing in {path}: sudo hardware/install-config-txt.sh, reboot"))


def proc_devices(path: Path = PROC_DEVICES) -> set[str]:
    """The character drivers the kernel has registered (the names DeviceAllow=char-NAME matches)."""
    try:
        text = path.read_text()
    except OSError:
        return set()
    names, block = set(), False
    for line in text.splitlines():
        if line.strip() == "Character devices:":
            block = True
        elif not line.strip():
            block = False
        elif block:
            names.add(line.split()[-1])
    return names


def modules_loaded_at_boot(dirs: tuple[Path, ...] = MODULES_LOAD) -> set[str]:
    """Module names systemd-modules-load will load ("-" and "_" are the same to modprobe)."""
    names: set[str] = set()
    files = [p for d in dirs for p in ([d] if d.is_file() else sorted(d.glob("*.conf")) if d.is_dir() else [])]
    for file in files:
        try:
            text = file.read_text()
        except OSError:
            continue
        names |= {re.split(r"\s", line.strip())[0].replace("-", "_") for line in text.splitlines()
                  if line.strip() and not line.lstrip().startswith(("#", ";"))}
    return names


def check_modules(config: Config, devices: Path = PROC_DEVICES,
                  dirs: tuple[Path, ...] = MODULES_LOAD) -> Iterator[Check]:
    registered, at_boot = proc_devices(devices), modules_loaded_at_boot(dirs)
    needed = ["i2c_dev"]
    if "://" not in config.shoe_port:
        needed.insert(0, "cdc_acm")
    for module in needed:
        name, why = MODULES[module]
        what = f"module {module}"
        if module in at_boot:
            yield Check("OK", what, f"loaded at boot (modules-load.d); {name!r} "
                                    + ("is" if name in registered else "is not yet") + " in /proc/devices")
        elif name in registered:
            yield Check("WARN", what, f"loaded now, but no modules-load.d file loads it at boot: {why} may be "
                                      "refused when the unit starts first; install systemd/modules-load-dealerpi.conf "
                                      "as /etc/modules-load.d/dealerpi.conf")
        else:
            yield Check("FAIL", what, f"not loaded, and no modules-load.d file loads it: the unit's sandbox will "
                                      f"refuse {why}; install systemd/modules-load-dealerpi.conf as "
                                      "/etc/modules-load.d/dealerpi.conf and reboot")
