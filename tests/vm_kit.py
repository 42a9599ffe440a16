"""A Debian bookworm VM with DealerPi installed the way docs/install-pi.md says, booted once under KVM.

``boot(work)`` copies the cached root (vm_root.py), installs the worktree into it by the doc's steps (in a
chroot: the venv, ``pip install -c hardware/constraints-aarch64.txt '/opt/dealerpi/src[pi,shoe]'``, the users,
the units, the udev rules and the modules-load file), adds the guest's probe (guest_probe.py, a oneshot unit
that runs after boot, checks what only systemd shows and writes one JSON object per fact to the second serial
port), makes an ext4 image of the root and boots it with Debian's kernel. The guest powers itself off when the
probe is done; the host reads the facts. Only the wheels come from the host's pip (its index), into a
wheelhouse the chroot installs from with ``--no-index``: the steps are the doc's, offline.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from vm_root import CACHE, base_root

REPO = Path(__file__).resolve().parents[1]
HERE = REPO / "tests" / "systemd"          # what goes into the guest: install-in-root.sh, guest_probe.py
BOOT_TIMEOUT = 1800          # seconds: the whole guest run (boot, probe, power-off) on a loaded 2-core host
# QEMU's accelerator. KVM would be minutes faster, but on these machines (themselves VMs, AMD EPYC) a KVM guest
# stops in the kernel's real-mode setup ("Probing EDD ... ok", then nothing, 10 minutes of host CPU): TCG,
# QEMU's own emulation, boots the same kernel. DEALERPI_TEST_ACCEL=kvm where nested KVM works.
ACCEL = os.environ.get("DEALERPI_TEST_ACCEL", "tcg,thread=multi")


def missing_tools() -> list[str]:
    """Host programs the VM route needs (Debian packages debootstrap, qemu-system-x86, e2fsprogs)."""
    tools = ["debootstrap", "qemu-system-x86_64", "mkfs.ext4", "chroot"]
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if ACCEL.startswith("kvm") and not os.access("/dev/kvm", os.R_OK | os.W_OK):
        missing.append("/dev/kvm")
    if os.geteuid() != 0:
        missing.append("root")
    return missing


def _source_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    return sorted(name for name in listed if name and (REPO / name).is_file())


def wheelhouse() -> Path:
    """Every wheel the doc's install needs, from the host's pip, cached by the constraints and pyproject."""
    key = hashlib.sha256((REPO / "hardware" / "constraints-aarch64.txt").read_bytes()
                         + (REPO / "pyproject.toml").read_bytes()).hexdigest()[:16]
    wheels = CACHE / f"wheels-{key}"
    if (wheels / ".done").exists():
        return wheels
    shutil.rmtree(wheels, ignore_errors=True)
    wheels.mkdir(parents=True)
    # the host is x86_64 with CPython 3.11, as bookworm's guest is: the same wheels
    pip = [str(REPO / ".venv" / "bin" / "python"), "-m", "pip", "download", "-q", "-d", str(wheels)]
    subprocess.run([*pip, "-c", str(REPO / "hardware" / "constraints-aarch64.txt"), f"{REPO}[pi,shoe]"],
                   check=True, timeout=600)
    # the build backend pip's build isolation asks for (pyproject's build-system), apart from the pinned one
    subprocess.run([*pip, "setuptools>=68", "wheel"], check=True, timeout=600)
    (wheels / ".done").touch()
    return wheels


def install_script() -> str:
    """docs/install-pi.md steps 6, 7, 8 and 10 (and docs/console.md's user), as root in the chroot."""
    return (HERE / "install-in-root.sh").read_text()


@dataclass
class Run:
    facts: dict[str, object]
    console: str
    seconds: float


def _copy_root(target: Path) -> None:
    subprocess.run(["cp", "-a", "--reflink=auto", f"{base_root()}/.", str(target)], check=True, timeout=600)


def prepare(work: Path) -> Path:
    """The guest's root under ``work``, DealerPi installed; returns it."""
    root = work / "root"
    root.mkdir()
    _copy_root(root)
    src = root / "opt" / "dealerpi" / "src"
    src.mkdir(parents=True)
    for name in _source_files():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, src / name)
    shutil.copytree(wheelhouse(), root / "tmp" / "wheels")
    shutil.copy2(HERE / "guest_probe.py", root / "opt" / "dealerpi-probe.py")
    (root / "tmp" / "install.sh").write_text(install_script())
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "/tmp/wheels", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    log = work / "install.log"
    with log.open("w") as out:
        done = subprocess.run(["chroot", str(root), "/bin/bash", "-euo", "pipefail", "/tmp/install.sh"], env=env,
                              stdout=out, stderr=subprocess.STDOUT, check=False, timeout=1200)
    assert done.returncode == 0, log.read_text()[-4000:]
    shutil.rmtree(root / "tmp" / "wheels")
    return root


def image(root: Path, path: Path) -> Path:
    subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "dealerpi", "-d", str(root), str(path), "3G"], check=True,
                   timeout=600)
    return path


def boot(work: Path) -> Run:
    """Install, boot, let the probe run, read its facts."""
    root = prepare(work)
    kernel = sorted((root / "boot").glob("vmlinuz-*"))[-1]
    initrd = sorted((root / "boot").glob("initrd.img-*"))[-1]
    shutil.copy2(kernel, work / "vmlinuz")
    shutil.copy2(initrd, work / "initrd.img")
    disk = image(root, work / "root.img")
    shutil.rmtree(root)
    console, facts = work / "console.log", work / "probe.jsonl"
    command = [
        # -cpu max under TCG: QEMU's default qemu64 lacks instructions lgpio's x86_64 wheel uses (SIGILL)
        "qemu-system-x86_64", "-accel", ACCEL, "-cpu", "max", "-m", "1024", "-smp", "2",
        "-display", "none", "-nodefaults", "-no-reboot", "-nic", "none",
        "-serial", f"file:{console}", "-serial", f"file:{facts}",
        "-drive", f"file={disk},format=raw,if=virtio",
        "-kernel", str(work / "vmlinuz"), "-initrd", str(work / "initrd.img"),
        "-append", "root=/dev/vda rw console=ttyS0 panic=-1 systemd.show_status=0 "
                   # the chipset's SMBus would be i2c-0; the doctor's test config wants i2c-stub there
                   "modprobe.blacklist=i2c_piix4",
    ]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=BOOT_TIMEOUT)
    seconds = time.monotonic() - started
    text = console.read_text(errors="replace") if console.exists() else ""
    assert done.returncode == 0, done.stderr + text[-4000:]
    found: dict[str, object] = {}
    for line in facts.read_text(errors="replace").splitlines():
        line = line.strip()
        if line.startswith("{"):
            found.update(json.loads(line))
    return Run(found, text, seconds)
