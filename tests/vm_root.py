"""The Debian bookworm root the real-systemd test boots: debootstrapped once, cached, keyed by what goes in.

A VM rather than ``systemd-nspawn --boot``: nspawn shares the host's kernel, so it cannot load ``i2c-stub``,
``cdc_acm`` or ``i2c-dev`` (the modules-load files are what is under test), and a container's systemd may not
attach the cgroup device programs that ``DeviceAllow=`` is made of. Debian's own kernel under
``qemu-system-x86_64 -enable-kvm`` has all of these.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

SUITE = "bookworm"
# The mirror of the host's /etc/apt/sources.list.d/debian.sources (Debian's own).
MIRROR = os.environ.get("DEALERPI_TEST_MIRROR", "http://deb.debian.org/debian")
# What the guest needs besides DealerPi: systemd as PID 1 (with udev and dbus for systemd-run), Debian's
# kernel and its modules (i2c-stub, i2c-dev, cdc_acm), bookworm's Python 3.11 as on Raspberry Pi OS, and
# Debian's mosquitto, the room's broker (docs/room.md "The broker": ``apt-get install mosquitto``).
PACKAGES = ("systemd", "systemd-sysv", "udev", "dbus", "kmod", "linux-image-amd64", "initramfs-tools",
            "python3", "python3-venv", "procps", "i2c-tools", "passwd", "ca-certificates", "mosquitto")
CACHE = Path(os.environ.get("DEALERPI_TEST_CACHE", "/var/cache/dealerpi-test-root"))


def base_key() -> str:
    """The cache key: everything that decides the debootstrapped root."""
    text = "\n".join([SUITE, MIRROR, "amd64", "minbase", *sorted(PACKAGES)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def base_root() -> Path:
    """The debootstrapped root, made once (a few minutes) and reused while the key is the same."""
    root = CACHE / f"bookworm-{base_key()}"
    done = root / ".dealerpi-base-done"
    if done.exists():
        return root
    shutil.rmtree(root, ignore_errors=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    log = CACHE / f"{root.name}.log"
    with log.open("w") as out:
        subprocess.run(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE, str(root),
                        MIRROR], stdout=out, stderr=subprocess.STDOUT, check=True, timeout=1800)
    done.touch()
    return root
