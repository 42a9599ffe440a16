"""firmware/flash.sh as a host runs it on the Pi (issue 13 item 10): mpremote from the venv or MPREMOTE, the
codec copy left alone when identical (the service user cannot write the root-owned source tree), and the
README section it points to exists."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FLASH = REPO / "firmware" / "flash.sh"


def test_flash_runs_mpremote_twice_on_the_port_and_points_to_a_real_section(tmp_path: Path) -> None:
    log = tmp_path / "calls"
    fake = tmp_path / "mpremote"
    fake.write_text(f"#!/bin/sh\nprintf '%s ' \"$@\" | tr '\\n' ' ' >> {log}\necho >> {log}\n")   # a call a line
    fake.chmod(0o755)
    codec = REPO / "firmware" / "lib" / "codec.py"
    before = codec.stat().st_mtime_ns
    port = tmp_path / "dealerpi-shoe"         # the udev name's stand-in: it exists, as a plugged-in shoe's does
    port.touch()
    done = subprocess.run(["sh", str(FLASH), str(port)], env={**os.environ, "MPREMOTE": str(fake)},
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert [call.split()[:2] for call in calls] == [["connect", str(port)]] * 2
    assert calls[1].endswith("+ cp main.py :main.py + reset ")
    assert codec.stat().st_mtime_ns == before                      # identical: not rewritten
    section = re.search(r'\(firmware/README.md, "([^"]+)"\)', done.stdout)
    assert section is not None, done.stdout
    headings = re.findall(r"^## (.+)$", (REPO / "firmware" / "README.md").read_text(), flags=re.M)
    assert section.group(1) in headings


def test_flash_without_mpremote_says_how_to_get_it(tmp_path: Path) -> None:
    done = subprocess.run(["sh", str(FLASH)], env={**os.environ, "MPREMOTE": str(tmp_path / "none")},
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("flash.sh: no mpremote; install the [shoe] extra in the venv: "
                           ".venv/bin/pip install -e '.[shoe]'\n")


def test_flash_without_a_shoe_says_so_and_calls_no_mpremote(tmp_path: Path) -> None:
    """Issue 23 item 6: no shoe plugged in used to end in mpremote's "it may be in use by another program";
    flash.sh now says plainly that the port is not there, and what to check."""
    log = tmp_path / "calls"
    fake = tmp_path / "mpremote"
    fake.write_text(f"#!/bin/sh\necho called >> {log}\n")
    fake.chmod(0o755)
    port = tmp_path / "dealerpi-shoe"
    done = subprocess.run(["sh", str(FLASH), str(port)], env={**os.environ, "MPREMOTE": str(fake)},
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"flash.sh: no shoe at {port}: plug the shoe's Pico in (USB) and check "
                           "ls -l /dev/dealerpi-shoe /dev/ttyACM*; on the Pi install systemd/99-dealerpi-shoe.rules "
                           "(docs/install-pi.md step 8)\n")
    assert not log.exists()
