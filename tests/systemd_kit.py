"""Reading a systemd unit's directives, and its exposure score by ``systemd-analyze security --offline=true``."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path


def directives(unit: Path) -> dict[str, list[str]]:
    """Each directive's values in the order given (a directive may repeat)."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def exposure(unit: Path) -> float | None:
    """The overall exposure level, or None where systemd-analyze is not installed."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        return None
    result = subprocess.run([tool, "security", "--offline=true", str(unit)], capture_output=True, text=True,
                            check=False, timeout=60)
    match = re.search(rf"Overall exposure level for {re.escape(unit.name)}: (\d+\.\d+)", result.stdout)
    assert match is not None, result.stdout + result.stderr
    return float(match.group(1))
