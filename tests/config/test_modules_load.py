"""Issue 23 item 1: every ``DeviceAllow=char-NAME`` of dealerpi.service whose driver is a module has that
module in systemd/modules-load-dealerpi.conf, so that NAME is in /proc/devices when the unit starts (systemd
resolves the name there once, at the start: src/core/bpf-devices.c, bpf_devices_allow_list_major)."""

from __future__ import annotations

from pathlib import Path

from systemd_kit import directives

ROOT = Path(__file__).resolve().parents[2]
# /proc/devices name -> the module that registers it (Linux: drivers/usb/class/cdc-acm.c "ttyACM",
# drivers/i2c/i2c-dev.c "i2c", drivers/usb/serial/usb-serial.c "ttyUSB"); gpiochip is gpiolib's, built in.
PROVIDERS = {"ttyACM": "cdc_acm", "i2c": "i2c_dev", "ttyUSB": "usbserial", "gpiochip": None}


def _modules() -> list[str]:
    text = (ROOT / "systemd" / "modules-load-dealerpi.conf").read_text()
    return [line.strip().replace("-", "_") for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_each_allowed_char_device_has_its_module_loaded_at_boot() -> None:
    allowed = [value.split()[0].removeprefix("char-") for value in
               directives(ROOT / "systemd" / "dealerpi.service")["DeviceAllow"]]
    assert sorted(allowed) == sorted(PROVIDERS)
    assert sorted(_modules()) == sorted(m for m in PROVIDERS.values() if m is not None)


def test_unit_is_ordered_after_systemd_modules_load() -> None:
    after = directives(ROOT / "systemd" / "dealerpi.service")["After"][0].split()
    assert "systemd-modules-load.service" in after
